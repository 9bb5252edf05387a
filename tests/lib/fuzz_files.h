/* fuzz_files.h: the fuzz inputs as test data. Differential tests (a fast
 * path against the code it stands in for) run over every file the fuzzers
 * kept: TT_FUZZ_DIR/{corpus,crashes}/<target>/<file>, all targets. */
#ifndef TT_TEST_FUZZ_FILES_H
#define TT_TEST_FUZZ_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Reads the whole file into a malloc'd, NUL-terminated buffer and sets *n;
 * NULL (and *n = 0) when it cannot be read. */
static char *test_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long size;
    *n = 0;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size + 1)) &&
        fread(data, 1, (size_t)size, f) == (size_t)size) {
        data[size] = '\0';
        *n = (size_t)size;
    } else {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

/* Calls fn with the path of every regular file one level under dir's
 * subdirectories (dir/<target>/<file>), or directly in dir when depth is
 * 0; names starting with '.' are skipped. Returns how many files. */
static unsigned long fuzz_files_walk(const char *dir, int depth,
                                     void (*fn)(const char *path))
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    unsigned long count = 0;
    if (!dp)
        return 0;
    while ((e = readdir(dp)) != NULL) {
        char path[1024];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth > 0) {
            count += fuzz_files_walk(path, depth - 1, fn);
        } else if (S_ISREG(st.st_mode) && depth == 0) {
            fn(path);
            count++;
        }
    }
    closedir(dp);
    return count;
}

/* Calls fn with every corpus and crash file of every fuzz target; returns
 * how many. */
static unsigned long fuzz_files_each(void (*fn)(const char *path))
{
    return fuzz_files_walk(TT_FUZZ_DIR "/corpus", 1, fn) +
           fuzz_files_walk(TT_FUZZ_DIR "/crashes", 1, fn);
}

#endif
