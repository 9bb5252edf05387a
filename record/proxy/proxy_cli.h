/* proxy_cli: tokentrace-proxy's command line and --help. */
#ifndef TT_PROXY_CLI_H
#define TT_PROXY_CLI_H

#include "proxy_config.h"

#include <stddef.h>

enum proxy_cli_result {
    PROXY_CLI_OK = 0,
    PROXY_CLI_HELP = 1,    /* --help: print proxy_cli_help_text, exit 0 */
    PROXY_CLI_USAGE = 2,   /* err holds a one-line reason, exit 2 */
    PROXY_CLI_VERSION = 3, /* --version */
};

/* Parses argv into cfg (strings borrowed from argv) with the option engine
 * (common/opt.h). Returns a proxy_cli_result; prints nothing. */
int proxy_cli_parse(int argc, char **argv, struct proxy_config *cfg, char *err,
                    size_t errlen);

/* The --help text. */
const char *proxy_cli_help_text(void);

struct opt_spec;
/* The option table (for the test that holds it against --help). */
const struct opt_spec *proxy_cli_options(size_t *n);

#endif
