#!/usr/bin/env python3
"""A hostile upstream for share's marker sweep: every reply quotes what the
client sent (its body, path and headers), in the error and reply shapes
real servers use. The shape is chosen by a word in the request's model
name (or, with no model, "ok"):

  vllm        400 {"object":"error","message":<echo>,...}        (vLLM)
  detail      422 {"detail":[{"loc":..,"msg":..,"input":<body>}]} (FastAPI)
  detailstr   400 {"detail":<echo>}
  sseerror    200 SSE: a delta, then data: {"error":{"message":<echo>}}
  eventerror  200 SSE: event: error / data: {"type":"error","error":{..}}
  llama       200 SSE: error: {"code":500,"message":<echo>}     (llama.cpp)
  text        500 text/plain "Internal Server Error: <echo>"
  html        502 text/html page quoting <echo>
  datatext    200 SSE: data: <echo> (not JSON), data: [DONE]
  tool        200 JSON: an Anthropic message whose tool_use input is the
              request body's JSON, and an OpenAI tool call with it as
              arguments
  path        404 "Invalid URL (POST <path>)" as OpenAI answers
  notfound    404 "The model `<model>` does not exist" (OpenAI's words)
  ok          200 SSE: deltas quoting <echo>, usage, the model echoed in
              "model" and in an openai-model header

<echo> is the request body as text, the path and every header value.
Prints the port on the first line once ready; runs until killed."""
import html
import http.server
import json
import sys

MODES = ["detailstr", "detail", "vllm", "sseerror", "eventerror", "llama",
         "text", "html", "datatext", "tool", "path", "notfound"]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, ctype, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def sse(self, events, extra=()):
        self.reply(200, "text/event-stream", "".join(events).encode(), extra)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n).decode("utf-8", "replace") if n else ""
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        model = body.get("model", "") if isinstance(body, dict) else ""
        if not isinstance(model, str):
            model = ""
        mode = next((m for m in MODES if m in model), "ok")
        heads = " ".join("%s=%s" % (k, v) for k, v in self.headers.items())
        echo = "you sent %s to %s with %s" % (raw, self.path, heads)
        js = json.dumps
        if mode == "vllm":
            self.reply(400, "application/json", js({
                "object": "error", "message": echo, "type": "BadRequestError",
                "param": None, "code": 400}).encode())
        elif mode == "detail":
            self.reply(422, "application/json", js({"detail": [{
                "type": "missing", "loc": ["body", "x"], "msg": echo,
                "input": body if body is not None else raw}]}).encode())
        elif mode == "detailstr":
            self.reply(400, "application/json", js({"detail": echo}).encode())
        elif mode == "sseerror":
            self.sse(["data: %s\n\n" % js({"choices": [{"index": 0, "delta": {
                "content": "Hi"}}]}),
                "data: %s\n\n" % js({"error": {"message": echo,
                                              "type": "server_error"}})])
        elif mode == "eventerror":
            self.sse(["event: error\ndata: %s\n\n" % js({
                "type": "error", "error": {"type": "overloaded_error",
                                           "message": echo}})])
        elif mode == "llama":
            self.sse(["error: %s\n\n" % js({"code": 500, "message": echo,
                                            "type": "server_error"})])
        elif mode == "text":
            self.reply(500, "text/plain",
                       ("Internal Server Error: " + echo).encode())
        elif mode == "html":
            self.reply(502, "text/html", ("<html><body><h1>Bad gateway</h1>"
                       "<pre>%s</pre></body></html>" % html.escape(echo))
                       .encode())
        elif mode == "datatext":
            self.sse(["data: %s\n\n" % echo.replace("\n", " "),
                      "data: [DONE]\n\n"])
        elif mode == "tool":
            inp = body if body is not None else {"raw": raw}
            self.reply(200, "application/json", js({
                "id": "msg_1", "type": "message", "role": "assistant",
                "model": model, "stop_reason": "tool_use",
                "content": [{"type": "tool_use", "id": "toolu_1",
                             "name": "echo", "input": inp}],
                "choices": [{"index": 0, "finish_reason": "tool_calls",
                             "message": {"role": "assistant", "tool_calls": [{
                                 "id": "call_1", "type": "function",
                                 "function": {"name": "echo",
                                              "arguments": js(inp)}}]}}],
                "usage": {"input_tokens": 3, "output_tokens": 2}}).encode())
        elif mode == "path":
            self.reply(404, "application/json", js({"error": {
                "message": "Invalid URL (POST %s)" % self.path,
                "type": "invalid_request_error"}}).encode())
        elif mode == "notfound":
            self.reply(404, "application/json", js({"error": {
                "message": "The model `%s` does not exist" % model,
                "type": "invalid_request_error",
                "code": "model_not_found"}}).encode())
        else:
            words = echo.split(" ")
            ev = ["data: %s\n\n" % js({
                "id": "c1", "object": "chat.completion.chunk", "model": model,
                "choices": [{"index": 0, "delta": {"content": w + " "}}]})
                for w in words[:400]]
            ev.append("data: %s\n\n" % js({
                "id": "c1", "object": "chat.completion.chunk", "model": model,
                "choices": [{"index": 0, "delta": {},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 5}}))
            ev.append("data: [DONE]\n\n")
            self.sse(ev, [("openai-model", model), ("x-echo", echo[:200]
                          .encode("ascii", "replace").decode())])


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
