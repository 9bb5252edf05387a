/* trace_reader_resync: after damage, finds the next trace header and reads
 * on from there, saying which bytes were skipped. */
#include "trace_input.h"
#include "trace_reader_internal.h"

#include <stdio.h>
#include <string.h>

int trace_reader_resync(struct trace_reader *r)
{
    const size_t klen = sizeof(TRACE_READER_HEADER_KEY) - 1, keep = klen + 7;
    uint64_t at, damage = r->error_offset;
    r->note[0] = '\0';
    if (!r->error[0] || r->error_code == TRACE_E_IO ||
        r->error_code == TRACE_E_NOMEM)
        return 0;
    /* From just after the record before the damage when it is still in the
     * window (a cut record may have swallowed the next header), else from
     * just after the damaged record's start. */
    at = damage + 1;
    if (r->prev_size && r->prev_off >= r->base && r->prev_off < damage)
        at = r->prev_off + 1;
    if (at < r->base)
        at = r->base;
    r->prev_size = 0; /* nothing to keep from here on */
    for (;;) {
        size_t i = (size_t)(at - r->base);
        /* a zstd frame in the plain bytes after the damage (cut plain +
         * compressed): given back to the input, which decompresses it
         * once the search below has looked at the bytes before it */
        for (size_t z = i; z + 4 <= r->fill; z++) {
            const uint8_t *hit = memchr(r->buf + z, 0x28, r->fill - z);
            if (!hit || (size_t)(hit - r->buf) + 4 > r->fill)
                break;
            z = (size_t)(hit - r->buf);
            if (memcmp(hit, TRACE_ZSTD_MAGIC, 4) == 0) {
                if (trace_input_unread(r->in, hit, r->fill - z)) {
                    r->fill = z;
                    r->eof = false;
                }
                break;
            }
        }
        while (i + klen <= r->fill) {
            const uint8_t *hit = memchr(r->buf + i, 0xa6, r->fill - i);
            int64_t start;
            if (!hit || (size_t)(hit - r->buf) + klen > r->fill)
                break;
            if (memcmp(hit, TRACE_READER_HEADER_KEY, klen) != 0) {
                i = (size_t)(hit - r->buf) + 1;
                continue;
            }
            start = header_start(r, (size_t)(hit - r->buf));
            if (start >= 0 && r->base + (uint64_t)start >= at) {
                uint64_t found = r->base + (uint64_t)start;
                r->pos = (size_t)start;
                if (found > damage)
                    snprintf(r->note, sizeof(r->note),
                             "%s: bytes %llu to %llu (%llu bytes) skipped: "
                             "reading on from the next trace header, at "
                             "byte %llu",
                             r->name, (unsigned long long)damage,
                             (unsigned long long)found,
                             (unsigned long long)(found - damage),
                             (unsigned long long)found);
                else
                    snprintf(r->note, sizeof(r->note),
                             "%s: the next trace header starts at byte %llu, "
                             "inside the record before the damage (byte "
                             "%llu): that record was cut short; reading on "
                             "from the header",
                             r->name, (unsigned long long)found,
                             (unsigned long long)damage);
                {
                    const char *in_note = trace_input_take_note(r->in);
                    size_t l = strlen(r->note);
                    if (in_note[0] && l + 3 < sizeof(r->note))
                        snprintf(r->note + l, sizeof(r->note) - l, "%s%s",
                                 l ? "; " : "", in_note);
                }
                r->error[0] = '\0';
                r->error_code = 0;
                return 1;
            }
            i = (size_t)(hit - r->buf) + 1;
        }
        if (r->eof) {
            r->pos = r->fill;
            return 0;
        }
        /* Drop what was searched, keeping a tail a match may start in. */
        r->pos = r->fill > keep ? r->fill - keep : 0;
        if (r->base + r->pos < at)
            r->pos = (size_t)(at - r->base);
        if (r->pos > r->fill) /* at is past what is held (a frame's bytes
                                 went back to the input) */
            r->pos = r->fill;
        at = r->base + r->pos;
        if (trace_reader_fill_more(r) != TRACE_OK) {
            r->pos = r->fill;
            return 0;
        }
    }
}

const char *trace_reader_resync_note(const struct trace_reader *r)
{
    return r->note;
}
