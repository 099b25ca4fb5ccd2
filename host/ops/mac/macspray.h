/*
 * macspray.h — the launchers of the operation: each dispatches to the reference twin
 * (macspray_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/macspray.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in macspray_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MACSPRAY_H
#define LQ_HOST_MACSPRAY_H

#include "ops/mac/macspray_ref.h"

/* The coefficient buffer (LQ_MSP_C_*) for these params, in double, rounded once. */
void lq_macspray_coef_of(const lq_macspray_params *prm, int nx, int ny, int nz,
                         float c[LQ_MACSPRAY_C_COUNT]);
int lq_macspray_ops_init(lq_macspray_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macspray_ops_release(lq_macspray_ops *o);
/* Checks the plan against the device, then allocates everything zeroed (no particles).
 * capacity ≥ 0 (0: every emission is dropped and counted). */
int lq_macspray_state_init(lq_macspray_state *st, lq_ctx *ctx, int nx, int ny, int nz,
                           int capacity);
void lq_macspray_state_release(lq_macspray_state *st);
/* The three passes of a step, for tests; lq_macspray_step runs them in this order after
 * uploading the coefficients and zeroing this step's counters (lq_macspray_begin).
 * u, v, w: face velocities (m/s, mac_grid.h); flags: uchar LQ_MAC_* per cell. */
int lq_macspray_begin(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm);
int lq_macspray_advance(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                        const lq_field *v, const lq_field *w, const lq_field *flags,
                        const lq_macspray_params *prm);
int lq_macspray_compact(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm);
int lq_macspray_emit(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                     const lq_field *v, const lq_field *w, const lq_field *flags,
                     const lq_macspray_params *prm);
/* Reads the counters back: st->live and st->dropped follow; out (may be NULL) gets them. */
int lq_macspray_end(lq_macspray_ops *o, lq_macspray_state *st, lq_macspray_counts *out);
/* One step: begin, advance (flight, landing, foam, removal, separation decisions),
 * compact (separations written as two), emit (after the live particles), end. Call it
 * after the grid's velocities and flags of the step are final (after §6 step 8's marker
 * classification), with the step's δt. */
int lq_macspray_step(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                     const lq_field *v, const lq_field *w, const lq_field *flags,
                     const lq_macspray_params *prm, lq_macspray_counts *out);
int lq_macspray_download(const lq_macspray_state *st, float *const cols[LQ_MACSPRAY_NCOLS], int *n);
/* Checkpoint payload: the live count, the dropped total and the live particles (bit for
 * bit; the step counter is the caller's). load needs a state of the same capacity and
 * grid. */
int lq_macspray_save(const lq_macspray_state *st, FILE *f);
int lq_macspray_load(lq_macspray_state *st, FILE *f);

#endif
