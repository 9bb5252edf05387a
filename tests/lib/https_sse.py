#!/usr/bin/env python3
"""https_sse: a tiny HTTPS server for tests/record/net/record_tls.sh: every
POST gets a short chat stream with usage.

Usage: https_sse.py CERT KEY PORT_FILE (the port is written to PORT_FILE
once the server listens).
"""
import http.server, json, ssl, sys

cert, key, port_file = sys.argv[1:4]

def event(obj):
    return b"data: " + json.dumps(obj).encode() + b"\n\n"

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = b"".join(
            event({"choices": [{"index": 0, "delta": {"content": w}}]})
            for w in ("secure ", "hello ", "world")
        )
        body += event({"choices": [], "usage": {"prompt_tokens": 5,
                                                "completion_tokens": 3}})
        body += b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
with open(port_file + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
import os
os.rename(port_file + ".tmp", port_file)
srv.serve_forever()
