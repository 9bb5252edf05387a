/* run_checks: keep-awake, self-lag and wake-up probe around the loop. */
#include "run_checks.h"

#include <string.h>

#include "log.h"

void run_checks_awake(struct keep_awake *awake, const struct config *c)
{
    /* after --start-at's wait, which needs no awake CPU */
    keep_awake_start(awake, c->keep_awake, c->keep_awake_cpu, NULL);
    /* one short line (issue 32: ~200 characters on every run); the whole
     * reason is in the trace header (keep_awake_off) and summary --detail */
    if (awake->mode == KEEP_AWAKE_OFF && awake->asked != KEEP_AWAKE_OFF) {
        const char *cut = strstr(awake->why, ": ");
        int n = cut ? (int)(cut - awake->why) : (int)strlen(awake->why);
        log_note("keep-awake off: %.*s (why: summary --detail)", n, awake->why);
    }
}

void run_checks_start(struct self_lag *lag, struct wake_probe *probe,
                      const struct keep_awake *awake, struct event_base *base)
{
    int helper_cpu = keep_awake_other_cpu(awake);
    self_lag_start(lag, base, 0);
    /* on one allowed CPU the probe would not cross CPUs: none (the header
     * says so, run_header.c) */
    if (helper_cpu >= 0)
        wake_probe_start(probe, base, 0, helper_cpu);
}

void run_checks_dispatch(struct event_base *base,
                         const struct keep_awake *awake)
{
    if (!keep_awake_polls(awake)) {
        event_base_dispatch(base);
        return;
    }
    while (event_base_loop(base, EVLOOP_NONBLOCK) == 0 &&
           !event_base_got_break(base) && !event_base_got_exit(base))
        ;
}

void run_checks_stop(struct self_lag *lag, struct wake_probe *probe,
                     struct keep_awake *awake)
{
    self_lag_stop(lag);
    wake_probe_stop(probe);
    keep_awake_stop(awake);
}
