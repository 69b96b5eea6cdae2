/* SPDX-License-Identifier: MIT */
/* A kernel's stream pair check (k->pairs) against the table-driven reference
 * (jdoc__pairs_bad); shared by test_stage1.c and the arm64 program. */
#ifndef JDOC_PAIRS_DIFF_H
#define JDOC_PAIRS_DIFF_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "testutil.h"

typedef struct pairs_count {
    long cases, bad;   /* ranges compared, and how many the reference found bad */
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
    for (uint32_t at = 1; mutate && at < n; at += 1 + at / 8) {
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

/* The first 400 entries of the tape of each .json file in dir, then 300
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
        uint32_t n = p->doc.n < 400 ? p->doc.n : 400;
        uint8_t *tape = calloc(n + 128, 1);
        memcpy(tape, p->doc.tape, n);
        ok = pairs_tape(k, tape, n, true, c);
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
        ok = pairs_tape(k, tape, n, false, c);
    }
    return ok;
}
#endif
