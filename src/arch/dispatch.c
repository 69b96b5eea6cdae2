/* SPDX-License-Identifier: MIT */
/* The kernel table, best first, and the choice of a kernel. */
#include <stdlib.h>
#include "internal.h"

extern const jdoc_kernel jdoc__kernel_scalar;
#if defined(__x86_64__)
extern const jdoc_kernel jdoc__kernel_sse42, jdoc__kernel_avx2, jdoc__kernel_avx512;
#endif
#if defined(__aarch64__)
extern const jdoc_kernel jdoc__kernel_neon, jdoc__kernel_neon_nopmull;
#endif

static const jdoc_kernel *const kernels[] = {
#if defined(__x86_64__)
    &jdoc__kernel_avx512, &jdoc__kernel_avx2, &jdoc__kernel_sse42,
#endif
#if defined(__aarch64__)
    &jdoc__kernel_neon, &jdoc__kernel_neon_nopmull,
#endif
    &jdoc__kernel_scalar,
};
#define NKERNELS (sizeof kernels / sizeof *kernels)

static const char *const names[JDOC_KERNEL_COUNT] = {
    [JDOC_KERNEL_AUTO] = "auto",   [JDOC_KERNEL_SCALAR] = "scalar", [JDOC_KERNEL_SSE42] = "sse42",
    [JDOC_KERNEL_AVX2] = "avx2",   [JDOC_KERNEL_AVX512] = "avx512", [JDOC_KERNEL_NEON] = "neon",
    [JDOC_KERNEL_NEON_NOPMULL] = "neon_nopmull",
};

static const jdoc_kernel *compiled(jdoc_kernel_id id)
{
    for (size_t i = 0; i < NKERNELS; i++)
        if (kernels[i]->id == id)
            return kernels[i];
    return NULL;
}

const jdoc_kernel *jdoc__kernel_get(jdoc_kernel_id id)
{
    const jdoc_kernel *k = compiled(id);
    if (!k || (k->requires & ~jdoc__cpu_features()))
        return NULL;
    return k;
}

const jdoc_kernel *jdoc__kernel_best(void)
{
    uint32_t f = jdoc__cpu_features();
    for (size_t i = 0; i < NKERNELS; i++)
        if (!(kernels[i]->requires & ~f))
            return kernels[i];
    return &jdoc__kernel_scalar;
}

const char *jdoc_kernel_id_name(jdoc_kernel_id k)
{
    return (unsigned)k < JDOC_KERNEL_COUNT ? names[k] : NULL;
}

jdoc_kernel_id jdoc_kernel_from_name(const char *name)
{
    if (name)
        for (int i = 0; i < JDOC_KERNEL_COUNT; i++)
            if (strcmp(names[i], name) == 0)
                return (jdoc_kernel_id)i;
    return JDOC_KERNEL_COUNT;
}

bool jdoc_kernel_compiled(jdoc_kernel_id k) { return compiled(k) != NULL; }
bool jdoc_kernel_supported(jdoc_kernel_id k) { return jdoc__kernel_get(k) != NULL; }
