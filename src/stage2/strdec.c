/* SPDX-License-Identifier: MIT */
/* JSON string bodies: decode escapes to UTF-8, check them, compare with a key.
 * Runs without '\\' or control bytes are found 16 bytes at a time (SSE2 on
 * x86_64, NEON on arm64, 8-byte SWAR elsewhere); escapes go through one decoder. */
#include "stage2/strdec.h"

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define SD_INLINE static inline __attribute__((always_inline))
#else
#define SD_INLINE static inline
#endif

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define SD_SSE2 1
#elif defined(__aarch64__) && defined(__ARM_NEON) && !defined(__ARM_BIG_ENDIAN)
#include <arm_neon.h>
#define SD_NEON 1
#endif

/* ------------------------------------------------------------------------ */
/* Tables                                                                   */
/* ------------------------------------------------------------------------ */

/* hexd[k][c]: for a hex digit c at position k of \uXXXX, its value shifted into
 * place plus a count of 1 in bits 16+; 0 for any other byte. Summing the four
 * gives the code point in bits 0-15 and 4 in bits 16+ exactly when all are digits. */
#define HX(c, v, sh) [c] = 0x10000u | ((uint32_t)(v) << (sh))
#define HEXROW(sh)                                                                            \
    {                                                                                         \
        HX('0', 0, sh), HX('1', 1, sh), HX('2', 2, sh), HX('3', 3, sh), HX('4', 4, sh),       \
        HX('5', 5, sh), HX('6', 6, sh), HX('7', 7, sh), HX('8', 8, sh), HX('9', 9, sh),       \
        HX('a', 10, sh), HX('b', 11, sh), HX('c', 12, sh), HX('d', 13, sh), HX('e', 14, sh),  \
        HX('f', 15, sh), HX('A', 10, sh), HX('B', 11, sh), HX('C', 12, sh), HX('D', 13, sh),  \
        HX('E', 14, sh), HX('F', 15, sh),                                                     \
    }
static const uint32_t hexd[4][256] = {HEXROW(12), HEXROW(8), HEXROW(4), HEXROW(0)};
#undef HEXROW
#undef HX

/* Byte produced by a one-character escape; 0 = not one (no such escape yields NUL). */
static const uint8_t simple_esc[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

static inline int is_special(unsigned c) { return c == '\\' || c < 0x20; }

/* Value of 4 hex digits at p, or -1. */
SD_INLINE int32_t hex4(const unsigned char *p)
{
    uint32_t sum = hexd[0][p[0]] + hexd[1][p[1]] + hexd[2][p[2]] + hexd[3][p[3]];
    return (sum >> 16) == 4 ? (int32_t)(sum & 0xFFFF) : -1;
}

/* Store w's bytes low first (compilers merge this into one 32-bit store). */
SD_INLINE void put4(unsigned char *p, uint32_t w)
{
    p[0] = (unsigned char)w;
    p[1] = (unsigned char)(w >> 8);
    p[2] = (unsigned char)(w >> 16);
    p[3] = (unsigned char)(w >> 24);
}

/* Decode the escape whose backslash is s[i] (i < len). Writes its UTF-8 to out
 * and the source bytes consumed to *adv; returns the UTF-8 length (1..4), or 0
 * for a bad escape, which is always reported at s[i] (for a surrogate pair,
 * the high surrogate's backslash).
 * Room: a one-character escape writes 1 byte; a \u escape always writes 4
 * (garbage past the returned length). Both fit in decode's dst: with o <= i,
 * o + 4 <= i + 6 <= len. */
SD_INLINE size_t decode_escape(const unsigned char *s, size_t i, size_t len,
                              unsigned char *out, size_t *adv)
{
    if (len - i < 2)
        return 0;
    unsigned e = s[i + 1];
    if (e != 'u') {
        unsigned char r = simple_esc[e];
        if (!r)
            return 0;
        out[0] = r;
        *adv = 2;
        return 1;
    }
    if (len - i < 6)
        return 0;
    int32_t cp = hex4(s + i + 2);
    if (cp < 0)
        return 0;
    uint32_t c = (uint32_t)cp;
    *adv = 6;
    if (c < 0x80) {
        put4(out, c);
        return 1;
    }
    if (c < 0x800) {
        put4(out, 0x80C0u | c >> 6 | (c & 0x3F) << 8);
        return 2;
    }
    if ((c & 0xF800) != 0xD800) {
        put4(out, 0x8080E0u | c >> 12 | (c >> 6 & 0x3F) << 8 | (c & 0x3F) << 16);
        return 3;
    }
    /* Surrogate: must be a high one immediately followed by \u + a low one. */
    if (c >= 0xDC00 || len - i < 12 || s[i + 6] != '\\' || s[i + 7] != 'u')
        return 0;
    int32_t lo = hex4(s + i + 8);
    if (lo < 0xDC00 || lo > 0xDFFF) /* also catches lo == -1 */
        return 0;
    uint32_t u = 0x10000u + ((c - 0xD800u) << 10) + ((uint32_t)lo - 0xDC00u);
    put4(out, 0x808080F0u | u >> 18 | (u >> 12 & 0x3F) << 8 | (u >> 6 & 0x3F) << 16 | (u & 0x3F) << 24);
    *adv = 12;
    return 4;
}

/* ------------------------------------------------------------------------ */
/* Finding the next '\\' or control byte                                    */
/* ------------------------------------------------------------------------ */

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* Flags (bit 7) the bytes of w that are '\\' or < 0x20. A flagged byte can
 * make the byte above it flagged too (borrow), never one below: so "any" and,
 * little-endian, "first" are exact. */
static inline uint64_t word_special(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t bs = w ^ (ones * '\\');
    return (((bs - ones) & ~bs) | ((w - ones * 0x20) & ~w)) & highs;
}

#if SD_SSE2 || SD_NEON
#define BLK 16

#if SD_SSE2
typedef __m128i blk_t;
static inline blk_t blk_load(const unsigned char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline void blk_store(unsigned char *p, blk_t v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
/* One bit per byte, set for '\\' or < 0x20 (min_epu8(v, 0x1F) == v  <=>  v <= 0x1F). */
static inline uint64_t blk_special(blk_t v)
{
    __m128i bs = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(bs, ctl));
}
#define MASK_SHIFT 0 /* log2 of mask bits per byte */
#else
typedef uint8x16_t blk_t;
static inline blk_t blk_load(const unsigned char *p) { return vld1q_u8(p); }
static inline void blk_store(unsigned char *p, blk_t v) { vst1q_u8(p, v); }
/* Four bits per byte: narrowing each 16-bit lane by 4 keeps one nibble of each byte, in order. */
static inline uint64_t blk_special(blk_t v)
{
    uint8x16_t m = vorrq_u8(vceqq_u8(v, vdupq_n_u8('\\')), vcltq_u8(v, vdupq_n_u8(0x20)));
    uint8x8_t n = vshrn_n_u16(vreinterpretq_u16_u8(m), 4);
    return vget_lane_u64(vreinterpret_u64_u8(n), 0);
}
#define MASK_SHIFT 2
#endif

/* Byte index of the first flagged byte of a nonzero mask. */
static inline size_t mask_first(uint64_t m) { return (size_t)__builtin_ctzll(m) >> MASK_SHIFT; }

/* First special byte of s[i..end), or end. Reads only s[0..end). */
static inline size_t find_special(const unsigned char *s, size_t i, size_t end)
{
    for (; end - i >= BLK; i += BLK) {
        uint64_t m = blk_special(blk_load(s + i));
        if (m)
            return i + mask_first(m);
    }
    if (i == end)
        return end;
    if (end >= BLK) {
        /* Last block ends at `end`; drop the flags of the bytes before i. */
        uint64_t m = blk_special(blk_load(s + end - BLK)) >> ((i - (end - BLK)) << MASK_SHIFT);
        return m ? i + mask_first(m) : end;
    }
    /* end < 16: 8 bytes at a time, little-endian, the last word overlapping. */
    if (end - i >= 8) {
        uint64_t m = word_special(load64(s + i));
        if (m)
            return i + ((size_t)__builtin_ctzll(m) >> 3);
        i += 8;
    }
    if (i == end)
        return end;
    if (end >= 8) {
        /* Shift out the k bytes before i: they could be special, and their borrows
         * would leak into the flags. The k zero bytes shifted in at the top count
         * as special, the first of them sits at `end`: the answer if none before. */
        unsigned k = (unsigned)(i - (end - 8)); /* 1..7 */
        uint64_t m = word_special(load64(s + end - 8) >> (8 * k));
        return i + ((size_t)__builtin_ctzll(m) >> 3);
    }
    while (i < end && !is_special(s[i]))
        i++;
    return i;
}

#else /* portable */

static inline size_t find_special(const unsigned char *s, size_t i, size_t end)
{
    while (end - i >= 8 && !word_special(load64(s + i)))
        i += 8;
    while (i < end && !is_special(s[i]))
        i++;
    return i;
}
#endif

/* ------------------------------------------------------------------------ */
/* API                                                                      */
/* ------------------------------------------------------------------------ */

/* *dlen is set only on success. All of dst[0..len) may be written: bulk copies
 * store whole blocks and \uXXXX stores 4 bytes, past the final *dlen. */
jdoc_status jdoc__str_decode(const char *src, size_t len, char *dst, size_t *dlen, size_t *err_off)
{
    /* restrict: dst never overlaps src; lets stores to d not reload s. */
    const unsigned char *restrict s = (const unsigned char *)src;
    unsigned char *restrict d = (unsigned char *)dst;
    size_t i = 0, o = 0; /* o <= i always: no escape decodes longer than itself */

    while (i < len) {
#ifdef BLK
        /* Store whole blocks before looking at them: d + o + BLK <= d + i + BLK <= d + len,
         * so this stays within the caller's capacity; bytes past the first special one are
         * rewritten later or lie beyond *dlen. */
        while (len - i >= BLK) {
            blk_t v = blk_load(s + i);
            blk_store(d + o, v);
            uint64_t m = blk_special(v);
            if (m) {
                size_t n = mask_first(m);
                i += n;
                o += n;
                goto special;
            }
            i += BLK;
            o += BLK;
        }
#endif
        {
            size_t j = find_special(s, i, len);
            memcpy(d + o, s + i, j - i);
            o += j - i;
            i = j;
            if (i == len)
                break;
        }
#ifdef BLK
    special:
#endif
        if (s[i] != '\\')
            goto fail;
        /* Escapes often come in runs (\uXXXX\uXXXX...): stay here while they do. */
        do {
            size_t adv = 0, n = decode_escape(s, i, len, d + o, &adv);
            if (!n)
                goto fail;
            o += n;
            i += adv;
        } while (i < len && s[i] == '\\');
    }
    *dlen = o;
    return JDOC_OK;
fail:
    if (err_off)
        *err_off = i;
    return JDOC_ERR_STRING;
}

jdoc_status jdoc__str_check(const char *src, size_t len, size_t *err_off)
{
    const unsigned char *s = (const unsigned char *)src;
    unsigned char tmp[4];
    size_t i = 0;

    for (;;) {
        i = find_special(s, i, len);
        if (i == len)
            return JDOC_OK;
        if (s[i] != '\\')
            break;
        size_t adv = 0;
        do {
            if (!decode_escape(s, i, len, tmp, &adv))
                goto fail;
            i += adv;
        } while (i < len && s[i] == '\\');
    }
fail:
    if (err_off)
        *err_off = i;
    return JDOC_ERR_STRING;
}

/* Reads the body left to right and stops at the first of: a decoded byte that
 * differs from key, or decoded text running past klen (0); a bad escape or raw
 * control byte (-1); the end of the body (1 if all of key was matched, else 0).
 * So a bad body gives -1 only if its decoded text matched key up to the bad
 * spot; also, klen > len is 0 without reading (nothing decodes longer). */
int jdoc__str_equals(const char *src, size_t len, const char *key, size_t klen)
{
    const unsigned char *s = (const unsigned char *)src;
    const unsigned char *k = (const unsigned char *)key;
    size_t i = 0, ki = 0;

    if (klen > len)
        return 0;
    while (i < len) {
        unsigned c = s[i];
        if (c != '\\') {
            /* Scan no further than the rest of key could match. */
            size_t lim = len - i < klen - ki ? len - i : klen - ki;
            size_t j = find_special(s, i, i + lim);
            if (j > i && memcmp(s + i, k + ki, j - i) != 0) /* key may be NULL if klen == 0 */
                return 0;
            ki += j - i;
            i = j;
            if (i == len)
                break;
            c = s[i];
        }
        if (!is_special(c))
            return 0; /* key used up, body goes on */
        if (c != '\\')
            return -1;
        unsigned char tmp[4];
        size_t adv = 0, n = decode_escape(s, i, len, tmp, &adv);
        if (!n)
            return -1;
        if (n > klen - ki)
            return 0;
        for (size_t m = 0; m < n; m++)
            if (tmp[m] != k[ki + m])
                return 0;
        ki += n;
        i += adv;
    }
    return ki == klen;
}
