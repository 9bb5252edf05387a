/* group_spec: reading --by KEYS (the dimensions a group is keyed by) and
 * --slo SPEC (the limits a request must meet to count as good). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "duration.h"
#include "groups.h"

int group_by_parse(const char *spec, struct group_by *by, char *err,
                   size_t err_size)
{
    char *copy = strdup(spec), *save = NULL, *tok;
    memset(by, 0, sizeof(*by));
    if (!copy)
        return -1;
    for (tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (by->n == GROUP_MAX_DIMS) {
            if (err)
                snprintf(err, err_size, "--by takes at most 4 keys: '%s'",
                         spec);
            goto bad;
        }
        if (strcmp(tok, "model") == 0) {
            by->dims[by->n++] = DIM_MODEL;
        } else if (strcmp(tok, "class") == 0) {
            by->dims[by->n++] = DIM_CLASS;
        } else if (strcmp(tok, "trace") == 0) {
            by->dims[by->n++] = DIM_TRACE;
        } else if (strcmp(tok, "stage") == 0) {
            by->dims[by->n++] = DIM_STAGE;
        } else if (strcmp(tok, "turn") == 0) {
            by->dims[by->n++] = DIM_TURN;
        } else if (strncmp(tok, "label:", 6) == 0 && tok[6]) {
            by->label_keys[by->n] = strdup(tok + 6);
            by->dims[by->n++] = DIM_LABEL;
        } else if (strncmp(tok, "header:", 7) == 0 && tok[7]) {
            by->label_keys[by->n] = strdup(tok + 7);
            by->dims[by->n++] = DIM_HEADER;
        } else {
            if (err)
                snprintf(err, err_size,
                         "--by: unknown key '%s' (use model, class, trace, "
                         "stage, turn, label:KEY, header:NAME)",
                         tok);
            goto bad;
        }
    }
    free(copy);
    if (by->n == 0) {
        if (err)
            snprintf(err, err_size, "--by is empty");
        return -1;
    }
    return 0;
bad:
    free(copy);
    for (size_t i = 0; i < GROUP_MAX_DIMS; i++)
        free(by->label_keys[i]);
    memset(by, 0, sizeof(*by));
    return -1;
}

int slo_parse(const char *spec, struct slo *slo, char *err, size_t err_size)
{
    char *copy = strdup(spec), *save = NULL, *tok;
    slo->ttft_ms = slo->tpot_ms = slo->latency_ms = slo->itl_ms = NAN;
    slo->any = false;
    if (!copy)
        return -1;
    for (tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        double *target = NULL, ms;
        if (eq) {
            *eq = '\0';
            if (strcmp(tok, "ttft") == 0)
                target = &slo->ttft_ms;
            else if (strcmp(tok, "tpot") == 0)
                target = &slo->tpot_ms;
            else if (strcmp(tok, "latency") == 0)
                target = &slo->latency_ms;
            else if (strcmp(tok, "itl") == 0)
                target = &slo->itl_ms;
        }
        if (!target ||
            duration_parse(eq + 1, DURATION_NONE, DURATION_MS, &ms) != 0) {
            if (eq)
                *eq = '=';
            if (err)
                snprintf(err, err_size,
                         "--slo: bad item '%s' (want "
                         "ttft|tpot|itl|latency=N with a unit " DURATION_UNITS
                         ")",
                         tok);
            free(copy);
            return -1;
        }
        *target = ms;
        slo->any = true;
    }
    free(copy);
    return 0;
}
