/* SPDX-License-Identifier: MIT */
/* JSON string bodies: decode escapes to UTF-8, check them, compare with a key.
 * Runs without '\\' or control bytes are found 16 bytes at a time (SSE2 on
 * x86_64, NEON on arm64, 8-byte SWAR elsewhere); escapes go through one decoder. */
#include "stage2/strdec.h"

#include <stdint.h>
#include <string.h>

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

/* Hex digit value with bit 4 set as a "valid" flag; 0 = not a hex digit. */
#define HX(c, v) [c] = 0x10 | (v)
static const uint8_t hexv[256] = {
    HX('0', 0), HX('1', 1), HX('2', 2), HX('3', 3), HX('4', 4),
    HX('5', 5), HX('6', 6), HX('7', 7), HX('8', 8), HX('9', 9),
    HX('a', 10), HX('b', 11), HX('c', 12), HX('d', 13), HX('e', 14), HX('f', 15),
    HX('A', 10), HX('B', 11), HX('C', 12), HX('D', 13), HX('E', 14), HX('F', 15),
};
#undef HX

/* Byte produced by a one-character escape; 0 = not one (no such escape yields NUL). */
static const uint8_t simple_esc[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

static inline int is_special(unsigned c) { return c == '\\' || c < 0x20; }

/* Value of 4 hex digits at p, or -1. All four at once in a 32-bit word (byte k
 * = p[k]); per-byte sums below never carry into the next byte because every
 * byte is < 0x80 once the first test passed. */
static inline int32_t hex4(const unsigned char *p)
{
    uint32_t x = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    const uint32_t h = 0x80808080u;
    if (x & h)
        return -1;
    uint32_t digit = (x + 0x50505050u) & ~(x + 0x46464646u);      /* 0x30 <= b <= 0x39 */
    uint32_t y = x | 0x20202020u;                                  /* fold case */
    uint32_t alpha = (y + 0x1F1F1F1Fu) & ~(y + 0x19191919u);       /* 0x61 <= b|0x20 <= 0x66 */
    if (((digit | alpha) & h) != h)
        return -1;
    uint32_t n = (x & 0x0F0F0F0Fu) + ((alpha & h) >> 7) * 9;       /* nibble per byte */
    uint32_t pr = ((n << 4) | (n >> 8)) & 0x00FF00FFu;             /* p0p1 in byte 0, p2p3 in byte 2 */
    return (int32_t)(((pr & 0xFF) << 8) | (pr >> 16));
}

/* Decode the escape whose backslash is s[i] (i < len). Writes its UTF-8 to out
 * (exactly the returned count, 1..4 bytes, never more than it consumes) and the
 * source bytes consumed to *adv. Returns 0 for a bad escape, which is always
 * reported at s[i]: for a surrogate pair, i is the high surrogate's backslash. */
static inline size_t decode_escape(const unsigned char *s, size_t i, size_t len,
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
    *adv = 6;
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if ((cp & 0xF800) != 0xD800) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    /* Surrogate: must be a high one immediately followed by \u + a low one. */
    if (cp >= 0xDC00 || len - i < 12 || s[i + 6] != '\\' || s[i + 7] != 'u')
        return 0;
    int32_t lo = hex4(s + i + 8);
    if (lo < 0xDC00 || lo > 0xDFFF) /* also catches lo == -1 */
        return 0;
    uint32_t u = 0x10000u + (((uint32_t)cp - 0xD800u) << 10) + ((uint32_t)lo - 0xDC00u);
    out[0] = (unsigned char)(0xF0 | (u >> 18));
    out[1] = (unsigned char)(0x80 | ((u >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (u & 0x3F));
    *adv = 12;
    return 4;
}

/* ------------------------------------------------------------------------ */
/* Finding the next '\\' or control byte                                    */
/* ------------------------------------------------------------------------ */

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
        /* Last block ends at `end`; drop the bytes before i (already scanned). */
        uint64_t m = blk_special(blk_load(s + end - BLK)) >> ((i - (end - BLK)) << MASK_SHIFT);
        return m ? i + mask_first(m) : end;
    }
    while (i < end && !is_special(s[i]))
        i++;
    return i;
}

#else /* portable */

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* Nonzero iff some byte of w is '\\' or < 0x20 (exact as a yes/no, not as a position). */
static inline uint64_t word_special(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t bs = w ^ (ones * '\\');
    return (((bs - ones) & ~bs) | ((w - ones * 0x20) & ~w)) & highs;
}

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
            if (memcmp(s + i, k + ki, j - i) != 0)
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
