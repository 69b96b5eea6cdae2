/* SPDX-License-Identifier: MIT */
/* arm64 kernel for CPUs without the crypto extension: NEON, prefix XOR by shifts. */
#include "internal.h"
#if defined(__aarch64__)
#define JDOC_ARCH neon_nopmull
#define JDOC_KERNEL_ID JDOC_KERNEL_NEON_NOPMULL
#define JDOC_KERNEL_NAME "neon_nopmull"
#define JDOC_KERNEL_REQUIRES JDOC_CPU_NEON
#define JDOC_NEON_NO_PMULL
#include "simd_neon.h"
#include "stage1/stage1_impl.h"
#endif
