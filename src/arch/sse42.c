/* SPDX-License-Identifier: MIT */
/* x86_64 baseline kernel: SSE4.2 + PCLMULQDQ (built with -msse4.2 -mpclmul -mpopcnt). */
#include "internal.h"
#if defined(__x86_64__) && defined(__SSE4_2__) && defined(__PCLMUL__)
#define JDOC_ARCH sse42
#define JDOC_KERNEL_ID JDOC_KERNEL_SSE42
#define JDOC_KERNEL_NAME "sse42"
#define JDOC_KERNEL_REQUIRES (JDOC_CPU_SSE42 | JDOC_CPU_PCLMUL)
#include "simd_sse42.h"
#include "stage1/stage1_impl.h"
#endif
