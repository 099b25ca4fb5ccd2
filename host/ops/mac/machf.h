/*
 * machf.h — the height-field surface of the `mac` solver (Foster & Metaxas 1996 §4.3,
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
#ifndef LQ_HOST_MACHF_H
#define LQ_HOST_MACHF_H

#include "core/field.h"
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
lq_machf_coef lq_machf_coef_of(const lq_machf_params *prm, int ny);

typedef struct lq_machf_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel advance, fill, label;
} lq_machf_ops;

int lq_machf_ops_init(lq_machf_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_machf_ops_release(lq_machf_ops *o);

typedef struct lq_machf_state {
    int nx, ny, nz;
    lq_field h, hn; /* m, one per column (nx × nz) */
    lq_field state; /* int per cell, classification scratch */
} lq_machf_state;

int lq_machf_state_init(lq_machf_state *st, lq_ctx *ctx, int nx, int ny, int nz);
void lq_machf_state_release(lq_machf_state *st);
/* Host ↔ backend copies of h (nx nz floats, index i + nx k). */
int lq_machf_set(lq_machf_state *st, const float *h);
int lq_machf_get(const lq_machf_state *st, float *h);

/* Eq. 12: one explicit step of every column over prm->dt with the face velocities
 * u, v, w (m/s; the field after step 7) and flags (LQ_MAC_*, read). */
int lq_machf_advance(lq_machf_ops *o, lq_machf_state *st, const lq_field *u, const lq_field *v,
                     const lq_field *w, const lq_field *flags, const lq_machf_params *prm);
/* Sets every cell that is not SOLID, INFLOW or OUTFLOW to FULL, SURFACE or EMPTY from h
 * (machf_cell.h). */
int lq_machf_classify(lq_machf_ops *o, lq_machf_state *st, lq_field *flags,
                      const lq_machf_params *prm);

/* Reference twins (host/ops/mac/machf_ref.c): the kernels' arguments, host storage. */
void lq_machf_ref_advance(lq_field *hn, const lq_field *h, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *flags, const lq_machf_params *prm);
void lq_machf_ref_classify(const lq_field *h, lq_field *state, lq_field *flags,
                           const lq_machf_params *prm);

/* --- host helpers (initialisation and measures; not per step) ----------------------- */

/* h from the scene's liquid shapes (m, relative to the grid origin, markers.h): per
 * column, the top of the highest shape over the column's centre (x, z; in 2D, nz = 1, z
 * is ignored): a box's max y, a sphere's upper cap, a wave's cosine (below its box's
 * max y). The liquid is taken to fill the
 * column from the floor up (a height field has no air under water: a box or a ball in
 * the air becomes a column down to the floor). Columns no shape covers are dry. h is at
 * least the column's floor (the bottom of its lowest cell not SOLID, INFLOW or OUTFLOW
 * in flags; 0 when flags is NULL) and at most ny dy. */
void lq_machf_from_shapes(int nx, int ny, int nz, float dx, float dy, float dz,
                          const unsigned char *flags, int nshapes, const lq_markers_shape *shapes,
                          float *h);
/* h from cell flags: per column, (1 + the highest FULL or SURFACE row) dy, 0 for none. */
void lq_machf_from_flags(int nx, int ny, int nz, float dy, const unsigned char *flags, float *h);

typedef struct lq_machf_measure {
    double volume;    /* m³ (m² × dz in 2D): the liquid below h in cells not of a fixed kind */
    double max_slope; /* the largest |Δh| / δ between neighbouring wet columns */
    int steep;        /* columns with a neighbour more than one cell (δy) higher or lower
                         per cell across: where eq. 11's single-valued surface is strained */
    float h_min, h_max;
} lq_machf_measure;
/* From host copies of h and the flags (only the fixed kinds are read). */
void lq_machf_measure_host(int nx, int ny, int nz, float dx, float dy, float dz,
                           const unsigned char *flags, const float *h, lq_machf_measure *m);

#endif
