/* cmd_share: `tokentrace-analyze share TRACE -o OUT`: writes a copy safe to
 * attach to a bug report (analyze/share/share.h) and reports what it
 * removed: on stdout, or on stderr when OUT is stdout. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "printable.h"
#include "share.h"

static void share_help(void)
{
    printf(
        "usage: tokentrace-analyze share TRACE -o OUT [--keep-prompts]\n"
        "                                [--anonymize-models] [--compress] "
        "[--force]\n"
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
        "server, via, date and content type. Kept: model names, labels, the\n"
        "endpoint, the trace id (the X-Request-Id prefix), the server's error\n"
        "messages. A report of what was removed follows (stdout; stderr when "
        "OUT\n"
        "is -). `info` shows that a trace was shared.\n"
        "\n"
        "  -o, --output OUT    the shared trace ('-' for stdout)\n"
        "  --keep-prompts      keep the request bodies (prompts) as recorded\n"
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
                   bool keep_prompts)
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
    fprintf(f,
            "kept: timing, sizes, usage, finish reasons, model names%s, "
            "endpoint, trace and request ids, server error messages\n",
            r->models_renamed ? " (renamed)" : " and labels");
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
                "kept as they are: %" PRIu64
                " records of kinds this version does not know\n",
                r->unknown_records);
}

int cmd_share(int argc, char **argv)
{
    struct share_options o = {0};
    struct share_report rep;
    const char *in = NULL, *out = NULL;
    char err[600];
    int rc;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            share_help();
            return 0;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (++i == argc) {
                log_error("share: %s needs a file name (try --help)", a);
                return 2;
            }
            out = argv[i];
        } else if (strncmp(a, "--output=", 9) == 0) {
            out = a + 9;
        } else if (strcmp(a, "--keep-prompts") == 0) {
            o.keep_prompts = true;
        } else if (strcmp(a, "--anonymize-models") == 0) {
            o.anonymize_models = true;
        } else if (strcmp(a, "--format-version") == 0 ||
                   strncmp(a, "--format-version=", 17) == 0) {
            const char *v = a[16] == '='   ? a + 17
                            : i + 1 < argc ? argv[++i]
                                           : "";
            if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0) {
                log_error("share: --format-version: '%s' is not 1 or 2", v);
                return 2;
            }
            o.format_version = (unsigned)(v[0] - '0');
        } else if (strcmp(a, "--compress") == 0) {
            o.compress = true;
        } else if (strcmp(a, "--force") == 0) {
            o.force = true;
        } else if (a[0] == '-' && a[1]) {
            log_error("share: unknown option '%s' (try --help)", a);
            return 2;
        } else if (in) {
            log_error("share: one TRACE at a time (got '%s' and '%s')", in, a);
            return 2;
        } else {
            in = a;
        }
    }
    if (!in || !out) {
        log_error("share: usage: share TRACE -o OUT (try --help)");
        return 2;
    }
    rc = share_trace(in, out, &o, &rep, err, sizeof(err));
    if (rc == 2) {
        log_error("share: %s", err);
    } else {
        report(strcmp(out, "-") == 0 ? stderr : stdout, out, &rep,
               o.keep_prompts);
        if (rep.damage)
            log_error("share: %s; the records before it were written",
                      rep.damage);
    }
    share_report_free(&rep);
    return rc;
}
