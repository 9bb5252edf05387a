/* sanitize: keeps keys out of everything the recorder writes or prints. */
#ifndef TT_RECORD_SANITIZE_H
#define TT_RECORD_SANITIZE_H

#include <stdbool.h>

/* True when s contains something that looks like a secret: a token starting
 * with "sk-"/"sk_", a "Bearer " credential, a JWT ("eyJ..."), or a run of 32
 * or more letters and digits mixing both. */
bool sanitize_looks_secret(const char *s);

/* Returns a malloc'd copy of s in which every secret-looking token and every
 * occurrence of key (when key is non-NULL and non-empty) is replaced by
 * "[redacted]". NULL when out of memory. */
char *sanitize_string(const char *s, const char *key);

/* Returns a malloc'd copy of s with every occurrence of key (non-empty)
 * replaced by "[redacted]" and nothing else changed. NULL when out of
 * memory. */
char *sanitize_key_only(const char *s, const char *key);

/* Returns the command line to store in a trace, malloc'd: the arguments
 * joined by spaces and shell-quoted where needed, with the value of every
 * --api-key* option (and of options named like token/secret/password)
 * replaced by "[redacted]" and every other argument passed through
 * sanitize_string. NULL when out of memory. */
char *sanitize_command_line(int argc, char **argv, const char *key);

#endif
