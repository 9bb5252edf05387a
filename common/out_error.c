/* out_error: the one sentence for an output file that cannot be written
 * (out_error.h). */
#include "out_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"

/* Copies path's directory into dir (size len): "." for a bare name, "/"
 * for a name right under the root. */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    size_t n;
    if (!slash) {
        snprintf(dir, len, ".");
        return;
    }
    n = (size_t)(slash - path);
    while (n > 0 && path[n - 1] == '/') /* "a//b" */
        n--;
    if (n == 0) {
        snprintf(dir, len, "/");
        return;
    }
    snprintf(dir, len, "%.*s", (int)n, path);
}

/* Cuts dir back to its deepest part that exists (stat succeeds); "" when
 * none does. */
static void deepest_existing(char *dir)
{
    struct stat st;
    while (dir[0] && stat(dir, &st) != 0) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            dir[0] = '\0';
        else if (slash == dir)
            dir[1] = '\0'; /* "/" */
        else
            *slash = '\0';
    }
}

const char *out_error(char *buf, size_t len, const char *path, int err)
{
    char dir[4096];
    struct stat st;
    dir_of(path, dir, sizeof dir);
    switch (err) {
    case EEXIST:
        snprintf(buf, len,
                 "%s exists; use --force to overwrite it or -o to pick "
                 "another name",
                 path);
        return buf;
    case ENOENT:
        if (stat(dir, &st) != 0) {
            snprintf(buf, len,
                     "cannot write %s: its directory %s does not exist", path,
                     dir);
            return buf;
        }
        break;
    case ENOTDIR:
        deepest_existing(dir);
        if (dir[0] && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            snprintf(buf, len, "cannot write %s: %s is not a directory", path,
                     dir);
            return buf;
        }
        break;
    case EACCES:
    case EPERM:
        if (stat(path, &st) != 0)
            snprintf(buf, len,
                     "cannot write %s: permission denied in its directory %s",
                     path, dir);
        else
            snprintf(buf, len, "cannot write %s: permission denied", path);
        return buf;
    case EISDIR:
        snprintf(buf, len, "cannot write %s: it is a directory", path);
        return buf;
    default:
        break;
    }
    snprintf(buf, len, "cannot write %s: %s", path,
             err ? strerror(err) : "unknown error");
    return buf;
}

void out_error_log(const char *path, int err)
{
    char buf[OUT_ERROR_SIZE];
    log_error("%s", out_error(buf, sizeof buf, path, err));
}
