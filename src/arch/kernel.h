/* SPDX-License-Identifier: MIT */
/* Stage-1 kernels: the contract every architecture implements, CPU features, dispatch. */
#ifndef JDOC_KERNEL_H
#define JDOC_KERNEL_H
#include <stdatomic.h>
#include "jdoc.h"

/* CPU features, detected once (cpu.c). */
enum {
    JDOC_CPU_SSE42 = 1u << 0,
    JDOC_CPU_PCLMUL = 1u << 1,
    JDOC_CPU_AVX2 = 1u << 2,  /* includes OS-enabled YMM state */
    JDOC_CPU_BMI = 1u << 3,   /* BMI1 and BMI2 */
    JDOC_CPU_AVX512 = 1u << 4, /* F, BW, VL, and OS-enabled opmask/ZMM state */
    JDOC_CPU_NEON = 1u << 5,
    JDOC_CPU_PMULL = 1u << 6,
    JDOC_CPU_VBMI2 = 1u << 7,  /* AVX-512 VBMI and VBMI2 (byte permute, compress), with JDOC_CPU_AVX512 */
    JDOC_CPU_FASTPDEP = 1u << 8, /* with JDOC_CPU_BMI: pdep/pext in hardware, not microcoded (AMD before Zen 3) */
};
uint32_t jdoc__cpu_features(void);
/* The same without a call, for a kernel's inner choices (a kernel runs
 * only after the features were read to choose it). */
extern _Atomic uint32_t jdoc__cpu_bits;
static inline uint32_t jdoc__cpu_features_inline(void)
{
    uint32_t f = atomic_load_explicit(&jdoc__cpu_bits, memory_order_relaxed);
    return f & 0x80000000u ? f & 0x7fffffffu : jdoc__cpu_features();
}

/*
 * Stage-1 state carried from one chunk of input to the next. A kernel is
 * called on consecutive chunks of one document; every chunk but the last is
 * a multiple of 64 bytes long.
 *
 * Output, per structural entry e (see scalar.c for what is an entry):
 *   index[e]  its byte offset
 *   tape[e]   its byte ({ } [ ] : , " or a scalar's first byte), except that
 *             the opening quote of a string holding a backslash is ' ' (a
 *             byte no entry starts with; '"' and ' ' differ in bit 1 only)
 */
typedef struct jdoc_s1 {   /* (s1_init in stage1.c sets each field: a new one goes there too) */
    /* inputs */
    size_t base;           /* offset of this chunk in the document */
    bool check_utf8;
    /* outputs, appended to; the driver guarantees room for chunk length
     * rounded up to 64, plus 64 more entries */
    uint32_t *index;
    uint8_t *tape;
    uint32_t n;
    /* error: code != JDOC_OK once an error is seen. The scalar kernel sets the
     * exact offset and message. A SIMD kernel sets `code` to the class of the
     * first error it sees (JDOC_ERR_UTF8 or JDOC_ERR_SYNTAX) and `offset` to a
     * byte near it: the exact byte for a control character, the byte where
     * the check failed for UTF-8 (at most 3 after the sequence's lead, or the
     * first byte after a sequence cut short), the end of the input for a string
     * left open; the driver then runs the scalar kernel for the exact error. */
    jdoc_status code;
    size_t offset;
    const char *message;
    /* carried state; each kernel uses what it needs */
    uint64_t in_string;    /* all ones when the previous chunk ended inside a string */
    uint64_t escaped;      /* 1 when the first byte of the next chunk is escaped */
    uint64_t scalar;       /* 1 when the previous chunk ended in a scalar byte */
    uint64_t utf8_inc;     /* SIMD: the previous block ends in an incomplete UTF-8 sequence */
    size_t seq_start;      /* scalar: offset of the UTF-8 lead byte being completed */
    uint32_t seq_need;     /* scalar: continuation bytes still expected */
    uint8_t seq_lo, seq_hi;/* scalar: allowed range of the next continuation byte */
    uint32_t string_start; /* scalar: offset of the open string's quote */
    uint8_t prev[64];      /* SIMD: the previous block, for UTF-8 look-behind (unaligned loads) */
} jdoc_s1;

typedef void (*jdoc_stage1_fn)(jdoc_s1 *s, const uint8_t *buf, size_t len, bool last);

/* The bracket pass: match the container whose opening bracket is entry
 * `from`, reading tape[from..n) (readable and zero up to n + 64), until it
 * closes. jump[] is the index itself, written at opening brackets only: while
 * a container is open, jump[its entry] holds the entry of the container
 * around it; once closed, its closing entry minus `rel`. Returns
 * JDOC_MATCH_OK with *at = the closing entry, or an error with *at = the
 * entry at fault (for UNCLOSED: the innermost open bracket). */
enum { JDOC_MATCH_OK, JDOC_MATCH_DEPTH, JDOC_MATCH_UNMATCHED, JDOC_MATCH_MISMATCH, JDOC_MATCH_UNCLOSED };
typedef int (*jdoc_match_fn)(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
                             uint32_t max_depth, uint32_t *at);

/* The stream code's pair check: true when some entry of tape[from..to]
 * (from >= 1; readable up to to + 64) may not follow the entry before it
 * (jdoc__pairs_bad in stage1.c is the reference; NULL: use it). */
typedef bool (*jdoc_pairs_fn)(const uint8_t *tape, uint32_t from, uint32_t to);

/* The stream code's depth scan of a document still arriving: from *depth
 * open containers before entry `from` (1 <= *depth <= max_depth), follow the brackets of
 * tape[from..n) (readable up to n + 64). Returns 1 when the depth falls to
 * 0, at the closing entry *at; -1 when it would pass max_depth, at the
 * opening entry *at; 0 when the entries run out, with *depth the depth
 * after them. (NULL: the stream code's own loop.) */
typedef int (*jdoc_depth_fn)(const uint8_t *tape, uint32_t from, uint32_t n, uint32_t *depth, uint32_t max_depth,
                             uint32_t *at);

/* Stage 2's skip over the elements of an array: from entry e, the start of
 * an element of the array whose closing bracket is entry `end`, skip up to
 * *k elements 64 entries a step, as long as a step holds only scalars and
 * containers with no container inside, and the array's own entries are a
 * value, ',', a value, ... (no ':'); returns the start of the element reached, *k less the elements
 * skipped (the caller walks on from there). (NULL: no skip.) */
typedef uint32_t (*jdoc_elems_fn)(const uint8_t *tape, uint32_t e, uint32_t end, uint64_t *k);

/* The bracket pass resumed, for a document indexed as it arrives: as
 * jdoc_match_fn over tape[from..n) (readable and zero up to n + 64), from
 * the state (*top, *depth) that the call before left when its entries ran
 * out (UINT32_MAX and 0 for the first call, from being the root). Returns
 * JDOC_MATCH_OK with *at = the root's closing entry, JDOC_MATCH_UNCLOSED
 * with the state updated, or another code for any error (not located: the
 * caller runs a whole jdoc_match_fn for it). (NULL: no resumed pass.) */
typedef int (*jdoc_resume_fn)(const uint8_t *tape, uint32_t *jump, uint32_t from, uint32_t n, uint32_t rel,
                              uint32_t max_depth, uint32_t *top, uint32_t *depth, uint32_t *at);

/* Stage 2's scan of one container for a descendant segment of one name
 * (see jsonpath.c): the grammar between all of its entries, as the walk
 * checks it, and the member keys that may be the name, with the object each
 * is in. The caller sets the inputs and, for the container opening at entry
 * s, the state: at = s + 1, depth 0, own[0] = s << 1, spaced 2, the
 * carries 0 but c_o or c_a. A call reads 64 entries a step and returns 0 once it read the
 * closing entry `end`, -1 when some entry breaks the grammar (the caller
 * then walks the container with its own checks), 1 when it needs room
 * before the next step: out must have room for 64 more, own for 66 more
 * levels (the state is that of the step's start: grow and call again). */
typedef struct jdoc_kscan {
    const uint8_t *tape;   /* readable up to end + 65 */
    const uint32_t *index;
    const char *json;
    uint32_t end;          /* the container's closing entry */
    const char *name;      /* the name's bytes (decoded), */
    uint32_t klen;         /* its length as written, quotes included */
    uint32_t from, to;     /* the container's bytes: json[from..to] */
    uint32_t spaced;       /* 2: not known yet (set so); 1: some ':' comes after whitespace, 0: none */
    uint32_t at;           /* the next entry to read */
    uint32_t depth;        /* containers open at `at` inside the scanned one */
    uint32_t levels;       /* room of own[] */
    uint64_t *own;         /* own[d] = opening entry << 1 | 1 when it is a member's value, for the open containers */
    /* the entry before `at`, as bit 0: a scalar or closer, a string, '{', '[', ':' or ',', ',', ':';
     * c_vc: whether the values ending at the two entries before `at` are members' (bits 0, 1) */
    uint64_t c_se, c_st, c_o, c_a, c_d, c_cm, c_co, c_vc;
    uint64_t *out;         /* own << 32 | key entry: keys written klen long without a backslash, */
    size_t nout, cap;      /* longer with whitespace before their ':' (either way beginning and ending
                            * as the name does), or holding a backslash */
} jdoc_kscan;
typedef int (*jdoc_keys_fn)(jdoc_kscan *k);

/* A stream's line count: the '\n' bytes of b[0..n), reading nothing else
 * (NULL: memchr, line by line). */
typedef size_t (*jdoc_lines_fn)(const uint8_t *b, size_t n);
typedef struct jdoc_kernel {
    jdoc_kernel_id id;
    const char *name;
    uint32_t requires;     /* JDOC_CPU_* bits */
    jdoc_stage1_fn stage1;
    jdoc_match_fn match;
    jdoc_pairs_fn pairs;
    jdoc_depth_fn depth;
    jdoc_elems_fn elems;
    jdoc_resume_fn resume;
    jdoc_keys_fn keys;     /* NULL: descendant segments walk */
    jdoc_lines_fn lines;
} jdoc_kernel;

/* The kernel for `id` when compiled in and supported here, else NULL. */
const jdoc_kernel *jdoc__kernel_get(jdoc_kernel_id id);
/* The best kernel this CPU runs. */
const jdoc_kernel *jdoc__kernel_best(void);

#endif
