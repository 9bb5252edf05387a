/* cli_checks: the recorder's flags together, once each has been read on
 * its own (cli.c): what excludes what, what needs what, then the cline
 * settings file and the base URL from the environment. */
#include "cli_checks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cline_msg.h"
#include "cline_settings.h"
#include "opt.h"
#include "sanitize.h"

/* The workload, arrival and load flags against each other; --search's
 * first probe set up as a one-stage sweep. */
static int check_load(struct config *cfg, char *err, size_t errlen)
{
    if (cfg->dataset_sessions && !cfg->workload_file)
        return opt_error(err, errlen,
                         "--dataset-sessions reads the dataset of -w FILE as "
                         "sessions");
    if (cfg->workload_format && !cfg->workload_file)
        return opt_error(err, errlen,
                         "--workload-format says how -w FILE is read");
    if (cfg->speed != 1 && !cfg->arrivals_file)
        return opt_error(err, errlen, "--speed scales --arrivals FILE");
    if (cfg->arrivals_file &&
        (cfg->rate > 0 || cfg->sweep.mode != SWEEP_NONE ||
         cfg->search.mode != SWEEP_NONE || cfg->arrival_given ||
         cfg->burstiness > 0 || cfg->ramp_s > 0 || cfg->n_given ||
         cfg->warmup > 0 || cfg->workload_file || cfg->classes ||
         cfg->n_models > 1))
        return opt_error(
            err, errlen,
            "--arrivals FILE sets when each request goes out and "
            "its lengths: leave out -r, --sweep, --search, "
            "--arrival, --burstiness, --ramp, -n, --warmup, -w and "
            "--classes, "
            "and give one -m (-c N caps the requests in flight)");
    if (cfg->search.mode != SWEEP_NONE) {
        if (cfg->sweep.mode != SWEEP_NONE)
            return opt_error(err, errlen,
                             "--sweep and --search exclude each other: --sweep "
                             "runs the loads given, --search picks them");
        /* the first probe is a one-stage sweep; run_loop adds the rest */
        cfg->sweep.mode = cfg->search.mode;
        cfg->sweep.n = 1;
        cfg->sweep.loads[0] = cfg->search.start;
    }
    if (cfg->sweep.mode == SWEEP_CONCURRENCY &&
        (cfg->concurrency_given || cfg->rate > 0))
        return opt_error(
            err, errlen,
            "--sweep/--search concurrency=... sets the concurrency "
            "of each stage: leave out -c and -r");
    if (cfg->sweep.mode == SWEEP_RATE && cfg->rate > 0)
        return opt_error(
            err, errlen,
            "--sweep/--search rate=... sets the rate of each stage: "
            "leave out -r (-c N caps the requests in flight)");
    if (cfg->burstiness > 0 &&
        ((cfg->rate <= 0 && cfg->sweep.mode != SWEEP_RATE) ||
         cfg->arrival != ARRIVAL_POISSON))
        return opt_error(
            err, errlen,
            "--burstiness shapes Poisson arrivals: it needs -r RATE "
            "or --sweep rate=... (and not --arrival constant)");
    if (cfg->arrival_given && cfg->rate <= 0 && cfg->sweep.mode != SWEEP_RATE)
        return opt_error(err, errlen,
                         "--arrival needs an open loop (-r RATE or "
                         "--sweep rate=...)");
    return CLI_OK;
}

/* --cline-settings without FILE: the file Cline itself would read
 * (cline_settings_find), kept in cfg->cline_found. */
static int find_cline(struct config *cfg, char *err, size_t errlen)
{
    char path[4096], why[1024];
    if (cline_settings_find(path, sizeof path, why, sizeof why) != CLINE_OK)
        return opt_error(err, errlen, "--cline-settings: %s", why);
    cfg->cline_found = strdup(path);
    if (!cfg->cline_found)
        return opt_error(err, errlen, "out of memory");
    cfg->cline_file = cfg->cline_found;
    snprintf(cfg->cline_found_by, sizeof cfg->cline_found_by, "%.39s", why);
    return CLI_OK;
}

/* Reads --cline-settings FILE into cfg (flags already set win). */
static int load_cline(struct config *cfg, char *err, size_t errlen)
{
    int rc;
    if (!cfg->cline_file && find_cline(cfg, err, errlen) != CLI_OK)
        return CLI_E_USAGE;
    rc = cline_settings_load(cfg->cline_file, &cfg->cline, err, errlen);
    if (!rc)
        rc = cline_settings_apply(cfg->cline, cfg, err, errlen);
    return rc ? CLI_E_USAGE : CLI_OK;
}

/* --input-tokens, --output-tokens, --shared-prefix against the rest. */
static int check_lengths(const struct config *cfg, char *err, size_t errlen)
{
    const struct token_length *in = &cfg->input_tokens;
    bool exact = in->kind != TOKEN_LENGTH_NONE;
    if (exact && (cfg->workload_file || cfg->classes || cfg->arrivals_file))
        return opt_error(err, errlen,
                         "--input-tokens builds its own prompts: leave out -w, "
                         "--classes and --arrivals");
    if (cfg->output_tokens.kind != TOKEN_LENGTH_NONE && cfg->max_tokens > 0)
        return opt_error(err, errlen,
                         "--output-tokens sets max_tokens of every request: "
                         "leave out --max-tokens");
    if (cfg->images_n > 0 &&
        (cfg->workload_file || exact || cfg->arrivals_file))
        return opt_error(err, errlen,
                         "--images adds images to the built-in single-request "
                         "prompts: leave out -w, --input-tokens and --arrivals "
                         "(a -w file carries its own image_url parts)");
    if (cfg->shared_prefix > 0 && !exact)
        return opt_error(err, errlen,
                         "--shared-prefix puts T tokens in front of the "
                         "prompts --input-tokens builds: give --input-tokens");
    if (cfg->shared_prefix > 0 && in->a <= (double)cfg->shared_prefix)
        return opt_error(err, errlen,
                         "--shared-prefix %lld: the prompts (--input-tokens "
                         "%.0f) must be longer than their shared prefix",
                         (long long)cfg->shared_prefix, in->a);
    return CLI_OK;
}

/* " (or SETTING in FILE)", the setting as the Cline settings file read
 * calls it, when one was read; else "". */
static const char *cline_hint(const struct config *cfg, const char *leaf,
                              char *b, size_t len)
{
    char name[160];
    if (!cfg->cline || !leaf)
        return "";
    snprintf(b, len, " (or %s in %s)",
             cline_msg_name(cfg->cline, leaf, name, sizeof name),
             cfg->cline->path);
    return b;
}

/* Checks the combination of flags once all are read. */
static int check_config(struct config *cfg, char *err, size_t errlen)
{
    char hint[4400];
    if (check_lengths(cfg, err, errlen) != CLI_OK)
        return CLI_E_USAGE;
    if (cfg->check && cfg->print_cline_settings)
        return opt_error(err, errlen,
                         "--check and --print-cline-settings "
                         "exclude each other");
    if (cfg->check && cfg->output && strcmp(cfg->output, "-") == 0)
        return opt_error(err, errlen,
                         "--check prints its report on stdout: "
                         "give -o a file name for the probe trace");
    if (cfg->insecure && cfg->cacert)
        return opt_error(err, errlen,
                         "--insecure and --cacert exclude each "
                         "other: --cacert verifies with FILE, --insecure does "
                         "not verify at all");
    if (cfg->cacert && access(cfg->cacert, R_OK) != 0)
        return opt_error(err, errlen, "--cacert: cannot read '%s': %s",
                         sanitize_shown(cfg->cacert), strerror(errno));
    if (cfg->cline_given && load_cline(cfg, err, errlen) != CLI_OK)
        return CLI_E_USAGE;
    if (!cfg->base_url) {
        /* anthropic: its SDK's variable first, as the key is looked up */
        static const char *const names[] = {"ANTHROPIC_BASE_URL",
                                            "OPENAI_BASE_URL"};
        size_t i;
        for (i = cfg->api == API_ANTHROPIC ? 0 : 1; i < 2; i++) {
            const char *env = getenv(names[i]);
            if (env && *env) {
                cfg->base_url = env;
                cfg->base_url_from_env = true;
                cfg->base_url_env = names[i];
                break;
            }
        }
    }
    if (!cfg->base_url)
        return opt_error(
            err, errlen, "no base URL: give -u URL%s or set %s",
            cline_hint(cfg, cfg->cline ? cfg->cline->names.base_url : NULL,
                       hint, sizeof hint),
            cfg->api == API_ANTHROPIC ? "ANTHROPIC_BASE_URL or OPENAI_BASE_URL"
                                      : "OPENAI_BASE_URL");
    if (cfg->n_models == 0)
        return opt_error(err, errlen, "no model: give at least one -m MODEL%s",
                         cline_hint(cfg,
                                    cfg->cline ? cfg->cline->names.model : NULL,
                                    hint, sizeof hint));
    return CLI_OK;
}

/* --shard / --procs with the rest: what a shard cannot do alone, and a
 * closed loop's concurrency that leaves a shard nothing. */
static int check_shards(struct config *cfg, char *err, size_t errlen)
{
    struct cli_shard *sh = &cfg->shard;
    uint64_t parts;
    if (cli_shard_resolve(sh, cfg->seed, err, errlen))
        return CLI_E_USAGE;
    parts = (uint64_t)sh->count * (sh->procs ? sh->procs : 1);
    if (parts <= 1)
        return CLI_OK;
    if (cfg->search.mode != SWEEP_NONE)
        return opt_error(err, errlen,
                         "--search picks each probe from the results so far, "
                         "which separate shards cannot share: run --search in "
                         "one process, or --sweep the loads over the shards");
    if (cfg->check)
        return opt_error(err, errlen,
                         "--check runs in one process: leave out "
                         "--shard and --procs");
    if (sh->procs > 1 && cfg->output && strcmp(cfg->output, "-") == 0)
        return opt_error(err, errlen,
                         "--procs writes its shards to files it "
                         "joins: give -o a file name");
    if (cfg->rate <= 0 && cfg->sweep.mode != SWEEP_RATE &&
        !cfg->arrivals_file) {
        uint64_t lo = cfg->concurrency;
        for (size_t i = 0; i < cfg->sweep.n; i++)
            if (cfg->sweep.mode == SWEEP_CONCURRENCY &&
                (i == 0 || cfg->sweep.loads[i] < (double)lo))
                lo = (uint64_t)cfg->sweep.loads[i];
        if (lo < parts)
            return opt_error(err, errlen,
                             "a closed loop of concurrency %llu cannot be "
                             "split over %llu shards (each needs at least 1): "
                             "give -c %llu or more",
                             (unsigned long long)lo, (unsigned long long)parts,
                             (unsigned long long)parts);
    }
    return CLI_OK;
}

int cli_check(struct config *cfg, char *err, size_t errlen)
{
    int rc = check_load(cfg, err, errlen);
    if (rc == CLI_OK)
        rc = check_shards(cfg, err, errlen);
    if (rc == CLI_OK)
        rc = check_config(cfg, err, errlen);
    return rc == CLI_OK ? CLI_OK : CLI_E_USAGE;
}
