#!/usr/bin/env python3
"""timed_gateway: an SSE upstream and a gateway in front of it, each with
known delays, for the TTFT waterfall test (analyze_waterfall.sh).

usage: timed_gateway.py upstream PORT_FILE H_MS T_MS
       timed_gateway.py gateway PORT_FILE UPSTREAM_PORT G_MS P_MS HEADER

upstream: per request, sends the response headers H_MS after the request
arrived, then at once a role-only chunk and a keep-alive comment, and the
first token T_MS after the headers, then two more and [DONE].
gateway: per request, waits G_MS, sends the request to the upstream (on
its one connection per client connection), and relays its response with one header more that says
the server's processing took P_MS: HEADER openai (openai-processing-ms:
P), server-timing (Server-Timing: upstream;dur=P, total;dur=P) or envoy
(x-envoy-upstream-service-time: P). HTTP/1.1 keep-alive, chunked bodies.
Listens on 127.0.0.1 (a free port, written to PORT_FILE)."""
import socket
import sys
import threading
import time


def read_request(conn, buf):
    """One request from conn: (head bytes, body bytes, rest) or None."""
    while b"\r\n\r\n" not in buf:
        data = conn.recv(65536)
        if not data:
            return None
        buf += data
    head, rest = buf.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    while len(rest) < length:
        data = conn.recv(65536)
        if not data:
            return None
        rest += data
    return head, rest[:length], rest[length:]


def chunk(data):
    return b"%x\r\n%s\r\n" % (len(data), data)


def token(text):
    return chunk(b'data: {"choices":[{"index":0,"delta":{"content":"%s"}}]}\n\n'
                 % text)


def upstream(conn, h_s, t_s):
    buf = b""
    while True:
        req = read_request(conn, buf)
        if req is None:
            return
        buf = req[2]
        time.sleep(h_s)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        conn.sendall(chunk(b'data: {"choices":[{"index":0,"delta":'
                           b'{"role":"assistant"}}]}\n\n') + chunk(b": keep-alive\n\n"))
        time.sleep(t_s)
        conn.sendall(token(b"Hello"))
        conn.sendall(token(b" there") + token(b"!"))
        conn.sendall(chunk(b'data: {"choices":[{"index":0,"delta":{},'
                           b'"finish_reason":"stop"}],"usage":{"prompt_tokens":5,'
                           b'"completion_tokens":3}}\n\n'))
        conn.sendall(chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")


def read_head(up):
    """The upstream's response head and what came after it."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        data = up.recv(65536)
        if not data:
            raise OSError("upstream closed")
        buf += data
    return buf.split(b"\r\n\r\n", 1)


def gateway(conn, up_port, g_s, p_ms, kind):
    extra = {
        "openai": b"openai-processing-ms: %d\r\n" % p_ms,
        "server-timing": b"Server-Timing: upstream;dur=%d, total;dur=%d\r\n"
                         % (p_ms, p_ms),
        "envoy": b"x-envoy-upstream-service-time: %d\r\n" % p_ms,
    }[kind]
    buf = b""
    # one upstream connection per client connection, opened ahead: the
    # gateway's own cost per request is then the relay alone
    up = socket.create_connection(("127.0.0.1", up_port))
    up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while True:
        req = read_request(conn, buf)
        if req is None:
            up.close()
            return
        head, body, buf = req
        time.sleep(g_s)
        up.sendall(head + b"\r\n\r\n" + body)
        rhead, rest = read_head(up)
        conn.sendall(rhead + b"\r\n" + extra + b"\r\n" + rest)
        # relay the chunked body to its terminating chunk
        tail = rest
        while not tail.endswith(b"0\r\n\r\n"):
            data = up.recv(65536)
            if not data:
                break
            conn.sendall(data)
            tail = (tail + data)[-16:]


def main():
    mode, port_file = sys.argv[1], sys.argv[2]
    if mode == "upstream":
        args = (float(sys.argv[3]) / 1000, float(sys.argv[4]) / 1000)
        serve = upstream
    else:
        args = (int(sys.argv[3]), float(sys.argv[4]) / 1000, int(sys.argv[5]),
                sys.argv[6])
        serve = gateway
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(srv.getsockname()[1]))
    import os
    os.rename(port_file + ".tmp", port_file)
    while True:
        conn, _ = srv.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=lambda c=conn: (serve(c, *args), c.close()),
                         daemon=True).start()


if __name__ == "__main__":
    main()
