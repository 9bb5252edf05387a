/* out_error_test: the sentence for an output file that cannot be written
 * (common/out_error.c), for each errno it names, on real paths in a
 * scratch directory; and trace_open_error after a real trace_writer_open. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "out_error.h"
#include "trace.h"

static char buf[OUT_ERROR_SIZE];

/* Checks out_error(path, err) against want. */
static void says(const char *path, int err, const char *want)
{
    out_error(buf, sizeof buf, path, err);
    CHECK_MSG(strcmp(buf, want) == 0, "%s errno %d: got '%s', want '%s'", path,
              err, buf, want);
}

int main(void)
{
    char dir[] = "/tmp/out_error_test.XXXXXX", path[700], want[1600];
    char file[64];
    struct trace_writer *w = NULL;
    int rc;
    FILE *f;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(file, sizeof file, "%s/file", dir);
    CHECK((f = fopen(file, "w")) != NULL);
    if (f)
        fclose(f);

    /* a directory that is not there, at one or two levels */
    snprintf(path, sizeof path, "%s/nodir/x.ttrace", dir);
    snprintf(want, sizeof want,
             "cannot write %s: its directory %s/nodir does not exist", path,
             dir);
    says(path, ENOENT, want);
    snprintf(path, sizeof path, "%s/no/dir/x.ttrace", dir);
    snprintf(want, sizeof want,
             "cannot write %s: its directory %s/no/dir does not exist", path,
             dir);
    says(path, ENOENT, want);
    /* "a//b": the directory is "a" */
    snprintf(path, sizeof path, "%s/nodir//x", dir);
    snprintf(want, sizeof want,
             "cannot write %s: its directory %s/nodir does not exist", path,
             dir);
    says(path, ENOENT, want);
    /* ENOENT in a directory that exists (a dangling symlink): the errno */
    snprintf(path, sizeof path, "%s/x", dir);
    snprintf(want, sizeof want, "cannot write %s: %s", path, strerror(ENOENT));
    says(path, ENOENT, want);

    /* a file where a directory should be, itself or further up */
    snprintf(path, sizeof path, "%s/x.ttrace", file);
    snprintf(want, sizeof want, "cannot write %s: %s is not a directory", path,
             file);
    says(path, ENOTDIR, want);
    snprintf(path, sizeof path, "%s/a/b/x.ttrace", file);
    snprintf(want, sizeof want, "cannot write %s: %s is not a directory", path,
             file);
    says(path, ENOTDIR, want);

    /* permission: on the file when it exists, else in its directory */
    snprintf(want, sizeof want, "cannot write %s: permission denied", file);
    says(file, EACCES, want);
    says(file, EPERM, want);
    snprintf(path, sizeof path, "%s/new", dir);
    snprintf(want, sizeof want,
             "cannot write %s: permission denied in its directory %s", path,
             dir);
    says(path, EACCES, want);

    snprintf(want, sizeof want, "cannot write %s: it is a directory", dir);
    says(dir, EISDIR, want);
    snprintf(want, sizeof want,
             "%s exists; use --force to overwrite it or -o to pick another "
             "name",
             file);
    says(file, EEXIST, want);
    snprintf(want, sizeof want, "cannot write %s: %s", file, strerror(ENOSPC));
    says(file, ENOSPC, want);
    /* a bare name's directory is "." (this test runs in a directory that
     * exists, so ENOENT there is the errno's own text) */
    says("x.ttrace", ENOENT,
         "cannot write x.ttrace: No such file or directory");
    says("/nodir_out_error_test", EACCES,
         "cannot write /nodir_out_error_test: permission denied in its "
         "directory /");
    /* a sentence longer than the buffer is cut, not overrun */
    out_error(buf, 16, file, ENOSPC);
    CHECK(strlen(buf) == 15);

    /* trace_open_error after a real open: the errno's meaning, never
     * "input/output error" in front of it */
    snprintf(path, sizeof path, "%s/nodir/x.ttrace", dir);
    errno = 0;
    rc = trace_writer_open(path, false, &w);
    CHECK(rc == TRACE_E_IO);
    trace_open_error(buf, sizeof buf, path, rc, errno);
    snprintf(want, sizeof want,
             "cannot write %s: its directory %s/nodir does not exist", path,
             dir);
    CHECK_MSG(strcmp(buf, want) == 0, "got '%s'", buf);
    rc = trace_writer_open(file, false, &w);
    CHECK(rc == TRACE_E_EXISTS);
    trace_open_error(buf, sizeof buf, file, rc, 0);
    CHECK_MSG(strstr(buf, "exists; use --force") != NULL, "got '%s'", buf);
    trace_open_error(buf, sizeof buf, file, TRACE_E_NOMEM, ENOENT);
    snprintf(want, sizeof want, "cannot write %s: out of memory", file);
    CHECK_MSG(strcmp(buf, want) == 0, "got '%s'", buf);

    unlink(file);
    rmdir(dir);
    return CHECK_DONE();
}
