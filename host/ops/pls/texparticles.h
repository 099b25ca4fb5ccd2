/*
 * texparticles.h — the launchers of the texture particles (Rasmussen et al. 2004 §6):
 * each dispatches to the reference twin (texparticles_ref.c) on the reference backend and
 * enqueues the kernels of kernels/pls/texparticles.cl otherwise. The operation's data
 * and the twin are declared in texparticles_ref.h, which the twin includes alone.
 */
#ifndef LQ_HOST_TEXPARTICLES_H
#define LQ_HOST_TEXPARTICLES_H

#include "ops/pls/texparticles_ref.h"

/* Device bytes lq_texparticles_state_init allocates (for the solver's plan). */
size_t lq_texparticles_state_bytes(int capacity);
int lq_texparticles_state_init(lq_texparticles_state *st, lq_ctx *ctx, int nx, int ny, int nz,
                               int capacity);
void lq_texparticles_state_release(lq_texparticles_state *st);
int lq_texparticles_ops_init(lq_texparticles_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_texparticles_ops_release(lq_texparticles_ops *o);

/* The cells (indices, ascending) whose φ (host, nx·ny·nz cell centres) is within band of
 * 0, |φ| < band, into cells[] when it is not NULL; returns how many. */
int lq_texparticles_band_cells(const float *phi, int nx, int ny, int nz, float band, int *cells);
/* Replaces the particles with prm->per_cell new ones in each of the ncells listed cells
 * (at most the room; in list order, then by index in the cell), settled on φ = 0 (φ a
 * signed distance), their rest coordinates where they land. */
int lq_texparticles_seed(lq_texparticles_ops *o, lq_texparticles_state *st, const lq_field *phi,
                         const int *cells, int ncells, const lq_texparticles_params *prm);
/* Midpoint RK2 of the particles through u, v, w over prm->dt. */
int lq_texparticles_advect(lq_texparticles_ops *o, lq_texparticles_state *st, const lq_field *u,
                           const lq_field *v, const lq_field *w, const lq_texparticles_params *prm);
/* LQ_TEXPARTICLES_PROJECT_ITERS Newton steps of the particles within band + h of φ = 0
 * toward it. */
int lq_texparticles_project(lq_texparticles_ops *o, lq_texparticles_state *st, const lq_field *phi,
                            const lq_texparticles_params *prm);
/* The n live particles to / from host memory, LQ_TEXPARTICLES_STRIDE floats each. */
int lq_texparticles_download(const lq_texparticles_state *st, float *out);
int lq_texparticles_upload(lq_texparticles_state *st, const float *in, int n);

#endif
