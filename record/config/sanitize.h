/* sanitize: keeps keys out of everything the recorder writes or prints. */
#ifndef TT_RECORD_SANITIZE_H
#define TT_RECORD_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

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

/* Shortest "sk-..." token sanitize_url takes for a key (real keys are 40
 * and more; "sk-learn" in a path is not one). */
#define SANITIZE_URL_MIN_KEY 20

/* Returns a malloc'd copy of s, a URL or a message that quotes URLs, to
 * print or store: every occurrence of key (when non-NULL and non-empty),
 * every credential query value ("?key=[redacted]"), the password of
 * "user:password@" and every key-looking token in it ("sk-"/"sk_" and 20 or
 * more letters, digits, '-', '_'; a JWT "eyJ...") replaced by "[redacted]".
 * Unlike sanitize_string, long letter/digit runs stay: in a URL they are
 * account or deployment ids (Cloudflare AI Gateway, Lambda URLs), not keys.
 * NULL when out of memory. */
char *sanitize_url(const char *s, const char *key);

/* One credential inside a string: its offset and length. */
struct sanitize_span {
    size_t off, len;
};

/* The credentials inside s, a URL or a request target ("/v1/...?key=K"),
 * by sanitize_url's rules: key-looking tokens (a "sk-..." path segment),
 * the value of a credential query parameter (key, api-key, api_key,
 * apikey, token, access_token, sig, ... without case) and the password of
 * "user:password@". Writes the first max spans, in order, to out and
 * returns how many there are (more than max when out was too short). */
size_t sanitize_url_secrets(const char *s, struct sanitize_span *out,
                            size_t max);

/* sanitize_url over the string in s (a buffer of size bytes), in place,
 * cut to fit; out of memory leaves "[redacted]". Never fails. */
void sanitize_url_in(char *s, size_t size, const char *key);

/* Returns the command line to store in a trace, malloc'd: the arguments
 * joined by spaces and shell-quoted where needed, with the value of every
 * --api-key* option (and of options named like token/secret/password)
 * replaced by "[redacted]" and every other argument passed through
 * sanitize_string. NULL when out of memory. */
char *sanitize_command_line(int argc, char **argv, const char *key);

/* v as an error message may show it: "[redacted]" when it looks like a
 * key. */
const char *sanitize_shown(const char *v);

#endif
