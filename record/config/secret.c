/* secret: handling of strings that hold keys. */
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
