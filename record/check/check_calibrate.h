/* check_calibrate: --input-tokens' calibration (docs/workloads.md, "Exact
 * lengths"): two short probes per model with the doctor's probe code, the
 * server's usage.prompt_tokens of each fitted as tokens = overhead +
 * k * bytes. */
#ifndef TT_RECORD_CHECK_CALIBRATE_H
#define TT_RECORD_CHECK_CALIBRATE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "cli.h"
#include "exact_prompt.h"
#include "transfer.h"

/* What the probes are sent with (borrowed). */
struct check_calib_setup {
    const struct config *cfg;
    const struct transfer_config *tc;
    const cJSON *extra; /* parsed --extra-body, or NULL */
    const char *key;    /* scrubbed from messages; may be NULL */
};

/* Fits every model of cfg (fits[i] for cfg->models[i]), the probes sent
 * with the run's URL, auth header, proxy ("" direct, NULL libcurl's) and
 * timeouts (at most 60 s a probe), nothing recorded; says each fit on
 * stderr, and warns for a fallback. Returns 0, or -1 with err. */
int check_calibrate_all(const struct config *cfg, const char *url,
                        const char *auth_header, const char *key,
                        const char *proxy, const cJSON *extra,
                        struct length_fit *fits, char *err, size_t errlen);

#endif
