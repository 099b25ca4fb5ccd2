/*
 * plsparticles_cell.h — per-particle and per-cell math of the particle level set
 * (Enright, Fedkiw, Ferziger & Mitchell 2002, as used by Rasmussen et al. 2004 §3 and
 * §5.5.3), shared by the OpenCL kernels (kernels/pls/plsparticles.cl) and their reference
 * twins (host/ops/pls/plsparticles_ref.c). Grid: the `pls` convention (docs in
 * host/ops/pls/plsparticles.h): uniform cells of size h, φ at cell centres ((i+½) h, (j+½) h, (k+½)
 * h), positions in metres in [0, nx h] × [0, ny h] × [0, nz h]; velocity sampling: markers_cell.h.
 *
 * Particles: LQ_PLSPARTICLES_STRIDE = 4 floats (16 bytes) each: position (3) and the signed radius
 * s r (s = −1 liquid, +1 air; r ≥ r_min > 0, so the sign is the particle's side; 0: dead,
 * removed by the next compaction). Between its emission and its attraction (one seeding
 * call) a new particle holds its signed goal s |φ_goal| there instead (|φ_goal| ≥ r_min),
 * so no field is kept for it.
 *
 * Seeding (Enright §3.1). A band cell (|φ_c| < band) with fewer than `per_cell` live
 * particles gets the missing ones at hash-uniform positions in the cell; s = sign φ(x)
 * (φ ≤ 0 liquid), φ_goal = s (r_min + ξ (band − r_min)). Attraction: up to `iters` tries
 * of x' = x + λ (φ_goal − φ(x)) N(x), N = ∇φ/|∇φ| (central differences of the trilinear
 * φ at ± h); a try landing with s φ(x') in [r_min, band] is accepted and ends the loop,
 * otherwise λ is halved (λ starts at 1). Then r = clamp(s φ(x), r_min, r_max).
 *
 * Advection: midpoint RK2 through the staggered u, v, w (lq_markers_velocity), each stage
 * clamped to the domain (a particle in a uniform flow moves by exactly δt u).
 *
 * Error correction (Enright §3.3). A particle is escaped when s φ(x_p) < −r_p (on the
 * wrong side by more than its radius). Each escaped particle defines the sphere
 * φ_p(x) = s_p (r_p − |x − x_p|) and, at the ≤ 8 cell centres of the trilinear stencil
 * around x_p, φ+ = max(φ+, φ_p) (s_p = +1) or φ− = min(φ−, φ_p) (s_p = −1), with
 * φ+ = φ− = φ to start; then φ = φ+ if |φ+| ≤ |φ−| else φ−. The max and min are integer
 * atomics on an order-preserving encoding of the floats (lq_plsparticles_key): order-free, so the
 * kernel and the serial twin agree bit for bit.
 *
 * Radii (Enright §3.3): r = clamp(s φ(x), r_min, r_max) for every live particle.
 *
 * Deletion (a compaction keeping the order): a particle is dropped when dead, when
 * s φ(x) > far (far outside the band on its own side), when s φ(x) < −deep (deep on the
 * wrong side, Enright's 1.5 r_max), or when the optional solid sdf (cell centres,
 * negative inside) is < 0 at x (Rasmussen §5.5.3: particles inside objects), and, when
 * asked (escape fractions f > 0, one per side), when it is still escaped by more than f
 * of its own radius, s φ(x) < −f r: after both corrections such a particle marks a
 * feature φ cannot hold. Kept, an air particle inside the liquid (air the solver does not
 * model: a bubble has p = 0 and no air to hold it open) carved its sphere out of the
 * liquid at every correction, and a liquid one in the air added its sphere.
 *
 * Determinism: random numbers are an integer hash of (seed, step, stream, cell, index);
 * per-cell counts are integer atomics, block sums and an exclusive scan put every new or
 * kept particle in the same slot on both backends. Contraction is off; sqrt and divide
 * are correctly rounded on PoCL (-cl-fp32-correctly-rounded-divide-sqrt), so the twins
 * are bit for bit.
 */
#ifndef LQ_PLSPARTICLES_CELL_H
#define LQ_PLSPARTICLES_CELL_H

#include "common/hash.h"
#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "common/scan_cell.h"
#include "mac/markers_cell.h"

/* Particle layout. */
#define LQ_PLSPARTICLES_STRIDE 4
#define LQ_PLSPARTICLES_X      0 /* position, 3 (m) */
#define LQ_PLSPARTICLES_R      3 /* signed radius s r (m): s = −1 liquid, +1 air; 0 dead */

/* Counters (int). */
#define LQ_PLSPARTICLES_CNT_LIVE      0 /* the live count: held here, the launches read it */
#define LQ_PLSPARTICLES_CNT_DROPPED   1 /* not written: buffer full (since the host last read) */
#define LQ_PLSPARTICLES_CNT_ADDED     2 /* written by the last seeding */
#define LQ_PLSPARTICLES_CNT_ESCAPED   3 /* escaped particles seen by the last correction */
#define LQ_PLSPARTICLES_CNT_ESC_TALLY 4 /* escaped particles of the tallied corrections */
#define LQ_PLSPARTICLES_CNT_COUNT     8 /* (a power of two: one fill resets them) */

/* Coefficients (float), computed on the host in double and rounded once. */
#define LQ_PLSPARTICLES_C_IH       0 /* 1/h */
#define LQ_PLSPARTICLES_C_H        1
#define LQ_PLSPARTICLES_C_L        2 /* domain size, 3 */
#define LQ_PLSPARTICLES_C_DT       5
#define LQ_PLSPARTICLES_C_BAND     6
#define LQ_PLSPARTICLES_C_RMIN     7
#define LQ_PLSPARTICLES_C_RMAX     8
#define LQ_PLSPARTICLES_C_FAR      9
#define LQ_PLSPARTICLES_C_DEEP     10
#define LQ_PLSPARTICLES_C_ITERS    11
#define LQ_PLSPARTICLES_C_PER_CELL 12
#define LQ_PLSPARTICLES_C_HAS_SDF  13
#define LQ_PLSPARTICLES_C_ESC_AIR  14 /* escape deletion, in radii (0: off), air particles */
#define LQ_PLSPARTICLES_C_ESC_LIQ  15 /* and liquid ones */
#define LQ_PLSPARTICLES_C_COUNT    16

#define LQ_PLSPARTICLES_BLOCK        LQ_SCAN_BLOCK /* cells or particles per block (scan_cell.h) */
#define LQ_PLSPARTICLES_MAX_PER_CELL 256

/* Random streams. */
#define LQ_PLSPARTICLES_S_POS  1u
#define LQ_PLSPARTICLES_S_GOAL 2u

#ifdef __OPENCL_VERSION__
#define LQ_PLSPARTICLES_ATOMIC_MAX_INT(p, v) atomic_max((p), (v))
#define LQ_PLSPARTICLES_FLOAT_OF(b)          as_float(b)
#else
static inline int lq_plsparticles_atomic_max_int(int *p, int v)
{
    int old = *p;
    if (v > old) *p = v;
    return old;
}
static inline float lq_plsparticles_float_of(lq_uint b)
{
    union {
        float f;
        lq_uint u;
    } c;
    c.u = b;
    return c.f;
}
#define LQ_PLSPARTICLES_ATOMIC_MAX_INT(p, v) lq_plsparticles_atomic_max_int((p), (v))
#define LQ_PLSPARTICLES_FLOAT_OF(b)          lq_plsparticles_float_of(b)
#endif

/* Order-preserving signed-int key of a float (not NaN): a < b ⇔ key(a) < key(b), with
 * −0 just below +0. Its own inverse on the bits. */
LQ_INLINE int lq_plsparticles_key(float f)
{
    int i = (int)LQ_FLOAT_BITS(f);
    return i >= 0 ? i : i ^ 0x7fffffff;
}
LQ_INLINE float lq_plsparticles_unkey(int k)
{
    int i = k >= 0 ? k : k ^ 0x7fffffff;
    return LQ_PLSPARTICLES_FLOAT_OF((lq_uint)i);
}

LQ_INLINE float lq_plsparticles_absf(float x)
{
    return x < 0.0f ? -x : x;
}

/* The side s of particle a: −1 liquid, +1 air, 0 dead (the sign of its signed radius). */
LQ_INLINE float lq_plsparticles_side(const LQ_GLOBAL float *a)
{
    float sr = a[LQ_PLSPARTICLES_R];
    return sr < 0.0f ? -1.0f : sr > 0.0f ? 1.0f : 0.0f;
}

LQ_INLINE lq_markers_vec3 lq_plsparticles_pos(const LQ_GLOBAL float *a)
{
    lq_markers_vec3 p;
    p.x = a[LQ_PLSPARTICLES_X];
    p.y = a[LQ_PLSPARTICLES_X + 1];
    p.z = a[LQ_PLSPARTICLES_X + 2];
    return p;
}

/* Trilinear sample of a cell-centred field (φ, sdf) at p (m). */
LQ_INLINE float lq_plsparticles_sample(const LQ_GLOBAL float *q, lq_markers_vec3 p, int nx, int ny,
                                       int nz, float ih)
{
    return lq_markers_lattice(q, nx, ny, nz, p.x * ih - 0.5f, p.y * ih - 0.5f, p.z * ih - 0.5f);
}

/* N = ∇φ/|∇φ| at p: central differences of the trilinear φ at p ± h per axis (z only in
 * 3D); 0 where the gradient vanishes. */
LQ_INLINE lq_markers_vec3 lq_plsparticles_normal(const LQ_GLOBAL float *phi, lq_markers_vec3 p,
                                                 int nx, int ny, int nz, float ih, float h)
{
    lq_markers_vec3 a = p, b = p, g;
    a.x = p.x + h;
    b.x = p.x - h;
    g.x = lq_plsparticles_sample(phi, a, nx, ny, nz, ih) -
          lq_plsparticles_sample(phi, b, nx, ny, nz, ih);
    a = p;
    b = p;
    a.y = p.y + h;
    b.y = p.y - h;
    g.y = lq_plsparticles_sample(phi, a, nx, ny, nz, ih) -
          lq_plsparticles_sample(phi, b, nx, ny, nz, ih);
    g.z = 0.0f;
    if (nz > 1) {
        a = p;
        b = p;
        a.z = p.z + h;
        b.z = p.z - h;
        g.z = lq_plsparticles_sample(phi, a, nx, ny, nz, ih) -
              lq_plsparticles_sample(phi, b, nx, ny, nz, ih);
    }
    float len2 = g.x * g.x + g.y * g.y + g.z * g.z;
    lq_markers_vec3 n = {0.0f, 0.0f, 0.0f};
    if (len2 > 0.0f) {
        float len = LQ_SQRTF(len2);
        n.x = g.x / len;
        n.y = g.y / len;
        n.z = g.z / len;
    }
    return n;
}

LQ_INLINE float lq_plsparticles_clamp_radius(float sphi, const LQ_GLOBAL float *c)
{
    return lq_markers_clampf(sphi, c[LQ_PLSPARTICLES_C_RMIN], c[LQ_PLSPARTICLES_C_RMAX]);
}

/* --- advection ------------------------------------------------------------------------ */

LQ_INLINE void lq_plsparticles_advect_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *u,
                                          const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                          const LQ_GLOBAL float *c, int nx, int ny, int nz)
{
    if (a[LQ_PLSPARTICLES_R] == 0.0f) return;
    float ih = c[LQ_PLSPARTICLES_C_IH], lx = c[LQ_PLSPARTICLES_C_L],
          ly = c[LQ_PLSPARTICLES_C_L + 1], lz = c[LQ_PLSPARTICLES_C_L + 2],
          dt = c[LQ_PLSPARTICLES_C_DT];
    lq_markers_vec3 zero = {0.0f, 0.0f, 0.0f};
    lq_markers_vec3 p0 = lq_markers_step(lq_plsparticles_pos(a), zero, 0.0f, lx, ly, lz);
    lq_markers_vec3 v0 = lq_markers_velocity(u, v, w, p0, nx, ny, nz, ih, ih, ih);
    lq_markers_vec3 pm = lq_markers_step(p0, v0, 0.5f * dt, lx, ly, lz);
    lq_markers_vec3 vm = lq_markers_velocity(u, v, w, pm, nx, ny, nz, ih, ih, ih);
    lq_markers_vec3 p1 = lq_markers_step(p0, vm, dt, lx, ly, lz);
    a[LQ_PLSPARTICLES_X] = p1.x;
    a[LQ_PLSPARTICLES_X + 1] = p1.y;
    a[LQ_PLSPARTICLES_X + 2] = p1.z;
}

/* --- error correction ----------------------------------------------------------------- */

LQ_INLINE void lq_plsparticles_correct_init_cell(const LQ_GLOBAL float *phi, LQ_GLOBAL int *kp,
                                                 LQ_GLOBAL int *km, int q)
{
    int k = lq_plsparticles_key(phi[q]);
    kp[q] = k;
    km[q] = k;
}

/* First node of the 2-node stencil along an axis of m cells for the centred coordinate g
 * (g = x/h − ½), and how many nodes (1 when m = 1). */
LQ_INLINE int lq_plsparticles_stencil(float g, int m, int *cnt)
{
    *cnt = m > 1 ? 2 : 1;
    float gc = lq_markers_clampf(g, 0.0f, (float)(m - 1));
    int i = (int)gc;
    if (i > m - 2) i = m - 2;
    if (i < 0) i = 0;
    return i;
}

/* Particle a: when escaped, its sphere into the 8 (2D: 4) cell centres around it.
 * Returns 1 when escaped. */
LQ_INLINE int lq_plsparticles_splat_one(const LQ_GLOBAL float *a, const LQ_GLOBAL float *phi,
                                        LQ_GLOBAL LQ_VOLATILE int *kp,
                                        LQ_GLOBAL LQ_VOLATILE int *km, const LQ_GLOBAL float *c,
                                        int nx, int ny, int nz)
{
    float s = lq_plsparticles_side(a), r = lq_plsparticles_absf(a[LQ_PLSPARTICLES_R]),
          ih = c[LQ_PLSPARTICLES_C_IH], h = c[LQ_PLSPARTICLES_C_H];
    if (s == 0.0f) return 0;
    lq_markers_vec3 p = lq_plsparticles_pos(a);
    float f = lq_plsparticles_sample(phi, p, nx, ny, nz, ih);
    if (!(s * f < -r)) return 0;
    int ci, cj, ck;
    int i0 = lq_plsparticles_stencil(p.x * ih - 0.5f, nx, &ci);
    int j0 = lq_plsparticles_stencil(p.y * ih - 0.5f, ny, &cj);
    int k0 = lq_plsparticles_stencil(p.z * ih - 0.5f, nz, &ck);
    for (int dk = 0; dk < ck; dk++)
        for (int dj = 0; dj < cj; dj++)
            for (int di = 0; di < ci; di++) {
                int i = i0 + di, j = j0 + dj, k = k0 + dk;
                float ex = ((float)i + 0.5f) * h - p.x;
                float ey = ((float)j + 0.5f) * h - p.y;
                float ez = nz > 1 ? ((float)k + 0.5f) * h - p.z : 0.0f;
                float d = LQ_SQRTF(ex * ex + ey * ey + ez * ez);
                float fp = s * (r - d);
                int q = LQ_MAC_CELL(i, j, k, nx, ny);
                if (s > 0.0f)
                    LQ_PLSPARTICLES_ATOMIC_MAX_INT(&kp[q], lq_plsparticles_key(fp));
                else
                    LQ_ATOMIC_MIN(&km[q], lq_plsparticles_key(fp));
            }
    return 1;
}

/* Enright's rule: φ+ where |φ+| ≤ |φ−|, φ− otherwise. */
LQ_INLINE void lq_plsparticles_correct_apply_cell(LQ_GLOBAL float *phi, const LQ_GLOBAL int *kp,
                                                  const LQ_GLOBAL int *km, int q)
{
    float fp = lq_plsparticles_unkey(kp[q]), fm = lq_plsparticles_unkey(km[q]);
    phi[q] = lq_plsparticles_absf(fp) <= lq_plsparticles_absf(fm) ? fp : fm;
}

/* --- radii ---------------------------------------------------------------------------- */

LQ_INLINE void lq_plsparticles_radius_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *phi,
                                          const LQ_GLOBAL float *c, int nx, int ny, int nz)
{
    float s = lq_plsparticles_side(a);
    if (s == 0.0f) return;
    float f =
        lq_plsparticles_sample(phi, lq_plsparticles_pos(a), nx, ny, nz, c[LQ_PLSPARTICLES_C_IH]);
    a[LQ_PLSPARTICLES_R] = s * lq_plsparticles_clamp_radius(s * f, c);
}

/* --- deletion (compaction) ------------------------------------------------------------ */

/* 1 when particle a survives the deletion rules. sdf is read only when c says so. */
LQ_INLINE int lq_plsparticles_keep(const LQ_GLOBAL float *a, const LQ_GLOBAL float *phi,
                                   const LQ_GLOBAL float *sdf, const LQ_GLOBAL float *c, int nx,
                                   int ny, int nz)
{
    float s = lq_plsparticles_side(a), ih = c[LQ_PLSPARTICLES_C_IH];
    if (s == 0.0f) return 0;
    lq_markers_vec3 p = lq_plsparticles_pos(a);
    float sf = s * lq_plsparticles_sample(phi, p, nx, ny, nz, ih);
    if (!(sf <= c[LQ_PLSPARTICLES_C_FAR])) return 0; /* far outside the band, or NaN */
    if (sf < -c[LQ_PLSPARTICLES_C_DEEP]) return 0;   /* deep on the wrong side */
    float esc = s > 0.0f ? c[LQ_PLSPARTICLES_C_ESC_AIR] : c[LQ_PLSPARTICLES_C_ESC_LIQ];
    if (esc > 0.0f && sf < -esc * lq_plsparticles_absf(a[LQ_PLSPARTICLES_R]))
        return 0; /* still escaped */
    if (c[LQ_PLSPARTICLES_C_HAS_SDF] != 0.0f &&
        lq_plsparticles_sample(sdf, p, nx, ny, nz, ih) < 0.0f)
        return 0;
    return 1;
}

LQ_INLINE void lq_plsparticles_copy(LQ_GLOBAL float *dst, const LQ_GLOBAL float *src)
{
    for (int q = 0; q < LQ_PLSPARTICLES_STRIDE; q++) dst[q] = src[q];
}

/* --- seeding -------------------------------------------------------------------------- */

/* Live particle a into its cell's count. */
LQ_INLINE void lq_plsparticles_count_one(LQ_GLOBAL LQ_VOLATILE int *ccnt, const LQ_GLOBAL float *a,
                                         const LQ_GLOBAL float *c, int nx, int ny, int nz)
{
    if (a[LQ_PLSPARTICLES_R] == 0.0f) return;
    float ih = c[LQ_PLSPARTICLES_C_IH];
    LQ_ATOMIC_ADD(&ccnt[lq_markers_cell_of(lq_plsparticles_pos(a), nx, ny, nz, ih, ih, ih)], 1);
}

/* How many particles band cell q needs (replaces its count). */
LQ_INLINE void lq_plsparticles_need_cell(LQ_GLOBAL int *ccnt, const LQ_GLOBAL float *phi,
                                         const LQ_GLOBAL float *sdf, const LQ_GLOBAL float *c,
                                         int q)
{
    int target = (int)c[LQ_PLSPARTICLES_C_PER_CELL], have = ccnt[q];
    int in_band = lq_plsparticles_absf(phi[q]) < c[LQ_PLSPARTICLES_C_BAND];
    if (c[LQ_PLSPARTICLES_C_HAS_SDF] != 0.0f && sdf[q] < 0.0f) in_band = 0;
    int need = in_band && have < target ? target - have : 0;
    ccnt[q] = need < LQ_PLSPARTICLES_MAX_PER_CELL ? need : LQ_PLSPARTICLES_MAX_PER_CELL;
}

/* New particle m of cell q: position, and the signed goal s |φ_goal| in the radius's place
 * (the attraction comes after and writes the signed radius). */
LQ_INLINE void lq_plsparticles_emit_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *phi,
                                        const LQ_GLOBAL float *c, int q, int m, int nx, int ny,
                                        int nz, lq_uint seed, lq_uint step)
{
    int i = q % nx, j = (q / nx) % ny, k = q / (nx * ny);
    float h = c[LQ_PLSPARTICLES_C_H];
    lq_uint b = (lq_uint)m * 4u;
    lq_markers_vec3 p;
    p.x = ((float)i + lq_hash_uniform(seed, step, LQ_PLSPARTICLES_S_POS, (lq_uint)q, b)) * h;
    p.y = ((float)j + lq_hash_uniform(seed, step, LQ_PLSPARTICLES_S_POS, (lq_uint)q, b + 1u)) * h;
    p.z =
        nz > 1
            ? ((float)k + lq_hash_uniform(seed, step, LQ_PLSPARTICLES_S_POS, (lq_uint)q, b + 2u)) *
                  h
            : 0.5f * c[LQ_PLSPARTICLES_C_L + 2];
    float f = lq_plsparticles_sample(phi, p, nx, ny, nz, c[LQ_PLSPARTICLES_C_IH]);
    float s = f <= 0.0f ? -1.0f : 1.0f, rmin = c[LQ_PLSPARTICLES_C_RMIN];
    float xi = lq_hash_uniform(seed, step, LQ_PLSPARTICLES_S_GOAL, (lq_uint)q, (lq_uint)m);
    a[LQ_PLSPARTICLES_X] = p.x;
    a[LQ_PLSPARTICLES_X + 1] = p.y;
    a[LQ_PLSPARTICLES_X + 2] = p.z;
    a[LQ_PLSPARTICLES_R] = s * (rmin + xi * (c[LQ_PLSPARTICLES_C_BAND] - rmin));
}

/* Attraction toward φ_goal (the signed goal emission left in the radius's place) along N,
 * then the signed radius. */
LQ_INLINE void lq_plsparticles_attract_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *phi,
                                           const LQ_GLOBAL float *c, int nx, int ny, int nz)
{
    float s = lq_plsparticles_side(a), g = a[LQ_PLSPARTICLES_R], ih = c[LQ_PLSPARTICLES_C_IH],
          h = c[LQ_PLSPARTICLES_C_H];
    float lo = c[LQ_PLSPARTICLES_C_RMIN], hi = c[LQ_PLSPARTICLES_C_BAND];
    float lx = c[LQ_PLSPARTICLES_C_L], ly = c[LQ_PLSPARTICLES_C_L + 1],
          lz = c[LQ_PLSPARTICLES_C_L + 2];
    if (s == 0.0f) return;
    int iters = (int)c[LQ_PLSPARTICLES_C_ITERS];
    lq_markers_vec3 p = lq_plsparticles_pos(a);
    float f = lq_plsparticles_sample(phi, p, nx, ny, nz, ih), lambda = 1.0f;
    for (int it = 0; it < iters; it++) {
        lq_markers_vec3 n = lq_plsparticles_normal(phi, p, nx, ny, nz, ih, h);
        lq_markers_vec3 t = lq_markers_step(p, n, lambda * (g - f), lx, ly, lz);
        float ft = lq_plsparticles_sample(phi, t, nx, ny, nz, ih), st = s * ft;
        if (st >= lo && st <= hi) {
            p = t;
            f = ft;
            break;
        }
        lambda = 0.5f * lambda;
    }
    a[LQ_PLSPARTICLES_X] = p.x;
    a[LQ_PLSPARTICLES_X + 1] = p.y;
    a[LQ_PLSPARTICLES_X + 2] = p.z;
    a[LQ_PLSPARTICLES_R] = s * lq_plsparticles_clamp_radius(s * f, c);
}

#endif
