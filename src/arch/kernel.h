/* SPDX-License-Identifier: MIT */
/* Stage-1 kernels: the contract every architecture implements, CPU features, dispatch. */
#ifndef JDOC_KERNEL_H
#define JDOC_KERNEL_H
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
};
uint32_t jdoc__cpu_features(void);

/*
 * Stage-1 state carried from one chunk of input to the next. A kernel is
 * called on consecutive chunks of one document; every chunk but the last is
 * a multiple of 64 bytes long.
 */
typedef struct jdoc_s1 {
    /* inputs */
    size_t base;           /* offset of this chunk in the document */
    bool check_utf8;
    /* outputs, appended to; room for chunk length + 64 entries is guaranteed */
    uint32_t *index;       /* offsets of structural entries */
    uint32_t n;
    uint32_t *brackets;    /* index entries (not offsets) of [ ] { } */
    uint8_t *brtype;       /* and their bytes, so the bracket pass need not read the input */
    uint32_t nb;
    /* error: code != JDOC_OK once an error is seen. The scalar kernel sets the
     * exact offset and message; SIMD kernels only set `code` (any value) and
     * the driver re-runs the scalar kernel to find the first error exactly. */
    jdoc_status code;
    size_t offset;
    const char *message;
    /* carried state; each kernel uses what it needs */
    uint64_t in_string;    /* all ones when the previous chunk ended inside a string */
    uint64_t escaped;      /* 1 when the first byte of the next chunk is escaped */
    uint64_t scalar;       /* 1 when the previous chunk ended in a scalar byte */
    uint64_t utf8_err;     /* SIMD: accumulated UTF-8/control error bits */
    uint64_t utf8_inc;     /* SIMD: the previous block ends in an incomplete UTF-8 sequence */
    size_t seq_start;      /* scalar: offset of the UTF-8 lead byte being completed */
    uint32_t seq_need;     /* scalar: continuation bytes still expected */
    uint8_t seq_lo, seq_hi;/* scalar: allowed range of the next continuation byte */
    uint32_t string_start; /* scalar: offset of the open string's quote */
    uint8_t prev[64];      /* SIMD: the previous block, for UTF-8 look-behind (unaligned loads) */
} jdoc_s1;

typedef void (*jdoc_stage1_fn)(jdoc_s1 *s, const uint8_t *buf, size_t len, bool last);

typedef struct jdoc_kernel {
    jdoc_kernel_id id;
    const char *name;
    uint32_t requires;     /* JDOC_CPU_* bits */
    jdoc_stage1_fn stage1;
} jdoc_kernel;

/* The kernel for `id` when compiled in and supported here, else NULL. */
const jdoc_kernel *jdoc__kernel_get(jdoc_kernel_id id);
/* The best kernel this CPU runs. */
const jdoc_kernel *jdoc__kernel_best(void);

#endif
