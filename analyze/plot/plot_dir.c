/* plot_dir: -o DIR made with its parents. */
#include "plot_dir.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"

/* mkdir that takes an existing entry; whether it is a directory is
 * checked once, at the end. */
static int mkdir_once(const char *path)
{
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Creates dir and its parents. Returns 0 or -1 (errno set; EEXIST when
 * dir is there but not a directory, as mkdir -p says). */
static int make_dirs(const char *dir)
{
    char tmp[4096];
    struct stat st;
    size_t len = strlen(dir);
    if (len == 0) {
        errno = ENOENT;
        return -1;
    }
    if (len >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(tmp, dir, len + 1);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir_once(tmp))
                return -1;
            *p = '/';
        }
    if (mkdir_once(tmp) || stat(tmp, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = EEXIST;
        return -1;
    }
    return 0;
}

int plot_dir_make(const char *dir)
{
    if (make_dirs(dir) == 0)
        return 0;
    log_error("%s: cannot create the directory: %s", dir, strerror(errno));
    return 1;
}
