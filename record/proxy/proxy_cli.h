/* proxy_cli: tokentrace-proxy's command line and --help. */
#ifndef TT_PROXY_CLI_H
#define TT_PROXY_CLI_H

#include "proxy_config.h"

/* Parses argv into cfg (strings borrowed from argv). Returns 0 to run, 1
 * when --help or --version was printed (exit 0), or 2 after printing a
 * usage error on stderr (exit 2). */
int proxy_cli_parse(int argc, char **argv, struct proxy_config *cfg);

#endif
