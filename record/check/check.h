/* check: tokentrace-record --check: diagnoses the channel from a base URL
 * and a key to a streaming model. One short streaming request per model,
 * then per model a verdict line (OK with TTFT, TPOT, tokens and their
 * source, or FAIL with the cause) and a hint or fix line, on stdout. */
#ifndef TT_RECORD_CHECK_H
#define TT_RECORD_CHECK_H

#include "cli.h"

/* Seconds --check waits by default (flags and cline.requestTimeoutMs may
 * lower them; --timeout, --idle-timeout, --connect-timeout set them). */
#define CHECK_TIMEOUT_S 30.0
#define CHECK_IDLE_TIMEOUT_S 20.0
#define CHECK_CONNECT_TIMEOUT_S 10.0
/* max_tokens of a probe unless --max-tokens is given. */
#define CHECK_MAX_TOKENS 64

/* Runs the check. Returns the exit code: 0 when every model streams, 1
 * otherwise (a refused base URL too), 2 on a usage error (a key with a
 * line break, an existing -o file), 130 on Ctrl-C. */
int check_run(const struct config *cfg);

#endif
