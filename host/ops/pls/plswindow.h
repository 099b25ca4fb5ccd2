/*
 * plswindow.h — the launchers of the operation: each dispatches to the reference twin
 * (plswindow_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plswindow.cl otherwise. The operation's data and the twin are declared in
 * plswindow_ref.h, which the twin includes alone, so the launcher depends on its twin and
 * never the other way round.
 */
#ifndef LQ_HOST_PLSWINDOW_H
#define LQ_HOST_PLSWINDOW_H

#include "ops/pls/plswindow_ref.h"

int lq_plswindow_ops_init(lq_plswindow_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_plswindow_ops_release(lq_plswindow_ops *o);
/* Device bytes lq_plswindow_ops_init allocates (for lq_ctx_reserve). */
size_t lq_plswindow_ops_bytes(void);
/* dst = src moved by d cells (plswindow_cell.h: uncovered elements `fill` or the nearest
 * kept one by mode; wall: the lattice's face axis whose edge faces become 0, −1 none).
 * src and dst: distinct fields of one shape. */
int lq_plswindow_shift(lq_plswindow_ops *o, const lq_field *src, lq_field *dst, const int d[3],
                       int mode, float fill, int wall);
/* The first n records of part (stride floats each, x y z first, relative to the window's
 * origin, m) moved by d cells of h; those now outside the window killed (record[rslot] =
 * 0) and counted on the device. */
int lq_plswindow_particles(lq_plswindow_ops *o, lq_field *part, int n, int stride, int rslot,
                           const int d[3], float h);
/* The particles killed since the last call (one small read), the count reset. */
int lq_plswindow_take_out(lq_plswindow_ops *o, long long *n);
/* The bounding box of the cells with φ < 0: box[0..2] the least i, j, k, box[3..5] the
 * greatest (no liquid: box[0] > box[3]). One small read. */
int lq_plswindow_box(lq_plswindow_ops *o, const lq_field *phi, int box[LQ_PLSWINDOW_BOX]);

#endif
