/* procs: --procs P, every core of one host: P local shards of the run,
 * each this program again (fork + exec of /proc/self/exe) with --shard,
 * one --start-at instant and one --run-id, writing a part file each;
 * once all have ended, the parts are joined, in shard order, into the one
 * output file (a concatenation of P traces, which every reader takes as
 * one input; docs/scale-out.md). The children share this host's monotonic
 * clock, so the merge is exact. */
#ifndef TT_RECORD_PROCS_H
#define TT_RECORD_PROCS_H

#include "cli.h"

/* Runs cfg (cfg->shard.procs > 1) as P children writing out_name (not
 * "-"). argv / argc: the command line as given (the children get it with
 * overriding flags appended). Returns the exit code: the children's worst
 * (130 a signal, then 3 too late, 1, 2), or 1 when the parts could not be
 * joined, or 2 when out_name exists without --force. */
int procs_run(const struct config *cfg, const char *out_name, int argc,
              char **argv);

#endif
