/* version: the one --version text of the four programs: the release and
 * the trace format they write and read. */
#ifndef TT_VERSION_H
#define TT_VERSION_H

#include <stdio.h>

/* Writes "PROGRAM VERSION (trace format N)" and a newline to out; the
 * first word pair is what help2man and packagers read. Cannot fail. */
void version_print(FILE *out, const char *program);

#endif
