/* SPDX-License-Identifier: MIT */
/* arm64 kernel: NEON + PMULL (built with -march=armv8-a+crypto). */
#include "internal.h"
#if defined(__aarch64__) && defined(__ARM_FEATURE_AES)
#define JDOC_ARCH neon
#define JDOC_KERNEL_ID JDOC_KERNEL_NEON
#define JDOC_KERNEL_NAME "neon"
#define JDOC_KERNEL_REQUIRES (JDOC_CPU_NEON | JDOC_CPU_PMULL)
#include "simd_neon.h"
#include "stage1/stage1_impl.h"
#endif
