/* trace_chunk_test: trace_write_chunk writes the same bytes as msgpack-c's
 * packer ([2, id, t, bin], shortest encodings) for request ids, times and
 * payload sizes on both sides of every integer-width boundary. */
#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "trace.h"

static const uint32_t ids[] = {0,   1,     127,   128,       255,
                               256, 65535, 65536, 16777216u, UINT32_MAX};
static const int64_t times[] = {0,
                                1,
                                127,
                                128,
                                255,
                                256,
                                65535,
                                65536,
                                4294967295LL,
                                4294967296LL,
                                INT64_MAX,
                                -1,
                                -32,
                                -33,
                                -128,
                                -129,
                                -32768,
                                -32769,
                                INT32_MIN,
                                (int64_t)INT32_MIN - 1,
                                INT64_MIN,
                                1764480000123456789LL};
static const size_t sizes[] = {0, 1, 255, 256, 65535, 65536, 70001};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Every id x time with the small sizes; the payloads of 64 KiB and more
 * only with one combination in five (the file stays a few MB). */
static bool wanted(size_t i, size_t j, size_t k)
{
    return sizes[k] < 65535 || (i + j) % 5 == 0;
}

/* The reference: the records through msgpack-c's generic packer. */
static void pack_reference(msgpack_sbuffer *sb, const char *payload)
{
    msgpack_packer pk;
    size_t i, j, k;

    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    for (i = 0; i < N(ids); i++)
        for (j = 0; j < N(times); j++)
            for (k = 0; k < N(sizes); k++) {
                if (!wanted(i, j, k))
                    continue;
                msgpack_pack_array(&pk, 4);
                msgpack_pack_uint8(&pk, (uint8_t)TRACE_CHUNK);
                msgpack_pack_uint32(&pk, ids[i]);
                msgpack_pack_int64(&pk, times[j]);
                msgpack_pack_bin(&pk, sizes[k]);
                msgpack_pack_bin_body(&pk, payload, sizes[k]);
            }
}

/* Reads the whole file at path; *len its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long n;

    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1)) &&
        fread(data, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    fclose(f);
    return data;
}

int main(void)
{
    char path[] = "/tmp/trace_chunk_test.XXXXXX";
    char *payload = malloc(70001), *got;
    struct trace_writer *w = NULL;
    msgpack_sbuffer want;
    size_t i, j, k, got_len = 0, off;
    int fd = mkstemp(path);

    CHECK(fd >= 0 && payload != NULL);
    if (fd < 0 || payload == NULL)
        return CHECK_DONE();
    close(fd);
    for (i = 0; i < 70001; i++)
        payload[i] = (char)(i * 31 + 7);
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    /* version 1: the bytes msgpack-c's packer gives (version 2 appends a
     * checksum, tests/common/trace_checksum_test.c) */
    CHECK(trace_writer_set_version(w, 1) == TRACE_OK);
    for (i = 0; i < N(ids); i++)
        for (j = 0; j < N(times); j++)
            for (k = 0; k < N(sizes); k++)
                if (wanted(i, j, k))
                    CHECK(trace_write_chunk(w, ids[i], times[j], payload,
                                            sizes[k]) == TRACE_OK);
    CHECK(trace_writer_close(w) == TRACE_OK);
    msgpack_sbuffer_init(&want);
    pack_reference(&want, payload);
    got = slurp(path, &got_len);
    CHECK_MSG(got != NULL && got_len == want.size, "size %zu, want %zu",
              got_len, want.size);
    if (got != NULL && got_len == want.size) {
        for (off = 0; off < got_len && got[off] == want.data[off]; off++)
            ;
        CHECK_MSG(off == got_len, "first difference at byte %zu", off);
    }
    free(got);
    msgpack_sbuffer_destroy(&want);
    free(payload);
    unlink(path);
    return CHECK_DONE();
}
