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

/* Parses argv into *cfg. Returns 0 to run, 1 when --help or --version was
 * printed (exit 0), 2 on a usage error (a one-line reason was printed). */
int replay_cli_parse(int argc, char **argv, struct replay_config *cfg);

#endif
