/*
 * splash_cell.h — per-pipe, per-column, per-corner and per-particle math of the
 * `splash` solver (O'Brien & Hodgins 1995), shared by the OpenCL kernels
 * (kernels/hf/columns.cl) and their reference twins (host/ops/hf/columns_ref.c).
 *
 * Grid (nx × nz columns on the (x, z) plane, x fastest, heights along y):
 *   column c = i + nx·k holds ground b and water depth d = V / (dx dz) (eq. 2) and an
 *   external pressure head e = E / (ρ g) (eq. 3; m of water);
 *   corner (i, k), 0 ≤ i ≤ nx, 0 ≤ k ≤ nz, is the control point between columns
 *   (i−1, k−1), (i, k−1), (i−1, k), (i, k) (eq. 10, Fig. 3).
 * Pipes (Fig. 3), each stored once (eq. 8: Q(a→b) = −Q(b→a)), m³/s:
 *   qx[i + (nx+1) k]  from (i−1, k) to (i, k)       i = 0 and i = nx are boundary pipes;
 *   qz[i + nx k]      from (i, k−1) to (i, k)       k = 0 and k = nz are boundary pipes;
 *   qd[i + (nx+1) k]  from (i−1, k−1) to (i, k)     (crosses corner (i, k));
 *   qa[i + (nx+1) k]  from (i, k−1) to (i−1, k)     (crosses corner (i, k)).
 * Diagonal pipes on the domain edge are walls and stay 0; boundary axis pipes hold
 * what the host sets (0 for a wall, a source's flow) and are scaled by eq. 9 like any.
 *
 * Pipe constants. Eq. 5–6 give dQ/dt = (c / l) g Δh. With c/l = share · k · D̄ (D̄ the
 * mean depth of the pipe's two columns, m), axis pipes taking (1 − s) of the
 * conductance and each diagonal s/2, the linearised system is h_tt = k g D ∇²h with
 * the 9-point Laplacian (isotropic at s = 1/3): wave speed √(k g D) for any s.
 *
 * Invariant: everything here is plain float arithmetic in a fixed order (no
 * contraction), integer hashing and fixed-point atomics, so both backends agree bit
 * for bit (atomics are order-independent integer sums).
 */
#ifndef LQ_COLUMNS_CELL_H
#define LQ_COLUMNS_CELL_H

#include "common/hash.h"
#include "common/lq_shared.h"
#include "common/scan_cell.h"

/* Accumulators (lq_long): volumes in m³ · LQ_COLUMNS_VSCALE, heads in m · LQ_COLUMNS_FSCALE. */
#define LQ_COLUMNS_VSCALE       1099511627776.0f /* 2^40 */
#define LQ_COLUMNS_FSCALE       4294967296.0f    /* 2^32 */
#define LQ_COLUMNS_ACC_LOST     0 /* spray destroyed on dry ground, objects, leaving the grid */
#define LQ_COLUMNS_ACC_CLAMP    1 /* round-off below zero removed by the volume update */
#define LQ_COLUMNS_ACC_BIN      2 /* in through boundary pipes */
#define LQ_COLUMNS_ACC_BOUT     3 /* out through boundary pipes */
#define LQ_COLUMNS_ACC_ABSORBED 4 /* spray returned to columns */
#define LQ_COLUMNS_ACC_OBJ      8 /* per object: LQ_COLUMNS_OBJ_ACC slots from here */
#define LQ_COLUMNS_OBJ_ACC      11
#define LQ_COLUMNS_OA_HEAD      0 /* Σ e (m of head) */
#define LQ_COLUMNS_OA_TX        1 /* Σ e · (z_c − cz): −torque_x / (ρ g A) */
#define LQ_COLUMNS_OA_TZ        2 /* Σ e · (x_c − cx): torque_z / (ρ g A) */
#define LQ_COLUMNS_OA_SUB       3 /* Σ submerged thickness (m) */
#define LQ_COLUMNS_OA_ZSUM      4 /* Σ surface height over the columns it covers (m) */
#define LQ_COLUMNS_OA_COUNT     5 /* columns covered (× LQ_COLUMNS_FSCALE) */
/* The free water around it (lq_columns_around_object), for the horizontal forces: */
#define LQ_COLUMNS_OA_SX       6  /* ∂W/∂x of the surface W = b + d + e across it (m/m) */
#define LQ_COLUMNS_OA_SZ       7  /* ∂W/∂z */
#define LQ_COLUMNS_OA_U        8  /* the water's velocity around it, x (m/s) */
#define LQ_COLUMNS_OA_V        9  /* and z (m/s) */
#define LQ_COLUMNS_OA_WET      10 /* 1 (× FSCALE) when all its samples are in water */
#define LQ_COLUMNS_MAX_OBJECTS 32
#define LQ_COLUMNS_ACC_L_COUNT (LQ_COLUMNS_ACC_OBJ + LQ_COLUMNS_OBJ_ACC * LQ_COLUMNS_MAX_OBJECTS)

/* Counters (int). */
#define LQ_COLUMNS_CNT_LIVE    0 /* particles in the buffer */
#define LQ_COLUMNS_CNT_EMITTED 1 /* emitted this step */
#define LQ_COLUMNS_CNT_DROPPED 2 /* not emitted: buffer full (running total) */
#define LQ_COLUMNS_CNT_LIMITED 3 /* columns scaled back by eq. 9 (running total) */
#define LQ_COLUMNS_CNT_COUNT   4

/* Objects: LQ_COLUMNS_OBJ_STRIDE floats each. */
#define LQ_COLUMNS_OBJ_STRIDE 24
#define LQ_COLUMNS_O_SHAPE    0  /* LQ_SHAPE_* (host/core/shape.h) */
#define LQ_COLUMNS_O_POS      1  /* centre, 3 */
#define LQ_COLUMNS_O_ROT      4  /* body → world, row-major, 9 */
#define LQ_COLUMNS_O_HALF     13 /* half extents, 3 */
#define LQ_COLUMNS_O_KAPPA    16 /* contact stiffness κ */
#define LQ_COLUMNS_O_FACTOR   17 /* share of the contact pressure applied (eq. 17 bound) */
#define LQ_COLUMNS_O_PUSHX    18 /* m²/s: x-pipe flow added per m of submerged thickness */
#define LQ_COLUMNS_O_PUSHZ    19 /* m²/s: z-pipe flow added per m of submerged thickness */
#define LQ_COLUMNS_O_RING     20 /* m: how far from its centre the water around it is sampled */

/* Particles: LQ_COLUMNS_PSTRIDE floats each: x y z vx vy vz volume alive. */
#define LQ_COLUMNS_PSTRIDE 8
#define LQ_COLUMNS_BLOCK   LQ_SCAN_BLOCK /* corners or particles per block (scan_cell.h) */

LQ_INLINE lq_long lq_columns_fixed_signed(float x)
{
    return x >= 0.0f ? LQ_FIXED(x) : -LQ_FIXED(-x);
}

/* The same uniform [0, 1) numbers on every device (common/hash.h), keyed by four
 * integers. */
LQ_INLINE float lq_columns_uniform(lq_uint seed, lq_uint step, lq_uint a, lq_uint b)
{
    return lq_hash_float(lq_hash32(seed ^ lq_hash32(step ^ lq_hash32(a ^ lq_hash32(b)))));
}

/* --- volume model (§3.1) ------------------------------------------------------- */

/* Eq. 5–6 for one pipe from column a to column b: the pressure head W = b + d + e
 * (eq. 3 over ρ g), c/l from the mean depth. Q carries over scaled by `keep`
 * (damping); `gw` = Δt · g · k · share / 2. */
LQ_INLINE float lq_columns_pipe(float q, float keep, float gw, float da, float db, float wa,
                                float wb)
{
    return q * keep + gw * (da + db) * (wa - wb);
}

/* Σ over the four parallel neighbours of pipe q (strides sx, sz; a missing neighbour,
 * beyond a wall, counts as equal) of (Q_nb − Q): the momentum diffusion of
 * splash.viscosity, which damps the shortest waves (rate ∝ k²) and leaves long ones. */
LQ_INLINE float lq_columns_pipe_laplacian(const LQ_GLOBAL float *f, int q, int sx, int sz, int w,
                                          int ea, int so, int no)
{
    float v = f[q], sum = 0.0f;
    if (w) sum += f[q - sx] - v;
    if (ea) sum += f[q + sx] - v;
    if (so) sum += f[q - sz] - v;
    if (no) sum += f[q + sz] - v;
    return sum;
}

/* New flows of the pipes corner (i, k) owns (qx and qz ending at column (i, k), the two
 * diagonals crossing the corner) from the old ones: interior pipes by eq. 5–6 plus
 * `visc` (ν Δt / Δx²) times their neighbours' Laplacian, the others copied. Axis pipes running
 * along a wall take `ge` (share 1 − s/2 instead of 1 − s): the wall's diagonals, mirrored as a
 * free-slip wall mirrors the columns, join the two columns beside it like one more axis pipe of
 * share s/2; without them waves along a wall travel slower (a 3-column channel ran
 * 5.6 % slow, docs/VALIDATION.md). */
LQ_INLINE void lq_columns_flow_corner(const LQ_GLOBAL float *qx, const LQ_GLOBAL float *qz,
                                      const LQ_GLOBAL float *qd, const LQ_GLOBAL float *qa,
                                      LQ_GLOBAL float *ox, LQ_GLOBAL float *oz, LQ_GLOBAL float *od,
                                      LQ_GLOBAL float *oa, const LQ_GLOBAL float *b,
                                      const LQ_GLOBAL float *d, const LQ_GLOBAL float *e, int i,
                                      int k, int nx, int nz, float keep, float ga, float gd,
                                      float ge, float visc)
{
    int c = i + nx * k, r = nx + 1;
    if (k < nz) {
        int q = i + r * k;
        float v = qx[q];
        if (i > 0 && i < nx) {
            int a = c - 1;
            float g = (k == 0 || k == nz - 1) ? ge : ga;
            v = lq_columns_pipe(v, keep, g, d[a], d[c], b[a] + d[a] + e[a], b[c] + d[c] + e[c]) +
                visc * lq_columns_pipe_laplacian(qx, q, 1, r, i > 1, i<nx - 1, k> 0, k < nz - 1);
        }
        ox[q] = v;
    }
    if (i < nx) {
        int q = i + nx * k;
        float v = qz[q];
        if (k > 0 && k < nz) {
            int a = c - nx;
            float g = (i == 0 || i == nx - 1) ? ge : ga;
            v = lq_columns_pipe(v, keep, g, d[a], d[c], b[a] + d[a] + e[a], b[c] + d[c] + e[c]) +
                visc * lq_columns_pipe_laplacian(qz, q, 1, nx, i > 0, i<nx - 1, k> 1, k < nz - 1);
        }
        oz[q] = v;
    }
    int q = i + r * k;
    float vd = qd[q], va = qa[q];
    if (i > 0 && i < nx && k > 0 && k < nz) {
        int a = c - 1 - nx, bb = c; /* (i−1, k−1) → (i, k) */
        int w = i > 1, ea = i<nx - 1, s = k> 1, n = k < nz - 1;
        vd = lq_columns_pipe(vd, keep, gd, d[a], d[bb], b[a] + d[a] + e[a], b[bb] + d[bb] + e[bb]) +
             visc * lq_columns_pipe_laplacian(qd, q, 1, r, w, ea, s, n);
        a = c - nx; /* (i, k−1) */
        bb = c - 1; /* (i−1, k) */
        va = lq_columns_pipe(va, keep, gd, d[a], d[bb], b[a] + d[a] + e[a], b[bb] + d[bb] + e[bb]) +
             visc * lq_columns_pipe_laplacian(qa, q, 1, r, w, ea, s, n);
    }
    od[q] = vd;
    oa[q] = va;
}

/* The eight pipes of column (i, k) as inflows (m³/s), in a fixed order. */
LQ_INLINE void lq_columns_inflows(const LQ_GLOBAL float *qx, const LQ_GLOBAL float *qz,
                                  const LQ_GLOBAL float *qd, const LQ_GLOBAL float *qa, int i,
                                  int k, int nx, float f[8])
{
    int r = nx + 1;
    f[0] = qx[i + r * k];
    f[1] = -qx[i + 1 + r * k];
    f[2] = qz[i + nx * k];
    f[3] = -qz[i + nx * (k + 1)];
    f[4] = qd[i + r * k];
    f[5] = -qd[i + 1 + r * (k + 1)];
    f[6] = qa[i + 1 + r * k];
    f[7] = -qa[i + r * (k + 1)];
}

/* Eq. 9: the factor by which column (i, k)'s outgoing pipes are scaled so that it does
 * not go below zero. Optimistic passes count this step's inflow (which later passes
 * may reduce), the last pass does not, so after it no column can go negative. */
LQ_INLINE float lq_columns_limit_cell(const LQ_GLOBAL float *qx, const LQ_GLOBAL float *qz,
                                      const LQ_GLOBAL float *qd, const LQ_GLOBAL float *qa,
                                      const LQ_GLOBAL float *d, int i, int k, int nx, float r,
                                      int last)
{
    float f[8];
    lq_columns_inflows(qx, qz, qd, qa, i, k, nx, f);
    float in = 0.0f, out = 0.0f;
    for (int j = 0; j < 8; j++) {
        in += f[j] > 0.0f ? f[j] : 0.0f;
        out += f[j] < 0.0f ? -f[j] : 0.0f;
    }
    float dc = d[i + nx * k];
    float avail = last ? dc : dc + r * in;
    float need = r * out;
    if (need <= avail || need <= 0.0f) return 1.0f;
    float s = avail / need;
    return s > 0.0f ? s : 0.0f;
}

/* Scales one pipe from column a to b by the donor's factor (eq. 9); a or b < 0 is
 * outside the grid (boundary pipe: only the inside column can be the donor). */
LQ_INLINE float lq_columns_scale_pipe(float q, const LQ_GLOBAL float *s, int a, int b)
{
    if (q > 0.0f && a >= 0) return q * s[a];
    if (q < 0.0f && b >= 0) return q * s[b];
    return q;
}

LQ_INLINE void lq_columns_scale_corner(LQ_GLOBAL float *qx, LQ_GLOBAL float *qz,
                                       LQ_GLOBAL float *qd, LQ_GLOBAL float *qa,
                                       const LQ_GLOBAL float *s, int i, int k, int nx, int nz)
{
    int c = i + nx * k;
    if (k < nz) {
        int q = i + (nx + 1) * k;
        qx[q] = lq_columns_scale_pipe(qx[q], s, i > 0 ? c - 1 : -1, i < nx ? c : -1);
    }
    if (i < nx) {
        int q = i + nx * k;
        qz[q] = lq_columns_scale_pipe(qz[q], s, k > 0 ? c - nx : -1, k < nz ? c : -1);
    }
    if (i > 0 && i < nx && k > 0 && k < nz) {
        int q = i + (nx + 1) * k;
        qd[q] = lq_columns_scale_pipe(qd[q], s, c - 1 - nx, c);
        qa[q] = lq_columns_scale_pipe(qa[q], s, c - nx, c - 1);
    }
}

/* Eq. 7 with the flows at the step's midpoint (see splash.c), eq. 12's ḣ, and the spray
 * volume that landed in the column last step. r = Δt / A, inv_area = 1 / A. */
LQ_INLINE void lq_columns_volume_cell(LQ_GLOBAL float *d, LQ_GLOBAL float *hd,
                                      LQ_GLOBAL lq_long *ret, LQ_GLOBAL lq_long *acc,
                                      const LQ_GLOBAL float *qx, const LQ_GLOBAL float *qz,
                                      const LQ_GLOBAL float *qd, const LQ_GLOBAL float *qa, int i,
                                      int k, int nx, int nz, float r, float inv_area, float dt)
{
    float f[8];
    lq_columns_inflows(qx, qz, qd, qa, i, k, nx, f);
    float net = 0.0f;
    for (int j = 0; j < 8; j++) net += f[j];
    int c = i + nx * k;
    float dn = d[c] + r * net;
    hd[c] = net * inv_area; /* eq. 12 */
    /* Boundary pipes: what came in or went out of the grid this step. */
    float bnet = 0.0f;
    if (i == 0) bnet += f[0];
    if (i == nx - 1) bnet += f[1];
    if (k == 0) bnet += f[2];
    if (k == nz - 1) bnet += f[3];
    if (bnet > 0.0f)
        LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_BIN], LQ_FIXED(bnet * dt * LQ_COLUMNS_VSCALE));
    if (bnet < 0.0f)
        LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_BOUT], LQ_FIXED(-bnet * dt * LQ_COLUMNS_VSCALE));
    lq_long back = ret[c];
    if (back != 0) {
        dn += (float)back * (inv_area / LQ_COLUMNS_VSCALE);
        ret[c] = 0;
    }
    if (dn < 0.0f) { /* round-off of eq. 9's last pass only */
        LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_CLAMP],
                           LQ_FIXED(-dn * LQ_COLUMNS_VSCALE / inv_area));
        dn = 0.0f;
    }
    d[c] = dn;
}

/* --- surface (§3.2) and spray (§3.3) at control points ----------------------------- */

/* Surface height of corner (i, k) (eq. 10), clamped to interior corners. */
LQ_INLINE float lq_columns_corner_height(const LQ_GLOBAL float *b, const LQ_GLOBAL float *d, int i,
                                         int k, int nx, int nz)
{
    i = i < 1 ? 1 : (i > nx - 1 ? nx - 1 : i);
    k = k < 1 ? 1 : (k > nz - 1 ? nz - 1 : k);
    int c = i + nx * k;
    return 0.25f * ((b[c - 1 - nx] + d[c - 1 - nx]) + (b[c - nx] + d[c - nx]) +
                    (b[c - 1] + d[c - 1]) + (b[c] + d[c]));
}

/* Velocity of the water through a pipe of mean depth D: the axis pipe carries (1 − s)
 * of the flux through a face dx wide, so u = Q / ((1 − s) dx D). */
LQ_INLINE float lq_columns_pipe_velocity(float q, float da, float db, float inv_fa)
{
    float dm = 0.5f * (da + db);
    return dm > 1e-6f ? q * inv_fa / dm : 0.0f;
}

/* Surface velocity at corner (i, k), clamped to interior corners: eq. 13 (vertical,
 * out[1]) and eq. 14–15 (horizontal, as velocities). */
LQ_INLINE void lq_columns_corner_velocity(const LQ_GLOBAL float *d, const LQ_GLOBAL float *hd,
                                          const LQ_GLOBAL float *qx, const LQ_GLOBAL float *qz,
                                          int i, int k, int nx, int nz, float inv_fa, float out[3])
{
    i = i < 1 ? 1 : (i > nx - 1 ? nx - 1 : i);
    k = k < 1 ? 1 : (k > nz - 1 ? nz - 1 : k);
    int c = i + nx * k, r = nx + 1;
    int c00 = c - 1 - nx, c10 = c - nx, c01 = c - 1, c11 = c;
    out[0] = 0.5f * (lq_columns_pipe_velocity(qx[i + r * (k - 1)], d[c00], d[c10], inv_fa) +
                     lq_columns_pipe_velocity(qx[i + r * k], d[c01], d[c11], inv_fa));
    out[1] = 0.25f * (hd[c00] + hd[c10] + hd[c01] + hd[c11]);
    out[2] = 0.5f * (lq_columns_pipe_velocity(qz[i - 1 + nx * k], d[c00], d[c01], inv_fa) +
                     lq_columns_pipe_velocity(qz[i + nx * k], d[c10], d[c11], inv_fa));
}

/* Particles corner (i, k) emits this step: where the free surface (no object
 * pressing on any of its four columns) rises faster than the threshold, `per_step` particles on
 * average (spray rate × corner area × Δt), at most as many as take an eighth of the shallowest
 * neighbouring column (`cap_per_depth` = A / (2 · volume)) and never more than LQ_COLUMNS_BLOCK. */
LQ_INLINE int lq_columns_emit_count(const LQ_GLOBAL float *d, const LQ_GLOBAL float *hd,
                                    const LQ_GLOBAL float *e, int i, int k, int nx, int nz,
                                    float threshold, float per_step, float cap_per_depth,
                                    lq_uint seed, lq_uint step)
{
    if (i < 1 || i > nx - 1 || k < 1 || k > nz - 1) return 0;
    int c = i + nx * k;
    int c00 = c - 1 - nx, c10 = c - nx, c01 = c - 1;
    /* an object presses on this control point: its surface is the object's, not free */
    if (e[c00] > 0.0f || e[c10] > 0.0f || e[c01] > 0.0f || e[c] > 0.0f) return 0;
    float zdot = 0.25f * (hd[c00] + hd[c10] + hd[c01] + hd[c]);
    if (!(zdot > threshold)) return 0;
    float u = lq_columns_uniform(seed, step, (lq_uint)(i + (nx + 1) * k), 0xffffu);
    int n = (int)(per_step + u);
    float dmin = d[c00];
    dmin = d[c10] < dmin ? d[c10] : dmin;
    dmin = d[c01] < dmin ? d[c01] : dmin;
    dmin = d[c] < dmin ? d[c] : dmin;
    float capf = dmin * cap_per_depth;
    int cap = capf < (float)LQ_COLUMNS_BLOCK ? (int)capf : LQ_COLUMNS_BLOCK;
    return n < cap ? n : cap;
}

/* Particle j of corner (i, k): uniform over the corner's dx × dx square, on the
 * surface (bilinear in the corner heights), with the surface velocity interpolated
 * bilinearly from the four nearest corners (Fig. 4). */
LQ_INLINE void lq_columns_emit_particle(LQ_GLOBAL float *p, const LQ_GLOBAL float *b,
                                        const LQ_GLOBAL float *d, const LQ_GLOBAL float *hd,
                                        const LQ_GLOBAL float *qx, const LQ_GLOBAL float *qz, int i,
                                        int k, int j, int nx, int nz, float dx, float ox, float oz,
                                        float inv_fa, float volume, lq_uint seed, lq_uint step)
{
    lq_uint ci = (lq_uint)(i + (nx + 1) * k);
    float u1 = lq_columns_uniform(seed, step, ci, (lq_uint)(2 * j));
    float u2 = lq_columns_uniform(seed, step, ci, (lq_uint)(2 * j + 1));
    float gx = (float)i + u1 - 0.5f, gz = (float)k + u2 - 0.5f; /* corner units */
    int i0 = (int)floor(gx), k0 = (int)floor(gz);
    float fx = gx - (float)i0, fz = gz - (float)k0;
    float v00[3], v10[3], v01[3], v11[3];
    lq_columns_corner_velocity(d, hd, qx, qz, i0, k0, nx, nz, inv_fa, v00);
    lq_columns_corner_velocity(d, hd, qx, qz, i0 + 1, k0, nx, nz, inv_fa, v10);
    lq_columns_corner_velocity(d, hd, qx, qz, i0, k0 + 1, nx, nz, inv_fa, v01);
    lq_columns_corner_velocity(d, hd, qx, qz, i0 + 1, k0 + 1, nx, nz, inv_fa, v11);
    float w00 = (1.0f - fx) * (1.0f - fz), w10 = fx * (1.0f - fz), w01 = (1.0f - fx) * fz,
          w11 = fx * fz;
    float h = w00 * lq_columns_corner_height(b, d, i0, k0, nx, nz) +
              w10 * lq_columns_corner_height(b, d, i0 + 1, k0, nx, nz) +
              w01 * lq_columns_corner_height(b, d, i0, k0 + 1, nx, nz) +
              w11 * lq_columns_corner_height(b, d, i0 + 1, k0 + 1, nx, nz);
    p[0] = ox + gx * dx;
    p[1] = h;
    p[2] = oz + gz * dx;
    for (int a = 0; a < 3; a++)
        p[3 + a] = w00 * v00[a] + w10 * v10[a] + w01 * v01[a] + w11 * v11[a];
    p[6] = volume;
    p[7] = 1.0f;
}

/* Volume the column loses to the particles its four corners emitted (cnt per corner). */
LQ_INLINE void lq_columns_take_cell(LQ_GLOBAL float *d, const LQ_GLOBAL int *cnt, int i, int k,
                                    int nx, float quarter_depth)
{
    int r = nx + 1;
    int n = cnt[i + r * k] + cnt[i + 1 + r * k] + cnt[i + r * (k + 1)] + cnt[i + 1 + r * (k + 1)];
    if (n > 0) {
        float dn = d[i + nx * k] - (float)n * quarter_depth;
        d[i + nx * k] = dn > 0.0f ? dn : 0.0f;
    }
}

/* --- objects (§4) -------------------------------------------------------------------- */

/* Where the vertical line at (x, z) meets object o: [*lo, *hi] in world y; 0 if it
 * misses. Body-frame coordinates along the line are q(y) = Rᵀ((x, 0, z) − c) + y Rᵀ ŷ. */
LQ_INLINE int lq_columns_object_span(const LQ_GLOBAL float *o, float x, float z, float *lo,
                                     float *hi)
{
    const LQ_GLOBAL float *R = o + LQ_COLUMNS_O_ROT;
    float px = x - o[LQ_COLUMNS_O_POS], py = -o[LQ_COLUMNS_O_POS + 1],
          pz = z - o[LQ_COLUMNS_O_POS + 2];
    float q[3], v[3];
    for (int a = 0; a < 3; a++) {
        q[a] = R[a] * px + R[3 + a] * py + R[6 + a] * pz;
        v[a] = R[3 + a];
    }
    const LQ_GLOBAL float *h = o + LQ_COLUMNS_O_HALF;
    if ((int)o[LQ_COLUMNS_O_SHAPE] == 2) { /* box: slabs */
        float t0 = -1e30f, t1 = 1e30f;
        for (int a = 0; a < 3; a++) {
            if (fabs(v[a]) < 1e-12f) {
                if (fabs(q[a]) > h[a]) return 0;
                continue;
            }
            float ta = (-h[a] - q[a]) / v[a], tb = (h[a] - q[a]) / v[a];
            float mn = ta < tb ? ta : tb, mx = ta < tb ? tb : ta;
            t0 = mn > t0 ? mn : t0;
            t1 = mx < t1 ? mx : t1;
        }
        if (!(t0 < t1)) return 0;
        *lo = t0;
        *hi = t1;
        return 1;
    }
    /* sphere, ellipsoid: Σ ((q + y v) / h)² = 1 */
    float A = 0.0f, B = 0.0f, C = -1.0f;
    for (int a = 0; a < 3; a++) {
        float ia = 1.0f / h[a];
        float va = v[a] * ia, qa = q[a] * ia;
        A += va * va;
        B += qa * va;
        C += qa * qa;
    }
    float disc = B * B - A * C;
    if (!(disc > 0.0f)) return 0;
    float sq = LQ_SQRTF(disc);
    *lo = (-B - sq) / A;
    *hi = (-B + sq) / A;
    return 1;
}

/* Object o's pressure head at (x, z) in a column (ground bc, depth dc) whose area it
 * covers a fraction f of: the water would rise `pen` into it; the contact pushes back
 * with κ · pen, at most the object's thickness there (a column it fills holds the
 * object's displacement, Archimedes). *thick: how much of the object is under water
 * there, pen plus the head (the water it holds below the level around).
 *
 * A column the object covers only partly (issue 18) holds one level for two surfaces:
 * the free water beside the object, at W = b + d + e (eq. 3: e = f · head spreads the
 * object's push over the column), and the water under it, a head lower. Its mean b + d
 * then stands (1 − f) · head above the water under the object, and the penetration is
 * counted from there: head = κ (b + d − (1 − f) head − lo), so
 *   head = κ (b + d − lo) / (1 + κ (1 − f)),
 * which is κ · pen for a covered column and the hydrostatic head W − lo as f → 0.
 * Without it a half-covered column pushed nearly twice its share: a box moved half a
 * cell floated 16 % too high. */
LQ_INLINE float lq_columns_object_head(const LQ_GLOBAL float *o, float bc, float dc, float x,
                                       float z, float f, float *thick)
{
    float lo, hi;
    *thick = 0.0f;
    if (!lq_columns_object_span(o, x, z, &lo, &hi)) return 0.0f;
    lo = lo > bc ? lo : bc;
    float t = hi - lo;
    if (!(t > 0.0f) || !(dc > 0.0f)) return 0.0f;
    float pen = bc + dc - lo;
    if (!(pen > 0.0f)) return 0.0f;
    float kappa = o[LQ_COLUMNS_O_KAPPA];
    float e = kappa * pen / (1.0f + kappa * (1.0f - f));
    e = e < t ? e : t;
    /* under water: the depth below the free level beside it */
    float sub = pen + f * e;
    *thick = sub < t ? sub : t;
    return e;
}

/* --- the contact integrated over the footprint (issue 18: sub-cell) ------------------
 *
 * The paper samples an object at the control points (eq. 10–11): a body's footprint is
 * then known to a whole cell, and a box whose edges fall on grid lines settled tilted
 * 10.7° (48², metacentric height +42 mm) because the rim's control points fell in or
 * out by rounding. Here each column integrates the head over its square's overlap with
 * the footprint: LQ_COLUMNS_SUB rows across the footprint's extent in z within the
 * column, and along each row the exact chord of the footprint (its ends found by
 * bisection between probes that hit and miss) sampled at LQ_COLUMNS_SUB midpoints, all
 * against the column's own water (b, d). For a body whose footprint is a rectangle along
 * the axes the covered area is exact wherever its edges fall; for others the rows
 * quantize z by 1/LQ_COLUMNS_SUB of the overlap and the chords are exact. */
#define LQ_COLUMNS_SUB    4  /* rows per column, and samples per chord */
#define LQ_COLUMNS_BISECT 14 /* bisection steps per chord end: 2^-14 of the probe spacing */

/* Half extent of object o along world axis a (0: x, 2: z): the support function, as
 * lq_body_extent. */
LQ_INLINE float lq_columns_object_extent(const LQ_GLOBAL float *o, int a)
{
    const LQ_GLOBAL float *R = o + LQ_COLUMNS_O_ROT;
    const LQ_GLOBAL float *h = o + LQ_COLUMNS_O_HALF;
    int box = (int)o[LQ_COLUMNS_O_SHAPE] == 2;
    float s = 0.0f;
    for (int j = 0; j < 3; j++) {
        float e = R[3 * a + j] * h[j];
        s += box ? (e < 0.0f ? -e : e) : e * e;
    }
    return box ? s : LQ_SQRTF(s);
}

LQ_INLINE int lq_columns_hits(const LQ_GLOBAL float *o, float x, float z)
{
    float lo, hi;
    return lq_columns_object_span(o, x, z, &lo, &hi);
}

/* The contact of object o over column (i, k), whose ground and depth are bc, dc, as
 * fractions of the column's area: out[0] = ∫ head, out[1] = ∫ head · (x − cx), out[2] =
 * ∫ head · (z − cz), out[3] = ∫ submerged thickness (lq_columns_object_head), out[4] =
 * the area of the footprint over it; all per unit area (× dx² for volumes). The chords
 * come first (their lengths give the covered fraction f), then the heads along them. */
LQ_INLINE void lq_columns_column_contact(const LQ_GLOBAL float *o, float bc, float dc, int i, int k,
                                         float dx, float ox, float oz, float out[5])
{
    float cx = o[LQ_COLUMNS_O_POS], cz = o[LQ_COLUMNS_O_POS + 2];
    float ex = lq_columns_object_extent(o, 0), ez = lq_columns_object_extent(o, 2);
    float x0 = ox + (float)i * dx, z0 = oz + (float)k * dx;
    float xa = x0 > cx - ex ? x0 : cx - ex, xb = x0 + dx < cx + ex ? x0 + dx : cx + ex;
    float za = z0 > cz - ez ? z0 : cz - ez, zb = z0 + dx < cz + ez ? z0 + dx : cz + ez;
    for (int q = 0; q < 5; q++) out[q] = 0.0f;
    if (!(xa < xb) || !(za < zb)) return;
    float rowh = (zb - za) / (float)LQ_COLUMNS_SUB, inv_area = 1.0f / (dx * dx);
    float pw = (xb - xa) / (float)(LQ_COLUMNS_SUB + 1);
    float c0[LQ_COLUMNS_SUB], c1[LQ_COLUMNS_SUB], f = 0.0f;
    for (int r = 0; r < LQ_COLUMNS_SUB; r++) {
        float z = za + ((float)r + 0.5f) * rowh;
        c0[r] = c1[r] = 0.0f;
        /* probes at both ends and LQ_COLUMNS_SUB between: the first and last that hit */
        int first = -1, last = -1;
        for (int p = 0; p <= LQ_COLUMNS_SUB + 1; p++)
            if (lq_columns_hits(o, xa + (float)p * pw, z)) {
                first = first < 0 ? p : first;
                last = p;
            }
        if (first < 0) continue;
        float s0 = xa + (float)first * pw, s1 = xa + (float)last * pw;
        if (first > 0) { /* the chord starts between probes first − 1 and first */
            float m0 = s0 - pw, h0 = s0;
            for (int it = 0; it < LQ_COLUMNS_BISECT; it++) {
                float m = 0.5f * (m0 + h0);
                if (lq_columns_hits(o, m, z))
                    h0 = m;
                else
                    m0 = m;
            }
            s0 = 0.5f * (m0 + h0);
        }
        if (last < LQ_COLUMNS_SUB + 1) { /* and ends between last and last + 1 */
            float h1 = s1, m1 = s1 + pw;
            for (int it = 0; it < LQ_COLUMNS_BISECT; it++) {
                float m = 0.5f * (h1 + m1);
                if (lq_columns_hits(o, m, z))
                    h1 = m;
                else
                    m1 = m;
            }
            s1 = 0.5f * (h1 + m1);
        }
        if (!(s1 > s0)) continue;
        c0[r] = s0;
        c1[r] = s1;
        f += rowh * (s1 - s0) * inv_area;
    }
    out[4] = f;
    for (int r = 0; r < LQ_COLUMNS_SUB; r++) {
        float len = c1[r] - c0[r];
        if (!(len > 0.0f)) continue;
        float z = za + ((float)r + 0.5f) * rowh;
        float w = rowh * len / (float)LQ_COLUMNS_SUB * inv_area; /* a sample's area share */
        for (int q = 0; q < LQ_COLUMNS_SUB; q++) {
            float x = c0[r] + ((float)q + 0.5f) * (len / (float)LQ_COLUMNS_SUB), thick;
            float head = lq_columns_object_head(o, bc, dc, x, z, f, &thick);
            out[0] += w * head;
            out[1] += w * head * (x - cx);
            out[2] += w * head * (z - cz);
            out[3] += w * thick;
        }
    }
}

/* The water's velocity at the centre of column (i, k) (m/s), the mean of its two faces
 * along each axis from the axis pipes (u = Q / ((1 − s) dx D̄), a boundary pipe over
 * the column's own depth). */
LQ_INLINE void lq_columns_column_velocity(const LQ_GLOBAL float *d, const LQ_GLOBAL float *qx,
                                          const LQ_GLOBAL float *qz, int i, int k, int nx, int nz,
                                          float inv_fa, float *u, float *w)
{
    int c = i + nx * k, r = nx + 1;
    float dc = d[c];
    float dl = i > 0 ? d[c - 1] : dc, dr = i + 1 < nx ? d[c + 1] : dc;
    float dd = k > 0 ? d[c - nx] : dc, dt = k + 1 < nz ? d[c + nx] : dc;
    *u = 0.5f * (lq_columns_pipe_velocity(qx[i + r * k], dl, dc, inv_fa) +
                 lq_columns_pipe_velocity(qx[i + 1 + r * k], dc, dr, inv_fa));
    *w = 0.5f * (lq_columns_pipe_velocity(qz[i + nx * k], dd, dc, inv_fa) +
                 lq_columns_pipe_velocity(qz[i + nx * (k + 1)], dc, dt, inv_fa));
}

/* Bilinear sample of the columns' surface W = b + d + e and velocity at world (x, z):
 * out = {W, u, w}; returns 0 if any of the four columns is dry (a shore's ground is no
 * water surface). */
LQ_INLINE int lq_columns_sample_water(const LQ_GLOBAL float *b, const LQ_GLOBAL float *d,
                                      const LQ_GLOBAL float *e, const LQ_GLOBAL float *qx,
                                      const LQ_GLOBAL float *qz, float x, float z, int nx, int nz,
                                      float dx, float ox, float oz, float inv_fa, float out[3])
{
    float fx = (x - ox) / dx - 0.5f, fz = (z - oz) / dx - 0.5f;
    float mx = (float)(nx - 1), mz = (float)(nz - 1);
    fx = fx < 0.0f ? 0.0f : (fx > mx ? mx : fx);
    fz = fz < 0.0f ? 0.0f : (fz > mz ? mz : fz);
    int i0 = (int)fx, k0 = (int)fz;
    int i1 = i0 + 1 < nx ? i0 + 1 : i0, k1 = k0 + 1 < nz ? k0 + 1 : k0;
    float tx = fx - (float)i0, tz = fz - (float)k0;
    int cs[4] = {i0 + nx * k0, i1 + nx * k0, i0 + nx * k1, i1 + nx * k1};
    int is[4] = {i0, i1, i0, i1}, ks[4] = {k0, k0, k1, k1};
    float ws[4] = {(1.0f - tx) * (1.0f - tz), tx * (1.0f - tz), (1.0f - tx) * tz, tx * tz};
    int wet = 1;
    out[0] = out[1] = out[2] = 0.0f;
    for (int q = 0; q < 4; q++) {
        int c = cs[q];
        float u, w;
        wet = wet && d[c] > 1e-6f;
        lq_columns_column_velocity(d, qx, qz, is[q], ks[q], nx, nz, inv_fa, &u, &w);
        out[0] += ws[q] * (b[c] + d[c] + e[c]);
        out[1] += ws[q] * u;
        out[2] += ws[q] * w;
    }
    return wet;
}

/* mode 3, one work-item per object (issue 18): the water around object n, sampled at
 * (±L, 0) and (0, ±L) from its centre, L = LQ_COLUMNS_O_RING beyond its bounding sphere,
 * into its acc slots: the surface's slope across it by central differences and the
 * mean velocity of the four samples. Not the water under it: the contact's stiff
 * spring rings there from step to step (the head's gradient swung ±0.5 under a floating
 * ball while the wave's slope was 0.03), and a ring sampled column by column is lopsided
 * whenever its radius meets column centres (the ball's own ripples then read as a slope
 * and drove it off). The four symmetric samples cancel any ripple round the body. */
LQ_INLINE void lq_columns_around_object(LQ_GLOBAL lq_long *acc, const LQ_GLOBAL float *obj, int n,
                                        const LQ_GLOBAL float *b, const LQ_GLOBAL float *d,
                                        const LQ_GLOBAL float *e, const LQ_GLOBAL float *qx,
                                        const LQ_GLOBAL float *qz, int nx, int nz, float dx,
                                        float ox, float oz, float inv_fa)
{
    const LQ_GLOBAL float *o = obj + n * LQ_COLUMNS_OBJ_STRIDE;
    LQ_GLOBAL lq_long *a = acc + LQ_COLUMNS_ACC_OBJ + n * LQ_COLUMNS_OBJ_ACC;
    float L = o[LQ_COLUMNS_O_RING], cx = o[LQ_COLUMNS_O_POS], cz = o[LQ_COLUMNS_O_POS + 2];
    float s[4][3];
    int wet =
        lq_columns_sample_water(b, d, e, qx, qz, cx - L, cz, nx, nz, dx, ox, oz, inv_fa, s[0]);
    wet = lq_columns_sample_water(b, d, e, qx, qz, cx + L, cz, nx, nz, dx, ox, oz, inv_fa, s[1]) &&
          wet;
    wet = lq_columns_sample_water(b, d, e, qx, qz, cx, cz - L, nx, nz, dx, ox, oz, inv_fa, s[2]) &&
          wet;
    wet = lq_columns_sample_water(b, d, e, qx, qz, cx, cz + L, nx, nz, dx, ox, oz, inv_fa, s[3]) &&
          wet;
    if (!wet) return;
    float inv2L = 0.5f / L, f = LQ_COLUMNS_FSCALE;
    a[LQ_COLUMNS_OA_SX] = lq_columns_fixed_signed((s[1][0] - s[0][0]) * inv2L * f);
    a[LQ_COLUMNS_OA_SZ] = lq_columns_fixed_signed((s[3][0] - s[2][0]) * inv2L * f);
    a[LQ_COLUMNS_OA_U] =
        lq_columns_fixed_signed(0.25f * ((s[0][1] + s[1][1]) + (s[2][1] + s[3][1])) * f);
    a[LQ_COLUMNS_OA_V] =
        lq_columns_fixed_signed(0.25f * ((s[0][2] + s[1][2]) + (s[2][2] + s[3][2])) * f);
    a[LQ_COLUMNS_OA_WET] = (lq_long)LQ_COLUMNS_FSCALE;
}

/* mode 0, per column (i, k): each object's head integrated over the column
 * (lq_columns_column_contact), its moments about the object's centre, the submerged
 * thickness and the surface under it, into acc (§4: the force on the object, f_o =
 * −f_e, is ρ g dx dz times the summed head). */
LQ_INLINE void lq_columns_contact_cell(LQ_GLOBAL lq_long *acc, const LQ_GLOBAL float *obj, int nobj,
                                       const LQ_GLOBAL float *b, const LQ_GLOBAL float *d, int i,
                                       int k, int nx, int nz, float dx, float ox, float oz)
{
    if (i < 0 || i >= nx || k < 0 || k >= nz) return;
    int c = i + nx * k;
    float bc = b[c], dc = d[c];
    for (int n = 0; n < nobj; n++) {
        const LQ_GLOBAL float *o = obj + n * LQ_COLUMNS_OBJ_STRIDE;
        float v[5];
        lq_columns_column_contact(o, bc, dc, i, k, dx, ox, oz, v);
        LQ_GLOBAL lq_long *a = acc + LQ_COLUMNS_ACC_OBJ + n * LQ_COLUMNS_OBJ_ACC;
        if (v[0] > 0.0f) {
            LQ_ATOMIC_ADD_LONG(&a[LQ_COLUMNS_OA_HEAD], LQ_FIXED(v[0] * LQ_COLUMNS_FSCALE));
            LQ_ATOMIC_ADD_LONG(&a[LQ_COLUMNS_OA_TX],
                               lq_columns_fixed_signed(v[2] * LQ_COLUMNS_FSCALE));
            LQ_ATOMIC_ADD_LONG(&a[LQ_COLUMNS_OA_TZ],
                               lq_columns_fixed_signed(v[1] * LQ_COLUMNS_FSCALE));
        }
        if (v[3] > 0.0f)
            LQ_ATOMIC_ADD_LONG(&a[LQ_COLUMNS_OA_SUB], LQ_FIXED(v[3] * LQ_COLUMNS_FSCALE));
        if (v[4] > 0.0f && dc > 0.0f) {
            LQ_ATOMIC_ADD_LONG(&a[LQ_COLUMNS_OA_ZSUM],
                               lq_columns_fixed_signed((bc + dc) * LQ_COLUMNS_FSCALE));
            LQ_ATOMIC_ADD_LONG(&a[LQ_COLUMNS_OA_COUNT], (lq_long)LQ_COLUMNS_FSCALE);
        }
    }
}

/* mode 1, per column (i, k): eq. 11's external pressure, the objects' heads over it
 * (each bounded by its share of eq. 17): e = Σ over objects of factor · ∫ head. */
LQ_INLINE void lq_columns_pressure_cell(LQ_GLOBAL float *e, const LQ_GLOBAL float *obj, int nobj,
                                        const LQ_GLOBAL float *b, const LQ_GLOBAL float *d, int i,
                                        int k, int nx, int nz, float dx, float ox, float oz)
{
    (void)nz;
    int c = i + nx * k;
    float sum = 0.0f;
    for (int n = 0; n < nobj; n++) {
        const LQ_GLOBAL float *o = obj + n * LQ_COLUMNS_OBJ_STRIDE;
        float v[5];
        lq_columns_column_contact(o, b[c], d[c], i, k, dx, ox, oz, v);
        sum += o[LQ_COLUMNS_O_FACTOR] * v[0];
    }
    e[c] = sum;
}

/* The submerged thickness of object o integrated over column (i, k) (m, per unit area);
 * 0 off the grid. */
LQ_INLINE float lq_columns_column_thick(const LQ_GLOBAL float *o, const LQ_GLOBAL float *b,
                                        const LQ_GLOBAL float *d, int i, int k, int nx, int nz,
                                        float dx, float ox, float oz)
{
    if (i < 0 || i >= nx || k < 0 || k >= nz) return 0.0f;
    float v[5];
    lq_columns_column_contact(o, b[i + nx * k], d[i + nx * k], i, k, dx, ox, oz, v);
    return v[3];
}

/* mode 2, per corner (i, k): the reaction of the horizontal forces on the bodies, added
 * to the interior axis pipes the corner owns (qx from column (i−1, k) to (i, k), qz from
 * (i, k−1) to (i, k)). Each column's share of a body's force, in proportion to its
 * submerged thickness t, goes half to each of its two faces along the axis (all of it to
 * the inner face of a column on the grid's edge, whose outer face is a wall): a pipe
 * gains its columns' shares of t · push, push = −F Δt / (ρ Δx Σ t) (LQ_COLUMNS_O_PUSHX,
 * _PUSHZ), so the water's momentum ρ Δx Σ Q changes by exactly −F Δt. Pipes are written
 * by their owner only: no atomics. */
LQ_INLINE void lq_columns_push_corner(LQ_GLOBAL float *qx, LQ_GLOBAL float *qz,
                                      const LQ_GLOBAL float *obj, int nobj,
                                      const LQ_GLOBAL float *b, const LQ_GLOBAL float *d, int i,
                                      int k, int nx, int nz, float dx, float ox, float oz)
{
    if (k < nz && i >= 1 && i <= nx - 1) { /* its x-pipe: columns (i − 1, k) and (i, k) */
        float sa = i - 1 == 0 ? 1.0f : 0.5f, sb = i == nx - 1 ? 1.0f : 0.5f, add = 0.0f;
        for (int n = 0; n < nobj; n++) {
            const LQ_GLOBAL float *o = obj + n * LQ_COLUMNS_OBJ_STRIDE;
            float t = sa * lq_columns_column_thick(o, b, d, i - 1, k, nx, nz, dx, ox, oz) +
                      sb * lq_columns_column_thick(o, b, d, i, k, nx, nz, dx, ox, oz);
            add += o[LQ_COLUMNS_O_PUSHX] * t;
        }
        qx[i + (nx + 1) * k] += add;
    }
    if (i < nx && k >= 1 && k <= nz - 1) { /* its z-pipe: columns (i, k − 1) and (i, k) */
        float sa = k - 1 == 0 ? 1.0f : 0.5f, sb = k == nz - 1 ? 1.0f : 0.5f, add = 0.0f;
        for (int n = 0; n < nobj; n++) {
            const LQ_GLOBAL float *o = obj + n * LQ_COLUMNS_OBJ_STRIDE;
            float t = sa * lq_columns_column_thick(o, b, d, i, k - 1, nx, nz, dx, ox, oz) +
                      sb * lq_columns_column_thick(o, b, d, i, k, nx, nz, dx, ox, oz);
            add += o[LQ_COLUMNS_O_PUSHZ] * t;
        }
        qz[i + nx * k] += add;
    }
}

/* Is world point (x, y, z) inside object o? */
LQ_INLINE int lq_columns_object_inside(const LQ_GLOBAL float *o, float x, float y, float z)
{
    const LQ_GLOBAL float *R = o + LQ_COLUMNS_O_ROT;
    const LQ_GLOBAL float *h = o + LQ_COLUMNS_O_HALF;
    float px = x - o[LQ_COLUMNS_O_POS], py = y - o[LQ_COLUMNS_O_POS + 1],
          pz = z - o[LQ_COLUMNS_O_POS + 2];
    float s = 0.0f;
    int box = (int)o[LQ_COLUMNS_O_SHAPE] == 2, in = 1;
    for (int a = 0; a < 3; a++) {
        float q = (R[a] * px + R[3 + a] * py + R[6 + a] * pz) / h[a];
        s += q * q;
        in = in && fabs(q) <= 1.0f;
    }
    return box ? in : s <= 1.0f;
}

/* --- spray particles (§3.3) ------------------------------------------------------------ */

/* Ballistic flight under gravity (exact for constant acceleration when drag_keep = 1),
 * then: back into the column it falls into when it reaches that column's water surface;
 * destroyed on dry ground, inside an object or off the grid (volume counted lost). */
LQ_INLINE void lq_columns_particle_step(LQ_GLOBAL float *p, const LQ_GLOBAL float *b,
                                        const LQ_GLOBAL float *d, LQ_GLOBAL lq_long *ret,
                                        LQ_GLOBAL lq_long *acc, const LQ_GLOBAL float *obj,
                                        int nobj, int nx, int nz, float dx, float ox, float oz,
                                        float dt, float gx, float gy, float gz, float drag_keep,
                                        float dry)
{
    if (p[7] == 0.0f) return;
    float hdt = 0.5f * dt;
    float vx = p[3] * drag_keep + gx * dt, vy = p[4] * drag_keep + gy * dt,
          vz = p[5] * drag_keep + gz * dt;
    float x = p[0] + (p[3] + vx) * hdt, y = p[1] + (p[4] + vy) * hdt, z = p[2] + (p[5] + vz) * hdt;
    p[0] = x;
    p[1] = y;
    p[2] = z;
    p[3] = vx;
    p[4] = vy;
    p[5] = vz;
    lq_long vol = LQ_FIXED(p[6] * LQ_COLUMNS_VSCALE);
    float fi = (x - ox) / dx, fk = (z - oz) / dx;
    if (!(fi >= 0.0f && fi < (float)nx && fk >= 0.0f && fk < (float)nz)) {
        p[7] = 0.0f;
        LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_LOST], vol);
        return;
    }
    int c = (int)fi + nx * (int)fk;
    for (int n = 0; n < nobj; n++)
        if (lq_columns_object_inside(obj + n * LQ_COLUMNS_OBJ_STRIDE, x, y, z)) {
            p[7] = 0.0f;
            LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_LOST], vol);
            return;
        }
    if (y > b[c] + d[c]) return;
    p[7] = 0.0f;
    if (d[c] > dry) {
        LQ_ATOMIC_ADD_LONG(&ret[c], vol);
        LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_ABSORBED], vol);
    } else {
        LQ_ATOMIC_ADD_LONG(&acc[LQ_COLUMNS_ACC_LOST], vol);
    }
}

#endif
