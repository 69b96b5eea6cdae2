/* SPDX-License-Identifier: MIT */
/* Stage-1 differential comparison and input generator, shared by the
 * Criterion tests and the plain-C arm64 program (tests/arm64/). */
#ifndef JDOC_STAGE1_DIFF_H
#define JDOC_STAGE1_DIFF_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "testutil.h"

/* The raw kernel output (index, tape, the error the kernel itself reports,
 * before any fallback) and the full parse result (status, offset, message,
 * index, jump). */
typedef struct result {
    jdoc_status kcode, status;
    size_t koffset, offset;
    const char *message;
    uint32_t n, dn;
    uint32_t *index, *jump;
    uint8_t *tape;
} result;

static inline void run(jdoc_parser *p, const char *json, size_t len, result *r)
{
    memset(r, 0, sizeof *r);
    r->kcode = jdoc__stage1_kernel_only(p, p->k, json, len, &r->n, NULL);
    r->koffset = jdoc_last_error(p)->offset;
    r->index = malloc((r->n + 1) * 4);
    r->tape = malloc(r->n + 1);
    memcpy(r->index, p->index, r->n * 4);
    memcpy(r->tape, p->tape, r->n);
    jdoc_doc *d;
    r->status = jdoc_parse(p, json, len, &d);
    r->offset = jdoc_last_error(p)->offset;
    r->message = jdoc_last_error(p)->message;
    if (r->status == JDOC_OK) {
        r->dn = d->n;
        r->jump = calloc(d->n + 1, 4);
        for (uint32_t i = 0; i < d->n; i++)   /* jump[] is defined at opening brackets only */
            if (d->tape[i] == '[' || d->tape[i] == '{')
                r->jump[i] = d->index[i];   /* the closing entry, over the offset */
    }
}

static inline void drop(result *r)
{
    free(r->index);
    free(r->tape);
    free(r->jump);
}

/* Does a SIMD kernel's own error report fit the scalar kernel's exact one?
 * Same class; a control character at the same byte; a UTF-8 error seen at
 * most 3 bytes after the sequence's lead (the lead is where scalar says); a
 * string left open seen at the end of the input. */
static inline bool error_fits(const result *a, const result *b, size_t len)
{
    if (a->kcode != b->kcode)
        return false;
    if (b->kcode == JDOC_ERR_UTF8)
        return a->koffset <= b->koffset && b->koffset <= a->koffset + 3;
    if (b->koffset == len)
        return strcmp(a->message, "unterminated string") == 0;
    return a->koffset == b->koffset;
}

/* Compare kernel k with scalar on one input; returns false and describes the
 * first difference in `why`. */
static inline bool same(jdoc_parser *ps, jdoc_parser *pk, const char *json, size_t len, char *why, size_t wl)
{
    result a, b;
    run(ps, json, len, &a);
    run(pk, json, len, &b);
    bool ok = false;
    if ((a.kcode == JDOC_OK) != (b.kcode == JDOC_OK))
        snprintf(why, wl, "kernel error flag: scalar %d, %s %d", a.kcode, pk->k->name, b.kcode);
    else if (a.kcode != JDOC_OK && pk->k->id != JDOC_KERNEL_SCALAR && !error_fits(&a, &b, len))
        snprintf(why, wl, "kernel's own error: scalar %s@%zu, %s %s@%zu", jdoc_status_str(a.kcode), a.koffset,
                 pk->k->name, jdoc_status_str(b.kcode), b.koffset);
    else if (a.kcode == JDOC_OK && a.n != b.n)
        snprintf(why, wl, "entries: scalar %u, %s %u", a.n, pk->k->name, b.n);
    else if (a.kcode == JDOC_OK && memcmp(a.index, b.index, a.n * 4) != 0)
        snprintf(why, wl, "index differs");
    else if (a.kcode == JDOC_OK && memcmp(a.tape, b.tape, a.n) != 0)
        snprintf(why, wl, "tape differs");
    else if (a.status != b.status || a.offset != b.offset || strcmp(a.message, b.message) != 0)
        snprintf(why, wl, "parse: scalar %s@%zu (%s), %s %s@%zu (%s)", jdoc_status_str(a.status), a.offset,
                 a.message, pk->k->name, jdoc_status_str(b.status), b.offset, b.message);
    else if (a.status == JDOC_OK && (a.dn != b.dn || memcmp(a.jump, b.jump, a.dn * 4) != 0))
        snprintf(why, wl, "jump table differs");
    else
        ok = true;
    drop(&a);
    drop(&b);
    return ok;
}

/* A random input of exactly len bytes with no stage-1 error: tokens (strings
 * with escapes and multi-byte UTF-8, always closed, numbers, literals,
 * brackets, separators, whitespace), padded with spaces where the next token
 * would not fit. The brackets are random, so the bracket pass still meets
 * errors; the kernels' index and tape are compared on every input. */
static inline void gen_clean(uint64_t *seed, char *out, size_t len)
{
    static const char *const body[] = { "a", "bc", "\\\\", "\\\"", "\\n", "\\u00e9", "\xc3\xa9", "\xe2\x82\xac",
                                        "\xf0\x9f\x98\x80", "{", "]", ":", ",", " ", "\\/" };
    static const char *const tok[] = { "[", "]", "{", "}", ":", ",", " ", "\n", "\t", "1", "-2.5e3", "true",
                                       "null", "0", "\r\n  " };
    size_t i = 0;
    while (i < len) {
        uint64_t r = tu_rand(seed);
        char t[96];
        size_t l = 0;
        if (r % 3 == 0) {
            t[l++] = '"';
            for (int k = (int)((r >> 8) % 6); k > 0; k--) {
                const char *b = body[tu_rand(seed) % (sizeof body / sizeof *body)];
                memcpy(t + l, b, strlen(b));
                l += strlen(b);
            }
            t[l++] = '"';
        } else {
            const char *b = tok[(r >> 8) % (sizeof tok / sizeof *tok)];
            l = strlen(b);
            memcpy(t, b, l);
        }
        if (l > len - i) {
            memset(out + i, ' ', len - i);
            break;
        }
        memcpy(out + i, t, l);
        i += l;
    }
}

/* Pieces biased towards what the bit tricks get wrong: quotes, backslash
 * runs, brackets, multi-byte UTF-8 (valid and not), control bytes. */
static const char *const pieces[] = {
    "\"", "\"", "\\", "\\\\", "\\\"", "[", "]", "{", "}", ":", ",", " ", "\n", "a", "1", "-2.5e3",
    "true", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf",
    "\x80", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x01", "\xff",
    "\xe0\x80\xaf", "\xf0\x80\x80\xaf", "\xc1\xbf", "\xf5\x80\x80\x80", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
};

/* A random input of exactly len bytes; `mode` decides how often pieces that
 * break strings or UTF-8 appear, so both valid and invalid inputs occur. */
static inline void gen(uint64_t *seed, char *out, size_t len, int mode)
{
    size_t i = 0;
    size_t np = sizeof pieces / sizeof *pieces;
    while (i < len) {
        uint64_t r = tu_rand(seed);
        const char *pc;
        if (mode == 0 && r % 16 != 0)
            pc = (const char *[]){ "[1,", "{\"k\":", "\"ab\\\"c\",", "2]", "}", " ", "\"\\\\\"" }[(r >> 8) % 7];
        else if (mode == 1)
            pc = pieces[(r >> 8) % 22]; /* valid UTF-8 only */
        else
            pc = pieces[(r >> 8) % np];
        size_t l = strlen(pc);
        if (l > len - i)
            l = len - i;
        memcpy(out + i, pc, l);
        i += l;
    }
}

#endif
