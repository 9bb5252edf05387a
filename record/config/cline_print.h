/* cline_print: --print-cline-settings: a Cline (VS Code) settings.json
 * skeleton for a gateway and a model, with the key as "${env:VAR}" and a
 * generous request timeout, ready to paste. */
#ifndef TT_RECORD_CLINE_PRINT_H
#define TT_RECORD_CLINE_PRINT_H

#include <stdio.h>

#include "cli.h"

/* cline.requestTimeoutMs written: reasoning models can think for minutes
 * before the first token. */
#define CLINE_PRINT_TIMEOUT_MS 600000

/* Writes the skeleton for cfg's base URL, first model and key variable to
 * out. Returns 0, or 2 (usage) with a one-line reason in err. */
int cline_print_settings(FILE *out, const struct config *cfg, char *err,
                         size_t errlen);

#endif
