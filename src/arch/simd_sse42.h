/* SPDX-License-Identifier: MIT */
/* SSE4.2 + PCLMULQDQ primitives for stage1_impl.h: four 16-byte registers a block. */
#include <immintrin.h>

typedef __m128i vec;
#define VEC_BYTES 16

static inline vec v_load(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline vec v_splat(uint8_t c) { return _mm_set1_epi8((char)c); }
static inline vec v_and(vec a, vec b) { return _mm_and_si128(a, b); }
static inline vec v_or(vec a, vec b) { return _mm_or_si128(a, b); }
static inline vec v_xor(vec a, vec b) { return _mm_xor_si128(a, b); }
static inline vec v_shr4(vec a) { return _mm_and_si128(_mm_srli_epi16(a, 4), _mm_set1_epi8(0x0f)); }
static inline vec v_lookup16(vec t, vec i) { return _mm_shuffle_epi8(t, i); }
static inline vec v_lookup_lo(vec t, vec i) { return _mm_shuffle_epi8(t, i); }   /* 0 for i >= 0x80 */
static inline vec v_subs(vec a, vec b) { return _mm_subs_epu8(a, b); }
static inline vec v_table(const uint8_t t[16]) { return _mm_loadu_si128((const __m128i *)t); }
static inline bool v_any(vec a) { return !_mm_testz_si128(a, a); }
#define v_prev(cur, prev, N) _mm_alignr_epi8((cur), (prev), 16 - (N))
static inline vec v_zero(void) { return _mm_setzero_si128(); }
static inline vec v_count_eq(vec acc, vec v, uint8_t c) { return _mm_add_epi8(acc, _mm_cmpeq_epi8(v, v_splat(c))); }
static inline uint64_t v_count_sum(vec acc)
{
    __m128i s = _mm_sad_epu8(_mm_sub_epi8(_mm_setzero_si128(), acc), _mm_setzero_si128());
    return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

static inline uint64_t blk_mask(vec a, vec b, vec c, vec d)
{
    return (uint64_t)(uint16_t)_mm_movemask_epi8(a) | (uint64_t)(uint16_t)_mm_movemask_epi8(b) << 16 |
           (uint64_t)(uint16_t)_mm_movemask_epi8(c) << 32 | (uint64_t)(uint16_t)_mm_movemask_epi8(d) << 48;
}
static inline uint64_t blk_eq(const vec *v, uint8_t c)
{
    vec s = v_splat(c);
    return blk_mask(_mm_cmpeq_epi8(v[0], s), _mm_cmpeq_epi8(v[1], s), _mm_cmpeq_epi8(v[2], s),
                    _mm_cmpeq_epi8(v[3], s));
}
/* a[k] == b[k] bytewise */
static inline uint64_t blk_eqv(const vec *a, const vec *b)
{
    return blk_mask(_mm_cmpeq_epi8(a[0], b[0]), _mm_cmpeq_epi8(a[1], b[1]), _mm_cmpeq_epi8(a[2], b[2]),
                    _mm_cmpeq_epi8(a[3], b[3]));
}
static inline uint64_t blk_le(const vec *v, uint8_t c)
{
    vec s = v_splat(c);
#define LE(x) _mm_cmpeq_epi8(_mm_min_epu8((x), s), (x))
    return blk_mask(LE(v[0]), LE(v[1]), LE(v[2]), LE(v[3]));
#undef LE
}
static inline uint64_t blk_nonzero(const vec *v)
{
    vec z = _mm_setzero_si128();
    return ~blk_mask(_mm_cmpeq_epi8(v[0], z), _mm_cmpeq_epi8(v[1], z), _mm_cmpeq_epi8(v[2], z), _mm_cmpeq_epi8(v[3], z));
}
static inline bool blk_ascii(const vec *v)
{
    vec o = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
    return _mm_movemask_epi8(o) == 0;
}
static inline uint64_t prefix_xor(uint64_t x)
{
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}
static inline int ctz_nz(uint64_t x) { return __builtin_ctzll(x | 0x8000000000000000ull); }
static inline uint64_t ctz64(uint64_t x) { return (uint64_t)__builtin_ctzll(x | 0x8000000000000000ull); }

/* Eight tape bytes gathered in a register by byte inserts (see put8). */
#define JDOC_HAVE_TAPE8 1
typedef __m128i tape8;
#define t8_zero() _mm_setzero_si128()
#define t8_put(t, b, i) _mm_insert_epi8((t), (b), (i))
#define t8_store(p, t) _mm_storel_epi64((__m128i *)(void *)(p), (t))

/* Stage 2's keys written klen long (see key_cands in stage1_impl.h and
 * keys_eq in simd_avx2.h), 4 a compare: all 64 entries' lengths from the
 * index (reads index[e..e+64], within the index's room), masked to the keys. */
#define JDOC_HAVE_KEYS_EQ 1
static inline uint64_t keys_eq(const uint32_t *index, uint32_t e, uint64_t keys, uint32_t klen)
{
    const __m128i kl = _mm_set1_epi32((int)klen);
    const uint32_t *x = index + e;
    uint64_t eq = 0;
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++) {
        __m128i wl = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(const void *)(x + 4 * j + 1)),
                                   _mm_loadu_si128((const __m128i *)(const void *)(x + 4 * j)));
        eq |= (uint64_t)(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(wl, kl))) << (4 * j);
    }
    return eq & keys;
}

/* Some ':' of p[0..256) right after whitespace (p[-1] readable), as in
 * simd_avx2.h, 16 bytes against the 16 one before them, all OR-ed before
 * one test. */
#define JDOC_HAVE_COLON_WS4 1
static inline bool colon_ws4(const uint8_t *p)
{
    const __m128i colon = _mm_set1_epi8(':'), sp = _mm_set1_epi8(' ');
    __m128i m = _mm_setzero_si128();
#pragma GCC unroll 16
    for (int k = 0; k < 16; k++) {
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k - 1));
        __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k)), colon);
        m = _mm_or_si128(m, _mm_and_si128(c, _mm_cmpeq_epi8(_mm_min_epu8(b, sp), b)));
    }
    return !_mm_testz_si128(m, m);
}
