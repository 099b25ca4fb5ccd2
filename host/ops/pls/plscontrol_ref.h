/*
 * plscontrol_ref.h — control particles of the `pls` solver (Rasmussen et al. 2004 §4:
 * velocity, viscosity, level-set and divergence particles, soft and hard control, and
 * level-set erasers). The math, the record layout and the binning's invariants are in
 * kernels/pls/plscontrol_cell.h; launchers host/ops/pls/plscontrol.c, kernels
 * kernels/pls/plscontrol.cl, reference twins host/ops/pls/plscontrol_ref.c (same
 * arguments). Where the particles come from (generators, keyframed tracks, evaluated on
 * the host once a step): host/ops/pls/controls.h.
 *
 * Grid: pls conventions (mac_grid.h indexing, no wall layer, cell size h; φ, sdf per
 * cell; u, v, w on faces; sdf may be NULL: no objects). Records hold grid-relative
 * positions (m). 2D is nz = 1 (the host puts the particles at z = h/2; tiles are 1 deep).
 *
 * Storage: the records (LQ_PLSCONTROL_STRIDE floats each), their keys and sorted order
 * (int each), per tile its count, start and fill (int; room for tiles of
 * LQ_PLSCONTROL_TILE cells, the smallest: 12 bytes a cell), per block of
 * LQ_PLSCONTROL_BLOCK³ cells its mark and two lists of the marked blocks, the scans'
 * block sums and offsets, the counters (LQ_PLSCONTROL_CNT_*), and per cell the scratch
 * of the kinds asked for at init: velocity α, V_p (3) and the projection's solid field
 * (20 bytes a cell); the level set's kill field (4); the controlled ν (4).
 *
 * A step calls (the solver's stages, host/solvers/pls.c):
 *   lq_plscontrol_bin(o, records, n, h)            upload and bin (at the step's start)
 *   lq_plscontrol_phi(o, phi, sdf, h, &moved)      after the reinitialisation (§4.3)
 *   lq_plscontrol_viscosity(o, nu, scale, h)       before the viscous step (o->nu)
 *   lq_plscontrol_velocity(o, u, v, w, phi, sdf, h, &hard)   before the projection
 *   lq_plscontrol_project(o, poisson, ...)         the projection with the hard cells
 *                                                  solid and the divergence targets
 *
 * Invariant: bit for bit on both backends (integer binning whose result does not depend
 * on the order of the atomics; every per-cell sum in one fixed order).
 */
#ifndef LQ_HOST_PLSCONTROL_REF_H
#define LQ_HOST_PLSCONTROL_REF_H

#include "core/scan.h"
#include "pls/plscontrol_cell.h"

typedef struct lq_plscontrol_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    int capacity;   /* records the buffers hold */
    unsigned kinds; /* bit per kind the scratch was made for (1 << LQ_PLSCONTROL_*) */
    int maxtiles;   /* tiles at the smallest tile side */
    /* the last binning */
    int n;            /* records uploaded */
    unsigned present; /* bit per kind among them */
    int tile;         /* tile side, cells */
    int tn[3], ntiles;
    float ith, reach;   /* 1 / (tile h) (1/m); the largest extent (m, widened a little) */
    int binned;         /* particles in the bins */
    int bn[3], nblocks; /* activity blocks per axis, all */
    int lcur;           /* list[lcur] holds the last binning's active blocks */
    int lw;             /* list[lw]: those the last velocity pass wrote solid in (-1: none) */
    int lsdf;           /* the last velocity pass had an sdf (its base came from it) */
    int nlist[2];
    /* the last passes */
    int hard, moved; /* cells under hard control; cells the φ control moved */
    lq_field part, keys, order;
    lq_field tcount, tstart, tfill;
    lq_field bsum, boff, counters;
    lq_field map, list[2];  /* int per block: marks (1); active blocks in increasing index */
    lq_field bsum2, boff2;  /* the block scan's sums and offsets */
    lq_field ca, cv, solid; /* velocity: α, V_p (3 a cell), the projection's solid field */
    lq_field kill;          /* level set: −1 where φ moved (particles deleted), sdf or +h */
    lq_field nu;            /* viscosity: the controlled ν */
    cl_program program;
    lq_kernel key, start, scatter, sort, listk, base, velocity, faces, phi, viscosity, divergence;
    lq_scan scan;
} lq_plscontrol_ops;

/* The ops' side of the shared block scan (core/scan.h) over the tiles' counts. */
static inline lq_scan_bufs lq_plscontrol_scan_bufs(lq_plscontrol_ops *o)
{
    lq_scan_bufs b = {&o->bsum,
                      &o->boff,
                      &o->counters,
                      o->capacity,
                      {LQ_PLSCONTROL_CNT_LIVE, LQ_PLSCONTROL_CNT_DROP, -1, -1}};
    return b;
}

/* The ops' side of the shared block scan over the activity blocks' marks. */
static inline lq_scan_bufs lq_plscontrol_block_bufs(lq_plscontrol_ops *o)
{
    lq_scan_bufs b = {&o->bsum2,
                      &o->boff2,
                      &o->counters,
                      o->nblocks,
                      {LQ_PLSCONTROL_CNT_BLOCKS, LQ_PLSCONTROL_CNT_BDROP, -1, -1}};
    return b;
}

/* The bins of the last binning as the gathers read them (host storage: the twins). */
static inline lq_plscontrol_bins lq_plscontrol_ref_bins(const lq_plscontrol_ops *o)
{
    lq_plscontrol_bins b = {(const float *)o->part.host,
                            (const int *)o->order.host,
                            (const int *)o->tstart.host,
                            (const int *)o->tcount.host,
                            o->tn[0],
                            o->tn[1],
                            o->tn[2],
                            o->ith,
                            o->reach,
                            (const int *)o->map.host,
                            o->bn[0],
                            o->bn[1]};
    return b;
}

/* Reference twins (host/ops/pls/plscontrol_ref.c): same arguments, host storage; the
 * records are in o->part, the geometry of the binning in o. */
/* (the list of active blocks goes into list[o->lcur], chosen by the launcher) */
void lq_plscontrol_ref_bin(lq_plscontrol_ops *o, float h);
void lq_plscontrol_ref_velocity(lq_plscontrol_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                const lq_field *phi, const lq_field *sdf, float h);
void lq_plscontrol_ref_phi(lq_plscontrol_ops *o, lq_field *phi, const lq_field *sdf, float h);
void lq_plscontrol_ref_viscosity(lq_plscontrol_ops *o, const lq_field *nu_in, float scale, float h);
void lq_plscontrol_ref_divergence(lq_plscontrol_ops *o, lq_field *rhs, const lq_field *mask,
                                  int unknown, float scale, float h);

#endif
