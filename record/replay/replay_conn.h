/* replay_conn: low-level things done to an evhttp connection's socket: no
 * Nagle, unsent bytes, abort with RST, status phrases. */
#ifndef TT_REPLAY_CONN_H
#define TT_REPLAY_CONN_H

#include <stddef.h>

struct evhttp_connection;

/* Turns off Nagle so every write leaves at once. */
void replay_conn_nodelay(struct evhttp_connection *evcon);

/* Bytes handed to evhttp and not yet written to the socket. */
size_t replay_conn_unsent(struct evhttp_connection *evcon);

/* The socket's fd, or -1. */
int replay_conn_fd(struct evhttp_connection *evcon);

/* Aborts the connection with a TCP RST and no FIN, and frees it (and the
 * request on it). Any close callback must have been cleared. */
void replay_conn_reset(struct evhttp_connection *evcon);

/* The reason phrase of a status, or NULL for evhttp's generic one. */
const char *replay_conn_phrase(int status);

#endif
