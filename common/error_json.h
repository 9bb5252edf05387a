/* error_json: the server's own words in an error JSON, in every shape the
 * servers we meet use, read one way for the recorder (error replies,
 * in-stream errors) and the analyzer (in-stream errors):
 *   {"error":{"message","type","code"}}   OpenAI, vLLM, gateways
 *   {"type":"error","error":{...}}         Anthropic
 *   {"error":"text"}                       some gateways
 *   {"object":"error","message":..}        vLLM's ErrorResponse
 *   {"code":500,"message":..,"type":..}    llama.cpp's SSE "error:" field
 *   {"message":..} / {"detail":..}         frameworks' error replies
 * The last two are "bare" errors: an object that is the error itself,
 * read only where the caller knows it is one (ERROR_JSON_BARE). */
#ifndef TT_COMMON_ERROR_JSON_H
#define TT_COMMON_ERROR_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* How error_json_read may read an object. */
#define ERROR_JSON_MEMBER 0x0u /* only an "error" member makes it one */
#define ERROR_JSON_BARE 0x1u   /* the object may be the error itself */

struct error_json {
    const char *message; /* "" when none; points into the tree */
    const char *type;    /* error type, else the code as text; "" none */
    const char *code;    /* error code as text, else the type; "" none */
    bool code_numeric;   /* the code was a number (written into num) */
    char num[32];
};

/* Reads the error in root. Returns true when root is an error (an "error"
 * member that is an object or a string, or "object": "error"; with
 * ERROR_JSON_BARE also any object), with out's strings pointing into root or
 * into out. False leaves out empty. */
bool error_json_read(const cJSON *root, unsigned how, struct error_json *out);

/* Maximum bytes error_json_text keeps of a message, on one line. */
#define ERROR_JSON_MESSAGE_MAX 200

/* Reads the error in the text p[0..n): JSON as error_json_read (how), else
 * the text itself (a payload that is not JSON, or was cut). Writes the type
 * (else the code; "" when none) into type and the message into msg, each
 * on one line (control characters as spaces, runs of spaces collapsed),
 * msg at most ERROR_JSON_MESSAGE_MAX bytes, both cut on a UTF-8 boundary.
 * Returns true when p held an error (non-JSON text always does). */
bool error_json_text(const char *p, size_t n, unsigned how, char *type,
                     size_t type_len, char *msg, size_t msg_len);

/* Copies s[0..n) into dst (size > 0) on one line, as error_json_text does,
 * keeping at most max bytes (cut on a UTF-8 boundary). */
void error_json_one_line(char *dst, size_t size, const char *s, size_t n,
                         size_t max);

#endif
