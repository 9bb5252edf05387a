#!/usr/bin/env python3
"""An HTTP server that speaks one API kind only, as many real servers do,
for the --check tests of a 404 on another kind's path.

  one_api.py chat   POST .../v1/chat/completions streams a short OpenAI
                    chat answer; GET .../v1/models lists "tiny-chat";
                    every other path is a 404 with a JSON error

Prints the port on the first line once ready; runs until killed."""
import http.server
import json
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def not_found(self):
        self.reply(404, "application/json",
                   json.dumps({"error": {"message": "File Not Found",
                                         "type": "not_found_error"}}).encode())

    def do_GET(self):
        if self.path.endswith("/v1/models"):
            self.reply(200, "application/json",
                       json.dumps({"object": "list", "data": [
                           {"id": "tiny-chat", "object": "model"}]}).encode())
        else:
            self.not_found()

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        req = json.loads(self.rfile.read(n) or b"{}")
        if not self.path.endswith("/v1/chat/completions"):
            self.not_found()
            return
        events = []
        for i, word in enumerate(["one", " two", " three", " four"]):
            events.append({"id": "c1", "object": "chat.completion.chunk",
                           "model": req.get("model", ""),
                           "choices": [{"index": 0, "delta": {"content": word},
                                        "finish_reason": None}]})
        events.append({"id": "c1", "object": "chat.completion.chunk",
                       "model": req.get("model", ""),
                       "choices": [{"index": 0, "delta": {},
                                    "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 12, "completion_tokens": 4,
                                 "total_tokens": 16}})
        body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n"
                        for e in events) + b"data: [DONE]\n\n"
        self.reply(200, "text/event-stream", body)


def main():
    if sys.argv[1:] != ["chat"]:
        sys.exit("usage: one_api.py chat")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
