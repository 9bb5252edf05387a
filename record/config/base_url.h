/* base_url: checks and normalizes the base URL given by the user. */
#ifndef TT_RECORD_BASE_URL_H
#define TT_RECORD_BASE_URL_H

#include <stdbool.h>

#define BASE_URL_MAX 2048

enum base_url_err {
    BASE_URL_OK = 0,
    BASE_URL_E_EMPTY = 1,
    BASE_URL_E_SCHEME = 2,   /* not http:// or https:// */
    BASE_URL_E_HOST = 3,     /* no host */
    BASE_URL_E_QUERY = 4,    /* has ?query or #fragment: refused */
    BASE_URL_E_USERINFO = 5, /* user:password@ in the URL: refused */
    BASE_URL_E_SPACE = 6,    /* whitespace inside */
    BASE_URL_E_LONG = 7,     /* longer than BASE_URL_MAX */
};

/* A base URL may hold the key ("https://gw.example/<key>/v1", pasted on
 * purpose or by mistake): endpoint and url are what requests go to and are
 * never printed or stored; the shown_* forms and message are, with the key
 * and key-looking path segments as "[redacted]" (sanitize_url). */
struct base_url {
    char endpoint[BASE_URL_MAX]; /* normalized base URL, no trailing slash */
    char url[BASE_URL_MAX + 64]; /* endpoint + API path: the request URL */
    char shown_endpoint[BASE_URL_MAX + 64]; /* endpoint, to print/store */
    char shown_url[BASE_URL_MAX + 128];     /* url, to print/store */
    /* On success: what was changed ("" when nothing), to print as a warning.
     * On error: the reason, with the corrected URL when there is one. */
    char message[2 * BASE_URL_MAX + 256];
};

/* Normalizes in (borrowed) for the API path api_path ("/v1/chat/completions"):
 * strips surrounding whitespace and trailing slashes, drops a known API path
 * the user pasted, and avoids a doubled /v1 when the base already ends in
 * /v1. Refuses query strings, fragments and credentials. key (NULL: none)
 * is the run's API key, hidden from the shown_* fields and the message.
 * Returns a base_url_err; out->message is always set (possibly to ""). */
int base_url_normalize(const char *in, const char *api_path, const char *key,
                       struct base_url *out);

/* True when url's host is this machine's loopback (localhost, a name
 * under .localhost, 127.0.0.0/8, ::1): a local server, where running
 * without a key is the usual case, not a mistake worth a warning. */
bool base_url_is_loopback(const char *url);

#endif
