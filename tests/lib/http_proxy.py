#!/usr/bin/env python3
"""http_proxy.py: a small forward HTTP proxy for the tests (plain http only).

usage: http_proxy.py PORT_FILE LOG_FILE [--mode forward|502]

Listens on a free loopback port (written to PORT_FILE), takes requests in
absolute form ("POST http://127.0.0.1:8080/v1/chat/completions"), appends
one line per request to LOG_FILE ("METHOD URL proxy-authorization=yes|no"),
and either forwards them, streaming the answer back as it arrives (each
read is written at once, then the connection closes), or, with --mode 502,
answers every request itself with 502 Bad Gateway, as a proxy whose
upstream is down.
"""
import http.client
import os
import http.server
import sys
import urllib.parse

PORT_FILE, LOG_FILE = sys.argv[1], sys.argv[2]
MODE = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--mode" else "forward"
HOP = {"connection", "keep-alive", "proxy-authorization", "proxy-connection",
       "transfer-encoding", "te", "trailer", "upgrade", "content-length"}


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else None
        with open(LOG_FILE, "a") as log:
            log.write("%s %s proxy-authorization=%s\n" % (
                self.command, self.path,
                "yes" if self.headers.get("Proxy-Authorization") else "no"))
        if MODE == "502":
            msg = b"<html><title>502 Bad Gateway</title>upstream down</html>"
            self.send_response(502, "Bad Gateway")
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(msg)))
            self.send_header("Via", "1.1 test-proxy")
            self.end_headers()
            self.wfile.write(msg)
            return
        u = urllib.parse.urlsplit(self.path)
        conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        conn.request(self.command, u.path + ("?" + u.query if u.query else ""),
                     body=body, headers=headers)
        r = conn.getresponse()
        self.send_response(r.status, r.reason)
        for k, v in r.getheaders():
            if k.lower() not in HOP:
                self.send_header(k, v)
        self.send_header("Via", "1.1 test-proxy")
        self.end_headers()
        while True:
            piece = r.read1(65536)
            if not piece:
                break
            self.wfile.write(piece)
            self.wfile.flush()
        conn.close()

    do_GET = do_POST = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
