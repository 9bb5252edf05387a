/* keep_awake_pin: keep-awake's mechanics, for keep_awake.c and its
 * monitor (keep_awake_gov.c) alone: pinning a thread by its id (the
 * monitor moves the loop from its own thread), and the idle-priority
 * spinner that spins only while spinning is wanted and there is
 * something to serve, and sleeps on k->cv otherwise. */
#ifndef TT_KEEP_AWAKE_PIN_H
#define TT_KEEP_AWAKE_PIN_H

#include "keep_awake.h"

/* The calling thread's id. */
int ka_gettid(void);

/* Pins thread tid to cpu. Returns 0, or an errno. */
int ka_pin_tid(int tid, int cpu);

/* Gives thread tid k's old CPU set (the one before pinning). Returns 0
 * or an errno. */
int ka_unpin_tid(const struct keep_awake *k, int tid);

/* Starts the spinner thread on k->home_cpu, spinning once k->want and
 * k->busy are both set. Needs k->mu / k->cv. Returns 0, or -1 with
 * k->why filled. */
int ka_spinner_start(struct keep_awake *k);

/* Sets flag (&k->want, &k->busy or &k->stop) to v and wakes whoever
 * waits on k->cv when it changed. */
void ka_set_flag(struct keep_awake *k, int *flag, int v);

#endif
