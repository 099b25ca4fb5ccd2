/*
 * pressure.h — the launchers of the operation: each dispatches to the reference twin
 * (pressure_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/pressure.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in pressure_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_PRESSURE_H
#define LQ_HOST_PRESSURE_H

#include "ops/mac/pressure_ref.h"

/* The parameters for `method` with the paper's β0 (1.7 red-black, 1 Jacobi) and a check
 * every 2 sweeps; the tolerance ε (1/s) and the sweep cap are the caller's (a scene's
 * come from mac.epsilon and mac.max_sweeps, whose defaults are the key table's alone). */
lq_pressure_params lq_pressure_params_of(lq_pressure_method method, float dt, float dx, float dy,
                                         float dz, float eps, int max_sweeps);
/* Checks the scratch against the device, then allocates it zeroed. */
int lq_pressure_state_init(lq_pressure_state *st, lq_ctx *ctx, int nx, int ny, int nz, lq_field *u,
                           lq_field *v, lq_field *w, lq_field *p, lq_field *flags);
void lq_pressure_state_release(lq_pressure_state *st);
int lq_pressure_ops_init(lq_pressure_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_pressure_ops_release(lq_pressure_ops *o);
/* The Poisson module and its two vectors for LQ_PRESSURE_MGPCG (once; released with the ops). */
int lq_pressure_mg_init(lq_pressure_ops *o);
/* CG's relative floor and iteration cap for LQ_PRESSURE_MGPCG (lq_pressure_solve). */
#define LQ_PRESSURE_MG_TOL      1e-7f
#define LQ_PRESSURE_MG_MAX_ITER 100
/* Eq. 5 into st->div (FULL cells; 0 elsewhere) and max |D| over FULL cells into
 * st->dmax; when maxdiv is not NULL the max is read back (a wait), +inf when some D is
 * not finite. */
int lq_pressure_divergence(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                           float *maxdiv);
/* One red-black colour: eq. 6–9 for every FULL cell with (i + j + k) % 2 == parity. */
int lq_pressure_rb_sweep(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                         int parity);
/* Both colours, red (parity 0) then black: the same result as lq_pressure_rb_sweep
 * with parity 0 then 1, bit for bit, in fewer passes over memory where the device
 * allows (host/ops/mac/pressure.c). */
int lq_pressure_rb_full_sweep(lq_pressure_ops *o, lq_pressure_state *st,
                              const lq_pressure_params *prm);
/* One Jacobi sweep: δp into st->dp for every FULL cell, then faces and p. */
int lq_pressure_jacobi_sweep(lq_pressure_ops *o, lq_pressure_state *st,
                             const lq_pressure_params *prm);
/* Jacobi's pass 2 with a given δp (per cell, 0 off the FULL cells): the faces by eq. 8 and
 * p += δp (eq. 9). */
int lq_pressure_apply(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                      const lq_field *dp);
/* Sweeps (prm->method) until max |D| < eps, checked before the first sweep and every
 * check_every sweeps, or until max_sweeps. LQ_PRESSURE_MGPCG: PCG first (lq_pressure_mg_init
 * before), then red-black sweeps to the same test; *sweeps counts CG's iterations and the
 * sweeps (o->mg_iterations, o->mg_sweeps each). *sweeps: sweeps done; *maxdiv: the last
 * max |D| measured (above eps when the cap stopped it: not an error). LQ_ESIM when D
 * stops being finite; LQ_EINPUT for impossible params. */
int lq_pressure_solve(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                      int *sweeps, float *maxdiv);
/* mac.surface_solve, once a step after the cells are classified (kernels/mac/pressure_cell.h,
 * lq_pressure_surface_prep_cell, says what and why): out (unsigned char per cell, the grid's
 * shape) = the flags the iteration reads, p of the EMPTY cells (and of the surface cells
 * held), sw (2 n floats) the surface weights. count: int per cell (markers); table:
 * LQ_PRESSURE_ST (per_cell + 1) floats from lq_pressure_surface_table; per_cell 0: no weights,
 * EMPTY at 0, count and table unread. Point st->flags at out and st->sw at sw for
 * lq_pressure_solve; the caller restores both afterwards. */
int lq_pressure_surface_prep(lq_pressure_ops *o, const lq_field *flags, lq_field *out, lq_field *p,
                             lq_field *sw, const lq_field *count, const lq_field *table,
                             int per_cell);
void lq_pressure_surface_table(int per_cell, float g_abs, const lq_pressure_params *prm, int nx,
                               int ny, int nz, int at_fill, float *table);

#endif
