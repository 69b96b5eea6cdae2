/* SPDX-License-Identifier: MIT */
/* NEON primitives for stage1_impl.h: four 16-byte registers a block.
 * The prefix XOR uses PMULL unless JDOC_NEON_NO_PMULL is defined. */
#include <arm_neon.h>

typedef uint8x16_t vec;
#define VEC_BYTES 16

static inline vec v_load(const uint8_t *p) { return vld1q_u8(p); }
static inline vec v_splat(uint8_t c) { return vdupq_n_u8(c); }
static inline vec v_and(vec a, vec b) { return vandq_u8(a, b); }
static inline vec v_or(vec a, vec b) { return vorrq_u8(a, b); }
static inline vec v_xor(vec a, vec b) { return veorq_u8(a, b); }
static inline vec v_shr4(vec a) { return vshrq_n_u8(a, 4); }
static inline vec v_lookup16(vec t, vec i) { return vqtbl1q_u8(t, i); }
static inline vec v_lookup_lo(vec t, vec i) { return vqtbl1q_u8(t, vandq_u8(i, vdupq_n_u8(0x0f))); }
static inline vec v_subs(vec a, vec b) { return vqsubq_u8(a, b); }
static inline vec v_table(const uint8_t t[16]) { return vld1q_u8(t); }
static inline bool v_any(vec a) { return vmaxvq_u8(a) != 0; }
#define v_prev(cur, prev, N) vextq_u8((prev), (cur), 16 - (N))
static inline vec v_zero(void) { return vdupq_n_u8(0); }
static inline vec v_count_eq(vec acc, vec v, uint8_t c) { return vaddq_u8(acc, vceqq_u8(v, vdupq_n_u8(c))); }
static inline uint64_t v_count_sum(vec acc) { return vaddlvq_u8(vsubq_u8(vdupq_n_u8(0), acc)); }

/* 64 comparison results (0x00/0xFF bytes) to a 64-bit mask: keep one
 * distinct bit per byte position mod 8, then add neighbours pairwise until
 * each byte holds the 8 bits of its 8-byte group. */
static inline uint64_t blk_mask(vec a, vec b, vec c, vec d)
{
    static const uint8_t bit[16] = { 1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128 };
    vec m = vld1q_u8(bit);
    vec s0 = vpaddq_u8(vandq_u8(a, m), vandq_u8(b, m));
    vec s1 = vpaddq_u8(vandq_u8(c, m), vandq_u8(d, m));
    s0 = vpaddq_u8(s0, s1);
    s0 = vpaddq_u8(s0, s0);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s0), 0);
}
static inline uint64_t blk_eq(const vec *v, uint8_t c)
{
    vec s = v_splat(c);
    return blk_mask(vceqq_u8(v[0], s), vceqq_u8(v[1], s), vceqq_u8(v[2], s), vceqq_u8(v[3], s));
}
/* a[k] == b[k] bytewise */
static inline uint64_t blk_eqv(const vec *a, const vec *b)
{
    return blk_mask(vceqq_u8(a[0], b[0]), vceqq_u8(a[1], b[1]), vceqq_u8(a[2], b[2]), vceqq_u8(a[3], b[3]));
}
static inline uint64_t blk_le(const vec *v, uint8_t c)
{
    vec s = v_splat(c);
    return blk_mask(vcleq_u8(v[0], s), vcleq_u8(v[1], s), vcleq_u8(v[2], s), vcleq_u8(v[3], s));
}
static inline uint64_t blk_nonzero(const vec *v)
{
    return blk_mask(vtstq_u8(v[0], v[0]), vtstq_u8(v[1], v[1]), vtstq_u8(v[2], v[2]), vtstq_u8(v[3], v[3]));
}
static inline bool blk_ascii(const vec *v)
{
    return vmaxvq_u8(vorrq_u8(vorrq_u8(v[0], v[1]), vorrq_u8(v[2], v[3]))) < 0x80;
}
static inline uint64_t prefix_xor(uint64_t x)
{
#ifdef JDOC_NEON_NO_PMULL
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
#else
    return (uint64_t)vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64((poly64_t)x, (poly64_t)~0ull)), 0);
#endif
}
static inline int ctz_nz(uint64_t x) { return __builtin_ctzll(x | 0x8000000000000000ull); }
static inline uint64_t ctz64(uint64_t x) { return (uint64_t)__builtin_ctzll(x | 0x8000000000000000ull); }
