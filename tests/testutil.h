/* SPDX-License-Identifier: MIT */
/* Helpers shared by the Criterion tests: corpus files, exact-size copies, kernels,
 * skips. The skip helpers need <criterion/criterion.h> first. */
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

#ifdef CRITERION_H_
/* Skips that show. `make test` ends with a summary of everything skipped:
 * the tests that called cr_skip_test (from Criterion's TAP reports) and the
 * notes below, appended to the file named by JDOC_SKIP_LOG (one line each:
 * "kind<TAB>what<TAB>test"). */
static inline void tu_note(const char *kind, const char *what)
{
    const char *log = getenv("JDOC_SKIP_LOG");
    FILE *f = log && *log ? fopen(log, "a") : NULL;
    if (!f)
        return;
    const struct criterion_test *t = criterion_current_test;
    fprintf(f, "%s\t%s\t%s::%s\n", kind, what, t ? t->category : "?", t ? t->name : "?");
    fclose(f);
}

/* A test that loops over the kernels and leaves out one compiled in says so
 * (the other architecture's kernels are not compiled: check-arm64 runs those). */
static inline void tu_note_kernel_skip(jdoc_kernel_id k)
{
    if (jdoc_kernel_compiled(k))
        tu_note("kernel", jdoc_kernel_id_name(k));
}

/* CI always has the corpus: there, its absence fails the test instead of
 * skipping it. */
static inline bool tu_ci(void)
{
    const char *c = getenv("CI");
    return c && strcmp(c, "true") == 0;
}
#define TU_REQUIRE_CORPUS()                                                                       \
    do {                                                                                          \
        if (!tu_corpus_present()) {                                                               \
            if (tu_ci())                                                                          \
                cr_assert_fail("../shared/corpus not present, and CI=true: CI must provide it"); \
            cr_skip_test("../shared/corpus not present");                                         \
        }                                                                                         \
    } while (0)
#endif

static inline jdoc_parser *tu_parser(jdoc_kernel_id k)
{
    jdoc_options o = { .kernel = k };
    return jdoc_parser_new(&o);
}

/* Deterministic PRNG (xorshift64*). */
/* `depth` arrays nested around a 1 ("[[...[1]...]]", *n bytes, malloc'd), and a
 * parser whose depth limit lets it through (max_depth = limit). */
static inline char *tu_deep_nest(size_t depth, size_t *n, uint32_t limit, jdoc_parser **p)
{
    *n = 2 * depth + 1;
    char *doc = malloc(*n);
    if (!doc)
        abort();
    memset(doc, '[', depth);
    doc[depth] = '1';
    memset(doc + depth + 1, ']', depth);
    jdoc_options o = { .max_depth = limit };
    *p = jdoc_parser_new(&o);
    return doc;
}

/* A JSON array of Docker-like objects, one a line, about `bytes` long
 * (malloc'd; its length in *len). */
static inline char *tu_object_lines(size_t bytes, size_t *len)
{
    char *b = malloc(bytes + 2);
    if (!b)
        abort();
    size_t n = (size_t)snprintf(b, bytes, "[");
    for (int i = 0; n + 256 < bytes; i++)
        n += (size_t)snprintf(b + n, bytes - n, "%s{\"Id\":\"%08x\",\"Names\":[\"/web-%d\"],\"n\":%d,\"Labels\":{}}",
                              i ? ",\n " : "", (unsigned)(i * 2654435761u), i, i);
    n += (size_t)snprintf(b + n, bytes - n, "]");
    *len = n;
    return b;
}

static inline uint64_t tu_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}
#endif
