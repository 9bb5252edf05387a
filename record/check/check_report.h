/* check_report: the lines --check prints on stdout. */
#ifndef TT_RECORD_CHECK_REPORT_H
#define TT_RECORD_CHECK_REPORT_H

#include "base_url.h"
#include "check_verdict.h"
#include "cli.h"

/* Normalizes cfg's base URL into *bu and prints the endpoint line (and a
 * note when the URL was changed), key (NULL: none) hidden. Returns 0, or 1
 * when the URL is refused, after printing that verdict and the corrected
 * URL. */
int check_report_url(const struct config *cfg, const char *key,
                     struct base_url *bu);

/* Prints one model's verdict line; for a model that streams, its times,
 * notes and warnings and the hint; else the fix. */
void check_report_probe(const char *model, const struct probe_facts *f,
                        const struct check_verdict *v);

#endif
