/* SPDX-License-Identifier: MIT */
/*
 * The scalar kernel (src/arch/scalar.c) against its former byte-at-a-time
 * self (tests/ref_stage1.h), on the same input cut into the same chunks:
 * after every chunk, everything a caller can see must be the same: the
 * entries and their tape bytes, the error (code, offset, message), and the
 * state carried to the next chunk that the driver and the stream code read
 * (in a string, in a scalar, the open string's quote, and unless the chunk
 * ended in an error, whether the next byte is escaped and the UTF-8 sequence
 * left open: after an error the kernel is not called again, and the stream
 * code reads only whether the error fell in a string or a scalar). Each chunk is copied to the very start or the very
 * end of a block of pages between two unreadable ones, so a kernel that
 * reads a byte before or after its chunk crashes. Shared by the Criterion
 * test (tests/test_scalar_ref.c) and the arm64 program (tests/arm64/).
 */
#ifndef JDOC_SCALAR_DIFF_H
#define JDOC_SCALAR_DIFF_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ref_stage1.h"
#include "testutil.h"

extern const jdoc_kernel jdoc__kernel_scalar;

/* Room for chunks of up to cap bytes, between two PROT_NONE pages. */
typedef struct sd_guard {
    uint8_t *map, *room;
    size_t cap, maplen;
} sd_guard;

static inline bool sd_guard_init(sd_guard *g, size_t cap)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    g->cap = (cap + pg - 1) / pg * pg;
    g->maplen = g->cap + 2 * pg;
    g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED)
        return false;
    g->room = g->map + pg;
    return mprotect(g->map, pg, PROT_NONE) == 0 && mprotect(g->room + g->cap, pg, PROT_NONE) == 0;
}

static inline void sd_guard_free(sd_guard *g) { munmap(g->map, g->maplen); }

/* One kernel's run: its state and its own index and tape. */
typedef struct sd_run {
    jdoc_s1 s;
    uint32_t *index;
    uint8_t *tape;
} sd_run;

static inline bool sd_same_state(const sd_run *a, const sd_run *b, size_t pos, char *why, size_t wl)
{
    const jdoc_s1 *x = &a->s, *y = &b->s;
    if (x->code != y->code || (x->code != JDOC_OK && (x->offset != y->offset || strcmp(x->message, y->message) != 0))) {
        snprintf(why, wl, "after the chunk ending at %zu: error: ref %s@%zu (%s), new %s@%zu (%s)", pos,
                 jdoc_status_str(x->code), x->code ? x->offset : 0, x->code ? x->message : "", jdoc_status_str(y->code),
                 y->code ? y->offset : 0, y->code ? y->message : "");
        return false;
    }
    if (x->n != y->n) {
        snprintf(why, wl, "after the chunk ending at %zu: entries: ref %u, new %u", pos, x->n, y->n);
        return false;
    }
    for (uint32_t e = 0; e < x->n; e++)
        if (a->index[e] != b->index[e] || a->tape[e] != b->tape[e]) {
            snprintf(why, wl, "after the chunk ending at %zu: entry %u: ref '%c'@%u, new '%c'@%u", pos, e, a->tape[e],
                     a->index[e], b->tape[e], b->index[e]);
            return false;
        }
    bool open = x->code == JDOC_OK && (x->escaped != y->escaped || x->seq_need != y->seq_need ||
                                       (x->seq_need && (x->seq_lo != y->seq_lo || x->seq_hi != y->seq_hi ||
                                                        x->seq_start != y->seq_start)));
    if (x->in_string != y->in_string || x->scalar != y->scalar || x->string_start != y->string_start || open) {
        snprintf(why, wl,
                 "after the chunk ending at %zu: state: ref in_string %d escaped %d scalar %d quote %u need %u "
                 "[%02x,%02x] lead %zu; new %d %d %d %u %u [%02x,%02x] %zu",
                 pos, x->in_string != 0, (int)x->escaped, (int)x->scalar, x->string_start, x->seq_need, x->seq_lo,
                 x->seq_hi, x->seq_start, y->in_string != 0, (int)y->escaped, (int)y->scalar, y->string_start,
                 y->seq_need, y->seq_lo, y->seq_hi, y->seq_start);
        return false;
    }
    return true;
}

/*
 * Run both kernels over in[0..len) cut at cuts[0] < cuts[1] < ... (offsets
 * strictly inside the input; none: one chunk), with UTF-8 checked or not.
 * Chunks go to the guard's room, at its start or at its end by turns; the
 * guard must hold the longest chunk. `last` is passed for the final chunk
 * only, or (last_too == false) never, as the stream code does for a look at
 * bytes still to come. False, with `why`, at the first difference.
 */
static inline bool sd_compare(sd_guard *g, const uint8_t *in, size_t len, const size_t *cuts, size_t ncuts, bool utf8,
                              bool last_too, char *why, size_t wl)
{
    sd_run r[2];
    const jdoc_kernel *k[2] = { &ref_kernel_scalar, &jdoc__kernel_scalar };
    bool ok = true;
    for (int j = 0; j < 2; j++) {
        memset(&r[j].s, 0, sizeof r[j].s);
        r[j].s.check_utf8 = utf8;
        r[j].index = malloc((len + 1) * sizeof *r[j].index);
        r[j].tape = malloc(len + 1);
        r[j].s.index = r[j].index;
        r[j].s.tape = r[j].tape;
    }
    size_t pos = 0;
    for (size_t c = 0; c <= ncuts && ok; c++) {
        size_t end = c < ncuts ? cuts[c] : len;
        size_t cl = end - pos;
        if (cl > g->cap) {
            snprintf(why, wl, "chunk of %zu bytes: the guard holds %zu", cl, g->cap);
            ok = false;
            break;
        }
        uint8_t *at = c % 2 ? g->room + g->cap - cl : g->room;
        for (int j = 0; j < 2; j++) {
            if (cl)
                memcpy(at, in + pos, cl);
            r[j].s.base = pos;
            k[j]->stage1(&r[j].s, at, cl, last_too && end == len);
        }
        pos = end;
        ok = sd_same_state(&r[0], &r[1], pos, why, wl);
    }
    for (int j = 0; j < 2; j++) {
        free(r[j].index);
        free(r[j].tape);
    }
    return ok;
}

/* Cuts for chunking `mode` of an input of len bytes: 0 none; 1 every 64 bytes
 * times 1..4 at random (the driver's kind); 2 anywhere, 1..40 bytes apart (the
 * stream code's looks); 3 every byte. Returns how many. */
static inline size_t sd_cuts(uint64_t *seed, size_t len, int mode, size_t *cuts, size_t max)
{
    size_t nc = 0, pos = 0;
    while (mode && nc < max) {
        size_t step = mode == 1 ? 64 * (1 + tu_rand(seed) % 4) : mode == 2 ? 1 + tu_rand(seed) % 40 : 1;
        pos += step;
        if (pos >= len)
            break;
        cuts[nc++] = pos;
    }
    return nc;
}

/* Bytes that matter to the kernels: every kind of byte of the contract, the
 * bounds of the UTF-8 ranges, and plain ones. */
static const uint8_t sd_bytes[] = {
    '"', '\\', '[', ']', '{', '}', ':', ',', ' ', '\n', '\t', '\r', 'a', '1', '-', '+', '|', '/', 0x00, 0x01,
    0x1F, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4,
    0xF5, 0xFF,
};

#endif
