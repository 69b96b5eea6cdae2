/* SPDX-License-Identifier: MIT */
/*
 * Standalone benchmark of live input (not part of the bench binary: it has
 * its own main). Build and run:
 *   make lib && cc -O2 -Iinclude bench/bench_feed.c build/libjdoc.a -o build/bench_feed
 *   build/gen_docker events 100000 > /tmp/events.ndjson
 *   taskset -c 1 build/bench_feed /tmp/events.ndjson ../shared/corpus/standard/twitter.json
 * 1. Events per second, one field per event: jdoc_stream_begin on the whole
 *    buffer against jdoc_feed in pieces of 4 KiB and 64 KiB (slices of the
 *    same buffer, as a read(2) loop hands them over).
 *    The same events with one line in 100, then one in 10, damaged (a
 *    control character in its first string): the stream's time against the
 *    intact one's, whole and in 4 KiB pieces.
 * 2. A document of about 20 MB (the second file repeated in an array) in
 *    64 KiB pieces through jdoc_parse_more: the time of jdoc_parse_end after
 *    the last piece, and of all the calls, as shares of one jdoc_parse; and
 *    jdoc_parse of that document with a control character in its last string
 *    (the time to the error, as a share of the intact parse).
 * Medians of repeated runs, thread CPU time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "jdoc.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static size_t sum;   /* keeps the fetches */

static size_t use(jdoc_doc *d, const jdoc_path *path)
{
    jdoc_value v;
    const char *s;
    size_t l;
    if (jdoc_fetch_path(jdoc_root(d), path, &v) == JDOC_OK && jdoc_get_string(v, &s, &l) == JDOC_OK)
        sum += l + (size_t)s[0];
    return 1;
}

static size_t run_whole(jdoc_parser *p, const char *b, size_t len, const jdoc_path *path)
{
    jdoc_doc *d;
    jdoc_status st;
    size_t n = 0;
    jdoc_stream_begin(p, b, len);
    while (jdoc_stream_next(p, &d, &st))
        n += st == JDOC_OK ? use(d, path) : 0;
    return n;
}

static size_t run_fed(jdoc_parser *p, const char *b, size_t len, size_t piece, const jdoc_path *path)
{
    jdoc_doc *d;
    jdoc_status st;
    size_t n = 0;
    jdoc_feed_begin(p);
    for (size_t pos = 0; pos < len; pos += piece) {
        jdoc_feed(p, b + pos, len - pos < piece ? len - pos : piece);
        while (jdoc_feed_next(p, &d, &st))
            n += st == JDOC_OK ? use(d, path) : 0;
    }
    jdoc_feed_close(p);
    while (jdoc_feed_next(p, &d, &st))
        n += st == JDOC_OK ? use(d, path) : 0;
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_feed EVENTS.ndjson DOC.json [reps]\n");
        return 2;
    }
    int reps = argc > 3 ? atoi(argv[3]) : 15;
    if (reps < 1 || reps > 101)
        reps = 15;
    size_t elen, dlen;
    char *ev = slurp(argv[1], &elen), *one = slurp(argv[2], &dlen);
    if (!ev || !one) {
        fprintf(stderr, "bench_feed: cannot read the input files\n");
        return 2;
    }
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_path *path = jdoc_path_compile("Action", 6, JDOC_SYNTAX_OJ, NULL);
    printf("kernel %s\n", jdoc_kernel_name(p));

    /* 1. events */
    size_t events = run_whole(p, ev, elen, path);
    const size_t pieces[2] = { 4096, 65536 };
    double t_whole[101], t_fed[2][101];
    for (int r = 0; r < reps; r++) {
        /* interleaved, so that the machine's load falls on all alike */
        double t0 = now();
        size_t n0 = run_whole(p, ev, elen, path);
        double t1 = now();
        size_t n1 = run_fed(p, ev, elen, pieces[0], path);
        double t2 = now();
        size_t n2 = run_fed(p, ev, elen, pieces[1], path);
        double t3 = now();
        if (n0 != events || n1 != events || n2 != events) {
            fprintf(stderr, "bench_feed: %zu/%zu/%zu documents, not %zu\n", n0, n1, n2, events);
            return 1;
        }
        t_whole[r] = t1 - t0;
        t_fed[0][r] = t2 - t1;
        t_fed[1][r] = t3 - t2;
    }
    double w = median(t_whole, reps), f4 = median(t_fed[0], reps), f64 = median(t_fed[1], reps);
    printf("events: %zu in %zu bytes\n", events, elen);
    printf("  jdoc_stream_begin, whole buffer: %6.3f M events/s\n", (double)events / w * 1e-6);
    printf("  jdoc_feed, 4 KiB pieces:         %6.3f M events/s  (%.3fx the time of the whole buffer)\n",
           (double)events / f4 * 1e-6, f4 / w);
    printf("  jdoc_feed, 64 KiB pieces:        %6.3f M events/s  (%.3fx)\n", (double)events / f64 * 1e-6, f64 / w);

    /* 1b. damaged lines: a control character after the first '":"' of every
     * `every`-th line */
    for (int every = 100; every >= 10; every /= 10) {
        char *dm = malloc(elen + elen / (size_t)every + 64);
        size_t dl = 0, line = 0, damaged = 0;
        for (size_t i = 0; i < elen;) {
            const char *nl = memchr(ev + i, '\n', elen - i);
            size_t end = nl ? (size_t)(nl - ev) + 1 : elen;
            const char *q = ++line % (size_t)every ? NULL : strstr(ev + i, "\":\"");
            if (q && (size_t)(q - ev) + 3 < end) {
                size_t at = (size_t)(q - ev) + 3 - i;
                memcpy(dm + dl, ev + i, at);
                dm[dl + at] = '\x01';
                memcpy(dm + dl + at + 1, ev + i + at, end - i - at);
                dl += end - i + 1;
                damaged++;
            } else {
                memcpy(dm + dl, ev + i, end - i);
                dl += end - i;
            }
            i = end;
        }
        double t_dw[101], t_df[101];
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            size_t n0 = run_whole(p, dm, dl, path);
            double t1 = now();
            size_t n1 = run_fed(p, dm, dl, pieces[0], path);
            double t2 = now();
            if (n0 != events - damaged || n1 != n0) {
                fprintf(stderr, "bench_feed: %zu/%zu intact documents, not %zu\n", n0, n1, events - damaged);
                return 1;
            }
            t_dw[r] = t1 - t0;
            t_df[r] = t2 - t1;
        }
        double dw = median(t_dw, reps), df = median(t_df, reps);
        printf("  one line in %3d damaged (%zu): whole %6.3f M events/s (%.3fx the intact stream's time), "
               "4 KiB pieces %.3fx\n",
               every, damaged, (double)events / dw * 1e-6, dw / w, df / w);
        free(dm);
    }

    /* 2. one large document in 64 KiB pieces */
    size_t cap = (20u << 20) + dlen + 16, len = 0;
    char *big = malloc(cap);
    big[len++] = '[';
    while (len + dlen + 2 < 20u << 20) {
        if (len > 1)
            big[len++] = ',';
        memcpy(big + len, one, dlen);
        len += dlen;
    }
    big[len++] = ']';
    jdoc_doc *d;
    if (jdoc_parse(p, big, len, &d) != JDOC_OK) {
        fprintf(stderr, "bench_feed: %s at %zu\n", jdoc_last_error(p)->message, jdoc_last_error(p)->offset);
        return 1;
    }
    double t_parse[101], t_end[101], t_all[101];
    const size_t piece = 65536;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        jdoc_parse(p, big, len, &d);
        double t1 = now();
        jdoc_parse_begin(p);
        size_t have = 0;
        while (len - have > piece) {
            have += piece;
            jdoc_parse_more(p, big, have);
        }
        double t2 = now();
        jdoc_status st = jdoc_parse_end(p, big, len, &d);
        double t3 = now();
        if (st != JDOC_OK || jdoc_count(jdoc_root(d)) == 0) {
            fprintf(stderr, "bench_feed: jdoc_parse_end failed\n");
            return 1;
        }
        t_parse[r] = t1 - t0;
        t_end[r] = t3 - t2;
        t_all[r] = t3 - t1;
    }
    /* the same with a control character in its last string */
    char *last = NULL;
    for (char *q = big; (q = strstr(q, "\": \"")) != NULL && q < big + len; q += 4)
        last = q;
    if (!last) {
        fprintf(stderr, "bench_feed: no string in %s\n", argv[2]);
        return 1;
    }
    char *bad = malloc(len + 1);
    size_t at = (size_t)(last - big) + 4;
    memcpy(bad, big, at);
    bad[at] = '\x01';
    memcpy(bad + at + 1, big + at, len - at);
    double t_err[101];
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        jdoc_status st = jdoc_parse(p, bad, len + 1, &d);
        t_err[r] = now() - t0;
        if (st != JDOC_ERR_SYNTAX || jdoc_last_error(p)->offset != at) {
            fprintf(stderr, "bench_feed: the damaged document gave %s at %zu\n", jdoc_status_str(st),
                    jdoc_last_error(p)->offset);
            return 1;
        }
    }
    free(bad);
    double tp = median(t_parse, reps), te = median(t_end, reps), ta = median(t_all, reps), terr = median(t_err, reps);
    printf("one document of %zu bytes (%s repeated) in 64 KiB pieces:\n", len, argv[2]);
    printf("  jdoc_parse:                       %8.3f ms (%.2f GB/s)\n", tp * 1e3, (double)len / tp * 1e-9);
    printf("  jdoc_parse_end after the last piece: %5.3f ms = %.3fx of jdoc_parse\n", te * 1e3, te / tp);
    printf("  all jdoc_parse_more calls and the end: %.3f ms = %.3fx\n", ta * 1e3, ta / tp);
    printf("  jdoc_parse, a control character in the last string: %.3f ms to the error = %.3fx\n", terr * 1e3,
           terr / tp);
    printf("(checksum %zu)\n", sum);
    jdoc_path_free(path);
    jdoc_parser_free(p);
    free(big);
    free(ev);
    free(one);
    return 0;
}
