/*
 * columns.h — the launchers of the operation: each dispatches to the reference twin
 * (columns_ref.c) on the reference backend and enqueues the kernels of
 * kernels/hf/columns.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in columns_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_COLUMNS_H
#define LQ_HOST_COLUMNS_H

#include "ops/hf/columns_ref.h"

/* Checks the plan against the device, then allocates everything zeroed. */
int lq_columns_state_alloc(lq_columns_state *st, lq_ctx *ctx, int nx, int nz, int capacity);
void lq_columns_state_release(lq_columns_state *st);
int lq_columns_ops_init(lq_columns_ops *o, lq_ctx *ctx, int nx, int nz);
void lq_columns_ops_release(lq_columns_ops *o);
/* Eq. 5–6 on every interior pipe. ga, gd, ge = Δt g k share / 2 for axis, diagonal and
 * wall-side axis pipes, visc = ν Δt / Δx² (lq_columns_flow_corner). The new flows go to
 * qx2 ... qa2, which then trade places with qx ... qa. */
int lq_columns_flow(lq_columns_ops *o, lq_columns_state *st, float keep, float ga, float gd,
                    float ge, float visc);
/* Eq. 9, one pass: factors from the current flows, then the donors' pipes scaled.
 * r = Δt / A; `last` ignores inflow (the pass that guarantees d ≥ 0). */
int lq_columns_limit(lq_columns_ops *o, lq_columns_state *st, float r, int last);
/* Eq. 7 and 12, plus the spray that landed last step. */
int lq_columns_volume(lq_columns_ops *o, lq_columns_state *st, float r, float inv_area, float dt);
/* Sets n boundary pipes from `from` on a wall: axis 0: x-faces at i = wall (0 or nx);
 * axis 1: z-faces at k = wall (0 or nz). */
int lq_columns_boundary(lq_columns_ops *o, lq_columns_state *st, int axis, int wall, int from,
                        int n, float q);
/* Eq. 13–15: count, scan, emit after the live particles, take the volume from the
 * columns. */
int lq_columns_spray(lq_columns_ops *o, lq_columns_state *st, const lq_columns_spray_params *p);
/* Ballistic step and landing of particles 0..n−1 of part[cur]. */
int lq_columns_particles(lq_columns_ops *o, lq_columns_state *st,
                         const lq_columns_flight_params *p);
/* Moves the live particles of part[cur] (n of them before) to the other buffer, in
 * order; flips cur; counters[LIVE] becomes their number. */
int lq_columns_compact(lq_columns_ops *o, lq_columns_state *st, int n);
/* Object contact (§3.2, §4): mode 0 accumulates the objects' heads integrated over the
 * columns [i0, i0+ni) × [k0, k0+nk) into acc; mode 1 writes e of those columns (eq. 11,
 * lq_columns_pressure_cell); mode 2 adds the reaction of the
 * bodies' horizontal forces to the axis pipes the corners [i0, i0+ni) × [k0, k0+nk) own
 * (lq_columns_push_corner); mode 3 samples the water around objects i0 .. i0+ni−1 (nk =
 * 1) for those forces (lq_columns_around_object). inv_fa = 1 / ((1 − s) dx). */
int lq_columns_contact(lq_columns_ops *o, lq_columns_state *st, int nobj, float dx, float ox,
                       float oz, float inv_fa, int mode, int i0, int k0, int ni, int nk);

#endif
