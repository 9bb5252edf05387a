/* cline_msg: the wording shared by the readers of Cline's settings files
 * (cline_settings.c, cline_store.c). */
#include "cline_msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sanitize.h"

int cline_msg_bad(char *err, size_t errlen, const char *name, int line,
                  const char *key, const char *fmt, ...)
{
    va_list ap;
    int n =
        snprintf(err, errlen, "%s:%d: %s: ", name, line > 0 ? line : 1, key);
    if (n < 0 || (size_t)n >= errlen)
        return CLINE_E_INVALID;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return CLINE_E_INVALID;
}

const char *cline_msg_type(const cJSON *v)
{
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsBool(v))
        return "true/false";
    if (cJSON_IsNull(v))
        return "null";
    if (cJSON_IsArray(v))
        return "an array";
    return "an object";
}

bool cline_msg_shown(const char *v)
{
    size_t n = strlen(v), i;
    if (n > 40 || sanitize_looks_secret(v))
        return false;
    for (i = 0; i < n; i++)
        if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') ||
              (v[i] >= '0' && v[i] <= '9') || v[i] == '-' || v[i] == '_' ||
              v[i] == '.'))
            return false;
    return true;
}

const char *cline_msg_name(const struct cline_settings *cs, const char *leaf,
                           char *b, size_t len)
{
    snprintf(b, len, "%s%s", cs->names.scope, leaf);
    return b;
}
