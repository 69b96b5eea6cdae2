/* SPDX-License-Identifier: MIT */
/*
 * The reference stage-1 kernel: a byte-at-a-time state machine, written
 * independently of the SIMD algorithm (src/stage1/stage1_impl.h). It is the
 * fallback on any CPU and the oracle of the differential tests. It also
 * defines which error comes first: the first one met scanning left to right.
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

static bool is_op(unsigned char c)
{
    return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',';
}

static void fail(jdoc_s1 *s, jdoc_status code, size_t off, const char *m)
{
    s->code = code;
    s->offset = off;
    s->message = m;
}

/* One UTF-8 step; false on error (recorded). Unicode Table 3-7. */
static bool utf8_step(jdoc_s1 *s, unsigned char c, size_t off)
{
    if (s->seq_need) {
        if (c < s->seq_lo || c > s->seq_hi) {
            fail(s, JDOC_ERR_UTF8, s->seq_start, msg_utf8);
            return false;
        }
        s->seq_need--;
        s->seq_lo = 0x80;
        s->seq_hi = 0xBF;
        return true;
    }
    if (c < 0x80)
        return true;
    s->seq_start = off;
    s->seq_lo = 0x80;
    s->seq_hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        s->seq_need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        s->seq_need = 2;
        if (c == 0xE0) s->seq_lo = 0xA0;        /* overlong */
        if (c == 0xED) s->seq_hi = 0x9F;        /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        s->seq_need = 3;
        if (c == 0xF0) s->seq_lo = 0x90;        /* overlong */
        if (c == 0xF4) s->seq_hi = 0x8F;        /* above U+10FFFF */
    } else {
        fail(s, JDOC_ERR_UTF8, off, msg_utf8);  /* stray continuation, C0, C1, F5..FF */
        return false;
    }
    return true;
}

static void stage1_scalar(jdoc_s1 *s, const uint8_t *buf, size_t len, bool last)
{
    bool in_string = s->in_string != 0, escaped = s->escaped != 0, scalar = s->scalar != 0;
    uint32_t n = s->n, nb = s->nb;

    if (s->code != JDOC_OK)
        return;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = buf[i];
        size_t off = s->base + i;
        if (s->check_utf8 && !utf8_step(s, c, off))
            goto out;
        if (in_string) {
            if (c < 0x20) {
                fail(s, JDOC_ERR_SYNTAX, off, msg_ctrl);
                goto out;
            }
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (escaped) {
            /* an escaped byte outside a string: a quote or a backslash is
             * then an ordinary scalar byte; anything else keeps its class */
            escaped = false;
            if (c == '"' || c == '\\') {
                if (!scalar) s->index[n++] = (uint32_t)off;
                scalar = true;
                continue;
            }
        }
        if (jdoc__is_ws(c)) {
            scalar = false;
        } else if (is_op(c)) {
            if (c != ':' && c != ',') s->brackets[nb++] = n;
            s->index[n++] = (uint32_t)off;
            scalar = false;
        } else if (c == '"') {
            s->index[n++] = (uint32_t)off;
            s->string_start = (uint32_t)off;
            in_string = true;
            scalar = false;
        } else {
            if (!scalar) s->index[n++] = (uint32_t)off;
            scalar = true;
            if (c == '\\') escaped = true;
        }
    }
    if (last) {
        if (s->check_utf8 && s->seq_need)
            fail(s, JDOC_ERR_UTF8, s->seq_start, msg_utf8);
        else if (in_string)
            fail(s, JDOC_ERR_SYNTAX, s->string_start, msg_unterminated);
    }
out:
    s->in_string = in_string ? ~0ull : 0;
    s->escaped = escaped;
    s->scalar = scalar;
    s->n = n;
    s->nb = nb;
}

const jdoc_kernel jdoc__kernel_scalar = { JDOC_KERNEL_SCALAR, "scalar", 0, stage1_scalar };

bool jdoc__utf8_check(const uint8_t *buf, size_t len, size_t *err)
{
    jdoc_s1 s;
    memset(&s, 0, offsetof(jdoc_s1, prev));
    for (size_t i = 0; i < len; i++)
        if (!utf8_step(&s, buf[i], i)) {
            *err = s.offset;
            return false;
        }
    if (s.seq_need) {
        *err = s.seq_start;
        return false;
    }
    return true;
}
