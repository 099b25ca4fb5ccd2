/*
 * chains.h — 2D free-surface particle chains of the `mac` solver (Foster & Metaxas 1996
 * §4.2, Fig. 5; nz = 1 only): ordered polylines of massless particles on the liquid's
 * boundary, moved by the face velocities (the marker advection, lq_markers_advect),
 * kept evenly spaced by host-side insertion and deletion, and turned into cell flags by
 * region growing (FULL / SURFACE / EMPTY, the same flags the marker path gives, so
 * mac_surface and the pressure solve run unchanged). Conventions, the classification's
 * passes and their invariants: kernels/mac/chains_cell.h. Launchers: host/ops/mac/chains.c
 * (kernels/mac/chains.cl); reference twins with the same arguments: host/ops/mac/chains_ref.c.
 *
 * Orientation: liquid lies to the LEFT of the direction of travel (counter-clockwise
 * around liquid, clockwise around a bubble inside it). Open chains are closed by the
 * straight line from their last point to their first for the inside test: their ends
 * belong in walls or obstacles.
 *
 * Storage. The host keeps the chains (hp: x, y, z per point, m; hn: next per point;
 * per chain its first point, count, closed flag), points stored chain after chain. The
 * backend holds copies (pos in the markers' layout, next) that lq_chains_sync uploads.
 * Insertion and deletion are sequential host work, O(points) per step, plus one download
 * and one upload of the points (the reason this is a 2D method).
 *
 * In the step (§6): step 3 is lq_chains_classify (instead of lq_markers_classify), step
 * 8 is lq_chains_advance with the velocities after step 7.
 */
#ifndef LQ_HOST_CHAINS_H
#define LQ_HOST_CHAINS_H

#include "mac/chains_cell.h"
#include "core/field.h"
#include "ops/mac/markers.h"

typedef struct lq_chains_params {
    float dt;         /* s */
    float dx, dy, dz; /* m */
    /* spacing limits as fractions of min(dx, dy); 0 means the defaults 0.5 and 0.1: a
     * segment longer than max_seg is split evenly, points closer than min_seg merge */
    float max_seg, min_seg;
} lq_chains_params;

typedef struct lq_chains_ops {
    lq_ctx *ctx;
    int nx, ny;
    cl_program program;
    cl_kernel clear, mark, grow, side, spread, label;
} lq_chains_ops;

/* LQ_EINPUT when nz ≠ 1 (the chains are a 2D method). */
int lq_chains_ops_init(lq_chains_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_chains_ops_release(lq_chains_ops *o);

typedef struct lq_chains_state {
    lq_ctx *ctx;
    int nx, ny;
    float zc; /* m, the z of every point: half the cell depth */
    /* host chains */
    int n, cap;            /* points, room */
    float *hp;             /* x, y, z per point (m) */
    int *hn;               /* next per point (chains_cell.h) */
    int nchains, ccap;     /* chains, room */
    int *first, *count;    /* per chain */
    unsigned char *closed; /* per chain */
    int dev_cap;           /* points the device fields hold */
    /* backend */
    lq_field pos, next;             /* the chains' copies, dev_cap points */
    lq_field label, state, changed; /* int per cell, int per cell, one int */
    int inserted, merged, dropped;  /* last refine: points added, merges, chains lost */
    int grow_sweeps;                /* last classify: label propagation sweeps */
} lq_chains_state;

/* LQ_EINPUT when nz ≠ 1. dz: the cell depth (points sit at z = dz/2). */
int lq_chains_state_init(lq_chains_state *st, lq_ctx *ctx, int nx, int ny, int nz, float dz);
void lq_chains_state_release(lq_chains_state *st);

/* Appends a chain of npts points (x, y per point, m, grid-relative) to the host chains;
 * closed or open. Nothing is uploaded (lq_chains_sync). */
int lq_chains_add(lq_chains_state *st, int npts, const float *xy, int closed);
/* Appends one closed counter-clockwise chain per liquid shape (markers.h; z ignored):
 * a box's rectangle (an edge at or beyond the inner face of the wall layer, i.e. within
 * one cell of the domain edge, is moved onto the domain edge, so that part of the chain
 * lies in the wall cells and never moves), a sphere's circle in the z = const plane, a
 * wave's box with its top following the cosine; points spaced 0.4 min(dx, dy) at most.
 * Overlapping shapes give overlapping chains (the liquid is their union; the chains are
 * never joined). */
int lq_chains_from_shapes(lq_chains_state *st, float dx, float dy, int nshapes,
                          const lq_markers_shape *shapes);
/* Copies the host chains to the backend (growing its buffers when needed). */
int lq_chains_sync(lq_chains_state *st);

/* Step 8: moves every point by the marker advection (RK2; points stay out of SOLID
 * cells) over prm->dt, downloads, refines (lq_chains_refine), uploads. ko: the markers'
 * ops of the same grid. */
int lq_chains_advance(lq_chains_state *st, lq_markers_ops *ko, const lq_field *u, const lq_field *v,
                      const lq_field *w, const lq_field *flags, const lq_chains_params *prm);
/* Host insertion and deletion (§4.2's rules): per chain, neighbours closer than min_seg
 * merge into their midpoint (an open chain's end point stays put instead); then a
 * segment longer than max_seg gets ⌈len / max_seg⌉ − 1 evenly spaced points; a closed
 * chain left with fewer than 3 points, an open one with fewer than 2, is dropped. The
 * paper deletes both close points and reconnects their neighbours; merging into the
 * midpoint moves the surface less. Host only: call lq_chains_sync after. */
void lq_chains_refine(lq_chains_state *st, const lq_chains_params *prm);

/* Step 3: sets every cell that is not SOLID, INFLOW or OUTFLOW to FULL, SURFACE or
 * EMPTY from the chains on the backend (chains_cell.h's five passes). */
int lq_chains_classify(lq_chains_ops *o, lq_chains_state *st, lq_field *flags,
                       const lq_chains_params *prm);

/* The liquid's area (m²; × dz for a volume): the sum of the chains' signed areas
 * (shoelace, open chains closed), each clipped to the rectangle [lo, hi] when lo and hi
 * are given (e.g. the inside of the wall layer). From the host chains. */
double lq_chains_area(const lq_chains_state *st, const double *lo, const double *hi);

/* Reference twins (host/ops/mac/chains_ref.c): each pass with the kernel's arguments. */
void lq_chains_ref_clear(lq_field *label, const lq_field *flags);
void lq_chains_ref_mark(lq_field *label, const lq_field *pos, const lq_field *next, int n,
                        const lq_field *flags, float idx, float idy);
void lq_chains_ref_grow(lq_field *label, lq_field *changed);
void lq_chains_ref_side(lq_field *state, const lq_field *label, const lq_field *pos,
                        const lq_field *next, int n, float dx, float dy);
void lq_chains_ref_spread(lq_field *state, const lq_field *label);
void lq_chains_ref_label(lq_field *flags, const lq_field *state);

#endif
