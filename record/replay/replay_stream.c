/* replay_stream: performs a producer's timed steps on one evhttp request.
 *
 * Ownership: the request belongs to evhttp while it is attached to a
 * connection. When the client goes away evhttp either calls our close
 * callback or just orphans the request (its connection becomes NULL); an
 * orphaned request is ours to free. The connection is never cached: it is
 * always read from the request. */
#include "replay_stream.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "keep_awake.h"
#include "log.h"
#include "replay_conn.h"
#include "replay_send_log.h"
#include "replay_wire.h"

#define LOG_ID_MAX 96
/* While this much is unsent (a client that reads slower than the stream
 * is due), droppable writes (endless-line) are skipped and the others wait,
 * so a fast or huge stream never piles up in the server's memory. */
#define SEND_BACKLOG_BYTES ((size_t)4 << 20)
/* How often a waiting write looks again. */
#define SEND_RETRY_NS 1000000LL
/* RST waits (1 ms each) for earlier writes to leave the socket buffer. */
#define RESET_FLUSH_TRIES 100

struct replay_streams {
    struct event_base *base;
    struct replay_send_log *log;
    struct evbuffer *scratch; /* handed to evhttp, which empties it */
    struct replay_stream *head;
    size_t active;
    uint64_t aborted;
    struct keep_awake *awake; /* told when streams start and all end */
};

struct replay_stream {
    struct replay_streams *set;
    struct replay_stream *prev, *next;
    struct evhttp_request *req; /* NULL once handed back or freed */
    struct event *timer;
    struct event *close_watch; /* EV_CLOSED on the socket, while holding */
    struct replay_steps steps;
    const struct replay_producer *producer;
    void *state;
    char log_id[LOG_ID_MAX];
    uint64_t seq, body_bytes;
    int reset_tries;
    bool chunked; /* evhttp frames the body in HTTP/1.1 chunks */
    bool busy;    /* inside stream_run: frees are deferred */
    bool dead;    /* to be freed */
};

enum step_outcome {
    OUT_NEXT,   /* step done, go on */
    OUT_WAIT,   /* retry the same step when the timer fires */
    OUT_HOLD,   /* step done, nothing more until the client leaves */
    OUT_FINISH, /* the stream is over */
};

int replay_streams_new(struct event_base *base, struct replay_send_log *log,
                       struct replay_streams **out)
{
    struct replay_streams *set = calloc(1, sizeof(*set));

    if (set == NULL)
        return ENOMEM;
    set->base = base;
    set->log = log;
    set->scratch = evbuffer_new();
    if (set->scratch == NULL) {
        free(set);
        return ENOMEM;
    }
    *out = set;
    return 0;
}

void replay_streams_set_awake(struct replay_streams *set,
                              struct keep_awake *awake)
{
    set->awake = awake;
    keep_awake_busy(awake, set->active > 0);
}

size_t replay_streams_active(const struct replay_streams *set)
{
    return set->active;
}

uint64_t replay_streams_aborted(const struct replay_streams *set)
{
    return set->aborted;
}

/* Copies a client-supplied id for the log, without control characters. */
static void copy_log_id(char *dst, const char *src)
{
    size_t i;

    if (src == NULL || *src == '\0')
        src = "-";
    for (i = 0; i < LOG_ID_MAX - 1 && src[i]; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[i] = (c < 0x20 || c == 0x7f) ? '_' : (char)c;
    }
    dst[i] = '\0';
}

/* The live connection of s's request, or NULL (gone or handed back). */
static struct evhttp_connection *stream_conn(const struct replay_stream *s)
{
    return s->req ? evhttp_request_get_connection(s->req) : NULL;
}

/* If evhttp orphaned s's request (client gone), frees it, counts the
 * abort and returns true. */
static bool reap_orphan(struct replay_stream *s)
{
    if (s->req == NULL || evhttp_request_get_connection(s->req) != NULL)
        return false;
    evhttp_request_free(s->req);
    s->req = NULL;
    s->set->aborted++;
    return true;
}

/* Stops s from hearing about its connection and forgets the request (it
 * is handed back to evhttp, or already freed). */
static void stream_detach(struct replay_stream *s)
{
    struct evhttp_connection *evcon = stream_conn(s);

    if (evcon != NULL)
        evhttp_connection_set_closecb(evcon, NULL, NULL);
    s->req = NULL;
}

/* Releases everything the stream owns. */
static void stream_free(struct replay_stream *s)
{
    struct replay_streams *set = s->set;

    if (s->close_watch)
        event_free(s->close_watch);
    reap_orphan(s);
    stream_detach(s);
    if (s->prev)
        s->prev->next = s->next;
    else
        set->head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    if (--set->active == 0 && set->awake)
        keep_awake_busy(set->awake, false); /* nothing to send: no spinning */
    if (s->timer)
        event_free(s->timer);
    if (s->producer && s->producer->free)
        s->producer->free(s->state);
    replay_steps_free(&s->steps);
    free(s);
}

/* Marks s dead and frees it unless stream_run is on the stack. */
static void stream_kill(struct replay_stream *s)
{
    s->dead = true;
    if (!s->busy)
        stream_free(s);
}

/* evhttp tells us the connection is going away. */
static void on_conn_close(struct evhttp_connection *evcon, void *arg)
{
    struct replay_stream *s = arg;

    (void)evcon;
    if (!reap_orphan(s)) {
        /* still attached: evhttp frees it with the connection */
        s->req = NULL;
        s->set->aborted++;
    }
    stream_kill(s);
}

/* The client closed the socket of a stream that holds (sends nothing
 * more); evhttp may not notice on its own while it does not write. */
static void on_peer_closed(evutil_socket_t fd, short what, void *arg)
{
    struct replay_stream *s = arg;
    struct evhttp_connection *evcon;

    (void)fd;
    (void)what;
    event_free(s->close_watch);
    s->close_watch = NULL;
    if (!reap_orphan(s)) {
        evcon = stream_conn(s);
        stream_detach(s);
        s->set->aborted++;
        if (evcon != NULL)
            evhttp_connection_free(evcon); /* frees the request too */
    }
    stream_kill(s);
}

/* Watches for the client's close while s holds. */
static void watch_close(struct replay_stream *s)
{
    int fd = replay_conn_fd(stream_conn(s));

    if (fd < 0 || s->close_watch != NULL)
        return;
    s->close_watch = event_new(s->set->base, fd, EV_CLOSED, on_peer_closed, s);
    if (s->close_watch != NULL && event_add(s->close_watch, NULL) != 0) {
        event_free(s->close_watch);
        s->close_watch = NULL;
    }
}

/* Sets the headers of a reply. */
static void add_headers(struct evhttp_request *req, const char *ctype,
                        const char *hname, const char *hvalue)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);

    if (ctype != NULL)
        evhttp_add_header(h, "Content-Type", ctype);
    evhttp_add_header(h, "Cache-Control", "no-cache");
    if (hname != NULL && hvalue != NULL)
        evhttp_add_header(h, hname, hvalue);
}

/* Arms the timer to fire at due_ns. */
static void stream_arm(struct replay_stream *s, int64_t due_ns)
{
    int64_t wait;
    struct timeval tv;

    /* libevent adds a relative timeout to its cached "now": refresh it so
     * a long callback round does not make the timer fire early. */
    event_base_update_cache_time(s->set->base);
    wait = due_ns - clock_mono_ns();
    if (wait < 0)
        wait = 0;
    tv.tv_sec = (time_t)(wait / 1000000000);
    tv.tv_usec = (suseconds_t)((wait % 1000000000 + 999) / 1000);
    if (tv.tv_usec >= 1000000) {
        tv.tv_sec++;
        tv.tv_usec -= 1000000;
    }
    evtimer_add(s->timer, &tv);
}

/* Writes one body chunk, logging its send time. */
static void do_send(struct replay_stream *s, const char *data, size_t len)
{
    int64_t t;

    if (len == 0)
        return;
    t = replay_wire_send(s->req, s->chunked, data, len);
    s->body_bytes += len;
    replay_send_log_write(s->set->log, s->log_id, s->seq++, t, len,
                          s->body_bytes);
}

/* RST, once earlier writes have left (or after RESET_FLUSH_TRIES ms). */
static enum step_outcome do_reset(struct replay_stream *s)
{
    struct evhttp_connection *evcon = stream_conn(s);

    if (replay_conn_unsent(evcon) > 0 && s->reset_tries++ < RESET_FLUSH_TRIES) {
        stream_arm(s, clock_mono_ns() + 1000000);
        return OUT_WAIT;
    }
    stream_detach(s);
    replay_conn_reset(evcon); /* frees the request as well */
    return OUT_FINISH;
}

/* Performs one due step. */
static enum step_outcome stream_do(struct replay_stream *s,
                                   const struct replay_step *st)
{
    const char *data = replay_steps_data(&s->steps, st);
    struct evhttp_request *req = s->req;

    switch (st->kind) {
    case STEP_START:
        add_headers(req, st->content_type, st->header_name, st->header_value);
        evhttp_send_reply_start(req, st->status,
                                replay_conn_phrase(st->status));
        s->chunked = replay_wire_chunked(req);
        return OUT_NEXT;
    case STEP_SEND:
        if (replay_conn_unsent(stream_conn(s)) > SEND_BACKLOG_BYTES) {
            if (st->droppable)
                return OUT_NEXT;
            stream_arm(s, clock_mono_ns() + SEND_RETRY_NS);
            return OUT_WAIT;
        }
        do_send(s, data, st->len);
        return OUT_NEXT;
    case STEP_END:
        stream_detach(s);
        evhttp_send_reply_end(req);
        return OUT_FINISH;
    case STEP_REPLY:
        stream_detach(s);
        replay_streams_reply(s->set, req, s->log_id, st->status,
                             st->content_type, st->header_name,
                             st->header_value, data, st->len);
        return OUT_FINISH;
    case STEP_RESET:
        return do_reset(s);
    case STEP_HOLD:
        return OUT_HOLD;
    }
    return OUT_FINISH;
}

/* Runs every step that is due, then arms the timer for the next one. */
static void stream_run(struct replay_stream *s)
{
    s->busy = true;
    while (!s->dead) {
        const struct replay_step *st = replay_steps_front(&s->steps);
        enum step_outcome out;

        if (reap_orphan(s)) {
            s->dead = true;
            break;
        }
        if (st == NULL && (s->producer->refill(s->state, &s->steps) != 0 ||
                           (st = replay_steps_front(&s->steps)) == NULL)) {
            log_warn("%s: cannot build the reply; aborting it", s->log_id);
            s->reset_tries = RESET_FLUSH_TRIES;
            do_reset(s);
            s->dead = true;
            break;
        }
        if (st->due_ns > clock_mono_ns()) {
            stream_arm(s, st->due_ns);
            break;
        }
        out = stream_do(s, st);
        if (out == OUT_WAIT)
            break;
        replay_steps_pop(&s->steps);
        if (out == OUT_FINISH)
            s->dead = true;
        if (out == OUT_HOLD) {
            watch_close(s);
            break;
        }
    }
    s->busy = false;
    if (s->dead)
        stream_free(s);
}

/* The stream's timer fired. */
static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    stream_run(arg);
}

int replay_stream_start(struct replay_streams *set, struct evhttp_request *req,
                        const char *log_id, const struct replay_producer *p,
                        void *state)
{
    struct replay_stream *s = calloc(1, sizeof(*s));

    if (s == NULL || (s->timer = evtimer_new(set->base, on_timer, s)) == NULL) {
        free(s);
        p->free(state);
        replay_streams_reply(set, req, log_id, 500, "application/json", NULL,
                             NULL, NULL, 0);
        return ENOMEM;
    }
    s->set = set;
    s->req = req;
    s->producer = p;
    s->state = state;
    replay_steps_init(&s->steps);
    copy_log_id(s->log_id, log_id);
    s->next = set->head;
    if (set->head)
        set->head->prev = s;
    set->head = s;
    if (set->active++ == 0 && set->awake)
        keep_awake_busy(set->awake, true);
    replay_conn_nodelay(stream_conn(s));
    evhttp_connection_set_closecb(stream_conn(s), on_conn_close, s);
    stream_run(s);
    return 0;
}

void replay_streams_reply(struct replay_streams *set,
                          struct evhttp_request *req, const char *log_id,
                          int status, const char *content_type,
                          const char *header_name, const char *header_value,
                          const char *body, size_t len)
{
    char id[LOG_ID_MAX];
    int64_t t;

    add_headers(req, content_type, header_name, header_value);
    if (len > 0)
        evbuffer_add(set->scratch, body, len);
    t = clock_mono_ns();
    evhttp_send_reply(req, status, replay_conn_phrase(status), set->scratch);
    evbuffer_drain(set->scratch, evbuffer_get_length(set->scratch));
    if (len > 0) {
        copy_log_id(id, log_id);
        replay_send_log_write(set->log, id, 0, t, len, len);
    }
}

void replay_streams_free(struct replay_streams *set)
{
    if (set == NULL)
        return;
    while (set->head != NULL)
        stream_free(set->head);
    evbuffer_free(set->scratch);
    free(set);
}
