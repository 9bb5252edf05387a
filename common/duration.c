/* duration: parses "500us", "120ms", "2s", "1.5m" into one unit. */
#include "duration.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *suffix;
    double ns; /* an integer: every ratio of two units is exact */
} units[] = {
    [DURATION_NONE] = {"", 0},    [DURATION_NS] = {"ns", 1},
    [DURATION_US] = {"us", 1e3},  [DURATION_MS] = {"ms", 1e6},
    [DURATION_S] = {"s", 1e9},    [DURATION_M] = {"m", 60e9},
    [DURATION_H] = {"h", 3600e9},
};

#define N_UNITS (sizeof(units) / sizeof(*units))

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Returns the end of the NUMBER at the start of s, or s when there is none. */
static const char *number_end(const char *s)
{
    const char *p = s;
    size_t digits = 0;
    for (; is_digit(*p); p++)
        digits++;
    if (*p == '.')
        for (p++; is_digit(*p); p++)
            digits++;
    if (digits == 0)
        return s;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (is_digit(*q)) {
            while (is_digit(*q))
                q++;
            p = q;
        }
    }
    return p;
}

int duration_parse(const char *s, enum duration_unit bare,
                   enum duration_unit out_unit, double *out)
{
    const char *end;
    char *strtod_end;
    enum duration_unit unit = DURATION_NONE;
    double v, r;

    if (!s || (unsigned)bare >= N_UNITS || out_unit == DURATION_NONE ||
        (unsigned)out_unit >= N_UNITS)
        return -1;
    end = number_end(s);
    if (end == s)
        return -1;
    errno = 0;
    v = strtod(s, &strtod_end);
    if (strtod_end != end || errno == ERANGE || !isfinite(v))
        return -1;
    if (*end == '\0') {
        if (bare == DURATION_NONE && v != 0)
            return -1; /* a bare number needs a unit here, except 0 */
        unit = bare == DURATION_NONE ? out_unit : bare;
    } else {
        for (size_t i = 1; i < N_UNITS; i++)
            if (strcmp(end, units[i].suffix) == 0)
                unit = (enum duration_unit)i;
        if (unit == DURATION_NONE)
            return -1;
    }
    /* scale by an exact integer: multiply up or divide down */
    if (unit >= out_unit)
        r = v * (units[unit].ns / units[out_unit].ns);
    else
        r = v / (units[out_unit].ns / units[unit].ns);
    if (!isfinite(r))
        return -1;
    *out = r;
    return 0;
}
