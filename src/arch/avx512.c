/* SPDX-License-Identifier: MIT */
/* x86_64 kernel: AVX-512 F/BW/VL/VBMI/VBMI2 + PCLMULQDQ (built with -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2
 * -mbmi -mbmi2 -mpclmul); AVX-512 CPUs without VBMI and VBMI2 run the avx2 kernel. */
#include "internal.h"
#if defined(__x86_64__) && defined(__AVX512BW__) && defined(__AVX512VBMI__) && defined(__AVX512VBMI2__) && defined(__PCLMUL__) && defined(__BMI__)
#define JDOC_ARCH avx512
#define JDOC_KERNEL_ID JDOC_KERNEL_AVX512
#define JDOC_KERNEL_NAME "avx512"
#define JDOC_KERNEL_REQUIRES (JDOC_CPU_AVX512 | JDOC_CPU_VBMI2 | JDOC_CPU_AVX2 | JDOC_CPU_BMI | JDOC_CPU_PCLMUL)
#include "simd_avx512.h"
#include "stage1/stage1_impl.h"
#endif
