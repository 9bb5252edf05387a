#!/usr/bin/env python3
"""A hostile upstream for the proxy's secret tests: it echoes what a
client sent back in its reply, the way real servers do by accident.

  echo_upstream.py   every POST/GET is a 404 whose JSON error quotes the
                     request line as OpenAI does ("Invalid URL (POST
                     <path>)") and whose body also carries every request
                     header's value (Cookie, x-goog-api-key, ...), and a
                     Set-Cookie/x-echo-path header with the path
  .../redirect       a bare 302: Location, no Content-Type, no body
  .../gzip/...       a 200 SSE stream sent gzip-encoded
  .../hugeheader/... a 200 with one 150 KB header line (over libcurl's
                     100 KB)
  .../manyheaders/.. a 200 with 150 headers

Prints the port on the first line once ready; runs until killed."""
import gzip
import http.client
import http.server
import json
import sys


# the proxy's header limit is under test, not http.server's (100)
http.client._MAXHEADERS = 100000


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def echo(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        if "/redirect" in self.path:
            self.send_response(302)
            self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "/hugeheader/" in self.path:
            self.send_response(200)
            self.send_header("x-huge", "h" * 150000)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
            return
        if "/manyheaders/" in self.path:
            self.send_response(200)
            for i in range(150):
                self.send_header("x-h-%d" % i, "v")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
            return
        if "/gzip/" in self.path:
            sse = b"".join(b'data: {"choices":[{"delta":{"content":"t%d"}}]}\n\n' % i
                           for i in range(5)) + b"data: [DONE]\n\n"
            body = gzip.compress(sse)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        msg = "Invalid URL (%s %s)" % (self.command, self.path)
        seen = {k: v for k, v in self.headers.items()}
        body = json.dumps({"error": {"message": msg,
                                     "type": "invalid_request_error",
                                     "headers": seen}}).encode()
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("x-echo-path", self.path)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = echo
    do_POST = echo


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
