/* share_ctx: the state of one share run and the helpers its record
 * writers share (share_ctx.c): aliases, filled copies of values. */
#ifndef TT_SHARE_CTX_H
#define TT_SHARE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "id_map.h"
#include "mp.h"
#include "share.h"
#include "share_fill.h"

#define REMOVED "(removed by share)"

struct alias {
    char *name;
    char *alias; /* its own allocation: trees point at it while the
                    list grows */
};

/* An alias list: "model-1", "class-1", ... */
struct alias_list {
    struct alias *v;
    size_t n;
};

#define SHARE_MAX_BODY_NAMES 32

struct share_ctx {
    const struct share_options *o;
    struct share_report *rep;
    struct trace_writer *w;
    struct id_map fills; /* request id -> struct share_fill (this trace) */
    struct buf scratch;
    struct alias_list models, labels, classes;
    struct share_fill_rules prompt, reply, all;
    /* member names --extra-body put into every request body (the header's
     * options say which): filled there, their values whole */
    char *body_names[SHARE_MAX_BODY_NAMES];
    size_t n_body_names;
    const char *free_form[SHARE_MAX_BODY_NAMES + 16];
    void **owned; /* filled copies the record being written points into */
    size_t n_owned, cap_owned;
};

/* Sets the fill rules from c->o. */
void share_ctx_rules(struct share_ctx *c);

/* Adds the top-level member names of the JSON object text (--extra-body)
 * to c->body_names and the rules. 0 or TRACE_E_NOMEM. */
int share_body_names(struct share_ctx *c, const char *json, size_t len);

/* Fills, in a request body already filled, each member name in
 * c->body_names ("NAME" followed by a ':'). */
void share_fill_body_names(const struct share_ctx *c, uint8_t *p, size_t n);

/* A string member of a request or result record that share has no rule
 * for (a key of a newer recorder): kept when its name k is in keep
 * (NULL-terminated), else filled whole into a copy the context owns until
 * share_release. Other types stay. 0 or TRACE_E_NOMEM. */
int share_other_string(struct share_ctx *c, const struct mp_value *k,
                       struct mp_value *v, const char *const *keep);

/* Frees the copies share_other_string made (after the record is written). */
void share_release(struct share_ctx *c);

/* Frees the alias lists and the body names. */
void share_ctx_free(struct share_ctx *c);

/* The alias of name in list ("PREFIX-1", ...), made on first use (then
 * *made counts it). NULL when out of memory. */
const char *share_alias(struct alias_list *list, const char *prefix,
                        const uint8_t *name, size_t len, unsigned *made);

/* Points v at the static or long-lived string s. */
void share_set_str(struct mp_value *v, const char *s);

/* A model name, renamed with --anonymize-models. 0 or TRACE_E_NOMEM. */
int share_model_value(struct share_ctx *c, struct mp_value *v);

/* A request class: one of the recorder's own names stays, a workload's own
 * becomes class-N. 0 or TRACE_E_NOMEM. */
int share_class_value(struct share_ctx *c, struct mp_value *v);

/* Copies v's bytes into the scratch buffer and fills them by rules r;
 * *bytes counts the bytes replaced. 0 or TRACE_E_NOMEM. */
int share_fill_copy(struct share_ctx *c, struct mp_value *v,
                    const struct share_fill_rules *r, uint64_t *bytes);

/* A copy of the record's root array and field map (malloc'd; extra free
 * slots at the map's end). 0 or TRACE_E_NOMEM. */
int share_copy_record(const struct mp_value *raw, size_t extra,
                      struct mp_value *root, struct mp_value **map);

/* Frees what share_copy_record allocated. */
void share_free_record(struct mp_value *root);

/* Writes the shared copy of a header record (share_head.c). */
int share_header(struct share_ctx *c, const struct mp_value *raw);

#endif
