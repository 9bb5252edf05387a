/* keep_awake_gov_test: auto's rules on made-up windows (the loop waited,
 * a neighbour ran on the loop's CPU, steal, pressure, the first look) and
 * the parsers of schedstat, /proc/stat and /proc/pressure/cpu. */
#include <string.h>

#include "check.h"
#include "keep_awake_gov.h"
#include "keep_awake_sample.h"

#define MS 1000000LL

/* A fast-window sample at t ms: the loop ran/waited, the spinner waited. */
static struct ka_sample at(int64_t t_ms, int64_t loop_run, int64_t loop_wait,
                           int64_t spin_wait)
{
    struct ka_sample s;
    memset(&s, 0, sizeof s);
    s.t_ns = t_ms * MS;
    s.loop.run_ns = loop_run;
    s.loop.wait_ns = loop_wait;
    s.spinner.run_ns = 0;
    s.spinner.wait_ns = spin_wait;
    s.proc_cpu_ns = 0;
    s.procs_running = -1;
    return s;
}

static void fast(void)
{
    static const struct {
        int64_t loop_run, loop_wait, spin_wait; /* over 10 ms, ns */
        bool hurts;
        const char *why;
    } cases[] = {
        {1 * MS, 0, 1 * MS, false, ""}, /* the spinner waited for the loop */
        {0, 400000, 0, false, ""},      /* a short wait: kernel work */
        {0, 600000, 0, true, "the loop waited 0.60 ms for CPU 3"},
        {1 * MS, 0, 3 * MS + 100000, true, "other tasks ran 2.10 ms on CPU 3"},
        {5 * MS, 0, 6 * MS, false, ""}, /* the loop's own time, mostly */
        {-1, -1, -1, false, ""},        /* unreadable: no verdict */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ka_sample a = at(0, 0, 0, 0);
        struct ka_sample b =
            at(10, cases[i].loop_run, cases[i].loop_wait, cases[i].spin_wait);
        char why[240] = "";
        if (cases[i].loop_run < 0)
            a = at(0, -1, -1, -1);
        CHECK_MSG(ka_gov_fast_hurts(&a, &b, 3, why, sizeof why) ==
                      cases[i].hurts,
                  "case %zu: %s", i, why);
        CHECK_MSG(strstr(why, cases[i].why) != NULL, "case %zu: %s", i, why);
    }
}

/* The spinner's beat: a neighbour that holds the loop's CPU shows in no
 * schedstat wait until the spinner runs again (record_keep_awake_neighbour
 * saw auto stop 125-175 ms late); its last turn shows it at once. */
static void beat(void)
{
    static const struct {
        int64_t loop_run, beat; /* over the window 100 -> 110 ms, ns */
        bool hurts;
        const char *why;
    } cases[] = {
        {1 * MS, 102 * MS, true, "the spinner has not run for 7.00 ms"},
        {1 * MS, 109 * MS + 500000, false, ""}, /* a turn just now */
        {9 * MS, 50 * MS, false, ""}, /* the loop ran the whole window */
        {5 * MS, 50 * MS, true, "for 5.00 ms of the last 10.0"},
        {0, 0, false, ""},        /* asleep or unknown: no verdict */
        {0, 111 * MS, false, ""}, /* after the sample: no verdict */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ka_sample a = at(100, 0, 0, 0);
        struct ka_sample b = at(110, cases[i].loop_run, 0, 0);
        char why[240] = "";
        b.spinner_beat_ns = cases[i].beat;
        CHECK_MSG(ka_gov_fast_hurts(&a, &b, 1, why, sizeof why) ==
                      cases[i].hurts,
                  "case %zu: %s", i, why);
        CHECK_MSG(strstr(why, cases[i].why) != NULL, "case %zu: %s", i, why);
    }
}

static void slow(void)
{
    struct ka_sample a = at(0, 0, 0, 0), b = at(500, 0, 0, 0);
    char why[240];
    a.has_stat = b.has_stat = true;
    a.all = 1000;
    b.all = 1100; /* 2 CPUs x 0.5 s at 100 ticks/s */
    /* quiet: nothing waited, nothing stolen, the CPU idle */
    CHECK(!ka_gov_slow_hurts(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why), "%s", why);
    /* the loop waited 6 ms in 500 (> 1 %) */
    b.loop.wait_ns = 6 * MS;
    CHECK(ka_gov_slow_hurts(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(strstr(why, "the loop waited 6.0 ms for CPU 0 in 500 ms"), "%s",
              why);
    b.loop.wait_ns = 0;
    /* others took 30 ms of the spinner's CPU (> 5 %) */
    b.spinner.wait_ns = 30 * MS;
    CHECK(ka_gov_slow_hurts(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(strstr(why, "other tasks ran 30.0 ms"), "%s", why);
    b.spinner.wait_ns = 0;
    /* the hypervisor stole 3 ticks (30 ms) of CPU 0 */
    b.cpu_steal = 3;
    CHECK(ka_gov_slow_hurts(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(strstr(why, "stole 30 ms of CPU 0"), "%s", why);
    b.cpu_steal = 0;
    /* off: pressure 3 % is not quiet; 1 % is */
    a.has_psi = b.has_psi = true;
    b.psi_some_us = 15000;
    CHECK(!ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(strstr(why, "CPU pressure 3.0 %"), "%s", why);
    b.psi_some_us = 5000;
    CHECK(ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why));
    /* the CPU busy 10 ticks (100 ms) of which this process ran 90 ms: 2 %,
     * quiet; of which it ran none: 20 %, not */
    b.cpu_busy = 10;
    b.proc_cpu_ns = 90 * MS;
    CHECK_MSG(ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why), "%s", why);
    b.proc_cpu_ns = 0;
    CHECK(!ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(strstr(why, "CPU 0 busy 20.0 %"), "%s", why);
    /* no schedstat to watch a spinner with: never quiet */
    b.proc_cpu_ns = 90 * MS;
    CHECK(ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why));
    b.spinner.run_ns = -1;
    CHECK(!ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why));
    CHECK_MSG(strstr(why, "no schedstat"), "%s", why);
    /* no /proc/stat: never quiet */
    b.has_stat = false;
    CHECK(!ka_gov_slow_quiet(&a, &b, 0, 100, why, sizeof why));
}

static void first(void)
{
    struct ka_sample s = at(0, 0, 0, 0);
    char why[400];
    s.procs_running = 1;
    s.has_psi = true;
    s.psi_some_avg10 = 0.5;
    CHECK(ka_gov_first(&s, 2, why, sizeof why));
    CHECK_MSG(strstr(why, "quiet: CPU pressure 0.5 %"), "%s", why);
    s.psi_some_avg10 = 12.7;
    CHECK(!ka_gov_first(&s, 2, why, sizeof why));
    CHECK_MSG(strstr(why, "CPU pressure 12.7 %"), "%s", why);
    s.has_psi = false;
    s.procs_running = 3; /* this thread and two others on 2 CPUs */
    CHECK(!ka_gov_first(&s, 2, why, sizeof why));
    CHECK_MSG(strstr(why, "2 other tasks runnable on 2 CPUs"), "%s", why);
    s.procs_running = 2;
    CHECK(ka_gov_first(&s, 2, why, sizeof why));
    CHECK_MSG(strstr(why, "no /proc/pressure/cpu"), "%s", why);
}

static void parsers(void)
{
    struct ka_thread_stat t = {-1, -1};
    struct ka_sample s;
    memset(&s, 0, sizeof s);
    CHECK(ka_parse_schedstat("304219 1234 17\n", &t) == 0);
    CHECK(t.run_ns == 304219 && t.wait_ns == 1234);
    CHECK(ka_parse_schedstat("garbage", &t) == -1 && t.run_ns == 304219);
    CHECK(ka_parse_stat("cpu  10 1 2 100 3 4 5 6 0 0\n"
                        "cpu0 5 0 1 50 1 2 2 3 0 0\n"
                        "cpu1 5 1 1 50 2 2 3 3 0 0\n"
                        "intr 1 2 3\nprocs_running 4\nprocs_blocked 0\n",
                        1, &s) == 0);
    CHECK(s.has_stat && s.procs_running == 4);
    CHECK(s.cpu_busy == 5 + 1 + 1 + 2 + 3 && s.cpu_steal == 3);
    CHECK(s.cpu_all == s.cpu_busy + 50 + 2 + 3);
    CHECK(s.steal == 6 && s.all == 10 + 1 + 2 + 4 + 5 + 100 + 3 + 6);
    memset(&s, 0, sizeof s);
    CHECK(ka_parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4\n", 7, &s) == -1);
    CHECK(!s.has_stat);
    CHECK(ka_parse_pressure("some avg10=2.50 avg60=12.68 avg300=10.40 "
                            "total=2300523936\nfull avg10=0.00 avg60=0.00 "
                            "avg300=0.00 total=0\n",
                            &s) == 0);
    CHECK(s.has_psi && s.psi_some_us == 2300523936ULL);
    CHECK(s.psi_some_avg10 > 2.49 && s.psi_some_avg10 < 2.51);
    memset(&s, 0, sizeof s);
    CHECK(ka_parse_pressure("full avg10=1.00 total=5\n", &s) == -1);
    CHECK(!s.has_psi);
}

int main(void)
{
    fast();
    beat();
    slow();
    first();
    parsers();
    return CHECK_DONE();
}
