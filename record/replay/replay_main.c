/* replay_main: tokentrace-replay's entry point: parse, raise the fd limit,
 * listen, report the port, serve until a signal, clean up. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fd_limit.h"
#include "log.h"
#include "out_error.h"
#include "replay_config.h"
#include "replay_server.h"
#include "version.h"

/* The parsed command line: read-only after parsing. */
static struct replay_config cfg;

/* Raises the open-file soft limit to the hard limit: every concurrent
 * stream holds a socket. */
static void raise_nofile(void)
{
    uint64_t soft, hard;
    char err[160];
    if (fd_limit_raise(&soft, &hard, err, sizeof err) == 1)
        log_warn("%s", err);
}

/* Writes "<port>\n" to path through a temp file and rename, so a reader
 * never sees a partial number. Returns 0 or errno. */
static int write_port_file(const char *path, int port)
{
    char tmp[4096];
    FILE *f;
    int err = 0;

    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path,
                         (long)getpid()) >= sizeof(tmp))
        return ENAMETOOLONG;
    f = fopen(tmp, "w");
    if (f == NULL)
        return errno;
    if (fprintf(f, "%d\n", port) < 0)
        err = errno ? errno : EIO;
    if (fclose(f) != 0 && err == 0)
        err = errno ? errno : EIO;
    if (err == 0 && rename(tmp, path) != 0)
        err = errno;
    if (err != 0)
        unlink(tmp);
    return err;
}

int main(int argc, char **argv)
{
    struct replay_server *srv = NULL;
    struct sigaction sa;
    char err[1024];
    int rc;

    log_set_program("tokentrace-replay");
    rc = replay_cli_parse(argc, argv, &cfg, err, sizeof err);
    if (rc == REPLAY_CLI_HELP || rc == REPLAY_CLI_VERSION) {
        if (rc == REPLAY_CLI_HELP)
            fputs(replay_cli_help_text(), stdout);
        else
            version_print(stdout, "tokentrace-replay");
        return 0;
    }
    if (rc != REPLAY_CLI_OK) {
        log_error("%s (see --help)", err);
        return 2;
    }
    log_set_quiet(cfg.quiet ? LOG_QUIET_NOTES : LOG_QUIET_NONE);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    raise_nofile();
    if (replay_server_open(&cfg, &srv, err, sizeof(err)) != 0) {
        log_error("%s", err);
        return 1;
    }
    /* Every stderr note before the port file: a test that reads stderr
     * once the port file appears finds them all (docs/replay.md). */
    replay_server_keep_awake(srv);
    log_note("listening on http://%s%s%s:%d",
             strchr(cfg.listen_host, ':') ? "[" : "", cfg.listen_host,
             strchr(cfg.listen_host, ':') ? "]" : "", srv->port);
    if (cfg.port_file != NULL) {
        rc = write_port_file(cfg.port_file, srv->port);
        if (rc != 0) {
            log_error("--port-file: %s",
                      out_error(err, sizeof err, cfg.port_file, rc));
            replay_server_close(srv);
            return 1;
        }
    }
    rc = replay_server_run(srv);
    if (rc != 0)
        log_error("event loop failed");
    if (replay_server_close(srv) != 0) {
        log_error("cannot write %s", cfg.log_sends_path);
        return 1;
    }
    return rc ? 1 : 0;
}
