/*
 * pressure_ref.h — the pressure iteration of Foster & Metaxas 1996 (§3.1, eq. 5–9,
 * boundaries §3.2): it knows only the cell kinds of mac_grid.h. Each operation has an OpenCL
 * launcher (host/ops/mac/pressure.c, kernels/mac/pressure.cl) and a reference twin with the same
 * arguments (host/ops/mac/pressure_ref.c), both built on kernels/mac/pressure_cell.h, which states
 * which faces move.
 *
 * Two orderings of the same per-cell relaxation:
 * - red-black: the cells with i + j + k even, then the odd ones; within a colour no
 *   two cells share a face, so a parallel pass equals a serial one. β0 ∈ [1, 2) (eq. 7;
 *   the paper uses 1.7).
 * - Jacobi: δp of every FULL cell from the same velocities, then every face from its
 *   two cells' δp. This is weighted Jacobi with weight β0: the mode alternating from
 *   cell to cell is multiplied by about 1 − 2 β0 per sweep, so it converges for
 *   0 < β0 ≤ 1 and diverges above (1.02 already did in a 16³ tank); fewer sweeps as
 *   β0 → 1 (16³ tank from random velocities to ε = 1e-4: 1650 sweeps at 0.5, 1020 at
 *   0.8, 910 at 0.9, 820 at 1.0; red-black at 1.7 took 127). Default 1.
 *
 * Invariant: every operation gives the same result on both backends bit for bit
 * (same code, no contraction, reciprocals from the host, an order-independent max).
 */
#ifndef LQ_HOST_PRESSURE_REF_H
#define LQ_HOST_PRESSURE_REF_H

#include "core/kernel.h"
#include "mac/pressure_cell.h"

typedef enum lq_pressure_method {
    LQ_PRESSURE_RED_BLACK, /* red-black ordered sweeps (SOR) */
    LQ_PRESSURE_JACOBI,    /* weighted Jacobi */
    LQ_PRESSURE_MGPCG      /* the same fixed point by multigrid-preconditioned CG (the `pls`
                            * Poisson module, host/ops/mac/pressure.c), red-black after it
                            * until max |D| < ε */
} lq_pressure_method;

#define LQ_PRESSURE_BETA0_RB     1.7f /* the paper's β0 (§3.1) */
#define LQ_PRESSURE_BETA0_JACOBI 1.0f /* weighted Jacobi: 0 < β0 ≤ 1 */

typedef struct lq_pressure_params {
    lq_pressure_method method;
    float dt;         /* s */
    float dx, dy, dz; /* m, cell size per axis */
    float beta0;      /* relaxation of eq. 7 (ranges above) */
    float eps;        /* 1/s: converged when max |D| < eps (the paper: 1e-4) */
    int max_sweeps;   /* the cap; a sweep is both colours, or one Jacobi step */
    int check_every;  /* read max |D| back every N sweeps (≥ 1): a read stalls a GPU */
} lq_pressure_params;

/* What the kernels take, from the params in double, rounded once: reciprocals,
 * β of eq. 7 (an axis one cell thick leaves its 1/δ² term out: it has no free faces),
 * δt/δ per axis. */
typedef struct lq_pressure_coef {
    float idx, idy, idz; /* 1/m */
    float beta;          /* m²/s */
    float tx, ty, tz;    /* s/m */
} lq_pressure_coef;
static inline lq_pressure_coef lq_pressure_coef_of(const lq_pressure_params *prm, int nx, int ny,
                                                   int nz)
{
    double dt = prm->dt, dx = prm->dx, dy = prm->dy, dz = prm->dz;
    double s = (nx > 1 ? 1.0 / (dx * dx) : 0.0) + (ny > 1 ? 1.0 / (dy * dy) : 0.0) +
               (nz > 1 ? 1.0 / (dz * dz) : 0.0);
    lq_pressure_coef c;
    c.idx = (float)(1.0 / dx);
    c.idy = (float)(1.0 / dy);
    c.idz = (float)(1.0 / dz);
    c.beta = s > 0.0 ? (float)((double)prm->beta0 / (2.0 * dt * s)) : 0.0f;
    c.tx = (float)(dt / dx);
    c.ty = (float)(dt / dy);
    c.tz = (float)(dt / dz);
    return c;
}

/* The fields the iteration works on are the solver's (borrowed; pointers to its slots,
 * so swapping a slot's contents is seen here); the state owns its scratch. */
typedef struct lq_pressure_state {
    int nx, ny, nz;
    lq_field *u, *v, *w; /* m/s, faces (mac_grid.h) */
    lq_field *p;         /* m²/s² (pressure over density), cells */
    lq_field *flags;     /* unsigned char LQ_MAC_* per cell */
    lq_field *sw;        /* NULL, or the surface weights (lq_pressure_surface_prep): 2 n floats */
    lq_field div;        /* D of eq. 5 (1/s) per cell, 0 outside FULL cells */
    lq_field dp;         /* Jacobi δp (m²/s²) per cell */
    lq_field dmax;       /* lq_uint[1]: the bits of max |D| */
} lq_pressure_state;

/* How a red-black colour pass is launched (the same result either way): one work-item
 * per cell of the colour (HALF, the default: measured faster on PoCL, see pressure.c),
 * or one per cell, the other colour returning at once (ALL). */
typedef enum lq_pressure_rb_launch {
    LQ_PRESSURE_RB_HALF,
    LQ_PRESSURE_RB_ALL
} lq_pressure_rb_launch;

typedef struct lq_pressure_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    lq_pressure_rb_launch rb_launch;
    cl_program program;
    lq_kernel divergence, max, rb, rb_half, jacobi_dp, jacobi_apply, rb_slabs, rb_edges,
        surface_prep, check;
    int slab;        /* planes per slab of a whole sweep on a CPU; 0: two colour launches */
    lq_field ctl;    /* int[LQ_PRESSURE_CTL_COUNT]: the device-side stop (pressure_cell.h);
                      * its state is LQ_PRESSURE_RUN between solves */
    int last_checks; /* the last solve's checks (its first batch) */
    struct lq_poisson_ops *mg; /* LQ_PRESSURE_MGPCG: the Poisson module (lq_pressure_mg_init) */
    lq_field mg_b, mg_x;       /* its right-hand side and solution (the sum of the δp) */
    int mg_iterations;         /* the last MGPCG solve's CG iterations */
    int mg_sweeps;             /* and the red-black sweeps after it */
    int host_stop;             /* 1: the host tests every check (the loop before the device stop) */
} lq_pressure_ops;

/* The table per marker count m = 0 ... per_cell (f = m / per_cell held at ≥ 0.1), from
 * the cell sizes and β0 of prm and the grid's shape (an axis one cell thick has no term in
 * β): at_fill, the ghost fluid at the fill; else the air at the EMPTY cells' centres. A
 * cell with a weighted face is relaxed with β0 at most LQ_PRESSURE_SURFACE_OMEGA. */
#define LQ_PRESSURE_SURFACE_OMEGA 1.5

/* Reference twins (host/ops/mac/pressure_ref.c): same arguments, host storage. */
void lq_pressure_ref_divergence(lq_pressure_state *st, const lq_pressure_params *prm,
                                float *maxdiv);
void lq_pressure_ref_rb_sweep(lq_pressure_state *st, const lq_pressure_params *prm, int parity);
void lq_pressure_ref_jacobi_sweep(lq_pressure_state *st, const lq_pressure_params *prm);
void lq_pressure_ref_apply(lq_pressure_state *st, const lq_pressure_params *prm,
                           const lq_field *dp);
void lq_pressure_ref_surface_prep(const lq_field *flags, lq_field *out, lq_field *p, lq_field *sw,
                                  const lq_field *count, const lq_field *table, int per_cell);

#endif
