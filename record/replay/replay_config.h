/* replay_config: the parsed command line of tokentrace-replay, read-only
 * after parsing. */
#ifndef TT_REPLAY_CONFIG_H
#define TT_REPLAY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keep_awake.h"
#include "replay_faults.h"
#include "replay_synth_spec.h"

struct replay_config {
    char listen_host[256];
    int listen_port; /* 0: ephemeral */
    const char *port_file;
    bool synthetic;
    struct synth_spec synth;
    const char *trace_path;
    double speed; /* trace timing is divided by this */
    struct replay_fault_rule faults[REPLAY_MAX_FAULTS];
    size_t n_faults;
    uint64_t seed;
    const char *log_sends_path;
    const char *key_env;      /* --expect-key-env VAR, or NULL */
    const char *expected_key; /* its value (never printed) */
    bool quiet;
    enum keep_awake_mode keep_awake; /* --keep-awake, spin by default */
    int keep_awake_cpu;              /* --keep-awake-cpu, -1: where it runs */
};

enum replay_cli_result {
    REPLAY_CLI_OK = 0,
    REPLAY_CLI_HELP = 1,    /* --help: print replay_cli_help_text, exit 0 */
    REPLAY_CLI_USAGE = 2,   /* err holds a one-line reason, exit 2 */
    REPLAY_CLI_VERSION = 3, /* --version */
};

/* Parses argv into *cfg (strings borrowed from argv) with the option
 * engine (common/opt.h). Returns a replay_cli_result; prints nothing. */
int replay_cli_parse(int argc, char **argv, struct replay_config *cfg,
                     char *err, size_t errlen);

/* The --help text. */
const char *replay_cli_help_text(void);

struct opt_spec;
/* The option table (for the test that holds it against --help). */
const struct opt_spec *replay_cli_options(size_t *n);

#endif
