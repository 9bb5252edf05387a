/* scrape: one GET of a Prometheus text endpoint, its lines filtered. */
#include "scrape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_classify.h"
#include "server_metric_names.h"

/* Keeps one complete line (without its '\n') when it is a sample or TYPE
 * line of a family that matters; counts the other sample lines. */
static void judge_line(struct scrape *s, const char *p, size_t n)
{
    struct prom_line *l = &s->parsed;
    const struct server_metric *fam;
    int rc = prom_parse_line(p, n, l);
    if (rc == PROM_OK && (l->kind == PROM_BLANK || l->kind == PROM_COMMENT ||
                          l->kind == PROM_HELP))
        return;
    if (rc != PROM_OK || !(fam = server_metric_find(l->name, l->name_len))) {
        if (rc != PROM_OK || l->kind == PROM_SAMPLE)
            s->lines_dropped++;
        return;
    }
    if (fam != s->family) { /* a family's lines come together */
        s->family = fam;
        s->family_start = s->kept.len;
    }
    if (s->truncated || s->kept.len + n + 1 > SCRAPE_MAX_KEPT) {
        if (!s->truncated) { /* drop the family the cap cut into */
            for (size_t i = s->family_start; i < s->kept.len; i++)
                s->lines_dropped += s->kept.data[i] == '\n';
            s->kept.len = s->family_start;
            if (s->kept.data)
                s->kept.data[s->kept.len] = '\0';
        }
        s->truncated = true;
        s->lines_dropped += l->kind == PROM_SAMPLE;
        return;
    }
    if (buf_append(&s->kept, p, n) != BUF_OK ||
        buf_append(&s->kept, "\n", 1) != BUF_OK)
        s->truncated = true;
}

/* libcurl: body bytes; complete lines are judged as they arrive, so the
 * work is spread over the receives and nothing but the kept lines stays. */
static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    struct scrape *s = ud;
    size_t n = size * nmemb, i = 0;
    s->bytes += n;
    if (s->bytes > SCRAPE_MAX_BODY) {
        s->too_large = true;
        return CURL_WRITEFUNC_ERROR;
    }
    if (s->status >= 300)
        return n; /* an error page: not metrics */
    while (i < n) {
        const char *nl = memchr(ptr + i, '\n', n - i);
        size_t k = nl ? (size_t)(nl - (ptr + i)) : n - i;
        if (!s->line_long && s->line.len + k > PROM_LINE_MAX) {
            s->line_long = true;
            buf_reset(&s->line);
        }
        if (!s->line_long && k && buf_append(&s->line, ptr + i, k) != BUF_OK)
            s->line_long = true;
        i += k;
        if (!nl)
            break;
        i++;
        if (s->line_long)
            s->lines_dropped++;
        else if (s->line.len == 0)
            judge_line(s, "", 0);
        else
            judge_line(s, s->line.data, s->line.len);
        buf_reset(&s->line);
        s->line_long = false;
    }
    return n;
}

/* libcurl: a response header line; only the status line matters. */
static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    struct scrape *s = ud;
    size_t n = size * nmemb;
    if (n > 9 && memcmp(ptr, "HTTP/", 5) == 0) {
        const char *sp = memchr(ptr, ' ', n);
        if (sp && (size_t)(sp - ptr) + 4 <= n)
            s->status =
                (sp[1] - '0') * 100 + (sp[2] - '0') * 10 + (sp[3] - '0');
    }
    return n;
}

int scrape_new(const struct scrape_config *sc, const char *url,
               const char *shown, struct scrape **out)
{
    struct scrape *s = calloc(1, sizeof *s);
    CURL *e;
    if (!s)
        return SCRAPE_E_NOMEM;
    buf_init(&s->kept, SCRAPE_MAX_KEPT + 1);
    buf_init(&s->line, PROM_LINE_MAX + 1);
    s->url = strdup(url);
    s->shown = strdup(shown);
    s->headers = curl_slist_append(NULL, "Accept: text/plain");
    if (s->headers && sc->auth_header) {
        struct curl_slist *h = curl_slist_append(s->headers, sc->auth_header);
        if (h)
            s->headers = h;
        else {
            curl_slist_free_all(s->headers);
            s->headers = NULL;
        }
    }
    s->easy = e = curl_easy_init();
    if (!s->url || !s->shown || !s->headers || !e) {
        scrape_free(s);
        return SCRAPE_E_NOMEM;
    }
    curl_easy_setopt(e, CURLOPT_URL, s->url);
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, s->headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, s);
    curl_easy_setopt(e, CURLOPT_PRIVATE, NULL);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, s->errbuf);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "tokentrace-record/" TT_VERSION);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, sc->timeout_ms);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    /* Its own connection, HTTP/1.1, closed after each scrape: a scrape
     * never shares a connection (nor an HTTP/2 multiplex) with the
     * measured streams, and no stream ever reuses a scrape's. */
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
    if (sc->proxy) {
        curl_easy_setopt(e, CURLOPT_PROXY, sc->proxy);
        curl_easy_setopt(e, CURLOPT_NOPROXY, "");
    }
    if (sc->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (sc->cacert)
        curl_easy_setopt(e, CURLOPT_CAINFO, sc->cacert);
    *out = s;
    return SCRAPE_OK;
}

void scrape_begin(struct scrape *s, int64_t start_ns)
{
    s->busy = true;
    s->start_ns = start_ns;
    s->status = 0;
    s->bytes = 0;
    s->lines_dropped = 0;
    s->truncated = false;
    s->family = NULL;
    s->family_start = 0;
    s->too_large = false;
    s->line_long = false;
    s->errbuf[0] = '\0';
    buf_reset(&s->kept);
    buf_reset(&s->line);
}

CURLcode scrape_perform(struct scrape *s)
{
    return curl_easy_perform(s->easy);
}

void scrape_result(struct scrape *s, CURLcode code, int64_t end_ns,
                   const char *when, struct trace_server_metrics *m,
                   char *kind_buf, size_t kind_len, char *msg, size_t msglen)
{
    s->busy = false;
    /* a last line without its '\n' */
    if (code == CURLE_OK && s->status < 300 && s->line.len && !s->line_long)
        judge_line(s, s->line.data, s->line.len);
    buf_reset(&s->line);
    memset(m, 0, sizeof *m);
    m->url = s->shown;
    m->when = when;
    m->start_ns = s->start_ns;
    m->end_ns = end_ns;
    m->http_status = s->status;
    m->bytes = s->bytes;
    msg[0] = '\0';
    if (s->too_large) {
        m->error_kind = "too_large";
        snprintf(msg, msglen, "the body passed %zu MiB: not a metrics page",
                 SCRAPE_MAX_BODY >> 20);
    } else if (code != CURLE_OK || s->status < 200 || s->status >= 300) {
        struct error_facts f;
        memset(&f, 0, sizeof f);
        f.code = code;
        f.curl_error = s->errbuf;
        f.http_status = s->status;
        f.content_type = "";
        f.token_seen = true; /* not a stream: no stream kinds */
        f.sse_framed = true;
        /* connected when libcurl finished the TCP connect, whatever came
         * after: a server that accepts and never answers is a timeout,
         * not "connect" (its status stays 0) */
        {
            curl_off_t ct = 0;
            f.connected = s->status > 0 ||
                          (curl_easy_getinfo(s->easy, CURLINFO_CONNECT_TIME_T,
                                             &ct) == CURLE_OK &&
                           ct > 0);
        }
        m->error_kind = error_classify(&f, kind_buf, kind_len, msg, msglen);
        if (!m->error_kind[0]) { /* a 1xx / 0 status libcurl let through */
            snprintf(kind_buf, kind_len, "http_%03d", s->status);
            m->error_kind = kind_buf;
        }
    }
    if (m->error_kind) {
        m->error_message = msg[0] ? msg : NULL;
        return;
    }
    m->text = s->kept.data;
    m->text_len = s->kept.len;
    m->lines_dropped = s->lines_dropped;
    m->truncated = s->truncated;
}

void scrape_free(struct scrape *s)
{
    if (!s)
        return;
    if (s->easy)
        curl_easy_cleanup(s->easy);
    curl_slist_free_all(s->headers);
    buf_free(&s->kept);
    buf_free(&s->line);
    free(s->url);
    free(s->shown);
    free(s);
}
