/* fuzz_prom_text: common/prom_text.c's parser on arbitrary text, line by
 * line (what a /metrics endpoint may serve).
 *
 * Invariants beyond "no crash": prom_next_line covers the input exactly;
 * a name and every label name lie inside the line; label values are
 * NUL-terminated and no longer than the line; an error's column lies in
 * the line; and a sample that parses, written back out (labels escaped,
 * the value as %.17g), parses again to the same name, labels, value and
 * timestamp. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "prom_text.h"

static struct prom_line a, b;

/* Writes l as a sample line into out; returns its length (0: too long). */
static size_t write_back(const struct prom_line *l, char *out, size_t size)
{
    size_t n = 0;
    int w = snprintf(out, size, "%.*s{", (int)l->name_len, l->name);
    if (w < 0 || (size_t)w >= size)
        return 0;
    n = (size_t)w;
    for (size_t k = 0; k < l->n_labels; k++) {
        const struct prom_label *lb = &l->labels[k];
        if (n + lb->name_len + 4 >= size)
            return 0;
        memcpy(out + n, lb->name, lb->name_len);
        n += lb->name_len;
        out[n++] = '=';
        out[n++] = '"';
        for (size_t j = 0; j < lb->value_len; j++) {
            char c = lb->value[j];
            if (n + 3 >= size)
                return 0;
            if (c == '\\' || c == '"') {
                out[n++] = '\\';
                out[n++] = c;
            } else if (c == '\n') {
                out[n++] = '\\';
                out[n++] = 'n';
            } else {
                out[n++] = c;
            }
        }
        out[n++] = '"';
        out[n++] = ',';
    }
    if (isnan(l->value))
        w = snprintf(out + n, size - n, "} NaN");
    else if (isinf(l->value))
        w = snprintf(out + n, size - n, "} %sInf", l->value < 0 ? "-" : "+");
    else
        w = snprintf(out + n, size - n, "} %.17g", l->value);
    if (w < 0 || (size_t)w >= size - n)
        return 0;
    n += (size_t)w;
    if (l->has_timestamp) {
        w = snprintf(out + n, size - n, " %lld", (long long)l->timestamp_ms);
        if (w < 0 || (size_t)w >= size - n)
            return 0;
        n += (size_t)w;
    }
    return n;
}

static void check_line(const char *p, size_t len)
{
    static char again[3 * PROM_LINE_MAX];
    size_t n;
    int rc = prom_parse_line(p, len, &a);
    if (rc != PROM_OK) {
        FUZZ_CHECK(a.err_col <= len || a.err_col == PROM_LINE_MAX);
        return;
    }
    if (a.name)
        FUZZ_CHECK(a.name >= p && a.name + a.name_len <= p + len);
    if (a.kind != PROM_SAMPLE)
        return;
    for (size_t k = 0; k < a.n_labels; k++) {
        const struct prom_label *lb = &a.labels[k];
        FUZZ_CHECK(lb->name >= p && lb->name + lb->name_len <= p + len);
        FUZZ_CHECK(lb->value_len <= len && lb->value[lb->value_len] == '\0');
    }
    n = write_back(&a, again, sizeof again);
    if (n == 0 || n > PROM_LINE_MAX)
        return;
    FUZZ_CHECK(prom_parse_line(again, n, &b) == PROM_OK);
    FUZZ_CHECK(b.kind == PROM_SAMPLE && b.name_len == a.name_len &&
               memcmp(b.name, a.name, a.name_len) == 0);
    FUZZ_CHECK(b.n_labels == a.n_labels);
    for (size_t k = 0; k < a.n_labels; k++)
        FUZZ_CHECK(b.labels[k].value_len == a.labels[k].value_len &&
                   memcmp(b.labels[k].value, a.labels[k].value,
                          a.labels[k].value_len) == 0);
    FUZZ_CHECK((isnan(a.value) && isnan(b.value)) || a.value == b.value);
    FUZZ_CHECK(b.has_timestamp == a.has_timestamp &&
               b.timestamp_ms == a.timestamp_ms);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *line;
    size_t pos = 0, len, covered = 0;
    while (prom_next_line(text, size, &pos, &line, &len)) {
        /* each line on the heap at its exact size: reads past it show */
        char *copy = malloc(len ? len : 1);
        FUZZ_CHECK(line >= text && line + len <= text + size);
        covered = pos;
        if (!copy)
            return 0;
        memcpy(copy, line, len);
        check_line(copy, len);
        free(copy);
    }
    FUZZ_CHECK(covered == size);
    return 0;
}
