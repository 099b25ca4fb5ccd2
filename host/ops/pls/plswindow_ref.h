/*
 * plswindow_ref.h — the `pls` solver's moving grid window (Rasmussen et al. 2004 §5.3):
 * fields and particles moved by whole cells, and the liquid's bounding box the window
 * follows. The rules are in kernels/pls/plswindow_cell.h; launchers host/ops/pls/plswindow.c,
 * kernels kernels/pls/plswindow.cl, reference twins host/ops/pls/plswindow_ref.c (same
 * arguments).
 *
 * Use (host/solvers/pls.c, before a step): lq_plswindow_box for the liquid's cells (one
 * small read), then, where the window moves by d cells, lq_plswindow_shift of every field
 * the step carries into a scratch field of the same shape (then swapped) and
 * lq_plswindow_particles of every particle buffer (its count of particles left behind
 * kept on the device until lq_plswindow_take_out reads it).
 *
 * Invariant: bit for bit on both backends (copies, one subtraction per coordinate, integer
 * atomics).
 */
#ifndef LQ_HOST_PLSWINDOW_REF_H
#define LQ_HOST_PLSWINDOW_REF_H

#include "core/kernel.h"
#include "pls/plswindow_cell.h"

typedef struct lq_plswindow_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    lq_field box; /* 8 int: the bounding box record (LQ_PLSWINDOW_BOX), 2 unused */
    lq_field out; /* 2 int: particles left behind since the last lq_plswindow_take_out */
    cl_program program;
    lq_kernel shift, particles, boxk;
} lq_plswindow_ops;

/* Reference twins (host/ops/pls/plswindow_ref.c): same arguments, host storage. */
void lq_plswindow_ref_shift(lq_plswindow_ops *o, const lq_field *src, lq_field *dst, const int d[3],
                            int mode, float fill, int wall);
void lq_plswindow_ref_particles(lq_plswindow_ops *o, lq_field *part, int n, int stride, int rslot,
                                const int d[3], float h);
void lq_plswindow_ref_box(lq_plswindow_ops *o, const lq_field *phi, int box[LQ_PLSWINDOW_BOX]);

#endif
