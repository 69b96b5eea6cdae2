/* SPDX-License-Identifier: MIT */
/* Helpers shared by the Criterion tests: corpus files, exact-size copies, kernels. */
#ifndef JDOC_TESTUTIL_H
#define JDOC_TESTUTIL_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "jdoc.h"

#define CORPUS "../shared/corpus"

/* Read a whole file into an exact-size malloc'd buffer (so ASan sees any
 * read past its end). NULL if missing. */
static inline char *tu_read(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return b;
}

static inline bool tu_corpus_present(void)
{
    struct stat st;
    return stat(CORPUS, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Names of the regular files in dir, sorted; NULL-terminated; free with tu_free_list. */
static int tu_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static inline char **tu_list(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n + 2 > cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        v[n] = malloc(l);
        snprintf(v[n], l, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(v, n, sizeof *v, tu_cmp);
    v[n] = NULL;
    return v;
}
static inline void tu_free_list(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}

static inline jdoc_parser *tu_parser(jdoc_kernel_id k)
{
    jdoc_options o = { .kernel = k };
    return jdoc_parser_new(&o);
}

/* Deterministic PRNG (xorshift64*). */
static inline uint64_t tu_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}
#endif
