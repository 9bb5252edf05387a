/* check_report: the lines --check prints: where the request goes, and per
 * model the verdict, the times, the notes and the hint or fix. */
#include "check_report.h"

#include <stdio.h>
#include <string.h>

#include "cline_msg.h"
#include "cline_settings.h"

/* Where the base URL came from, for the first line. */
static void url_origin(const struct config *cfg, char *b, size_t len)
{
    char nm[160];
    if (cfg->sdk_base)
        snprintf(b, len,
                 "%s in %s line %d; Cline appends "
                 "%s",
                 cline_msg_name(cfg->cline, cfg->cline->names.base_url, nm,
                                sizeof nm),
                 cfg->cline->path, cfg->cline->base_url_line,
                 cli_request_path(cfg));
    else if (cfg->base_url_from_env)
        snprintf(b, len, "$%s", cfg->base_url_env);
    else
        snprintf(b, len, "-u");
}

int check_report_url(const struct config *cfg, const char *key,
                     struct base_url *bu)
{
    char origin[512];
    int rc = base_url_normalize(cfg->base_url, cli_request_path(cfg), key, bu);
    url_origin(cfg, origin, sizeof origin);
    if (rc) {
        char cut[BASE_URL_MAX];
        struct base_url fixed;
        snprintf(cut, sizeof cut, "%.*s", (int)strcspn(cfg->base_url, "?#"),
                 cfg->base_url);
        printf("base URL: FAIL %s: %s (from %s)\n",
               rc == BASE_URL_E_QUERY ? "url-query" : "url", bu->message,
               origin);
        if (rc == BASE_URL_E_QUERY &&
            base_url_normalize(cut, cli_request_path(cfg), key, &fixed) == 0)
            printf("  fix: use the base URL without it: %s%s%s%s\n",
                   cfg->sdk_base ? "set " : "-u ",
                   cfg->sdk_base ? cfg->cline->names.base_url : "",
                   cfg->sdk_base ? " to " : "", fixed.shown_endpoint);
        else
            printf("  fix: give the API base URL from the gateway's docs, "
                   "like https://gateway.example/api\n");
        return 1;
    }
    printf("endpoint: POST %s (%s; base URL from %s)\n", bu->shown_url,
           api_kind_name(cfg->api), origin);
    if (bu->message[0])
        printf("  note: %s: the base is %s\n", bu->message, bu->shown_endpoint);
    return 0;
}

/* "-" or the time of a phase in ms. */
static void phase(char *b, size_t len, int64_t ns)
{
    if (ns < 0)
        snprintf(b, len, "-");
    else
        snprintf(b, len, "%.1f ms", (double)ns / 1e6);
}

void check_report_probe(const char *model, const struct probe_facts *f,
                        const struct check_verdict *v)
{
    struct check_notes notes;
    char con[32], tls[32], fb[32], ft[32], lt[32];
    size_t i;
    if (!v->ok) {
        printf("%s: FAIL %s: %s\n  fix: %s\n", model, v->id, v->cause, v->fix);
        if (f->proxy && f->proxy[0])
            printf("  note: requests go %s: this failure may be the "
                   "proxy's, not the server's; --no-proxy connects "
                   "directly\n",
                   f->proxy);
        return;
    }
    printf("%s: OK: %s\n", model, v->cause);
    phase(con, sizeof con, f->connect_ns);
    phase(tls, sizeof tls, f->tls_ns);
    phase(fb, sizeof fb, f->first_byte_ns);
    phase(ft, sizeof ft, f->ttft_ns);
    phase(lt, sizeof lt, f->last_token_ns);
    printf("  times: connected %s, TLS %s, first byte %s, first token %s, "
           "last token %s\n",
           con, tls, fb, ft, lt);
    if (f->waterfall && f->waterfall[0])
        printf("  waterfall: %s\n", f->waterfall);
    if (f->proxy && f->proxy[0])
        printf("  note: requests go %s: these times include the proxy's\n",
               f->proxy);
    check_verdict_notes(f, &notes);
    for (i = 0; i < notes.n; i++)
        printf("  %s: %s\n", notes.warn[i] ? "warning" : "note", notes.text[i]);
    printf("  hint: %s\n", v->fix);
}
