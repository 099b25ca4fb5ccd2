/*
 * plsparticles_ref.h — the particles of the particle level set (Enright, Fedkiw, Ferziger &
 * Mitchell 2002, "A hybrid particle level set method for improved interface capturing",
 * as used by Rasmussen et al. 2004 §3 and §5.5.3). The math and its invariants are in
 * kernels/pls/plsparticles_cell.h; launchers host/ops/pls/plsparticles.c, kernels
 * kernels/pls/plsparticles.cl, reference twins host/ops/pls/plsparticles_ref.c (same arguments).
 *
 * Grid (the `pls` convention): nx × ny × nz cells of size h, no wall layer; φ and the
 * optional solid sdf at cell centres (m, φ ≤ 0 liquid, sdf < 0 inside objects); u, v, w
 * on the faces as mac_grid.h; positions in metres in the domain [0, nx h] × ... (2D: nz
 * = 1, z = h/2).
 *
 * Storage: lq_plsparticles_state holds two particle buffers (LQ_PLSPARTICLES_STRIDE = 4 floats
 * each: x, y, z and the signed radius s r), the current one part[cur] with `live` particles, and
 * the scratch of the correction (two int keys per cell; the seeding's per-cell counts share the
 * first) and of the scans: 32 bytes per particle of capacity and 8 per cell. Operations that change
 * the count (delete, reseed) read the counters back to the host (one small read each).
 *
 * Per step, Enright's order (the lead's solver does the sequence):
 *   lq_plsparticles_advect (with the φ advection), lq_plsparticles_correct, reinitialise φ,
 * lq_plsparticles_correct again, lq_plsparticles_delete with prm.esc_air, esc_liq set (the
 * particles still escaped), lq_plsparticles_adjust_radii; every N steps lq_plsparticles_reseed
 * (which deletes first). At the start: lq_plsparticles_seed once φ is a signed distance.
 *
 * Invariant: every operation gives the same particles and φ on both backends bit for bit.
 */
#ifndef LQ_HOST_PLSPARTICLES_REF_H
#define LQ_HOST_PLSPARTICLES_REF_H

#include <stdint.h>

#include "core/scan.h"
#include "pls/plsparticles_cell.h"

typedef struct lq_plsparticles_params {
    float h;            /* m, cell size */
    float dt;           /* s (advection) */
    float band;         /* m, seeding band |φ| < band; 0: 3 h */
    float r_min, r_max; /* m; 0: 0.1 h, 0.5 h */
    float far;          /* m, delete when s φ(x) > far; 0: band + r_max */
    float deep;         /* m, delete when s φ(x) < −deep; 0: 1.5 r_max */
    float esc_air;      /* delete an air particle when s φ(x) < −esc_air r (still escaped
                           after the corrections); 0: no such rule */
    float esc_liq;      /* the same for liquid particles */
    int per_cell;       /* target particles per band cell; 0: 16 (2D), 64 (3D) */
    int attract_iters;  /* 0: 15; < 0: none (tests) */
    int grow;           /* 1: a seeding short of room grows the buffers (lq_plsparticles_state_grow)
                           while the device has memory for them; 0: the rest are dropped */
    uint32_t seed;      /* random stream of the seeding */
    uint32_t step;      /* varies the seeding from one reseed to the next */
} lq_plsparticles_params;

typedef struct lq_plsparticles_state {
    int nx, ny, nz, capacity;
    int live;        /* particles in part[cur]; on OpenCL with `deferred`, the device's count
                        (counters[LQ_PLSPARTICLES_CNT_LIVE]) only while `known` */
    int deferred;    /* OpenCL: compaction and seeding leave the live count on the device (no
                        host wait), `live` then unknown until lq_plsparticles_sync */
    int known;       /* `live` is the device's count */
    int cur;         /* which buffer holds them */
    int64_t dropped; /* not written for want of room, all time */
    int escaped;     /* escaped particles the last correction used */
    int64_t tally;   /* reference path: escaped particles of the tallied corrections */
    int added;       /* particles the last seeding added */
    lq_field part[2];
    lq_field kp, km;     /* int per cell: keys of φ+ and φ− */
    lq_field ccnt;       /* int per cell: counts, then needs (kp's storage, not owned) */
    lq_field bsum, boff; /* int per block */
    lq_field counters;   /* LQ_PLS_CNT_* */
    lq_field coef;       /* LQ_PLS_C_* */
    float coef_host[LQ_PLSPARTICLES_C_COUNT];
    int coef_valid;
} lq_plsparticles_state;

#define LQ_PLSPARTICLES_MAX_CAPACITY 400000000

typedef struct lq_plsparticles_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel advect, correct_init, correct_splat, correct_apply, radius, keep_count, keep_scatter,
        cell_clear, cell_count, cell_need, emit, attract;
    lq_scan scan; /* block sums and scan of the seeding and the compaction */
} lq_plsparticles_ops;

/* The state's side of the shared block scan (core/scan.h): its block sums, offsets and
 * counters, its room. */
static inline lq_scan_bufs lq_plsparticles_scan_bufs(lq_plsparticles_state *st)
{
    lq_scan_bufs b = {
        &st->bsum,
        &st->boff,
        &st->counters,
        st->capacity,
        {LQ_PLSPARTICLES_CNT_LIVE, LQ_PLSPARTICLES_CNT_DROPPED, LQ_PLSPARTICLES_CNT_ADDED, -1}};
    return b;
}
/* Reference twins (host/ops/pls/plsparticles_ref.c): same arguments, host storage. */
void lq_plsparticles_ref_advect(lq_plsparticles_state *st, const lq_field *u, const lq_field *v,
                                const lq_field *w, const lq_plsparticles_params *prm);
void lq_plsparticles_ref_correct(lq_plsparticles_state *st, lq_field *phi,
                                 const lq_plsparticles_params *prm, int *escaped);
void lq_plsparticles_ref_adjust_radii(lq_plsparticles_state *st, const lq_field *phi,
                                      const lq_plsparticles_params *prm);
void lq_plsparticles_ref_delete(lq_plsparticles_state *st, const lq_field *phi, const lq_field *sdf,
                                const lq_plsparticles_params *prm);
void lq_plsparticles_ref_add(lq_plsparticles_state *st, const lq_field *phi, const lq_field *sdf,
                             const lq_plsparticles_params *prm);
/* lq_plsparticles_ref_add in two halves (the launcher grows the buffers between them): the cells'
 * needs into ccnt and their sum; then the new particles, attracted. */
int lq_plsparticles_ref_need(lq_plsparticles_state *st, const lq_field *phi, const lq_field *sdf,
                             const lq_plsparticles_params *prm);
void lq_plsparticles_ref_emit(lq_plsparticles_state *st, const lq_field *phi, int total,
                              const lq_plsparticles_params *prm);

#endif
