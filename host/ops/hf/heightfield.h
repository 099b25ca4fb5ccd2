/*
 * heightfield.h — the launchers of the operation: each dispatches to the reference twin
 * (heightfield_ref.c) on the reference backend and enqueues the kernels of
 * kernels/hf/heightfield.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in heightfield_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_HEIGHTFIELD_H
#define LQ_HOST_HEIGHTFIELD_H

#include "ops/hf/heightfield_ref.h"

/* Builds the program for an nx × nz grid on OpenCL (nothing to do on the reference
 * path), its line solves by `line_solve` (LQ_HEIGHTFIELD_SOLVE_*; PCR fails on a device
 * whose local memory cannot hold half a line). Needs cl_khr_int64_base_atomics on OpenCL
 * devices. */
int lq_heightfield_ops_init(lq_heightfield_ops *o, lq_ctx *ctx, int nx, int nz, int line_solve);
/* Whether the parallel line solve fits the device: each line's reduced equations in local
 * memory (12 bytes for every second cell, a kilobyte left for the runtime) and a work-group
 * of W work-items; why not in `why` (len bytes; NULL: not wanted) when it does not. The
 * reference backend: always. */
bool lq_heightfield_pcr_fits(const lq_ctx *ctx, int nx, int nz, char *why, size_t len);
/* The line solve ops_init runs for `line_solve` on ctx: THOMAS or PCR (auto resolved:
 * PCR on GPUs and accelerators where it fits, THOMAS elsewhere). */
int lq_heightfield_line_solve(const lq_ctx *ctx, int nx, int nz, int line_solve);
void lq_heightfield_ops_release(lq_heightfield_ops *o);
/* Delta form of eq. 17 (lq_heightfield_residual_cell): hn ← R from (h1, u, w, b). */
int lq_heightfield_residual(lq_heightfield_ops *o, const lq_field *h1, const lq_field *u,
                            const lq_field *w, const lq_field *b, const lq_field *href,
                            lq_field *hn, float kappa, float cdt, const lq_heightfield_walls *wl);
/* eq. 19: hn ← A_x⁻¹ hn, rows, depth frozen at (h1, b); cp scratch of the Thomas solve
 * (unused by the parallel one). */
int lq_heightfield_adi_x(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b, lq_field *hn,
                         lq_field *cp, float kappa, float e_lo, float e_hi);
/* eq. 20: hn ← base + A_z⁻¹ hn, columns, same frozen depth (base = h1: h(n)). */
int lq_heightfield_adi_z(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b,
                         const lq_field *base, lq_field *hn, lq_field *cp, float kappa, float e_lo,
                         float e_hi);
/* out ← the defect R − A Δ of the unsplit system for the iterate hn = h1 + Δ
 * (lq_heightfield_defect_cell). */
int lq_heightfield_defect(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                          const lq_field *u, const lq_field *w, const lq_field *b,
                          const lq_field *href, lq_field *out, float kappa, float cdt,
                          float kappa_s, const lq_heightfield_walls *wl);
/* The water the open walls let out (in) this step: out of (into) the regions' old
 * volumes when project (after lq_heightfield_label), and into acc_l's counters. */
int lq_heightfield_open(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                        const lq_field *b, const lq_field *href, const lq_field *L,
                        lq_field *old_sum, lq_field *acc_l, const lq_heightfield_walls *wl,
                        float scale, int project);
/* A source or sink on the ni × nk cells from (i0, k0), centre (ci, ck) in cells. */
int lq_heightfield_source(lq_heightfield_ops *o, lq_field *h1, const lq_field *b, lq_field *acc_l,
                          int i0, int k0, int ni, int nk, float ci, float ck, float inv_r2,
                          int mode, float amount, float scale);
/* Connected regions of cells wet in h1 or hn: L[i] = smallest index of i's region, -1
 * for cells taking no part; clears the roots' slot-0 accumulators. */
int lq_heightfield_label(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                         const lq_field *b, lq_field *L, lq_field *old_sum, lq_field *new_sum,
                         lq_field *wet);
/* Per-region fixed-point sums (old depth only when with_old). */
int lq_heightfield_volume_reduce(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                                 const lq_field *b, const lq_field *L, lq_field *old_sum,
                                 lq_field *new_sum, lq_field *wet, float scale, int with_old);
/* Uniform per-region correction of hn; clears next_new/next_wet at roots. */
int lq_heightfield_volume_apply(lq_heightfield_ops *o, lq_field *hn, const lq_field *b,
                                const lq_field *L, const lq_field *old_sum, const lq_field *new_sum,
                                const lq_field *wet, lq_field *next_new, lq_field *next_wet,
                                lq_field *acc_l, float inv_scale, int last_pass);
/* Wet/dry rule on hn and face velocities; records the first bad step in acc_i. */
int lq_heightfield_finish(lq_heightfield_ops *o, lq_field *hn, const lq_field *h1,
                          const lq_field *b, lq_field *u, lq_field *w, lq_field *acc_i, float g_new,
                          float g_old, float keep, float fric, float grav, float thin, float eps,
                          int step, const lq_heightfield_walls *wl);
/* Semi-Lagrangian advection of the face velocities (u, w) into (ua, wa). */
int lq_heightfield_advect(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b,
                          const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                          float dt_dx);
/* Adds this frame's statistics of h into acc_l/acc_i (caller clears them first). */
int lq_heightfield_stats(lq_heightfield_ops *o, const lq_field *h, const lq_field *b,
                         const lq_field *u, const lq_field *w, lq_field *acc_l, lq_field *acc_i,
                         float scale);
/* Checks the plan against the device, then allocates (zeroed; acc_i's bad-step slot
 * set to INT_MAX). */
int lq_heightfield_state_alloc(lq_heightfield_state *st, lq_ctx *ctx, int nx, int nz);
void lq_heightfield_state_release(lq_heightfield_state *st);
/* Stages on the whole state, which a step sequences with the launchers above. */
/* Not in the paper: u, w carried along by themselves (lq_heightfield_advect into ua, wa,
 * then swapped in). */
int lq_heightfield_advect_velocity(lq_heightfield_ops *o, lq_heightfield_state *st, float dt_dx);
/* §4's volume projection of h(n): per connected region of cells wet in h(n−1) or h(n)
 * (lq_heightfield_label), LQ_HEIGHTFIELD_PASSES passes of reduce and apply, the last
 * exact (lq_heightfield_volume_apply_cell). */
int lq_heightfield_project_volume(lq_heightfield_ops *o, lq_heightfield_state *st, float scale,
                                  const lq_heightfield_walls *wl);
/* After the rows and columns (eq. 19, 20) have put h(n−1) + Δ in h[in]: p->iterations − 1
 * more split solves of the unsplit system's defect, each added to the iterate
 * (heightfield_cell.h, the splitting error); h[in] holds the last iterate. */
int lq_heightfield_iterate(lq_heightfield_ops *o, lq_heightfield_state *st,
                           const lq_heightfield_step_params *p);
/* h(n) becomes h(n−1) for the next step (h[] alternates). */
void lq_heightfield_rotate(lq_heightfield_state *st);

#endif
