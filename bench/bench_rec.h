/* SPDX-License-Identifier: MIT */
/* Value recorder shared by jdoc (C) and the simdjson peer (C++): every value a
 * workload reads goes through it, so the implementations can be checked equal. */
#ifndef JDOC_BENCH_REC_H
#define JDOC_BENCH_REC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Light mode (full == 0, used while timing): each value costs a few integer
 * operations folded into `sum`, the same for every implementation. Full mode
 * (the check before timing) also appends each value to `buf`, so two runs can
 * be compared value by value. */
typedef struct bench_rec {
    uint64_t sum;   /* order-dependent digest of the values since reset */
    size_t items;   /* values recorded since reset (missing ones included) */
    int full;
    int oom;        /* full mode ran out of memory: the comparison fails */
    unsigned char *buf;
    size_t len, cap;
} bench_rec;

/* Item kinds in `buf`: 'm' missing (not found, wrong type, or any read error),
 * 's' string (u32 length + bytes), 'i' int64, 'u' uint64, 'd' double (its
 * bits), 'b' bool (one byte). */
void bench_rec_put(bench_rec *r, int kind, const void *data, size_t n);
void bench_rec_free(bench_rec *r);
/* 1 when a and b recorded the same values with the same digest (both in full mode). */
int bench_rec_equal(const bench_rec *a, const bench_rec *b);
/* 0 when a and b hold the same values. Else the index of the first item that
 * differs (or the shorter count) and both values as text (cap bytes each). */
int bench_rec_compare(const bench_rec *a, const bench_rec *b, size_t *item, char *va, char *vb, size_t cap);

static inline void bench_rec_reset(bench_rec *r)
{
    r->sum = 0;
    r->items = 0;
    r->len = 0;
}

static inline void bench_rec_mix(bench_rec *r, uint64_t x)
{
    r->items++;
    r->sum = (r->sum ^ x) * 0x100000001b3ull;
}

static inline void bench_rec_missing(bench_rec *r)
{
    bench_rec_mix(r, 0x6d);
    if (r->full)
        bench_rec_put(r, 'm', NULL, 0);
}

/* Strings: length and first/last bytes in light mode (reading every byte
 * would add the same memcmp-like cost to everyone; the full check compares all). */
static inline void bench_rec_str(bench_rec *r, const char *s, size_t n)
{
    uint64_t x = (uint64_t)n << 16;
    if (n)
        x += (unsigned char)s[0] + ((uint64_t)(unsigned char)s[n - 1] << 8);
    bench_rec_mix(r, x);
    if (r->full)
        bench_rec_put(r, 's', s, n);
}

static inline void bench_rec_i64(bench_rec *r, int64_t v)
{
    bench_rec_mix(r, (uint64_t)v);
    if (r->full)
        bench_rec_put(r, 'i', &v, sizeof v);
}

static inline void bench_rec_u64(bench_rec *r, uint64_t v)
{
    bench_rec_mix(r, v);
    if (r->full)
        bench_rec_put(r, 'u', &v, sizeof v);
}

static inline void bench_rec_f64(bench_rec *r, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bench_rec_mix(r, bits);
    if (r->full)
        bench_rec_put(r, 'd', &bits, sizeof bits);
}

static inline void bench_rec_bool(bench_rec *r, int v)
{
    unsigned char b = v != 0;
    bench_rec_mix(r, 2u + b);
    if (r->full)
        bench_rec_put(r, 'b', &b, 1);
}

#ifdef __cplusplus
}
#endif
#endif /* JDOC_BENCH_REC_H */
