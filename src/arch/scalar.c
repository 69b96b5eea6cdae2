/* SPDX-License-Identifier: MIT */
/*
 * The reference stage-1 kernel: a byte-at-a-time state machine, with fast
 * paths over runs of bytes whose effect it knows (8 or 16 bytes at a time in
 * 64-bit words), written independently of the SIMD algorithm
 * (src/stage1/stage1_impl.h). It is the fallback on any CPU and the oracle of
 * the differential tests. It also defines which error comes first: the first
 * one met scanning left to right. tests/test_scalar_ref.c checks it against
 * its plain byte-at-a-time former self (tests/ref_stage1.h).
 *
 * The contract, shared with every kernel:
 *   - A backslash escapes the next byte wherever it occurs (inside a string
 *     or not); an escaped quote never opens or closes a string. Outside a
 *     string, a backslash is an ordinary scalar byte.
 *   - Entries: every { } [ ] : , outside strings, every opening quote, and
 *     the first byte of every run of "scalar" bytes: bytes outside strings
 *     that are not whitespace (space \t \n \r), not one of { } [ ] : , and not
 *     an unescaped quote.
 *   - Errors: invalid UTF-8 (at its first byte: the lead byte of a bad or
 *     truncated sequence, or a stray byte), a byte < 0x20 inside a string,
 *     and a string still open at the end (at its opening quote).
 */
#include "internal.h"

static const char *const msg_utf8 = "invalid UTF-8";
static const char *const msg_ctrl = "control character in string";
static const char *const msg_unterminated = "unterminated string";

/* Byte classes outside strings. */
enum { C_SCALAR, C_WS, C_SEP, C_BRACKET, C_QUOTE, C_BACKSLASH, C_HIGH };
#define H8(x) [x] = C_HIGH, [x + 1] = C_HIGH, [x + 2] = C_HIGH, [x + 3] = C_HIGH, [x + 4] = C_HIGH, \
              [x + 5] = C_HIGH, [x + 6] = C_HIGH, [x + 7] = C_HIGH
static const uint8_t cls[256] = {
    [' '] = C_WS, ['\t'] = C_WS, ['\n'] = C_WS, ['\r'] = C_WS, [','] = C_SEP, [':'] = C_SEP,
    ['['] = C_BRACKET, [']'] = C_BRACKET, ['{'] = C_BRACKET, ['}'] = C_BRACKET, ['"'] = C_QUOTE,
    ['\\'] = C_BACKSLASH,
    H8(0x80), H8(0x88), H8(0x90), H8(0x98), H8(0xA0), H8(0xA8), H8(0xB0), H8(0xB8),
    H8(0xC0), H8(0xC8), H8(0xD0), H8(0xD8), H8(0xE0), H8(0xE8), H8(0xF0), H8(0xF8),
};
#undef H8

static void fail(jdoc_s1 *s, jdoc_status code, size_t off, const char *m)
{
    s->code = code;
    s->offset = off;
    s->message = m;
}

/* UTF-8 decoding state, one byte at a time (Unicode Table 3-7). */
typedef struct u8state {
    uint32_t need;        /* continuation bytes still expected */
    uint8_t lo, hi;       /* allowed range of the next one */
    size_t start;         /* offset of the lead byte */
} u8state;

/* One byte >= 0x80, or any byte while a sequence is open; false on error
 * with *err the offset to report. */
static inline bool utf8_step(u8state *u, unsigned char c, size_t off, size_t *err)
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
 * it is invalid (the error is then at its lead byte, as with utf8_step). */
static inline size_t utf8_seq(const uint8_t *p)
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

/* Words of 8 input bytes, byte k of the input in bits 8k..8k+7 whatever the
 * host's byte order, so that the lowest set bit of a mask is the first byte. */
#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull
static inline uint64_t load8(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* The first byte a mask flags (the mask is not 0). */
static inline size_t first(uint64_t m) { return (size_t)__builtin_ctzll(m) >> 3; }

/*
 * Byte masks: bit 7 of byte k set when byte k is of some kind.
 *
 * less() and eq() are exact at the first byte they flag and below it, but
 * may flag bytes above it that are not of the kind (the borrow out of the
 * flagged byte), so only their lowest set bit means anything:
 *   less(w, c)  bytes < c, for c <= 0x80: b - c wraps below c, or is
 *               >= 0x80 for b >= c + 0x80, which & ~w drops; only a byte
 *               < c borrows from the byte above it
 *   eq(w, c)    bytes == c: less(w ^ c.., 1), the "has a zero byte" test
 * ne() is exact at every byte: (y & 0x7F) + 0x7F never carries out of it
 *   ne(w, c)    bytes != c: y = w ^ c..; bit 7 of (y & 0x7F) + 0x7F is set
 *               when y's low 7 bits are not all 0, and | y adds y's bit 7
 */
static inline uint64_t less(uint64_t w, unsigned c) { return (w - ONES * c) & ~w & HIGH; }
static inline uint64_t eq(uint64_t w, unsigned c) { return less(w ^ (ONES * c), 1); }
static inline uint64_t ne(uint64_t w, unsigned c)
{
    uint64_t y = w ^ (ONES * c);
    return (((y & ~HIGH) + ~HIGH) | y) & HIGH;
}

/* In a string: a quote, a backslash, a byte < 0x20 and, with high = HIGH
 * (UTF-8 checked), a byte >= 0x80. The lowest set bit is the first of them. */
static inline uint64_t string_stops(uint64_t w, uint64_t high)
{
    return eq(w, '"') | eq(w, '\\') | less(w, 0x20) | (w & high);
}

/* Outside a string, in a run of scalar bytes: every byte that may end the
 * run or needs the exact step, and a few more that only end the skip early.
 * The lowest set bit is at or before the first byte that is not a plain
 * scalar byte (not whitespace, { } [ ] : , " \ or >= 0x80):
 *   less(w, 0x2D)  every byte <= ',': control bytes, space \t \n \r, '"', ','
 *                  (and !#$%&'()*+, which stop early)
 *   eq(w, ':')
 *   brackets       [ \ ] { | }: y = b | 0x20 is 7B 7C 7D for them;
 *                  y + 0x05 has bit 7 set for y >= 0x7B, and y + 0x02 has it
 *                  clear for y <= 0x7D (a carry out of y + 5 or y + 2 comes
 *                  only from a byte >= 0x80, flagged itself by w & HIGH)
 *   w & HIGH       bytes >= 0x80 */
static inline uint64_t scalar_stops(uint64_t w)
{
    uint64_t y = w | (ONES * 0x20);
    uint64_t brackets = (y + ONES * 0x05) & ~(y + ONES * 0x02) & HIGH;
    return less(w, 0x2D) | eq(w, ':') | brackets | (w & HIGH);
}

/* Outside a string, in whitespace: every byte but space and \n (exact at
 * every byte; \t and \r only end the skip early). */
static inline uint64_t ws_stops(uint64_t w) { return ne(w, ' ') & ne(w, '\n'); }

/* Four 2-byte sequences (U+0080..U+07FF, the bulk of Latin, Greek, Cyrillic,
 * Hebrew and Arabic text): bytes 0, 2, 4, 6 are leads 110xxxxx but not C0 or
 * C1 (overlong), bytes 1, 3, 5, 7 continuations 10xxxxxx.
 *   w & E0 C0 E0 C0 ..  == C0 80 C0 80 ..   the top bits of each byte
 *   lead & 0x1E != 0                        lead >= C2: adding 0x7F to it
 *                                           sets bit 7 (0x1E + 0x7F < 0x100) */
static inline bool utf8_2x4(uint64_t w)
{
    const uint64_t top = 0xC0E0C0E0C0E0C0E0ull, want = 0x80C080C080C080C0ull;
    const uint64_t low = 0x001E001E001E001Eull, bit7 = 0x0080008000800080ull;
    return (w & top) == want && (((w & low) + 0x007F007F007F007Full) & bit7) == bit7;
}

/* Advance i over the bytes that STOPS (one of the masks above) does not
 * flag: 16 bytes a step while they last, then 8; at most 7 are left for the
 * caller to look at one by one. Stops at the first flagged byte. */
#define SKIP(STOPS)                                                                    \
    for (;;) {                                                                         \
        if (i + 16 <= len) {                                                           \
            uint64_t m0 = STOPS(load8(buf + i)), m1 = STOPS(load8(buf + i + 8));       \
            if (!(m0 | m1)) {                                                          \
                i += 16;                                                               \
                continue;                                                              \
            }                                                                          \
            i += m0 ? first(m0) : 8 + first(m1);                                       \
        } else if (i + 8 <= len) {                                                     \
            uint64_t m0 = STOPS(load8(buf + i));                                       \
            if (!m0) {                                                                 \
                i += 8;                                                                \
                continue;                                                              \
            }                                                                          \
            i += first(m0);                                                            \
        }                                                                              \
        break;                                                                         \
    }

/*
 * The kernel. Its exact step takes one byte at a time, as the contract at the
 * top says; the fast paths around it take runs of bytes whose effect they know
 * (plain string bytes, valid UTF-8 sequences in strings, whitespace, runs of
 * scalar bytes) and leave everything else to it: a backslash outside a string,
 * the byte after an escape unless it is plain ASCII, bytes >= 0x80 outside
 * strings, UTF-8 sequences cut by the end of the chunk or invalid, control
 * bytes. An error is thus always found by the exact step, which reports it as
 * the first one met scanning left to right.
 */
static void stage1_scalar(jdoc_s1 *s, const uint8_t *buf, size_t len, bool last)
{
    bool in_string = s->in_string != 0, escaped = s->escaped != 0, scalar = s->scalar != 0;
    const bool utf8 = s->check_utf8;
    const uint64_t high = utf8 ? HIGH : 0;   /* bytes >= 0x80 stop the string scan */
    uint32_t n = s->n;
    uint32_t *index = s->index;
    uint8_t *tape = s->tape;
    const size_t base = s->base;
    uint32_t string_start = s->string_start;
    u8state u = { s->seq_need, s->seq_lo, s->seq_hi, s->seq_start };
    size_t i = 0, err;
    unsigned c;

    if (s->code != JDOC_OK)
        return;
next:
    if (i >= len)
        goto end;
    if (JDOC_UNLIKELY(escaped || u.need))
        goto exact;
    if (in_string)
        goto string;

    /* ---- outside a string, not escaped, no UTF-8 sequence open; i < len */
outside:
    for (;;) {
        c = buf[i];
        switch (cls[c]) {
        case C_WS:
            scalar = false;
            /* one byte of whitespace, or a run (a line break and indentation,
             * in which \t and \r stop the skip: the loop goes on over them) */
            for (i++; i < len && cls[buf[i]] == C_WS;) {
                i++;
                SKIP(ws_stops);
            }
            break;
        case C_BRACKET:
        case C_SEP:
            tape[n] = (uint8_t)c;
            index[n++] = (uint32_t)(base + i);
            scalar = false;
            i++;
            break;
        case C_QUOTE:
            tape[n] = (uint8_t)c;
            index[n++] = (uint32_t)(base + i);
            string_start = (uint32_t)(base + i);
            in_string = true;
            scalar = false;
            i++;
            goto string;
        case C_SCALAR:
            if (!scalar) {
                tape[n] = (uint8_t)c;
                index[n++] = (uint32_t)(base + i);
            }
            scalar = true;
            i++;
            SKIP(scalar_stops);
            while (i < len && cls[buf[i]] == C_SCALAR)
                i++;
            break;
        default:   /* a backslash, a byte >= 0x80 */
            goto exact;
        }
        if (i >= len)
            goto end;
    }

    /* ---- in a string, not escaped, no UTF-8 sequence open; i <= len */
string:
    for (;;) {
#define STRING_STOPS(w) string_stops(w, high)
        SKIP(STRING_STOPS);
#undef STRING_STOPS
        for (;; i++) {
            if (i >= len)
                goto end;
            c = buf[i];
            if (c == '"' || c == '\\' || c < 0x20 || (c >= 0x80 && utf8))
                break;
        }
        c = buf[i];
        if (c == '"') {
            in_string = false;
            if (++i >= len)
                goto end;
            /* the usual next byte: the ':' after a key, the ',' after a value */
            c = buf[i];
            if (c == ':' || c == ',') {
                tape[n] = (uint8_t)c;
                index[n++] = (uint32_t)(base + i);
                if (++i >= len)
                    goto end;
            }
            goto outside;
        }
        if (c == '\\') {
            tape[n - 1] = ' ';   /* the string's quote is the last entry: mark it */
            if (i + 1 < len && buf[i + 1] >= 0x20 && buf[i + 1] < 0x80) {
                i += 2;          /* the escaped byte is plain ASCII */
                continue;
            }
            escaped = true;      /* the exact step takes the escaped byte */
            i++;
            goto next;
        }
        if (c < 0x80)
            goto exact;          /* a control byte: the error */
        /* UTF-8 sequences, while they last; the exact step takes a sequence
         * the chunk cuts, and an invalid one */
        do {
            if (i + 8 <= len && utf8_2x4(load8(buf + i))) {
                i += 8;
                continue;
            }
            size_t l;
            if (i + 4 > len || !(l = utf8_seq(buf + i)))
                goto exact;
            i += l;
        } while (i < len && buf[i] >= 0x80);
    }

    /* ---- one byte, exactly as the contract says */
exact:
    c = buf[i];
    if (JDOC_UNLIKELY((c >= 0x80 || u.need) && utf8 && !utf8_step(&u, (unsigned char)c, base + i, &err))) {
        fail(s, JDOC_ERR_UTF8, err, msg_utf8);
        goto out;
    }
    if (in_string) {
        if (JDOC_UNLIKELY(c < 0x20)) {
            fail(s, JDOC_ERR_SYNTAX, base + i, msg_ctrl);
            goto out;
        }
        if (escaped) {
            escaped = false;
        } else if (c == '\\') {
            escaped = true;
            tape[n - 1] = ' ';
        } else if (c == '"') {
            in_string = false;
        }
    } else {
        int k = cls[c];
        if (escaped) {
            /* an escaped byte outside a string: a quote or a backslash is
             * then an ordinary scalar byte; anything else keeps its class */
            escaped = false;
            if (k == C_QUOTE || k == C_BACKSLASH)
                k = C_HIGH;
        }
        switch (k) {
        case C_WS:
            scalar = false;
            break;
        case C_BRACKET:
        case C_SEP:
            tape[n] = (uint8_t)c;
            index[n++] = (uint32_t)(base + i);
            scalar = false;
            break;
        case C_QUOTE:
            tape[n] = (uint8_t)c;
            index[n++] = (uint32_t)(base + i);
            string_start = (uint32_t)(base + i);
            in_string = true;
            scalar = false;
            break;
        case C_BACKSLASH:
            escaped = true;
            /* fall through */
        default:   /* a scalar byte */
            if (!scalar) {
                tape[n] = (uint8_t)c;
                index[n++] = (uint32_t)(base + i);
            }
            scalar = true;
            break;
        }
    }
    i++;
    goto next;

end:
    if (last) {
        if (utf8 && u.need)
            fail(s, JDOC_ERR_UTF8, u.start, msg_utf8);
        else if (in_string)
            fail(s, JDOC_ERR_SYNTAX, string_start, msg_unterminated);
    }
out:
    s->in_string = in_string ? ~0ull : 0;
    s->escaped = escaped;
    s->scalar = scalar;
    s->n = n;
    s->string_start = string_start;
    s->seq_need = u.need;
    s->seq_lo = u.lo;
    s->seq_hi = u.hi;
    s->seq_start = u.start;
}

/* The reference bracket pass: one entry at a time, with its own stack in
 * jump[] (see kernel.h for the contract). */
static int match_scalar(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
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

const jdoc_kernel jdoc__kernel_scalar = { JDOC_KERNEL_SCALAR, "scalar", 0, stage1_scalar, match_scalar, NULL, NULL, NULL, NULL, NULL, NULL };

bool jdoc__utf8_check(const uint8_t *buf, size_t len, size_t *err)
{
    u8state u = { 0, 0x80, 0xBF, 0 };
    for (size_t i = 0; i < len; i++)
        if ((buf[i] >= 0x80 || u.need) && !utf8_step(&u, buf[i], i, err))
            return false;
    if (u.need) {
        *err = u.start;
        return false;
    }
    return true;
}
