/* SPDX-License-Identifier: MIT */
/* x86_64 kernel: AVX2 + BMI1/2 + PCLMULQDQ (built with -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt). */
#include "internal.h"
#if defined(__x86_64__) && defined(__AVX2__) && defined(__PCLMUL__) && defined(__BMI__)
#define JDOC_ARCH avx2
#define JDOC_KERNEL_ID JDOC_KERNEL_AVX2
#define JDOC_KERNEL_NAME "avx2"
#define JDOC_KERNEL_REQUIRES (JDOC_CPU_AVX2 | JDOC_CPU_BMI | JDOC_CPU_PCLMUL)
#include "simd_avx2.h"
#include "stage1/stage1_impl.h"
#endif
