/*
 * machf_ref.h — the height-field surface of the `mac` solver (Foster & Metaxas 1996 §4.3,
 * eq. 11–12), for scenes whose surface does not overturn: one height per vertical
 * column of cells, moved by the liquid's velocity at the surface, and the cell
 * classification it implies (FULL below, SURFACE at the surface, EMPTY above; the same
 * flags as the marker path, so mac_surface and the pressure solve run unchanged). The
 * math and the rules are kernels/mac/machf_cell.h; each operation has an OpenCL launcher
 * (host/ops/mac/machf.c, kernels/mac/machf.cl) and a reference twin with the same arguments
 * (host/ops/mac/machf_ref.c).
 *
 * Storage. h: one float per column (m above the grid's bottom edge y = 0), a field of
 * nx × nz × 1 (index i + nx k). The state owns h, its update target and an int per cell
 * of classification scratch.
 *
 * In the step (§6): step 3 is lq_machf_classify (instead of lq_markers_classify), step 8
 * is lq_machf_advance with the velocities after step 7.
 *
 * Invariant: both backends agree bit for bit (same code, no contraction, no division).
 */
#ifndef LQ_HOST_MACHF_REF_H
#define LQ_HOST_MACHF_REF_H

#include "core/kernel.h"
#include "mac/machf_cell.h"
#include "ops/mac/markers.h"

typedef struct lq_machf_params {
    float dt;         /* s */
    float dx, dy, dz; /* m, cell size per axis */
} lq_machf_params;

/* What the kernels take, from the params in double, rounded once. */
typedef struct lq_machf_coef {
    float idy;      /* 1/m */
    float q4x, q4z; /* 1/(4 δx), 1/(4 δz), 1/m */
    float ly;       /* m, ny δy */
} lq_machf_coef;
static inline lq_machf_coef lq_machf_coef_of(const lq_machf_params *prm, int ny)
{
    lq_machf_coef c;
    c.idy = (float)(1.0 / prm->dy);
    c.q4x = (float)(0.25 / prm->dx);
    c.q4z = (float)(0.25 / prm->dz);
    c.ly = (float)(ny * (double)prm->dy);
    return c;
}

typedef struct lq_machf_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel advance, fill, label;
} lq_machf_ops;

typedef struct lq_machf_state {
    int nx, ny, nz;
    lq_field h, hn; /* m, one per column (nx × nz) */
    lq_field state; /* int per cell, classification scratch */
} lq_machf_state;

/* Reference twins (host/ops/mac/machf_ref.c): the kernels' arguments, host storage. */
void lq_machf_ref_advance(lq_field *hn, const lq_field *h, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *flags, const lq_machf_params *prm);
void lq_machf_ref_classify(const lq_field *h, lq_field *state, lq_field *flags,
                           const lq_machf_params *prm);

/* --- host helpers (initialisation and measures; not per step) ----------------------- */

typedef struct lq_machf_measure {
    double volume;    /* m³ (m² × dz in 2D): the liquid below h in cells not of a fixed kind */
    double max_slope; /* the largest |Δh| / δ between neighbouring wet columns */
    int steep;        /* columns with a neighbour more than one cell (δy) higher or lower
                         per cell across: where eq. 11's single-valued surface is strained */
    float h_min, h_max;
} lq_machf_measure;

#endif
