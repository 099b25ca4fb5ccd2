/*
 * plscontrol.h — the launchers of the operation: each dispatches to the reference twin
 * (plscontrol_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plscontrol.cl otherwise. The operation's data (its object, the record and
 * its binning) and the twin are declared in plscontrol_ref.h, which the twin includes
 * alone, so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_PLSCONTROL_H
#define LQ_HOST_PLSCONTROL_H

#include "ops/pls/plscontrol_ref.h"
#include "ops/pls/poisson.h"

/* Room for `capacity` records (at least 1) and the per-cell scratch of the kinds in
 * `kinds` (bits 1 << LQ_PLSCONTROL_*). */
int lq_plscontrol_ops_init(lq_plscontrol_ops *o, lq_ctx *ctx, int nx, int ny, int nz, int capacity,
                           unsigned kinds);
void lq_plscontrol_ops_release(lq_plscontrol_ops *o);
/* Device bytes lq_plscontrol_ops_init allocates (for the solver's plan). */
size_t lq_plscontrol_ops_bytes(int nx, int ny, int nz, int capacity, unsigned kinds);
/* Uploads n ≤ capacity records (host memory, LQ_PLSCONTROL_STRIDE floats each) and bins
 * them: the tile side is the smallest multiple of a cell ≥ LQ_PLSCONTROL_TILE that holds
 * the largest extent; o->present, o->binned are set. */
int lq_plscontrol_bin(lq_plscontrol_ops *o, const float *rec, int n, float h);
/* The binning again on the records already uploaded (the bench). */
int lq_plscontrol_rebin(lq_plscontrol_ops *o, float h);
/* Level-set control and erasers (§4.3, fig. 2) in φ, in place; o->kill marks the moved
 * cells (−1) for the particles' deletion; *moved (may be NULL) gets their count. */
int lq_plscontrol_phi(lq_plscontrol_ops *o, lq_field *phi, const lq_field *sdf, float h,
                      int *moved);
/* Viscosity control into o->nu from the liquid's ν: scale × nu_in per cell, or the
 * constant scale when nu_in is NULL. */
int lq_plscontrol_viscosity(lq_plscontrol_ops *o, const lq_field *nu_in, float scale, float h);
/* Velocity control (eq. 4; hard control where α > 0.9) on the faces, and o->solid, the
 * projection's solid field; *hard (may be NULL) gets the hard cells' count. */
int lq_plscontrol_velocity(lq_plscontrol_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, float h, int *hard);
/* The divergence targets into the projection's right-hand side b (its unknowns: mask &
 * unknown): b += (h²/dt) α D_p. */
int lq_plscontrol_divergence(lq_plscontrol_ops *o, lq_field *rhs, const lq_field *mask, int unknown,
                             float h, float dt);
/* The solid field the projection takes: the last velocity pass's (objects and the hard
 * cells) when it had hard cells, else sdf (the objects' alone, may be NULL). */
const lq_field *lq_plscontrol_solid(const lq_plscontrol_ops *o, const lq_field *sdf);
/* The projection (lq_poisson_step's four parts) on the solid field `solid` (the caller's:
 * lq_plscontrol_solid, maybe with more) and the divergence targets added to its
 * right-hand side (when divergence particles are binned). */
int lq_plscontrol_project(lq_plscontrol_ops *o, lq_poisson_ops *po, const lq_field *phi,
                          const lq_field *solid, lq_field *u, lq_field *v, lq_field *w, lq_field *b,
                          lq_field *p, const lq_poisson_params *prm, lq_poisson_stats *st);

#endif
