/* rusage: runs a command and writes its getrusage numbers, exactly.
 * A small launcher matters: Linux keeps the peak RSS of the image a process
 * had before exec, so a command forked from a 20 MB Python would report at
 * least 20 MB; from this program it starts near 1 MB.
 *
 * usage: rusage OUT CMD [ARGS...]
 * OUT gets one line: wall_ns user_us sys_us maxrss_kib exit_code
 * (maxrss covers the command and the children it waited for). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    struct rusage ru;
    int status, code;
    long long t0;
    pid_t pid;
    FILE *out;
    if (argc < 3) {
        fprintf(stderr, "usage: rusage OUT CMD [ARGS...]\n");
        return 2;
    }
    t0 = now_ns();
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("wait4");
        return 1;
    }
    code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    out = fopen(argv[1], "w");
    if (!out)
        return 1;
    fprintf(out, "%lld %lld %lld %ld %d\n", now_ns() - t0,
            (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
            (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec,
            ru.ru_maxrss, code);
    return fclose(out) == 0 ? code : 1;
}
