/* fast_path: the TOKENTRACE_NO_FAST_PATH switch. */
#include "fast_path.h"

#include <stdlib.h>
#include <string.h>

bool fast_path_disabled(void)
{
    const char *v = getenv("TOKENTRACE_NO_FAST_PATH");
    return v && v[0] && strcmp(v, "0") != 0;
}
