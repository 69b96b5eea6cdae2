/* SPDX-License-Identifier: MIT */
/* x86_64 kernel: AVX-512 F/BW/VL + PCLMULQDQ (built with -mavx512f -mavx512bw -mavx512vl -mbmi -mbmi2 -mpclmul). */
#include "internal.h"
#if defined(__x86_64__) && defined(__AVX512BW__) && defined(__PCLMUL__) && defined(__BMI__)
#define JDOC_ARCH avx512
#define JDOC_KERNEL_ID JDOC_KERNEL_AVX512
#define JDOC_KERNEL_NAME "avx512"
#define JDOC_KERNEL_REQUIRES (JDOC_CPU_AVX512 | JDOC_CPU_AVX2 | JDOC_CPU_BMI | JDOC_CPU_PCLMUL)
#include "simd_avx512.h"
#include "stage1/stage1_impl.h"
#endif
