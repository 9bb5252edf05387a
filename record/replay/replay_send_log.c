/* replay_send_log: buffered TSV log of every body write. */
#include "replay_send_log.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_decimal.h"

struct replay_send_log {
    FILE *f;
    struct event *flush_timer;
    int err; /* first errno seen */
};

/* Writes out the buffered lines. Returns 0 or errno. */
static int replay_send_log_flush(struct replay_send_log *log)
{
    if (log == NULL)
        return 0;
    if (fflush(log->f) != 0 && log->err == 0)
        log->err = errno ? errno : EIO;
    return log->err;
}

/* Persistent one-second timer: keeps the file at most a second behind. */
static void on_flush_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    replay_send_log_flush(arg);
}

int replay_send_log_open(const char *path, struct event_base *base,
                         struct replay_send_log **out)
{
    struct replay_send_log *log = calloc(1, sizeof(*log));
    struct timeval one_s = {1, 0};
    int err;

    if (log == NULL)
        return ENOMEM;
    log->f = fopen(path, "w");
    if (log->f == NULL) {
        err = errno;
        free(log);
        return err;
    }
    setvbuf(log->f, NULL, _IOFBF, 1 << 16);
    log->flush_timer = event_new(base, -1, EV_PERSIST, on_flush_timer, log);
    if (log->flush_timer == NULL || event_add(log->flush_timer, &one_s)) {
        replay_send_log_close(log);
        return ENOMEM;
    }
    *out = log;
    return 0;
}

/* Copies n bytes to p and returns the end. */
static char *put(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

void replay_send_log_write(struct replay_send_log *log, const char *req_id,
                           uint64_t seq, int64_t t_ns, size_t bytes,
                           uint64_t total)
{
    char line[REPLAY_SEND_LOG_ID_MAX + 4 * (REPLAY_DECIMAL_MAX + 1) + 1];
    size_t id_len;
    char *p = line;

    if (log == NULL)
        return;
    /* the same text as "%s\t%llu\t%lld\t%zu\t%llu\n", without printf */
    id_len = strnlen(req_id, REPLAY_SEND_LOG_ID_MAX);
    p = put(p, req_id, id_len);
    *p++ = '\t';
    p += replay_decimal_u64(p, seq);
    *p++ = '\t';
    p += replay_decimal_i64(p, t_ns);
    *p++ = '\t';
    p += replay_decimal_u64(p, bytes);
    *p++ = '\t';
    p += replay_decimal_u64(p, total);
    *p++ = '\n';
    if (fwrite(line, 1, (size_t)(p - line), log->f) != (size_t)(p - line) &&
        log->err == 0)
        log->err = errno ? errno : EIO;
}

int replay_send_log_close(struct replay_send_log *log)
{
    int err;

    if (log == NULL)
        return 0;
    if (log->flush_timer != NULL)
        event_free(log->flush_timer);
    err = replay_send_log_flush(log);
    if (fclose(log->f) != 0 && err == 0)
        err = errno ? errno : EIO;
    free(log);
    return err;
}
