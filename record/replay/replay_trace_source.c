/* replay_trace_source: loads a trace's responses with common/trace.h's
 * reader and hands them out per model, round robin. */
#include "replay_trace_source.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* The recordings of one model, as indices into the source's list. */
struct model_ring {
    char *model;
    size_t *idx;
    size_t n, cap, next;
};

struct replay_trace_source {
    struct replay_recording *recs;
    size_t n, cap;
    bool *has_result; /* per recording, while loading */
    size_t cap_has;
    struct model_ring *rings;
    size_t n_rings, cap_rings;
    size_t next_any;
    /* (trace_index, request id) -> recording index + 1, while loading */
    uint64_t *keys;
    size_t *vals;
    size_t map_cap;
};

/* Grows *p (of *cap items of size sz) to hold want items. 0 or -1. */
static int grow(void **p, size_t *cap, size_t want, size_t sz)
{
    size_t ncap = *cap ? *cap : 16;
    void *np;

    if (want <= *cap)
        return 0;
    while (ncap < want)
        ncap *= 2;
    np = realloc(*p, ncap * sz);
    if (np == NULL)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

/* Mixes a (trace, request id) key for the open-addressing map. */
static uint64_t hash_key(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    return k ^ (k >> 33);
}

/* Finds the slot of key (empty slot if absent). map_cap is a power of 2. */
static size_t map_slot(const struct replay_trace_source *s, uint64_t key)
{
    size_t i = (size_t)hash_key(key) & (s->map_cap - 1);
    while (s->vals[i] != 0 && s->keys[i] != key)
        i = (i + 1) & (s->map_cap - 1);
    return i;
}

/* Maps key to recording index idx. 0 or -1. */
static int map_put(struct replay_trace_source *s, uint64_t key, size_t idx)
{
    size_t i;

    if ((s->n + 1) * 2 > s->map_cap) {
        uint64_t *ok = s->keys;
        size_t *ov = s->vals, ocap = s->map_cap, j;
        s->map_cap = ocap ? ocap * 2 : 1024;
        s->keys = calloc(s->map_cap, sizeof(*s->keys));
        s->vals = calloc(s->map_cap, sizeof(*s->vals));
        if (s->keys == NULL || s->vals == NULL) {
            free(ok);
            free(ov);
            return -1;
        }
        for (j = 0; j < ocap; j++) {
            if (ov[j] != 0) {
                size_t k = map_slot(s, ok[j]);
                s->keys[k] = ok[j];
                s->vals[k] = ov[j];
            }
        }
        free(ok);
        free(ov);
    }
    i = map_slot(s, key);
    s->keys[i] = key;
    s->vals[i] = idx + 1;
    return 0;
}

/* The recording of key, or NULL. */
static struct replay_recording *map_get(struct replay_trace_source *s,
                                        uint64_t key, size_t *idx)
{
    size_t i;

    if (s->map_cap == 0)
        return NULL;
    i = map_slot(s, key);
    if (s->vals[i] == 0)
        return NULL;
    *idx = s->vals[i] - 1;
    return &s->recs[*idx];
}

/* strdup that passes NULL through (NULL also when out of memory). */
static char *dup_or_null(const char *v)
{
    return v ? strdup(v) : NULL;
}

/* A request record: a new, empty recording under key. 0 or -1. */
static int on_request(struct replay_trace_source *s, uint64_t key,
                      const struct trace_request *q)
{
    struct replay_recording *r;
    void *p = s->recs, *h = s->has_result;

    if (grow(&p, &s->cap, s->n + 1, sizeof(*s->recs)) != 0)
        return -1;
    s->recs = p;
    if (grow(&h, &s->cap_has, s->n + 1, sizeof(*s->has_result)) != 0)
        return -1;
    s->has_result = h;
    r = &s->recs[s->n];
    memset(r, 0, sizeof(*r));
    s->has_result[s->n] = false;
    r->model = strdup(q->model ? q->model : "");
    r->header_ns = -1;
    r->end_ns = 0;
    if (r->model == NULL || map_put(s, key, s->n) != 0)
        return -1;
    s->n++;
    return 0;
}

/* A chunk record: appends its bytes and delay to its recording. 0 or -1. */
static int on_chunk(struct replay_trace_source *s, uint64_t key,
                    const struct trace_chunk *c, int64_t start_ns)
{
    size_t idx;
    struct replay_recording *r = map_get(s, key, &idx);
    void *p;
    struct replay_rec_chunk *rc;

    if (r == NULL)
        return 0; /* a chunk of a request we never saw: ignore */
    p = r->chunks;
    if (grow(&p, &r->cap_chunks, r->n_chunks + 1, sizeof(*r->chunks)))
        return -1;
    r->chunks = p;
    p = r->bytes;
    if (grow(&p, &r->cap_bytes, r->n_bytes + c->len + 1, 1) != 0)
        return -1;
    r->bytes = p;
    rc = &r->chunks[r->n_chunks++];
    rc->delay_ns = c->t_ns - start_ns;
    if (rc->delay_ns < 0)
        rc->delay_ns = 0;
    rc->off = r->n_bytes;
    rc->len = c->len;
    if (c->len)
        memcpy(r->bytes + r->n_bytes, c->data, c->len);
    r->n_bytes += c->len;
    return 0;
}

/* A result record: status, content type, Retry-After, header and end
 * delays. 0 (cannot fail but for a missing recording, which it skips). */
static int on_result(struct replay_trace_source *s, uint64_t key,
                     const struct trace_result *res, int64_t start_ns)
{
    size_t idx;
    struct replay_recording *r = map_get(s, key, &idx);

    if (r == NULL)
        return 0;
    s->has_result[idx] = true;
    r->status = res->http_status;
    r->content_type = dup_or_null(trace_result_header(res, "content-type"));
    r->retry_after = dup_or_null(trace_result_header(res, "retry-after"));
    if (res->phases.starttransfer_ns >= 0)
        r->header_ns = res->phases.starttransfer_ns;
    if (res->end_ns >= start_ns)
        r->end_ns = res->end_ns - start_ns;
    return 0;
}

/* Start times by recording index: kept beside the recordings while
 * loading (chunk times are made relative to them). */
struct starts {
    int64_t *t;
    size_t cap;
};

/* The start time of recording idx (0 if unknown). */
static int64_t start_of(const struct starts *st, size_t idx)
{
    return idx < st->cap ? st->t[idx] : 0;
}

/* Reads every record of tr into s. Returns 0 or -1 with err. A damaged
 * tail is tolerated when something was read before it. */
static int read_all(struct trace_reader *tr, struct replay_trace_source *s,
                    char *err, size_t errlen)
{
    struct starts st = {NULL, 0};
    struct trace_record rec;
    int rc, out = -1;

    while ((rc = trace_reader_next(tr, &rec)) == 1) {
        uint64_t key;
        size_t idx = 0;
        int r = 0;
        switch (rec.kind) {
        case TRACE_REQUEST:
            key = ((uint64_t)rec.trace_index << 32) | rec.u.request.id;
            if (map_get(s, key, &idx) != NULL)
                break; /* a duplicate id: keep the first */
            r = on_request(s, key, &rec.u.request);
            if (r == 0) {
                void *p = st.t;
                size_t cap = st.cap;
                if (grow(&p, &cap, s->n, sizeof(*st.t)) != 0) {
                    r = -1;
                    break;
                }
                st.t = p;
                st.cap = cap;
                st.t[s->n - 1] = rec.u.request.start_ns;
            }
            break;
        case TRACE_CHUNK:
            key = ((uint64_t)rec.trace_index << 32) | rec.u.chunk.request_id;
            if (map_get(s, key, &idx) != NULL)
                r = on_chunk(s, key, &rec.u.chunk, start_of(&st, idx));
            break;
        case TRACE_RESULT:
            key = ((uint64_t)rec.trace_index << 32) | rec.u.result.id;
            if (map_get(s, key, &idx) != NULL)
                r = on_result(s, key, &rec.u.result, start_of(&st, idx));
            break;
        default:
            break;
        }
        if (r != 0) {
            snprintf(err, errlen, "%s: out of memory", trace_reader_name(tr));
            goto done;
        }
    }
    if (rc < 0 && s->n == 0) {
        snprintf(err, errlen, "%s", trace_reader_error(tr));
        goto done;
    }
    out = 0;
done:
    free(st.t);
    return out;
}

/* Frees the memory of one recording. */
static void rec_free(struct replay_recording *r)
{
    free(r->model);
    free(r->content_type);
    free(r->retry_after);
    free(r->chunks);
    free(r->bytes);
}

/* Drops recordings with no response, fills in defaults, builds rings. */
static int finish(struct replay_trace_source *s)
{
    size_t i, j, kept = 0;

    for (i = 0; i < s->n; i++) {
        struct replay_recording *r = &s->recs[i];
        int64_t last = r->n_chunks ? r->chunks[r->n_chunks - 1].delay_ns : 0;
        if (!s->has_result[i] && r->n_chunks > 0)
            r->status = 200; /* cut trace: the stream was running */
        if (r->status < 100 || r->status > 599) {
            rec_free(r);
            continue;
        }
        if (r->header_ns < 0 ||
            (r->n_chunks && r->header_ns > r->chunks[0].delay_ns))
            r->header_ns = r->n_chunks ? r->chunks[0].delay_ns : 0;
        if (r->end_ns < last)
            r->end_ns = last;
        s->recs[kept++] = *r;
    }
    s->n = kept;
    for (i = 0; i < s->n; i++) {
        struct model_ring *ring = NULL;
        void *p;
        for (j = 0; j < s->n_rings; j++) {
            if (strcmp(s->rings[j].model, s->recs[i].model) == 0)
                ring = &s->rings[j];
        }
        if (ring == NULL) {
            p = s->rings;
            if (grow(&p, &s->cap_rings, s->n_rings + 1, sizeof(*s->rings)))
                return -1;
            s->rings = p;
            ring = &s->rings[s->n_rings++];
            memset(ring, 0, sizeof(*ring));
            ring->model = s->recs[i].model;
        }
        p = ring->idx;
        if (grow(&p, &ring->cap, ring->n + 1, sizeof(*ring->idx)) != 0)
            return -1;
        ring->idx = p;
        ring->idx[ring->n++] = i;
    }
    return 0;
}

int replay_trace_source_load(const char *path, struct replay_trace_source **out,
                             char *err, size_t errlen)
{
    struct replay_trace_source *s = calloc(1, sizeof(*s));
    struct trace_reader *tr = NULL;
    int rc;

    if (s == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    rc = trace_reader_open(path, &tr);
    if (rc != TRACE_OK) {
        snprintf(err, errlen, "cannot read trace %s: %s", path,
                 tr ? trace_reader_error(tr) : trace_strerror(rc));
        goto fail;
    }
    if (read_all(tr, s, err, errlen) != 0)
        goto fail;
    if (finish(s) != 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    if (s->n == 0) {
        snprintf(err, errlen, "%s: no recorded request got a response", path);
        goto fail;
    }
    trace_reader_close(tr);
    free(s->keys);
    free(s->vals);
    free(s->has_result);
    s->keys = NULL;
    s->vals = NULL;
    s->has_result = NULL;
    s->map_cap = 0;
    *out = s;
    return 0;
fail:
    trace_reader_close(tr);
    replay_trace_source_free(s);
    return -1;
}

const struct replay_recording *
replay_trace_source_pick(struct replay_trace_source *src, const char *model)
{
    size_t i;

    for (i = 0; model != NULL && i < src->n_rings; i++) {
        struct model_ring *ring = &src->rings[i];
        if (strcmp(ring->model, model) == 0) {
            size_t idx = ring->idx[ring->next];
            ring->next = (ring->next + 1) % ring->n;
            return &src->recs[idx];
        }
    }
    i = src->next_any;
    src->next_any = (src->next_any + 1) % src->n;
    return &src->recs[i];
}

const char *replay_trace_source_model(const struct replay_trace_source *src,
                                      size_t i, size_t *n)
{
    *n = src->n_rings;
    return i < src->n_rings ? src->rings[i].model : NULL;
}

void replay_trace_source_free(struct replay_trace_source *src)
{
    size_t i;

    if (src == NULL)
        return;
    for (i = 0; i < src->n; i++)
        rec_free(&src->recs[i]);
    for (i = 0; i < src->n_rings; i++)
        free(src->rings[i].idx);
    free(src->rings);
    free(src->recs);
    free(src->has_result);
    free(src->keys);
    free(src->vals);
    free(src);
}
