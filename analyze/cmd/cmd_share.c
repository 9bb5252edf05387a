/* cmd_share: `tokentrace-analyze share TRACE -o OUT`: writes a copy safe to
 * attach to a bug report (analyze/share/share.h) and reports what it
 * removed: on stdout, or on stderr when OUT is stdout. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "commands.h"
#include "log.h"
#include "out_error.h"
#include "printable.h"
#include "share.h"

static void share_help(void)
{
    printf(
        "usage: tokentrace-analyze share TRACE -o OUT [--keep-prompts]\n"
        "                                [--keep-errors] [--anonymize-models]\n"
        "                                [--compress] [--force]\n"
        "\n"
        "Writes a copy of TRACE that is safe to attach to a bug report: the "
        "text\n"
        "of every prompt and reply is replaced by filler of the same byte "
        "length\n"
        "and UTF-8 shape, so chunks, timing, usage, finish reasons and every\n"
        "metric stay as recorded (summary gives the same numbers). The "
        "recorder's\n"
        "host name and command line and the workload's directory are "
        "removed;\n"
        "response headers are reduced to request ids, rate limits, retry "
        "hints,\n"
        "server, via, date and content type. The server's error texts, "
        "which\n"
        "may quote the prompt, are filled too; so are tool schemas and tool\n"
        "calls' input (names and numbers), --extra-body, text that is not "
        "JSON,\n"
        "and a workload's class names become class-1, class-2... Kept: model\n"
        "names, labels, the endpoint, the trace id (the X-Request-Id "
        "prefix).\n"
        "A report of what was removed follows (stdout; stderr when OUT is -).\n"
        "`info` shows that a trace was shared.\n"
        "\n"
        "  -o, --output OUT    the shared trace ('-' for stdout)\n"
        "  --keep-prompts      keep the request bodies (prompts) as recorded\n"
        "  --keep-errors       keep the server's error text (it may quote the\n"
        "                      prompt; not with --anonymize-models)\n"
        "  --anonymize-models  model names become model-1, model-2...; label\n"
        "                      values value-1, value-2...\n"
        "  --compress          write zstd frames (also when OUT ends in .zst)\n"
        "  --format-version N  2 (default: a checksum per record) or 1\n"
        "  --force             overwrite OUT\n"
        "\n"
        "exit codes: 0 ok, 1 TRACE was damaged (the records before the damage\n"
        "are written), 2 usage error or OUT not writable\n"
        "example:\n"
        "  tokentrace-analyze share week48.ttrace -o week48-shared.ttrace\n");
}

static void report(FILE *f, const char *out, const struct share_report *r,
                   bool keep_prompts, bool keep_errors)
{
    char name[200];
    fprintf(f,
            "share: wrote %s: %u trace%s, %" PRIu64 " records (%" PRIu64
            " requests, %" PRIu64 " chunks)\n",
            strcmp(out, "-") ? printable_copy(name, sizeof(name), out)
                             : "<stdout>",
            r->traces, r->traces == 1 ? "" : "s", r->records, r->requests,
            r->chunks);
    fprintf(f, "removed (replaced by filler of the same length and shape):\n");
    if (keep_prompts)
        fprintf(f, "  prompts: kept as recorded (--keep-prompts)\n");
    else
        fprintf(f,
                "  prompt text: %" PRIu64 " bytes in %" PRIu64
                " request bodies\n",
                r->prompt_bytes, r->prompt_bodies);
    fprintf(f, "  reply text: %" PRIu64 " bytes in %" PRIu64 " responses\n",
            r->reply_bytes, r->reply_bodies);
    if (r->error_messages)
        fprintf(f,
                "  server error text: %" PRIu64 " bytes in %" PRIu64
                " error messages (--keep-errors keeps it)\n",
                r->error_bytes, r->error_messages);
    if (r->option_bytes)
        fprintf(f, "  run options (--extra-body): %" PRIu64 " bytes\n",
                r->option_bytes);
    if (r->other_bytes)
        fprintf(f,
                "  record members this version has no rule for: %" PRIu64
                " bytes\n",
                r->other_bytes);
    fprintf(f, "removed:\n");
    fprintf(f,
            "  recorder host name: %" PRIu64 ", command line: %" PRIu64
            ", workload directory: %" PRIu64 "\n",
            r->hosts, r->command_lines, r->workload_paths);
    fprintf(f, "  response header values: %" PRIu64, r->headers_dropped);
    for (size_t i = 0; i < r->n_header_names; i++)
        fprintf(f, "%s%s", i ? ", " : " (",
                printable_copy(name, sizeof(name), r->header_names[i]));
    fprintf(f, "%s\n", r->n_header_names ? ")" : "");
    if (r->models_renamed || r->labels_renamed)
        fprintf(f, "  renamed: %u model name%s, %u label value%s\n",
                r->models_renamed, r->models_renamed == 1 ? "" : "s",
                r->labels_renamed, r->labels_renamed == 1 ? "" : "s");
    if (r->classes_renamed)
        fprintf(f, "  renamed: %u workload class name%s (class-1, ...)\n",
                r->classes_renamed, r->classes_renamed == 1 ? "" : "s");
    fprintf(f,
            "kept: timing, sizes, usage, finish reasons, model names%s, "
            "endpoint, trace and request ids%s\n",
            r->models_renamed ? " (renamed)" : " and labels",
            keep_errors ? ", server error messages (--keep-errors)" : "");
    if (r->sha256[0])
        fprintf(f, "sha256 of the shared trace: %s (quote it in the report)\n",
                r->sha256);
    if (r->scrapes_kept)
        fprintf(f,
                "kept as they are: %" PRIu64
                " server metrics scrapes (numbers, metric names, model "
                "labels)\n",
                r->scrapes_kept);
    if (r->scrapes_dropped)
        fprintf(f,
                "dropped: %" PRIu64
                " server metrics scrapes (--anonymize-models: their labels "
                "name the models)\n",
                r->scrapes_dropped);
    if (r->unknown_records)
        fprintf(f,
                "dropped: %" PRIu64
                " records of kinds this version does not know (it cannot "
                "tell their text from their numbers)\n",
                r->unknown_records);
}

/* What share reads from its command line. */
struct share_cli {
    struct share_options o;
    const char *out; /* -o OUT */
};

#define AT(f) OPT_AT(struct share_cli, f)
static const struct opt_spec share_opts[] = {
    {.name = "help", .short_name = 'h', .kind = OPT_STOP, .value = 1},
    {.name = "output", .short_name = 'o', .kind = OPT_STRING, .at = AT(out)},
    {.name = "keep-prompts", .kind = OPT_BOOL, .at = AT(o.keep_prompts)},
    {.name = "keep-errors", .kind = OPT_BOOL, .at = AT(o.keep_errors)},
    {.name = "anonymize-models",
     .kind = OPT_BOOL,
     .at = AT(o.anonymize_models)},
    {.name = "format-version",
     .kind = OPT_U64,
     .at = AT(o.format_version),
     .size = sizeof(unsigned),
     .min = 1,
     .max = 2,
     .want = "1 or 2"},
    {.name = "compress", .kind = OPT_BOOL, .at = AT(o.compress)},
    {.name = "force", .kind = OPT_BOOL, .at = AT(o.force)},
};

int cmd_share(int argc, char **argv)
{
    struct share_cli c = {{0}, NULL};
    struct share_report rep;
    const char *in = NULL, *out, **pos = calloc((size_t)argc + 1, sizeof *pos);
    size_t n_pos = 0;
    struct opt_table t = {share_opts, sizeof share_opts / sizeof share_opts[0],
                          &c};
    struct opt_parser p = {
        .tables = &t, .n_tables = 1, .pos = pos, .n_pos = &n_pos, .first = 0};
    char err[OUT_ERROR_SIZE];
    int rc;
    if (!pos)
        return 1;
    rc = opt_parse(&p, argc, argv, err, sizeof err);
    if (rc == 1)
        share_help();
    else if (rc != OPT_OK)
        analyze_options_error("share", err);
    else if (n_pos > 1)
        log_error("share: one TRACE at a time (got '%s' and '%s')", pos[0],
                  pos[1]);
    in = n_pos > 0 ? pos[0] : NULL;
    free(pos);
    if (rc == 1)
        return 0;
    if (rc != OPT_OK || n_pos > 1)
        return 2;
    out = c.out;
    if (!in || !out) {
        log_error("share: usage: share TRACE -o OUT (try --help)");
        return 2;
    }
    if (c.o.keep_errors && c.o.anonymize_models) {
        log_error("share: --keep-errors keeps the server's error text, which "
                  "may name the models --anonymize-models hides: use one");
        return 2;
    }
    rc = share_trace(in, out, &c.o, &rep, err, sizeof(err));
    if (rc == 2) {
        log_error("share: %s", err);
    } else {
        report(strcmp(out, "-") == 0 ? stderr : stdout, out, &rep,
               c.o.keep_prompts, c.o.keep_errors);
        if (rep.damage)
            log_error("share: %s; the records before it were written",
                      rep.damage);
    }
    share_report_free(&rep);
    return rc;
}
