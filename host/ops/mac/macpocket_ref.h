/*
 * macpocket_ref.h — the `mac` solver's sealed air pockets (mac.air_pockets: gas): the
 * EMPTY cells' connected components found every step on the device, the ones that do not
 * reach the open air (pockets), each pocket's air tallied, and its gauge pressure held in
 * its cells. The math, the open-air rule and the invariants are
 * kernels/mac/macpocket_cell.h; each operation has an OpenCL launcher
 * (host/ops/mac/macpocket.c, kernels/mac/macpocket.cl) and a reference twin with the same
 * arguments (host/ops/mac/macpocket_ref.c).
 *
 * Where it sits in a step (host/solvers/mac.c): after the cells are classified,
 *   lq_macpocket_find(o, flags, count, per_cell, up)     labels, open roots, tallies
 * the host reads o->lab and o->vol back when o->sealed > 0 and sets each pocket's gauge
 * pressure in o->gauge (indexed by root); after lq_pressure_surface_prep,
 *   lq_macpocket_apply(o, flags, pflags, count, table, per_cell, p)
 * The ops own the labels, the tallies and the gauges (an int, an int and a float per cell).
 *
 * Invariant: bit for bit on both backends (labels that do not depend on the order of the
 * atomics, integer tallies, the same float code for the pressures).
 */
#ifndef LQ_HOST_MACPOCKET_REF_H
#define LQ_HOST_MACPOCKET_REF_H

#include "core/kernel.h"
#include "mac/macpocket_cell.h"

typedef struct lq_macpocket_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    int bn[3];         /* blocks of LQ_PLSPOCKET_B³ cells per axis */
    int rounds;        /* the last find's hook rounds */
    int rounds_last;   /* kept for the next find's first batch (OpenCL) */
    int open;          /* the last find's open air cells */
    int sealed;        /* its pockets' EMPTY cells */
    int pockets;       /* its pockets */
    lq_field lab;      /* int per cell: the labels (kernels/pls/plspocket_cell.h's) */
    lq_field vol;      /* int per cell: at a pocket's root, its air in marker shares */
    lq_field gauge;    /* float per cell: at a pocket's root, its gauge pressure (m²/s²) */
    lq_field counters; /* LQ_MACPOCKET_CNT_COUNT ints */
    cl_program program;
    lq_kernel local, hook, jump, openk, tally, apply;
} lq_macpocket_ops;

/* The twins (the launchers' arguments). */
void lq_macpocket_ref_local(lq_macpocket_ops *o, const lq_field *flags);
void lq_macpocket_ref_hook(lq_macpocket_ops *o);
void lq_macpocket_ref_jump(lq_macpocket_ops *o);
void lq_macpocket_ref_open(lq_macpocket_ops *o, const lq_field *flags, int up);
void lq_macpocket_ref_tally(lq_macpocket_ops *o, const lq_field *flags, const lq_field *count,
                            int per_cell);
void lq_macpocket_ref_apply(lq_macpocket_ops *o, const lq_field *flags, const lq_field *pflags,
                            const lq_field *count, const lq_field *table, int per_cell,
                            lq_field *p);

#endif
