/*
 * macsurface.h — the launchers of the operation: each dispatches to the reference twin
 * (macsurface_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/macsurface.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in macsurface_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MACSURFACE_H
#define LQ_HOST_MACSURFACE_H

#include "ops/mac/macsurface_ref.h"

/* Builds the program (grid sizes as -D defines) on an OpenCL context; nothing on the
 * reference path. */
int lq_macsurface_ops_init(lq_macsurface_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macsurface_ops_release(lq_macsurface_ops *o);
/* mask[c] = the empty-neighbour mask of SURFACE cell c (bit n: neighbour n EMPTY, a
 * neighbour outside the grid is a wall), 0 for every other cell. */
int lq_macsurface_classify(lq_macsurface_ops *o, const lq_field *flags, lq_field *mask);
/* Sets every SURFACE cell's faces toward EMPTY cells by the rule of its mask (from
 * classify over the same flags). h: δx δy δz (m, > 0); g: body force (m/s²); dt (s). */
int lq_macsurface_apply(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                        lq_field *u, lq_field *v, lq_field *w, const float h[3], float dt,
                        const float g[3]);
/* After lq_macsurface_pressure: an up-facing SURFACE cell's p from the FULL cell below and its
 * marker fill (lq_macsurface_fill_pressure_cell). mask: from lq_macsurface_classify; count: int per
 * cell (the markers' classification counts); ratio: a float field of 2 (per_cell + 1) values filled
 * by lq_macsurface_fill_ratio ((f − ½)/(f + ½), f = m / per_cell held at ≥ 0.1, then the caps |g|
 * (f + ½) δy; g_abs = |g|, dy = δy). 1 ≤ per_cell ≤ 64. */
void lq_macsurface_fill_ratio(int per_cell, float g_abs, float dy, float *ratio);
int lq_macsurface_fill_pressure(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                                lq_field *p, const lq_field *count, const lq_field *ratio,
                                int per_cell);
int lq_macsurface_pressure(lq_macsurface_ops *o, const lq_field *flags, lq_field *p,
                           const float h[3], const float origin[3], const lq_macsurface_forcing *f);

#endif
