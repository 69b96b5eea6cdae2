/* SPDX-License-Identifier: MIT */
/* Tests of the JSON string-body module (src/stage2/strdec.c) against a tiny
 * independent reference decoder. Inputs live in exact-size malloc'd buffers. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage2/strdec.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

#define MAXB 512

/* Exact-size heap copy, so ASan sees any read outside [p, p+n). Decode
 * outputs get exact-size malloc(len) buffers too (the guaranteed capacity). */
static char *dupn(const void *p, size_t n)
{
    char *q = malloc(n);
    cr_assert(q != NULL || n == 0, "malloc");
    if (q)
        memcpy(q, p, n);
    return q;
}

/* Reference: byte at a time, written independently of strdec.c. On success
 * returns 1 with out[0..*olen); on error returns 0 with *err and the decoded
 * prefix before the error in out[0..*olen). */
static int ref_hex4(const unsigned char *p, size_t avail, unsigned *v)
{
    if (avail < 4)
        return 0;
    *v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned c = p[k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return 0;
        *v = *v * 16 + d;
    }
    return 1;
}

static int ref_decode(const unsigned char *s, size_t len, unsigned char *out, size_t *olen, size_t *err)
{
    size_t i = 0, o = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x20)
            goto bad;
        if (c != '\\') {
            out[o++] = (unsigned char)c;
            i++;
            continue;
        }
        if (i + 1 >= len)
            goto bad;
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *hit = s[i + 1] ? strchr(from, s[i + 1]) : NULL;
        if (hit) {
            out[o++] = (unsigned char)to[hit - from];
            i += 2;
            continue;
        }
        if (s[i + 1] != 'u')
            goto bad;
        unsigned v, w;
        if (!ref_hex4(s + i + 2, len - i - 2, &v))
            goto bad;
        size_t used = 6;
        if (v >= 0xDC00 && v <= 0xDFFF)
            goto bad;
        if (v >= 0xD800 && v <= 0xDBFF) {
            if (len - i < 8 || s[i + 6] != '\\' || s[i + 7] != 'u' || !ref_hex4(s + i + 8, len - i - 8, &w) ||
                w < 0xDC00 || w > 0xDFFF)
                goto bad;
            v = 0x10000 + (v - 0xD800) * 1024 + (w - 0xDC00);
            used = 12;
        }
        if (v < 0x80) {
            out[o++] = (unsigned char)v;
        } else {
            int n = v < 0x800 ? 2 : v < 0x10000 ? 3 : 4;
            static const unsigned lead[5] = {0, 0, 0xC0, 0xE0, 0xF0};
            for (int k = n - 1; k >= 1; k--)
                out[o + k] = (unsigned char)(0x80 | ((v >> (6 * (n - 1 - k))) & 0x3F));
            out[o] = (unsigned char)(lead[n] | (v >> (6 * (n - 1))));
            o += n;
        }
        i += used;
    }
    *olen = o;
    return 1;
bad:
    *olen = o;
    *err = i;
    return 0;
}

/* Body decodes OK to want[0..wlen): check all three functions. */
static void expect_ok(const void *body, size_t blen, const void *want, size_t wlen, const char *what)
{
    char *s = dupn(body, blen), *d = malloc(blen), *k = dupn(want, wlen);
    size_t dlen = (size_t)-1, eo = 777;
    cr_assert_eq(jdoc__str_decode(s, blen, d, &dlen, &eo), JDOC_OK, "decode %s", what);
    cr_assert_eq(dlen, wlen, "decode length %s: %zu vs %zu", what, dlen, wlen);
    cr_assert(memcmp(d, want, wlen) == 0, "decode bytes %s", what);
    cr_assert_eq(eo, 777, "err_off touched on success %s", what);
    cr_assert_eq(jdoc__str_check(s, blen, &eo), JDOC_OK, "check %s", what);
    cr_assert_eq(jdoc__str_equals(s, blen, k, wlen), 1, "equals %s", what);
    free(s);
    free(d);
    free(k);
}

/* Body is bad at offset `off`: decode and check agree, equals says -1 given the
 * decoded prefix (which the reference supplies). */
static void expect_bad(const void *body, size_t blen, size_t off, const char *what)
{
    char *s = dupn(body, blen), *d = malloc(blen);
    size_t dlen = 12345, eo = (size_t)-1;
    cr_assert_eq(jdoc__str_decode(s, blen, d, &dlen, &eo), JDOC_ERR_STRING, "decode %s", what);
    cr_assert_eq(eo, off, "decode err_off %s: %zu vs %zu", what, eo, off);
    cr_assert_eq(dlen, 12345, "dlen touched on error %s", what);
    cr_assert_eq(jdoc__str_decode(s, blen, d, &dlen, NULL), JDOC_ERR_STRING, "decode NULL err_off %s", what);
    eo = (size_t)-1;
    cr_assert_eq(jdoc__str_check(s, blen, &eo), JDOC_ERR_STRING, "check %s", what);
    cr_assert_eq(eo, off, "check err_off %s: %zu vs %zu", what, eo, off);
    cr_assert_eq(jdoc__str_check(s, blen, NULL), JDOC_ERR_STRING, "check NULL err_off %s", what);

    unsigned char ref[MAXB];
    size_t rlen = 0, roff = 0;
    cr_assert(blen <= MAXB);
    cr_assert_eq(ref_decode((const unsigned char *)body, blen, ref, &rlen, &roff), 0, "ref accepts %s", what);
    cr_assert_eq(roff, off, "ref err_off %s", what);
    char *k = dupn(ref, rlen);
    cr_assert_eq(jdoc__str_equals(s, blen, k, rlen), -1, "equals(prefix) %s", what);
    free(k);
    free(s);
    free(d);
}

#define OK(body, want) expect_ok(body, sizeof(body) - 1, want, sizeof(want) - 1, #body)
#define BAD(body, off) expect_bad(body, sizeof(body) - 1, off, #body)

static int equals_lit(const void *body, size_t blen, const void *key, size_t klen)
{
    char *s = dupn(body, blen), *k = dupn(key, klen);
    int r = jdoc__str_equals(s, blen, k, klen);
    free(s);
    free(k);
    return r;
}
#define EQ(body, key) equals_lit(body, sizeof(body) - 1, key, sizeof(key) - 1)

/* ------------------------------------------------------------------------ */
/* Fixed cases                                                              */
/* ------------------------------------------------------------------------ */

Test(strdec, plain)
{
    OK("", "");
    OK("a", "a");
    OK("hello, world", "hello, world");
    OK("'single' \x7f \xc3\xa9 \xff\xfe raw", "'single' \x7f \xc3\xa9 \xff\xfe raw");
}

Test(strdec, simple_escapes)
{
    OK("\\\"", "\"");
    OK("\\\\", "\\");
    OK("\\/", "/");
    OK("\\b", "\b");
    OK("\\f", "\f");
    OK("\\n", "\n");
    OK("\\r", "\r");
    OK("\\t", "\t");
    OK("a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti", "a\"b\\c/d\be\ff\ng\rh\ti");
    OK("\\\\\\\\", "\\\\");
    OK("\\\\n", "\\n");
}

Test(strdec, unicode_escapes)
{
    OK("\\u0041", "A");
    OK("\\u007F", "\x7f");
    OK("\\u0080", "\xc2\x80");
    OK("\\u00e9", "\xc3\xa9");
    OK("\\u07FF", "\xdf\xbf");
    OK("\\u0800", "\xe0\xa0\x80");
    OK("\\u4e2d\\u6587", "\xe4\xb8\xad\xe6\x96\x87");
    OK("\\uD7FF", "\xed\x9f\xbf");
    OK("\\uE000", "\xee\x80\x80");
    OK("\\uFFFF", "\xef\xbf\xbf");
    OK("\\uD800\\uDC00", "\xf0\x90\x80\x80");
    OK("\\uD83D\\uDE00", "\xf0\x9f\x98\x80");
    OK("\\uDBFF\\uDFFF", "\xf4\x8f\xbf\xbf");
    OK("\\uD840\\uDC00", "\xf0\xa0\x80\x80");
    OK("\\uD869\\uDED6", "\xf0\xaa\x9b\x96");
    OK("\\uD8BF\\uDFFF", "\xf0\xbf\xbf\xbf");
    OK("\\uDB40\\uDC01", "\xf3\xa0\x80\x81");
    OK("x\\uD83D\\uDE00\\uD83D\\uDE01y", "x\xf0\x9f\x98\x80\xf0\x9f\x98\x81y");
}

Test(strdec, mixed_case_hex)
{
    OK("\\u00e9\\u00E9", "\xc3\xa9\xc3\xa9");
    OK("\\uaBcD", "\xea\xaf\x8d");
    OK("\\uAbCd", "\xea\xaf\x8d");
    OK("\\ud83d\\ude00", "\xf0\x9f\x98\x80");
    OK("\\uD83d\\uDe00", "\xf0\x9f\x98\x80");
    OK("\\udBfF\\uDfFf", "\xf4\x8f\xbf\xbf");
}

Test(strdec, nul_escape)
{
    OK("\\u0000", "\0");
    OK("a\\u0000b", "a\0b");
    OK("\\u0000\\u0000\\u0000", "\0\0\0");
    /* length counts the NUL: also check through the plain API */
    char *s = dupn("ab\\u0000", 8), *d = malloc(8);
    size_t dlen = 0;
    cr_assert_eq(jdoc__str_decode(s, 8, d, &dlen, NULL), JDOC_OK);
    cr_assert_eq(dlen, 3);
    cr_assert(d[0] == 'a' && d[1] == 'b' && d[2] == '\0');
    cr_assert_eq(jdoc__str_equals(s, 8, "ab", 2), 0, "NUL is not a terminator");
    free(s);
    free(d);
}

Test(strdec, bad_escapes)
{
    BAD("\\a", 0);
    BAD("\\x41", 0);
    BAD("\\'", 0);
    BAD("\\0", 0);
    BAD("\\U0041", 0);
    BAD("ab\\q", 2);
    BAD("\\n\\v", 2);
    BAD("\\", 0);
    BAD("abc\\", 3);
    BAD("\\\\\\", 2);
    BAD("\\u", 0);
    BAD("\\u1", 0);
    BAD("\\u12", 0);
    BAD("xy\\u123", 2);
    BAD("\\u12G4", 0);
    BAD("\\u 123", 0);
    BAD("\\u-123", 0);
    BAD("\\u123g", 0);
    BAD("ok\\u00e9\\uZZZZ", 8);
    expect_bad("\\\0", 2, 0, "backslash NUL");
}

Test(strdec, control_bytes)
{
    BAD("\x01", 0);
    BAD("ab\x1f", 2);
    BAD("a\nb", 1);
    BAD("tab\there", 3);
    expect_bad("abc\0def", 7, 3, "raw NUL");
    BAD("\\n\x10", 2);
    /* 0x20 and up are fine, including 0x7f and high bytes */
    OK(" \x7f\x80\xff", " \x7f\x80\xff");
}

Test(strdec, surrogates)
{
    /* lone high */
    BAD("\\uD800", 0);
    BAD("ab\\uDBFF", 2);
    BAD("\\uD83Dxyz", 0);
    BAD("\\uD83Dxyzxyz", 0);
    BAD("abc\\uD83D\\n", 3);
    /* high followed by another high */
    BAD("\\uD83D\\uD83D", 0);
    BAD("z\\uD83D\\uDBFF", 1);
    /* high followed by a non-surrogate \u */
    BAD("\\uD83D\\u0041", 0);
    BAD("\\uD83D\\uE000", 0);
    BAD("\\uD83D\\uD7FF", 0);
    /* high followed by a truncated or malformed \u */
    BAD("\\uD83D\\uDE0", 0);
    BAD("\\uD83D\\uDE", 0);
    BAD("\\uD83D\\u", 0);
    BAD("\\uD83D\\", 0);
    BAD("\\uD83D\\uDEx0", 0);
    BAD("\\uD83D\\\\uDE00", 0);
    BAD("\\uD83D\\UDE00", 0);
    BAD("\\uD83D/uDE00", 0);
    /* lone low */
    BAD("\\uDC00", 0);
    BAD("ab\\uDFFF", 2);
    BAD("\\uDE00\\uD83D", 0);
    BAD("\\uD83D\\uDE00\\uDE00", 12);
    /* a valid pair, then a bad one */
    BAD("\\uD83D\\uDE00x\\uD83Dy", 13);
    /* edges of the ranges */
    OK("\\uD7FF\\uE000", "\xed\x9f\xbf\xee\x80\x80");
    OK("\\uD800\\uDFFF", "\xf0\x90\x8f\xbf");
    OK("\\uDBFF\\uDC00", "\xf4\x8f\xb0\x80");
}

/* ------------------------------------------------------------------------ */
/* Positions and lengths around block boundaries                            */
/* ------------------------------------------------------------------------ */

static size_t fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t k = 0; k < n; k++)
        p[k] = (unsigned char)('a' + (k * 7 + seed) % 26);
    return n;
}

/* Decode body with every function and compare with the reference. */
static void agree(const unsigned char *body, size_t blen, const char *what, size_t p1, size_t p2)
{
    unsigned char ref[MAXB];
    size_t rlen = 0, roff = 0;
    int rok = ref_decode(body, blen, ref, &rlen, &roff);
    char *s = dupn(body, blen), *d = malloc(blen);
    size_t dlen = 0, eo = 0, co = 0;
    jdoc_status st = jdoc__str_decode(s, blen, d, &dlen, &eo);
    jdoc_status cs = jdoc__str_check(s, blen, &co);
    char *k = dupn(ref, rlen);
    int eq = jdoc__str_equals(s, blen, k, rlen);
    if (rok) {
        cr_assert_eq(st, JDOC_OK, "%s at %zu,%zu", what, p1, p2);
        cr_assert_eq(dlen, rlen, "%s at %zu,%zu: len %zu vs %zu", what, p1, p2, dlen, rlen);
        cr_assert(memcmp(d, ref, rlen) == 0, "%s at %zu,%zu: bytes", what, p1, p2);
        cr_assert_eq(cs, JDOC_OK, "check %s at %zu,%zu", what, p1, p2);
        cr_assert_eq(eq, 1, "equals %s at %zu,%zu", what, p1, p2);
    } else {
        cr_assert_eq(st, JDOC_ERR_STRING, "%s at %zu,%zu", what, p1, p2);
        cr_assert_eq(eo, roff, "%s at %zu,%zu: off %zu vs %zu", what, p1, p2, eo, roff);
        cr_assert_eq(cs, JDOC_ERR_STRING, "check %s at %zu,%zu", what, p1, p2);
        cr_assert_eq(co, roff, "check %s at %zu,%zu: off", what, p1, p2);
        cr_assert_eq(eq, -1, "equals %s at %zu,%zu", what, p1, p2);
    }
    free(k);
    free(s);
    free(d);
}

static const char *const snippets[] = {
    "\\n", "\\\\", "\\\"", "\\u0000", "\\u00e9", "\\u4E2D", "\\uD83D\\uDE00", "\\u0041\\u0042",
    "\xc3\xa9", /* raw, not an escape */
    /* bad ones */
    "\\q", "\\", "\x01", "\\uD83D", "\\uDE00", "\\u12",
};

Test(strdec, one_snippet_every_position)
{
    static const size_t tails[] = {0, 1, 2, 7, 15, 16, 17, 31, 33, 50};
    unsigned char b[MAXB] = {0};
    int bad = 0;
    for (size_t si = 0; si < sizeof snippets / sizeof *snippets; si++) {
        size_t sl = strlen(snippets[si]);
        for (size_t pos = 0; pos <= 100; pos++)
            for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
                size_t n = fill(b, pos, 3);
                memcpy(b + n, snippets[si], sl);
                n += sl;
                n += fill(b + n, tails[t], 11);
                agree(b, n, snippets[si], pos, tails[t]);
                unsigned char r[MAXB];
                size_t rl, ro;
                bad += !ref_decode(b, n, r, &rl, &ro);
            }
    }
    cr_assert(bad > 1000, "bad snippets exercised: %d", bad);
}

Test(strdec, two_snippets)
{
    unsigned char b[MAXB] = {0};
    for (size_t si = 0; si < 9; si++)
        for (size_t sj = 0; sj < sizeof snippets / sizeof *snippets; sj++)
            for (size_t p = 0; p <= 40; p += 3)
                for (size_t gap = 0; gap <= 20; gap++) {
                    size_t n = fill(b, p, 5);
                    memcpy(b + n, snippets[si], strlen(snippets[si]));
                    n += strlen(snippets[si]);
                    n += fill(b + n, gap, 9);
                    memcpy(b + n, snippets[sj], strlen(snippets[sj]));
                    n += strlen(snippets[sj]);
                    n += fill(b + n, 20 - gap, 1);
                    agree(b, n, "pair", p, gap);
                }
}

Test(strdec, plain_lengths)
{
    unsigned char b[MAXB] = {0};
    for (size_t n = 0; n <= 100; n++) {
        fill(b, n, (unsigned)n);
        expect_ok(b, n, b, n, "plain");
    }
}

Test(strdec, all_escaped_lengths)
{
    /* Escape runs of every length, with and without plain tails. */
    unsigned char b[MAXB] = {0}, w[MAXB] = {0};
    for (size_t n = 0; n <= 40; n++)
        for (size_t tail = 0; tail <= 17; tail += 17) {
            size_t bl = 0, wl = 0;
            for (size_t k = 0; k < n; k++) {
                if (k % 3 == 2) {
                    memcpy(b + bl, "\\t", 2), bl += 2;
                    w[wl++] = '\t';
                } else {
                    memcpy(b + bl, "\\u30a2", 6), bl += 6;
                    memcpy(w + wl, "\xe3\x82\xa2", 3), wl += 3;
                }
            }
            fill(b + bl, tail, 0);
            fill(w + wl, tail, 0);
            expect_ok(b, bl + tail, w, wl + tail, "escape run");
        }
}

/* ------------------------------------------------------------------------ */
/* Pseudo-random agreement                                                  */
/* ------------------------------------------------------------------------ */

static uint32_t rng(uint64_t *st)
{
    *st = *st * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*st >> 33);
}

static size_t random_body(uint64_t *st, unsigned char *b, size_t max)
{
    static const char *const toks[] = {
        "\\", "\\", "\\", "\\", "u", "u", "\\u", "\\u", "D8", "DC", "d8", "dc", "DB", "DF", "de", "0",
        "0", "9", "a", "F", "e", "00", "3D", "DA", "d9", "\\uD840", "\\uD83D", "\\uDE00", "\\udbff", "\\uDFFF", "\\u0000",
        "\\u00", "n", "t", "\"", "/", "x", " ", "\x1f", "\xc3", "\xff", "" /* raw NUL */,
    };
    size_t want = rng(st) % (max + 1), n = 0;
    while (n < want) {
        const char *t = toks[rng(st) % (sizeof toks / sizeof *toks)];
        size_t tl = t[0] ? strlen(t) : 1;
        if (n + tl > want)
            break;
        memcpy(b + n, t, tl);
        n += tl;
    }
    return n;
}

Test(strdec, random_agreement)
{
    uint64_t st = 0x5eed;
    unsigned char b[MAXB] = {0};
    int ok = 0, bad = 0;
    for (int it = 0; it < 30000; it++) {
        size_t n = random_body(&st, b, it % 2 ? 24 : 70);
        unsigned char ref[MAXB];
        size_t rlen = 0, roff = 0;
        int rok = ref_decode(b, n, ref, &rlen, &roff);
        agree(b, n, "random", (size_t)it, n);
        if (!rok) {
            bad++;
            /* Matching prefix plus anything: still reaches the bad spot first. */
            ref[rlen] = 'Z';
            if (rlen + 1 <= n)
                cr_assert_eq(equals_lit(b, n, ref, rlen + 1), -1, "random %d prefix+1", it);
            if (rlen > 0) {
                ref[rlen - 1] ^= 1;
                cr_assert_eq(equals_lit(b, n, ref, rlen), 0, "random %d flipped prefix", it);
            }
            continue;
        }
        ok++;
        ref[rlen] = 'Z';
        cr_assert_eq(equals_lit(b, n, ref, rlen + 1), 0, "random %d longer key", it);
        if (rlen > 0) {
            cr_assert_eq(equals_lit(b, n, ref, rlen - 1), 0, "random %d shorter key", it);
            size_t at = rng(&st) % rlen;
            ref[at] ^= 0x20;
            cr_assert_eq(equals_lit(b, n, ref, rlen), 0, "random %d flipped key", it);
        }
    }
    /* The mix must exercise both outcomes substantially. */
    cr_assert(ok > 5000 && bad > 5000, "ok %d bad %d", ok, bad);
}

/* ------------------------------------------------------------------------ */
/* equals: early outs and edges                                             */
/* ------------------------------------------------------------------------ */

Test(strdec, equals_edges)
{
    cr_assert_eq(EQ("", ""), 1);
    cr_assert_eq(EQ("", "a"), 0);
    cr_assert_eq(EQ("a", ""), 0);
    cr_assert_eq(EQ("\\n", ""), 0);
    cr_assert_eq(EQ("abc", "abc"), 1);
    cr_assert_eq(EQ("abc", "abd"), 0);
    cr_assert_eq(EQ("abc", "ab"), 0);
    cr_assert_eq(EQ("ab", "abc"), 0);
    cr_assert_eq(EQ("a\\u00e9b", "a\xc3\xa9" "b"), 1);
    cr_assert_eq(EQ("a\\u00e9b", "a\xc3\xa9" "c"), 0);
    cr_assert_eq(EQ("a\\u00e9b", "a\xc3\xaa" "b"), 0);
    cr_assert_eq(EQ("a\\u00e9b", "a\xc3"), 0, "key ends inside an escape's output");
    cr_assert_eq(EQ("a\\u00e9", "a\xc3\xa9" "b"), 0);
    cr_assert_eq(EQ("\\/", "/"), 1);
    cr_assert_eq(EQ("\\/", "\\/"), 0);
    cr_assert_eq(EQ("\\uD83D\\uDE00", "\xf0\x9f\x98\x80"), 1);
    cr_assert_eq(EQ("\\uD83D\\uDE00", "\xf0\x9f\x98\x81"), 0);
    /* An empty key may come as NULL. */
    char *s = dupn("ab", 2);
    cr_assert_eq(jdoc__str_equals(s, 2, NULL, 0), 0);
    cr_assert_eq(jdoc__str_equals(s, 0, NULL, 0), 1);
    free(s);
}

Test(strdec, equals_early_out)
{
    /* A mismatch before a bad escape is reported as 0: the bad part is never reached. */
    cr_assert_eq(EQ("X\\q", "Y"), 0);
    cr_assert_eq(EQ("X\\q", "X"), -1);
    cr_assert_eq(EQ("X\\q", "XY"), -1);
    cr_assert_eq(EQ("ab\x01", "aX"), 0);
    cr_assert_eq(EQ("ab\x01", "ab"), -1);
    cr_assert_eq(EQ("abc\\q", "ab"), 0, "key used up before the bad escape");
    cr_assert_eq(EQ("\\n\\q", "X"), 0, "escape mismatch before the bad one");
    cr_assert_eq(EQ("\\u00e9\\q", "\xc3\xaa"), 0);
    cr_assert_eq(EQ("\\u00e9\\q", "\xc3\xa9"), -1);
    cr_assert_eq(EQ("\\uD83D", "?"), -1);
    cr_assert_eq(EQ("\\q", "abc"), 0, "key longer than the body: 0 without reading");

    /* Across block boundaries: a long body whose end is bad, keys differing at m. */
    unsigned char b[140], k[140];
    size_t n = fill(b, 130, 2);
    memcpy(b + n, "\\q", 2);
    for (size_t m = 0; m < 130; m++) {
        fill(k, 130, 2);
        k[m] ^= 0x40;
        cr_assert_eq(equals_lit(b, n + 2, k, 130), 0, "mismatch at %zu", m);
        cr_assert_eq(equals_lit(b, n + 2, k, m + 1), 0, "mismatch at the key's end %zu", m);
        fill(k, 130, 2);
        cr_assert_eq(equals_lit(b, n + 2, k, m), 0, "short key %zu", m);
    }
    cr_assert_eq(equals_lit(b, n + 2, k, 130), -1);
}
