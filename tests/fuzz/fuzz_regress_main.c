/* fuzz_regress_main: turns a libFuzzer target into a plain regression test
 * for builds without libFuzzer. Feeds every regular file of each directory
 * given (the seed corpus, the crashes kept from past fuzzing) to
 * LLVMFuzzerTestOneInput, in name order. A missing directory is skipped; no
 * input at all is a failure (the test would prove nothing). A crashing input
 * aborts the program, which is the failure ctest reports. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

#define REGRESS_MAX_INPUT ((size_t)16 << 20)

/* Reads a whole file (up to REGRESS_MAX_INPUT) into *out. 0 on success. */
static int read_file(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t n = 0, cap = 0;
    if (!f)
        return -1;
    for (;;) {
        size_t got;
        if (n == cap) {
            uint8_t *p;
            cap = cap ? cap * 2 : 4096;
            if (cap > REGRESS_MAX_INPUT + 1 || !(p = realloc(data, cap))) {
                free(data);
                fclose(f);
                return -1;
            }
            data = p;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(data);
        fclose(f);
        return -1;
    }
    fclose(f);
    *out = data;
    *len = n;
    return 0;
}

/* qsort order of file names. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir; adds to *runs. 0, or -1 on a read error. */
static int run_dir(const char *dir, size_t *runs)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    if (!d)
        return 0; /* no crashes kept for this target: nothing to replay */
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*p));
            if (!p) {
                rc = -1;
                break;
            }
            names = p;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof(*names), by_name);
    for (size_t i = 0; i < n && rc == 0; i++) {
        char path[4096];
        struct stat st;
        uint8_t *data;
        size_t len;
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (read_file(path, &data, &len) != 0) {
            fprintf(stderr, "fuzz-regress: cannot read %s\n", path);
            rc = -1;
            break;
        }
        fprintf(stderr, "fuzz-regress: %s (%zu bytes)\n", path, len);
        LLVMFuzzerTestOneInput(data, len);
        free(data);
        (*runs)++;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    size_t runs = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if (run_dir(argv[i], &runs) != 0)
            return 1;
    if (runs == 0) {
        fprintf(stderr, "fuzz-regress: no inputs found\n");
        return 1;
    }
    printf("%s: %zu inputs ran without a crash\n", argv[0], runs);
    return 0;
}
