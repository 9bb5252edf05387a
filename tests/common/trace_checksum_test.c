/* trace_checksum_test: format version 2. CRC-32C and SHA-256 against their
 * published test vectors; a version 2 trace reads back with every record
 * verified and the file's SHA-256; every single-byte change anywhere in it
 * (payload bytes above all) is found, never read as valid records, while
 * in version 1 a change inside a payload reads as valid text (what the
 * checksums are for); version 1 and 2 traces concatenate. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "crc32c.h"
#include "sha256.h"
#include "trace.h"

static char dir[] = "/tmp/tt_test_crc.XXXXXX";

static void write_trace(const char *path, unsigned version)
{
    struct trace_writer *w;
    struct trace_header h = {.tool_version = "t", .trace_id = "c0ffee00"};
    struct trace_request q = {.id = 1,
                              .model = "m",
                              .class_name = "short-short",
                              .body = "{\"messages\":[{\"content\":\"hi\"}]}",
                              .body_len = 31,
                              .scheduled_ns = -1,
                              .start_ns = 10};
    struct trace_result s = {.id = 1,
                             .end_ns = 99,
                             .http_status = 200,
                             .bytes = 0,
                             .chunks = 3,
                             .attempt = 1};
    struct trace_footer f = {.end_ns = 100,
                             .requests = 1,
                             .ok = 1,
                             .chunks = 3,
                             .reason = "complete"};
    const char *text[] = {
        "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}"
        "\n\n",
        "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}"
        "\n\n",
        "data: [DONE]\n\n"};
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    CHECK(trace_writer_set_version(w, version) == TRACE_OK);
    CHECK(trace_writer_version(w) == version);
    CHECK(trace_write_header(w, &h) == TRACE_OK);
    CHECK(trace_writer_set_version(w, 1) == TRACE_E_VERSION); /* too late */
    CHECK(trace_write_request(w, &q) == TRACE_OK);
    for (int i = 0; i < 3; i++) {
        CHECK(trace_write_chunk(w, 1, 20 + i, text[i], strlen(text[i])) ==
              TRACE_OK);
        s.bytes += strlen(text[i]);
    }
    f.bytes = s.bytes;
    CHECK(trace_write_result(w, &s) == TRACE_OK);
    CHECK(trace_write_footer(w, &f) == TRACE_OK);
    CHECK(trace_writer_close(w) == TRACE_OK);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *p = malloc(1 << 16);
    *len = fread(p, 1, 1 << 16, f);
    fclose(f);
    return p;
}

static void spill(const char *path, const void *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(fwrite(p, 1, len, f) == len);
    fclose(f);
}

/* Reads every record: returns how many, *end the last status, *verified
 * the checksums that matched, sha the file's digest. */
static int read_all(const char *path, int *end, uint64_t *verified, char *sha)
{
    struct trace_reader *r;
    struct trace_record rec;
    int n = 0;
    CHECK(trace_reader_open(path, &r) == TRACE_OK);
    if (sha)
        trace_reader_want_sha256(r);
    while ((*end = trace_reader_next(r, &rec)) == 1)
        n++;
    *verified = trace_reader_verified(r);
    if (sha)
        CHECK(trace_reader_sha256(r, sha) == TRACE_OK);
    trace_reader_close(r);
    return n;
}

int main(void)
{
    char v2[300], v1[300], bad[300], sha[65], want[65];
    unsigned char *d2, *d1, *both;
    size_t n2, n1, payload = 0, missed = 0;
    uint64_t verified;
    struct sha256 s;
    int end;

    CHECK(crc32c(0, "123456789", 9) == 0xe3069283u);
    CHECK(crc32c(crc32c(0, "1234", 4), "56789", 5) == 0xe3069283u);
    CHECK(crc32c(0, "", 0) == 0);
    sha256_init(&s);
    sha256_update(&s, "abc", 3);
    CHECK(strcmp(sha256_hex(&s, sha), "ba7816bf8f01cfea414140de5dae2223b00361"
                                      "a396177a9cb410ff61f20015ad") == 0);
    sha256_init(&s);
    CHECK(strcmp(sha256_hex(&s, sha), "e3b0c44298fc1c149afbf4c8996fb92427ae41"
                                      "e4649b934ca495991b7852b855") == 0);

    CHECK(mkdtemp(dir) != NULL);
    snprintf(v2, sizeof(v2), "%s/v2.ttrace", dir);
    snprintf(v1, sizeof(v1), "%s/v1.ttrace", dir);
    snprintf(bad, sizeof(bad), "%s/bad.ttrace", dir);
    write_trace(v2, 2);
    write_trace(v1, 1);
    d2 = slurp(v2, &n2);
    d1 = slurp(v1, &n1);
    CHECK(n2 == n1 + 7 * 5); /* 7 records, 5 bytes of checksum each */
    CHECK(read_all(v2, &end, &verified, sha) == 7 && end == 0);
    CHECK(verified == 7);
    sha256_init(&s);
    sha256_update(&s, d2, n2);
    CHECK(strcmp(sha, sha256_hex(&s, want)) == 0);
    CHECK(read_all(v1, &end, &verified, NULL) == 7 && end == 0 &&
          verified == 0);

    /* every single-byte change of the version 2 file is found */
    for (size_t i = 0; i < n2; i++)
        for (int x = 0; x < 2; x++) {
            int n;
            d2[i] ^= x ? 0xff : 0x01;
            spill(bad, d2, n2);
            n = read_all(bad, &end, &verified, NULL);
            CHECK_MSG(end < 0, "byte %zu ^ %s read as %d valid records", i,
                      x ? "ff" : "01", n);
            d2[i] ^= x ? 0xff : 0x01;
        }
    /* a payload byte: a checksum mismatch, in version 2; valid in 1 */
    for (size_t i = 0; i + 7 < n1; i++) {
        int n;
        if (memcmp(d1 + i, "content", 7) != 0)
            continue;
        payload++;
        d1[i + 2] ^= 0x01; /* "cpntent": still text */
        spill(bad, d1, n1);
        n = read_all(bad, &end, &verified, NULL);
        missed += n == 7 && end == 0;
        d1[i + 2] ^= 0x01;
    }
    CHECK(payload >= 3 && missed == payload); /* version 1 cannot tell */
    for (size_t i = 0; i + 7 < n2; i++) {
        if (memcmp(d2 + i, "content", 7) != 0)
            continue;
        d2[i + 2] ^= 0x01;
        spill(bad, d2, n2);
        read_all(bad, &end, &verified, NULL);
        CHECK(end == -TRACE_E_CHECKSUM);
        d2[i + 2] ^= 0x01;
    }

    /* versions concatenate, in either order */
    both = malloc(2 * (n1 + n2));
    memcpy(both, d1, n1);
    memcpy(both + n1, d2, n2);
    memcpy(both + n1 + n2, d1, n1);
    spill(bad, both, 2 * n1 + n2);
    CHECK(read_all(bad, &end, &verified, NULL) == 21 && end == 0 &&
          verified == 7);
    free(both);
    free(d1);
    free(d2);
    unlink(v1);
    unlink(v2);
    unlink(bad);
    rmdir(dir);
    return CHECK_DONE();
}
