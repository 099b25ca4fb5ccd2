/*
 * plsparticles.h — the launchers of the operation: each dispatches to the reference twin
 * (plsparticles_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plsparticles.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in plsparticles_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_PLSPARTICLES_H
#define LQ_HOST_PLSPARTICLES_H

#include "ops/pls/plsparticles_ref.h"

/* The coefficient vector (LQ_PLS_C_*) the kernels read, defaults filled in. */
void lq_plsparticles_coef_of(const lq_plsparticles_params *prm, int nx, int ny, int nz, int has_sdf,
                             float c[LQ_PLSPARTICLES_C_COUNT]);
/* Device bytes lq_plsparticles_state_init allocates (for the solver's plan: lq_ctx_reserve_plan).
 */
size_t lq_plsparticles_state_bytes(int nx, int ny, int nz, int capacity);
int lq_plsparticles_state_init(lq_plsparticles_state *st, lq_ctx *ctx, int nx, int ny, int nz,
                               int capacity);
void lq_plsparticles_state_release(lq_plsparticles_state *st);
/* Room for `capacity` particles (≥ the current room; at most LQ_PLSPARTICLES_MAX_CAPACITY), the
 * live ones kept in order: lq_ctx_reserve for the extra bytes (LQ_EINPUT when the device
 * has no room for them: nothing changes), then new buffers (the old ones released
 * first, the particles through host memory). For seedings (prm->grow) and checkpoints. */
int lq_plsparticles_state_grow(lq_plsparticles_state *st, int capacity);
int lq_plsparticles_ops_init(lq_plsparticles_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_plsparticles_ops_release(lq_plsparticles_ops *o);
/* Empties the particles, then seeds every band cell with per_cell particles attracted to
 * their goals (lq_plsparticles_reseed from nothing). sdf may be NULL (no objects). */
int lq_plsparticles_seed(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *phi,
                         const lq_field *sdf, const lq_plsparticles_params *prm);
/* Midpoint RK2 of the live particles through u, v, w over prm->dt. */
int lq_plsparticles_advect(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *u,
                           const lq_field *v, const lq_field *w, const lq_plsparticles_params *prm);
/* Escaped-particle error correction of φ (in place); st->escaped gets the count when
 * the caller asks (stats != NULL reads it back: one small read). */
int lq_plsparticles_correct(lq_plsparticles_ops *o, lq_plsparticles_state *st, lq_field *phi,
                            const lq_plsparticles_params *prm, int *escaped);
/* lq_plsparticles_correct without the read: the escaped particles add to a tally the
 * device keeps (the reference path: st->tally), which lq_plsparticles_take_tally reads. */
int lq_plsparticles_correct_tally(lq_plsparticles_ops *o, lq_plsparticles_state *st, lq_field *phi,
                                  const lq_plsparticles_params *prm);
/* The tally's escaped particles since the last take, and the tally to 0; on OpenCL one
 * blocking read, which also syncs as lq_plsparticles_sync does. */
int lq_plsparticles_take_tally(lq_plsparticles_state *st, long long *escaped);
/* With st->deferred, compaction and seeding leave the live count on the device: this reads
 * it (one blocking read, none when st->live is known or on the reference path), with the
 * dropped particles, into st->live and st->dropped. */
int lq_plsparticles_sync(lq_plsparticles_state *st);
/* The live count when the host knows it, otherwise the room (its bound): for launches
 * whose kernels stop at the device's count (st->counters[LQ_PLSPARTICLES_CNT_LIVE]). */
int lq_plsparticles_bound(const lq_plsparticles_state *st);
/* r = clamp(s φ(x), r_min, r_max) for the live particles. */
int lq_plsparticles_adjust_radii(lq_plsparticles_ops *o, lq_plsparticles_state *st,
                                 const lq_field *phi, const lq_plsparticles_params *prm);
/* Compaction: drops dead particles, those far outside the band, deep on the wrong side,
 * still escaped by more than prm->esc_air (esc_liq) radii when that is > 0, or inside an
 * object (sdf < 0; sdf may be NULL); order kept; st->live updated. */
int lq_plsparticles_delete(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *phi,
                           const lq_field *sdf, const lq_plsparticles_params *prm);
/* lq_plsparticles_delete, then new particles (attracted) in the band cells holding fewer than
 * per_cell, up to per_cell; cells over the target are not thinned. With prm->grow, a
 * seeding that needs more room than the buffers have grows them first (to 1.5 times the
 * need, or of the room, whichever is more) when the device has the memory, so the
 * result is that of a run with the larger room from the start; otherwise (and without
 * prm->grow) the particles beyond the room are not made (st->dropped). */
int lq_plsparticles_reseed(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *phi,
                           const lq_field *sdf, const lq_plsparticles_params *prm);
/* The live particles to host memory: LQ_PLSPARTICLES_STRIDE floats each (x, y, z, s r), at most
 * `max` of them; *n gets st->live (known: lq_plsparticles_sync first). For PLY output,
 * checkpoints and tests. */
int lq_plsparticles_download(const lq_plsparticles_state *st, float *out, int max, int *n);
/* Replaces the particles with n from host memory (tests, checkpoints). */
int lq_plsparticles_upload(lq_plsparticles_state *st, const float *in, int n);

#endif
