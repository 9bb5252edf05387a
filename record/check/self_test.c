/* self_test: the recorder's own limits on this machine, measured. */
#include "self_test.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "opt.h"
#include "quantile.h"
#include "trace.h"

/* Each step: requests at a constant rate, each a stream of 100 chunks
 * 5 ms apart (about 0.5 s): rate R keeps about R / 2 streams in flight
 * and 100 R chunks/s coming. */
#define SELF_TEST_PROFILE "ttft=5ms,tpot=5ms,tokens=100"
#define SELF_TEST_SWEEP "rate=10,20,50,100,200,400,800"
#define SELF_TEST_STEP "2s"
#define SELF_TEST_MAX_STAGES 64
#define SELF_TEST_MAX_REQUESTS ((size_t)4 << 20)

struct step {
    uint32_t id;
    double load;
    int64_t start_ns, end_ns;
    int64_t loop_p99_ns;
    int64_t cpu_ns;
    uint64_t sent, ok, chunks;
    double busy_s; /* sum of the requests' durations: streams x time */
    double *lag_ms;
    size_t n_lag, cap_lag;
    double lag_p99_ms;
    bool holds;
};

/* One request seen: its stage and start, until its result comes. */
struct req {
    uint32_t id, stage;
    int64_t start_ns;
};

bool self_test_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--self-test") == 0)
            return true;
    return false;
}

/* The directory of this program, for its sibling tokentrace-replay. */
static int program_dir(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    char *slash;
    if (n <= 0)
        return -1;
    out[n] = '\0';
    slash = strrchr(out, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* Starts argv[0] with argv, stdout and stderr to log (NULL: inherited).
 * Returns its pid or -1. */
static pid_t spawn(char *const *argv, const char *log)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    if (log && !freopen(log, "w", stdout))
        _exit(127);
    if (log && dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
        _exit(127);
    execv(argv[0], argv);
    _exit(127);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Waits up to 10 s for the replay server's port file. */
static int read_port(const char *file, pid_t server, int *port)
{
    for (int i = 0; i < 200; i++) {
        FILE *f = fopen(file, "r");
        int st;
        if (f) {
            int ok = fscanf(f, "%d", port) == 1;
            fclose(f);
            if (ok && *port > 0)
                return 0;
        }
        if (waitpid(server, &st, WNOHANG) == server)
            return -1;
        sleep_ms(50);
    }
    return -1;
}

/* The type-7 p99 of v[0..n) (sorts v), as the analyzer computes every
 * percentile; NAN-free input; -1 when n 0. */
static double p99(double *v, size_t n)
{
    if (n == 0)
        return -1;
    qsort(v, n, sizeof *v, quantile_cmp_double);
    return quantile_sorted(v, n, 99);
}

static struct step *step_of(struct step *s, size_t n, uint32_t id)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].id == id)
            return &s[i];
    return NULL;
}

/* Reads the sweep's trace into steps. Returns the number of steps, or -1
 * (said). */
static int read_steps(const char *path, struct step *steps)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct req *reqs = NULL;
    size_t n_reqs = 0, cap = 0;
    int n = 0, rc;
    if (trace_reader_open(path, &r) != 0) {
        log_error("self-test: cannot read %s", path);
        return -1;
    }
    while ((rc = trace_reader_next(r, &rec)) == 1) {
        struct step *s;
        if (rec.kind == TRACE_STAGE) {
            const struct trace_stage *g = &rec.u.stage;
            s = step_of(steps, (size_t)n, g->id);
            if (!s && n < SELF_TEST_MAX_STAGES) {
                s = &steps[n++];
                memset(s, 0, sizeof *s);
                s->id = g->id;
                s->loop_p99_ns = s->cpu_ns = -1;
            }
            if (!s)
                continue;
            s->load = g->load;
            s->start_ns = g->start_ns;
            if (g->end_ns > 0) {
                s->end_ns = g->end_ns;
                s->sent = g->sent;
                s->loop_p99_ns =
                    g->loop_lag_samples ? g->loop_lag_p99_ns : (int64_t)-1;
                s->cpu_ns = g->cpu_ns;
            }
        } else if (rec.kind == TRACE_REQUEST && !rec.u.request.warmup) {
            const struct trace_request *q = &rec.u.request;
            s = step_of(steps, (size_t)n, q->stage);
            if (s && q->scheduled_ns >= 0 && q->start_ns >= 0) {
                if (s->n_lag == s->cap_lag) {
                    size_t c = s->cap_lag ? 2 * s->cap_lag : 256;
                    double *p = realloc(s->lag_ms, c * sizeof *p);
                    if (!p)
                        break;
                    s->lag_ms = p;
                    s->cap_lag = c;
                }
                s->lag_ms[s->n_lag++] =
                    (double)(q->start_ns - q->scheduled_ns) / 1e6;
            }
            if (n_reqs == cap && cap < SELF_TEST_MAX_REQUESTS) {
                size_t c = cap ? 2 * cap : 1024;
                struct req *p = realloc(reqs, c * sizeof *p);
                if (!p)
                    break;
                reqs = p;
                cap = c;
            }
            if (n_reqs < cap)
                reqs[n_reqs++] = (struct req){q->id, q->stage, q->start_ns};
        } else if (rec.kind == TRACE_RESULT) {
            const struct trace_result *res = &rec.u.result;
            for (size_t i = n_reqs; i-- > 0;) /* results come soon after */
                if (reqs[i].id == res->id) {
                    s = step_of(steps, (size_t)n, reqs[i].stage);
                    if (s) {
                        s->ok += !res->error_kind || !res->error_kind[0];
                        s->chunks += res->chunks;
                        if (res->end_ns > reqs[i].start_ns)
                            s->busy_s +=
                                (double)(res->end_ns - reqs[i].start_ns) / 1e9;
                    }
                    reqs[i] = reqs[--n_reqs];
                    break;
                }
        }
    }
    if (rc < 0)
        log_warn("self-test: %s", trace_reader_error(r));
    trace_reader_close(r);
    free(reqs);
    return n;
}

/* What --self-test reads from the command line. */
struct self_test_flags {
    bool self_test, quiet;
    const char *sweep;    /* --sweep rate=LIST */
    const char *duration; /* --duration D, per step */
};

#define AT(f) OPT_AT(struct self_test_flags, f)
static const struct opt_spec self_test_opts[] = {
    {.name = "self-test", .kind = OPT_BOOL, .at = AT(self_test)},
    {.name = "quiet", .short_name = 'q', .kind = OPT_BOOL, .at = AT(quiet)},
    {.name = "sweep", .kind = OPT_STRING, .at = AT(sweep)},
    {.name = "duration", .kind = OPT_STRING, .at = AT(duration)},
};

/* Reads --self-test's few flags (common/opt.h) into f. Returns 0, or 2
 * after saying why not. */
static int read_flags(int argc, char **argv, struct self_test_flags *f)
{
    struct opt_table t = {self_test_opts,
                          sizeof self_test_opts / sizeof self_test_opts[0], f};
    struct opt_parser p = {.tables = &t, .n_tables = 1, .first = 1};
    char err[256];
    f->sweep = SELF_TEST_SWEEP;
    f->duration = SELF_TEST_STEP;
    if (opt_parse(&p, argc, argv, err, sizeof err) == OPT_OK)
        return 0;
    log_error("%s (--self-test takes only --duration D (per step) and "
              "--sweep rate=LIST)",
              err);
    return 2;
}

/* Prints the table and the verdict; returns the exit code. */
static int report(struct step *steps, int n, const char *step_len)
{
    int best = -1;
    printf("self-test: tokentrace-record against tokentrace-replay on "
           "127.0.0.1, %s per step; each request a stream of 100 chunks 5 ms "
           "apart\n",
           step_len);
    printf("  %8s %8s %9s %15s %15s %5s  %s\n", "rate/s", "streams", "chunks/s",
           "send lag p99 ms", "loop lag p99 ms", "cpu", "verdict");
    for (int i = 0; i < n; i++) {
        struct step *s = &steps[i];
        double span = (double)(s->end_ns - s->start_ns) / 1e9;
        double loop = s->loop_p99_ns >= 0 ? (double)s->loop_p99_ns / 1e6 : -1;
        char cpu[16] = "-", lp[24] = "-";
        s->lag_p99_ms = p99(s->lag_ms, s->n_lag);
        s->holds = s->n_lag > 0 && s->lag_p99_ms * 1e6 <= SELF_TEST_LIMIT_NS &&
                   loop >= 0 && loop * 1e6 <= SELF_TEST_LIMIT_NS &&
                   s->ok == s->sent;
        if (s->cpu_ns >= 0 && span > 0)
            snprintf(cpu, sizeof cpu, "%.0f%%",
                     100.0 * (double)s->cpu_ns / 1e9 / span);
        if (loop >= 0)
            snprintf(lp, sizeof lp, "%.3f", loop);
        printf("  %8g %8.1f %9.0f %15.3f %15s %5s  %s", s->load,
               span > 0 ? s->busy_s / span : 0.0,
               span > 0 ? (double)s->chunks / span : 0.0, s->lag_p99_ms, lp,
               cpu, s->holds ? "holds" : "BREAKS");
        if (s->ok != s->sent)
            printf(" (%llu of %llu failed)",
                   (unsigned long long)(s->sent - s->ok),
                   (unsigned long long)s->sent);
        printf("\n");
        if (s->holds && best == i - 1) /* held from the lightest on */
            best = i;
    }
    if (best < 0) {
        printf("verdict: even the lightest step broke the 1 ms limit: this "
               "machine is too busy to measure latency well right now\n");
        return 1;
    }
    {
        const struct step *s = &steps[best];
        double span = (double)(s->end_ns - s->start_ns) / 1e9;
        printf("verdict: this machine's recorder holds %g requests/s, about "
               "%.0f streams in flight and %.0f chunks/s with its send lag "
               "and event-loop lag p99 within 1 ms%s\n",
               s->load, span > 0 ? s->busy_s / span : 0.0,
               span > 0 ? (double)s->chunks / span : 0.0,
               best == n - 1 ? " (the heaviest step tried: it may hold more)"
                             : "");
    }
    return 0;
}

int self_test_run(int argc, char **argv)
{
    char dir_tmpl[] = "/tmp/tokentrace-self-test.XXXXXX";
    char bin[PATH_MAX], replay[PATH_MAX + 32], self[PATH_MAX + 32];
    char port_file[64], trace[64], rlog[64], url[64];
    struct self_test_flags f = {false, false, NULL, NULL};
    const char *sweep, *dur;
    struct step steps[SELF_TEST_MAX_STAGES];
    pid_t server, rec;
    int port = 0, st = 0, n, rc = 1;
    char *dir;
    if (read_flags(argc, argv, &f))
        return 2;
    sweep = f.sweep;
    dur = f.duration;
    if (program_dir(bin, sizeof bin) != 0) {
        log_error("self-test: cannot find this program's directory");
        return 1;
    }
    snprintf(replay, sizeof replay, "%s/tokentrace-replay", bin);
    snprintf(self, sizeof self, "%s/tokentrace-record", bin);
    if (access(replay, X_OK) != 0) {
        log_error("self-test: needs %s (installed with tokentrace-record)",
                  replay);
        return 1;
    }
    if (!(dir = mkdtemp(dir_tmpl))) {
        log_error("self-test: cannot create a directory in /tmp: %s",
                  strerror(errno));
        return 1;
    }
    snprintf(port_file, sizeof port_file, "%s/port", dir);
    snprintf(trace, sizeof trace, "%s/self.ttrace", dir);
    snprintf(rlog, sizeof rlog, "%s/replay.log", dir);
    {
        char *args[] = {
            replay,    "--listen", "127.0.0.1:0", "--port-file",
            port_file, "-q",       "--synthetic", (char *)SELF_TEST_PROFILE,
            NULL};
        server = spawn(args, rlog);
    }
    if (server < 0 || read_port(port_file, server, &port) != 0) {
        log_error("self-test: the replay server did not start (see %s)", rlog);
        goto done;
    }
    snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
    fprintf(stderr, "tokentrace-record: self-test: sweep %s, %s per step...\n",
            sweep, dur);
    {
        char *args[] = {
            self,           "-q",         "-u",        url,
            "-m",           "self-test",  "--classes", "short-short",
            "--no-content", "--arrival",  "constant",  "--sweep",
            (char *)sweep,  "--duration", (char *)dur, "-o",
            trace,          "--force",    NULL};
        rec = spawn(args, NULL);
    }
    if (rec < 0 || waitpid(rec, &st, 0) != rec || !WIFEXITED(st) ||
        WEXITSTATUS(st) == 2 || WEXITSTATUS(st) == 130) {
        log_error("self-test: the recording failed (exit %d)",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        rc = WIFEXITED(st) && WEXITSTATUS(st) == 2 ? 2 : 1;
        goto stop;
    }
    n = read_steps(trace, steps);
    if (n > 0)
        rc = report(steps, n, dur);
    else if (n == 0)
        log_error("self-test: the trace holds no step");
    for (int i = 0; i < n; i++)
        free(steps[i].lag_ms);
stop:
    kill(server, SIGTERM);
    waitpid(server, &st, 0);
done:
    unlink(port_file);
    unlink(trace);
    unlink(rlog);
    rmdir(dir);
    return rc;
}
