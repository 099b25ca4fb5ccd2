/*
 * vec3.h — the few double-precision 3-vector helpers the host renderers share
 * (host/views/hfview.c, host/views/volview.c). Host only: kernels have OpenCL's float3.
 */
#ifndef LQ_VEC3_H
#define LQ_VEC3_H

#include <math.h>

static inline double lq_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void lq_cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* v scaled to unit length; a zero vector stays zero. */
static inline void lq_norm3(double v[3])
{
    double l = sqrt(lq_dot3(v, v));
    if (l > 0)
        for (int a = 0; a < 3; a++) v[a] /= l;
}

/* fmax and fmin as libm defines them (a NaN argument yields the other), inline: the
 * compiler calls libm for fmax itself, many times a pixel in the renderers. */
static inline double lq_max(double a, double b)
{
    return a > b || b != b ? a : b;
}

static inline double lq_min(double a, double b)
{
    return a < b || b != b ? a : b;
}

/* x^n for n >= 0 by repeated squaring: the highlights' and Fresnel's integer powers,
 * without a libm pow per pixel. */
static inline double lq_powi(double x, unsigned n)
{
    double r = 1;
    for (; n; n >>= 1, x *= x)
        if (n & 1) r *= x;
    return r;
}

/* out = a + (b − a) t (out may alias a or b). */
static inline void lq_mix3(double out[3], const double a[3], const double b[3], double t)
{
    for (int c = 0; c < 3; c++) out[c] = a[c] + (b[c] - a[c]) * t;
}

static inline double lq_clamp01(double x)
{
    return x > 0 ? (x < 1 ? x : 1) : 0; /* NaN → 0 */
}

/* sRGB (0..1, gamma 2.2) → linear. */
static inline void lq_lin3(double out[3], double r, double g, double b)
{
    out[0] = pow(r, 2.2);
    out[1] = pow(g, 2.2);
    out[2] = pow(b, 2.2);
}

#endif
