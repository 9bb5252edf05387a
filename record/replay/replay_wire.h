/* replay_wire: puts a streamed reply's body bytes on its socket at once
 * (not on evhttp's next loop turn), with the HTTP/1.1 chunk framing evhttp
 * would add, and says when the write began: the send log's ground truth is
 * the write itself. Bytes that the socket does not take at once are queued
 * on the connection's bufferevent, in order, for evhttp to send. */
#ifndef TT_REPLAY_WIRE_H
#define TT_REPLAY_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evhttp_request;

/* After evhttp_send_reply_start: true when evhttp frames the body in HTTP/1.1
 * chunks (it then added "Transfer-Encoding: chunked"). */
bool replay_wire_chunked(struct evhttp_request *req);

/* Sends len > 0 body bytes of req's reply (framed as one chunk when
 * chunked), and returns the CLOCK_MONOTONIC time read just before the write
 * system call. A failed write is left to evhttp, which sees it too and closes
 * the connection. */
int64_t replay_wire_send(struct evhttp_request *req, bool chunked,
                         const char *data, size_t len);

#endif
