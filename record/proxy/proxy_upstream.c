/* proxy_upstream: easy handle setup and the forwarded request headers. */
#include "proxy_upstream.h"

#include <errno.h>
#include <event2/keyvalq_struct.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "proxy_route.h"
#include "rx_stamp.h"

/* CURLOPT_OPENSOCKETFUNCTION: socket() as libcurl would call it, noting
 * a failure for want of file descriptors. */
static curl_socket_t open_socket(void *clientp, curlsocktype purpose,
                                 struct curl_sockaddr *a)
{
    curl_socket_t fd = socket(a->family, a->socktype, a->protocol);
    (void)purpose;
    if (fd == CURL_SOCKET_BAD && (errno == EMFILE || errno == ENFILE))
        *(bool *)clientp = true;
    return fd;
}

CURL *proxy_upstream_new(const struct proxy_upstream_spec *s)
{
    CURL *e = curl_easy_init();
    if (!e)
        return NULL;
    curl_easy_setopt(e, CURLOPT_URL, s->url);
    if (strcmp(s->method, "GET") == 0) {
        curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(e, CURLOPT_POST, 1L);
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, s->body ? s->body : "");
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE,
                         (curl_off_t)(s->body ? s->body_len : 0));
        if (strcmp(s->method, "POST") != 0)
            curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, s->method);
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, s->headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, s->on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, s->ud);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, s->on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, s->ud);
    curl_easy_setopt(e, CURLOPT_PRIVATE, s->ud);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, s->errbuf);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, s->timeout_ms);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, s->connect_timeout_ms);
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    /* the bytes as the upstream sent them: no decoding, no redirects */
    curl_easy_setopt(e, CURLOPT_HTTP_CONTENT_DECODING, 0L);
    curl_easy_setopt(e, CURLOPT_HTTP_TRANSFER_DECODING, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    if (s->out_of_fds) {
        curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
        curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, s->out_of_fds);
    }
    if (s->kernel_time) /* chunk times from the kernel (rx_stamp.h) */
        curl_easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, rx_stamp_sockopt);
    if (s->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    return e;
}

/* A header list built at its tail: curl_slist_append walks the whole
 * list on every call, which made 100,000 header lines a 15 s freeze of
 * the event loop. */
struct list {
    struct curl_slist *head, *tail;
};

/* Appends line (copied) to l; -1 when out of memory (l kept). */
static int add(struct list *l, const char *line)
{
    struct curl_slist *n = curl_slist_append(l->tail, line);
    if (!n)
        return -1;
    if (!l->head)
        l->head = n;
    else
        n = n->next; /* curl_slist_append returns the list it was given */
    l->tail = n;
    return 0;
}

int proxy_upstream_headers(struct evkeyvalq *in, const char *inject_line,
                           struct curl_slist **out)
{
    struct list h = {NULL, NULL};
    struct evkeyval *kv;
    char *line;
    bool content_type = false;
    for (kv = in->tqh_first; kv; kv = kv->next.tqe_next) {
        size_t n;
        if (!proxy_route_request_header(kv->key) ||
            (inject_line && proxy_route_credential_header(kv->key)))
            continue;
        content_type |= strcasecmp(kv->key, "Content-Type") == 0;
        n = strlen(kv->key) + strlen(kv->value) + 3;
        line = malloc(n);
        if (!line)
            goto fail;
        snprintf(line, n, "%s: %s", kv->key, kv->value);
        if (add(&h, line)) {
            free(line);
            goto fail;
        }
        free(line);
    }
    /* no 100-continue wait upstream; libcurl sends no Accept by itself;
     * a POST without Content-Type goes without one (libcurl would add
     * application/x-www-form-urlencoded) */
    if (add(&h, "Expect:") || (!content_type && add(&h, "Content-Type:")) ||
        (inject_line && add(&h, inject_line)))
        goto fail;
    *out = h.head;
    return 0;
fail:
    curl_slist_free_all(h.head);
    return -1;
}

const char *proxy_upstream_method(enum evhttp_cmd_type cmd)
{
    switch (cmd) {
    case EVHTTP_REQ_GET:
        return "GET";
    case EVHTTP_REQ_POST:
        return "POST";
    case EVHTTP_REQ_PUT:
        return "PUT";
    case EVHTTP_REQ_DELETE:
        return "DELETE";
    case EVHTTP_REQ_PATCH:
        return "PATCH";
    default:
        return NULL;
    }
}
