/* SPDX-License-Identifier: MIT */
/* Number tokens: strict RFC 8259 grammar, int64/uint64 classification, and the
 * correctly rounded double (Clinger fast path, Eisel-Lemire, exact big-integer
 * comparison as the fallback). */
#include "number.h"

#include <float.h>
#include <string.h>

#include "pow5_table.h"

#define INF_BITS 0x7FF0000000000000u
#define EXP_SAT ((int64_t)1 << 40)   /* explicit exponents saturate here */
#define MAX_SIG_DIGITS 800           /* more significant digits only add a sticky bit */

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE inline __attribute__((always_inline))
#define COLD __attribute__((noinline, cold))
#else
#define HOT_INLINE inline
#define COLD
#endif

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;
#endif

/* Full 64x64 -> 128-bit product. */
static inline void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    u128 r = (u128)a * b;
    *hi = (uint64_t)(r >> 64);
    *lo = (uint64_t)r;
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10; /* < 3 * 2^32 */
    *lo = (mid << 32) | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

static inline int clz64(uint64_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

static inline bool is_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }

static const uint8_t delim_tab[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [','] = 1,
    [']'] = 1, ['}'] = 1,  [':'] = 1,  ['"'] = 1, ['['] = 1, ['{'] = 1,
};

static const uint64_t pow10_u64[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
    100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
    1000000000000000000u, 10000000000000000000u,
};

/* floor(q * log2(10)) for |q| <= 2048; checked over the table range by gen_pow5. */
static inline int fl_log2_10(int q) { return ((q * 217706 + (2048 << 16)) >> 16) - 2048; }

static inline double bits_to_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* ------------------------------------------------------------------------ */
/* Grammar                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct scan {
    size_t len;     /* token length */
    size_t ilen;    /* integer digits, at p + neg */
    size_t flen;    /* fraction digits, at p + neg + ilen + 1 */
    int64_t exp;    /* explicit exponent, saturated to +-EXP_SAT */
    uint64_t w;     /* integer and fraction digits as one number, mod 2^64 */
    bool neg, frac, expo;
} scan;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JDOC_NUM_SWAR 1
#define BYTES(x) (0x0101010101010101u * (x))

/* High bit of each byte of the result set iff that byte of v is not '0'..'9'.
 * Bytes >= 0x80 are flagged by v itself; the other two terms work on 7-bit
 * bytes so no carry or borrow crosses a byte: b + 0x46 >= 0x80 iff b >= ':',
 * and 0xAF - b >= 0x80 iff b < '0'. */
static inline uint64_t non_digits(uint64_t v)
{
    uint64_t low7 = v & BYTES(0x7F);
    return (v | (low7 + BYTES(0x46)) | (BYTES(0xAF) - low7)) & BYTES(0x80);
}

/* Value of eight decimal digits (0..9 per byte, the first in the low byte):
 * merge neighbours into 4 two-digit lanes, then 2 four-digit, then one. */
static inline uint64_t digits8(uint64_t v)
{
    v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFu;
    v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFu;
    return (v * 10000 + (v >> 32)) & 0xFFFFFFFFu;
}
#endif

/* Digits from s[i] (i <= end): accumulate into *w (mod 2^64), return the
 * index after the last digit. Reads nothing at or past `end`. */
static inline size_t eat_digits(const unsigned char *s, size_t i, size_t end, uint64_t *w)
{
    uint64_t acc = *w;
#ifdef JDOC_NUM_SWAR
    while (end - i >= 8) {
        uint64_t v;
        memcpy(&v, s + i, 8);
        uint64_t nd = non_digits(v);
        v -= BYTES('0'); /* borrows only start at non-digit bytes and move up */
        if (!nd) {
            acc = acc * 100000000u + digits8(v);
            i += 8;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctzll(nd) >> 3; /* digits before the first non-digit */
        if (k) {
            /* move the k digits to the top bytes: the zeros shifted in below
             * them act as leading zeros, the rest falls off the top */
            acc = acc * pow10_u64[k] + digits8(v << (64 - 8 * k));
            i += k;
        }
        *w = acc;
        return i;
    }
#endif
    while (i < end && is_digit(s[i])) {
        acc = acc * 10 + (uint64_t)(s[i] - '0');
        i++;
    }
    *w = acc;
    return i;
}

static HOT_INLINE jdoc_status scan_num(const char *p, size_t avail, scan *s, size_t *err_off)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t i = 0;
    uint64_t w = 0;

    s->neg = false;
    s->frac = false;
    s->expo = false;
    s->flen = 0;
    s->exp = 0;
    if (i < avail && u[i] == '-') {
        s->neg = true;
        i++;
    }
    size_t istart = i;
    if (i >= avail)
        goto bad;
    if (u[i] == '0') {
        i++;
    } else if ((unsigned char)(u[i] - '1') < 9) {
        w = (uint64_t)(u[i] - '0');
        i = eat_digits(u, i + 1, avail, &w);
    } else {
        goto bad;
    }
    s->ilen = i - istart;
    if (i < avail && u[i] == '.') {
        size_t fstart = ++i;
        i = eat_digits(u, i, avail, &w);
        if (i == fstart)
            goto bad;
        s->frac = true;
        s->flen = i - fstart;
    }
    if (i < avail && (u[i] | 0x20) == 'e') {
        bool eneg = false;
        s->expo = true;
        i++;
        if (i < avail && (u[i] == '+' || u[i] == '-')) {
            eneg = u[i] == '-';
            i++;
        }
        if (i >= avail || !is_digit(u[i]))
            goto bad;
        int64_t e = 0;
        do {
            if (e < EXP_SAT)
                e = e * 10 + (u[i] - '0');
            i++;
        } while (i < avail && is_digit(u[i]));
        s->exp = eneg ? -e : e;
    }
    if (i < avail && !delim_tab[u[i]])
        goto bad;
    s->len = i;
    s->w = w;
    return JDOC_OK;
bad:
    if (err_off)
        *err_off = i;
    return JDOC_ERR_NUMBER;
}

/* Does a 20-digit integer fit in uint64? */
static COLD bool fits_u64_20(const char *digits)
{
    return memcmp(digits, "18446744073709551615", 20) <= 0;
}

/* Type, i and u from a scanned token. */
static HOT_INLINE void classify(const char *p, const scan *s, jdoc_num *out)
{
    out->len = s->len;
    out->i = 0;
    out->u = 0;
    out->type = JDOC_DOUBLE;
    if (s->frac || s->expo)
        return;
    uint64_t mag = s->w;
    if (s->ilen >= 20 && (s->ilen > 20 || !fits_u64_20(p + s->neg)))
        return; /* beyond 64 bits */
    if (!s->neg) {
        out->u = mag;
        if (mag <= (uint64_t)INT64_MAX) {
            out->type = JDOC_INT;
            out->i = (int64_t)mag;
        } else {
            out->type = JDOC_UINT;
        }
    } else if (mag <= (uint64_t)1 << 63) {
        out->type = JDOC_INT;
        out->i = mag == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)mag;
    }
}

/* ------------------------------------------------------------------------ */
/* Eisel-Lemire                                                             */
/* ------------------------------------------------------------------------ */

/* Bits of the positive double nearest to w * 10^q (w != 0, q in table range),
 * INF_BITS when it overflows. *ok is false when the 128-bit approximation
 * cannot decide; the returned bits are then off by at most one ulp. */
static HOT_INLINE uint64_t eisel_lemire(uint64_t w, int q, bool *ok)
{
    /* Let T be the table row: 5^q * 2^-s (s = floor(q*log2 5) - 127) truncated
     * to 128 bits. Then X = wn * T, with wn = w << lz in [2^63, 2^64), is in
     * [2^190, 2^192) and w * 10^q = X_exact * 2^(q + s - lz). T is exact for
     * 0 <= q <= 55 (5^55 < 2^128) and has a zero low half for q <= 27. */
    int lz = clz64(w);
    uint64_t wn = w << lz;
    const uint64_t *t = jdoc__pow5_128[q - JDOC_POW5_MIN_Q];
    bool exact = q >= 0 && q <= 55;
    uint64_t hi, lo, rest = 0;
    mul64(wn, t[0], &hi, &lo);
    *ok = true;
    /* (hi, lo) = wn * T_hi, the top 128 bits of wn * T_hi * 2^64. The ignored
     * wn * T_lo and T's truncation add less than 2^64 to (hi, lo): hi may be
     * one too small. That moves the bits we round at (bit 9 of hi and up)
     * only when the low 9 bits of hi are all ones; then add wn * T_lo. */
    if ((hi & 0x1FF) == 0x1FF || (q > 27 && exact)) {
        uint64_t h2, l2;
        mul64(wn, t[1], &h2, &l2);
        lo += h2;
        hi += lo < h2;
        rest = l2;
        /* Now the error is below 2^64 at the level of `rest`: at most +1 to
         * lo. Undecidable only if that could still carry into bit 9. */
        if (!exact && lo == UINT64_MAX && (hi & 0x1FF) == 0x1FF)
            *ok = false;
    }
    int upper = (int)(hi >> 63);
    int vexp = fl_log2_10(q) + 63 - lz + upper; /* floor(log2(w * 10^q)) */
    int shift = 10 + upper;                      /* bits of hi below the 53 kept */
    int ulp = vexp - 52;                         /* binary exponent of the result's ulp */
    if (ulp < -1074) {                           /* subnormal: keep fewer bits */
        shift += -1074 - ulp;
        ulp = -1074;
    }
    if (shift > 64)
        return 0; /* below half the smallest subnormal */
    uint64_t m = shift == 64 ? 0 : hi >> shift;
    uint64_t half = (uint64_t)1 << (shift - 1);
    if (hi & half) {
        /* At or above the halfway point. It is exactly halfway only if all
         * lower bits are zero, which needs an exact table row: otherwise the
         * true product is strictly above what we computed. Ties go to even. */
        if (exact && (hi & (half - 1)) == 0 && lo == 0 && rest == 0)
            m += m & 1;
        else
            m += 1;
    }
    /* m carries the hidden bit (2^52) for normal results: adding it to the
     * exponent field below is exactly right, and a rounding carry to 2^53
     * (or a subnormal rounding up to 2^52) moves to the next binade. */
    uint64_t bits = ((uint64_t)(ulp + 1074) << 52) + m;
    return bits >= INF_BITS ? INF_BITS : bits;
}

/* ------------------------------------------------------------------------ */
/* Exact fallback: compare the decimal with halfway points as big integers   */
/* ------------------------------------------------------------------------ */

/* 800 decimal digits are < 2^2658 and 5^1124 < 2^2610; both sides of a
 * comparison stay below 2^2700. */
#define BIG_LIMBS 48

typedef struct big {
    uint64_t d[BIG_LIMBS]; /* little endian */
    int n;                 /* limbs in use, d[n-1] != 0 (n == 0 for zero) */
} big;

/* a = a * m + add; returns false on overflow of the capacity. */
static bool big_muladd(big *a, uint64_t m, uint64_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t hi, lo;
        mul64(a->d[i], m, &hi, &lo);
        lo += carry;
        hi += lo < carry;
        a->d[i] = lo;
        carry = hi;
    }
    if (carry) {
        if (a->n == BIG_LIMBS)
            return false;
        a->d[a->n++] = carry;
    }
    return true;
}

static bool big_mul_pow5(big *a, unsigned k)
{
    static const uint64_t p5_27 = 7450580596923828125u; /* 5^27 < 2^63 */
    bool ok = true;
    for (; k >= 27; k -= 27)
        ok &= big_muladd(a, p5_27, 0);
    if (k) {
        uint64_t m = 1;
        while (k--)
            m *= 5;
        ok &= big_muladd(a, m, 0);
    }
    return ok;
}

/* a <<= bits; false if it would not fit (then a is bigger than any big). */
static bool big_shl(big *a, uint64_t bits)
{
    if (a->n == 0)
        return true;
    uint64_t newbits = (uint64_t)(a->n - 1) * 64 + (uint64_t)(64 - clz64(a->d[a->n - 1])) + bits;
    if (bits > (uint64_t)BIG_LIMBS * 64 || newbits > (uint64_t)BIG_LIMBS * 64)
        return false;
    int L = (int)(bits / 64), n = a->n, nn = (int)((newbits + 63) / 64);
    unsigned sh = (unsigned)(bits % 64);
    /* downwards, so every source limb is read before it is overwritten */
    for (int dst = nn - 1; dst >= L; dst--) {
        int src = dst - L;
        uint64_t v = src < n ? a->d[src] << sh : 0;
        if (sh && src >= 1)
            v |= a->d[src - 1] >> (64 - sh);
        a->d[dst] = v;
    }
    for (int i = 0; i < L; i++)
        a->d[i] = 0;
    a->n = nn;
    return true;
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static inline unsigned digit_at(const unsigned char *ds, size_t ilen, size_t i)
{
    return (unsigned)(ds[i < ilen ? i : i + 1] - '0');
}

typedef struct exact_dec {
    big l;      /* D * 5^E when E >= 0, else D */
    big r5;     /* 5^-E when E < 0, else 1 */
    int e2l;    /* value = l * 2^e2l / r5 (with the 2^E part split off) */
    int e;      /* E */
    bool sticky; /* nonzero digits were dropped beyond MAX_SIG_DIGITS */
} exact_dec;

/* Sign of value - halfway(b), where halfway(b) is the midpoint between the
 * positive double with bits b and the next one up. */
static int cmp_halfway(const exact_dec *x, uint64_t b)
{
    uint64_t f = b >> 52, mant = b & 0xFFFFFFFFFFFFFu;
    int e2 = f ? (int)f - 1075 : -1074;
    if (f)
        mant |= (uint64_t)1 << 52;
    /* halfway = (2 * mant + 1) * 2^(e2 - 1); value = D * 10^E.
     * Multiply both by 5^-E when E < 0 so that both sides are integers times
     * powers of two, then shift the side with the larger power of two. */
    big lhs = x->l, rhs = x->r5;
    big_muladd(&rhs, 2 * mant + 1, 0); /* < 2^54 * 5^1124: fits */
    int64_t e2r = (int64_t)(e2 - 1) - (x->e < 0 ? x->e : 0);
    int64_t d = e2r - x->e2l;
    int c;
    if (d > 0)
        c = big_shl(&rhs, (uint64_t)d) ? big_cmp(&lhs, &rhs) : -1;
    else
        c = big_shl(&lhs, (uint64_t)-d) ? big_cmp(&lhs, &rhs) : 1;
    if (c == 0 && x->sticky)
        c = 1;
    return c;
}

/* Exact bits of the positive double nearest to the token's digits, starting
 * from a candidate at most a few ulps away. ds: first integer digit. */
static COLD uint64_t exact_bits(const unsigned char *ds, size_t ilen, size_t n, size_t z,
                                int64_t dexp, uint64_t cand)
{
    exact_dec x;
    size_t nsig = n - z;
    size_t kept = nsig < MAX_SIG_DIGITS ? nsig : MAX_SIG_DIGITS;
    x.sticky = false;
    for (size_t i = z + kept; i < n; i++)
        if (digit_at(ds, ilen, i)) {
            x.sticky = true;
            break;
        }
    while (kept > 1 && digit_at(ds, ilen, z + kept - 1) == 0) /* first digit is nonzero */
        kept--;
    x.e = (int)(dexp - (int64_t)kept + 1); /* dexp in [-342, 308] here */

    /* D from the kept digits, 19 at a time */
    x.l.n = 0;
    for (size_t i = 0; i < kept;) {
        uint64_t acc = 0;
        size_t j = 0;
        for (; j < 19 && i < kept; j++, i++)
            acc = acc * 10 + digit_at(ds, ilen, z + i);
        big_muladd(&x.l, pow10_u64[j], acc);
    }
    x.r5.n = 1;
    x.r5.d[0] = 1;
    if (x.e >= 0) {
        big_mul_pow5(&x.l, (unsigned)x.e);
        x.e2l = x.e;
    } else {
        big_mul_pow5(&x.r5, (unsigned)-x.e);
        x.e2l = 0;
    }

    /* Walk from the candidate to the answer: the b with
     * halfway(b - 1) <= value <= halfway(b), ties to even. The candidate is
     * within a couple of ulps (jdoc__num_parse_exact: 64 more); the step cap
     * only bounds the time should that ever be wrong. */
    uint64_t b = cand > INF_BITS ? INF_BITS : cand;
    bool up = false;
    for (int steps = 0; steps < 256 && b < INF_BITS; steps++) {
        int c = cmp_halfway(&x, b);
        if (c > 0 || (c == 0 && (b & 1))) {
            b++;
            up = true;
        } else {
            break;
        }
    }
    for (int steps = 0; steps < 256 && !up && b > 0; steps++) {
        int c = cmp_halfway(&x, b - 1);
        if (c < 0 || (c == 0 && !((b - 1) & 1)))
            b--;
        else
            break;
    }
    return b;
}

/* ------------------------------------------------------------------------ */
/* Decimal to double                                                        */
/* ------------------------------------------------------------------------ */

#if FLT_EVAL_METHOD == 0
static const double pow10_dbl[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
#endif

/* |value| of a scanned token as double bits (INF_BITS beyond range), any
 * token. exact/nudge: jdoc__num_parse_exact only. */
static COLD uint64_t to_bits_general(const char *p, const scan *s, bool exact, int nudge)
{
    const unsigned char *ds = (const unsigned char *)p + s->neg;
    size_t n = s->ilen + s->flen;
    uint64_t w;
    int64_t q;
    bool trunc = false;
    size_t z = 0;
    int64_t dexp = 0;

    if (n <= 19) {
        w = s->w;
        q = s->exp - (int64_t)s->flen;
        if (w == 0)
            return 0;
        if (q < JDOC_POW5_MIN_Q)
            return 0; /* w * 10^q < 10^-324: below half the smallest subnormal */
        if (q > JDOC_POW5_MAX_Q)
            return INF_BITS;
    } else {
        /* Long digit string: the first 19 significant digits, and whether
         * anything nonzero follows. */
        while (z < n && digit_at(ds, s->ilen, z) == 0)
            z++;
        if (z == n)
            return 0;
        dexp = (int64_t)(n - z - 1) + s->exp - (int64_t)s->flen; /* value in [10^dexp, 10^(dexp+1)) */
        if (dexp < -324)
            return 0; /* < 10^-324, below half the smallest subnormal */
        if (dexp > 308)
            return INF_BITS;
        size_t k = n - z < 19 ? n - z : 19;
        w = 0;
        for (size_t i = 0; i < k; i++)
            w = w * 10 + digit_at(ds, s->ilen, z + i);
        q = dexp - (int64_t)k + 1;
        for (size_t i = z + k; i < n; i++)
            if (digit_at(ds, s->ilen, i)) {
                trunc = true;
                break;
            }
    }

    bool ok;
    uint64_t b = eisel_lemire(w, (int)q, &ok);
    if (ok && trunc) {
        /* the value is strictly between w and w + 1 (times 10^q) */
        bool ok2;
        uint64_t b2 = eisel_lemire(w + 1, (int)q, &ok2);
        ok = ok2 && b2 == b;
    }
    if (exact) {
        ok = false;
        if (nudge < 0)
            b = b >= (uint64_t)-nudge ? b - (uint64_t)-nudge : 0;
        else
            b = INF_BITS - b >= (uint64_t)nudge ? b + (uint64_t)nudge : INF_BITS;
    }
    if (ok)
        return b;
    if (n <= 19) {
        while (z < n && digit_at(ds, s->ilen, z) == 0)
            z++;
        dexp = (int64_t)(n - z - 1) + s->exp - (int64_t)s->flen;
    }
    return exact_bits(ds, s->ilen, n, z, dexp, b);
}

/* The common case inline: at most 19 digits, decided by Clinger or by
 * Eisel-Lemire; everything else goes to to_bits_general. */
static HOT_INLINE uint64_t to_bits(const char *p, const scan *s)
{
    if (s->ilen + s->flen <= 19) {
        uint64_t w = s->w;
        int64_t q = s->exp - (int64_t)s->flen;
        if (w == 0)
            return 0;
#if FLT_EVAL_METHOD == 0
        if (w <= (uint64_t)1 << 53 && q >= -22 && q <= 22) {
            double d = (double)w;
            d = q < 0 ? d / pow10_dbl[-q] : d * pow10_dbl[q];
            uint64_t b;
            memcpy(&b, &d, sizeof b);
            return b;
        }
#endif
        if (q >= JDOC_POW5_MIN_Q && q <= JDOC_POW5_MAX_Q) {
            bool ok;
            uint64_t b = eisel_lemire(w, (int)q, &ok);
            if (ok)
                return b;
        }
    }
    return to_bits_general(p, s, false, 0);
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */
/* ------------------------------------------------------------------------ */

static void set_error(jdoc_num *out, size_t off)
{
    out->type = JDOC_INVALID;
    out->len = off;
    out->i = 0;
    out->u = 0;
    out->d = 0.0;
    out->inf = false;
}

jdoc_status jdoc__num_classify(const char *p, size_t avail, jdoc_num *out, size_t *err_off)
{
    scan s;
    size_t off = 0;
    if (scan_num(p, avail, &s, &off) != JDOC_OK) {
        if (err_off)
            *err_off = off;
        set_error(out, off);
        return JDOC_ERR_NUMBER;
    }
    classify(p, &s, out);
    out->d = 0.0;
    out->inf = false;
    return JDOC_OK;
}

jdoc_status jdoc__num_parse(const char *p, size_t avail, jdoc_num *out, size_t *err_off)
{
    scan s;
    size_t off = 0;
    if (scan_num(p, avail, &s, &off) != JDOC_OK) {
        if (err_off)
            *err_off = off;
        set_error(out, off);
        return JDOC_ERR_NUMBER;
    }
    classify(p, &s, out);
    uint64_t b = to_bits(p, &s);
    out->inf = b == INF_BITS;
    if (s.neg)
        b |= (uint64_t)1 << 63;
    out->d = bits_to_double(b);
    return JDOC_OK;
}

jdoc_status jdoc__num_parse_exact(const char *p, size_t avail, int nudge, double *d)
{
    scan s;
    if (scan_num(p, avail, &s, NULL) != JDOC_OK)
        return JDOC_ERR_NUMBER;
    if (nudge < -64 || nudge > 64)
        return JDOC_ERR_ARG;
    uint64_t b = to_bits_general(p, &s, true, nudge);
    if (s.neg)
        b |= (uint64_t)1 << 63;
    *d = bits_to_double(b);
    return JDOC_OK;
}
