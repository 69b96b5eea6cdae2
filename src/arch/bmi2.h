/* SPDX-License-Identifier: MIT */
/* BMI2 helpers of the x86 primitives (simd_avx2.h, simd_avx512.h). */
#include <immintrin.h>

/* For each bit of x (a subset of m), the bit of m right below it. */
#define JDOC_HAVE_PDEP 1
static inline uint64_t bits_before(uint64_t m, uint64_t x) { return _pdep_u64(_pext_u64(x, m) >> 1, m); }
