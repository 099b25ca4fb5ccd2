/*
 * macspray_ref.h — spray and foam for the `mac` solver (Foster & Metaxas 1996 §4.3): particles
 * thrown up where the surface rises faster than a threshold, flying under gravity, wind
 * and air resistance, separating at random, and turning to foam (random life span
 * proportional to the parent's size) where they fall back onto the liquid. Each
 * operation has an OpenCL launcher (host/ops/mac/macspray.c, kernels/mac/macspray.cl) and a
 * reference twin with the same arguments (host/ops/mac/macspray_ref.c), both built on
 * kernels/mac/macspray_cell.h, which states every rule.
 *
 * The spray is decorative, as in the paper ("removed from the Navier-Stokes
 * calculation"): it takes no volume from the grid's liquid and gives none back; the
 * grid's fields are only read.
 *
 * Invariant: every operation gives the same result on both backends bit for bit (same
 * code, no contraction, integer hashing, integer counters, sequential blocks and an
 * integer scan for emission and compaction).
 */
#ifndef LQ_HOST_MACSPRAY_REF_H
#define LQ_HOST_MACSPRAY_REF_H

#include <stdint.h>
#include <stdio.h>

#include "core/scan.h"
#include "mac/macspray_cell.h"

typedef struct lq_macspray_params {
    float dt;         /* s */
    float dx, dy, dz; /* m, cell size per axis */
    float g[3];       /* m/s², gravity */
    float wind[3];    /* m/s, the air's velocity */
    float threshold;  /* m/s, upward surface speed that emits (spray.threshold) */
    float rate;       /* 1/(m² s), particles per horizontal surface area (spray.rate) */
    float radius;     /* m, mean radius of an emitted particle (spray.radius) */
    float spread;     /* m/s, separation velocity per axis (spray.spread) */
    float separation; /* 1/s, chance per second an airborne particle splits in two */
    float drag;       /* 1/s, air resistance toward the wind (spray.drag) */
    int foam;         /* 0: spray hitting the liquid is removed instead (foam.enabled) */
    float foam_life;  /* s, foam life for a particle of radius `radius` (foam.life) */
    float foam_rise;  /* m/s, submerged foam rises this fast (foam.rise) */
    uint32_t seed;    /* spray.seed */
    uint32_t step;    /* the step's number: keys the random numbers */
} lq_macspray_params;

typedef struct lq_macspray_counts {
    int spray, foam; /* live after the step */
    int emitted;     /* this step */
    int removed;     /* this step: out of the domain, into a wall, foam expired */
    int foamed;      /* this step: spray that hit the liquid and became foam */
    int split;       /* this step: separations */
    int dropped;     /* this step: not stored, the buffer was full */
    long long dropped_total;
} lq_macspray_counts;

/* Everything the spray keeps on its backend. */
typedef struct lq_macspray_state {
    int nx, ny, nz;
    int capacity;         /* particles the buffers hold */
    int cblocks, pblocks; /* blocks of LQ_MACSPRAY_BLOCK cells / particles at capacity */
    int live;             /* host copy of the live count (after the last step) */
    long long dropped;    /* running total */
    int cur;              /* part[cur] is live */
    lq_field part[2];     /* LQ_MACSPRAY_STRIDE floats per particle */
    lq_field ccnt;        /* int per cell: particles emitted this step */
    lq_field bsum, boff;  /* int per block */
    lq_field counters;    /* int[LQ_MACSPRAY_CNT_COUNT] */
    lq_field coef;        /* float[LQ_MACSPRAY_C_COUNT] */
} lq_macspray_state;

typedef struct lq_macspray_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel emit_count, emit_write, advance, compact_count, compact_scatter;
    lq_scan scan; /* block sums and scan of emission and compaction */
} lq_macspray_ops;

/* The state's side of the shared block scan (core/scan.h): its block sums, offsets and
 * counters, its room. */
static inline lq_scan_bufs lq_macspray_scan_bufs(lq_macspray_state *st)
{
    lq_scan_bufs b = {&st->bsum,
                      &st->boff,
                      &st->counters,
                      st->capacity,
                      {LQ_MACSPRAY_CNT_LIVE, LQ_MACSPRAY_CNT_DROPPED, LQ_MACSPRAY_CNT_EMITTED,
                       LQ_MACSPRAY_CNT_SPRAY}};
    return b;
}
/* The live particles as columns for a points view (lq_points_view, host/core/solver_api.h):
 * LQ_MACSPRAY_NCOLS arrays of at least st->live floats each, named by
 * lq_macspray_column_names (x y z vx vy vz radius kind, kind 0 spray, 1 foam; positions
 * in grid coordinates, add the grid's origin for world ones). *n gets st->live. */
#define LQ_MACSPRAY_NCOLS 8
extern const char *const lq_macspray_column_names[LQ_MACSPRAY_NCOLS];

/* Reference twins (host/ops/mac/macspray_ref.c): same arguments, host storage. */
void lq_macspray_ref_advance(lq_macspray_state *st, const lq_field *u, const lq_field *v,
                             const lq_field *w, const lq_field *flags,
                             const lq_macspray_params *prm);
void lq_macspray_ref_compact(lq_macspray_state *st, const lq_macspray_params *prm);
void lq_macspray_ref_emit(lq_macspray_state *st, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *flags, const lq_macspray_params *prm);

#endif
