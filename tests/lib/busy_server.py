#!/usr/bin/env python3
"""busy_server: an OpenAI-style streaming server that becomes CPU-bound
once requests arrive, as a local llama-server with -t 2 on 2 cores does:
at the first request it starts --burn busy-loop processes (unpinned, nice
0) that run until it exits, then streams --tokens chat chunks --tpot-ms
apart to every request (HTTP/1.1, chunked). Nothing to do with tokens'
content: it models the neighbour a recorder beside a local server has.

  busy_server.py --port-file F [--burn 2] [--tokens 60] [--tpot-ms 20]
"""
import argparse
import http.server
import json
import os
import signal
import socketserver
import sys
import threading
import time

BURNERS = []
LOCK = threading.Lock()


def burn():
    """Starts the busy loops once (forked: no GIL between them)."""
    with LOCK:
        if BURNERS:
            return
        for _ in range(ARGS.burn):
            pid = os.fork()
            if pid == 0:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                while True:
                    pass
            BURNERS.append(pid)


def stop(*_):
    for pid in BURNERS:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
    os._exit(0)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(n)
        burn()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        start = time.monotonic()
        for i in range(ARGS.tokens):
            # absolute times: a late token does not shift the next ones
            due = start + (i + 1) * ARGS.tpot_ms / 1000.0
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            ev = {"id": "c", "object": "chat.completion.chunk",
                  "choices": [{"index": 0, "delta": {"content": "tok "}}]}
            self.chunk(b"data: " + json.dumps(ev).encode() + b"\n\n")
        usage = {"id": "c", "object": "chat.completion.chunk", "choices": [],
                 "usage": {"prompt_tokens": 5,
                           "completion_tokens": ARGS.tokens,
                           "total_tokens": ARGS.tokens + 5}}
        self.chunk(b"data: " + json.dumps(usage).encode() + b"\n\n")
        self.chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--burn", type=int, default=2)
    ap.add_argument("--tokens", type=int, default=60)
    ap.add_argument("--tpot-ms", type=float, default=20.0)
    ARGS = ap.parse_args()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    srv = Server(("127.0.0.1", 0), Handler)
    tmp = ARGS.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, ARGS.port_file)
    try:
        srv.serve_forever()
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
