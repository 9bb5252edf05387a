/* summary_output: the formats of `tokentrace-analyze summary`. Each
 * writes the whole summary of a loaded, summarized group_set to out and
 * returns 0 (or -1 when out could not be written). */
#ifndef TT_SUMMARY_OUTPUT_H
#define TT_SUMMARY_OUTPUT_H

#include <stdio.h>

#include "buf.h"
#include "groups.h"
#include "shard_merge.h"
#include "summary_view.h"

/* The default: a header line, one row per group, the findings
 * (summary_compact.c), laid out for view. */
int summary_write_compact(FILE *out, const struct group_set *set,
                          const struct summary_view *view);
/* --detail: every metric of every group, then the overall block. */
int summary_write_table(FILE *out, const struct group_set *set);
int summary_write_markdown(FILE *out, const struct group_set *set);
int summary_write_json(FILE *out, const struct group_set *set);
/* summary_write_json with extra (",\"key\":value" members, or NULL)
 * written last inside the top-level object. */
int summary_write_json_with(FILE *out, const struct group_set *set,
                            const char *extra);
int summary_write_csv(FILE *out, const struct group_set *set);
/* The server's side of each trace with --server-metrics scrapes
 * (summary_server.c): a block per URL after the table; detail: every
 * quantity, with the family it came from. Nothing without scrapes. */
int summary_write_server(FILE *out, const struct group_set *set, bool detail);
/* The same per trace as a JSON array (of trace_info's scrape URLs). */
struct buf;
void summary_json_server(struct buf *b, const struct trace_info *t);
/* The OpenMetrics text exposition (summary_openmetrics.c): summaries in
 * seconds with quantiles, counters of requests and errors, run gauges,
 * "# EOF" at the end. */
int summary_write_openmetrics(FILE *out, const struct group_set *set);

/* The per-shard block after the table (summary_shards.c): per run of
 * shards, its completeness and wall span with the clock uncertainty, a
 * row per shard; md: markdown. Nothing when s has no run. */
int summary_write_shards(FILE *out, const struct shard_set *s, bool md);

/* Appends the JSON array of s's runs (summary --format json, "shards"). */
void summary_json_shards(struct buf *b, const struct shard_set *s);

/* Shared by the formats: the overall line ("3 traces, 24 requests ...")
 * numbers. */
struct run_totals {
    double wall_s, req_per_s, output_tok_per_s, goodput_per_s;
};
void summary_totals(const struct group_set *set, struct run_totals *t);

/* The p99 of trace t's self-check, ns: the larger of its cross-CPU
 * wake-up probe (what network data suffers; newer traces) and its loop
 * timer's lateness (a blocked or stopped loop); -1 when it has neither. */
int64_t summary_self_check_p99_ns(const struct trace_info *t);

/* True when the self-check p99 of trace t exceeds 10% of the trace's ITL
 * p50: the numbers then describe the client, not the server. */
bool summary_self_lag_too_high(const struct group_set *set,
                               const struct trace_info *t);

/* True when trace t has a self-check and its chunks came mostly in
 * phase (many streams together, as a batching server sends them): the
 * self-check samples the loop between those runs, under-estimates their
 * error and cannot be trusted (docs/recording.md). */
bool summary_self_check_blind(const struct trace_info *t);

/* True when trace t's chunk times are the kernel's receive times (header
 * option chunk_time=kernel, and the footer's receive lag kept): the
 * recorder's wake-ups and the queue of a burst are not in them, so its
 * loop self-check says nothing about them (docs/metrics.md). */
bool summary_kernel_times(const struct trace_info *t);

/* True when trace t has kernel chunk times but libcurl handed its chunks
 * over late against the trace's ITL (receive lag p99 over half the ITL
 * p50, and 1 ms or more): a read may then take two of a stream's
 * events, and the earlier one carries the later one's time. */
bool summary_reads_merged(const struct group_set *set,
                          const struct trace_info *t);

/* The rule of summary_reads_merged against an ITL p50 the caller gives
 * (a sweep stage's own, for capacity): kernel times, receive lag p99 of 1
 * ms or more and over half of itl_p50_ms. */
bool summary_reads_merged_at(const struct trace_info *t, double itl_p50_ms);

#endif
