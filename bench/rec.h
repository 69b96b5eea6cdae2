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
 * also appends a line per value to buf, so two runs compare value by value. */
typedef struct bench_rec {
    uint64_t sum;
    int full;
    char *buf;
    size_t len, cap;
} bench_rec;

/* Append one line (runner.c). */
void bench_rec_line(bench_rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void bench_rec_mix(bench_rec *r, uint64_t x) { r->sum = (r->sum ^ x) * 0x100000001b3ull; }
static inline void bench_rec_missing(bench_rec *r)
{
    bench_rec_mix(r, 0x6d);
    if (r->full)
        bench_rec_line(r, "missing");
}
/* Strings: length and first/last bytes in light mode; all bytes (a hash) in full mode. */
static inline void bench_rec_str(bench_rec *r, const char *s, size_t n)
{
    bench_rec_mix(r, ((uint64_t)n << 16) + (n ? (unsigned char)s[0] + ((uint64_t)(unsigned char)s[n - 1] << 8) : 0));
    if (r->full) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < n; i++)
            h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
        bench_rec_line(r, "string(%zu, hash %016llx) \"%.*s%s\"", n, (unsigned long long)h, n > 60 ? 60 : (int)n, s,
                       n > 60 ? "..." : "");
    }
}
static inline void bench_rec_i64(bench_rec *r, int64_t v)
{
    bench_rec_mix(r, (uint64_t)v);
    if (r->full)
        bench_rec_line(r, "int64 %lld", (long long)v);
}
static inline void bench_rec_u64(bench_rec *r, uint64_t v)
{
    bench_rec_mix(r, v);
    if (r->full)
        bench_rec_line(r, "uint64 %llu", (unsigned long long)v);
}
static inline void bench_rec_f64(bench_rec *r, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    bench_rec_mix(r, bits);
    if (r->full)
        bench_rec_line(r, "double %.17g", v);
}
static inline void bench_rec_bool(bench_rec *r, int v)
{
    bench_rec_mix(r, 2u + (v != 0));
    if (r->full)
        bench_rec_line(r, "bool %s", v ? "true" : "false");
}

#ifdef __cplusplus
}
#endif
#endif
