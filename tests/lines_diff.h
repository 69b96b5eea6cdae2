/* SPDX-License-Identifier: MIT */
/* A kernel's line count (k->lines) against memchr's (jdoc__lines_ref): every
 * length 0..300 from every start 0..63, the bytes ending right before an
 * unreadable page; shared by test_stage1.c and the arm64 program. */
#ifndef JDOC_LINES_DIFF_H
#define JDOC_LINES_DIFF_H
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"
#include "testutil.h"

static bool lines_generated(const jdoc_kernel *k, char *why, size_t cap)
{
    /* '\n' among bytes that differ from it in one bit or in the high bit */
    static const uint8_t bytes[] = { '\n', '\n', ' ', 'a', 0x8a, 0x0b, 0x2a, 0x1a, 0x0e, 0xff };
    long pg = sysconf(_SC_PAGESIZE);
    uint8_t *m = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m + pg, (size_t)pg, PROT_NONE) != 0) {
        snprintf(why, cap, "mmap");
        return false;
    }
    uint64_t seed = 0x6c696e6573ull;
    bool ok = true;
    for (size_t len = 0; len <= 300 && ok; len++) {
        uint8_t *in = m + pg - len;
        int dense = (int)(len % 3);   /* all newlines, random, none */
        for (size_t i = 0; i < len; i++)
            in[i] = dense == 0 ? '\n' : dense == 1 ? bytes[tu_rand(&seed) % sizeof bytes] : bytes[2 + tu_rand(&seed) % 8];
        for (size_t s = 0; s < 64 && s <= len && ok; s++) {
            size_t got = k->lines(in + s, len - s), want = jdoc__lines_ref((const char *)in + s, len - s);
            if (got != want) {
                snprintf(why, cap, "%s: %zu bytes from %zu: %zu newlines, memchr %zu", k->name, len - s, s, got, want);
                ok = false;
            }
        }
    }
    munmap(m, (size_t)pg * 2);
    /* long runs, all newlines or random: counts per byte lane wrap at 256,
     * so a round of 255 blocks is the most before they are summed */
    static const size_t longs[] = { 254 * 64, 255 * 64, 255 * 64 + 1, 256 * 64, 256 * 64 + 63, 3 * 255 * 64 + 130 };
    size_t pages = (3 * 255 * 64 + 130 + (size_t)pg - 1) / (size_t)pg + 1;
    m = mmap(NULL, (size_t)pg * pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m + (pages - 1) * (size_t)pg, (size_t)pg, PROT_NONE) != 0) {
        snprintf(why, cap, "mmap");
        return false;
    }
    for (size_t j = 0; j < 2 * sizeof longs / sizeof longs[0] && ok; j++) {
        size_t len = longs[j / 2];
        uint8_t *in = m + (pages - 1) * (size_t)pg - len;
        for (size_t i = 0; i < len; i++)
            in[i] = j % 2 == 0 ? '\n' : bytes[tu_rand(&seed) % sizeof bytes];
        size_t got = k->lines(in, len), want = jdoc__lines_ref((const char *)in, len);
        if (got != want) {
            snprintf(why, cap, "%s: %zu bytes (%s): %zu newlines, memchr %zu", k->name, len,
                     j % 2 == 0 ? "all newlines" : "random", got, want);
            ok = false;
        }
    }
    munmap(m, (size_t)pg * pages);
    return ok;
}

#endif
