/* SPDX-License-Identifier: MIT */
/* demo: list the containers of a Docker /containers/json answer, `docker ps`
 * style, with the library: one parse, five compiled paths fetched from each
 * container in one pass over its members (jdoc_fetch_many). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "jdoc.h"

enum { NCOL = 5, HEAD = 10, TAIL = 3, RUNS = 5 };

/* Relative Oj paths, fetched from each container object. */
static const char *const columns[NCOL] = { "Id", "Names/1", "Image", "State", "Labels/com.docker.compose.service" };
static const char *const titles[NCOL] = { "CONTAINER ID", "NAME", "IMAGE", "STATE", "SERVICE" };

typedef struct cell {
    const char *s;
    size_t len;
} cell;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
    } while (r > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* Parse and fetch every column of every container; the cells point into the
 * input or the parser's scratch memory (valid until the next parse). Returns
 * the number of containers, or -1 after printing an error. */
static long run(jdoc_parser *p, const char *json, size_t len, jdoc_path *const *paths, cell **rows, size_t *cap,
                double *t_parse, double *t_fetch)
{
    double t0 = now_ns();
    jdoc_doc *doc;
    if (jdoc_parse(p, json, len, &doc) != JDOC_OK) {
        const jdoc_error *e = jdoc_last_error(p);
        fprintf(stderr, "demo: not JSON: %s at byte %zu\n", e->message, e->offset);
        return -1;
    }
    double t1 = now_ns();
    jdoc_iter it;
    if (jdoc_iter_init(jdoc_root(doc), &it) != JDOC_OK) {
        fprintf(stderr, "demo: expected an array of containers\n");
        return -1;
    }
    long n = 0;
    jdoc_value c;
    while (jdoc_iter_next(&it, &c)) {
        if ((size_t)n == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            cell *nr = realloc(*rows, *cap * NCOL * sizeof **rows);
            if (!nr) {
                fprintf(stderr, "demo: out of memory\n");
                return -1;
            }
            *rows = nr;
        }
        jdoc_value v[NCOL];
        jdoc_status st[NCOL];
        jdoc_fetch_many(c, (const jdoc_path *const *)paths, NCOL, v, st);
        cell *row = *rows + (size_t)n * NCOL;
        for (int k = 0; k < NCOL; k++) {
            /* a container without compose labels has no service: "-" */
            if (st[k] != JDOC_OK || jdoc_get_string(v[k], &row[k].s, &row[k].len) != JDOC_OK) {
                row[k].s = "-";
                row[k].len = 1;
            }
        }
        n++;
    }
    if (it.status != JDOC_OK) {
        fprintf(stderr, "demo: malformed container list: %s\n", jdoc_status_str(it.status));
        return -1;
    }
    double t2 = now_ns();
    *t_parse = t1 - t0;
    *t_fetch = t2 - t1;
    return n;
}

static void print_row(const cell *row, const int *w)
{
    for (int k = 0; k < NCOL; k++) {
        const char *s = row[k].s;
        int len = (int)row[k].len;
        if (k == 0 && len > 12)
            len = 12;   /* short ids, as docker ps prints them */
        if (k == 1 && len > 0 && s[0] == '/') {
            s++;   /* names without their slash */
            len--;
        }
        printf("%-*.*s%s", k == NCOL - 1 ? 0 : w[k], len, s, k == NCOL - 1 ? "\n" : "  ");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: jdoc_demo CONTAINERS.json\n");
        return 2;
    }
    size_t len;
    char *json = read_file(argv[1], &len);
    if (!json) {
        perror(argv[1]);
        return 2;
    }
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_path *paths[NCOL];
    for (int k = 0; k < NCOL; k++)
        paths[k] = jdoc_path_compile(columns[k], strlen(columns[k]), JDOC_SYNTAX_OJ, NULL);
    if (!p || !paths[NCOL - 1]) {
        fprintf(stderr, "demo: out of memory\n");
        return 2;
    }

    /* the same work RUNS times; the fastest run is reported (the first one
     * also pays for page faults and for growing the parser's buffers) */
    cell *rows = NULL;
    size_t cap = 0;
    double best_parse = 0, best_fetch = 0, first_total = 0;
    long n = 0;
    for (int r = 0; r < RUNS; r++) {
        double tp, tf;
        n = run(p, json, len, paths, &rows, &cap, &tp, &tf);
        if (n < 0)
            return 1;
        if (r == 0)
            first_total = tp + tf;
        if (r == 0 || tp + tf < best_parse + best_fetch) {
            best_parse = tp;
            best_fetch = tf;
        }
    }

    int w[NCOL];
    for (int k = 0; k < NCOL; k++)
        w[k] = (int)strlen(titles[k]);
    for (long i = 0; i < n; i++) {
        if (i >= HEAD && i < n - TAIL)
            continue;
        for (int k = 0; k < NCOL; k++) {
            int l = (int)rows[i * NCOL + k].len - (k == 1);
            if (k == 0 && l > 12)
                l = 12;
            if (l > w[k])
                w[k] = l;
        }
    }
    for (int k = 0; k < NCOL; k++)
        printf("%-*s%s", k == NCOL - 1 ? 0 : w[k], titles[k], k == NCOL - 1 ? "\n" : "  ");
    for (long i = 0; i < n; i++) {
        if (i == HEAD && n > HEAD + TAIL)
            printf("... %ld more ...\n", n - HEAD - TAIL);
        if (i < HEAD || i >= n - TAIL)
            print_row(rows + i * NCOL, w);
    }

    long running = 0, compose = 0;
    for (long i = 0; i < n; i++) {
        running += rows[i * NCOL + 3].len == 7 && !memcmp(rows[i * NCOL + 3].s, "running", 7);
        compose += rows[i * NCOL + 4].s[0] != '-' || rows[i * NCOL + 4].len != 1;
    }
    printf("\n%ld containers (%ld running, %ld from compose) in %zu bytes, kernel %s\n", n, running, compose, len,
           jdoc_kernel_name(p));
    printf("parse %.1f us + fetch %d fields x %ld containers %.1f us = %.1f us (%.0f ns per container)\n",
           best_parse / 1e3, NCOL, n, best_fetch / 1e3, (best_parse + best_fetch) / 1e3,
           n ? (best_parse + best_fetch) / (double)n : 0.0);
    printf("fastest of %d runs; the first took %.1f us\n", RUNS, first_total / 1e3);

    for (int k = 0; k < NCOL; k++)
        jdoc_path_free(paths[k]);
    jdoc_parser_free(p);
    free(rows);
    free(json);
    return 0;
}
