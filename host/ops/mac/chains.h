/*
 * chains.h — the launchers of the operation: each dispatches to the reference twin
 * (chains_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/chains.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in chains_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_CHAINS_H
#define LQ_HOST_CHAINS_H

#include "ops/mac/chains_ref.h"

/* LQ_EINPUT when nz ≠ 1 (the chains are a 2D method). */
int lq_chains_ops_init(lq_chains_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_chains_ops_release(lq_chains_ops *o);
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

#endif
