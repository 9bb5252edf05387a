/* cmd_summary_as: `summary --as TOOL|all`: the traces' successful requests
 * under other tools' definitions (analyze/definitions), side by side with
 * tokentrace's (docs/definitions.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "commands.h"
#include "definitions.h"
#include "load.h"
#include "log.h"
#include "summary_as.h"

/* The facts a tool's formulas read, from the loader's request. */
static void facts_of(const struct request_metrics *m, struct defs_facts *f)
{
    defs_facts_from_stream(m->stream, f);
    f->start_ns = m->start_ns;
    f->end_ns = m->end_ns;
    f->max_tokens = m->max_tokens;
    f->tt_ttft_ms = m->ttft_ms;
    f->tt_tpot_ms = m->tpot_ms;
    f->tt_latency_ms = m->latency_ms;
    f->tt_itl_ms = m->itl_ms;
    f->tt_n_itl = m->n_itl;
}

/* Load sink: every successful, measured request into the collector. */
static int collect_request(void *ctx, const struct request_metrics *m)
{
    struct defs_collect *c = ctx;
    struct defs_facts f;
    if (!m->ok || m->warmup || m->superseded || !m->stream)
        return 0;
    facts_of(m, &f);
    (void)defs_collect_add(c, &f); /* a lost value is counted in c->lost */
    return 0;
}

/* The tools --as names: one, or every one with "all". Returns the count
 * (0 after an error message). */
static size_t pick_tools(const char *as, enum defs_tool *out)
{
    size_t n = 0;
    enum defs_tool t;
    if (strcmp(as, "all") == 0) {
        for (int i = 0; i < DEFS_N_TOOLS; i++)
            out[n++] = (enum defs_tool)i;
        return n;
    }
    if (defs_tool_from_name(as, &t) == 0 && t != DEFS_TOKENTRACE) {
        out[0] = t;
        return 1;
    }
    log_error("--as: '%s' is not vllm, sglang, aiperf, guidellm, llmperf, "
              "genai-bench or all",
              as);
    return 0;
}

int cmd_summary_as(const struct analyze_options *o)
{
    enum defs_tool tools[DEFS_N_TOOLS];
    struct defs_collect c;
    struct trace_info **infos = NULL;
    size_t n_infos = 0, n_tools = pick_tools(o->as, tools);
    enum as_format fmt = AS_TABLE;
    int rc = 0;
    if (n_tools == 0)
        return 2;
    if (o->format == FMT_CSV) {
        log_error("--as: the formats are table, json and markdown");
        return 2;
    }
    if (o->by || o->slo) {
        log_error("--as compares every request of the traces at once: "
                  "--by and --slo are for the default summary");
        return 2;
    }
    fmt = o->format == FMT_JSON       ? AS_JSON
          : o->format == FMT_MARKDOWN ? AS_MARKDOWN
                                      : AS_TABLE;
    defs_collect_init(&c);
    for (size_t i = 0; i < o->n_traces; i++)
        if (load_trace_file(o->traces[i], &o->load, collect_request, NULL, &c,
                            &infos, &n_infos))
            rc = 1;
    if (c.lost)
        log_error("out of memory: %llu values left out of the --as numbers",
                  (unsigned long long)c.lost);
    if (c.lost)
        rc = 1;
    if (n_tools == 1 && c.requests > 0 &&
        c.cannot_parse[tools[0]] == c.requests) {
        char kinds[128] = "";
        for (int k = 0; k < API_KIND_COUNT; k++)
            if (c.apis & (1u << k))
                snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds),
                         "%s%s", kinds[0] ? ", " : "",
                         api_kind_name((enum api_kind)k));
        log_error("--as %s: %s's client cannot read these streams (%s): "
                  "no numbers to show (docs/definitions.md)",
                  defs_tool(tools[0])->name, defs_tool(tools[0])->label, kinds);
        rc = 2;
    } else if (summary_as_write(stdout, &c, tools, n_tools, fmt) ||
               fflush(stdout) != 0)
        rc = 1;
    defs_collect_free(&c);
    load_free_infos(infos, n_infos);
    return rc;
}
