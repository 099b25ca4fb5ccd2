/*
 * plspocket_ref.h — enslaved liquid pockets of the `pls` solver (Rasmussen et al. 2004
 * §5.6): liquid regions that reach no air, walled in by hard control, objects, open inlets
 * or the domain walls, found every step (connected components on the device), removed
 * from the pressure solve and given the diffused velocity of their boundary. The math and
 * the invariants are kernels/pls/plspocket_cell.h; each operation has an OpenCL launcher
 * (host/ops/pls/plspocket.c, kernels/pls/plspocket.cl) and a reference twin with the same
 * arguments (host/ops/pls/plspocket_ref.c).
 *
 * Where it sits in a step (the pls solver's stage "pockets enslaved"), right before the
 * projection, on the φ and the solid field the projection takes:
 *   lq_plspocket_find(o, phi, solid, mode, wall_dirichlet, h, lab, out)   the pockets
 *   lq_plspocket_enslave(o, u, v, w, su, sv, sw, passes)                   their faces
 *   lq_plspocket_solid(o, solid)                             what the projection takes
 * mode is the projection's (lq_poisson_solid: 0 without a solid field, 1, or
 * LQ_POISSON_OBJECT_AIR). The caller lends the per-cell buffers, free from this stage to
 * the projection: lab (an int per cell: the labels), out (a float per cell: the solid
 * field with the pockets, read by the projection) and su, sv, sw (one per velocity
 * component, its shape: the enslaving's other buffer); the ops hold only counters. When no
 * liquid cell anywhere is open the whole liquid is one closed tank and nothing is
 * enslaved: the projection's own singular treatment (b's mean removed) handles a single
 * closed region.
 *
 * Invariant: bit for bit on both backends (labels that do not depend on the order of the
 * atomics; the enslaving's sums in one fixed order).
 */
#ifndef LQ_HOST_PLSPOCKET_REF_H
#define LQ_HOST_PLSPOCKET_REF_H

#include "core/kernel.h"
#include "pls/plspocket_cell.h"

typedef struct lq_plspocket_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    int bn[3];         /* blocks of LQ_PLSPOCKET_B³ cells per axis */
    int rounds;        /* the last find's hook rounds */
    int rounds_last;   /* the same, kept for the next find's first batch (OpenCL) */
    int open;          /* its open liquid cells */
    int cells;         /* its pocket cells (0 also when no cell is open) */
    int pockets;       /* its pockets */
    int passes;        /* the last enslaving's passes per component (the most) */
    int box[6];        /* the last find's pocket cells' least i, j, k and greatest */
    lq_field *lab;     /* the last find's labels (lent) */
    lq_field *out;     /* its solid field with the pockets (lent) */
    lq_field counters; /* LQ_PLSPOCKET_CNT_COUNT ints */
    cl_program program;
    lq_kernel local, hook, jump, openk, mark, enslave;
} lq_plspocket_ops;

/* The twins (the launchers' arguments; solid may be NULL with mode 0). */
void lq_plspocket_ref_local(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid,
                            int mode);
void lq_plspocket_ref_hook(lq_plspocket_ops *o);
void lq_plspocket_ref_jump(lq_plspocket_ops *o);
void lq_plspocket_ref_open(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid,
                           int mode, int wall_dirichlet);
void lq_plspocket_ref_mark(lq_plspocket_ops *o, const lq_field *solid, float h);
/* lo, n: the face box (first face, faces per axis). */
void lq_plspocket_ref_enslave(lq_plspocket_ops *o, const lq_field *src, lq_field *dst, int axis,
                              int pass0, const int lo[3], const int n[3]);

#endif
