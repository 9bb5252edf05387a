#!/usr/bin/env bash
# as_aiperf: summary --as aiperf against aiperf's own loop, re-written from its source
# in as_conformance.py (the rule and its file:line are in the comment of
# its function there), over the stream shapes that pull definitions apart:
# role-only first chunk, several tokens per chunk, no usage, reasoning
# first, tool calls, a long gap before the finish chunk, 40 empty chunks,
# a "choices": [] usage chunk.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
export T
python3 "$TT_SOURCE_DIR/tests/analyze/definitions/as_conformance.py" aiperf ||
    fail "--as aiperf differs from aiperf's own loop"
