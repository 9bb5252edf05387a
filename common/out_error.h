/* out_error: why an output file (a trace, a chart, a report, a port file)
 * cannot be written, said the same way by every program. */
#ifndef TT_COMMON_OUT_ERROR_H
#define TT_COMMON_OUT_ERROR_H

#include <stddef.h>

/* Room for any out_error sentence about a path of up to PATH_MAX bytes. */
#define OUT_ERROR_SIZE 8448

/* Writes into buf (len bytes; cut to fit) the sentence for creating or
 * opening path for writing having failed with errno err, and returns buf:
 *   EEXIST        "PATH exists; use --force to overwrite it or -o to pick
 *                 another name"
 *   ENOENT        "cannot write PATH: its directory DIR does not exist"
 *   ENOTDIR       "cannot write PATH: A is not a directory" (A: the
 *                 deepest part of DIR that exists)
 *   EACCES, EPERM "cannot write PATH: permission denied" (and "in its
 *                 directory DIR" when PATH does not exist yet)
 *   EISDIR        "cannot write PATH: it is a directory"
 *   any other     "cannot write PATH: " and strerror(err)
 * DIR is PATH's directory as given ("." for a bare name). Looks at the
 * file system (stat) to tell the cases apart; changes nothing. */
const char *out_error(char *buf, size_t len, const char *path, int err);

/* Says out_error's sentence for path and err on stderr (log_error). */
void out_error_log(const char *path, int err);

#endif
