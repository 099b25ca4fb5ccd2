/*
 * macspray.h — spray and foam for the `mac` solver (Foster & Metaxas 1996 §4.3): particles
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
#ifndef LQ_HOST_MACSPRAY_H
#define LQ_HOST_MACSPRAY_H

#include <stdint.h>
#include <stdio.h>

#include "core/field.h"
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

/* The coefficient buffer (LQ_MSP_C_*) for these params, in double, rounded once. */
void lq_macspray_coef_of(const lq_macspray_params *prm, int nx, int ny, int nz,
                         float c[LQ_MACSPRAY_C_COUNT]);

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
    cl_kernel emit_count, block_sum, block_scan, emit_write, advance, compact_count,
        compact_scatter;
} lq_macspray_ops;

int lq_macspray_ops_init(lq_macspray_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macspray_ops_release(lq_macspray_ops *o);

/* Checks the plan against the device, then allocates everything zeroed (no particles).
 * capacity ≥ 0 (0: every emission is dropped and counted). */
int lq_macspray_state_init(lq_macspray_state *st, lq_ctx *ctx, int nx, int ny, int nz,
                           int capacity);
void lq_macspray_state_release(lq_macspray_state *st);

/* The three passes of a step, for tests; lq_macspray_step runs them in this order after
 * uploading the coefficients and zeroing this step's counters (lq_macspray_begin).
 * u, v, w: face velocities (m/s, mac_grid.h); flags: uchar LQ_MAC_* per cell. */
int lq_macspray_begin(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm);
int lq_macspray_advance(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                        const lq_field *v, const lq_field *w, const lq_field *flags,
                        const lq_macspray_params *prm);
int lq_macspray_compact(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm);
int lq_macspray_emit(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                     const lq_field *v, const lq_field *w, const lq_field *flags,
                     const lq_macspray_params *prm);
/* Reads the counters back: st->live and st->dropped follow; out (may be NULL) gets them. */
int lq_macspray_end(lq_macspray_ops *o, lq_macspray_state *st, lq_macspray_counts *out);

/* One step: begin, advance (flight, landing, foam, removal, separation decisions),
 * compact (separations written as two), emit (after the live particles), end. Call it
 * after the grid's velocities and flags of the step are final (after §6 step 8's marker
 * classification), with the step's δt. */
int lq_macspray_step(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                     const lq_field *v, const lq_field *w, const lq_field *flags,
                     const lq_macspray_params *prm, lq_macspray_counts *out);

/* The live particles as columns for a points view (lq_points_view, host/core/solver_api.h):
 * LQ_MACSPRAY_NCOLS arrays of at least st->live floats each, named by
 * lq_macspray_column_names (x y z vx vy vz radius kind, kind 0 spray, 1 foam; positions
 * in grid coordinates, add the grid's origin for world ones). *n gets st->live. */
#define LQ_MACSPRAY_NCOLS 8
extern const char *const lq_macspray_column_names[LQ_MACSPRAY_NCOLS];
int lq_macspray_download(const lq_macspray_state *st, float *const cols[LQ_MACSPRAY_NCOLS], int *n);

/* Checkpoint payload: the live count, the dropped total and the live particles (bit for
 * bit; the step counter is the caller's). load needs a state of the same capacity and
 * grid. */
int lq_macspray_save(const lq_macspray_state *st, FILE *f);
int lq_macspray_load(lq_macspray_state *st, FILE *f);

/* Reference twins (host/ops/mac/macspray_ref.c): same arguments, host storage. */
void lq_macspray_ref_advance(lq_macspray_state *st, const lq_field *u, const lq_field *v,
                             const lq_field *w, const lq_field *flags,
                             const lq_macspray_params *prm);
void lq_macspray_ref_compact(lq_macspray_state *st, const lq_macspray_params *prm);
void lq_macspray_ref_emit(lq_macspray_state *st, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *flags, const lq_macspray_params *prm);

#endif
