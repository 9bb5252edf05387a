/* trace_zstd_test: compressed traces (zstd frames, one per flush) read as
 * the same records as plain ones; cut at every frame boundary, a file
 * reads back exactly the records of its whole frames and ends cleanly;
 * cut inside a frame, the records of the frames before it and a "tail
 * cut" error; plain and compressed traces concatenate in any order; a
 * flipped byte in a frame is found by its checksum. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "trace.h"

#define FRAMES 6
#define PER_FRAME 5

static char dir[] = "/tmp/tt_test_zstd.XXXXXX";

/* Writes a trace of FRAMES flushes of PER_FRAME chunk records each (the
 * header in the first); compressed when level > 0. */
static void write_trace(const char *path, int level)
{
    struct trace_writer *w;
    struct trace_header h = {.tool_version = "t", .trace_id = "0badf00d"};
    char text[200];
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    CHECK(trace_writer_set_compression(w, level) == TRACE_OK);
    CHECK(trace_write_header(w, &h) == TRACE_OK);
    for (int f = 0; f < FRAMES; f++) {
        for (int i = 0; i < PER_FRAME; i++) {
            int n = snprintf(text, sizeof(text),
                             "data: {\"choices\":[{\"delta\":{\"content\":"
                             "\"word %d of frame %d\"}}]}\n\n",
                             i, f);
            CHECK(trace_write_chunk(w, 1, f * 1000 + i, text, (size_t)n) ==
                  TRACE_OK);
        }
        CHECK(trace_writer_flush(w) == TRACE_OK);
    }
    CHECK(trace_writer_close(w) == TRACE_OK);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *p = malloc(1 << 20);
    *len = fread(p, 1, 1 << 20, f);
    fclose(f);
    return p;
}

static void spill(const char *path, const void *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(fwrite(p, 1, len, f) == len);
    fclose(f);
}

/* Reads path; returns the records read, *end the last return of next. */
static int read_all(const char *path, int *end, unsigned *traces, char *err,
                    size_t errsize)
{
    struct trace_reader *r;
    struct trace_record rec;
    int n = 0, st;
    CHECK(trace_reader_open(path, &r) == TRACE_OK);
    *traces = 0;
    while ((st = trace_reader_next(r, &rec)) == 1) {
        n++;
        *traces = rec.trace_index + 1;
        if (rec.kind == TRACE_CHUNK)
            CHECK(rec.u.chunk.len > 40 && rec.u.chunk.data[0] == 'd');
    }
    *end = st;
    snprintf(err, errsize, "%s", trace_reader_error(r));
    trace_reader_close(r);
    return n;
}

int main(void)
{
    char plain[300], zst[300], cut[300], cat[300], err[600];
    unsigned char *z, *p, *both;
    size_t zlen, plen, off = 0, bounds[FRAMES + 1];
    int nb = 0, end;
    unsigned traces;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(plain, sizeof(plain), "%s/p.ttrace", dir);
    snprintf(zst, sizeof(zst), "%s/z.ttrace.zst", dir);
    snprintf(cut, sizeof(cut), "%s/cut.zst", dir);
    snprintf(cat, sizeof(cat), "%s/cat.ttrace", dir);
    CHECK(trace_path_compressed(zst) && !trace_path_compressed(plain));
    write_trace(plain, 0);
    write_trace(zst, 3);
    p = slurp(plain, &plen);
    z = slurp(zst, &zlen);
    CHECK(zlen < plen && memcmp(z, "\x28\xb5\x2f\xfd", 4) == 0);
    CHECK(read_all(zst, &end, &traces, err, sizeof(err)) ==
          1 + FRAMES * PER_FRAME);
    CHECK(end == 0 && traces == 1);

    /* one frame per flush, each a whole zstd frame */
    while (off < zlen) {
        size_t fs = ZSTD_findFrameCompressedSize(z + off, zlen - off);
        CHECK(!ZSTD_isError(fs));
        if (ZSTD_isError(fs))
            break;
        off += fs;
        bounds[nb++] = off;
        if (nb == FRAMES + 1)
            break;
    }
    CHECK(nb == FRAMES && off == zlen);

    /* cut at every frame boundary: the whole frames' records, clean end */
    for (int b = 0; b < nb; b++) {
        spill(cut, z, bounds[b]);
        CHECK_MSG(read_all(cut, &end, &traces, err, sizeof(err)) ==
                          1 + (b + 1) * PER_FRAME &&
                      end == 0,
                  "cut after frame %d: %s", b, err);
    }
    /* cut at every byte inside a frame: the frames before, then the cut */
    for (size_t at = 1; at < zlen; at++) {
        int whole = 0, n;
        bool boundary = false;
        for (int b = 0; b < nb; b++) {
            if (bounds[b] == at)
                boundary = true;
            if (bounds[b] <= at)
                whole = b + 1;
        }
        if (boundary)
            continue;
        spill(cut, z, at);
        n = read_all(cut, &end, &traces, err, sizeof(err));
        CHECK_MSG(end == -TRACE_E_TRUNCATED && strstr(err, "tail was cut") &&
                      strstr(err, "inside the zstd frame at file byte"),
                  "cut at %zu: %d: %s", at, end, err);
        CHECK_MSG(n >= (whole ? 1 + whole * PER_FRAME : 0), "cut at %zu: %d",
                  at, n);
    }

    /* concatenations in every order */
    both = malloc(2 * (plen + zlen));
    memcpy(both, z, zlen);
    memcpy(both + zlen, p, plen);
    memcpy(both + zlen + plen, z, zlen);
    memcpy(both + 2 * zlen + plen, p, plen);
    spill(cat, both, 2 * (zlen + plen));
    CHECK(read_all(cat, &end, &traces, err, sizeof(err)) ==
          4 * (1 + FRAMES * PER_FRAME));
    CHECK_MSG(end == 0 && traces == 4, "%d %u %s", end, traces, err);
    spill(cat, both + zlen, plen + zlen);
    CHECK(read_all(cat, &end, &traces, err, sizeof(err)) ==
          2 * (1 + FRAMES * PER_FRAME));
    CHECK_MSG(end == 0 && traces == 2, "plain then zstd: %s", err);

    /* a flipped byte inside the third frame: found, named by the frame */
    z[bounds[1] + (bounds[2] - bounds[1]) / 2] ^= 0x10;
    spill(cut, z, zlen);
    read_all(cut, &end, &traces, err, sizeof(err));
    CHECK_MSG(end < 0 && strstr(err, "zstd frame at file byte"), "flip: %s",
              err);

    free(both);
    free(p);
    free(z);
    unlink(plain);
    unlink(zst);
    unlink(cut);
    unlink(cat);
    rmdir(dir);
    return CHECK_DONE();
}
