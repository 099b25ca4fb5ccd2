/*
 * heightfield.h — the operations of the height-field water solver (Kass & Miller),
 * each with an OpenCL launcher (host/ops/hf/heightfield.c, kernels/hf/heightfield.cl) and a
 * reference twin with the same arguments (host/ops/hf/heightfield_ref.c). The per-line and
 * per-cell math both run is kernels/hf/heightfield_cell.h.
 *
 * Fields (nx × nz cells, x fastest): h1 = h(n−1), hn = h(n), b ground,
 * cp scratch (float, nx·nz), L labels (int, nx·nz), old_sum/new_sum (lq_long, nx·nz),
 * wet (int, nx·nz), u ((nx+1)·nz), w (nx·(nz+1)), acc_l (lq_long, LQ_HEIGHTFIELD_ACC_L_COUNT),
 * acc_i (int, LQ_HEIGHTFIELD_ACC_I_COUNT).
 *
 * Invariant: an operation's result is the same on both backends up to the tolerance
 * listed for it in host/core/tolerance.c (bit for bit for most: same code, no contraction,
 * correctly rounded division, fixed-point sums).
 */
#ifndef LQ_HOST_HEIGHTFIELD_H
#define LQ_HOST_HEIGHTFIELD_H

#include "core/field.h"
#include "hf/heightfield_cell.h"

typedef struct lq_heightfield_ops {
    lq_ctx *ctx;
    int nx, nz;
    int vec;    /* columns per work-item in the z solve (OpenCL) */
    int xblock; /* rows in 8 x 8 register-transposed blocks (CPU devices) */
    cl_program program;
    cl_kernel residual, advect, adi_x, adi_z, source, label_init, label_merge, label_compress,
        volume_reduce, volume_apply, finish, stats;
} lq_heightfield_ops;

/* Builds the program for an nx × nz grid on OpenCL (nothing to do on the reference
 * path). Needs cl_khr_int64_base_atomics on OpenCL devices. */
int lq_heightfield_ops_init(lq_heightfield_ops *o, lq_ctx *ctx, int nx, int nz);
void lq_heightfield_ops_release(lq_heightfield_ops *o);

/* Delta form of eq. 17 (lq_heightfield_residual_cell): hn ← R from (h1, u, w, b). */
int lq_heightfield_residual(lq_heightfield_ops *o, const lq_field *h1, const lq_field *u,
                            const lq_field *w, const lq_field *b, lq_field *hn, float kappa,
                            float cdt);
/* eq. 19: hn ← A_x⁻¹ hn, rows, depth frozen at (h1, b). */
int lq_heightfield_adi_x(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b, lq_field *hn,
                         lq_field *cp, float kappa);
/* eq. 20: hn ← h1 + A_z⁻¹ hn, columns, same frozen depth. */
int lq_heightfield_adi_z(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b, lq_field *hn,
                         lq_field *cp, float kappa);
/* A source or sink on the ni × nk cells from (i0, k0), centre (ci, ck) in cells. */
int lq_heightfield_source(lq_heightfield_ops *o, lq_field *h1, const lq_field *b, lq_field *acc_l,
                          int i0, int k0, int ni, int nk, float ci, float ck, float inv_r2,
                          int mode, float amount, float scale);
/* Connected regions of cells wet in h1 or hn: L[i] = smallest index of i's region, -1
 * for cells taking no part; clears the roots' slot-0 accumulators. */
int lq_heightfield_label(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                         const lq_field *b, lq_field *L, lq_field *old_sum, lq_field *new_sum,
                         lq_field *wet);
/* Per-region fixed-point sums (old depth only when with_old). */
int lq_heightfield_volume_reduce(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                                 const lq_field *b, const lq_field *L, lq_field *old_sum,
                                 lq_field *new_sum, lq_field *wet, float scale, int with_old);
/* Uniform per-region correction of hn; clears next_new/next_wet at roots. */
int lq_heightfield_volume_apply(lq_heightfield_ops *o, lq_field *hn, const lq_field *b,
                                const lq_field *L, const lq_field *old_sum, const lq_field *new_sum,
                                const lq_field *wet, lq_field *next_new, lq_field *next_wet,
                                lq_field *acc_l, float inv_scale, int last_pass);
/* Wet/dry rule on hn and face velocities; records the first bad step in acc_i. */
int lq_heightfield_finish(lq_heightfield_ops *o, lq_field *hn, const lq_field *h1,
                          const lq_field *b, lq_field *u, lq_field *w, lq_field *acc_i,
                          float gdt_dx, float keep, float fric, float eps, int step);
/* Semi-Lagrangian advection of the face velocities (u, w) into (ua, wa). */
int lq_heightfield_advect(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b,
                          const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                          float dt_dx);
/* Adds this frame's statistics of h into acc_l/acc_i (caller clears them first). */
int lq_heightfield_stats(lq_heightfield_ops *o, const lq_field *h, const lq_field *b,
                         const lq_field *u, const lq_field *w, lq_field *acc_l, lq_field *acc_i,
                         float scale);

/* The state one height-field run keeps on its backend. h[] alternates: i1 = h(n−1),
 * in = h(n). u, w are the face velocities of eq. 7. */
typedef struct lq_heightfield_state {
    int nx, nz;
    lq_field h[2];
    int i1, in;
    lq_field b, cp, L, old_sum, new_sum[2], wet[2], u, w, ua, wa, acc_l, acc_i, st_l, st_i;
} lq_heightfield_state;

/* Checks the plan against the device, then allocates (zeroed; acc_i's bad-step slot
 * set to INT_MAX). */
int lq_heightfield_state_alloc(lq_heightfield_state *st, lq_ctx *ctx, int nx, int nz);
void lq_heightfield_state_release(lq_heightfield_state *st);

typedef struct lq_heightfield_step_params {
    float kappa;  /* g Δt² / Δx² */
    float cdt;    /* (1 − τ) Δt / Δx: weight of the carried water in R */
    float keep;   /* 1 − τ, for the velocities */
    float gdt_dx; /* g Δt / Δx */
    float fric;   /* g Δt n² of the bed friction (0: none) */
    float eps;    /* ε of the wet/dry rule, m */
    float scale;  /* fixed-point volume scale, 2^S */
    int correct;  /* volume projection on/off */
    int advect;   /* advection of u, w on/off (not in the paper) */
    float dt_dx;  /* Δt / Δx, for the advection */
    int step;     /* step number, for the blow-up report */
} lq_heightfield_step_params;

/* Steps 2–5 of the paper's algorithm (§4, in 3D by §5) on the state, then rotates
 * h[]: frozen depth, rows then columns (eq. 19, 20), volume projection per connected
 * region (two passes), wet/dry rule and velocities. Sources (step 1) are the
 * caller's. */
int lq_heightfield_step(lq_heightfield_ops *o, lq_heightfield_state *st,
                        const lq_heightfield_step_params *p);

/* Reference twins (host/ops/hf/heightfield_ref.c): same arguments, host storage. */
void lq_heightfield_ref_residual(int nx, int nz, const lq_field *h1, const lq_field *u,
                                 const lq_field *w, const lq_field *b, lq_field *hn, float kappa,
                                 float cdt);
void lq_heightfield_ref_adi_x(int nx, int nz, const lq_field *h1, const lq_field *b, lq_field *hn,
                              lq_field *cp, float kappa);
void lq_heightfield_ref_adi_z(int nx, int nz, const lq_field *h1, const lq_field *b, lq_field *hn,
                              lq_field *cp, float kappa);
void lq_heightfield_ref_source(int nx, int nz, lq_field *h1, const lq_field *b, lq_field *acc_l,
                               int i0, int k0, int ni, int nk, float ci, float ck, float inv_r2,
                               int mode, float amount, float scale);
void lq_heightfield_ref_label(int nx, int nz, const lq_field *h1, const lq_field *hn,
                              const lq_field *b, lq_field *L, lq_field *old_sum, lq_field *new_sum,
                              lq_field *wet);
void lq_heightfield_ref_volume_reduce(int nx, int nz, const lq_field *h1, const lq_field *hn,
                                      const lq_field *b, const lq_field *L, lq_field *old_sum,
                                      lq_field *new_sum, lq_field *wet, float scale, int with_old);
void lq_heightfield_ref_volume_apply(int nx, int nz, lq_field *hn, const lq_field *b,
                                     const lq_field *L, const lq_field *old_sum,
                                     const lq_field *new_sum, const lq_field *wet,
                                     lq_field *next_new, lq_field *next_wet, lq_field *acc_l,
                                     float inv_scale, int last_pass);
void lq_heightfield_ref_finish(int nx, int nz, lq_field *hn, const lq_field *h1, const lq_field *b,
                               lq_field *u, lq_field *w, lq_field *acc_i, float gdt_dx, float keep,
                               float fric, float eps, int step);
void lq_heightfield_ref_advect(int nx, int nz, const lq_field *h1, const lq_field *b,
                               const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                               float dt_dx);
void lq_heightfield_ref_stats(int nx, int nz, const lq_field *h, const lq_field *b,
                              const lq_field *u, const lq_field *w, lq_field *acc_l,
                              lq_field *acc_i, float scale);

#endif
