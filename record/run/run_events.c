/* run_events: the event base, the multi loop and the loop's own events. */
#include "run_events.h"

#include <string.h>

int run_events_open(struct run_events *ev, bool precise, bool scrapes,
                    int64_t tick_us, const struct run_events_cb *cb)
{
    struct timeval tick = {(time_t)(tick_us / 1000000),
                           (suseconds_t)(tick_us % 1000000)};
    struct event_config *ec;
    memset(ev, 0, sizeof *ev);
    ec = event_config_new();
    if (!ec)
        return -1;
    if (precise)
        event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER);
    ev->base = event_base_new_with_config(ec);
    event_config_free(ec);
    if (!ev->base || evloop_new(ev->base, cb->done, cb->arg, &ev->loop))
        return -1;
    ev->tick = event_new(ev->base, -1, EV_PERSIST, cb->tick, cb->arg);
    ev->pace = evtimer_new(ev->base, cb->pace, cb->arg);
    ev->deadline = evtimer_new(ev->base, cb->deadline, cb->arg);
    if (!ev->tick || !ev->pace || !ev->deadline || event_add(ev->tick, &tick))
        return -1;
    if (scrapes) {
        ev->scrape_timer =
            event_new(ev->base, -1, EV_PERSIST, cb->scrape, cb->arg);
        if (!ev->scrape_timer)
            return -1;
    }
    return 0;
}

void run_events_close(struct run_events *ev)
{
    if (ev->scrape_timer)
        event_free(ev->scrape_timer);
    if (ev->tick)
        event_free(ev->tick);
    if (ev->pace)
        event_free(ev->pace);
    if (ev->deadline)
        event_free(ev->deadline);
    evloop_free(ev->loop);
    if (ev->base)
        event_base_free(ev->base);
    memset(ev, 0, sizeof *ev);
}
