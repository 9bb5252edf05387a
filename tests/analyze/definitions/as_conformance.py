#!/usr/bin/env python3
"""as_conformance: `summary --as PEER` against PEER's own loop, re-written
here in Python from its source (the file:line of each rule is in the
comment of its function), over stream shapes that pull the definitions
apart. usage: as_conformance.py PEER (vllm, sglang, aiperf, guidellm,
llmperf, genai-bench). Needs TT_GEN_TRACE, TT_ANALYZE and a scratch dir T.

Each shape is one request served by `gen_trace --script`: its first event
arrives 20 ms after the start, each next one 5 ms later ("@wait MS" adds
MS before an event), and the connection ends 1 ms after the last. The
peer's function below walks the same events with those times and returns
what the peer would report; the test compares it with --as's JSON.
"""
import json
import os
import subprocess
import sys

CHUNK = "chat.completion.chunk"


def ev(delta=None, choices=True, usage=None, finish=None, wait=0, done=False):
    return {"delta": delta, "choices": choices, "usage": usage,
            "finish": finish, "wait": wait, "done": done}


def role():
    return ev({"role": "assistant", "content": ""})


def c(text, **kw):
    return ev({"content": text}, **kw)


def r(text):
    return ev({"reasoning_content": text})


def tool_name(name):
    return ev({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                               "function": {"name": name, "arguments": ""}}]})


def tool_args(args):
    return ev({"tool_calls": [{"index": 0, "function": {"arguments": args}}]})


def finish(reason="stop", usage=None, wait=0):
    return ev({}, finish=reason, usage=usage, wait=wait)


def usage_chunk(n):  # stream_options.include_usage: "choices": []
    return ev(None, choices=False, usage=n)


DONE = ev(done=True)

# The shapes: each pulls some definitions apart.
SHAPES = {
    # usage on the finish chunk (choices not empty): every peer parses it
    "role_first": [role(), c("Hel"), c("lo"), c("!"),
                   finish(usage=3), DONE],
    # 6 tokens in 3 chunks
    "multi_token": [c("a b"), c("c d"), c("e f"), finish(usage=6), DONE],
    # no usage anywhere; the request asked for max_tokens 64
    "no_usage": [role(), c("x"), c("y"), c("z"), finish(), DONE],
    "reasoning_first": [role(), r("think"), r("more"), c("x"), c("y"),
                        finish(usage=4), DONE],
    # a tool-only answer: a name chunk, argument chunks, finish, usage
    "tool_calls": [role(), tool_name("get_weather"), tool_args('{"city":'),
                   tool_args('"Paris"}'), finish("tool_calls", usage=5), DONE],
    # half a second before the finish chunk
    "long_gap": [role(), c("x"), c("y"), c("z"),
                 finish(usage=3, wait=500), DONE],
    # 40 chunks of empty content between two tokens (over the old 32 cap)
    "empty40": [role(), c("a")] + [c("")] * 40 + [c("b"), finish(usage=2),
                                                  DONE],
    # the OpenAI include_usage form: a last chunk with "choices": []
    "choices_empty": [role(), c("x"), c("y"), finish(), usage_chunk(2), DONE],
}


def sse(events):
    out = []
    for e in events:
        if e["wait"]:
            out.append("@wait %d\n" % e["wait"])
        if e["done"]:
            out.append("data: [DONE]\n\n")
            continue
        obj = {"id": "c1", "object": CHUNK, "model": "m"}
        if e["choices"]:
            ch = {"index": 0, "delta": e["delta"]}
            if e["finish"]:
                ch["finish_reason"] = e["finish"]
            obj["choices"] = [ch]
        else:
            obj["choices"] = []
        if e["usage"] is not None:
            obj["usage"] = {"prompt_tokens": 7, "completion_tokens": e["usage"],
                            "total_tokens": 7 + e["usage"]}
        out.append("data: " + json.dumps(obj) + "\n\n")
    return "".join(out)


def timed(events):
    """The events with their arrival (ms after the start) and the end."""
    t, out = 20, []
    for i, e in enumerate(events):
        if i:
            t += 5
        t += e["wait"]
        out.append(dict(e, t=t))
    return out, t + 1


def delta(e):
    return e["delta"] or {}


def reasoning(e):
    d = delta(e)
    return d.get("reasoning_content") or d.get("reasoning")


def run(peer, name, events, tmp):
    path = os.path.join(tmp, name + ".sse")
    with open(path, "w") as f:
        f.write(sse(events))
    trace = os.path.join(tmp, name + ".ttrace")
    subprocess.run([os.environ["TT_GEN_TRACE"], "--script", "--max-tokens",
                    "64", trace, "m", path], check=True)
    out = subprocess.run([os.environ["TT_ANALYZE"], "summary", trace, "--as",
                          "all", "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    doc = json.loads(out)
    return [t for t in doc["tools"] if t["name"] == peer][0]


# ---- each peer's loop ---------------------------------------------------


def vllm(events, end):
    """vLLM vllm/benchmarks/lib/endpoint_request_func.py (02cfb534),
    async_request_openai_chat_completions: every message but [DONE] is
    parsed; `if choices := data.get("choices")` stamps TTFT at the first
    one (a role-only chunk too), appends the gap to ITL for each later one,
    and moves most_recent_timestamp; `elif usage := data.get("usage")`
    takes completion_tokens only from a chunk WITHOUT choices. latency =
    most_recent_timestamp - st. serve.py calculate_metrics: no
    output_tokens -> len(tokenizer(generated_text)) (content only; here one
    token per content chunk stands in); TPOT = (latency - ttft) / (n - 1).
    """
    ttft, itl, last, n_usage, content = None, [], None, None, 0
    for e in events:
        if e["done"]:
            continue
        if e["choices"]:
            if ttft is None:
                ttft = e["t"]
            else:
                itl.append(e["t"] - last)
            last = e["t"]
            content += bool(delta(e).get("content"))
        elif e["usage"] is not None:
            n_usage = e["usage"]
    return ttft, last, itl, n_usage, content


def check_vllm(name, events, end, got, bad):
    ttft, last, itl, n_usage, content = vllm(events, end)
    n = n_usage if n_usage else content
    want = {"ttft": ttft, "e2e": last,
            "tpot": (last - ttft) / (n - 1) if n > 1 else None}
    compare(name, got, want, bad)
    pooled(name, got, "itl", itl, bad)


def sglang(events, end, max_tokens=64):
    """SGLang python/sglang/bench_serving.py (0033168f),
    async_request_openai_chat_completions: every non-empty line sets
    latency (so it ends at the last line, [DONE]); for the others
    `data.get("choices", [{}])[0]` raises IndexError on "choices": [] and
    the request fails (success False); a non-empty delta.content stamps
    TTFT once (0.0 if never) and appends ITL gaps between content chunks;
    output_len = usage.completion_tokens, else max_tokens. calculate_metrics:
    TPOT = (latency - ttft) / (output_len - 1)."""
    ttft, itl, last, n, fail = 0.0, [], None, max_tokens, False
    for e in events:
        latency = e["t"]
        if e["done"]:
            continue
        if not e["choices"]:
            fail = True
            break
        if delta(e).get("content"):
            if ttft == 0.0:
                ttft = e["t"]
            else:
                itl.append(e["t"] - last)
            last = e["t"]
        if e["usage"] is not None:
            n = e["usage"]
    return ttft, latency, itl, n, fail


def check_sglang(name, events, end, got, bad):
    ttft, latency, itl, n, fail = sglang(events, end)
    if fail:
        if got["would_fail"] != 1:
            bad.append("%s: SGLang fails this request, --as says would_fail "
                       "%s" % (name, got["would_fail"]))
        return  # the numbers are what it would have had: not compared
    want = {"ttft": ttft, "e2e": latency,
            "tpot": (latency - ttft) / (n - 1) if n > 1 else None}
    compare(name, got, want, bad)
    pooled(name, got, "itl", itl, bad)


def aiperf(events, end):
    """AIPerf src/aiperf/endpoints/openai_chat.py (00a8e858),
    extract_chat_response_data: a chunk is a response when it has
    reasoning, content, or tool-call text = function name + arguments;
    metrics/types/ttft_metric.py: TTFT at the first response;
    request_latency_metric.py: to the last; inter_token_latency_metric.py:
    (latency - TTFT) / (n - 1), n the usage count (--use-server-token-count).
    """
    times = []
    for e in events:
        if e["done"] or not e["choices"]:
            continue
        d = delta(e)
        text = d.get("content") or reasoning(e)
        for tc in d.get("tool_calls") or []:
            fn = tc.get("function", {})
            text = (text or "") + fn.get("name", "") + fn.get("arguments", "")
        if text:
            times.append(e["t"])
    return times


def check_aiperf(name, events, end, got, bad):
    times = aiperf(events, end)
    n = [e["usage"] for e in events if e["usage"] is not None]
    n = n[-1] if n else len(times)
    want = {"ttft": times[0], "e2e": times[-1],
            "itl": (times[-1] - times[0]) / (n - 1) if n > 1 else None}
    compare(name, got, want, bad)


def guidellm(events, end):
    """GuideLLM (ee7a7745): backends/openai/http.py:518-555 reads lines,
    breaks at [DONE] (request_end at :555), counts an iteration for each
    line add_streaming_line says updated; request_handlers.py:1180-1195: a
    reasoning/reasoning_content delta, a content delta, or any tool_calls
    delta updates; schemas/request_stats.py:142 tokens = usage else the
    iterations; :192 TPOT = (last - start) / n; :213 ITL = (last - first)
    / (n - 1); benchmark/schemas/metrics.py:937 TTFT or 0.0, :949-962
    TPOT weighted by n, ITL by n - 1."""
    first = last = request_end = None
    iters, n = 0, None
    for e in events:
        if e["done"]:
            request_end = e["t"]
            break
        d = delta(e) if e["choices"] else {}
        if reasoning(e) or d.get("content") or d.get("tool_calls"):
            first = e["t"] if first is None else first
            last = e["t"]
            iters += 1
        if e["usage"] is not None:
            n = e["usage"]
    if request_end is None:
        request_end = end
    return first, last, request_end, n if n is not None else iters


def check_guidellm(name, events, end, got, bad):
    first, last, request_end, n = guidellm(events, end)
    want = {"ttft": first, "tpot": last / n, "e2e": request_end,
            "itl": (last - first) / (n - 1) if n > 1 else 0.0}
    compare(name, got, want, bad)


def llmperf(events, end):
    """LLMPerf (f1d6bed4) src/llmperf/ray_clients/
    openai_chat_completions_client.py:74-103: every line but [DONE] adds 1
    to tokens_received (:83) before `data["choices"][0]` (:91), which
    raises on "choices": [] (the request then has error code -1, :37, and
    is left out, token_benchmark_ray.py:218); a delta.content appends the
    gap since the last one, the first from the start (:92-100); the total
    time is after the stream ends (:103). token_benchmark_ray.py:120-121:
    ITL = sum(gaps) / tokens_received."""
    received, gaps, first, prev, fail = 0, [], None, 0, False
    for e in events:
        if e["done"]:
            continue
        received += 1
        if not e["choices"]:
            fail = True
            break
        if delta(e).get("content"):
            gaps.append(e["t"] - prev)
            first = e["t"] if first is None else first
            prev = e["t"]
    return first, sum(gaps) / received, end, fail


def check_llmperf(name, events, end, got, bad):
    first, itl, e2e, fail = llmperf(events, end)
    if fail:
        if got["would_fail"] != 1:
            bad.append("%s: LLMPerf fails this request, --as says would_fail "
                       "%s" % (name, got["would_fail"]))
        return
    if first is None:  # no content: ttft 0, ITL 0 (its text has no token)
        compare(name, got, {"itl": 0.0, "e2e": e2e}, bad)
        return
    compare(name, got, {"ttft": first, "itl": itl, "e2e": e2e}, bad)


def genai_bench(events, end):
    """genai-bench (7fd04d8c) genai_bench/user/openai_user.py:409-525: breaks
    at [DONE] (:423-424) or at a usage chunk with "choices": [] after a
    finish_reason (:443-479; with no text yet and completion_tokens > 1 it
    stamps time_at_first_token there, :457-465), or at a finish chunk that
    carries usage (:507-514); content or reasoning_content stamps the first
    token (:482-499); end_time after the loop (:525); no usage: its
    tokenizer counts the generated text (:536-538; one token per text
    chunk stands in here). metrics/request_metrics_collector.py:47-48,86-88:
    ttft, e2e, TPOT = (e2e - ttft) / (n - 1)."""
    ttft, finish_seen, n, texts, end_time = None, False, 0, 0, end
    for e in events:
        if e["done"]:
            end_time = e["t"]
            break
        if not e["choices"]:
            if finish_seen and e["usage"]:
                n = e["usage"]
                if ttft is None and n > 1:
                    ttft = e["t"]
                end_time = e["t"]
                break
            continue  # IndexError: logged and skipped
        d = delta(e)
        if d.get("content") or reasoning(e):
            ttft = e["t"] if ttft is None else ttft
            texts += 1
        finish_seen = finish_seen or bool(e["finish"])
        if e["finish"] and e["usage"]:
            n = e["usage"]
            end_time = e["t"]
            break
    return ttft, end_time, n or texts


def check_genai_bench(name, events, end, got, bad):
    ttft, e2e, n = genai_bench(events, end)
    if ttft is None:  # time_at_first_token None: the collector raises
        if got["would_fail"] != 1:
            bad.append("%s: genai-bench fails this request, --as says "
                       "would_fail %s" % (name, got["would_fail"]))
        return
    want = {"ttft": ttft, "e2e": e2e,
            "tpot": (e2e - ttft) / (n - 1) if ttft is not None and n > 1
            else None}
    compare(name, got, want, bad)


# ---- comparing ----------------------------------------------------------


def compare(name, got, want, bad):
    for m, w in want.items():
        g = got["metrics"].get(m)
        if g is None:
            bad.append("%s %s: --as has no such metric" % (name, m))
            continue
        p50 = g["ms"]["p50"]
        if w is None:
            if p50 is not None:
                bad.append("%s %s: %s, the peer reports none" % (name, m, p50))
        elif p50 is None or abs(p50 - w) > 1e-6 * max(1, abs(w)):
            bad.append("%s %s: --as %s, the peer's loop %s" % (name, m, p50, w))


def pooled(name, got, m, gaps, bad):
    g = got["metrics"][m]["ms"]
    mean = sum(gaps) / len(gaps) if gaps else None
    if g["n"] != len(gaps) or (mean is not None and
                               abs(g["mean"] - mean) > 1e-6 * max(1, mean)):
        bad.append("%s %s: --as n %s mean %s, the peer's loop n %d mean %s" %
                   (name, m, g["n"], g["mean"], len(gaps), mean))


ANTHROPIC = "".join(
    "event: %s\ndata: %s\n\n" % (k, json.dumps(v)) for k, v in [
        ("message_start", {"type": "message_start", "message": {
            "id": "m1", "usage": {"input_tokens": 5, "output_tokens": 1}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta",
                                           "text": "Hi"}}),
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": "end_turn"},
                           "usage": {"output_tokens": 2}}),
        ("message_stop", {"type": "message_stop"})])

# Peers whose client has no parser for Anthropic streams: SGLang's and
# LLMPerf's index choices[0] (bench_serving.py, openai_chat_completions_
# client.py:91); GuideLLM registers handlers for /v1/completions,
# /v1/chat/completions, /v1/responses... (request_handlers.py:438, 710,
# 1557), none for /v1/messages.
NO_ANTHROPIC = {"sglang", "guidellm", "llmperf"}


def check_anthropic(peer, tmp, bad):
    """--as PEER refuses an Anthropic trace PEER cannot read (exit 2, a
    message naming it); --as all leaves it out of PEER's numbers and
    counts it in cannot_parse."""
    path = os.path.join(tmp, "anthropic.sse")
    with open(path, "w") as f:
        f.write(ANTHROPIC)
    trace = os.path.join(tmp, "anthropic.ttrace")
    subprocess.run([os.environ["TT_GEN_TRACE"], "--script", "--api",
                    "anthropic", trace, "m", path], check=True)
    one = subprocess.run([os.environ["TT_ANALYZE"], "summary", trace, "--as",
                          peer], capture_output=True, text=True)
    out = subprocess.run([os.environ["TT_ANALYZE"], "summary", trace, "--as",
                          "all", "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    got = [t for t in json.loads(out)["tools"] if t["name"] == peer][0]
    if peer in NO_ANTHROPIC:
        if one.returncode != 2 or "cannot read" not in one.stderr:
            bad.append("anthropic: --as %s exit %d: %s%s" % (
                peer, one.returncode, one.stdout, one.stderr))
        if got["cannot_parse"] != 1 or got["metrics"]["ttft"]["ms"]["n"]:
            bad.append("anthropic: --as all counts %s's numbers: %s" %
                       (peer, got))
    elif one.returncode != 0 or got["cannot_parse"] != 0:
        bad.append("anthropic: --as %s refused (%d)" % (peer, one.returncode))


def main():
    peer = sys.argv[1]
    check = globals()["check_" + peer.replace("-", "_")]
    tmp = os.environ["T"]
    bad = []
    for name, events in SHAPES.items():
        got = run(peer, name, events, tmp)
        timed_events, end = timed(events)
        check(name, timed_events, end, got, bad)
    check_anthropic(peer, tmp, bad)
    for line in bad:
        print("FAIL", peer, line)
    print("as_%s: %d shapes, %d differences" % (peer, len(SHAPES), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
