/* run_signal: the stop flag SIGINT / SIGTERM raise, and their handlers. The
 * handler only sets the flag; the run loop (and the channel doctor) look at
 * it and decide what stopping means. */
#include "run.h"

#include <string.h>

volatile sig_atomic_t run_stop_requested;

/* SIGINT / SIGTERM: only raises the flag the 100 ms tick looks at. */
static void on_signal(int sig)
{
    (void)sig;
    run_stop_requested = 1;
}

void run_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESETHAND: a second signal kills at once (even while a write to a
     * full pipe blocks); SA_RESTART: the first does not break that write */
    sa.sa_flags = (int)(SA_RESETHAND | SA_RESTART);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
