/* procs: P local shards of the run as children of this process, and their
 * part files joined into one output. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include "procs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "out_error.h"
#include "trace.h"

/* The children start this long after the parent: time to exec and set up
 * before the shared instant (a loaded host needs some). */
#define PROCS_START_DELAY_NS 1500000000LL

#define EXIT_LATE 3
#define EXIT_SIGNAL 130

static volatile sig_atomic_t procs_signal; /* the last one received */

static void on_signal(int sig)
{
    procs_signal = sig;
}

/* The worse of two exit codes: a signal, then too late, failure, usage. */
static int worse(int a, int b)
{
    static const int order[] = {EXIT_SIGNAL, EXIT_LATE, 1, 2};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (a == order[i] || b == order[i])
            return order[i];
    return a ? a : b;
}

/* Starts child j: argv with the overriding flags in extra. Returns its
 * pid, or -1. The child has its own process group, so a Ctrl-C reaches
 * the parent only, which passes it on once. */
static pid_t spawn(char **args)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    setenv("TT_SHARD_FROM", "--procs", 1);
    execv("/proc/self/exe", args);
    fprintf(stderr, "tokentrace-record: --procs: cannot run itself: %s\n",
            strerror(errno));
    _exit(127);
}

/* Forwards a signal received to every child still running. */
static void forward(const pid_t *pids, size_t n)
{
    int sig = procs_signal;
    if (!sig)
        return;
    procs_signal = 0;
    for (size_t j = 0; j < n; j++)
        if (pids[j] > 0)
            kill(pids[j], sig);
}

/* Returns the (j mod allowed)-th CPU this process may run on, so that
 * child j's keep-awake pins its loop apart from its siblings' (left to
 * themselves they pin to the CPU they start on, often the same one), or
 * -1 when the allowed set cannot be read. */
static int procs_child_cpu(uint32_t j)
{
    cpu_set_t set;
    int allowed = 0, seen = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    allowed = CPU_COUNT(&set);
    if (allowed <= 0)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set) && seen++ == (int)(j % (uint32_t)allowed))
            return cpu;
    return -1;
}

/* Appends the file at path to fd. Returns 0 (a missing file is nothing to
 * append), or -1 with errno. */
static int append(int fd, const char *path)
{
    char buf[65536];
    ssize_t n;
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return errno == ENOENT ? 0 : -1;
    while ((n = read(in, buf, sizeof buf)) != 0) {
        ssize_t off = 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            close(in);
            return -1;
        }
        while (off < n) {
            ssize_t w = write(fd, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                close(in);
                return -1;
            }
            off += w;
        }
    }
    close(in);
    return 0;
}

/* Appends the part files parts[0..n) (each may be missing or empty) to
 * out_name in order, then removes them. force: overwrite out_name, else
 * it must not exist. Returns 0, or -1 with errno set (a part it could not
 * read stays). */
static int procs_join(const char *out_name, bool force, char *const *parts,
                      size_t n)
{
    int fd =
        open(out_name,
             O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0644);
    int rc = 0;
    if (fd < 0)
        return -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = append(fd, parts[i]);
    if (close(fd) != 0 && rc == 0)
        rc = -1;
    if (rc == 0)
        for (size_t i = 0; i < n; i++)
            unlink(parts[i]);
    return rc;
}

int procs_run(const struct config *cfg, const char *out_name, int argc,
              char **argv)
{
    const struct cli_shard *sh = &cfg->shard;
    uint32_t p = sh->procs, base_i = sh->count > 1 ? sh->index : 0;
    uint32_t base_n = sh->count > 1 ? sh->count : 1;
    int64_t at = sh->start_at_ns ? sh->start_at_ns
                                 : clock_real_ns() + PROCS_START_DELAY_NS;
    char when[48], run_id[CLI_RUN_ID_MAX + 1], shard[32], cpu[16];
    char **parts = calloc(p, sizeof(*parts));
    char **args = calloc((size_t)argc + 20, sizeof(*args));
    /* each child's keep-awake on its own CPU, unless the user chose one */
    int spread = cfg->keep_awake != KEEP_AWAKE_OFF && cfg->keep_awake_cpu < 0 &&
                 procs_child_cpu(0) >= 0;
    pid_t *pids = calloc(p, sizeof(*pids));
    struct sigaction sa, old_int, old_term;
    int rc = 0;
    size_t na, n_started = 0;
    if (!parts || !args || !pids) {
        log_error("out of memory");
        rc = 1;
        goto done;
    }
    if (!cfg->force && access(out_name, F_OK) == 0) {
        log_error("%s exists; use --force to overwrite it or -o to pick "
                  "another name",
                  out_name);
        rc = 2;
        goto done;
    }
    cli_format_instant(at, when, sizeof when);
    if (sh->run_id)
        snprintf(run_id, sizeof run_id, "%s", sh->run_id);
    else
        cli_shard_derive_run_id(cfg->seed, at, run_id, sizeof run_id);
    for (na = 0; na < (size_t)argc; na++)
        args[na] = argv[na];
    /* the last of a flag wins: these override whatever argv says */
    args[na++] = "--procs";
    args[na++] = "1";
    args[na++] = "--start-at";
    args[na++] = when;
    args[na++] = "--run-id";
    args[na++] = run_id;
    args[na++] = "--progress";
    args[na++] = "never";
    args[na++] = "--force";
    if (trace_path_compressed(out_name))
        args[na++] = "--compress";
    args[na++] = "--shard";
    args[na++] = shard;
    if (spread) {
        args[na++] = "--keep-awake-cpu";
        args[na++] = cpu;
    }
    args[na++] = "-o";
    args[na + 1] = NULL;
    if (!cfg->quiet)
        log_note("--procs %u: shards %u..%u of %u, run id %s, starting at "
                 "%s, joined into %s",
                 p, base_i, base_i + base_n * (p - 1), base_n * p, run_id, when,
                 out_name);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    for (uint32_t j = 0; j < p; j++) {
        size_t len = strlen(out_name) + 32;
        parts[j] = malloc(len);
        if (!parts[j]) {
            rc = 1;
            break;
        }
        snprintf(parts[j], len, "%s.part%u", out_name, j);
        /* child j of host shard I/N is shard I + N j of N P: it keeps
         * requests k with k mod N = I, its host's share */
        snprintf(shard, sizeof shard, "%u/%u", base_i + base_n * j, base_n * p);
        snprintf(cpu, sizeof cpu, "%d", procs_child_cpu(j));
        args[na] = parts[j];
        pids[j] = spawn(args);
        if (pids[j] < 0) {
            log_error("--procs: fork failed: %s", strerror(errno));
            rc = 1;
            break;
        }
        n_started++;
    }
    for (size_t left = n_started; left > 0;) {
        int st;
        pid_t w = waitpid(-1, &st, 0);
        if (w < 0) {
            if (errno == EINTR) {
                forward(pids, n_started);
                continue;
            }
            break;
        }
        for (size_t j = 0; j < n_started; j++)
            if (pids[j] == w) {
                int code = WIFEXITED(st)     ? WEXITSTATUS(st)
                           : WIFSIGNALED(st) ? 128 + WTERMSIG(st)
                                             : 1;
                if (code)
                    log_warn("--procs: shard %u/%u ended with exit status %d",
                             base_i + base_n * (uint32_t)j, base_n * p, code);
                rc = worse(rc, code);
                pids[j] = -1;
                left--;
            }
        forward(pids, n_started);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (procs_join(out_name, cfg->force, parts, n_started)) {
        char why[OUT_ERROR_SIZE];
        int err = errno;
        size_t kept = 0;
        for (size_t j = 0; j < n_started; j++)
            kept += access(parts[j], F_OK) == 0;
        log_error("--procs: joining the shards' traces failed: %s (%s%s%s)",
                  out_error(why, sizeof why, out_name, err),
                  kept ? "the part files " : "no shard wrote its part file",
                  kept ? out_name : "", kept ? ".part* are kept" : "");
        rc = worse(rc, 1);
    } else if (!cfg->quiet) {
        log_note("--procs %u: the %zu shard traces are in %s (one input for "
                 "tokentrace-analyze)",
                 p, n_started, out_name);
    }
done:
    if (parts)
        for (uint32_t j = 0; j < p; j++)
            free(parts[j]);
    free(parts);
    free(args);
    free(pids);
    return rc;
}
