#!/usr/bin/env python3
"""A hostile upstream for the proxy's secret tests: it echoes what a
client sent back in its reply, the way real servers do by accident.

  echo_upstream.py   every POST/GET is a 404 whose JSON error quotes the
                     request line as OpenAI does ("Invalid URL (POST
                     <path>)") and whose body also carries every request
                     header's value (Cookie, x-goog-api-key, ...), and a
                     Set-Cookie/x-echo-path header with the path

Prints the port on the first line once ready; runs until killed."""
import http.server
import json
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def echo(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
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
