/*
 * reinit_ref.h — reinitialisation of the level set φ to a signed distance, keeping its zero
 * level set in place (Rasmussen et al. 2004 §3: φ is kept a signed distance; methods
 * after Russo & Smereka 2000 and the fast iterative method of Jeong & Whitaker 2008).
 * kernels/pls/reinit_cell.h states the two methods; each operation has an OpenCL launcher
 * (host/ops/pls/reinit.c, kernels/pls/reinit.cl) and a reference twin with the same arguments
 * (host/ops/pls/reinit_ref.c).
 *
 * Grid: cells as mac_grid.h, uniform size h, φ nx·ny·nz floats at cell centres (m,
 * liquid φ ≤ 0); 2D is nz = 1.
 *
 * Methods (prm->method):
 *  - LQ_REINIT_FIM (the default of lq_reinit_params_default; a zeroed struct is PDE): interface
 *    cells get the Russo–Smereka sub-cell distance, the rest a Jacobi solve of the
 *    Godunov eikonal equation (min-updates, converged in about dim·band sweeps).
 *  - LQ_REINIT_PDE: φ_τ + S(φ0)(|∇φ| − 1) = 0, Godunov upwinding, TVD-RK2, Russo–Smereka
 *    fix near the interface, Δτ = 0.5 h (2D) or 0.4 h (3D).
 * Measured accuracy and speed: see the comment above lq_reinit_params_default.
 *
 * Band: |φ| beyond band·h is clamped to ±band·h; the sweep count grows with the band.
 *
 * Interface cells kept (prm->keep > 0, both methods): a cell next to the interface whose
 * |∇φ| is within keep of 1 keeps its φ (reinit_cell.h); 0 (lq_reinit_params_default) sets
 * every one to Russo–Smereka's sub-cell distance, which moves the zero set slightly.
 *
 * Departure (lq_reinit_departure): the mean ||∇φ| − 1| over the cells with |φ| < width·h,
 * for reinitialising only when φ has drifted from a distance.
 *
 * Use in a step: after lq_sladvect_advect_scalar (and the particle correction), every step or
 * every few steps: lq_reinit(o, phi, scratch, &prm, NULL). scratch: a float field of
 * nx·ny·nz (any content; overwritten).
 *
 * Invariant: bit for bit on both backends (same code, no contraction; sqrt and divide
 * correctly rounded on both sides).
 */
#ifndef LQ_HOST_REINIT_REF_H
#define LQ_HOST_REINIT_REF_H

#include <math.h>

#include "core/kernel.h"
#include "pls/reinit_cell.h"

typedef struct lq_reinit_params {
    float h;        /* m, the cell size */
    float band;     /* cells: |φ| is clamped to band·h */
    int iterations; /* sweeps (FIM) or RK2 steps (PDE); 0: enough for the band */
    int method;     /* LQ_REINIT_FIM or LQ_REINIT_PDE */
    float keep;     /* an interface cell whose |∇φ| is within keep of 1 keeps its φ (0: none) */
} lq_reinit_params;

typedef struct lq_reinit_stats {
    int iterations;   /* sweeps or RK2 steps done */
    float max_change; /* m, max |Δφ| over the last sweep or step */
} lq_reinit_stats;

typedef struct lq_reinit_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    lq_field phi0;    /* φ at the start (float per cell) */
    lq_field mx;      /* the max change (one uint, float bits) */
    lq_field mark;    /* int per cell: the FIM sweep that last listed it (a stamp) */
    lq_field list[2]; /* int per cell: the FIM's active lists (ping-pong) */
    lq_field cnt[2];  /* int: list[q]'s length */
    lq_field dep;     /* 2 long: the departure sum (fixed point) and its cell count */
    int stamp;        /* the last stamp used */
    bool lent;        /* phi0, mark, list are views of the caller's (lq_reinit_ops_init_lent):
                       * mark is zeroed at every call, not only at the start */
    cl_program program;
    lq_kernel init, fim_seed, pde1, pde2, fim_list, departure;
} lq_reinit_ops;

/* Reference twin (host/ops/pls/reinit_ref.c): same arguments, host storage; o->phi0 and o->mx
 * are host fields there. */
void lq_reinit_ref(lq_reinit_ops *o, lq_field *phi, lq_field *scratch, const lq_reinit_params *prm);
void lq_reinit_ref_departure(lq_reinit_ops *o, const lq_field *phi, float h, float width,
                             double *mean, long long *cells);

/* Kernel coefficients from the params, computed in double and rounded once. */
typedef struct lq_reinit_coef {
    float h, ih, h2, bh, dth, keep;
} lq_reinit_coef;
static inline lq_reinit_coef lq_reinit_coef_of(const lq_reinit_params *prm, int nz)
{
    lq_reinit_coef c;
    double h = prm->h;
    c.h = prm->h;
    c.ih = (float)(1.0 / h);
    c.h2 = (float)(h * h);
    c.bh = (float)(prm->band * h);
    c.dth = nz == 1 ? 0.5f : 0.4f;
    c.keep = prm->keep;
    return c;
}

/* The sweeps or steps prm asks for (its own count, or enough for the band). */
static inline int lq_reinit_iterations(const lq_reinit_ops *o, const lq_reinit_params *prm)
{
    if (prm->iterations > 0) return prm->iterations;
    int dim = o->nz == 1 ? 2 : 3, b = (int)ceil(prm->band);
    if (prm->method == LQ_REINIT_PDE) {
        lq_reinit_coef c = lq_reinit_coef_of(prm, o->nz);
        return (int)ceil(prm->band / c.dth) + 4;
    }
    int n = dim * b + 2;
    return n + (n & 1);
}

#endif
