#!/usr/bin/env python3
"""metrics_server.py: a small Prometheus /metrics server for the tests.

usage: metrics_server.py PORT_FILE LOG_FILE SAMPLE_PREFIX [--fail-from N]

Listens on a free loopback port (written to PORT_FILE). GET /metrics
answers with the text of SAMPLE_PREFIX_<k>.prom, k being the number of
GETs served before this one, up to the last file there is (so the page
changes over time: idle, busy, after the run, then stays); with
--fail-from N, GETs from the N-th (counting from 0) answer 500 instead.
Any other path is a 404. Appends one line per request to LOG_FILE:
"GET /metrics k=K authorization=yes|no".
"""
import glob
import http.server
import sys

PORT_FILE, LOG_FILE, PREFIX = sys.argv[1], sys.argv[2], sys.argv[3]
FAIL_FROM = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--fail-from" else -1
FILES = sorted(glob.glob(PREFIX + "_*.prom"))
if not FILES:
    sys.exit("no samples " + PREFIX + "_*.prom")
SERVED = [0]


class Metrics(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        k = SERVED[0]
        SERVED[0] += 1
        with open(LOG_FILE, "a") as log:
            log.write("GET %s k=%d authorization=%s\n" % (
                self.path, k, "yes" if self.headers.get("Authorization") else "no"))
        if self.path != "/metrics":
            body, status = b"not found\n", 404
        elif 0 <= FAIL_FROM <= k:
            body, status = b"internal error\n", 500
        else:
            with open(FILES[min(k, len(FILES) - 1)], "rb") as f:
                body, status = f.read(), 200
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Metrics)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os  # noqa: E402
os.rename(PORT_FILE + ".tmp", PORT_FILE)
srv.serve_forever()
