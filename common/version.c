/* version: the --version line. */
#include "version.h"

#include "trace.h"

void version_print(FILE *out, const char *program)
{
    fprintf(out, "%s %s (trace format %d)\n", program, TT_VERSION,
            TRACE_FORMAT_VERSION);
}
