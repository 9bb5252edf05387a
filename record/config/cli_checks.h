/* cli_checks: the recorder's flags checked together (private to
 * record/config: cli_parse calls it once every flag is read). */
#ifndef TT_RECORD_CLI_CHECKS_H
#define TT_RECORD_CLI_CHECKS_H

#include <stddef.h>

#include "cli.h"

/* Checks the combination of cfg's flags, then reads --cline-settings
 * FILE into it and takes the base URL from the environment when no -u.
 * Returns CLI_OK, or CLI_E_USAGE with a one-line reason in err. */
int cli_check(struct config *cfg, char *err, size_t errlen);

#endif
