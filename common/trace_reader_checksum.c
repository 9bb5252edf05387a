/* trace_reader_checksum: checks version 2's per-record CRC-32C and names
 * the damaged record when it does not match. */
#include "trace_reader_internal.h"

#include <stdio.h>

#include "crc32c.h"

/* "a chunk of request 7", "a result", "a record of kind 9": what the
 * damaged record v is, for messages. */
static void describe(const struct mp_value *v, char *out, size_t size)
{
    static const char *const names[] = {NULL,      "header", "chunk",
                                        "request", "result", "footer"};
    int64_t kind = -1, id;
    if (v->type == MP_ARRAY && v->n >= 1)
        (void)mp_get_int(&v->v.items[0], &kind);
    if (kind == TRACE_CHUNK && v->n >= 2 && mp_get_int(&v->v.items[1], &id))
        snprintf(out, size, "a chunk of request %lld", (long long)id);
    else if (kind >= 1 && kind <= 5)
        snprintf(out, size, "a %s", names[kind]);
    else
        snprintf(out, size, "a record of kind %lld", (long long)kind);
}

/* True when the record v must end with a checksum: any record of a
 * version 2 trace, and a header of the shape every version 2 writer gives
 * it, [1, map, crc] (a version 1 header is [1, map]), whatever its map
 * says: so a changed "version" is found too. */
bool trace_reader_wants_checksum(const struct trace_reader *r,
                                 const struct mp_value *v)
{
    int64_t kind, version;
    if (v->type == MP_ARRAY && v->n >= 2 && mp_get_int(&v->v.items[0], &kind) &&
        kind == TRACE_HEADER && v->v.items[1].type == MP_MAP) {
        if (v->n >= 3)
            return true;
        /* [1, map] claiming version 2 lacks its checksum: damage (a
         * version from the future is refused as such by trace_reader_interpret)
         */
        return mp_get_int(mp_map_get(&v->v.items[1], "version"), &version) &&
               version >= 2 && version <= TRACE_FORMAT_VERSION;
    }
    return r->version >= 2;
}

/* Checks a version 2 record's checksum (its last element: 0xce and 4
 * bytes) against its bytes at p, size bytes, and drops that element from
 * the tree. Returns 0 or -TRACE_E_CHECKSUM (fail called). */
int trace_reader_verify_checksum(struct trace_reader *r,
                                 struct trace_record *rec, struct mp_value *v,
                                 const uint8_t *p, size_t size)
{
    char what[64];
    uint32_t stored, computed;
    describe(v, what, sizeof(what));
    if (v->type != MP_ARRAY || v->n < 2 || size < 6 || p[size - 5] != 0xce ||
        v->v.items[v->n - 1].type != MP_UINT)
        return trace_reader_fail(
            r, TRACE_E_CHECKSUM, rec->offset,
            "record %llu (%s) has no checksum, which every record of "
            "a version 2 trace ends with: damage",
            (unsigned long long)r->records + 1, what);
    stored = (uint32_t)p[size - 4] << 24 | (uint32_t)p[size - 3] << 16 |
             (uint32_t)p[size - 2] << 8 | (uint32_t)p[size - 1];
    computed = crc32c(0, p, size - 5);
    if (stored != computed)
        return trace_reader_fail(
            r, TRACE_E_CHECKSUM, rec->offset,
            "record %llu (%s): checksum mismatch: its bytes changed "
            "after it was written (stored %08x, computed %08x)",
            (unsigned long long)r->records + 1, what, stored, computed);
    v->n--;
    r->verified++;
    return 0;
}
