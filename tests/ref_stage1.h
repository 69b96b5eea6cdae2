/* SPDX-License-Identifier: MIT */
/*
 * The stage-1 scalar kernel as it was before its word-at-a-time fast paths:
 * a byte-at-a-time state machine (that took a plain string word, a word of
 * digits, a whole UTF-8 sequence in a string in one step), kept here
 * unchanged but for the ref_ prefix as the oracle that src/arch/scalar.c is
 * checked against (tests/scalar_diff.h). Test-only: not built into the
 * library.
 */
#ifndef JDOC_REF_STAGE1_H
#define JDOC_REF_STAGE1_H
#include "internal.h"

static const char *const ref_msg_utf8 = "invalid UTF-8";
static const char *const ref_msg_ctrl = "control character in string";
static const char *const ref_msg_unterminated = "unterminated string";

/* Byte classes outside strings. */
enum { RC_SCALAR, RC_WS, RC_SEP, RC_BRACKET, RC_QUOTE, RC_BACKSLASH, RC_HIGH };
#define H8(x) [x] = RC_HIGH, [x + 1] = RC_HIGH, [x + 2] = RC_HIGH, [x + 3] = RC_HIGH, [x + 4] = RC_HIGH, \
              [x + 5] = RC_HIGH, [x + 6] = RC_HIGH, [x + 7] = RC_HIGH
static const uint8_t ref_cls[256] = {
    [' '] = RC_WS, ['\t'] = RC_WS, ['\n'] = RC_WS, ['\r'] = RC_WS, [','] = RC_SEP, [':'] = RC_SEP,
    ['['] = RC_BRACKET, [']'] = RC_BRACKET, ['{'] = RC_BRACKET, ['}'] = RC_BRACKET, ['"'] = RC_QUOTE,
    ['\\'] = RC_BACKSLASH,
    H8(0x80), H8(0x88), H8(0x90), H8(0x98), H8(0xA0), H8(0xA8), H8(0xB0), H8(0xB8),
    H8(0xC0), H8(0xC8), H8(0xD0), H8(0xD8), H8(0xE0), H8(0xE8), H8(0xF0), H8(0xF8),
};
#undef H8

static void ref_fail(jdoc_s1 *s, jdoc_status code, size_t off, const char *m)
{
    s->code = code;
    s->offset = off;
    s->message = m;
}

/* UTF-8 decoding state, one byte at a time (Unicode Table 3-7). */
typedef struct ref_u8state {
    uint32_t need;        /* continuation bytes still expected */
    uint8_t lo, hi;       /* allowed range of the next one */
    size_t start;         /* offset of the lead byte */
} ref_u8state;

/* One byte >= 0x80, or any byte while a sequence is open; false on error
 * with *err the offset to report. */
static inline bool ref_utf8_step(ref_u8state *u, unsigned char c, size_t off, size_t *err)
{
    if (u->need) {
        if (c < u->lo || c > u->hi) {
            *err = u->start;
            return false;
        }
        u->need--;
        u->lo = 0x80;
        u->hi = 0xBF;
        return true;
    }
    u->start = off;
    u->lo = 0x80;
    u->hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        u->need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        u->need = 2;
        if (c == 0xE0) u->lo = 0xA0;        /* overlong */
        if (c == 0xED) u->hi = 0x9F;        /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        u->need = 3;
        if (c == 0xF0) u->lo = 0x90;        /* overlong */
        if (c == 0xF4) u->hi = 0x8F;        /* above U+10FFFF */
    } else {
        *err = off;                          /* stray continuation, C0, C1, F5..FF */
        return false;
    }
    return true;
}

/* A whole sequence whose bytes are all in the buffer: its length, or 0 when
 * it is invalid (the error is then at its lead byte, as with ref_utf8_step). */
static inline size_t ref_utf8_seq(const uint8_t *p)
{
    unsigned c = p[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xBF)
            return 0;
    return n;
}

/* Inside a string, 8 plain bytes at a time: a word is plain when it has no
 * quote, no backslash, no byte < 0x20 and no byte >= 0x80 (each such byte
 * needs the state machine). The "has a zero byte" word test finds quotes and
 * backslashes; a byte < 0x20 or >= 0x80 shows in the high bits of w - 0x20..
 * and of w. Extra hits (borrows) only end the skip early. */
#define REF_ONES 0x0101010101010101ull
#define REF_HIGH 0x8080808080808080ull
static inline bool ref_plain8(uint64_t w)
{
    uint64_t q = w ^ (REF_ONES * '"'), b = w ^ (REF_ONES * '\\');
    uint64_t special = ((q - REF_ONES) & ~q) | ((b - REF_ONES) & ~b) | (w - REF_ONES * 0x20) | w;
    return (special & REF_HIGH) == 0;
}

static void ref_stage1_scalar(jdoc_s1 *s, const uint8_t *buf, size_t len, bool last)
{
    bool in_string = s->in_string != 0, escaped = s->escaped != 0, scalar = s->scalar != 0;
    bool utf8 = s->check_utf8;
    uint32_t n = s->n;
    uint32_t *index = s->index;
    uint8_t *tape = s->tape;
    const size_t base = s->base;
    ref_u8state u = { s->seq_need, s->seq_lo, s->seq_hi, s->seq_start };
    size_t err;

    if (s->code != JDOC_OK)
        return;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = buf[i];
        if (c >= 0x80 && in_string && !u.need && utf8 && i + 4 <= len) {
            /* a whole sequence in a string at once: its bytes are never
             * quotes, backslashes or control characters */
            size_t l = ref_utf8_seq(buf + i);
            if (JDOC_UNLIKELY(!l)) {
                ref_fail(s, JDOC_ERR_UTF8, base + i, ref_msg_utf8);
                goto out;
            }
            escaped = false;
            i += l - 1;
            continue;
        }
        if (JDOC_UNLIKELY((c >= 0x80 || u.need) && utf8 && !ref_utf8_step(&u, c, base + i, &err))) {
            ref_fail(s, JDOC_ERR_UTF8, err, ref_msg_utf8);
            goto out;
        }
        if (in_string) {
            if (JDOC_UNLIKELY(c < 0x20)) {
                ref_fail(s, JDOC_ERR_SYNTAX, base + i, ref_msg_ctrl);
                goto out;
            }
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
                tape[n - 1] = ' ';   /* the string's quote is the last entry: mark it */
                continue;
            } else if (c == '"') {
                in_string = false;
                continue;
            }
            if (!u.need) {
                /* skip plain words; the byte after them goes through the loop */
                while (i + 9 <= len) {
                    uint64_t w;
                    memcpy(&w, buf + i + 1, 8);
                    if (!ref_plain8(w))
                        break;
                    i += 8;
                }
            }
            continue;
        }
        int k = ref_cls[c];
        if (JDOC_UNLIKELY(escaped)) {
            /* an escaped byte outside a string: a quote or a backslash is
             * then an ordinary scalar byte; anything else keeps its class */
            escaped = false;
            if (k == RC_QUOTE || k == RC_BACKSLASH)
                k = RC_HIGH;
        }
        switch (k) {
        case RC_WS:
            scalar = false;
            /* indentation: 8 spaces at a time, then byte by byte (not while
             * a UTF-8 sequence waits for its continuation bytes) */
            if (u.need)
                break;
            for (uint64_t w; i + 9 <= len && (memcpy(&w, buf + i + 1, 8), w == REF_ONES * ' ');)
                i += 8;
            while (i + 1 < len && ref_cls[buf[i + 1]] == RC_WS)
                i++;
            break;
        case RC_BRACKET:
        case RC_SEP:
            tape[n] = c;
            index[n++] = (uint32_t)(base + i);
            scalar = false;
            break;
        case RC_QUOTE:
            tape[n] = c;
            index[n++] = (uint32_t)(base + i);
            s->string_start = (uint32_t)(base + i);
            in_string = true;
            scalar = false;
            break;
        case RC_BACKSLASH:
            escaped = true;
            /* fall through */
        default:   /* a scalar byte: the run of plain ASCII ones goes at once */
            if (!scalar) {
                tape[n] = c;
                index[n++] = (uint32_t)(base + i);
            }
            scalar = true;
            if (k != RC_BACKSLASH && !u.need) {
                /* digits 8 at a time: every byte has high nibble 3, and
                 * adding 6 to each carries out of no low nibble */
                for (uint64_t w; i + 9 <= len && (memcpy(&w, buf + i + 1, 8),
                                                  (w & REF_ONES * 0xF0) == REF_ONES * 0x30 &&
                                                      ((w + REF_ONES * 0x06) & REF_ONES * 0xF0) == REF_ONES * 0x30);)
                    i += 8;
                while (i + 1 < len && ref_cls[buf[i + 1]] == RC_SCALAR)
                    i++;
            }
            break;
        }
    }
    if (last) {
        if (utf8 && u.need)
            ref_fail(s, JDOC_ERR_UTF8, u.start, ref_msg_utf8);
        else if (in_string)
            ref_fail(s, JDOC_ERR_SYNTAX, s->string_start, ref_msg_unterminated);
    }
out:
    s->in_string = in_string ? ~0ull : 0;
    s->escaped = escaped;
    s->scalar = scalar;
    s->n = n;
    s->seq_need = u.need;
    s->seq_lo = u.lo;
    s->seq_hi = u.hi;
    s->seq_start = u.start;
}

/* The reference bracket pass: one entry at a time, with its own stack in
 * jump[] (see kernel.h for the contract). */
static int ref_match_scalar(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
                        uint32_t max_depth, uint32_t *at)
{
    uint32_t top = UINT32_MAX, depth = 0;
    for (uint32_t e = from; e < n; e++) {
        uint8_t c = tape[e];
        if (c == '[' || c == '{') {
            if (++depth > max_depth) {
                *at = e;
                return JDOC_MATCH_DEPTH;
            }
            jump[e] = top;
            top = e;
        } else if (c == ']' || c == '}') {
            if (top == UINT32_MAX) {
                *at = e;
                return JDOC_MATCH_UNMATCHED;
            }
            if ((tape[top] == '[') != (c == ']')) {
                *at = e;
                return JDOC_MATCH_MISMATCH;
            }
            uint32_t up = jump[top];
            jump[top] = e - rel;
            top = up;
            if (--depth == 0) {
                *at = e;
                return JDOC_MATCH_OK;
            }
        }
    }
    *at = top;
    return JDOC_MATCH_UNCLOSED;
}


static const jdoc_kernel ref_kernel_scalar = { JDOC_KERNEL_SCALAR, "ref-scalar", 0, ref_stage1_scalar,
                                               ref_match_scalar, NULL, NULL, NULL, NULL, NULL, NULL };

#undef REF_ONES
#undef REF_HIGH
#endif
