/* SPDX-License-Identifier: MIT */
/* AVX-512 (F/BW/VL) primitives for stage1_impl.h: one 64-byte register a block. */
#include <immintrin.h>

typedef __m512i vec;
#define VEC_BYTES 64

static inline vec v_load(const uint8_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline vec v_splat(uint8_t c) { return _mm512_set1_epi8((char)c); }
static inline vec v_and(vec a, vec b) { return _mm512_and_si512(a, b); }
static inline vec v_or(vec a, vec b) { return _mm512_or_si512(a, b); }
static inline vec v_xor(vec a, vec b) { return _mm512_xor_si512(a, b); }
static inline vec v_shr4(vec a) { return _mm512_and_si512(_mm512_srli_epi16(a, 4), _mm512_set1_epi8(0x0f)); }
static inline vec v_lookup16(vec t, vec i) { return _mm512_shuffle_epi8(t, i); }
static inline vec v_lookup_lo(vec t, vec i) { return _mm512_shuffle_epi8(t, i); }   /* 0 for i >= 0x80 */
static inline vec v_subs(vec a, vec b) { return _mm512_subs_epu8(a, b); }
static inline vec v_table(const uint8_t t[16]) { return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t)); }
static inline bool v_any(vec a) { return _mm512_test_epi8_mask(a, a) != 0; }
/* alignr works within 128-bit lanes: first build, per lane, the lane before it
 * ([prev lane 3, cur lanes 0..2]) */
#define v_prev(cur, prev, N) _mm512_alignr_epi8((cur), _mm512_alignr_epi32((cur), (prev), 12), 16 - (N))

static inline uint64_t blk_eq(const vec *v, uint8_t c) { return _mm512_cmpeq_epi8_mask(v[0], v_splat(c)); }
static inline uint64_t blk_le(const vec *v, uint8_t c) { return _mm512_cmple_epu8_mask(v[0], v_splat(c)); }
static inline uint64_t blk_nonzero(const vec *v) { return _mm512_test_epi8_mask(v[0], v[0]); }
static inline uint64_t blk_ge(const vec *v, uint8_t c) { return _mm512_cmpge_epu8_mask(v[0], v_splat(c)); }
static inline uint64_t blk_high(const vec *v) { return _mm512_movepi8_mask(v[0]); }
static inline bool blk_ascii(const vec *v) { return _mm512_movepi8_mask(v[0]) == 0; }
static inline uint64_t prefix_xor(uint64_t x)
{
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}
static inline int ctz_nz(uint64_t x) { return (int)_tzcnt_u64(x); }
