/*
 * lq_shared.h — lets one function body compile as C (the reference twin) and as
 * OpenCL C (the kernel), after pbrt-v4's shared-code pattern.
 *
 * - LQ_GLOBAL is `global` in OpenCL C and empty in C; LQ_LOCAL_MEM likewise `local`.
 * - LQ_INLINE is `static inline` on both sides (plain `inline` in OpenCL C has C99
 *   meaning: a compiler that does not inline it would find no definition to link).
 * - Atomics: in C they are plain read-modify-writes (the reference path is serial);
 *   in OpenCL C the device atomics. 64-bit atomics need cl_khr_int64_base_atomics.
 * - Floating-point contraction is off on both sides (the host builds with
 *   -ffp-contract=off) so a*b+c rounds twice everywhere; write fma() to want one.
 */
#ifndef LQ_SHARED_H
#define LQ_SHARED_H

#ifdef __OPENCL_VERSION__
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define LQ_GLOBAL    global
#define LQ_LOCAL_MEM local /* work-group memory (a host array in C) */
#define LQ_INLINE    static inline
typedef long lq_long;
typedef uint lq_uint;
#define LQ_ATOMIC_MIN(p, v)      atomic_min((p), (v))
#define LQ_ATOMIC_ADD(p, v)      atomic_add((p), (v))
#define LQ_ATOMIC_MAX_UINT(p, v) atomic_max((p), (v))
#define LQ_ATOMIC_ADD_LONG(p, v) atom_add((p), (v))
#define LQ_VOLATILE              volatile
/* Round to nearest even, as llrintf in C. */
/* In range (a depth of a blown-up run is not): 0 otherwise, never an undefined
 * conversion. */
#define LQ_FIXED(x) (((x) >= 0.0f && (x) < 9.0e18f) ? convert_long_rte(x) : 0L)
/* Sums that wrap instead of overflowing (only a blown-up run gets near). */
#define LQ_WRAP_ADD(a, b) as_long(as_ulong(a) + as_ulong(b))
#define LQ_WRAP_SUB(a, b) as_long(as_ulong(a) - as_ulong(b))
#define LQ_FLOAT_BITS(x)  as_uint(x)
#define LQ_IS_FINITE(x)   isfinite(x)
#define LQ_SQRTF(x)       sqrt(x)
#define LQ_FABSF(x)       fabs(x)
#define LQ_CBRTF(x)       cbrt(x)
#else
#include <math.h>
#include <stdint.h>
#define LQ_GLOBAL
#define LQ_LOCAL_MEM
#define LQ_INLINE static inline
typedef int64_t lq_long;
typedef uint32_t lq_uint;
#define LQ_VOLATILE
static inline int lq_atomic_min_int(int *p, int v)
{
    int old = *p;
    if (v < old) *p = v;
    return old;
}
static inline int lq_atomic_add_int(int *p, int v)
{
    int old = *p;
    *p = old + v;
    return old;
}
static inline lq_uint lq_atomic_max_uint(lq_uint *p, lq_uint v)
{
    lq_uint old = *p;
    if (v > old) *p = v;
    return old;
}
static inline lq_long lq_wrap_add(lq_long a, lq_long b)
{
    return (lq_long)((uint64_t)a + (uint64_t)b);
}
static inline lq_long lq_wrap_sub(lq_long a, lq_long b)
{
    return (lq_long)((uint64_t)a - (uint64_t)b);
}
static inline lq_long lq_atomic_add_long(lq_long *p, lq_long v)
{
    lq_long old = *p;
    *p = lq_wrap_add(old, v);
    return old;
}
static inline lq_uint lq_float_bits(float x)
{
    union {
        float f;
        lq_uint u;
    } c;
    c.f = x;
    return c.u;
}
#define LQ_ATOMIC_MIN(p, v)      lq_atomic_min_int((p), (v))
#define LQ_ATOMIC_ADD(p, v)      lq_atomic_add_int((p), (v))
#define LQ_ATOMIC_MAX_UINT(p, v) lq_atomic_max_uint((p), (v))
#define LQ_ATOMIC_ADD_LONG(p, v) lq_atomic_add_long((p), (v))
#define LQ_FIXED(x)              (((x) >= 0.0f && (x) < 9.0e18f) ? (lq_long)llrintf(x) : 0)
#define LQ_WRAP_ADD(a, b)        lq_wrap_add((a), (b))
#define LQ_WRAP_SUB(a, b)        lq_wrap_sub((a), (b))
#define LQ_FLOAT_BITS(x)         lq_float_bits(x)
#define LQ_IS_FINITE(x)          isfinite(x)
#define LQ_SQRTF(x)              sqrtf(x)
#define LQ_FABSF(x)              fabsf(x)
#define LQ_CBRTF(x)              cbrtf(x)
#endif

/* 1/n for n = 1..6 as literals: a mean of up to six neighbours without a division, the
 * same bits on both sides. */
LQ_INLINE float lq_recip6(int n)
{
    switch (n) {
    case 1:
        return 1.0f;
    case 2:
        return 0.5f;
    case 3:
        return 0.333333343f;
    case 4:
        return 0.25f;
    case 5:
        return 0.200000003f;
    default:
        return 0.166666672f;
    }
}

#endif
