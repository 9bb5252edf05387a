/* trace_util: what readers and writers of traces both need: the text of the
 * trace module's error codes (and of a trace that cannot be written) and
 * header lookup in a result (trace.h). */
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "out_error.h"

const char *trace_strerror(int err)
{
    switch (err) {
    case TRACE_OK:
        return "success";
    case TRACE_E_IO:
        return "input/output error";
    case TRACE_E_EXISTS:
        return "file exists (use --force to overwrite)";
    case TRACE_E_NOMEM:
        return "out of memory";
    case TRACE_E_TRUNCATED:
        return "record truncated (the tail was cut)";
    case TRACE_E_MALFORMED:
        return "malformed record";
    case TRACE_E_TOO_LARGE:
        return "record larger than allowed";
    case TRACE_E_VERSION:
        return "unsupported (newer) trace format version";
    case TRACE_E_NOT_TRACE:
        return "not a tokentrace file";
    case TRACE_E_CHECKSUM:
        return "record checksum mismatch (its bytes changed after writing)";
    default:
        return "unknown error";
    }
}

const char *trace_io_strerror(int rc, int err)
{
    return rc == TRACE_E_IO && err ? strerror(err) : trace_strerror(rc);
}

const char *trace_open_error(char *buf, size_t len, const char *path, int rc,
                             int err)
{
    if (rc == TRACE_E_EXISTS)
        return out_error(buf, len, path, EEXIST);
    if (rc == TRACE_E_IO && err)
        return out_error(buf, len, path, err);
    snprintf(buf, len, "cannot write %s: %s", path, trace_strerror(rc));
    return buf;
}

const char *trace_result_header(const struct trace_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_headers; i++)
        if (r->headers[i].key && strcasecmp(r->headers[i].key, name) == 0)
            return r->headers[i].value;
    return NULL;
}
