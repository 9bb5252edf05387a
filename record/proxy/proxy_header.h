/* proxy_header: the trace header and footer of a proxy run. */
#ifndef TT_PROXY_HEADER_H
#define TT_PROXY_HEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "proxy_config.h"
#include "proxy_record.h"

/* Writes the header: the upstream (key-looking parts hidden), the
 * sanitized command line, the settings as options; secret (NULL: none)
 * is hidden wherever it would show. Returns 0 or a trace error. */
int proxy_header_write(struct proxy_recorder *rec,
                       const struct proxy_config *cfg, int argc, char **argv,
                       const char *secret, int64_t mono_zero,
                       int64_t real_zero);

/* Writes the footer with the run's counts. Returns 0 or a trace error. */
int proxy_footer_write(struct proxy_recorder *rec, int64_t end_ns,
                       bool interrupted, const char *reason);

#endif
