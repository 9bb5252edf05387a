/* stream_scan: the JSON of one SSE event read for exactly the fields that
 * stream_events uses, without building a tree (stream_events' fast path).
 *
 * Contract: stream_scan_event either decides, and then its facts are what
 * stream_events would derive from cJSON's tree of the same bytes, or it
 * declines and the caller parses with cJSON. It decides only for inputs
 * inside a strict subset of what cJSON 1.7 accepts, where both must agree:
 * an RFC 8259 object (white space: space, tab, CR, LF; numbers of at most
 * 40 characters; escapes \" \\ \/ \b \f \n \r \t and \uXXXX with valid hex,
 * paired surrogates and no U+0000; no raw control characters in strings;
 * nesting up to 64) followed only by white space, with no "error" member at
 * the top and no top "object" member that is "error" or escaped, no escape in a
 * member name, in a "type" or in a finish/stop reason, and every usage count it
 * reads a plain integer of at most 15 digits. Anything else declines.
 * tests/common/stream_scan_test.c runs both paths over every corpus input
 * and compares.
 */
#ifndef TT_STREAM_SCAN_H
#define TT_STREAM_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream_events.h"

/* The generated text one event carried, piece by piece. */
struct stream_piece_sum {
    uint64_t bytes, chars, reasoning_bytes;
    unsigned pieces, reasoning_pieces, tool_pieces;
    bool tool;
};

/* Adds one non-empty text field of bytes/chars (UTF-8 bytes, and bytes
 * that are not continuation bytes) to the event's sum. */
void stream_piece_add(struct stream_piece_sum *sum, uint64_t bytes,
                      uint64_t chars, bool reasoning, bool tool);

/* What one event said, as stream_events applies it. */
struct stream_scan_facts {
    struct stream_piece_sum sum; /* a token event when sum.pieces > 0 */
    unsigned finishes;  /* non-empty finish_reason / stop_reason values */
    const char *finish; /* the last one (points into the event's data) */
    size_t finish_len;
    /* Usage counts reported (-1: none, leave the state's value). */
    int64_t usage_output, usage_input, usage_reasoning;
    /* Prompt caching (-1: none): OpenAI prompt_tokens_details.cached_tokens
     * or prompt_cache_hit_tokens, Anthropic cache_read_input_tokens; and
     * Anthropic's cache_creation_input_tokens. */
    int64_t usage_cached, usage_cache_write;
    bool done;           /* Anthropic message_stop */
    bool ping;           /* Anthropic ping */
    unsigned choices;    /* OpenAI: elements of the "choices" array */
    bool choices_array;  /* OpenAI: "choices" was an array (maybe empty) */
    unsigned tool_calls; /* OpenAI: elements of delta.tool_calls arrays */
    bool tool_name;      /* OpenAI: one had a non-empty function.name */
    bool usage;          /* OpenAI: a "usage" object was present */
};

/* Scans data[0..len) as the JSON of one event of the given API kind.
 * Returns true with *out filled when it decided, false when the caller
 * must parse with cJSON (see the contract above). Reads nothing past
 * data + len; allocates nothing. */
bool stream_scan_event(enum api_kind api, const char *data, size_t len,
                       struct stream_scan_facts *out);

#endif
