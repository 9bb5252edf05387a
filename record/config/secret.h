/* secret: handling of strings that hold keys. */
#ifndef TT_SECRET_H
#define TT_SECRET_H

#include <stddef.h>

/* Overwrites a secret string with zeros, then frees it. NULL-safe. */
void secret_free(char *s);

/* Overwrites n bytes at p with zeros (not optimized away). NULL-safe. */
void secret_wipe(void *p, size_t n);

#endif
