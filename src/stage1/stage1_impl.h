/* SPDX-License-Identifier: MIT */
/*
 * The SIMD stage-1 algorithm, written once. Each kernel file defines
 * JDOC_ARCH and includes its primitives header (simd_<arch>.h) and then this
 * file, which has no include guard: it is compiled once per architecture.
 *
 * Primitives a simd_<arch>.h provides (all static inline):
 *   vec, VEC_BYTES                   one register; a 64-byte block is NV of them
 *   v_load(p) v_splat(c) v_and v_or v_xor v_shr4 v_lookup16(table, v&15)
 *   v_subs(a, b)                     unsigned saturating a - b per byte
 *   v_prev(cur, prev, N)             bytes N positions back, across the register boundary
 *   v_any(v)                         some byte is nonzero
 *   v_zero() v_count_eq(acc, v, c)   a count per byte lane of where v == c (mod 256, in
 *   v_count_sum(acc)                 a form of the arch's choosing) and the sum of those counts
 *   v_table(t[16])                   a 16-byte table in every 128-bit lane
 *   v_lookup_lo(table, v)            table[v & 15] for v < 0x80; for v >= 0x80, 0 or
 *                                    table[v & 15] (the tables' bytes are < 0x80)
 *   blk_eq(v, c) blk_le(v, c) blk_nonzero(v) blk_ascii(v)
 *   blk_eqv(a, b)                    64-bit masks over a whole block of NV registers
 *   prefix_xor(x)                    bit i = x[0] ^ ... ^ x[i] (carry-less multiply by ~0)
 *   ctz_nz(x)                        count trailing zeros; any value for x == 0
 *   ctz64(x)                         the same as a uint64_t (no extension before an index)
 * and optionally, with JDOC_HAVE_FLATTEN defined:
 *   flatten_block(index, tape, bits, v, pos)   the entries of a block (see flatten below)
 * or, with JDOC_HAVE_TAPE8 defined, how eight tape bytes are gathered (see put8):
 *   tape8 t8_zero() t8_put(t, byte, i) t8_store(p, t)   (i a constant 0..7)
 * and, with JDOC_HAVE_NOBS_STEP defined, the main loop's step checks a pair
 * of blocks for backslashes and non-ASCII bytes first (see block2);
 * with JDOC_HAVE_SPECIAL defined, the classes come from
 *   blk_special(v)                   whitespace and operators, exactly
 *   blk_gt(v, c)                     bytes above c (unsigned)
 * instead of the two nibble lookups below.
 */
#include <string.h>

#define JDOC_CAT2(a, b) a##b
#define JDOC_CAT(a, b) JDOC_CAT2(a, b)
#define JDOC_FN(name) JDOC_CAT(name##_, JDOC_ARCH)

#define NV (64 / VEC_BYTES)
/* Every loop over the NV registers of a block is unrolled by pragma: left as
 * a loop, gcc 12 made the loads of a block a memmove into a stack copy (NV = 4). */

/* Whitespace and operators, each by one lookup on the low nibble and a
 * compare (for a byte >= 0x80 the lookup gives 0 or a byte < 0x80: no match):
 *   whitespace  ws[c & 15] == c          ' ' (0x20) \t (0x09) \n (0x0A) \r (0x0D)
 *   operator    op[c & 15] == (c | 0x20) , (0x2C) : (0x3A) { [ (0x7B 0x5B) } ] (0x7D 0x5D)
 *               and c >= 0x20            (0x0C and 0x1A also fold to , and :)
 * The other entries are 0, which no byte with that low nibble equals. */
static const uint8_t JDOC_FN(ws_lo)[16] = { 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0x09, 0x0A, 0, 0, 0x0D, 0, 0 };
static const uint8_t JDOC_FN(op_lo)[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3A, 0x7B, 0x2C, 0x7D, 0, 0 };

/*
 * UTF-8 by three nibble lookups (Keiser and Lemire, "Validating UTF-8 in
 * less than one instruction per byte"). For each byte and the byte before it
 * (prev1), each table gives the error categories its nibble may take part in;
 * the AND is nonzero exactly when the pair is invalid:
 *   0x01 too short   lead (C..F) followed by a non-continuation
 *   0x02 too long    ASCII followed by a continuation (8..B)
 *   0x04 overlong 3  E0 followed by 80..9F
 *   0x08 too large   F4..FF followed by 90..BF
 *   0x10 surrogate   ED followed by A0..BF
 *   0x20 overlong 2  C0, C1 followed by a continuation
 *   0x40 4-byte      F0 (overlong) or F5..FF followed by 80..8F
 *   0x80 two conts   continuation followed by continuation: valid only as the
 *                    3rd/4th byte of a sequence, i.e. when prev2 >= E0 or
 *                    prev3 >= F0, which is what `must23` marks with 0x80.
 */
static const uint8_t JDOC_FN(u8_prev_hi)[16] = {
    0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, /* 0..7 ASCII */
    0x80, 0x80, 0x80, 0x80,                         /* 8..B continuation */
    0x21, 0x01, 0x15, 0x49,                         /* C, D, E, F */
};
static const uint8_t JDOC_FN(u8_prev_lo)[16] = {
    0xE7, 0xA3, 0x83, 0x83, 0x8B, 0xCB, 0xCB, 0xCB,
    0xCB, 0xCB, 0xCB, 0xCB, 0xCB, 0xDB, 0xCB, 0xCB,
};
static const uint8_t JDOC_FN(u8_cur_hi)[16] = {
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, /* ASCII */
    0xE6, 0xAE, 0xBA, 0xBA,                         /* 8, 9, A, B */
    0x01, 0x01, 0x01, 0x01,                         /* leads */
};

/* A block ends in an incomplete sequence when its last byte >= C0, the one
 * before >= E0 or the one before that >= F0: the bytes above these maxima
 * (the last VEC_BYTES of the table are one register's). */
#define FF8 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
static const uint8_t JDOC_FN(u8_max)[64] = { FF8, FF8, FF8, FF8, FF8, FF8, FF8,
                                             0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF };
#undef FF8

typedef struct JDOC_FN(state) {
    vec u8_tbl[3], ws_tbl, op_tbl;
    vec u8_err, u8_prev, u8_max;
    uint64_t u8_inc, u8_cut;   /* u8_cut: a sequence cut short by an ASCII block */
} JDOC_FN(state);

static inline vec JDOC_FN(u8_incomplete)(vec last, vec max)
{
    return v_subs(last, max);
}

/* UTF-8 errors of one block accumulate in t->u8_err (or t->u8_cut); with `locate`, also
 * return the mask of the block's bytes where a check failed. With `ascii`
 * (a constant), the caller knows the block is ASCII. */
static inline __attribute__((always_inline)) uint64_t JDOC_FN(utf8_block)(JDOC_FN(state) *t, const vec *v, bool locate,
                                                                        bool ascii)
{
    uint64_t where = 0;
    if (ascii || blk_ascii(v)) {
        /* an incomplete sequence at the end of the previous block followed
         * by ASCII is an error, seen at this block's first byte (kept in a
         * scalar: a splat and an OR of vectors a block cost 1.5% on AVX-512) */
        t->u8_cut |= t->u8_inc;
        if (locate)
            where = t->u8_inc ? 1 : 0;
        t->u8_inc = 0;
        t->u8_prev = v[NV - 1];
        return where;
    }
    vec prev = t->u8_prev, f = v_splat(0x0f);
    vec e[NV];
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++) {
        vec cur = v[k];
        vec p1 = v_prev(cur, prev, 1);
        vec special = v_and(v_and(v_lookup16(t->u8_tbl[0], v_shr4(p1)),
                                  v_lookup16(t->u8_tbl[1], v_and(p1, f))),
                            v_lookup16(t->u8_tbl[2], v_shr4(cur)));
        vec must23 = v_or(v_subs(v_prev(cur, prev, 2), v_splat(0xE0 - 0x80)),
                          v_subs(v_prev(cur, prev, 3), v_splat(0xF0 - 0x80)));
        e[k] = v_xor(special, v_and(must23, v_splat(0x80)));
        t->u8_err = v_or(t->u8_err, e[k]);
        prev = cur;
    }
    if (locate)
        where = blk_nonzero(e);
    t->u8_prev = prev;
    t->u8_inc = v_any(JDOC_FN(u8_incomplete)(prev, t->u8_max));
    return where;
}

/* Entries of one block: index[i] = pos + the position of the i-th set bit of
 * `bits`, tape[i] = the block's byte there. Writes up to 8 entries past the
 * count (the driver keeps 64 entries of room), and reads p[64] for them (the
 * kernel passes the input's last block in a padded copy). A primitives header that has a
 * faster way (a byte compress) defines JDOC_HAVE_FLATTEN and its own
 * flatten_block(index, tape, bits, v, pos). */
#ifndef JDOC_HAVE_FLATTEN
/* Eight entries: their offsets stored one by one, their tape bytes gathered
 * and stored at once (a byte store for each entry cost 17% of the AVX2
 * kernel's time; a word built by shifts and ORs, half of that). A primitives
 * header may gather them its own way (JDOC_HAVE_TAPE8: x86 inserts each byte
 * into a register, one instruction where the word takes two); the word's
 * byte i is entry i in memory: little-endian only. */
#ifndef JDOC_HAVE_TAPE8
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "stage1_impl.h: the tape is stored a word at a time, little-endian"
#endif
typedef uint64_t tape8;
#define t8_zero() ((uint64_t)0)
#define t8_put(t, b, i) ((t) | (uint64_t)(b) << (8 * (i)))
#define t8_store(p, t) memcpy((p), &(t), 8)
#endif
static inline __attribute__((always_inline)) uint64_t JDOC_FN(put8)(uint32_t *out, uint8_t *tape, uint64_t bits,
                                                                   const uint8_t *p, uint32_t pos)
{
    tape8 t8 = t8_zero();
    /* written out, not a loop: t8_put's lane must be a constant at any -O */
#define PUT(i)                                  \
    do {                                        \
        uint64_t tz = ctz64(bits);              \
        out[i] = pos + (uint32_t)tz;            \
        t8 = t8_put(t8, p[tz], i);              \
        bits &= bits - 1;                       \
    } while (0)
    PUT(0); PUT(1); PUT(2); PUT(3); PUT(4); PUT(5); PUT(6); PUT(7);
#undef PUT
    t8_store(tape, t8);
    return bits;
}

static inline __attribute__((always_inline)) void JDOC_FN(flatten)(uint32_t *out, uint8_t *tape, uint64_t bits,
                                                                  const uint8_t *p, const vec *v, uint32_t pos)
{
    (void)v;
    if (!bits)
        return;   /* inside a long string: nothing to write */
    int cnt = __builtin_popcountll(bits);
    bits = JDOC_FN(put8)(out, tape, bits, p, pos);
    if (JDOC_UNLIKELY(cnt > 8)) {
        bits = JDOC_FN(put8)(out + 8, tape + 8, bits, p, pos);
        for (int i = 16; bits; i += 8)
            bits = JDOC_FN(put8)(out + i, tape + i, bits, p, pos);
    }
}
#else
static inline __attribute__((always_inline)) void JDOC_FN(flatten)(uint32_t *out, uint8_t *tape, uint64_t bits,
                                                                  const uint8_t *p, const vec *v, uint32_t pos)
{
    (void)p;
    flatten_block(out, tape, bits, v, pos);
}
#endif

#define ODD_BITS 0xAAAAAAAAAAAAAAAAull

/* Carried from block to block, kept in registers within one kernel call. */
typedef struct JDOC_FN(carry) {
    uint64_t escaped, in_string, scalar, ctrl;
    uint32_t *out;   /* where the next entry goes: index + n */
    uint8_t *tp;     /* and its tape byte: tape + n */
    bool check_utf8;
} JDOC_FN(carry);

/* What classify finds in a block, for emit. */
typedef struct JDOC_FN(marks) {
    uint64_t st;     /* the block's entries */
    uint64_t bsin;   /* backslashes in strings */
    vec v[NV];       /* its bytes, for a flatten_block that compresses them */
} JDOC_FN(marks);

/*
 * Classify one 64-byte block: its entries and the carries. With `locate` (a
 * constant: the kernel is compiled twice into the same loop), also return
 * the position in the block of the first error it sees, 64 for none, and its
 * class in *cls: that variant runs only over a chunk already known to hold
 * an error. With `nobs` (a constant too), the caller knows the block holds
 * no backslash: no escapes to resolve, no string to mark; with `ascii`,
 * that it is ASCII.
 */
static inline __attribute__((always_inline)) int JDOC_FN(classify)(JDOC_FN(carry) *s, JDOC_FN(state) *t,
                                                                  const uint8_t *p, bool utf8, bool locate,
                                                                  bool nobs, bool ascii, jdoc_status *cls,
                                                                  JDOC_FN(marks) *mk)
{
    vec v[NV];
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++)
        v[k] = v_load(p + k * VEC_BYTES);

    uint64_t bs = nobs ? 0 : blk_eq(v, '\\');
    uint64_t qt = blk_eq(v, '"');
    uint64_t ctl = blk_le(v, 0x1f);   /* control characters */
#ifdef JDOC_HAVE_SPECIAL
    uint64_t wsop = blk_special(v);          /* whitespace and operators */
    uint64_t op = wsop & blk_gt(v, '"');     /* the operators are those above '"' */
#else
    vec x[NV], y[NV];   /* one class at a time: fewer registers live */
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++) {
        x[k] = v_lookup_lo(t->op_tbl, v[k]);
        y[k] = v_or(v[k], v_splat(0x20));
    }
    uint64_t op = blk_eqv(x, y) & ~ctl;
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++)
        x[k] = v_lookup_lo(t->ws_tbl, v[k]);
    uint64_t wsop = blk_eqv(x, v) | op;
#endif

    /*
     * Escaped bytes: those after an odd-length run of backslashes.
     *   input      a \ \ \ " b \ \ "
     *   bs         0 1 1 1 0 0 1 1 0
     *   escaped    0 0 1 0 1 0 0 1 0      (the 2nd and 4th byte of "\\\\\"")
     * A run is split into pairs from its start; subtracting the run from its
     * own start bit plus the odd positions makes a carry ripple through each
     * run, leaving bit set at the byte after the run exactly when the run
     * started at an even position and ended at an odd one, or vice versa.
     */
    uint64_t escaped;
    if (!bs) {
        escaped = s->escaped;
        s->escaped = 0;
    } else {
        uint64_t potential = bs & ~s->escaped;
        uint64_t maybe = (potential << 1) | ODD_BITS;
        uint64_t codes = (maybe - potential) ^ ODD_BITS;
        escaped = codes ^ (bs | s->escaped);
        s->escaped = (codes & bs) >> 63;
    }

    /*
     * In-string mask: prefix XOR of the real quotes, so each opening quote and
     * the bytes up to (not including) its closing quote are set:
     *   input      [ " a b " , " c " ]
     *   quote      0 1 0 0 1 0 1 0 1 0
     *   in_string  0 1 1 1 0 0 1 1 0 0
     */
    uint64_t quote = qt & ~escaped;
    uint64_t instr = prefix_xor(quote) ^ s->in_string;
    s->in_string = (uint64_t)((int64_t)instr >> 63);

    uint64_t ctrl = ctl & instr;   /* control characters in strings */
    s->ctrl |= ctrl;

    /* scalar bytes: outside strings, not whitespace, operator or quote;
     * an entry at the first byte of each run */
    uint64_t scal = ~(wsop | quote | instr);
    uint64_t starts = scal & ~((scal << 1) | s->scalar);
    s->scalar = scal >> 63;

    uint64_t st = (op & ~instr) | (quote & instr) | starts;

    int err = 64;
    if (utf8) {
        uint64_t u8 = JDOC_FN(utf8_block)(t, v, locate, ascii);
        if (locate && (u8 | ctrl)) {
            /* the first error; on a tie (a control byte that cuts a UTF-8
             * sequence short) the UTF-8 error, as the scalar kernel says */
            int a = u8 ? ctz_nz(u8) : 64, b = ctrl ? ctz_nz(ctrl) : 64;
            err = a <= b ? a : b;
            *cls = a <= b ? JDOC_ERR_UTF8 : JDOC_ERR_SYNTAX;
        }
    } else if (locate && ctrl) {
        err = ctz_nz(ctrl);
        *cls = JDOC_ERR_SYNTAX;
    }

    mk->st = st;
    mk->bsin = bs & instr;
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++)
        mk->v[k] = v[k];
    return err;
}

/* Write the entries of a classified block (p: its bytes). */
static inline __attribute__((always_inline)) void JDOC_FN(emit)(JDOC_FN(carry) *s, const uint8_t *p, uint32_t pos,
                                                               const JDOC_FN(marks) mk)
{
    uint64_t st = mk.st;
    uint8_t *tp = s->tp;
    JDOC_FN(flatten)(s->out, tp, st, p, mk.v, pos);
    uint32_t cnt = (uint32_t)__builtin_popcountll(st);
    s->out += cnt;
    s->tp = tp + cnt;

    /* A string holding a backslash: its opening quote's tape byte becomes
     * ' '. Within a string there is no entry, so the entry before a
     * backslash in a string is that string's quote; the other backslashes
     * up to the next entry are in the same string.
     *   bytes       " a \ n b \ t "   ,   " c \ " "
     *   st          1 . . . . . . . . 1   1 . . . .
     *   bs & instr  . . 1 . . 1 . . . .   . . 1 . .   -> mark entries e-1 */
    uint64_t bsin = mk.bsin;
    while (JDOC_UNLIKELY(bsin)) {
        uint64_t low = bsin & (0 - bsin);
        uint64_t below = low - 1;
        tp[__builtin_popcountll(st & below) - 1] = ' ';   /* [-1]: a string from an earlier block */
        uint64_t later = st & ~below & ~low;
        bsin = later ? bsin & (0 - (later & (0 - later))) : 0;
    }
}

/* One block: classify, then emit. */
static inline __attribute__((always_inline)) int JDOC_FN(block)(JDOC_FN(carry) *s, JDOC_FN(state) *t,
                                                               const uint8_t *p, uint32_t pos, bool utf8,
                                                               bool locate, jdoc_status *cls)
{
    JDOC_FN(marks) mk;
    int err = JDOC_FN(classify)(s, t, p, utf8, locate, false, false, cls, &mk);
    JDOC_FN(emit)(s, p, pos, mk);
    return err;
}

#ifdef JDOC_HAVE_NOBS_STEP
/* 0: a backslash in one of the two blocks; 1: none; 2: none, and only ASCII */
static inline __attribute__((always_inline)) int JDOC_FN(plain2)(const uint8_t *p)
{
    vec a[NV], b[NV], o[NV];
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++) {
        a[k] = v_load(p + k * VEC_BYTES);
        b[k] = v_load(p + 64 + k * VEC_BYTES);
        o[k] = v_or(a[k], b[k]);
    }
    if (blk_eq(a, '\\') | blk_eq(b, '\\'))
        return 0;
    return blk_ascii(o) ? 2 : 1;
}
#endif

/* Two blocks, both classified before either is emitted: the second's masks
 * are computed while the first's entries are stored, where one block at a
 * time left the out-of-order window waiting on the flatten's chain of
 * bit-clears (the kernel took 0.84-0.89 of its time, AVX2 and SSE4.2).
 * With JDOC_HAVE_NOBS_STEP (a primitives header whose block is one
 * register: the checks are a compare and a sign test a block), most pairs
 * of blocks take a copy of the step without the escape and string-marking
 * work (no backslash in either), and most of those one without the UTF-8
 * lookups (only ASCII): AVX-512, 0.80-0.93 of the kernel's time; the
 * no-backslash copy alone on AVX2, 1.01. */
static inline __attribute__((always_inline)) void JDOC_FN(block2)(JDOC_FN(carry) *s, JDOC_FN(state) *t,
                                                                 const uint8_t *p, uint32_t pos, bool utf8)
{
    JDOC_FN(marks) a, b;
    jdoc_status cls;
#ifdef JDOC_HAVE_NOBS_STEP
    int plain = JDOC_FN(plain2)(p);
    if (JDOC_LIKELY(plain == 2)) {
        JDOC_FN(classify)(s, t, p, utf8, false, true, true, &cls, &a);
        JDOC_FN(classify)(s, t, p + 64, utf8, false, true, true, &cls, &b);
    } else if (plain == 1) {
        JDOC_FN(classify)(s, t, p, utf8, false, true, false, &cls, &a);
        JDOC_FN(classify)(s, t, p + 64, utf8, false, true, false, &cls, &b);
    } else
#endif
    {
        JDOC_FN(classify)(s, t, p, utf8, false, false, false, &cls, &a);
        JDOC_FN(classify)(s, t, p + 64, utf8, false, false, false, &cls, &b);
    }
    JDOC_FN(emit)(s, p, pos, a);
    JDOC_FN(emit)(s, p + 64, pos + 64, b);
}

/* The state at the start of a chunk, from what the previous chunk left in s. */
static inline __attribute__((always_inline)) void JDOC_FN(start)(const jdoc_s1 *s, JDOC_FN(state) *t,
                                                                JDOC_FN(carry) *c)
{
    t->u8_tbl[0] = v_table(JDOC_FN(u8_prev_hi));
    t->u8_tbl[1] = v_table(JDOC_FN(u8_prev_lo));
    t->u8_tbl[2] = v_table(JDOC_FN(u8_cur_hi));
    t->ws_tbl = v_table(JDOC_FN(ws_lo));
    t->op_tbl = v_table(JDOC_FN(op_lo));
    t->u8_max = v_load(JDOC_FN(u8_max) + 64 - VEC_BYTES);
    t->u8_err = v_splat(0);
    t->u8_prev = v_load(s->prev + 64 - VEC_BYTES);
    t->u8_inc = s->utf8_inc;
    t->u8_cut = 0;
    *c = (JDOC_FN(carry)){ s->escaped, s->in_string, s->scalar, 0, s->index + s->n, s->tape + s->n, s->check_utf8 };
}

/* d[0..n) = s[0..n) for 1 <= n <= 64, by overlapping fixed-size copies
 * (inline, where a memcpy call cost more than the copy). */
static inline void JDOC_FN(copy_short)(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 16) {
        for (size_t i = 0; i + 16 < n; i += 16)
            memcpy(d + i, s + i, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

static void JDOC_FN(stage1)(jdoc_s1 *s, const uint8_t *buf, size_t len, bool last)
{
    if (s->code != JDOC_OK)
        return;
    JDOC_FN(state) t;
    JDOC_FN(carry) c;
    JDOC_FN(start)(s, &t, &c);
    /* The chunk's last block, whole or not, goes through a padded copy, so
     * that the flatten's reads a byte past a block never go past the chunk
     * (the caller may have no more bytes yet); the other blocks have their
     * next byte in the chunk. */
    _Alignas(64) uint8_t tail[128];
    size_t full = len & ~(size_t)63;
    if (full == len && len)
        full -= 64;
    if (full < len) {
        memset(tail, ' ', sizeof tail);
        JDOC_FN(copy_short)(tail, buf + full, len - full);
    }
    jdoc_status cls = JDOC_OK;

    /* the UTF-8 choice and the chunk's base are constants of each loop */
    const uint32_t base = (uint32_t)s->base;
    size_t i = 0;
    if (c.check_utf8) {
        for (; i + 128 <= full; i += 128)
            JDOC_FN(block2)(&c, &t, buf + i, base + (uint32_t)i, true);
        for (; i < full; i += 64)
            JDOC_FN(block)(&c, &t, buf + i, base + (uint32_t)i, true, false, &cls);
        if (full < len)
            JDOC_FN(block)(&c, &t, tail, base + (uint32_t)full, true, false, &cls);
    } else {
        for (; i + 128 <= full; i += 128)
            JDOC_FN(block2)(&c, &t, buf + i, base + (uint32_t)i, false);
        for (; i < full; i += 64)
            JDOC_FN(block)(&c, &t, buf + i, base + (uint32_t)i, false, false, &cls);
        if (full < len)
            JDOC_FN(block)(&c, &t, tail, base + (uint32_t)full, false, false, &cls);
    }

    bool bad = c.ctrl || t.u8_cut || v_any(t.u8_err);
    if (JDOC_UNLIKELY(bad)) {
        /* again from the chunk's start, block by block, to say where */
        JDOC_FN(start)(s, &t, &c);
        for (i = 0; i < len; i += 64) {
            int at = JDOC_FN(block)(&c, &t, i < full ? buf + i : tail, base + (uint32_t)i, c.check_utf8, true, &cls);
            if (at < 64) {
                s->code = cls;
                s->offset = s->base + i + (size_t)at;
                break;
            }
        }
        if (s->code == JDOC_OK) {   /* cannot happen: the two passes see the same bits */
            s->code = JDOC_ERR_SYNTAX;
            s->offset = s->base;
        }
    } else if (last && t.u8_inc && s->check_utf8) {
        s->code = JDOC_ERR_UTF8;
        s->offset = s->base + len;
    } else if (last && c.in_string) {
        s->code = JDOC_ERR_SYNTAX;
        s->offset = s->base + len;
    }
    s->escaped = c.escaped;
    s->in_string = c.in_string;
    s->scalar = c.scalar;
    s->n = (uint32_t)(c.out - s->index);
    memcpy(s->prev + 64 - VEC_BYTES, &t.u8_prev, VEC_BYTES);
    s->utf8_inc = t.u8_inc;
    if (s->code != JDOC_OK)
        s->message = "error";   /* the driver asks the scalar kernel for the exact one */
}

/*
 * The bracket pass over the tape, 64 entries a step: a bracket is a byte b
 * with (b | 0x20) == '{' or '}' (that is [ { or ] }; the marked quote ' '
 * stays ' '), an opening one has bit 1 set ('[' 0x5B, '{' 0x7B against ']'
 * 0x5D, '}' 0x7D), and a closing one is its opener plus 2. The stack of open
 * containers is threaded through jump[], its top in a register.
 *
 * match_exact is the plain loop; match also matches a container with no
 * container inside in one step when both its brackets are in the same
 * 64-entry step, and leaves the error report to match_exact (but for
 * entries that run out: then both leave the same stack).
 */
/* The opening (*op) and closing (*cl) brackets among tape[e..e+64), entries before n only. */
static inline __attribute__((always_inline)) void JDOC_FN(bracket_masks)(const uint8_t *tape, uint32_t e, uint32_t n,
                                                                        uint64_t *op, uint64_t *cl)
{
    const vec lower = v_splat(0x20);
    vec v[NV];
#pragma GCC unroll 4
    for (int k = 0; k < NV; k++)
        v[k] = v_or(v_load(tape + e + (uint32_t)k * VEC_BYTES), lower);
    uint64_t keep = n - e < 64 ? (1ull << (n - e)) - 1 : ~0ull;
    *op = blk_eq(v, '{') & keep;
    *cl = blk_eq(v, '}') & keep;
}

static inline __attribute__((always_inline)) uint64_t JDOC_FN(brackets)(const uint8_t *tape, uint32_t e, uint32_t n)
{
    uint64_t op, cl;
    JDOC_FN(bracket_masks)(tape, e, n, &op, &cl);
    return op | cl;
}

static int JDOC_FN(match_exact)(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
                         uint32_t max_depth, uint32_t *at)
{
    uint32_t top = UINT32_MAX, depth = 0;
    for (uint32_t e = from; e < n; e += 64) {
        uint64_t m = JDOC_FN(brackets)(tape, e, n);
        while (m) {
            uint32_t i = e + (uint32_t)ctz_nz(m);
            m &= m - 1;
            uint8_t b = tape[i];
            if (b & 2) {
                if (JDOC_UNLIKELY(++depth > max_depth)) {
                    *at = i;
                    return JDOC_MATCH_DEPTH;
                }
                jump[i] = top;
                top = i;
                continue;
            }
            if (JDOC_UNLIKELY(top == UINT32_MAX)) {
                *at = i;
                return JDOC_MATCH_UNMATCHED;
            }
            if (JDOC_UNLIKELY(tape[top] + 2 != b)) {
                *at = i;
                return JDOC_MATCH_MISMATCH;
            }
            uint32_t up = jump[top];
            jump[top] = i - rel;
            top = up;
            if (--depth == 0) {
                *at = i;
                return JDOC_MATCH_OK;
            }
        }
    }
    *at = top;
    return JDOC_MATCH_UNCLOSED;
}

/* For each bit of x (a subset of m), the next bit of m above it, once
 * the sum is masked by m (or by a subset of m): x << 1 added to ~m carries
 * up through the bits of ~m onto the next one of m.
 *   m                 1 . 1 1 . . 1 .
 *   x                 1 . . 1 . . . .
 *   carry_up(m, x)&m  . . 1 . . . 1 . */
static inline uint64_t carry_up(uint64_t m, uint64_t x) { return (x << 1) + ~m; }

/* The jump entries of a step's leaf containers, their closers `land` among
 * the step's brackets m (each one's opener is the bracket of m right before
 * it); returns the brackets of those containers. With pdep (a constant: where
 * it is fast) the openers come all at once and one loop walks both lists
 * (canada's pass 0.80 of its time, the Docker files 0.95-0.98); without, a
 * `lzcnt` below each closer finds its opener. */
static inline __attribute__((always_inline)) uint64_t JDOC_FN(leaves)(uint32_t *jump, uint32_t e, uint32_t rel,
                                                                     uint64_t m, uint64_t land, bool pdep)
{
    (void)pdep;
#if defined(JDOC_HAVE_LEAVES)
    return leaf_jumps(jump, e, rel, m, land);
#else
#ifdef JDOC_HAVE_PDEP
    if (pdep) {
        uint64_t lo = bits_before(m, land), both = lo | land;
        for (uint64_t q = land; q; q &= q - 1, lo &= lo - 1)
            jump[e + (uint32_t)ctz_nz(lo)] = e + (uint32_t)ctz_nz(q) - rel;
        return both;
    }
#endif
    uint64_t pairs = land;
    for (uint64_t w = land; w; w &= w - 1) {
        uint32_t q = (uint32_t)ctz_nz(w);
        uint32_t o = 63 ^ (uint32_t)__builtin_clzll(m & ((1ull << q) - 1));   /* the highest below q */
        pairs |= 1ull << o;
        jump[e + o] = e + q - rel;
    }
    return pairs;
#endif
}

/* match's loop from the state (*top, *depth); -1 when the plain loop must
 * say what is wrong.
 *
 * A step first matches its innermost containers, an opening bracket whose
 * next bracket (in the step) closes it, with no stack and no branch per
 * pair. With B the step's brackets and O its openers, adding O << 1 to ~B
 * carries each opener's bit up through the entries after it onto the next
 * bracket:
 *
 *     tape   {  "  :  [  ]  ,  "  :  {  "  :  1  }  }
 *     B      1  .  .  1  1  .  .  .  1  .  .  .  1  1
 *     O      1  .  .  1  .  .  .  .  1  .  .  .  .  .
 *     land   .  .  .  1  1  .  .  .  .  .  .  .  1  .    carry_up(B, O) & B
 *
 * and land & ~O are the closers right after their opener ("[]" and the
 * inner "{...}"); each one's opener is the highest bracket below it. The
 * landings that came from '{' (the same sum over the '{' alone) must be '}'
 * and the others ']'. The other brackets then go through the stack, in
 * order (what a pair held is balanced). A step whose openers could pass
 * max_depth, or whose other closers could close the outermost container
 * (then the entries after it are not its own: they keep their offsets),
 * leaves the pairs to the stack. */
static inline __attribute__((always_inline)) int JDOC_FN(match_run)(const uint8_t *tape, uint32_t *jump,
                                                                   uint32_t from, uint32_t n, uint32_t rel,
                                                                   uint32_t max_depth, uint32_t *top_p,
                                                                   uint32_t *depth_p, uint32_t *at, bool pdep)
{
    const vec lower = v_splat(0x20);
    uint32_t top = *top_p, depth = *depth_p;
    for (uint32_t e = from; e < n; e += 64) {
        vec v[NV], f[NV];
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++) {
            v[k] = v_load(tape + e + (uint32_t)k * VEC_BYTES);
            f[k] = v_or(v[k], lower);
        }
        uint64_t keep = n - e < 64 ? (1ull << (n - e)) - 1 : ~0ull;
        uint64_t op = blk_eq(f, '{') & keep, m = (blk_eq(f, '}') & keep) | op;
        if (!m)
            continue;
        uint64_t land = carry_up(m, op) & m & ~op;
        if (land && JDOC_LIKELY((uint32_t)__builtin_popcountll(op) <= max_depth - depth &&
                                (uint32_t)__builtin_popcountll(m & ~(op | land)) < depth)) {
            uint64_t oc = op & blk_eq(v, '{');
            if (JDOC_UNLIKELY(land & (carry_up(m, oc) ^ blk_eq(v, '}'))))
                return -1;
            m &= ~JDOC_FN(leaves)(jump, e, rel, m, land, pdep);
        }
        while (m) {
            uint32_t i = e + (uint32_t)ctz_nz(m);
            m &= m - 1;
            uint8_t b = tape[i];
            if (b & 2) {
                if (JDOC_UNLIKELY(++depth > max_depth))
                    return -1;
                jump[i] = top;
                top = i;
                continue;
            }
            if (JDOC_UNLIKELY(top == UINT32_MAX || tape[top] + 2 != b))
                return -1;
            uint32_t up = jump[top];
            jump[top] = i - rel;
            top = up;
            if (JDOC_UNLIKELY(--depth == 0)) {
                *at = i;
                return JDOC_MATCH_OK;
            }
        }
    }
    /* no error and no end (a document still arriving): the containers left
     * open are on the stack, as the plain loop leaves them (a container
     * matched in one step is closed) */
    *top_p = top;
    *depth_p = depth;
    *at = top;
    return JDOC_MATCH_UNCLOSED;
}

/* match_run with pdep where it is fast (JDOC_CPU_FASTPDEP), else without */
static inline __attribute__((always_inline)) int JDOC_FN(match_any)(const uint8_t *tape, uint32_t *jump,
                                                                   uint32_t from, uint32_t n, uint32_t rel,
                                                                   uint32_t max_depth, uint32_t *top,
                                                                   uint32_t *depth, uint32_t *at)
{
#if !defined(JDOC_HAVE_LEAVES) && defined(JDOC_HAVE_PDEP)
    if (jdoc__cpu_features_inline() & JDOC_CPU_FASTPDEP)
        return JDOC_FN(match_run)(tape, jump, from, n, rel, max_depth, top, depth, at, true);
#endif
    return JDOC_FN(match_run)(tape, jump, from, n, rel, max_depth, top, depth, at, false);
}

static int JDOC_FN(match)(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
                         uint32_t max_depth, uint32_t *at)
{
    uint32_t top = UINT32_MAX, depth = 0;
    int r = JDOC_FN(match_any)(tape, jump, from, n, rel, max_depth, &top, &depth, at);
    return r >= 0 ? r : JDOC_FN(match_exact)(tape, jump, from, n, rel, max_depth, at);
}

static int JDOC_FN(resume)(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
                          uint32_t max_depth, uint32_t *top, uint32_t *depth, uint32_t *at)
{
    int r = JDOC_FN(match_any)(tape, jump, from, n, rel, max_depth, top, depth, at);
    return r >= 0 ? r : JDOC_MATCH_MISMATCH;
}

/*
 * The pair check of the stream code, 64 entries a step (jdoc__pairs_bad in
 * stage1.c is the reference). With a class mask per tape byte ('"' and the
 * marked ' ' are strings, str; anything unlisted is a scalar's first byte,
 * sc) and P(x) the entries right after an entry of x:
 *   V = sc | { | [ | str    a value starts     E = } | ]    D = : | ,
 *   bad = P(sc|E) & (V|:)     a value after a value, ':' after a non-key
 *       | P(str)  & V         a value after a string
 *       | P({)    & ~(}|str)  '{' not followed by a key or '}'
 *       | P([)    & (}|D)     '[' followed by '}' ':' ','
 *       | P(D)    & (E|D)     ':' ',' followed by no value
 */
typedef struct { uint64_t se, st, o, a, d; } JDOC_FN(pcarry);   /* the class of the entry before a step, as bit 0 */

/* The bad pairs of one step from its class masks (d = ':' | ','); c is
 * updated to the class of the step's last entry. */
static inline uint64_t JDOC_FN(pair_step)(uint64_t o, uint64_t a, uint64_t oe, uint64_t ae, uint64_t co, uint64_t d,
                                          uint64_t st, JDOC_FN(pcarry) *c)
{
    uint64_t ends = oe | ae, sc = ~(o | a | ends | d | st), val = sc | o | a | st, se = sc | ends;
    uint64_t b = ((se << 1 | c->se) & (val | co)) | ((st << 1 | c->st) & val) | ((o << 1 | c->o) & ~(oe | st)) |
                 ((a << 1 | c->a) & (oe | d)) | ((d << 1 | c->d) & (ends | d));
    c->se = se >> 63;
    c->st = st >> 63;
    c->o = o >> 63;
    c->a = a >> 63;
    c->d = d >> 63;
    return b;
}

static bool JDOC_FN(pairs)(const uint8_t *tape, uint32_t from, uint32_t to)
{
    JDOC_FN(pcarry) c;
    {
        uint8_t b = tape[from - 1];
        c.o = b == '{';
        c.a = b == '[';
        c.d = b == ':' || b == ',';
        c.st = (b | 2) == '"';
        c.se = !(c.o | c.a | c.d | c.st);
    }
    uint64_t bad = 0;
    for (uint32_t e = from; e <= to; e += 64) {
        vec v[NV], w[NV];
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++) {
            v[k] = v_load(tape + e + (uint32_t)k * VEC_BYTES);
            w[k] = v_or(v[k], v_splat(2));
        }
        uint64_t co = blk_eq(v, ':');
        uint64_t b = JDOC_FN(pair_step)(blk_eq(v, '{'), blk_eq(v, '['), blk_eq(v, '}'), blk_eq(v, ']'), co,
                                        co | blk_eq(v, ','), blk_eq(w, '"'), &c);
        bad |= to - e < 63 ? b & ((2ull << (to - e)) - 1) : b;
    }
    return bad != 0;
}

/* The depth scan of a document still arriving (see jdoc_depth_fn), 64
 * entries a step: a step whose closing brackets cannot bring the depth to 0
 * and whose opening ones cannot take it past max_depth only counts them. */
static int JDOC_FN(depth)(const uint8_t *tape, uint32_t from, uint32_t n, uint32_t *depth, uint32_t max_depth,
                          uint32_t *at)
{
    uint32_t d = *depth;
    for (uint32_t e = from; e < n; e += 64) {
        uint64_t op, cl;
        JDOC_FN(bracket_masks)(tape, e, n, &op, &cl);
        uint32_t no = (uint32_t)__builtin_popcountll(op), nc = (uint32_t)__builtin_popcountll(cl);
        if (JDOC_LIKELY(d > nc && no <= max_depth - d)) {
            d += no - nc;
            continue;
        }
        for (uint64_t m = op | cl; m; m &= m - 1) {
            uint32_t i = (uint32_t)ctz_nz(m);
            if (op >> i & 1) {
                if (++d > max_depth) {
                    *depth = d;
                    *at = e + i;
                    return -1;
                }
            } else if (--d == 0) {
                *depth = 0;
                *at = e + i;
                return 1;
            }
        }
    }
    *depth = d;
    return 0;
}

/*
 * Stage 2's element skip (see jdoc_elems_fn), 64 entries a step. At e the
 * depth below the array is 0; while the brackets alternate opening, closing
 * (containers with no container inside), the prefix XOR of the brackets
 * marks the inside of each container, as the quotes do strings:
 *   tape    1 , [ 2 , 3 ] , { " : 4 } , " ...
 *   br      . . 1 . . . 1 . 1 . . . 1 . .
 *   in      . . 1 1 1 1 . . 1 1 1 1 . . .
 *   own     1 1 1 . . . . 1 1 . . . . 1 1     the array's own entries
 *   odd     1 . 1 . . . . . 1 . . . . . 1     their prefix XOR: a value at each odd one
 * An opening bracket outside `in` or a closing one inside means a container
 * holds another: stop. The own entries (openers, and what is neither in nor
 * closing) must be a value, ',', a value, ... (what the walk checks: a
 * value where one starts, then ','), with no ':'; inside the containers
 * nothing is checked (the walk jumps over them too). `in` and the parity
 * carry from step to step, so the steps do not wait on each other; a stop
 * returns the element after the last ',' of the steps before.
 */
static uint32_t JDOC_FN(elems)(const uint8_t *tape, uint32_t e, uint32_t end, uint64_t *k)
{
    const vec lower = v_splat(0x20);
    uint64_t c_in = 0, c_odd = 0;   /* all ones: the step starts inside a container, after an odd own entry */
    uint32_t at = e;                /* the element after the last ',' counted */
    for (; *k && end - e > 64; e += 64) {
        vec v[NV], w[NV];
#pragma GCC unroll 4
        for (int i = 0; i < NV; i++) {
            v[i] = v_load(tape + e + (uint32_t)i * VEC_BYTES);
            w[i] = v_or(v[i], lower);
        }
        uint64_t op = blk_eq(w, '{'), cl = blk_eq(w, '}'), in = prefix_xor(op | cl) ^ c_in;
        uint64_t own = (~in & ~cl) | op, commas = blk_eq(v, ',') & own, odd = prefix_xor(own) ^ c_odd;
        if ((op & ~in) | (cl & in) | (blk_eq(v, ':') & own) | (own & ~commas & ~odd) | (commas & odd))
            break;
        c_in = (uint64_t)((int64_t)in >> 63);
        c_odd = (uint64_t)((int64_t)odd >> 63);
        if (!commas)
            continue;
        uint32_t cnt = (uint32_t)__builtin_popcountll(commas);
        if (*k <= cnt) {
            for (uint64_t j = 1; j < *k; j++)
                commas &= commas - 1;
            *k = 0;
            return e + (uint32_t)ctz_nz(commas) + 1;
        }
        *k -= cnt;
        at = e + 64 - (uint32_t)__builtin_clzll(commas);
    }
    return at;
}

/* The keys of `keys` (a mask of entries e..e+63, none holding a backslash)
 * that may be a name klen bytes long as written, quotes included: written
 * that long, or longer with whitespace before the ':' (the byte before it
 * is then no quote). Where no ':' of the container comes after whitespace
 * (not `spaced`: see colon_ws), only the keys written klen long, by two
 * index loads a key and no branch (with a branch on the length and a load
 * of the byte before each longer key's ':', the scan over 200 containers
 * took 1.06x its time), or the primitive keys_eq(index, e, keys, klen) where
 * the primitives have one (JDOC_HAVE_KEYS_EQ: x86, all 64 lengths by
 * vector loads of the index). */
static inline uint64_t key_cands(const uint32_t *index, const char *json, uint32_t e, uint64_t keys, uint32_t klen,
                                 bool spaced)
{
    uint64_t cand = 0;
    if (JDOC_LIKELY(!spaced)) {
#ifdef JDOC_HAVE_KEYS_EQ
        return keys_eq(index, e, keys, klen);
#else
        for (; keys; keys &= keys - 1) {
            uint64_t i = ctz64(keys);
            uint32_t x = e + (uint32_t)i;
            cand |= (uint64_t)(index[x + 1] - index[x] == klen) << i;
        }
        return cand;
#endif
    }
    for (; keys; keys &= keys - 1) {
        uint64_t i = ctz64(keys);
        uint32_t x = e + (uint32_t)i, colon = index[x + 1], wl = colon - index[x];
        if (JDOC_UNLIKELY(wl >= klen) && (wl == klen || json[colon - 1] != '"'))
            cand |= 1ull << i;
    }
    return cand;
}

/* The keys of `cand` (from key_cands) that hold c1 and cz where the name's
 * first and last bytes would be (for the empty name, the quotes there):
 * few keys are as long as the name, fewer also begin and end as it does (of
 * the 400 as long as IPAddress over 200 containers, 200 are NetworkID; over
 * the 100-element inspect array the query took 0.85 of its time, AMD Zen 5,
 * avx512 and avx2). Reads the key's bytes only: before its ':'. */
static inline uint64_t name_ends(const uint32_t *index, const char *json, uint32_t e, uint64_t cand, uint32_t klen,
                                 char c1, char cz)
{
    for (uint64_t m = cand; JDOC_UNLIKELY(m); m &= m - 1) {
        uint64_t i = ctz64(m);
        const char *s = json + index[e + (uint32_t)i];
        if (s[1] != c1 || s[klen - 2] != cz)
            cand &= ~(1ull << i);
    }
    return cand;
}

/* Whether some ':' of json[0..n) comes right after whitespace (or, within
 * a string, another byte up to ' '), 256 bytes a step where the primitives
 * have colon_ws4, then 64, and the tail byte by byte: never a byte past n. */
static bool JDOC_FN(colon_ws)(const uint8_t *json, size_t n)
{
    uint64_t c_ws = 0;
    size_t i = 0;
#ifdef JDOC_HAVE_COLON_WS4
    if (n > 256) {   /* json[0] has no byte before it: from json[1] */
        for (i = 1; i + 256 <= n; i += 256)
            if (colon_ws4(json + i))
                return true;
        c_ws = json[i - 1] <= ' ';
    }
#endif
    for (; i + 64 <= n; i += 64) {
        vec v[NV];
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++)
            v[k] = v_load(json + i + (size_t)k * VEC_BYTES);
        uint64_t ws = blk_le(v, ' ');
        if (blk_eq(v, ':') & (ws << 1 | c_ws))
            return true;   /* pretty-printed: at the first ':' after whitespace */
        c_ws = ws >> 63;
    }
    for (; i < n; i++)
        if (json[i] == ':' && i && json[i - 1] <= ' ')
            return true;
    return false;
}

/*
 * Stage 2's scan for a descendant segment of one name (see jdoc_keys_fn),
 * 64 entries a step. What the walk checks member by member is checked over
 * the whole container at once: the pairs (pair_step), then what needs the
 * context, with K the keys (strings right before a ':'), P(x) the entries
 * right after an entry of x, and M the last entries of members' values (a
 * scalar or string after ':', or a closer whose opener comes after ':'):
 *   K & ~P({ | ,)            a key is a member's first entry
 *   P({) & ~(} | K)          an object starts with a key, or ends
 *   P(,) & (K ^ P(P(M)))     after "value ," a key when the value was a
 *                            member's, else a value (an element's)
 * By induction from the container's opener, an object's entries are then
 * K : value , K : value ... and an array's value , value ...:
 *   tape   { " : [ 1 , 2 ] , " : 3 }
 *   K      . 1 . . . . . . . 1 . . .
 *   M      . . . . . . . 1 . . . 1 .    (the 1 and 2 follow no ':')
 * A closer's M bit comes from the stack of open containers (own[]), which
 * also gives each candidate key its object. The brackets are taken in
 * order, and each one writes the level above the top (after a closer it is
 * free) and reads the top, with no branch. In a step with no candidate, a
 * leaf container (its closer the next bracket after its opener) needs no
 * level: where pdep is cheap (JDOC_HAVE_PDEP, JDOC_CPU_FASTPDEP), its closer's M bit is its
 * opener's ':' bit, carried as in match_run, and both brackets leave the
 * loop (the query over 200 containers 0.96 of its time).
 */
static int JDOC_FN(keys)(jdoc_kscan *k)
{
    const uint8_t *tape = k->tape;
    const uint32_t *index = k->index;
    const uint32_t end = k->end, klen = k->klen;
    uint64_t *own = k->own;
    uint32_t d = k->depth;
    JDOC_FN(pcarry) c = { k->c_se, k->c_st, k->c_o, k->c_a, k->c_d };
    uint64_t c_cm = k->c_cm, c_co = k->c_co, c_vc = k->c_vc;
    if (k->spaced > 1)
        k->spaced = JDOC_FN(colon_ws)((const uint8_t *)k->json + k->from, (size_t)k->to - k->from + 1);
    const bool spaced = k->spaced;
    const char c1 = klen > 2 ? k->name[0] : '"', cz = klen > 2 ? k->name[klen - 3] : '"';
#ifdef JDOC_HAVE_PDEP
    const bool fast_pdep = (jdoc__cpu_features_inline() & JDOC_CPU_FASTPDEP) != 0;
#endif
    for (uint32_t e = k->at; e <= end; e += 64) {
        if (k->cap - k->nout < 64 || k->levels - d < 66) {
            k->at = e;
            k->depth = d;
            k->c_se = c.se, k->c_st = c.st, k->c_o = c.o, k->c_a = c.a, k->c_d = c.d;
            k->c_cm = c_cm, k->c_co = c_co, k->c_vc = c_vc;
            return 1;
        }
        vec v[NV], w[NV];
#pragma GCC unroll 4
        for (int i = 0; i < NV; i++) {
            v[i] = v_load(tape + e + (uint32_t)i * VEC_BYTES);
            w[i] = v_or(v[i], v_splat(2));
        }
        uint64_t o = blk_eq(v, '{'), a = blk_eq(v, '['), oe = blk_eq(v, '}'), ae = blk_eq(v, ']');
        uint64_t co = blk_eq(v, ':'), cm = blk_eq(v, ','), st = blk_eq(w, '"');
        uint64_t live = end - e < 63 ? (2ull << (end - e)) - 1 : ~0ull;
        uint64_t p_o = o << 1 | c.o, p_cm = cm << 1 | c_cm, p_co = co << 1 | c_co;
        uint64_t bad = JDOC_FN(pair_step)(o, a, oe, ae, co, co | cm, st, &c);
        uint64_t key = st & (co >> 1 | (uint64_t)(end - e >= 64 && tape[e + 64] == ':') << 63);
        bad |= (key & ~(p_o | p_cm)) | (p_o & ~(oe | key));
        uint64_t esc = key & live & blk_eq(v, ' ');
        uint64_t cand = name_ends(index, k->json, e, key_cands(index, k->json, e, key & live & ~esc, klen, spaced),
                                  klen, c1, cz) | esc;
        /* brackets (and candidates, in order): an opener's level gets its
         * entry and whether ':' came before it; a closer's M bit is that of
         * the level it closes; a candidate's object is the top. Most steps
         * have no candidate: their loop has no test for one (one loop for
         * both made the query 1.16x slower). */
        uint64_t op = o | a, ends = oe | ae, m_cl = 0;
        uint64_t br = (op | ends) & live & ~(end - e < 64 ? 1ull << (end - e) : 0);   /* not the closing entry */
#define BRACKET(i, t)                                                           \
    do {                                                                        \
        own[d + 1] = (uint64_t)(e + (uint32_t)(i)) << 1 | (p_co >> (i) & 1);    \
        m_cl |= ((t) & 1) << (i);                                               \
        d = d + 2 * (uint32_t)(op >> (i) & 1) - 1;                              \
    } while (0)
        if (JDOC_UNLIKELY(cand)) {
            for (uint64_t m = br | cand; m; m &= m - 1) {
                uint64_t i = ctz64(m), t = own[d];
                if (cand >> i & 1)
                    k->out[k->nout++] = (t >> 1) << 32 | (e + (uint32_t)i);
                else
                    BRACKET(i, t);
            }
        } else {
#ifdef JDOC_HAVE_PDEP
            /* the step's leaf containers need no level: a leaf's closer
             * gets its opener's ':' bit by the carry of match_run */
            uint64_t ob = op & br, land = fast_pdep ? carry_up(br, ob) & br & ~ob : 0;
            if (land) {
                m_cl |= carry_up(br, ob & p_co) & land;
                br &= ~(land | bits_before(br, land));
            }
#endif
            for (uint64_t m = br; m; m &= m - 1) {
                uint64_t i = ctz64(m), t = own[d];
                BRACKET(i, t);
            }
        }
#undef BRACKET
        uint64_t sc = ~(op | ends | co | cm | st);
        uint64_t mv = ((sc | st) & p_co) | (m_cl & ends);
        bad |= p_cm & (key ^ (mv << 2 | c_vc));
        if (bad & live)
            return -1;
        c_cm = cm >> 63;
        c_co = co >> 63;
        c_vc = mv >> 62;
    }
    return 0;
}

/* The newlines of b[0..n) (see jdoc_lines_fn), 64 bytes a step, counted
 * per byte lane (a lane's count is 1 a step at most: 255 steps a round);
 * the last ones by the block that ends at b + n (its top n - i bits), or,
 * under 64 bytes in all, copied into a block of spaces. */
static size_t JDOC_FN(lines)(const uint8_t *b, size_t n)
{
    size_t c = 0, i = 0;
    vec v[NV];
    while (n - i >= 64) {
        size_t stop = n - i >= 255 * 64 ? i + 255 * 64 : i + ((n - i) & ~(size_t)63);
        vec acc[NV];
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++)
            acc[k] = v_zero();
        for (; i + 128 <= stop; i += 128) {   /* two blocks a step: the adds' chains in place */
#pragma GCC unroll 4
            for (int k = 0; k < NV; k++)
                acc[k] = v_count_eq(acc[k], v_load(b + i + (size_t)k * VEC_BYTES), '\n');
#pragma GCC unroll 4
            for (int k = 0; k < NV; k++)
                acc[k] = v_count_eq(acc[k], v_load(b + i + 64 + (size_t)k * VEC_BYTES), '\n');
        }
        if (i < stop) {
#pragma GCC unroll 4
            for (int k = 0; k < NV; k++)
                acc[k] = v_count_eq(acc[k], v_load(b + i + (size_t)k * VEC_BYTES), '\n');
            i += 64;
        }
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++)
            c += v_count_sum(acc[k]);
    }
    if (i < n && n >= 64) {
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++)
            v[k] = v_load(b + n - 64 + (size_t)k * VEC_BYTES);
        c += (size_t)__builtin_popcountll(blk_eq(v, '\n') >> (64 - (n - i)));
    } else if (i < n) {
        uint8_t tail[64];
        memset(tail, ' ', sizeof tail);
        memcpy(tail, b + i, n - i);
#pragma GCC unroll 4
        for (int k = 0; k < NV; k++)
            v[k] = v_load(tail + (size_t)k * VEC_BYTES);
        c += (size_t)__builtin_popcountll(blk_eq(v, '\n'));
    }
    return c;
}

const jdoc_kernel JDOC_CAT(jdoc__kernel_, JDOC_ARCH) = { JDOC_KERNEL_ID, JDOC_KERNEL_NAME, JDOC_KERNEL_REQUIRES,
                                                        JDOC_FN(stage1), JDOC_FN(match), JDOC_FN(pairs),
                                                        JDOC_FN(depth), JDOC_FN(elems), JDOC_FN(resume), JDOC_FN(keys),
                                                        JDOC_FN(lines) };

#undef NV
#undef ODD_BITS
