/* SPDX-License-Identifier: MIT */
/* Value recorder shared by jdoc's side (C) and the simdjson peer (C++): every
 * value a workload reads goes through it, so implementations can be checked equal. */
#ifndef JDOC_BENCH_REC_H
#define JDOC_BENCH_REC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Light mode (full == 0, while timing): a value costs a few integer operations
 * folded into `sum`, the same for everyone. Full mode (the check before timing)
 * also appends each value to `buf`: kind byte ('m' missing, 's' u32 length +
 * bytes, 'i' int64, 'u' uint64, 'd' double bits, 'b' one byte) and payload. */
typedef struct bench_rec {
    uint64_t sum;
    size_t items;
    int full, oom;
    unsigned char *buf;
    size_t len, cap;
} bench_rec;

void bench_rec_put(bench_rec *r, int kind, const void *data, size_t n); /* runner.c */

static inline void bench_rec_mix(bench_rec *r, int kind, uint64_t x, const void *data, size_t n)
{
    r->items++;
    r->sum = (r->sum ^ x) * 0x100000001b3ull;
    if (r->full)
        bench_rec_put(r, kind, data, n);
}
static inline void bench_rec_missing(bench_rec *r) { bench_rec_mix(r, 'm', 0x6d, NULL, 0); }
/* Strings: length and first/last bytes in light mode; the full check compares all. */
static inline void bench_rec_str(bench_rec *r, const char *s, size_t n)
{
    uint64_t x = (uint64_t)n << 16;
    if (n)
        x += (unsigned char)s[0] + ((uint64_t)(unsigned char)s[n - 1] << 8);
    bench_rec_mix(r, 's', x, s, n);
}
static inline void bench_rec_i64(bench_rec *r, int64_t v) { bench_rec_mix(r, 'i', (uint64_t)v, &v, 8); }
static inline void bench_rec_u64(bench_rec *r, uint64_t v) { bench_rec_mix(r, 'u', v, &v, 8); }
static inline void bench_rec_f64(bench_rec *r, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    bench_rec_mix(r, 'd', bits, &bits, 8);
}
static inline void bench_rec_bool(bench_rec *r, int v)
{
    unsigned char b = v != 0;
    bench_rec_mix(r, 'b', 2u + b, &b, 1);
}

#ifdef __cplusplus
}
#endif
#endif
