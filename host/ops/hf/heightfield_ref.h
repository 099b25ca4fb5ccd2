/*
 * heightfield_ref.h — the operations of the height-field water solver (Kass & Miller),
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
#ifndef LQ_HOST_HEIGHTFIELD_REF_H
#define LQ_HOST_HEIGHTFIELD_REF_H

#include "core/kernel.h"
#include "hf/heightfield_cell.h"

/* shallow.line_solve: the rows' and columns' tridiagonal solves by the Thomas algorithm
 * (lq_heightfield_solve_line, one line per work-item or per SIMD lane) or by the parallel
 * CR–PCR–Thomas hybrid (lq_heightfield_pcr_*, one work-group per line); auto: the
 * parallel one on GPUs and accelerators, Thomas elsewhere (CPUs, the reference backend). */
#define LQ_HEIGHTFIELD_SOLVE_AUTO   0
#define LQ_HEIGHTFIELD_SOLVE_THOMAS 1
#define LQ_HEIGHTFIELD_SOLVE_PCR    2

typedef struct lq_heightfield_ops {
    lq_ctx *ctx;
    int nx, nz;
    int vec;    /* columns per work-item in the z solve (OpenCL) */
    int xblock; /* rows in 8 x 8 register-transposed blocks (CPU devices) */
    int pcr;    /* line solves by the parallel solve (shallow.line_solve), not Thomas */
    cl_program program;
    lq_kernel residual, defect, open, advect, adi_x, adi_z, pcr_x, pcr_z, source, label_init,
        label_merge, label_compress, volume_reduce, volume_apply, finish, stats;
} lq_heightfield_ops;

/* The state one height-field run keeps on its backend. h[] alternates: i1 = h(n−1),
 * in = h(n). u, w are the face velocities of eq. 7. hx is the next iterate of h(n)
 * while the split solve is repeated (heightfield_cell.h, the splitting error). */
typedef struct lq_heightfield_state {
    int nx, nz;
    lq_field h[2];
    int i1, in;
    lq_field hx, href, b, cp, L, old_sum, new_sum[2], wet[2], u, w, ua, wa, acc_l, acc_i, st_l,
        st_i;
} lq_heightfield_state;

/* The walls that are not closed (walls: open, absorbing; heightfield_cell.h). */
typedef struct lq_heightfield_walls {
    int open;     /* LQ_HEIGHTFIELD_OPEN_* bits: radiating walls */
    float cb;     /* Δt √g / Δx: an open wall's rate per √m of depth */
    float cbt;    /* θ cb: its diagonal term */
    float theta;  /* θ, for the water it lets out */
    int absorb;   /* the same bits: walls with an absorbing layer */
    float aw;     /* the layer's width, cells */
    float sponge; /* σ Δt per √m of depth at the wall: S Δt √g / width */
} lq_heightfield_walls;

/* The line solve's diagonal terms for open walls at either end: rows (axis 0: x_min,
 * x_max) or columns (axis 1: z_min, z_max). */
static inline void lq_heightfield_line_ends(const lq_heightfield_walls *wl, int axis, float *lo,
                                            float *hi)
{
    int a = axis ? LQ_HEIGHTFIELD_OPEN_Z_MIN : LQ_HEIGHTFIELD_OPEN_X_MIN;
    *lo = (wl->open & a) ? wl->cbt : 0.0f;
    *hi = (wl->open & (a << 1)) ? wl->cbt : 0.0f;
}

typedef struct lq_heightfield_step_params {
    float kappa;    /* θ g Δt² / Δx²: the gravity term of R */
    float kappa_s;  /* θ² g Δt² / Δx²: the matrix of eq. 15–16 */
    float cdt;      /* (1 − θτ) Δt / Δx: weight of the carried water in R */
    float keep;     /* 1 − τ, for the velocities */
    float g_new;    /* θ g Δt / Δx: eq. 7's weight on h(n) */
    float g_old;    /* (1 − θ) g Δt / Δx: and on h(n−1) */
    int iterations; /* split solves per step (1: the plain ADI of eq. 19–20) */
    float fric;     /* g Δt n² of the bed friction (0: none) */
    float grav;     /* g, m/s² (the thin-film limiter) */
    float thin;     /* shallow.thin_film, m (0: no limiter) */
    float eps;      /* ε of the wet/dry rule, m */
    float scale;    /* fixed-point volume scale, 2^S */
    int correct;    /* volume projection on/off */
    int advect;     /* advection of u, w on/off (not in the paper) */
    float dt_dx;    /* Δt / Δx, for the advection */
    int step;       /* step number, for the blow-up report */
    lq_heightfield_walls walls;
} lq_heightfield_step_params;

/* Reference twins (host/ops/hf/heightfield_ref.c): same arguments, host storage. */
void lq_heightfield_ref_residual(int nx, int nz, const lq_field *h1, const lq_field *u,
                                 const lq_field *w, const lq_field *b, const lq_field *href,
                                 lq_field *hn, float kappa, float cdt,
                                 const lq_heightfield_walls *wl);
void lq_heightfield_ref_adi_x(int nx, int nz, const lq_field *h1, const lq_field *b, lq_field *hn,
                              lq_field *cp, float kappa, float e_lo, float e_hi);
void lq_heightfield_ref_adi_z(int nx, int nz, const lq_field *h1, const lq_field *b,
                              const lq_field *base, lq_field *hn, lq_field *cp, float kappa,
                              float e_lo, float e_hi);
/* The parallel line solve (heightfield_cell.h) of every row (axis 0: as
 * lq_heightfield_ref_adi_x, base unused) or column (axis 1: as lq_heightfield_ref_adi_z).
 * Fails only when it cannot allocate its two lines of equations. */
int lq_heightfield_ref_pcr(int nx, int nz, int axis, const lq_field *h1, const lq_field *b,
                           const lq_field *base, lq_field *hn, float kappa, float e_lo, float e_hi);
void lq_heightfield_ref_defect(int nx, int nz, const lq_field *h1, const lq_field *hn,
                               const lq_field *u, const lq_field *w, const lq_field *b,
                               const lq_field *href, lq_field *out, float kappa, float cdt,
                               float kappa_s, const lq_heightfield_walls *wl);
void lq_heightfield_ref_open(int nx, int nz, const lq_field *h1, const lq_field *hn,
                             const lq_field *b, const lq_field *href, const lq_field *L,
                             lq_field *old_sum, lq_field *acc_l, const lq_heightfield_walls *wl,
                             float scale, int project);
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
                               lq_field *u, lq_field *w, lq_field *acc_i, float g_new, float g_old,
                               float keep, float fric, float grav, float thin, float eps, int step,
                               const lq_heightfield_walls *wl);
void lq_heightfield_ref_advect(int nx, int nz, const lq_field *h1, const lq_field *b,
                               const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                               float dt_dx);
void lq_heightfield_ref_stats(int nx, int nz, const lq_field *h, const lq_field *b,
                              const lq_field *u, const lq_field *w, lq_field *acc_l,
                              lq_field *acc_i, float scale);

#endif
