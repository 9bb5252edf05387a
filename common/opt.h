/* opt: the one option engine of the four programs: a typed table of flags
 * (long name, short alias, value kind, destination) read from argv into
 * the caller's struct. Each program's --help text stays written by hand
 * (the man pages are made from it); its cli test checks that the text and
 * the table name the same flags.
 *
 * Forms, the same in every program: "--flag value" and "--flag=value" for
 * a valued flag ("-f value" and "-fvalue" for its short alias), "--flag"
 * and "--no-flag" for a boolean (a boolean named no-X is undone by --X),
 * short booleans cluster ("-qf"). "--" and bare words are positional.
 * A flag whose value may be left out (value_optional) takes "--flag=value",
 * or "--flag value" when the next word does not start with '-' (a lone
 * "-" is a value); without one only its given field is set.
 * Errors, one line each, never printed here:
 *   unknown option '--modle' (did you mean --model?)
 *   --model needs a value
 *   --force takes no value
 *   unexpected argument 'extra'
 *   LABEL: 'VALUE' is not WANT      (LABEL: -x when the flag has a short
 *                                    alias, else --flag)
 * The destination of each flag is an offset into the caller's struct
 * (OPT_AT), so a table is static const data; strings point into argv. */
#ifndef TT_COMMON_OPT_H
#define TT_COMMON_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opt_kind {
    OPT_BOOL,     /* bool: --x true, --no-x false */
    OPT_STRING,   /* const char *; names: one of them */
    OPT_U64,      /* uint64_t (or size bytes) in [min, max], decimal */
    OPT_DOUBLE,   /* double in [lo, hi] (lo excluded with lo_open) */
    OPT_DURATION, /* double seconds (common/duration.h, bare: seconds) */
    OPT_ENUM,     /* int (or bool with is_bool): the index of the word in
                     names */
    OPT_SET,      /* int: set to the entry's value (no argument) */
    OPT_LIST,     /* const char *[cap] with a size_t count: repeatable */
    OPT_CUSTOM,   /* the entry's parse callback */
    OPT_STOP,     /* ends the parse with the entry's value (--help) */
};

struct opt_spec;

/* A CUSTOM flag's parser: reads v into the caller's struct base. Returns
 * 0; or -1 with err set, or -1 with err left empty for the engine's
 * "LABEL: 'V' is not WANT". */
typedef int (*opt_parse_fn)(const char *v, void *base,
                            const struct opt_spec *spec, char *err,
                            size_t errlen);

struct opt_spec {
    const char *name; /* long name without "--" */
    char short_name;  /* 0: none */
    enum opt_kind kind;
    size_t at;         /* OPT_AT(field): the destination (not CUSTOM/STOP) */
    size_t given;      /* OPT_AT(bool field) + 1, set when seen; 0: none */
    unsigned mask;     /* opt_parser.allowed bits that enable it; 0: all */
    const char *want;  /* a valid value, for "LABEL: 'V' is not WANT"
                          (ENUM, STRING with names: default "a, b or c") */
    const char *empty; /* STRING/LIST: refuse "" as "LABEL: empty EMPTY" */
    uint64_t min, max; /* U64 */
    size_t size;       /* U64: the field's size (4: a 32-bit int), 0: 8 */
    double lo, hi;     /* DOUBLE, DURATION */
    bool lo_open;      /* DOUBLE, DURATION: lo itself is refused */
    const char *const *names; /* ENUM, STRING: the words, NULL-ended */
    bool is_bool;             /* ENUM: the field is a bool (index != 0) */
    int value;                /* SET, STOP */
    size_t count;             /* LIST: OPT_AT(size_t count) */
    size_t cap;               /* LIST: at most this many */
    const char *noun;         /* LIST: "LABEL: at most CAP NOUN" */
    opt_parse_fn parse;       /* CUSTOM */
    bool value_optional;      /* the value may be left out (above) */
};

#define OPT_AT(type, field) offsetof(type, field)
#define OPT_GIVEN(type, field) (offsetof(type, field) + 1)

/* Short rows for a table: define OPT_BASE as the struct the table fills
 * (`#define OPT_BASE struct config`) before the table; f names a field of
 * it (a nested one too: cfg.port). Rows that need more fields are written
 * out. */
#define OPT_FLAG(n, s, f)                                                      \
    {                                                                          \
        .name = n, .short_name = s, .kind = OPT_BOOL,                          \
        .at = OPT_AT(OPT_BASE, f)                                              \
    }
/* A string; "" is refused as "LABEL: empty E" (e NULL: taken). */
#define OPT_TEXT(n, s, f, e)                                                   \
    {                                                                          \
        .name = n, .short_name = s, .kind = OPT_STRING,                        \
        .at = OPT_AT(OPT_BASE, f), .empty = e                                  \
    }
/* Read by fn (an opt_parse_fn); w a valid value for the error, or NULL. */
#define OPT_CALL(n, s, fn, w)                                                  \
    {                                                                          \
        .name = n, .short_name = s, .kind = OPT_CUSTOM, .parse = fn, .want = w \
    }
/* An integer in [low, high], of the field's own size. */
#define OPT_COUNT(n, s, f, low, high, w)                                       \
    {                                                                          \
        .name = n, .short_name = s, .kind = OPT_U64,                           \
        .at = OPT_AT(OPT_BASE, f), .size = sizeof(((OPT_BASE *)0)->f),         \
        .min = low, .max = high, .want = w                                     \
    }
/* One of the words w (NULL-ended): the field is its index. */
#define OPT_WORDS(n, f, w)                                                     \
    {                                                                          \
        .name = n, .kind = OPT_ENUM, .at = OPT_AT(OPT_BASE, f), .names = w     \
    }
/* A duration in seconds above 0, at most high. */
#define OPT_SECONDS(n, f, high, w)                                             \
    {                                                                          \
        .name = n, .kind = OPT_DURATION, .at = OPT_AT(OPT_BASE, f), .lo = 0,   \
        .hi = high, .lo_open = true, .want = w                                 \
    }

/* A table of flags and the struct its offsets point into. */
struct opt_table {
    const struct opt_spec *specs;
    size_t n_specs;
    void *base;
};

struct opt_parser {
    const struct opt_table *tables; /* a name is looked up in each, in turn */
    size_t n_tables;
    unsigned allowed; /* enables the specs whose mask has one of these */
    const char **pos; /* positional words, or NULL: each is an error */
    size_t *n_pos;    /* how many were stored in pos */
    int first;        /* argv index to start at (1: after the program) */
    /* a value as an error message may show it (a key: redacted), or NULL */
    const char *(*shown)(const char *value);
};

enum opt_result {
    OPT_OK = 0,    /* all of argv read */
    OPT_ERROR = -1 /* err holds the one-line reason */
};

/* Formats a one-line reason into err (errlen bytes, cut to fit) and returns
 * OPT_ERROR: the one way every parser of flags and values (the engine, the
 * recorder's value and combination checks) fills its err buffer. */
int opt_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads argv[p->first..argc) into the tables' structs. Returns OPT_OK,
 * OPT_ERROR with err set, or the value of an OPT_STOP flag (as soon as it is
 * met: later words are not read). Values are borrowed from argv. */
int opt_parse(const struct opt_parser *p, int argc, char **argv, char *err,
              size_t errlen);

/* The spec whose long name is name (without "--"), or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *specs, size_t n,
                                const char *name);

#endif
