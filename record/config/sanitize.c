/* sanitize: redacts key-like strings from command lines, labels, messages. */
#include "sanitize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"

#define REDACTED "[redacted]"

static bool is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* Characters that may continue a key token ("sk-proj-Ab_9..."). */
static bool is_key_char(char c)
{
    return is_alnum(c) || c == '-' || c == '_' || c == '.';
}

/* Length of the secret-looking token starting at p (which starts a token:
 * the previous character is not a key character), or 0 when none does. */
static size_t secret_at(const char *p)
{
    size_t n = 0, alnum = 0;
    bool letters = false, digits = false;
    if ((strncmp(p, "sk-", 3) == 0 || strncmp(p, "sk_", 3) == 0) &&
        is_key_char(p[3])) {
        while (is_key_char(p[n]))
            n++;
        return n;
    }
    if (strncmp(p, "Bearer ", 7) == 0 && p[7] && p[7] != ' ') {
        n = 7;
        while (p[n] && p[n] != ' ' && p[n] != '"' && p[n] != '\'')
            n++;
        return n;
    }
    if (strncmp(p, "eyJ", 3) == 0) {
        while (is_key_char(p[n]))
            n++;
        return n >= 20 ? n : 0;
    }
    while (is_alnum(p[alnum])) {
        if (p[alnum] >= '0' && p[alnum] <= '9')
            digits = true;
        else
            letters = true;
        alnum++;
    }
    if (alnum >= 32 && letters && digits) {
        while (is_key_char(p[alnum]))
            alnum++;
        return alnum;
    }
    return 0;
}

/* The length of the key-looking token at p (a token start) by the
 * narrower rules for URLs: "sk-"/"sk_" and then letters, digits, '-' and
 * '_' (a '.' ends it: "sk-gw.example.com" is a host), SANITIZE_URL_MIN_KEY
 * bytes in all; or a JWT. 0 when none. */
static size_t url_secret_at(const char *p)
{
    size_t n = 0;
    if (strncmp(p, "sk-", 3) == 0 || strncmp(p, "sk_", 3) == 0) {
        while (is_alnum(p[n]) || p[n] == '-' || p[n] == '_')
            n++;
        return n >= SANITIZE_URL_MIN_KEY ? n : 0;
    }
    if (strncmp(p, "eyJ", 3) == 0) {
        while (is_key_char(p[n]))
            n++;
        return n >= 20 ? n : 0;
    }
    return 0;
}

/* Query parameters whose value is a credential, compared without case:
 * Google's ?key=, Azure's ?api-key= and ?sig=, OAuth's ?access_token=. */
static const char *const credential_params[] = {
    "key",    "api_key", "api-key",       "apikey",     "x-api-key",
    "token",  "auth",    "access_token",  "auth_token", "password",
    "passwd", "secret",  "client_secret", "sig",        "signature",
};

/* The bytes of a query value at p: up to the next separator. */
static size_t query_value_len(const char *p)
{
    return strcspn(p, "&#; \t\r\n\"'<>)");
}

/* At p inside s, a credential of a URL the URL rules know besides the
 * key-looking tokens: the value of a credential query parameter
 * ("?key=V": p at "key", *pre the bytes "key=" to keep) or the password of
 * "scheme://user:password@" (p just after "://": *pre the user and ':').
 * Returns the credential's length, 0 when none starts at p. */
static size_t url_credential_at(const char *s, const char *p, size_t *pre)
{
    *pre = 0;
    if (p > s && (p[-1] == '?' || p[-1] == '&' || p[-1] == ';')) {
        for (size_t i = 0;
             i < sizeof credential_params / sizeof *credential_params; i++) {
            size_t n = strlen(credential_params[i]);
            if (strncasecmp(p, credential_params[i], n) == 0 && p[n] == '=') {
                size_t v = query_value_len(p + n + 1);
                *pre = v ? n + 1 : 0;
                return v;
            }
        }
        return 0;
    }
    if (p - s >= 3 && memcmp(p - 3, "://", 3) == 0) {
        size_t end = strcspn(p, "/?# \t\r\n\"'<>");
        const char *at = memchr(p, '@', end), *colon;
        if (!at)
            return 0;
        colon = memchr(p, ':', (size_t)(at - p));
        if (!colon || colon + 1 == at)
            return 0;
        *pre = (size_t)(colon + 1 - p);
        return (size_t)(at - colon - 1);
    }
    return 0;
}

size_t sanitize_url_secrets(const char *s, struct sanitize_span *out,
                            size_t max)
{
    size_t n = 0;
    for (const char *p = s; *p;) {
        size_t pre, len = url_credential_at(s, p, &pre);
        if (!len && (p == s || !is_key_char(p[-1])))
            len = url_secret_at(p);
        if (!len) {
            p++;
            continue;
        }
        if (n < max) {
            out[n].off = (size_t)(p - s) + pre;
            out[n].len = len;
        }
        n++;
        p += pre + len;
    }
    return n;
}

bool sanitize_looks_secret(const char *s)
{
    const char *p;
    for (p = s; *p; p++) {
        if (p != s && is_key_char(p[-1]))
            continue;
        if (secret_at(p))
            return true;
    }
    return false;
}

/* Which key-looking tokens redact() replaces besides the key. */
enum rules {
    RULES_NONE, /* the key only */
    RULES_URL,  /* url_secret_at */
    RULES_ALL,  /* secret_at */
};

/* Copies s, replacing key everywhere and every secret-looking token the
 * rules name. */
static char *redact(const char *s, const char *key, enum rules rules)
{
    struct buf b;
    const char *p = s;
    size_t keylen = key ? strlen(key) : 0;
    buf_init(&b, 0);
    if (buf_puts(&b, ""))
        return NULL;
    while (*p) {
        size_t n = 0;
        size_t pre = 0;
        if (keylen && strncmp(p, key, keylen) == 0)
            n = keylen;
        else if (rules == RULES_URL && (n = url_credential_at(s, p, &pre))) {
            if (buf_append(&b, p, pre))
                goto fail;
            p += pre;
        } else if (rules != RULES_NONE && (p == s || !is_key_char(p[-1])))
            n = rules == RULES_ALL ? secret_at(p) : url_secret_at(p);
        if (n) {
            if (buf_puts(&b, REDACTED))
                goto fail;
            p += n;
            continue;
        }
        if (buf_append(&b, p, 1))
            goto fail;
        p++;
    }
    return b.data;
fail:
    buf_free(&b);
    return NULL;
}

char *sanitize_string(const char *s, const char *key)
{
    return redact(s, key, RULES_ALL);
}

char *sanitize_key_only(const char *s, const char *key)
{
    return redact(s, key, RULES_NONE);
}

char *sanitize_url(const char *s, const char *key)
{
    return redact(s, key, RULES_URL);
}

void sanitize_url_in(char *s, size_t size, const char *key)
{
    char *clean = redact(s, key, RULES_URL);
    if (clean) {
        snprintf(s, size, "%s", clean);
        free(clean);
        return;
    }
    /* out of memory: a key is never shown, the text is lost */
    snprintf(s, size, "%s", REDACTED);
}

/* True for an option whose value is itself a credential (or names one). */
static bool secret_option(const char *arg)
{
    static const char *const words[] = {"key",  "secret", "password",  "passwd",
                                        "auth", "cookie", "credential"};
    size_t i, len;
    const char *eq;
    if (strncmp(arg, "--", 2) != 0)
        return false;
    eq = strchr(arg, '=');
    len = eq ? (size_t)(eq - arg) : strlen(arg);
    for (i = 0; i < sizeof words / sizeof words[0]; i++) {
        const char *hit = strstr(arg, words[i]);
        if (hit && (size_t)(hit - arg) < len)
            return true;
    }
    /* "--token", "--access-token", but not "--max-tokens" */
    {
        const char *hit = strstr(arg, "token");
        if (hit && (size_t)(hit - arg) < len && hit[5] != 's')
            return true;
    }
    return false;
}

/* Appends arg to b, single-quoted for a POSIX shell when it needs it. */
static int append_quoted(struct buf *b, const char *arg)
{
    const char *p;
    bool plain = *arg != '\0';
    int err;
    for (p = arg; *p; p++)
        if (!(is_alnum(*p) || strchr("-_./:=,@%+", *p)))
            plain = false;
    if (plain)
        return buf_puts(b, arg);
    err = buf_puts(b, "'");
    for (p = arg; *p && !err; p++)
        err = *p == '\'' ? buf_puts(b, "'\\''") : buf_append(b, p, 1);
    return err ? err : buf_puts(b, "'");
}

/* s with a URL's "user:password@" as "[redacted]@" (a --server-metrics
 * URL may carry credentials). Returns a malloc'd copy, NULL when out of
 * memory. */
static char *hide_userinfo(const char *s)
{
    const char *p = strstr(s, "://"), *end, *at;
    struct buf b;
    if (!p)
        return strdup(s);
    p += 3;
    end = p + strcspn(p, "/?#");
    at = memchr(p, '@', (size_t)(end - p));
    if (!at)
        return strdup(s);
    buf_init(&b, 0);
    if (buf_append(&b, s, (size_t)(p - s)) || buf_puts(&b, REDACTED) ||
        buf_puts(&b, at)) {
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

char *sanitize_command_line(int argc, char **argv, const char *key)
{
    struct buf b;
    int i, err = 0;
    bool redact_next = false;
    buf_init(&b, 0);
    err = buf_puts(&b, "");
    for (i = 0; i < argc && !err; i++) {
        const char *arg = argv[i];
        char *clean;
        if (i > 0)
            err = buf_puts(&b, " ");
        if (err)
            break;
        if (redact_next) {
            err = buf_puts(&b, REDACTED);
            redact_next = false;
            continue;
        }
        if (secret_option(arg)) {
            const char *eq = strchr(arg, '=');
            if (eq) {
                err = buf_append(&b, arg, (size_t)(eq - arg + 1));
                if (!err)
                    err = buf_puts(&b, REDACTED);
            } else {
                err = buf_puts(&b, arg);
                redact_next = true;
            }
            continue;
        }
        {
            char *plain = hide_userinfo(arg);
            clean = plain ? sanitize_string(plain, key) : NULL;
            free(plain);
        }
        if (!clean) {
            err = 1;
            break;
        }
        err = append_quoted(&b, clean);
        free(clean);
    }
    if (err) {
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

const char *sanitize_shown(const char *v)
{
    return sanitize_looks_secret(v) ? "[redacted]" : v;
}
