/* week: calendar arithmetic in UTC for trend periods: civil dates from day
 * numbers and ISO 8601 week dates, computed without the C library's time
 * zones (proleptic Gregorian calendar, any year). */
#ifndef TT_WEEK_H
#define TT_WEEK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Days since 1970-01-01 of the date y-m-d (m 1..12, d 1..31). Cannot fail. */
int64_t week_days_from_civil(int64_t y, unsigned m, unsigned d);

/* The date of day number days (0 is 1970-01-01). Cannot fail. */
void week_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);

/* The ISO 8601 week date of day number days: the week-numbering year (the
 * year of that week's Thursday), the week 1..53 and the weekday 1 (Monday)
 * .. 7 (Sunday). 2026-01-01 is 2026-W01-4; 2027-01-01 is 2026-W53-5. */
void week_iso_from_days(int64_t days, int64_t *iso_year, unsigned *week,
                        unsigned *weekday);

/* The UTC day number of a CLOCK_REALTIME value in ns (rounds down, also
 * before 1970). */
int64_t week_days_from_real_ns(int64_t real_ns);

/* Writes the UTC period of real_ns: "2026-W48" when by_week, else the day
 * "2026-11-30". out should hold at least 24 bytes. Returns out. */
char *week_format_period(int64_t real_ns, bool by_week, char *out, size_t size);

#endif
