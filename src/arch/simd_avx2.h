/* SPDX-License-Identifier: MIT */
/* AVX2 primitives for stage1_impl.h: two 32-byte registers a block. */
#include <immintrin.h>

typedef __m256i vec;
#define VEC_BYTES 32

static inline vec v_load(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline vec v_splat(uint8_t c) { return _mm256_set1_epi8((char)c); }
static inline vec v_and(vec a, vec b) { return _mm256_and_si256(a, b); }
static inline vec v_or(vec a, vec b) { return _mm256_or_si256(a, b); }
static inline vec v_xor(vec a, vec b) { return _mm256_xor_si256(a, b); }
static inline vec v_shr4(vec a) { return _mm256_and_si256(_mm256_srli_epi16(a, 4), _mm256_set1_epi8(0x0f)); }
static inline vec v_lookup16(vec t, vec i) { return _mm256_shuffle_epi8(t, i); }
static inline vec v_lookup_lo(vec t, vec i) { return _mm256_shuffle_epi8(t, i); }   /* 0 for i >= 0x80 */
static inline vec v_subs(vec a, vec b) { return _mm256_subs_epu8(a, b); }
static inline vec v_table(const uint8_t t[16]) { return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t)); }
static inline bool v_any(vec a) { return !_mm256_testz_si256(a, a); }
/* alignr works within 128-bit lanes: first build [prev.hi, cur.lo] */
#define v_prev(cur, prev, N) _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (N))
static inline vec v_zero(void) { return _mm256_setzero_si256(); }
static inline vec v_count_eq(vec acc, vec v, uint8_t c) { return _mm256_add_epi8(acc, _mm256_cmpeq_epi8(v, v_splat(c))); }
static inline uint64_t v_count_sum(vec acc)
{
    __m256i s = _mm256_sad_epu8(_mm256_sub_epi8(_mm256_setzero_si256(), acc), _mm256_setzero_si256());
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return (uint64_t)_mm_cvtsi128_si64(t) + (uint64_t)_mm_extract_epi64(t, 1);
}

static inline uint64_t blk_mask(vec a, vec b)
{
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(a) | (uint64_t)(uint32_t)_mm256_movemask_epi8(b) << 32;
}
static inline uint64_t blk_eq(const vec *v, uint8_t c)
{
    vec s = v_splat(c);
    return blk_mask(_mm256_cmpeq_epi8(v[0], s), _mm256_cmpeq_epi8(v[1], s));
}
/* a[k] == b[k] bytewise */
static inline uint64_t blk_eqv(const vec *a, const vec *b)
{
    return blk_mask(_mm256_cmpeq_epi8(a[0], b[0]), _mm256_cmpeq_epi8(a[1], b[1]));
}
static inline uint64_t blk_le(const vec *v, uint8_t c)
{
    vec s = v_splat(c);
    return blk_mask(_mm256_cmpeq_epi8(_mm256_min_epu8(v[0], s), v[0]), _mm256_cmpeq_epi8(_mm256_min_epu8(v[1], s), v[1]));
}
static inline uint64_t blk_nonzero(const vec *v)
{
    vec z = _mm256_setzero_si256();
    return ~blk_mask(_mm256_cmpeq_epi8(v[0], z), _mm256_cmpeq_epi8(v[1], z));
}
static inline bool blk_ascii(const vec *v) { return _mm256_movemask_epi8(_mm256_or_si256(v[0], v[1])) == 0; }
static inline uint64_t prefix_xor(uint64_t x)
{
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}
static inline int ctz_nz(uint64_t x) { return (int)_tzcnt_u64(x); }
static inline uint64_t ctz64(uint64_t x) { return _tzcnt_u64(x); }

/* Eight tape bytes gathered in a register by byte inserts (see put8). */
#define JDOC_HAVE_TAPE8 1
typedef __m128i tape8;
#define t8_zero() _mm_setzero_si128()
#define t8_put(t, b, i) _mm_insert_epi8((t), (b), (i))
#define t8_store(p, t) _mm_storel_epi64((__m128i *)(void *)(p), (t))

/*
 * Stage 2's keys written klen long (see key_cands in stage1_impl.h), 8 a
 * step: a key's length as written is the difference of its index entry and
 * the next (its ':'), compared with klen for all 64 entries, then masked to
 * the keys. Reads index[e..e+64]: the entries past the container's closing
 * one are within the index's room (the tape is read that far too).
 */
#define JDOC_HAVE_KEYS_EQ 1
static inline uint64_t keys_eq(const uint32_t *index, uint32_t e, uint64_t keys, uint32_t klen)
{
    const __m256i kl = _mm256_set1_epi32((int)klen);
    const uint32_t *x = index + e;
    uint64_t eq = 0;
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        __m256i wl = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(x + 8 * j + 1)),
                                      _mm256_loadu_si256((const __m256i *)(const void *)(x + 8 * j)));
        eq |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(wl, kl))) << (8 * j);
    }
    return eq & keys;
}

/* Some ':' of p[0..256) right after whitespace (p[-1] readable), as in
 * simd_avx512.h: each 32 bytes against the 32 one before them (an
 * unaligned load, no carry), eight OR-ed before one test. */
#define JDOC_HAVE_COLON_WS4 1
static inline bool colon_ws4(const uint8_t *p)
{
    const __m256i colon = _mm256_set1_epi8(':'), sp = _mm256_set1_epi8(' ');
    __m256i m = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) {
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k - 1));
        __m256i c = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k)), colon);
        m = _mm256_or_si256(m, _mm256_and_si256(c, _mm256_cmpeq_epi8(_mm256_min_epu8(b, sp), b)));
    }
    return !_mm256_testz_si256(m, m);
}

#include "bmi2.h"
