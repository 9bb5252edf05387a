/* prom_text: a parser of the Prometheus text exposition format (version
 * 0.0.4, what vLLM, SGLang, TGI and llama.cpp serve on /metrics), one line
 * at a time: no allocation, no I/O, bytes in, one parsed line out. Used by
 * the recorder (which families of a scrape to keep) and the analyzer (the
 * values). docs/server-metrics.md.
 *
 * A line is a comment ("# ..."), a "# HELP name text", a "# TYPE name type",
 * a blank line, or a sample: name{label="value",...} value [timestamp_ms].
 * Label values may hold the escapes \\, \" and \n; values may be NaN, +Inf,
 * -Inf or any decimal (and exponent) form; an OpenMetrics exemplar after
 * the timestamp (" # {...} v") is ignored. */
#ifndef TT_PROM_TEXT_H
#define TT_PROM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line taken (longer lines are an error, PROM_E_LONG). */
#define PROM_LINE_MAX 8192
/* Most labels on one sample. */
#define PROM_MAX_LABELS 32

enum prom_line_kind {
    PROM_BLANK = 0,
    PROM_COMMENT = 1, /* any "#" line but HELP and TYPE */
    PROM_HELP = 2,
    PROM_TYPE = 3,
    PROM_SAMPLE = 4,
};

enum prom_type {
    PROM_UNTYPED = 0,
    PROM_COUNTER = 1,
    PROM_GAUGE = 2,
    PROM_HISTOGRAM = 3,
    PROM_SUMMARY = 4,
};

enum prom_err {
    PROM_OK = 0,
    PROM_E_NAME = 1,      /* a metric or label name is missing or malformed */
    PROM_E_LABELS = 2,    /* a label set is malformed (quote, '=', ',', '}') */
    PROM_E_VALUE = 3,     /* the value is missing or not a number */
    PROM_E_TIMESTAMP = 4, /* the timestamp is not an integer */
    PROM_E_LONG = 5,      /* the line is longer than PROM_LINE_MAX */
    PROM_E_TRAILING = 6,  /* something follows the sample */
    PROM_E_TYPE = 7,      /* a TYPE line names no known type */
};

/* A label; value is unescaped, in the line's own buffer (NUL-terminated). */
struct prom_label {
    const char *name; /* points into the line, name_len bytes */
    size_t name_len;
    const char *value;
    size_t value_len;
};

/* One parsed line. name (and help) point into the caller's line; label
 * values into `unescaped`. Valid while both live. */
struct prom_line {
    enum prom_line_kind kind;
    const char *name; /* sample: metric name; HELP/TYPE: family name */
    size_t name_len;
    struct prom_label labels[PROM_MAX_LABELS];
    size_t n_labels;
    double value;
    bool has_timestamp;
    int64_t timestamp_ms;
    enum prom_type type; /* TYPE lines */
    const char *help;    /* HELP lines: the text as written (escaped) */
    size_t help_len;
    size_t err_col; /* on an error: the byte of the line it was found at */
    char unescaped[PROM_LINE_MAX];
};

/* Parses one line (without its '\n'; a trailing '\r' is taken as part of
 * the line's end) into *out. Returns PROM_OK or a prom_err (out->err_col
 * then says where). Never reads past line + len. */
int prom_parse_line(const char *line, size_t len, struct prom_line *out);

/* The next line of text[*pos, len): sets *line and *line_len (without its
 * '\n') and moves *pos past it. Returns false at the end. */
bool prom_next_line(const char *text, size_t len, size_t *pos,
                    const char **line, size_t *line_len);

/* The family a sample name belongs to: its length without a _bucket, _sum,
 * _count, _total or _created suffix (the whole length when it has none). */
size_t prom_family_len(const char *name, size_t len);

/* The value of label `name` of l, or NULL. */
const struct prom_label *prom_label_get(const struct prom_line *l,
                                        const char *name);

/* A static description of a prom_err. */
const char *prom_strerror(int err);

/* The type named by text[0, len) ("counter", ...), or -1. */
int prom_type_from_name(const char *text, size_t len);

#endif
