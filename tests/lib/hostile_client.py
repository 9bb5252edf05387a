#!/usr/bin/env python3
"""A hostile client for the proxy's limit tests (issue 30): talks raw
HTTP/1.1 to HOST:PORT so it can send what curl will not.

  hostile_client.py HOST:PORT lines N      a POST with N extra header lines
  hostile_client.py HOST:PORT big MB       a POST whose one header grows to
                                           MB MiB, sent until the peer stops
                                           reading or closes
  hostile_client.py HOST:PORT raw          the request given on stdin as is
  hostile_client.py HOST:PORT halfopen N S N connections that send half a
                                           request line and hold it S s

Prints the response's status line ("HTTP/1.1 431 ..."; "closed" when the
connection closed without one, then a tab and the bytes sent) and, for
lines/big/raw, the body on the following lines."""
import socket
import sys
import time

BODY = b'{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'


def connect(addr):
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)))
    s.settimeout(30)
    return s


def read_reply(s):
    raw = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            raw += d
    except (ConnectionResetError, socket.timeout):
        pass
    return raw


def dechunk(body):
    out, i = b"", 0
    while True:
        j = body.find(b"\r\n", i)
        if j < 0:
            return out
        n = int(body[i:j].split(b";")[0] or b"0", 16)
        if n == 0:
            return out
        out += body[j + 2:j + 2 + n]
        i = j + 2 + n + 2


def show(raw, sent):
    if not raw:
        print("closed\t%d" % sent)
        return
    head, _, body = raw.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        body = dechunk(body)
    print("%s\t%d" % (head.split(b"\r\n")[0].decode("latin-1"), sent))
    print(body.decode("latin-1"))


def main():
    addr, mode = sys.argv[1], sys.argv[2]
    start = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
             b"Content-Type: application/json\r\nConnection: close\r\n")
    end = b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY
    if mode == "lines":
        n = int(sys.argv[3])
        s = connect(addr)
        req = start + b"".join(b"X-Line-%d: v\r\n" % i for i in range(n)) + end
        sent = 0
        try:
            s.sendall(req)
            sent = len(req)
        except (BrokenPipeError, ConnectionResetError):
            pass
        show(read_reply(s), sent)
    elif mode == "big":
        total = int(sys.argv[3]) << 20
        s = connect(addr)
        s.sendall(start + b"X-Big: ")
        sent, piece = 0, b"a" * 65536
        s.settimeout(5)
        try:
            while sent < total:
                s.sendall(piece)
                sent += len(piece)
            s.sendall(b"\r\n" + end)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass
        s.settimeout(5)
        show(read_reply(s), sent)
    elif mode == "raw":
        s = connect(addr)
        req = sys.stdin.buffer.read()
        s.sendall(req)
        show(read_reply(s), len(req))
    elif mode == "halfopen":
        n, hold = int(sys.argv[3]), float(sys.argv[4])
        socks = []
        for _ in range(n):
            try:
                c = connect(addr)
                c.sendall(b"POST /v1/chat/comp")
                socks.append(c)
            except OSError:
                break
        print("open\t%d" % len(socks), flush=True)
        time.sleep(hold)
        closed = 0
        for c in socks:
            c.setblocking(False)
            try:
                while c.recv(65536):  # a 503 first, then the close
                    pass
                closed += 1
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        print("closed_by_peer\t%d" % closed, flush=True)


main()
