/* jsonc: VS Code's "JSON with comments" (settings.json): // and block
 * comments and trailing commas are blanked out, line numbers are kept, and
 * the rest is parsed by cJSON.
 *
 * Ownership: a jsonc_doc owns its stripped text and its cJSON tree;
 * jsonc_free releases both. */
#ifndef TT_RECORD_JSONC_H
#define TT_RECORD_JSONC_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define JSONC_MAX_BYTES ((size_t)4 << 20)

struct jsonc_doc {
    char *text; /* the input with comments and trailing commas replaced by
                   spaces (line breaks kept): offsets and lines match */
    size_t len;
    cJSON *root;
};

enum jsonc_err {
    JSONC_OK = 0,
    JSONC_E_NOMEM = 1,
    JSONC_E_SYNTAX = 2, /* *line says where */
    JSONC_E_TOO_LARGE = 3,
};

/* Strips comments and trailing commas from src (len bytes, a leading UTF-8
 * BOM is skipped) and parses the result. On JSONC_E_SYNTAX, *line (from 1)
 * is where parsing failed and err says what ("unterminated comment",
 * "syntax error near 'x'"). doc is zeroed on failure. */
int jsonc_parse(const char *src, size_t len, struct jsonc_doc *doc, int *line,
                char *err, size_t errlen);

/* The line (from 1) of byte offset off of the document. */
int jsonc_line_at(const struct jsonc_doc *doc, size_t off);

/* The line of the last member named key of the top-level object (the one
 * that counts, as in VS Code), or 0 when there is none. Names are compared
 * decoded ("\u0063line.x" is "cline.x"), as jsonc_get sees them.
 * Commented-out members do not count. */
int jsonc_key_line(const struct jsonc_doc *doc, const char *key);

/* The last member named key of the top-level object, or NULL. */
const cJSON *jsonc_get(const struct jsonc_doc *doc, const char *key);

/* Frees the document. NULL-safe. */
void jsonc_free(struct jsonc_doc *doc);

#endif
