/*
 * columns_ref.h — the column operations of O'Brien & Hodgins 1995, each with
 * an OpenCL launcher (host/ops/hf/columns.c, kernels/hf/columns.cl) and a reference twin with the
 * same arguments (host/ops/hf/columns_ref.c), both built on kernels/hf/columns_cell.h (which
 * documents the grid, the pipes and the accumulators).
 *
 * Invariant: every operation gives the same result on both backends bit for bit
 * (same code, no contraction, integer hashing, order-independent fixed-point sums,
 * sequential blocks for emission and compaction).
 */
#ifndef LQ_HOST_COLUMNS_REF_H
#define LQ_HOST_COLUMNS_REF_H

#include "core/scan.h"
#include "hf/columns_cell.h"

/* Everything one splash run keeps on its backend. */
typedef struct lq_columns_state {
    int nx, nz;
    int capacity;                /* particles the buffers hold */
    int cblocks;                 /* blocks of LQ_COLUMNS_BLOCK corners */
    int pblocks;                 /* blocks of LQ_COLUMNS_BLOCK particles at capacity */
    lq_field b, d, e;            /* ground (m), depth (m), object pressure head (m): columns */
    lq_field hd, s;              /* ḣ (m/s, eq. 12), eq. 9 factors: columns */
    lq_field qx, qz;             /* axis pipes (m³/s) */
    lq_field qd, qa;             /* diagonal pipes (m³/s), corners */
    lq_field qx2, qz2, qd2, qa2; /* the flow update's output, then swapped in */
    lq_field ret;                /* spray volume landed per column (lq_long, m³ · VSCALE) */
    lq_field acc;                /* lq_long[LQ_COLUMNS_ACC_L_COUNT] */
    lq_field counters;           /* int[LQ_COLUMNS_CNT_COUNT] */
    lq_field ccnt;               /* int per corner: particles emitted this step */
    lq_field bsum, boff;         /* int per block */
    lq_field part[2];            /* particles, LQ_COLUMNS_PSTRIDE floats each; part[cur] is live */
    lq_field obj;                /* LQ_COLUMNS_MAX_OBJECTS · LQ_COLUMNS_OBJ_STRIDE floats */
    int cur;
} lq_columns_state;

typedef struct lq_columns_ops {
    lq_ctx *ctx;
    int nx, nz;
    cl_program program;
    lq_kernel flow, limit, scale, volume, boundary, spray_count, spray_emit, spray_take, particles,
        compact_count, compact_scatter, contact;
    lq_scan scan; /* block sums and scan of emission and compaction */
} lq_columns_ops;

/* The state's side of the shared block scan (core/scan.h): its block sums, offsets and
 * counters, its room. */
static inline lq_scan_bufs lq_columns_scan_bufs(lq_columns_state *st)
{
    lq_scan_bufs b = {&st->bsum,
                      &st->boff,
                      &st->counters,
                      st->capacity,
                      {LQ_COLUMNS_CNT_LIVE, LQ_COLUMNS_CNT_DROPPED, LQ_COLUMNS_CNT_EMITTED, -1}};
    return b;
}

typedef struct lq_columns_spray_params {
    float threshold;     /* m/s of ż (§3.3) */
    float per_step;      /* particles per corner per step over the threshold */
    float cap_per_depth; /* A / (2 · volume) */
    float dx, ox, oz;    /* grid */
    float inv_fa;        /* 1 / ((1 − s) dx) */
    float volume;        /* m³ per particle (a multiple of 2^-40) */
    float quarter_depth; /* volume / (4 A) */
    lq_uint seed, step;
} lq_columns_spray_params;

typedef struct lq_columns_flight_params {
    int n, nobj;
    float dx, ox, oz, dt, g[3], drag_keep, dry;
} lq_columns_flight_params;

/* Reference twins (host/ops/hf/columns_ref.c): same arguments, host storage. */
void lq_columns_ref_flow(lq_columns_state *st, float keep, float ga, float gd, float ge,
                         float visc);
void lq_columns_ref_limit(lq_columns_state *st, float r, int last);
void lq_columns_ref_volume(lq_columns_state *st, float r, float inv_area, float dt);
void lq_columns_ref_boundary(lq_columns_state *st, int axis, int wall, int from, int n, float q);
void lq_columns_ref_spray(lq_columns_state *st, const lq_columns_spray_params *p);
void lq_columns_ref_particles(lq_columns_state *st, const lq_columns_flight_params *p);
void lq_columns_ref_compact(lq_columns_state *st, int n);
void lq_columns_ref_contact(lq_columns_state *st, int nobj, float dx, float ox, float oz,
                            float inv_fa, int mode, int i0, int k0, int ni, int nk);

#endif
