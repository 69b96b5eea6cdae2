/* SPDX-License-Identifier: MIT */
/* A kernel's stream pair check (k->pairs) against the table-driven reference
 * (jdoc__pairs_bad), and its depth scan (k->depth) against a loop; shared by
 * test_stage1.c and the arm64 program. */
#ifndef JDOC_PAIRS_DIFF_H
#define JDOC_PAIRS_DIFF_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "testutil.h"

typedef struct pairs_count {
    long cases, bad;   /* ranges compared, and how many the reference found bad */
    long depth_cases, depth_seen[3];   /* depth scans compared; how many ended -1, 0, 1 */
    char why[200];     /* the first difference */
} pairs_count;

static const uint8_t pairs_cls[] = { '{', '[', '}', ']', ':', ',', '"', ' ', 't', '1', '-' };

static bool pairs_one(const jdoc_kernel *k, const uint8_t *tape, uint32_t from, uint32_t to, pairs_count *c)
{
    bool want = jdoc__pairs_bad(tape, from, to), got = k->pairs(tape, from, to);
    c->cases++;
    c->bad += want;
    if (got != want)
        snprintf(c->why, sizeof c->why, "%s: entries %u..%u: %d, the reference %d", k->name, from, to, got, want);
    return got == want;
}

/* Every range [from, to] with from in the first 70 entries of tape[0..n)
 * (zero up to n + 128); then each entry changed to every class in turn,
 * at every place of a step, the range ending at it, after it or far on. */
static bool pairs_tape(const jdoc_kernel *k, uint8_t *tape, uint32_t n, bool mutate, pairs_count *c)
{
    for (uint32_t from = 1; from < n && from <= 70; from++)
        for (uint32_t to = from; to < n; to += 1 + (to - from) / 16)
            if (!pairs_one(k, tape, from, to, c))
                return false;
    for (uint32_t at = 1; mutate && at < n; at += 1 + at / 5) {
        uint8_t was = tape[at];
        for (size_t x = 0; x < sizeof pairs_cls; x++) {
            tape[at] = pairs_cls[x];
            for (uint32_t from = at > 66 ? at - 66 : 1; from <= at; from++)
                for (uint32_t to = at; to < n && to < at + 70; to += to < at + 2 ? 1 : 31)
                    if (!pairs_one(k, tape, from, to, c)) {
                        tape[at] = was;
                        return false;
                    }
        }
        tape[at] = was;
    }
    return true;
}

/* k->depth against this loop, the contract of jdoc_depth_fn one entry at a time. */
static int ref_depth(const uint8_t *tape, uint32_t from, uint32_t n, uint32_t *depth, uint32_t max_depth, uint32_t *at)
{
    uint32_t d = *depth;
    for (uint32_t e = from; e < n; e++) {
        uint8_t b = tape[e] | 0x20;
        if (b == '{' && ++d > max_depth) {
            *depth = d;
            *at = e;
            return -1;
        }
        if (b == '}' && --d == 0) {
            *depth = 0;
            *at = e;
            return 1;
        }
    }
    *depth = d;
    return 0;
}

/* Every start in the first 70 entries, ends every entry up to a step past
 * it and then further apart, starting depths 1, 2, 5 and limits from the
 * depth to 70. */
static bool depth_tape(const jdoc_kernel *k, const uint8_t *tape, uint32_t n, pairs_count *c)
{
    static const uint32_t d0s[] = { 1, 2, 5 }, lims[] = { 0, 1, 3, 20, 70 };
    for (uint32_t from = 0; from < n && from < 70; from++)
        for (uint32_t to = from; to <= n; to += to - from < 66 ? 1 : 23)
            for (size_t i = 0; i < 3; i++)
                for (size_t j = 0; j < 5; j++) {
                    uint32_t d0 = d0s[i], lim = j < 4 ? d0 + lims[j] : lims[j];
                    uint32_t dw = d0, dg = d0, aw = 0, ag = 0;
                    int want = ref_depth(tape, from, to, &dw, lim, &aw), got = k->depth(tape, from, to, &dg, lim, &ag);
                    c->depth_cases++;
                    c->depth_seen[want + 1]++;
                    if (got != want || dg != dw || (want && ag != aw)) {
                        snprintf(c->why, sizeof c->why,
                                 "%s depth: entries %u..%u from depth %u, limit %u: %d at %u depth %u, the reference "
                                 "%d at %u depth %u", k->name, from, to, d0, lim, got, ag, dg, want, aw, dw);
                        return false;
                    }
                }
    return true;
}

/* The first 240 entries of the tape of each .json file in dir, then 300
 * random tapes of class bytes. */
static bool pairs_corpus_and_random(const jdoc_kernel *k, jdoc_parser *p, const char *dir, pairs_count *c)
{
    char **files = tu_list(dir);
    bool ok = true;
    for (char **f = files; ok && f && *f; f++) {
        if (!strstr(*f, ".json"))
            continue;
        size_t len;
        char *buf = tu_read(*f, &len);
        jdoc_doc *d;
        if (jdoc_parse(p, buf, len, &d) != JDOC_OK) {
            snprintf(c->why, sizeof c->why, "%s does not parse", *f);
            free(buf);
            ok = false;
            break;
        }
        uint32_t n = p->doc.n < 240 ? p->doc.n : 240;
        uint8_t *tape = calloc(n + 128, 1);
        memcpy(tape, p->doc.tape, n);
        ok = pairs_tape(k, tape, n, true, c) && depth_tape(k, tape, n < 200 ? n : 200, c);
        free(tape);
        free(buf);
    }
    tu_free_list(files);
    uint64_t seed = 0x243f6a8885a308d3ull;
    uint8_t tape[200 + 128];
    for (int r = 0; ok && r < 300; r++) {
        uint32_t n = 2 + (uint32_t)(tu_rand(&seed) % 200);
        memset(tape, 0, sizeof tape);
        for (uint32_t i = 0; i < n; i++)
            tape[i] = pairs_cls[tu_rand(&seed) % sizeof pairs_cls];
        ok = pairs_tape(k, tape, n, false, c) && (r % 10 || depth_tape(k, tape, n, c));
    }
    /* deep: runs of openers then closers, so the limits are met */
    for (int r = 0; ok && r < 20; r++) {
        uint32_t n = 40 + (uint32_t)(tu_rand(&seed) % 160);
        memset(tape, 0, sizeof tape);
        for (uint32_t i = 0; i < n; i++)
            tape[i] = (uint8_t)("[{]}"[(i / (1 + r % 7) % 3 == 2 ? 2 : 0) + tu_rand(&seed) % 2]);
        ok = depth_tape(k, tape, n, c);
    }
    return ok;
}
#endif
