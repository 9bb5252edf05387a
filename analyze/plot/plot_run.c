/* plot_run: fork/exec of gnuplot and fc-list without a shell. */
#include "plot_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

int plot_find_program(const char *name, char *out, size_t size)
{
    const char *path = getenv("PATH"), *p, *end;
    if (!path)
        path = "/usr/bin:/bin";
    for (p = path;; p = end + 1) {
        size_t len;
        end = strchr(p, ':');
        len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0 && len < size) {
            int n = snprintf(out, size, "%.*s/%s", (int)len, p, name);
            if (n > 0 && (size_t)n < size && access(out, X_OK) == 0)
                return 0;
        }
        if (!end)
            break;
    }
    return -1;
}

/* In the child: stdin from /dev/null, stdout to fd_out (or /dev/null when
 * -1 and quiet), then exec. Never returns. */
static void child_exec(const char *prog, char *const argv[], int fd_out,
                       bool quiet_stderr)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        if (fd_out < 0)
            dup2(null, STDOUT_FILENO);
        if (quiet_stderr)
            dup2(null, STDERR_FILENO);
    }
    if (fd_out >= 0)
        dup2(fd_out, STDOUT_FILENO);
    execv(prog, argv);
    _exit(127);
}

/* The exit code in a wait status; -1 when killed by a signal. */
static int exit_code(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

size_t plot_run_jobs(const char *gnuplot, struct plot_job *jobs, size_t n,
                     unsigned parallel)
{
    pid_t *pids = calloc(n + 1, sizeof(*pids));
    size_t next = 0, running = 0, failed = 0;
    if (!pids)
        return n;
    if (parallel == 0)
        parallel = 1;
    while (next < n || running > 0) {
        if (next < n && running < parallel) {
            struct plot_job *j = &jobs[next];
            char fmt_expr[32];
            snprintf(fmt_expr, sizeof(fmt_expr), "fmt='%s'",
                     strcmp(j->fmt, "svg") == 0 ? "svg" : "png");
            char *argv[] = {"gnuplot", "-e", fmt_expr, j->script, NULL};
            fflush(NULL);
            pids[next] = fork();
            if (pids[next] == 0)
                child_exec(gnuplot, argv, -1, false);
            if (pids[next] < 0) {
                j->status = -1;
                failed++;
            } else
                running++;
            next++;
            continue;
        }
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < next; i++)
            if (pids[i] == pid) {
                jobs[i].status = exit_code(status);
                if (jobs[i].status != 0)
                    failed++;
                pids[i] = 0;
                running--;
            }
    }
    free(pids);
    return failed;
}

/* Runs prog with argv and collects up to size - 1 bytes of its standard
 * output into out (NUL-terminated; the rest is read and dropped). Returns
 * its exit code, or -1 when it could not run. */
static int plot_capture(const char *prog, char *const argv[], char *out,
                        size_t size)
{
    int fds[2], status;
    size_t len = 0;
    pid_t pid;
    char drop[4096];
    if (size)
        out[0] = '\0';
    if (pipe(fds) != 0)
        return -1;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_exec(prog, argv, fds[1], true);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    for (;;) {
        ssize_t r;
        if (len + 1 < size)
            r = read(fds[0], out + len, size - 1 - len);
        else
            r = read(fds[0], drop, sizeof(drop));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (len + 1 < size)
            len += (size_t)r;
    }
    if (size)
        out[len] = '\0';
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return exit_code(status);
}

/* The first of known[][0] that list names, as known[][1]; NULL if none. */
static const char *first_known(const char *list, const char *const (*known)[2],
                               size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(list, known[i][0]))
            return known[i][1];
    return NULL;
}

/* A colour (or outline) emoji family fontconfig knows; NULL if none. */
static const char *emoji_font(const char *fc)
{
    static const char *const known[][2] = {
        {"Noto Color Emoji", "Noto Color Emoji"},
        {"Noto Emoji", "Noto Emoji"},
        {"Twemoji", "Twemoji"},
        {"JoyPixels", "JoyPixels"},
        {"Symbola", "Symbola"},
    };
    static char list[65536];
    char *argv[] = {"fc-list", ":charset=1f600", "family", NULL};
    if (plot_capture(fc, argv, list, sizeof(list)) != 0)
        return NULL;
    return first_known(list, known, sizeof(known) / sizeof(known[0]));
}

const char *plot_font_detect(void)
{
    static const char *const known[][2] = {
        {"Noto Sans CJK", "Noto Sans CJK SC"},
        {"Noto Sans SC", "Noto Sans SC"},
        {"Source Han Sans", "Source Han Sans SC"},
        {"WenQuanYi Zen Hei", "WenQuanYi Zen Hei"},
        {"Droid Sans Fallback", "Droid Sans Fallback"},
    };
    static char list[65536], families[128];
    char fc[4096];
    char *argv[] = {"fc-list", ":lang=zh", "family", NULL};
    const char *cjk = NULL, *emoji;
    if (plot_find_program("fc-list", fc, sizeof(fc)) != 0)
        return "Sans";
    if (plot_capture(fc, argv, list, sizeof(list)) == 0)
        cjk = first_known(list, known, sizeof(known) / sizeof(known[0]));
    emoji = emoji_font(fc);
    if (!emoji)
        return cjk ? cjk : "Sans";
    snprintf(families, sizeof(families), "%s,%s", cjk ? cjk : "Sans", emoji);
    return families;
}
