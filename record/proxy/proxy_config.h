/* proxy_config: tokentrace-proxy's settings, filled by proxy_cli_parse and
 * read-only afterwards. */
#ifndef TT_PROXY_CONFIG_H
#define TT_PROXY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROXY_DEFAULT_LISTEN "127.0.0.1:8088"
#define PROXY_DEFAULT_CLIENT_BUFFER ((size_t)1 << 20)
#define PROXY_MAX_BODY ((size_t)32 << 20)

struct proxy_config {
    const char *listen;    /* HOST:PORT */
    const char *upstream;  /* -u: the upstream's base URL */
    const char *output;    /* -o: the trace, NULL: tokentrace-proxy-<UTC>... */
    const char *api;       /* --api: the header's API name */
    const char *key_env;   /* --key-env: inject this variable's key */
    const char *token_env; /* --token-env: the local token's variable */
    const char *port_file; /* --port-file: the bound port, once listening */
    bool allow_remote;     /* --allow-remote: a non-loopback listen address */
    bool force;            /* -f: overwrite the output */
    bool no_content;       /* --no-content: request bodies not stored */
    bool insecure;         /* --insecure: no TLS verification upstream */
    bool chunk_time_user;  /* --chunk-time user: hand-over times */
    bool print_cline;      /* --print-cline-settings */
    bool quiet;            /* -q */
    size_t client_buffer;  /* --client-buffer: bytes queued per client */
    uint64_t max_requests; /* --max-requests: record at most N (0: all) */
    uint64_t max_bytes;    /* --max-bytes: stop recording at B (0: never) */
    bool no_compress;      /* --no-compress: a plain trace */
    double timeout_s;      /* --timeout: per upstream request */
    double connect_timeout_s;
    double header_timeout_s; /* --header-timeout: a whole request, from
                                connecting or the last reply */
};

#endif
