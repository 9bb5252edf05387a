/* base_url: base URL normalization (trailing slash, query, pasted paths). */
#include "base_url.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sanitize.h"

static const char *const known_paths[] = {
    "/v1/chat/completions",
    "/v1/completions",
    "/v1/messages",
    "/chat/completions",
};

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

/* Appends a sentence to out->message ("; " separated). */
static void add_note(struct base_url *out, const char *text)
{
    size_t len = strlen(out->message);
    snprintf(out->message + len, sizeof out->message - len, "%s%s",
             len ? "; " : "", text);
}

/* True when s ends with suffix (case-sensitive, as URL paths are). */
static int ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Removes trailing slashes from e (of length *len); returns how many. */
static int strip_slashes(char *e, size_t *len, size_t min_len)
{
    int n = 0;
    while (*len > min_len && e[*len - 1] == '/') {
        e[--*len] = '\0';
        n++;
    }
    return n;
}

static int normalize(const char *in, const char *api_path,
                     struct base_url *out);

int base_url_normalize(const char *in, const char *api_path, const char *key,
                       struct base_url *out)
{
    int rc = normalize(in, api_path, out);
    snprintf(out->shown_endpoint, sizeof out->shown_endpoint, "%s",
             out->endpoint);
    snprintf(out->shown_url, sizeof out->shown_url, "%s", out->url);
    sanitize_url_in(out->shown_endpoint, sizeof out->shown_endpoint, key);
    sanitize_url_in(out->shown_url, sizeof out->shown_url, key);
    sanitize_url_in(out->message, sizeof out->message, key);
    return rc;
}

/* base_url_normalize without the hiding of the key. */
static int normalize(const char *in, const char *api_path, struct base_url *out)
{
    char *e;
    const char *start = in, *end, *host, *p;
    size_t len, scheme_len, host_end, i;
    out->message[0] = out->endpoint[0] = out->url[0] = '\0';
    e = out->endpoint;

    while (is_space(*start))
        start++;
    end = start + strlen(start);
    while (end > start && is_space(end[-1]))
        end--;
    if (end == start) {
        snprintf(out->message, sizeof out->message, "the base URL is empty");
        return BASE_URL_E_EMPTY;
    }
    len = (size_t)(end - start);
    if (len >= BASE_URL_MAX) {
        snprintf(out->message, sizeof out->message,
                 "the base URL is longer than %d bytes", BASE_URL_MAX);
        return BASE_URL_E_LONG;
    }
    memcpy(e, start, len);
    e[len] = '\0';
    if (start != in || *end != '\0')
        add_note(out, "removed spaces around the base URL");
    for (p = e; *p; p++) {
        if (is_space(*p)) {
            snprintf(out->message, sizeof out->message,
                     "the base URL '%s' contains a space", e);
            return BASE_URL_E_SPACE;
        }
    }

    if (strncasecmp(e, "https://", 8) == 0)
        scheme_len = 8;
    else if (strncasecmp(e, "http://", 7) == 0)
        scheme_len = 7;
    else {
        if (strstr(e, "://"))
            snprintf(out->message, sizeof out->message,
                     "the base URL '%s' must start with http:// or https://",
                     e);
        else
            snprintf(out->message, sizeof out->message,
                     "the base URL '%s' has no scheme; did you mean "
                     "https://%s ?",
                     e, e);
        return BASE_URL_E_SCHEME;
    }
    for (i = 0; i < scheme_len; i++) /* "HTTPS://" -> "https://" */
        e[i] = (char)(e[i] >= 'A' && e[i] <= 'Z' ? e[i] + 32 : e[i]);

    host = e + scheme_len;
    host_end = strcspn(host, "/?#");
    if (host_end == 0) {
        snprintf(out->message, sizeof out->message,
                 "the base URL '%s' has no host name", e);
        return BASE_URL_E_HOST;
    }
    if (memchr(host, '@', host_end)) {
        const char *at = host + host_end;
        while (at[-1] != '@')
            at--;
        snprintf(out->message, sizeof out->message,
                 "the base URL carries credentials (user:password@); remove "
                 "them and put the key in the API key variable: %.*s%s",
                 (int)scheme_len, e, at);
        return BASE_URL_E_USERINFO;
    }
    if (strpbrk(host, "?#")) {
        size_t cut = (size_t)(strpbrk(host, "?#") - e);
        char fixed[BASE_URL_MAX];
        size_t flen = cut;
        memcpy(fixed, e, cut);
        fixed[cut] = '\0';
        strip_slashes(fixed, &flen, scheme_len + host_end);
        snprintf(out->message, sizeof out->message,
                 "the base URL has a %s (%s); tracking parameters and the "
                 "like break API clients. Use: %s",
                 e[cut] == '?' ? "query string" : "fragment", e + cut, fixed);
        return BASE_URL_E_QUERY;
    }

    len = strlen(e);
    if (strip_slashes(e, &len, scheme_len + host_end))
        add_note(out, "removed the trailing slash from the base URL");
    for (i = 0; i < sizeof known_paths / sizeof known_paths[0]; i++) {
        if (ends_with(e, len, known_paths[i]) &&
            len - strlen(known_paths[i]) >= scheme_len + host_end) {
            char note[BASE_URL_MAX + 128];
            len -= strlen(known_paths[i]);
            e[len] = '\0';
            strip_slashes(e, &len, scheme_len + host_end);
            snprintf(note, sizeof note,
                     "the base URL ended in the API path "
                     "%s; using the base %s",
                     known_paths[i], e);
            add_note(out, note);
            break;
        }
    }
    if (ends_with(e, len, "/v1"))
        snprintf(out->url, sizeof out->url, "%s%s", e,
                 strncmp(api_path, "/v1/", 4) == 0 ? api_path + 3 : api_path);
    else
        snprintf(out->url, sizeof out->url, "%s%s", e, api_path);
    return BASE_URL_OK;
}

bool base_url_is_loopback(const char *url)
{
    const char *h = url ? strstr(url, "://") : NULL, *end, *at;
    char host[256];
    size_t n;
    if (!h)
        return false;
    h += 3;
    end = h + strcspn(h, "/?#");
    at = memchr(h, '@', (size_t)(end - h));
    if (at)
        h = at + 1;
    if (*h == '[') { /* [::1]:port */
        const char *close = memchr(h, ']', (size_t)(end - h));
        if (!close)
            return false;
        n = (size_t)(close - h - 1);
        return n == 3 && memcmp(h + 1, "::1", 3) == 0;
    }
    n = strcspn(h, ":/?#");
    if (n == 0 || n >= sizeof host)
        return false;
    for (size_t i = 0; i < n; i++)
        host[i] = (char)tolower((unsigned char)h[i]);
    host[n] = '\0';
    if (strcmp(host, "localhost") == 0 ||
        (n > 10 && strcmp(host + n - 10, ".localhost") == 0))
        return true;
    return strncmp(host, "127.", 4) == 0 && strspn(host, "0123456789.") == n;
}
