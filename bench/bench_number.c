/* SPDX-License-Identifier: MIT */
/* Microbenchmark of jdoc__num_parse / jdoc__num_classify on typical JSON numbers.
 * cc -std=c11 -O2 -Iinclude -Isrc src/stage2/number.c bench/bench_number.c -lm -o /tmp/bench_number */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stage2/number.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Each set: many different numbers of one kind, separated by ',' in one buffer. */
static char *make_set(int kind, size_t count, size_t *len, size_t **offs)
{
    char *buf = malloc(count * 32 + 1);
    size_t *o = malloc(count * sizeof *o);
    size_t p = 0;
    unsigned long long x = 88172645463325252ull;
    for (size_t i = 0; i < count; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        o[i] = p;
        switch (kind) {
        case 0: p += (size_t)sprintf(buf + p, "%llu", x % 1000); break;            /* small int */
        case 1: p += (size_t)sprintf(buf + p, "%llu", 500000000000000000ull + x % 100000000000000000ull); break; /* twitter id */
        case 2: p += (size_t)sprintf(buf + p, "%.17g", (double)(x % 36000000) / 100000.0 - 180.0); break; /* coordinate */
        case 3: p += (size_t)sprintf(buf + p, "%llu.%02llu", x % 1000, (x >> 20) % 100); break; /* price */
        case 4: p += (size_t)sprintf(buf + p, "%.6e", (double)(x >> 11) * 0x1p-53 * 1e10); break; /* exponent */
        default: p += (size_t)sprintf(buf + p, "%.17g", (double)(x >> 11) * 0x1p-53); break; /* [0,1) 17 digits */
        }
        buf[p++] = ',';
    }
    *len = p;
    *offs = o;
    return buf;
}

int main(void)
{
    static const char *names[] = {"small int (0..999)", "twitter id (18 digits)", "coordinate %.17g",
                                  "price 123.45", "1.234567e+09 style", "random [0,1) %.17g"};
    const size_t count = 1 << 16;
    const int reps = 10;
    for (int k = 0; k < 6; k++) {
        size_t len, *offs;
        char *buf = make_set(k, count, &len, &offs);
        double sink = 0;
        size_t lsink = 0;
        double best_p = 1e9, best_c = 1e9, best_s = 1e9;
        for (int r = 0; r < 40; r++) { /* min over runs: the machine is shared */
            double t0 = now();
            for (int rep = 0; rep < reps; rep++)
                for (size_t i = 0; i < count; i++) {
                    jdoc_num n;
                    jdoc__num_parse(buf + offs[i], len - offs[i], &n, NULL);
                    sink += n.d;
                }
            double t1 = now();
            for (int rep = 0; rep < reps; rep++)
                for (size_t i = 0; i < count; i++) {
                    jdoc_num n;
                    jdoc__num_classify(buf + offs[i], len - offs[i], &n, NULL);
                    lsink += n.len + (size_t)n.type;
                }
            double t2 = now();
            for (size_t i = 0; i < count; i++) /* baseline: glibc strtod, one pass */
                sink += strtod(buf + offs[i], NULL);
            double t3 = now();
            if ((t3 - t2) / (double)count * 1e9 < best_s)
                best_s = (t3 - t2) / (double)count * 1e9;
            double tp = (t1 - t0) / (reps * (double)count) * 1e9, tc = (t2 - t1) / (reps * (double)count) * 1e9;
            if (tp < best_p)
                best_p = tp;
            if (tc < best_c)
                best_c = tc;
        }
        char ex[40];
        size_t e = offs[1] - offs[0] - 1;
        memcpy(ex, buf, e);
        ex[e] = 0;
        printf("%-24s e.g. %-20s parse %5.1f ns  classify %5.1f ns  strtod %5.1f ns (%d)\n", names[k], ex,
               best_p, best_c, best_s, (sink > 0) + (int)(lsink % 2));
        free(buf);
        free(offs);
    }
    return 0;
}
