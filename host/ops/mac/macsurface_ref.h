/*
 * macsurface_ref.h — the free-surface operations of the `mac` solver (Gates 2001; Foster
 * & Metaxas 1996 §3.2.3, §7.2), each with an OpenCL launcher (host/ops/mac/macsurface.c,
 * kernels/mac/macsurface.cl) and a reference twin with the same arguments
 * (host/ops/mac/macsurface_ref.c), both built on kernels/mac/macsurface_cell.h (the rule table, its
 * derivation and why one unordered pass is race-free).
 *
 * Fields (kernels/common/mac_grid.h): flags and mask are uchar per cell (nx·ny·nz); u, v, w
 * float on x-, y-, z-faces ((nx+1)·ny·nz, nx·(ny+1)·nz, nx·ny·(nz+1)), m/s; p float per
 * cell. A step calls classify after the cells are relabelled, then apply (the face
 * velocities) and pressure (the surface-cell pressure).
 *
 * Invariant: classify and apply give the same result on both backends bit for bit;
 * pressure differs by the rounding of one cos per cell at most.
 */
#ifndef LQ_HOST_MACSURFACE_REF_H
#define LQ_HOST_MACSURFACE_REF_H

#include "core/kernel.h"
/* the shared per-cell header: same file name, so named by its folder */
#include "mac/macsurface_cell.h"

typedef struct lq_macsurface_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel classify, apply, pressure, fill_pressure;
} lq_macsurface_ops;

/* The surface pressure: the atmosphere plus eq. 17's forcing,
 * p = p_atm + (A + B cos(C s − ω t)) / δt, B = a √(−g D / C) (eq. 18), C = π / L (eq. 19),
 * s the cell centre's world coordinate along `axis`. a = 0 (B = 0) and A = 0 leave the
 * atmosphere alone. Units as the paper's (B as eq. 18 states it). */
typedef struct lq_macsurface_forcing {
    float p_atm; /* atmospheric pressure */
    float A;     /* A / δt is the mean forcing pressure */
    float a;     /* wave amplitude (m) */
    float depth; /* D: mean depth of the liquid (m) */
    float L;     /* half the wavelength (m), > 0 */
    float omega; /* angular frequency (rad/s) */
    float g;     /* gravity along the vertical, signed (m/s²; −9.81 points down) */
    double t;    /* time (s) */
    float dt;    /* δt (s), > 0 */
    int axis;    /* the paper's z: the axis the wave runs along (0 x, 1 y, 2 z) */
} lq_macsurface_forcing;

/* What apply's kernel takes: δ per axis, 1/δ, g δt. */
typedef struct lq_macsurface_apply_k {
    float h[3], inv[3], gdt[3];
} lq_macsurface_apply_k;

/* What pressure's kernel takes (lq_macsurface_pressure_cell). */
typedef struct lq_macsurface_pressure_k {
    int axis;
    float s0, ds, p_atm, A, B, C, phase, inv_dt;
} lq_macsurface_pressure_k;

/* p of every SURFACE cell from lq_macsurface_forcing; other cells untouched. h: spacing (m),
 * origin: world position of the grid's lower corner (m). */
int lq_macsurface_ref_fill_pressure(lq_macsurface_ops *o, const lq_field *flags,
                                    const lq_field *mask, lq_field *p, const lq_field *count,
                                    const lq_field *ratio, int per_cell);

/* The kernels' scalar arguments from the operations' (shared by both backends, so
 * they agree bit for bit); LQ_EINPUT with one line on bad input. */
static inline int lq_macsurface_apply_prepare(const float h[3], float dt, const float g[3],
                                              lq_macsurface_apply_k *k)
{
    for (int a = 0; a < 3; a++)
        if (!(h[a] > 0.0f) || !isfinite(h[a]))
            return lq_error(LQ_EINPUT, "mac_surface: spacing %c = %g must be positive and finite",
                            "xyz"[a], (double)h[a]);
    if (!isfinite(dt) || !isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2]))
        return lq_error(LQ_EINPUT, "mac_surface: dt = %g and gravity (%g, %g, %g) must be finite",
                        (double)dt, (double)g[0], (double)g[1], (double)g[2]);
    for (int a = 0; a < 3; a++) {
        k->h[a] = h[a];
        k->inv[a] = 1.0f / h[a];
        k->gdt[a] = g[a] * dt;
    }
    return LQ_OK;
}
static inline int lq_macsurface_pressure_prepare(const float h[3], const float origin[3],
                                                 const lq_macsurface_forcing *f,
                                                 lq_macsurface_pressure_k *k)
{
    if (f->axis < 0 || f->axis > 2)
        return lq_error(LQ_EINPUT, "mac_surface: wave axis %d is not 0 (x), 1 (y) or 2 (z)",
                        f->axis);
    if (!(h[f->axis] > 0.0f) || !isfinite(h[f->axis]) || !isfinite(origin[f->axis]))
        return lq_error(LQ_EINPUT, "mac_surface: spacing %g and origin %g along the wave axis",
                        (double)h[f->axis], (double)origin[f->axis]);
    if (!(f->dt > 0.0f) || !(f->L > 0.0f) || !isfinite(f->dt) || !isfinite(f->L))
        return lq_error(LQ_EINPUT,
                        "mac_surface: eq. 17-19 need dt > 0 and L > 0 (half the wavelength); "
                        "got dt = %g, L = %g",
                        (double)f->dt, (double)f->L);
    double C = LQ_PI / f->L, q = -(double)f->g * f->depth / C;
    if (f->a != 0.0f && !(q >= 0.0))
        return lq_error(LQ_EINPUT,
                        "mac_surface: eq. 18 takes sqrt(-g D / C) = sqrt(%g): give gravity "
                        "signed (g < 0, pointing down) and a depth D >= 0",
                        q);
    double B = f->a != 0.0f ? f->a * sqrt(q) : 0.0;
    double phase = fmod((double)f->omega * f->t, 2.0 * LQ_PI);
    if (!isfinite(B) || !isfinite(phase) || !isfinite(f->p_atm) || !isfinite(f->A))
        return lq_error(LQ_EINPUT, "mac_surface: the surface pressure's parameters must be finite");
    k->axis = f->axis;
    k->s0 = origin[f->axis];
    k->ds = h[f->axis];
    k->p_atm = f->p_atm;
    k->A = f->A;
    k->B = (float)B;
    k->C = (float)C;
    k->phase = (float)phase;
    k->inv_dt = (float)(1.0 / f->dt);
    return LQ_OK;
}

/* Reference twins (host/ops/mac/macsurface_ref.c): same arguments, host storage. */
int lq_macsurface_ref_classify(lq_macsurface_ops *o, const lq_field *flags, lq_field *mask);
int lq_macsurface_ref_apply(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                            lq_field *u, lq_field *v, lq_field *w, const float h[3], float dt,
                            const float g[3]);
int lq_macsurface_ref_pressure(lq_macsurface_ops *o, const lq_field *flags, lq_field *p,
                               const float h[3], const float origin[3],
                               const lq_macsurface_forcing *f);

#endif
