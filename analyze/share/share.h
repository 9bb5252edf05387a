/* share: writes a copy of a trace that is safe to attach to a bug report
 * (docs/sharing.md): the text of prompts and replies replaced by filler of
 * the same byte length and UTF-8 shape (share_fill.h), so every chunk,
 * every time and every metric stays as recorded; the recorder's host name
 * and command line removed; response headers reduced to the ones a vendor
 * uses (share_headers.c). */
#ifndef TT_SHARE_H
#define TT_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct share_options {
    bool keep_prompts;       /* --keep-prompts: request bodies as recorded */
    bool keep_errors;        /* --keep-errors: the server's error text */
    bool anonymize_models;   /* --anonymize-models: model-N, label values */
    bool force;              /* overwrite OUT */
    bool compress;           /* --compress (or OUT ending in .zst): zstd */
    unsigned format_version; /* --format-version; 0: the newest */
};

/* What share removed and kept, for the report. Names are static or owned
 * by the report (share_report_free). */
#define SHARE_MAX_NAMES 16
struct share_report {
    unsigned traces;
    uint64_t records, requests, chunks;
    uint64_t prompt_bodies, prompt_bytes; /* request bodies filled */
    uint64_t reply_bodies, reply_bytes;   /* responses filled, text bytes */
    uint64_t option_bytes;                /* --extra-body etc. filled */
    uint64_t other_bytes; /* strings of record members without a rule */
    uint64_t error_messages, error_bytes; /* results' error_message filled */
    uint64_t hosts, command_lines, workload_paths; /* header values removed */
    uint64_t headers_dropped;                      /* response header values */
    char *header_names[SHARE_MAX_NAMES];           /* distinct names dropped */
    size_t n_header_names;
    unsigned models_renamed, labels_renamed, classes_renamed;
    uint64_t unknown_records; /* kinds this reader does not know: dropped */
    /* --server-metrics scrapes: copied as they are (numbers and metric
     * names), or dropped with --anonymize-models (their labels name the
     * models) */
    uint64_t scrapes_kept, scrapes_dropped;
    char *damage;    /* the reader's error when the input is damaged */
    char sha256[65]; /* of the bytes written ("" when none) */
};

/* Reads the trace at in ("-" stdin) and writes the shared copy to out
 * ("-" stdout; an existing file only with force). Returns 0; 1 when the
 * input is damaged (the records before the damage are written, rep->damage
 * says where); 2 when out cannot be written or is the input (err says
 * why). Fills *rep either way. */
int share_trace(const char *in, const char *out, const struct share_options *o,
                struct share_report *rep, char *err, size_t err_size);

/* Frees what the report owns. NULL-safe. */
void share_report_free(struct share_report *rep);

/* True when a response header of this (lower-case) name is kept: request
 * ids, rate limits, retry hints, server, via, timing, content type. */
bool share_header_kept(const char *name);

#endif
