/* scrape: one GET of a server's Prometheus text endpoint
 * (--server-metrics): its libcurl easy handle, a receive callback that
 * keeps the lines of the families that matter (common/server_metric_names)
 * as they arrive, bounded, and the summing up of how it went into a
 * trace_server_metrics record. The same handle serves every scrape of its
 * URL during a run, one at a time. Never sends the run's API key unless
 * scrape_config.auth_header says so (--server-metrics-send-key). */
#ifndef TT_RECORD_SCRAPE_H
#define TT_RECORD_SCRAPE_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "prom_text.h"
#include "trace.h"

/* The kept lines of one scrape are cut beyond this, at the start of the
 * family that passed it (never inside one: a partial family would sum
 * to a wrong value), and the scrape says so (truncated). 4 MiB: a
 * 48-engine vLLM page (385 KB) keeps every family. */
#define SCRAPE_MAX_KEPT ((size_t)4 << 20)
/* A body longer than this is stopped: error kind "too_large". */
#define SCRAPE_MAX_BODY ((size_t)16 << 20)

/* Settings of every scrape of a run (borrowed). */
struct scrape_config {
    const char *auth_header; /* a header line, or NULL (the default) */
    long timeout_ms;
    bool insecure;
    const char *cacert;
    const char *proxy; /* as transfer_config.proxy: NULL libcurl's choice */
};

struct scrape {
    CURL *easy;
    char *url;   /* owned: as given, for libcurl */
    char *shown; /* owned: without credentials, the key hidden, for the
                    trace and messages */
    struct curl_slist *headers;
    bool busy;        /* handed to libcurl, not done yet */
    int64_t start_ns; /* of the scrape running or last done */
    int status;       /* HTTP status of the response, 0 none yet */
    uint64_t bytes;
    uint64_t lines_dropped;
    bool truncated;
    bool too_large;
    struct buf kept; /* the kept lines, each ending in '\n' */
    struct buf line; /* the line being received */
    bool line_long;  /* it passed PROM_LINE_MAX: dropped at its end */
    char errbuf[CURL_ERROR_SIZE];
    struct prom_line parsed; /* scratch of the line filter */
    /* the family of the last kept line and where in kept it began */
    const struct server_metric *family;
    size_t family_start;
};

enum scrape_err {
    SCRAPE_OK = 0,
    SCRAPE_E_NOMEM = 1,
};

/* Creates the scrape of url with its easy handle (CURLOPT_PRIVATE NULL).
 * shown: url as it may be stored (credentials removed, key hidden). */
int scrape_new(const struct scrape_config *sc, const char *url,
               const char *shown, struct scrape **out);

/* Readies s for its next scrape, started at start_ns (clears what the
 * last one kept). */
void scrape_begin(struct scrape *s, int64_t start_ns);

/* Runs one scrape to its end with libcurl's easy interface (before the
 * first request and after the last, outside the measured run). Returns
 * its CURLcode. */
CURLcode scrape_perform(struct scrape *s);

/* Describes the scrape that ended with code at end_ns into *m (pointing
 * into s and the caller's kind_buf / msg; when is "before", "during" or
 * "after"). Marks s idle. */
void scrape_result(struct scrape *s, CURLcode code, int64_t end_ns,
                   const char *when, struct trace_server_metrics *m,
                   char *kind_buf, size_t kind_len, char *msg, size_t msglen);

/* Frees s and its handle (remove it from the multi handle first).
 * NULL-safe. */
void scrape_free(struct scrape *s);

#endif
