/* week: UTC civil dates and ISO 8601 weeks from day numbers (after Howard
 * Hinnant's days_from_civil / civil_from_days). */
#include "week.h"

#include <inttypes.h>
#include <stdio.h>

/* Floor division for a positive divisor. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

int64_t week_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = floor_div(y, 400);
    yoe = y - era * 400;                                   /* [0, 399] */
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; /* [0, 365] */
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

void week_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
    int64_t z = days + 719468;
    int64_t era = floor_div(z, 146097);
    int64_t doe = z - era * 146097; /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100); /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                      /* [0, 11] */
    *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

void week_iso_from_days(int64_t days, int64_t *iso_year, unsigned *week,
                        unsigned *weekday)
{
    /* 1970-01-01 was a Thursday (ISO weekday 4). */
    int64_t wd = days + 3 - floor_div(days + 3, 7) * 7 + 1; /* 1..7 */
    int64_t thursday = days - (wd - 1) + 3;
    unsigned m, d;
    /* A week belongs to the year of its Thursday; week 1 holds the year's
     * first Thursday. */
    week_civil_from_days(thursday, iso_year, &m, &d);
    *week =
        (unsigned)((thursday - week_days_from_civil(*iso_year, 1, 1)) / 7 + 1);
    *weekday = (unsigned)wd;
}

int64_t week_days_from_real_ns(int64_t real_ns)
{
    return floor_div(real_ns, (int64_t)86400 * 1000000000);
}

char *week_format_period(int64_t real_ns, bool by_week, char *out, size_t size)
{
    int64_t days = week_days_from_real_ns(real_ns), y;
    unsigned a, b;
    if (by_week) {
        week_iso_from_days(days, &y, &a, &b);
        snprintf(out, size, "%04" PRId64 "-W%02u", y, a);
    } else {
        week_civil_from_days(days, &y, &a, &b);
        snprintf(out, size, "%04" PRId64 "-%02u-%02u", y, a, b);
    }
    return out;
}
