/*
 * momentum_ref.h — the explicit momentum update of the `mac` solver (Foster & Metaxas 1996
 * §3.1, eq. 2), the solid-obstacle boundary conditions (§3.2.1) and the time step
 * (eq. 3 and a viscous limit). Each operation has an OpenCL launcher (host/ops/mac/momentum.c,
 * kernels/mac/momentum.cl) and a reference twin with the same arguments
 * (host/ops/mac/momentum_ref.c), both built on kernels/mac/momentum_cell.h, which states which
 * faces move, the averages of eq. 2, and which fluid neighbour a SOLID cell copies.
 *
 * Invariant: every operation gives the same result on both backends bit for bit (same
 * code, no contraction, no division on the device, an order-independent max).
 */
#ifndef LQ_HOST_MOMENTUM_REF_H
#define LQ_HOST_MOMENTUM_REF_H

#include "core/kernel.h"
#include "mac/momentum_cell.h"

typedef struct lq_momentum_params {
    float dt;         /* s */
    float dx, dy, dz; /* m, cell size per axis */
    float nu;         /* m²/s, kinematic viscosity */
    float g[3];       /* m/s², body force per unit mass */
    float gamma;      /* donor-cell share of the convective terms (0: eq. 2 as the paper) */
    int advection;    /* LQ_MOMENTUM_DONOR (γ above) or LQ_MOMENTUM_LIMITED (γ unused) */
} lq_momentum_params;

/* 1/δ, ν/δ², g, δt from the params in double, rounded once. */
static inline lq_momentum_coef lq_momentum_coef_of(const lq_momentum_params *prm)
{
    double dx = prm->dx, dy = prm->dy, dz = prm->dz, nu = prm->nu;
    lq_momentum_coef c;
    c.idx = (float)(1.0 / dx);
    c.idy = (float)(1.0 / dy);
    c.idz = (float)(1.0 / dz);
    c.vx = (float)(nu / (dx * dx));
    c.vy = (float)(nu / (dy * dy));
    c.vz = (float)(nu / (dz * dz));
    c.gx = prm->g[0];
    c.gy = prm->g[1];
    c.gz = prm->g[2];
    c.dt = prm->dt;
    c.gamma = prm->gamma;
    c.limited = prm->advection == LQ_MOMENTUM_LIMITED;
    return c;
}

/* The solver's fields (borrowed) and the state's own outputs and scratch. */
typedef struct lq_momentum_state {
    int nx, ny, nz;
    lq_field *u, *v, *w; /* m/s, faces (mac_grid.h) */
    lq_field *p;         /* m²/s² (pressure over density), cells */
    lq_field *flags;     /* unsigned char LQ_MAC_* per cell */
    lq_field *bnd;       /* unsigned char per cell: 0 free-slip, 1 no-slip (SOLID cells) */
    lq_field un, vn, wn; /* ũ, ṽ, w̃ of eq. 2 (m/s), written by lq_momentum_step */
    lq_field smax;       /* lq_uint[3]: bits of max |u|, |v|, |w| */
} lq_momentum_state;

typedef struct lq_momentum_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel step, boundary, max;
    lq_kernel step_rows; /* the step as vector rows (kernels/mac/momentum.cl) */
    int rows; /* 1: the step runs momentum_step_rows (set on CPU devices; a test may clear it) */
} lq_momentum_ops;

/* Reference twins (host/ops/mac/momentum_ref.c): same arguments, host storage. */
void lq_momentum_ref_step(lq_momentum_state *st, const lq_momentum_params *prm);
void lq_momentum_ref_boundary(lq_momentum_state *st);
void lq_momentum_ref_max_speed(lq_momentum_state *st, float smax[3]);

#endif
