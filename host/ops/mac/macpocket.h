/*
 * macpocket.h — the launchers of the sealed air pockets: each dispatches to the
 * reference twin (macpocket_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/macpocket.cl otherwise. The operation's data and the twins are declared in
 * macpocket_ref.h.
 */
#ifndef LQ_HOST_MACPOCKET_H
#define LQ_HOST_MACPOCKET_H

#include "ops/mac/macpocket_ref.h"

/* Device bytes lq_macpocket_ops_init allocates (for the solver's plan). */
size_t lq_macpocket_ops_bytes(int nx, int ny, int nz);
int lq_macpocket_ops_init(lq_macpocket_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macpocket_ops_release(lq_macpocket_ops *o);

/* The air's components on flags (LQ_MAC_* per cell), their open roots (up: the face
 * direction toward the top, macpocket_cell.h) and the pockets' air tallied into o->vol
 * (count: markers per cell, per_cell: a full cell's). o->open, o->sealed, o->pockets,
 * o->rounds are set. */
int lq_macpocket_find(lq_macpocket_ops *o, const lq_field *flags, const lq_field *count,
                      int per_cell, int up);
/* Every pocket's cells (and the held surface cells beside it) get the gauge pressure in
 * o->gauge at its root, after lq_pressure_surface_prep wrote pflags and p (table: its
 * surface table). Nothing to do, and nothing done, when the last find found no pocket. */
int lq_macpocket_apply(lq_macpocket_ops *o, const lq_field *flags, const lq_field *pflags,
                       const lq_field *count, const lq_field *table, int per_cell, lq_field *p);

#endif
