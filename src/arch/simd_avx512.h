/* SPDX-License-Identifier: MIT */
/* AVX-512 (F/BW/VL/VBMI/VBMI2) primitives for stage1_impl.h: one 64-byte register a block. */
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
static inline vec v_zero(void) { return _mm512_setzero_si512(); }
/* a count in each byte lane, up by one where v == c (1 -sat (v ^ c)): no mask
 * to vector conversion, 0.65 of the time of one (Zen 5) */
static inline vec v_count_eq(vec acc, vec v, uint8_t c)
{
    return _mm512_add_epi8(acc, _mm512_subs_epu8(_mm512_set1_epi8(1), _mm512_xor_si512(v, v_splat(c))));
}
static inline uint64_t v_count_sum(vec acc) { return (uint64_t)_mm512_reduce_add_epi64(_mm512_sad_epu8(acc, _mm512_setzero_si512())); }

static inline uint64_t blk_eq(const vec *v, uint8_t c) { return _mm512_cmpeq_epi8_mask(v[0], v_splat(c)); }
static inline uint64_t blk_eqv(const vec *a, const vec *b) { return _mm512_cmpeq_epi8_mask(a[0], b[0]); }   /* a == b bytewise */
static inline uint64_t blk_le(const vec *v, uint8_t c) { return _mm512_cmple_epu8_mask(v[0], v_splat(c)); }
static inline uint64_t blk_nonzero(const vec *v) { return _mm512_test_epi8_mask(v[0], v[0]); }
static inline bool blk_ascii(const vec *v) { return _mm512_movepi8_mask(v[0]) == 0; }
static inline uint64_t prefix_xor(uint64_t x)
{
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}
static inline int ctz_nz(uint64_t x) { return (int)_tzcnt_u64(x); }
static inline uint64_t ctz64(uint64_t x) { return _tzcnt_u64(x); }

/*
 * Whitespace and operators by one permute (VBMI) and a compare: the ten
 * bytes  \t \n \r ' ' , : [ ] { }  differ in their low six bits, so a 64-byte
 * table indexed by those bits holds each at its own slot, and a byte is one
 * of them when the table's byte there is the byte itself. The other slots
 * hold slot ^ 0x20, which no byte with those low bits equals.
 *   slot   0x09 0x0A 0x0D 0x1B 0x1D 0x20 0x2C 0x3A 0x3B 0x3D
 *   byte   \t   \n   \r   [    ]    ' '  ,    :    {    }
 * The operators are those above '"' (whitespace is at most ' '). Where the nibble
 * lookups take two shuffles, two compares and an OR (the operators' lookup
 * folds 0x0C and 0x1A onto ',' and ':', which a mask of control bytes
 * removed), this is one permute and two compares: 0.96 of the kernel's time
 * on an Intel host.
 */
#define JDOC_HAVE_SPECIAL 1
static const _Alignas(64) uint8_t jdoc_avx512_special[64] = {
    0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x09, 0x0A, 0x2B, 0x2C, 0x0D, 0x2E, 0x2F,
    0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x5B, 0x3C, 0x5D, 0x3E, 0x3F,
    0x20, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x2C, 0x0D, 0x0E, 0x0F,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x3A, 0x7B, 0x1C, 0x7D, 0x1E, 0x1F,
};
static inline uint64_t blk_special(const vec *v)
{
    vec t = _mm512_permutexvar_epi8(v[0], _mm512_load_si512((const void *)jdoc_avx512_special));
    return _mm512_cmpeq_epi8_mask(t, v[0]);
}
static inline uint64_t blk_gt(const vec *v, uint8_t c) { return _mm512_cmpgt_epu8_mask(v[0], v_splat(c)); }

/* A block is one register: a step checks its two blocks for backslashes and non-ASCII bytes first. */
#define JDOC_HAVE_NOBS_STEP 1

/* The entries of a block by byte compress (VBMI2): the positions 0..63
 * packed under the mask, the block's bytes there picked by one permute
 * (VBMI: one port-5 operation where a second compress takes two; 1.5% of
 * the kernel on an Intel host), then the positions widened to 32 bits 16
 * at a time. Stores 64 tape bytes and 16 index entries per 16 set bits
 * (the driver keeps 64 entries of room). */
#define JDOC_HAVE_FLATTEN 1
static const _Alignas(64) uint8_t jdoc_avx512_iota[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
};
static inline __attribute__((always_inline)) void flatten_block(uint32_t *out, uint8_t *tape, uint64_t bits,
                                                              const vec *v, uint32_t pos)
{
    __m512i at = _mm512_maskz_compress_epi8(bits, _mm512_load_si512((const void *)jdoc_avx512_iota));
    _mm512_storeu_si512((void *)tape, _mm512_permutexvar_epi8(at, v[0]));
    __m512i base = _mm512_set1_epi32((int)pos);
    _mm512_storeu_si512((void *)out, _mm512_add_epi32(base, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(at))));
    int cnt = __builtin_popcountll(bits);
    if (JDOC_UNLIKELY(cnt > 16)) {
        _mm512_storeu_si512((void *)(out + 16),
                            _mm512_add_epi32(base, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(at, 1))));
        if (cnt > 32) {
            _mm512_storeu_si512((void *)(out + 32),
                                _mm512_add_epi32(base, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(at, 2))));
            if (cnt > 48)
                _mm512_storeu_si512((void *)(out + 48),
                                    _mm512_add_epi32(base, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(at, 3))));
        }
    }
}

/*
 * Stage 2's keys written klen long (see key_cands in stage1_impl.h), 16 a
 * step: the difference of two index loads, masked to the keys. (Reading
 * the byte before each longer key's ':' by a gather too, for containers
 * with whitespace there, was slower than stage1_impl.h's loop on an Intel
 * host.)
 */
#define JDOC_HAVE_KEYS_EQ 1
static inline uint64_t keys_eq(const uint32_t *index, uint32_t e, uint64_t keys, uint32_t klen)
{
    const __m512i kl = _mm512_set1_epi32((int)klen);
    uint64_t eq = 0;
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        __mmask16 m = (__mmask16)(keys >> (16 * j));
        __m512i wl = _mm512_sub_epi32(_mm512_maskz_loadu_epi32(m, index + e + 16 * j + 1),
                                      _mm512_maskz_loadu_epi32(m, index + e + 16 * j));
        eq |= (uint64_t)_mm512_mask_cmpeq_epu32_mask(m, wl, kl) << (16 * j);
    }
    return eq;
}

#include "bmi2.h"

/* Leaf containers of a bracket-pass step (see match_run), matched at once.
 * `land` holds their closing brackets among the step's brackets `m`; each
 * one's opener is the bracket before it (pext, shift, pdep: in bracket
 * order), and the k-th opener pairs with the k-th closer, so one compress
 * of the closers' positions and one expand under the openers put each
 * closer's position at its opener's:
 *   tape   [ 1 , 2 ] , [ 3 , 4 ] , { " : 5 }
 *   land   . . . . 1 . . . . . 1 . . . . . 1
 *   lo     1 . . . . . 1 . . . . . 1 . . . .
 *   q      4 . . . . . 10. . . . . 16. . . .     stored at e + o: e + q - rel
 * widened 16 at a time and stored under the openers' mask (masked stores
 * of the upper three quarters only when an opener lies past the first).
 * canada's pass takes 0.46 of the scalar loop's time, marine_ik 0.76,
 * citm 0.94 (AMD Zen 5). Returns the brackets matched. */
#define JDOC_HAVE_LEAVES 1
static inline __attribute__((always_inline)) uint64_t leaf_jumps(uint32_t *jump, uint32_t e, uint32_t rel,
                                                               uint64_t m, uint64_t land)
{
    uint64_t lo = bits_before(m, land);
    __m512i iota = _mm512_load_si512((const void *)jdoc_avx512_iota);
    __m512i q = _mm512_maskz_expand_epi8(lo, _mm512_maskz_compress_epi8(land, iota));
    __m512i base = _mm512_set1_epi32((int)(e - rel));
#define LEAF_STORE(j, x) \
    _mm512_mask_storeu_epi32(jump + e + 16 * (j), (__mmask16)(lo >> 16 * (j)), \
                             _mm512_add_epi32(base, _mm512_cvtepu8_epi32(x)))
    LEAF_STORE(0, _mm512_castsi512_si128(q));
    if (lo >> 16) {
        LEAF_STORE(1, _mm512_extracti32x4_epi32(q, 1));
        LEAF_STORE(2, _mm512_extracti32x4_epi32(q, 2));
        LEAF_STORE(3, _mm512_extracti32x4_epi32(q, 3));
    }
#undef LEAF_STORE
    return lo | land;
}

/* Some ':' of p[0..256) right after whitespace (p[-1] readable): each
 * block against the bytes one before it (an unaligned load, no carry from
 * block to block), four blocks OR-ed before one test. The descendant scan's
 * pass over a container took 7 us of its 26 on 200 containers (339 KB) a
 * block at a time with the carry; this way the whole query, parse included,
 * took 58.7 and 57.9 us against 66.0 and 61.1 without (`make bench`'s query
 * workload, alternate builds, AMD Zen 5). */
#define JDOC_HAVE_COLON_WS4 1
static inline bool colon_ws4(const uint8_t *p)
{
    const __m512i colon = _mm512_set1_epi8(':'), sp = _mm512_set1_epi8(' ');
    __mmask64 m = 0;
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++)
        m |= _mm512_mask_cmple_epu8_mask(_mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(p + 64 * k)), colon),
                                         _mm512_loadu_si512((const void *)(p + 64 * k - 1)), sp);
    return m != 0;
}
