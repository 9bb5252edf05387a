/* secret: handling of strings that hold keys, and the names of the
 * environment variables that hold them. */
#ifndef TT_SECRET_H
#define TT_SECRET_H

#include <stdbool.h>
#include <stddef.h>

/* Overwrites a secret string with zeros, then frees it. NULL-safe. */
void secret_free(char *s);

/* Overwrites n bytes at p with zeros (not optimized away). NULL-safe. */
void secret_wipe(void *p, size_t n);

/* True when name can be an environment variable name:
 * [A-Za-z_][A-Za-z0-9_]*. */
bool secret_env_name_ok(const char *name);

#endif
