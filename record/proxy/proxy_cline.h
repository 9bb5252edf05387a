/* proxy_cline: --print-cline-settings of tokentrace-proxy: the Cline (VS
 * Code) settings that send Cline's requests through the proxy. */
#ifndef TT_PROXY_CLINE_H
#define TT_PROXY_CLINE_H

#include <stdio.h>

#include "proxy_config.h"

/* Writes the settings block for cfg (its --listen, --api, --key-env,
 * --token-env) to out. Returns 0, or 2 with a reason in err. */
int proxy_cline_print(FILE *out, const struct proxy_config *cfg, char *err,
                      size_t errlen);

#endif
