/* run_match: the header's run_match option, what every shard of one run
 * must have equal (seed, load, workload and its digest, models, API, N,
 * the shard count, the start instant), for the merge to check
 * (docs/trace-format.md, "Scale-out and clock keys"). */
#include "run_match.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli_sweep.h"
#include "sha256.h"
#include "token_length.h"

int run_match_file_digest(const char *path, char out[RUN_MATCH_DIGEST_SIZE])
{
    struct sha256 h;
    char hex[SHA256_HEX_SIZE], block[65536];
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    sha256_init(&h);
    while ((n = read(fd, block, sizeof block)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            close(fd);
            return -1;
        }
        sha256_update(&h, block, (size_t)n);
    }
    close(fd);
    sha256_hex(&h, hex);
    snprintf(out, RUN_MATCH_DIGEST_SIZE, "%.16s", hex);
    return 0;
}

/* Appends " key=" and v with ' ', '%' and control bytes as %XX, so the
 * text splits on spaces and on the first '='. */
static void field(struct buf *b, const char *key, const char *v)
{
    buf_printf(b, "%s%s=", b->len ? " " : "", key);
    if (!v || !v[0]) {
        buf_puts(b, "-");
        return;
    }
    for (; *v; v++) {
        unsigned char ch = (unsigned char)*v;
        if (ch <= ' ' || ch == '%' || ch == 0x7f)
            buf_printf(b, "%%%02X", ch);
        else
            buf_printf(b, "%c", ch);
    }
}

/* The load model and its parameters, as one value. */
static void load_field(struct buf *b, const struct config *c)
{
    char v[256];
    size_t n = 0;
    if (c->sweep.n) {
        n += (size_t)snprintf(v, sizeof v, "sweep:%s",
                              cli_sweep_mode_name(c->sweep.mode));
        for (size_t i = 0; i < c->sweep.n && n < sizeof v; i++)
            n += (size_t)snprintf(v + n, sizeof v - n, "%s%g", i ? "," : "=",
                                  c->sweep.loads[i]);
    } else if (c->arrivals_file) {
        n += (size_t)snprintf(v, sizeof v, "arrivals:speed=%g", c->speed);
    } else if (c->rate > 0) {
        n += (size_t)snprintf(v, sizeof v, "open:rate=%g,arrival=%s", c->rate,
                              c->arrival == ARRIVAL_CONSTANT ? "constant"
                                                             : "poisson");
    } else {
        n += (size_t)snprintf(v, sizeof v, "closed:c=%llu",
                              (unsigned long long)c->concurrency);
    }
    if (n < sizeof v && c->burstiness > 0)
        n += (size_t)snprintf(v + n, sizeof v - n, ",burstiness=%g",
                              c->burstiness);
    if (n < sizeof v && c->ramp_s > 0)
        n += (size_t)snprintf(v + n, sizeof v - n, ",ramp_s=%g", c->ramp_s);
    if (n < sizeof v && c->concurrency_given &&
        (c->rate > 0 || c->sweep.mode == SWEEP_RATE || c->arrivals_file))
        snprintf(v + n, sizeof v - n, ",cap=%llu",
                 (unsigned long long)c->concurrency);
    field(b, "load", v);
}

/* The request shapes beside the workload: max tokens, exact lengths,
 * shared prefix, ignore_eos. */
static void lengths_field(struct buf *b, const struct config *c)
{
    char in[64] = "-", out[64] = "-", v[256];
    if (c->input_tokens.kind != TOKEN_LENGTH_NONE)
        token_length_format(&c->input_tokens, in, sizeof in);
    if (c->output_tokens.kind != TOKEN_LENGTH_NONE)
        token_length_format(&c->output_tokens, out, sizeof out);
    snprintf(v, sizeof v, "max_tokens:%lld,input:%s,output:%s,prefix:%lld,%s",
             (long long)c->max_tokens, in, out, (long long)c->shared_prefix,
             c->ignore_eos ? "ignore_eos" : "eos");
    field(b, "lengths", v);
}

char *run_match_make(const struct config *c, const char *workload_digest,
                     const char *arrivals_digest)
{
    const struct cli_shard *sh = &c->shard;
    struct buf b;
    char v[128];
    buf_init(&b, 0);
    snprintf(v, sizeof v, "%llu", (unsigned long long)c->seed);
    field(&b, "seed", v);
    load_field(&b, c);
    if (c->duration_s > 0)
        snprintf(v, sizeof v, "%g", c->duration_s);
    field(&b, "duration_s", c->duration_s > 0 ? v : "none");
    if (c->duration_s > 0 && !c->n_given)
        snprintf(v, sizeof v, "unbounded");
    else
        snprintf(v, sizeof v, "%llu", (unsigned long long)c->n);
    field(&b, "n", v);
    snprintf(v, sizeof v, "%llu", (unsigned long long)c->warmup);
    field(&b, "warmup", v);
    if (!c->workload_file)
        field(&b, "workload", "builtin");
    else {
        snprintf(v, sizeof v, "file:sha256=%s",
                 workload_digest ? workload_digest : "unreadable");
        field(&b, "workload", v);
    }
    if (c->arrivals_file) {
        snprintf(v, sizeof v, "sha256=%s",
                 arrivals_digest ? arrivals_digest : "unreadable");
        field(&b, "arrivals", v);
    }
    field(&b, "classes", c->classes ? c->classes : "all");
    lengths_field(&b, c);
    buf_printf(&b, " models=");
    for (size_t i = 0; i < c->n_models; i++) {
        struct buf one;
        buf_init(&one, 0);
        field(&one, "m", c->models[i]); /* escaped as a value */
        buf_printf(&b, "%s%s", i ? "," : "", one.len > 2 ? one.data + 2 : "");
        buf_free(&one);
    }
    field(&b, "api", api_kind_name(c->api));
    snprintf(v, sizeof v, "%u", sh->count > 1 ? sh->count : 1);
    field(&b, "shards", v);
    if (sh->start_at_relative)
        snprintf(v, sizeof v, "+%gs", sh->start_at_rel_s);
    else if (sh->start_at_ns)
        cli_format_instant(sh->start_at_ns, v, sizeof v);
    field(&b, "start", sh->start_at_ns ? v : "none");
    if (buf_error(&b) || !b.data) {
        buf_free(&b);
        return NULL;
    }
    return b.data; /* malloc'd, NUL-terminated: the caller's now */
}
