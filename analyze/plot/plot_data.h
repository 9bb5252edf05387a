/* plot_data: what the charts need from the traces, gathered in one pass:
 * the group_set of summary (for tables, percentiles and ITL vectors), one
 * small record per request (for scatter, timeline and per-trace charts),
 * and output tokens per second of run time per model.
 *
 * Models and classes are numbered by their position in the sorted list of
 * names, so a model has the same number, hence the same colour, in every
 * chart of a report. Strings from traces are owned here and untrusted. */
#ifndef TT_PLOT_DATA_H
#define TT_PLOT_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"

struct plot_req {
    uint32_t model, cls; /* positions in plot_data.models / .classes */
    uint32_t trace;      /* index of the trace (struct trace_info.index) */
    uint32_t id;
    bool ok;
    bool interrupted; /* the run was stopped while it streamed: not failed
                         (metrics_outcome) */
    double ttft_ms, tpot_ms, latency_ms; /* NAN unknown or failed */
    double out_tokens;                   /* NAN unknown */
    double start_s, first_s, end_s;      /* seconds since the trace's run start,
                                            NAN unknown */
    double in_tokens;     /* the server's input tokens, NAN unknown */
    double cached_tokens; /* of them cached (usage), NAN unknown */
    uint32_t turn;        /* a session's turn (from 1), 0: none */
};

struct plot_names {
    char **v;
    size_t n;
};

/* Most distinct model (or class) names kept; the rest share "(other)". */
#define PLOT_MAX_NAMES 1000
/* Most requests kept for the per-request charts (statistics use all). */
#define PLOT_MAX_REQS ((size_t)20 * 1000 * 1000)
/* Throughput bins kept per model: one per second of run time. */
#define PLOT_MAX_SECONDS ((size_t)14 * 86400)

struct plot_data {
    struct group_set set;
    struct plot_names models, classes;
    struct plot_req *reqs;
    size_t n_reqs, cap_reqs;
    uint64_t reqs_dropped;      /* beyond PLOT_MAX_REQS or out of memory */
    struct stats_vec *tok_bins; /* [model]: output tokens in second i */
    size_t n_tok_bins;
    int64_t *trace_zero_ns; /* [trace]: run start on CLOCK_MONOTONIC */
    size_t n_trace_zero;
    /* --by trace: every model is a series per trace, named "MODEL
     * (FILE)" ("MODEL (N:FILE)" when files share a name), in the groups
     * and every chart; else two runs of one model are one series. */
    bool by_trace;
    char *const *paths; /* the inputs, for the series names (borrowed) */
    size_t n_paths;
    bool sessions; /* some request is a session's turn: the turn chart */
};

/* Loads every path, grouping the set by `by` ("model,class" for the
 * charts, "trace,model" for compare and trend), and summarizes the groups.
 * Returns 0, 1 when an input was damaged or missing (what could be read is
 * loaded), 2 on a usage error, -1 out of memory. Free with plot_data_free
 * in every case. */
int plot_data_load(struct plot_data *d, char **paths, size_t n_paths,
                   const struct load_options *opt, const char *by,
                   bool by_trace);

/* True when the traces of d differ in what they ran (API kind, endpoint
 * or a recorder option), so merging one model's runs into one series
 * would mix two setups: `plot` then draws --by trace. */
bool plot_data_traces_differ(const struct plot_data *d);

/* Frees everything. NULL-safe, and safe on a zeroed struct. */
void plot_data_free(struct plot_data *d);

/* Output tokens of model in second i (0 beyond the kept bins). */
double plot_data_tokens_at(const struct plot_data *d, size_t model, size_t i);

/* The group whose first two keys are k0 and k1 (e.g. model and class);
 * NULL when there is none. */
const struct group *plot_data_group(const struct plot_data *d, const char *k0,
                                    const char *k1);

/* A short name for trace t: its file's base name, prefixed by "N:" when
 * another trace shares that name. Untrusted: escape before use. */
void plot_data_trace_name(const struct plot_data *d, size_t t, char *out,
                          size_t size);

#endif
