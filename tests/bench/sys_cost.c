/* sys_cost: what the machine charges for the kernel work every streaming
 * client does per chunk: a bare system call, a zero-timeout poll(), a
 * clock read (vDSO), and a wake-up of a blocked process (pipe ping-pong).
 * On a virtual machine these set the floor of timestamp error and of CPU
 * per received chunk (docs/performance.md).
 *
 * usage: cc -O2 -o sys_cost tests/bench/sys_cost.c && ./sys_cost </dev/null */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
    const int n = 200000, m = 20000;
    struct pollfd p = {.fd = 0, .events = POLLIN};
    int a[2], b[2], i;
    char c = 'x';
    double t0, t1;

    t0 = now();
    for (i = 0; i < n; i++)
        syscall(SYS_getppid);
    t1 = now();
    printf("system call (getppid):            %6.2f us\n", (t1 - t0) / n * 1e6);
    t0 = now();
    for (i = 0; i < n; i++)
        poll(&p, 1, 0);
    t1 = now();
    printf("poll(1 fd, timeout 0):            %6.2f us\n", (t1 - t0) / n * 1e6);
    t0 = now();
    for (i = 0; i < n; i++)
        now();
    t1 = now();
    printf("clock_gettime(CLOCK_MONOTONIC):   %6.3f us\n", (t1 - t0) / n * 1e6);
    if (pipe(a) || pipe(b))
        return 1;
    if (fork() == 0) {
        for (i = 0; i < m; i++)
            if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
                _exit(1);
        _exit(0);
    }
    t0 = now();
    for (i = 0; i < m; i++)
        if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
            return 1;
    t1 = now();
    printf("pipe round trip (2 wake-ups):     %6.2f us\n", (t1 - t0) / m * 1e6);
    return 0;
}
