/*
 * chains_ref.h — 2D free-surface particle chains of the `mac` solver (Foster & Metaxas 1996
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
#ifndef LQ_HOST_CHAINS_REF_H
#define LQ_HOST_CHAINS_REF_H

#include "mac/chains_cell.h"
#include "core/kernel.h"
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
    lq_kernel clear, mark, grow, side, spread, label;
} lq_chains_ops;

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
