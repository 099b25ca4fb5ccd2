/*
 * mac_surface.h — the free-surface operations of the `mac` solver (Gates 2001; Foster
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
#ifndef LQ_HOST_MACSURFACE_H
#define LQ_HOST_MACSURFACE_H

#include "core/field.h"
/* the shared per-cell header: same file name, so named by its folder */
#include "mac/macsurface_cell.h"

typedef struct lq_macsurface_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel classify, apply, pressure, fill_pressure;
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

/* Builds the program (grid sizes as -D defines) on an OpenCL context; nothing on the
 * reference path. */
int lq_macsurface_ops_init(lq_macsurface_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macsurface_ops_release(lq_macsurface_ops *o);

/* mask[c] = the empty-neighbour mask of SURFACE cell c (bit n: neighbour n EMPTY, a
 * neighbour outside the grid is a wall), 0 for every other cell. */
int lq_macsurface_classify(lq_macsurface_ops *o, const lq_field *flags, lq_field *mask);
/* Sets every SURFACE cell's faces toward EMPTY cells by the rule of its mask (from
 * classify over the same flags). h: δx δy δz (m, > 0); g: body force (m/s²); dt (s). */
int lq_macsurface_apply(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                        lq_field *u, lq_field *v, lq_field *w, const float h[3], float dt,
                        const float g[3]);
/* p of every SURFACE cell from lq_macsurface_forcing; other cells untouched. h: spacing (m),
 * origin: world position of the grid's lower corner (m). */
/* After lq_macsurface_pressure: an up-facing SURFACE cell's p from the FULL cell below and its
 * marker fill (lq_macsurface_fill_pressure_cell). mask: from lq_macsurface_classify; count: int per
 * cell (the markers' classification counts); ratio: a float field of 2 (per_cell + 1) values filled
 * by lq_macsurface_fill_ratio ((f − ½)/(f + ½), f = m / per_cell held at ≥ 0.1, then the caps |g|
 * (f + ½) δy; g_abs = |g|, dy = δy). 1 ≤ per_cell ≤ 64. */
void lq_macsurface_fill_ratio(int per_cell, float g_abs, float dy, float *ratio);
int lq_macsurface_fill_pressure(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                                lq_field *p, const lq_field *count, const lq_field *ratio,
                                int per_cell);
int lq_macsurface_ref_fill_pressure(lq_macsurface_ops *o, const lq_field *flags,
                                    const lq_field *mask, lq_field *p, const lq_field *count,
                                    const lq_field *ratio, int per_cell);
int lq_macsurface_pressure(lq_macsurface_ops *o, const lq_field *flags, lq_field *p,
                           const float h[3], const float origin[3], const lq_macsurface_forcing *f);

/* The kernels' scalar arguments from the operations' (shared by both backends, so
 * they agree bit for bit); LQ_EINPUT with one line on bad input. */
int lq_macsurface_apply_prepare(const float h[3], float dt, const float g[3],
                                lq_macsurface_apply_k *k);
int lq_macsurface_pressure_prepare(const float h[3], const float origin[3],
                                   const lq_macsurface_forcing *f, lq_macsurface_pressure_k *k);

/* Reference twins (host/ops/mac/macsurface_ref.c): same arguments, host storage. */
int lq_macsurface_ref_classify(lq_macsurface_ops *o, const lq_field *flags, lq_field *mask);
int lq_macsurface_ref_apply(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                            lq_field *u, lq_field *v, lq_field *w, const float h[3], float dt,
                            const float g[3]);
int lq_macsurface_ref_pressure(lq_macsurface_ops *o, const lq_field *flags, lq_field *p,
                               const float h[3], const float origin[3],
                               const lq_macsurface_forcing *f);

#endif
