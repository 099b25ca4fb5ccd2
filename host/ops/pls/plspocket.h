/*
 * plspocket.h — the launchers of the operation: each dispatches to the reference twin
 * (plspocket_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plspocket.cl otherwise. The operation's data (its object, where it sits in
 * a step) and the twin are declared in plspocket_ref.h, which the twin includes alone, so
 * the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_PLSPOCKET_H
#define LQ_HOST_PLSPOCKET_H

#include "ops/pls/plspocket_ref.h"

/* Device bytes lq_plspocket_ops_init allocates (for the solver's plan): counters only. */
size_t lq_plspocket_ops_bytes(void);
int lq_plspocket_ops_init(lq_plspocket_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_plspocket_ops_release(lq_plspocket_ops *o);

/* The liquid's components and its pockets on φ and the projection's solid field (NULL
 * with mode 0; mode and wall_dirichlet as the projection's, plspocket_ref.h), in the lent
 * lab (an int per cell); with pockets, out (a float per cell) gets the solid field with
 * them (−h/2). o->open, o->cells, o->pockets, o->rounds are set. */
int lq_plspocket_find(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid, int mode,
                      int wall_dirichlet, float h, lq_field *lab, lq_field *out);
/* The last find's pocket faces get the diffused velocity of their boundary: at least
 * `passes` passes per component, more while a face has no value (o->passes gets them);
 * su, sv, sw: lent buffers of u's, v's and w's shapes. */
int lq_plspocket_enslave(lq_plspocket_ops *o, lq_field *u, lq_field *v, lq_field *w, lq_field *su,
                         lq_field *sv, lq_field *sw, int passes);
/* What the projection takes: the last find's out when it found pockets, else solid. */
const lq_field *lq_plspocket_solid(const lq_plspocket_ops *o, const lq_field *solid);

#endif
