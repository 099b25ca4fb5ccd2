/*
 * markers_ref.h — marker particles (Foster & Metaxas 1996 §4.1): massless particles filling
 * the liquid, moved by the face velocities of the MAC grid (mac_grid.h) and used to
 * label the cells FULL, SURFACE or EMPTY. Each operation has an OpenCL launcher
 * (host/ops/mac/markers.c, kernels/mac/markers.cl) and a reference twin with the same arguments
 * (host/ops/mac/markers_ref.c), both built on kernels/mac/markers_cell.h, which states the
 * sampling, the step and the labelling rules.
 *
 * Storage. Positions are one float field of 3 n values (x, y, z per particle, m, the
 * domain [0, nx δx] × [0, ny δy] × [0, nz δz]); allocate it with nx = 3, ny = capacity.
 * Classification counts particles into a caller-owned int field of one value per cell
 * (left holding the counts, −1 in SOLID, INFLOW and OUTFLOW cells).
 *
 * Invariant: every operation gives the same result on both backends bit for bit (same
 * code, no contraction, no division, integer counts).
 */
#ifndef LQ_HOST_MARKERS_REF_H
#define LQ_HOST_MARKERS_REF_H

#include <stdint.h>

#include "core/kernel.h"
#include "mac/markers_cell.h"

typedef struct lq_markers_params {
    float dt;         /* s */
    float dx, dy, dz; /* m, cell size per axis */
    int cavities_air; /* 1: leave marker-less cells inside the liquid EMPTY (mac.fill_cavities
                         false); 0, the default: FULL (kernels/mac/markers_cell.h) */
} lq_markers_params;

/* The classification rules for marker counts (lq_markers_label_cell): the ceiling-film rule,
 * and the cavity rule unless prm leaves cavities as air. */
static inline int lq_markers_rules(const lq_markers_params *prm)
{
    return LQ_MARKERS_CEILING | (prm->cavities_air ? 0 : LQ_MARKERS_CAVITIES);
}

/* What the kernels take, from the params in double, rounded once. */
typedef struct lq_markers_coef {
    float idx, idy, idz; /* 1/m */
    float lx, ly, lz;    /* m, the domain size */
} lq_markers_coef;
static inline lq_markers_coef lq_markers_coef_of(const lq_markers_params *prm, int nx, int ny,
                                                 int nz)
{
    lq_markers_coef c;
    c.idx = (float)(1.0 / prm->dx);
    c.idy = (float)(1.0 / prm->dy);
    c.idz = (float)(1.0 / prm->dz);
    c.lx = (float)(nx * (double)prm->dx);
    c.ly = (float)(ny * (double)prm->dy);
    c.lz = (float)(nz * (double)prm->dz);
    return c;
}

typedef struct lq_markers_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel advect, clear, count, label;
} lq_markers_ops;

/* Reference twins (host/ops/mac/markers_ref.c): same arguments, host storage. */
void lq_markers_ref_advect(lq_field *pos, int n, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags, const lq_markers_params *prm);
void lq_markers_ref_classify(const lq_field *pos, int n, lq_field *flags, lq_field *count,
                             const lq_markers_params *prm);

/* A region of liquid to seed: an axis-aligned box [a, b], a sphere (centre a,
 * radius r), or the part of the box [a, b] below a cosine surface (WAVE), m. */
typedef enum lq_markers_shape_kind {
    LQ_MARKERS_BOX,
    LQ_MARKERS_SPHERE,
    LQ_MARKERS_WAVE /* y ≤ level + amp·cos(k·(x_axis − x0)), inside the box [a, b] */
} lq_markers_shape_kind;
typedef struct lq_markers_shape {
    lq_markers_shape_kind kind;
    float a[3], b[3];
    float r;
    float level, amp, k, x0; /* WAVE: m, m, rad/m, m (grid-relative) */
    int axis;                /* WAVE: 0 (x) or 2 (z) */
} lq_markers_shape;

/* Fills the shapes with particles on the host: every cell not SOLID, INFLOW or OUTFLOW
 * (flags may be NULL: none are) is split into a sub-grid of s³ (3D) or s² (2D, nz = 1,
 * z at the cell centre) sub-cells, per_cell = s³ or s², e.g. 8 or 4; each sub-cell's
 * centre is jittered by up to ±¼ of a sub-cell (lq_rng seeded with `seed`, one draw per
 * axis per candidate in cell order, so the result depends only on the arguments) and
 * kept when inside any shape. Positions go to pos (3 per particle, host memory) up to
 * `capacity` particles; *count gets the number the shapes need. LQ_EINPUT when that is
 * more than capacity (nothing beyond capacity is written) or per_cell is not a square or
 * cube. */

#endif
