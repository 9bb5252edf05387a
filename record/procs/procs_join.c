/* procs_join: the part files of --procs joined into one output. */
#include "procs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Appends the file at path to fd. Returns 0 (a missing file is nothing to
 * append), or -1 with errno. */
static int append(int fd, const char *path)
{
    char buf[65536];
    ssize_t n;
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return errno == ENOENT ? 0 : -1;
    while ((n = read(in, buf, sizeof buf)) != 0) {
        ssize_t off = 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            close(in);
            return -1;
        }
        while (off < n) {
            ssize_t w = write(fd, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                close(in);
                return -1;
            }
            off += w;
        }
    }
    close(in);
    return 0;
}

int procs_join(const char *out_name, bool force, char *const *parts, size_t n)
{
    int fd =
        open(out_name,
             O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0644);
    int rc = 0;
    if (fd < 0)
        return -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = append(fd, parts[i]);
    if (close(fd) != 0 && rc == 0)
        rc = -1;
    if (rc == 0)
        for (size_t i = 0; i < n; i++)
            unlink(parts[i]);
    return rc;
}
