/* SPDX-License-Identifier: MIT */
/* Helpers shared by the libFuzzer targets: failing loudly (abort, so libFuzzer
 * saves the input), exact-size copies, a deterministic PRNG seeded by the input. */
#ifndef JDOC_FUZZ_UTIL_H
#define JDOC_FUZZ_UTIL_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jdoc.h"

#define FZ_CHECK(cond, ...)                                                     \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "\n%s:%d: check failed: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* The input in a heap block of exactly n bytes: ASan reports any read past it.
 * (malloc(0) may return NULL; jdoc accepts NULL with length 0.) */
static inline char *fz_copy(const void *data, size_t n)
{
    char *b = malloc(n);
    if (n) {
        if (!b)
            abort();
        memcpy(b, data, n);
    }
    return b;
}

static inline uint64_t fz_hash(const uint8_t *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001b3ull;
    return h | 1;
}

static inline uint64_t fz_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static inline uint64_t fz_dbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Printable excerpt for failure messages. */
static inline const char *fz_show(const char *s, size_t n)
{
    static char out[400];
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < sizeof out; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", c);
    }
    if (o + 8 >= sizeof out)
        memcpy(out + o, "...", 4);
    else
        out[o] = 0;
    return out;
}

#endif
