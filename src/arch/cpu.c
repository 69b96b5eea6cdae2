/* SPDX-License-Identifier: MIT */
/* CPU feature detection, once per process: cpuid + xgetbv on x86_64, auxv on arm64. */
#include "internal.h"

#if defined(__x86_64__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* AMD (and Hygon) cores before Zen 3 (family 0x19) run pdep and pext in
 * microcode, in time that grows with the bits of the mask. */
static bool slow_pdep(void)
{
    uint32_t a, b, c, d;
    __cpuid(0, a, b, c, d);
    bool amd = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163;     /* "AuthenticAMD" */
    bool hygon = b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975;   /* "HygonGenuine" */
    if (!amd && !hygon)
        return false;
    __cpuid(1, a, b, c, d);
    uint32_t family = (a >> 8) & 0xf;
    if (family == 0xf)
        family += (a >> 20) & 0xff;
    return family < 0x19;
}

static uint32_t detect(void)
{
    uint32_t a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    bool sse42 = c & bit_SSE4_2, popcnt = c & bit_POPCNT, pclmul = c & bit_PCLMUL;
    bool osxsave = c & bit_OSXSAVE, avx = c & bit_AVX;
    if (sse42 && popcnt) f |= JDOC_CPU_SSE42;
    if (pclmul) f |= JDOC_CPU_PCLMUL;
    uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    bool ymm = (xcr0 & 0x6) == 0x6;          /* SSE and AVX state */
    bool zmm = (xcr0 & 0xe6) == 0xe6;        /* plus opmask, ZMM0-15 upper, ZMM16-31 */
    if (__get_cpuid_max(0, 0) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if ((b & bit_BMI) && (b & bit_BMI2)) f |= JDOC_CPU_BMI;
        if ((f & JDOC_CPU_BMI) && !slow_pdep()) f |= JDOC_CPU_FASTPDEP;
        if (avx && ymm && (b & bit_AVX2)) f |= JDOC_CPU_AVX2;
        if (avx && zmm && (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL))
            f |= JDOC_CPU_AVX512;
        if ((f & JDOC_CPU_AVX512) && (c & (1u << 1)) && (c & (1u << 6)))   /* CPUID.7.0:ECX bits 1, 6 */
            f |= JDOC_CPU_VBMI2;
    }
    return f;
}
#elif defined(__aarch64__)
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif
#endif
static uint32_t detect(void)
{
    uint32_t f = JDOC_CPU_NEON;   /* baseline on arm64 */
#if defined(__linux__)
    if (getauxval(AT_HWCAP) & HWCAP_PMULL) f |= JDOC_CPU_PMULL;
#elif defined(__APPLE__)
    f |= JDOC_CPU_PMULL;          /* every Apple arm64 core has it */
#endif
    return f;
}
#else
static uint32_t detect(void) { return 0; }
#endif

/* The one piece of global mutable state: written once with the same value
 * by whichever thread gets here first (a benign, atomic race). */
_Atomic uint32_t jdoc__cpu_bits;   /* bit 31: detected */

uint32_t jdoc__cpu_features(void)
{
    uint32_t f = jdoc__cpu_bits;
    if (!(f & 0x80000000u)) {
        f = detect() | 0x80000000u;
        jdoc__cpu_bits = f;
    }
    return f & 0x7fffffffu;
}
