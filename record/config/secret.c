/* secret: handling of strings that hold keys, and the names of the
 * environment variables that hold them. */
#include "secret.h"

#include <stdlib.h>

void secret_free(char *s)
{
    volatile char *p = s;
    if (!s)
        return;
    while (*p)
        *p++ = '\0';
    free(s);
}

void secret_wipe(void *p, size_t n)
{
    volatile unsigned char *q = p;
    if (!p)
        return;
    while (n--)
        *q++ = 0;
}

bool secret_env_name_ok(const char *name)
{
    const char *p;
    if (!(*name == '_' || (*name >= 'A' && *name <= 'Z') ||
          (*name >= 'a' && *name <= 'z')))
        return false;
    for (p = name; *p; p++)
        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
              (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}
