/* secret: handling of strings that hold keys. */
#ifndef TT_SECRET_H
#define TT_SECRET_H

/* Overwrites a secret string with zeros, then frees it. NULL-safe. */
void secret_free(char *s);

#endif
