/* SPDX-License-Identifier: MIT */
/*
 * Microbenchmark of JSONPath queries (standalone: it has its own main(), so
 * the bench runner leaves it out; the runner's "query" workload, with the
 * simdjson On Demand peer, is still to be registered in bench_main.c).
 *
 *   make lib && build/gen_docker list 200 > /tmp/c200.json && build/gen_docker inspect-array 100 > /tmp/i100.json
 *   cc -std=c11 -O2 -Iinclude bench/bench_query.c build/libjdoc.a -lm -o /tmp/bench_query
 *   taskset -c 1 /tmp/bench_query /tmp/c200.json Id Image State
 *   taskset -c 1 /tmp/bench_query /tmp/i100.json Id Image Name
 *
 * For a document that is an array of objects and three member names, it
 * times (thread CPU time, median of 31 samples):
 *   - the hand-written hot loop of this repository: jdoc_iter over the array
 *     and jdoc_fetch_many of the three names, each string decoded;
 *   - the query $[*]['A','B','C'] doing the same work (goal: at most 1.2x);
 *   - $..IPAddress and $..* against stage 1 (jdoc_parse) of the same
 *     document (goal for the descendant query: at most 1.5x the parse).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "jdoc.h"

#define SAMPLES 31

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *s)
{
    qsort(s, SAMPLES, sizeof *s, cmp_d);
    return s[SAMPLES / 2];
}

static volatile size_t sink;

static void use(jdoc_value v)
{
    const char *s;
    size_t n;
    sink += jdoc_get_string(v, &s, &n) == JDOC_OK ? n : 1;
}

static double hand_loop(jdoc_doc *d, char **names, size_t *found)
{
    jdoc_path *ps[3];
    for (int i = 0; i < 3; i++)
        ps[i] = jdoc_path_compile(names[i], strlen(names[i]), JDOC_SYNTAX_OJ, NULL);
    double s[SAMPLES];
    for (int r = 0; r < SAMPLES; r++) {
        double t = now();
        jdoc_iter it;
        jdoc_value c, v[3];
        jdoc_status st[3];
        *found = 0;
        jdoc_iter_init(jdoc_root(d), &it);
        while (jdoc_iter_next(&it, &c)) {
            jdoc_fetch_many(c, (const jdoc_path *const *)ps, 3, v, st);
            for (int i = 0; i < 3; i++)
                if (st[i] == JDOC_OK) {
                    use(v[i]);
                    ++*found;
                }
        }
        s[r] = now() - t;
    }
    for (int i = 0; i < 3; i++)
        jdoc_path_free(ps[i]);
    return median(s);
}

static double query(jdoc_doc *d, const char *text, size_t *nodes)
{
    jdoc_error e;
    jdoc_query *q = jdoc_query_compile(text, strlen(text), NULL, &e);
    if (!q) {
        fprintf(stderr, "%s: %s at %zu\n", text, e.message, e.offset);
        exit(2);
    }
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(d), NULL);
    double s[SAMPLES];
    for (int r = 0; r < SAMPLES; r++) {
        jdoc_query_iter_reset(it, jdoc_root(d));
        double t = now();
        jdoc_value v;
        *nodes = 0;
        while (jdoc_query_iter_next(it, &v)) {
            use(v);
            ++*nodes;
        }
        s[r] = now() - t;
    }
    jdoc_query_iter_free(it);
    jdoc_query_free(q);
    return median(s);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: bench_query FILE.json NAME NAME NAME\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n ? n : 1);
    if (fread(buf, 1, n, f) != n)
        return 2;
    fclose(f);
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d = NULL;
    double s[SAMPLES];
    for (int r = 0; r < SAMPLES; r++) {
        double t = now();
        if (jdoc_parse(p, buf, n, &d) != JDOC_OK)
            return 1;
        s[r] = now() - t;
    }
    double parse = median(s);
    printf("%s: %zu bytes, kernel %s, parse %.1f us\n", argv[1], n, jdoc_kernel_name(p), parse * 1e6);
    size_t k, m;
    double h = hand_loop(d, argv + 2, &k);
    char text[512];
    snprintf(text, sizeof text, "$[*]['%s','%s','%s']", argv[2], argv[3], argv[4]);
    double q = query(d, text, &m);
    printf("hand loop %.1f us (%zu values), %s %.1f us (%zu nodes): %.2fx\n", h * 1e6, k, text, q * 1e6, m, q / h);
    const char *desc[] = { "$..IPAddress", "$..*" };
    for (int i = 0; i < 2; i++) {
        double t = query(d, desc[i], &m);
        printf("%s %.1f us (%zu nodes): %.2fx the parse\n", desc[i], t * 1e6, m, t / parse);
    }
    jdoc_parser_free(p);
    free(buf);
    return 0;
}
