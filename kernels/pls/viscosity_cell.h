/*
 * viscosity_cell.h — variable viscosity of the `pls` solver (Rasmussen et al. 2004 §5.1),
 * shared by kernels/pls/viscosity.cl and the reference twins (host/ops/pls/viscosity_ref.c).
 *
 * The viscous force of component a is F_a = Σ_d ∂_d(ν (∂_d u_a + ∂_a u_d)) (eq. 5–7 with
 * ∇·u = 0). It is split (eq. 8–16) into an explicit part E_a = Σ_d ∂_d(ν ∂_a u_d^n)
 * (the asymmetric cross terms plus one symmetric term, eq. 8–10) and an implicit part
 * A_a u_a = Σ_d ∂_d(ν ∂_d u_a) (eq. 14–16), solved per component as
 * (I − Δt A_a) u_a** = u_a* + Δt E_a (eq. 11–13).
 *
 * Discretisation (pls grid: mac_grid.h indexing, no wall layer, cell size h; face
 * (a; i, j, k) lies between the cells c − e_a and c = (i, j, k)): standard central
 * differences in flux form. The flux between face f of component a and its neighbour
 * f + s e_d (s = ±1) sits at
 *   d = a: the cell centre between them (c for s = +1, c − e_a for s = −1): ν of that cell;
 *   d ≠ a: the cell edge between them: ν = ¼((ν₁ + ν₂) + (ν₃ + ν₄)) of the four cells
 *          around the edge (linear interpolation; cells beyond the domain edge clamped to
 *          the edge cell). Summed pairwise so a constant ν is reproduced exactly.
 * Face kinds (lq_viscosity_kind): UNKNOWN (interior, liquid φ ≤ 0 on at least one side, no solid
 * side: the liquid's surface faces are solved too, else they keep u* = advected + g Δt and
 * the projection spreads that undamped fall over a viscous body), FIXED (on the domain
 * edge of its own axis: a wall, normal velocity; or touching a solid sdf ≤ 0: the stored
 * value, 0 for objects at rest), AIR (anything else: air on both sides).
 * Only UNKNOWN faces get the viscous force. Per flux of an UNKNOWN face (its "activity"):
 *   neighbour UNKNOWN: coupled; FIXED: Dirichlet (the known value goes to the right-hand
 *   side); beyond the domain edge (d ≠ a, a wall tangential to the face): no-slip = the
 *   ghost −u (flux 2ν(0 − u)/h, weight 2ν), free-slip = no flux, chosen per wall (the
 *   `noslip` bits, LQ_VISCOSITY_NOSLIP_ALL); AIR: no flux (the
 *   free-surface zero-stress condition in its simplest form: the viscous flux to air is 0).
 * The explicit flux at the same place uses the same activity (LQ_VISCOSITY_CROSS_MASKED): the
 * whole shear stress ν(∂_d u_a + ∂_a u_d) is then dropped at air together, which keeps a
 * rigid rotation (zero strain) exactly stationary (see host/ops/pls/viscosity.h).
 * LQ_VISCOSITY_CROSS_UNMASKED evaluates the explicit fluxes everywhere (air-blind, the literal
 * reading of eq. 8–10); LQ_VISCOSITY_CROSS_NONE drops them (the constant-ν shortcut).
 * The implicit matrix (I − Δt A_a) on the UNKNOWN faces is symmetric (one ν per shared
 * flux) and strictly diagonally dominant: SPD. CG (host), preconditioned by Jacobi or by
 * the multigrid V-cycle below.
 * 2D (nz = 1): d < 2 only; w is not solved.
 * Reductions: G groups of LQ_VISCOSITY_LOCAL items over [g S, min((g+1) S, n)), item l sums
 * g S + l + LQ_VISCOSITY_LOCAL t in increasing t, the group adds by a halving binary tree, the
 * host adds the group sums in order in double: the same floats in the same order on both
 * backends. (poisson.h's vector ops cannot be reused: they are compiled for the cell
 * count nx·ny·nz with a cell mask; face arrays have three different sizes.)
 */
#ifndef LQ_VISCOSITY_CELL_H
#define LQ_VISCOSITY_CELL_H

#include "common/mac_grid.h"

#define LQ_VISCOSITY_LOCAL      256 /* work-items per reduction group (fixed: twin order) */
#define LQ_VISCOSITY_GROUPS     256 /* most reduction groups */
#define LQ_VISCOSITY_MAX_BOXES  16  /* viscosity boxes of lq_viscosity_fill */
#define LQ_VISCOSITY_BOX_FLOATS 7   /* lo[3], hi[3], ν */

#define LQ_VISCOSITY_AIR     0
#define LQ_VISCOSITY_UNKNOWN 1
#define LQ_VISCOSITY_FIXED   2
#define LQ_VISCOSITY_WALL    3 /* beyond the domain edge (a neighbour class, not a kind) */

/* Walls: bit 2 d + (s > 0) of `noslip` set makes the wall beyond the domain edge along
 * s e_d no-slip (x_min, x_max, y_min, y_max, z_min, z_max: bits 0..5); clear: free-slip. */
#define LQ_VISCOSITY_NOSLIP_ALL 63

#define LQ_VISCOSITY_CROSS_MASKED   0
#define LQ_VISCOSITY_CROSS_NONE     1
#define LQ_VISCOSITY_CROSS_UNMASKED 2

/* ν at cell (i, j, k): nu0, or the last box holding the cell centre (m; 2D ignores z). */
LQ_INLINE float lq_viscosity_fill_cell(int i, int j, int k, int nz, float h, float nu0,
                                       LQ_GLOBAL const float *boxes, int nbox)
{
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    float nu = nu0;
    for (int b = 0; b < nbox; b++) {
        LQ_GLOBAL const float *B = boxes + LQ_VISCOSITY_BOX_FLOATS * b;
        int in = x >= B[0] && x <= B[3] && y >= B[1] && y <= B[4];
        if (nz > 1) in = in && z >= B[2] && z <= B[5];
        if (in) nu = B[6];
    }
    return nu;
}

LQ_INLINE int lq_viscosity_fidx(int a, int i, int j, int k, int nx, int ny)
{
    int fx = nx + (a == 0), fy = ny + (a == 1);
    return i + fx * (j + fy * k);
}

/* The kind of face (a; i, j, k) (in range). */
LQ_INLINE int lq_viscosity_kind(int a, int i, int j, int k, int nx, int ny, int nz,
                                LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf, int has_sdf)
{
    int na = a == 0 ? nx : (a == 1 ? ny : nz), ca = a == 0 ? i : (a == 1 ? j : k);
    if (ca <= 0 || ca >= na) return LQ_VISCOSITY_FIXED;
    int cm = LQ_MAC_CELL(i - (a == 0), j - (a == 1), k - (a == 2), nx, ny);
    int cp = LQ_MAC_CELL(i, j, k, nx, ny);
    if (has_sdf && (sdf[cm] <= 0.0f || sdf[cp] <= 0.0f)) return LQ_VISCOSITY_FIXED;
    if (phi[cm] <= 0.0f || phi[cp] <= 0.0f) return LQ_VISCOSITY_UNKNOWN;
    return LQ_VISCOSITY_AIR;
}

/* The class of the neighbour (a; c + s e_d) of an UNKNOWN face: its kind, or LQ_VISCOSITY_WALL
 * when it lies beyond the domain edge; *nf its index when in range. */
LQ_INLINE int lq_viscosity_nb_class(int a, int d, int s, int i, int j, int k, int nx, int ny,
                                    int nz, LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                    int has_sdf, int *nf)
{
    int ni = i + (d == 0 ? s : 0), nj = j + (d == 1 ? s : 0), nk = k + (d == 2 ? s : 0);
    int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
    *nf = 0;
    if (ni < 0 || nj < 0 || nk < 0 || ni >= fx || nj >= fy || nk >= fz) return LQ_VISCOSITY_WALL;
    *nf = lq_viscosity_fidx(a, ni, nj, nk, nx, ny);
    return lq_viscosity_kind(a, ni, nj, nk, nx, ny, nz, phi, sdf, has_sdf);
}

/* The wall beyond the domain edge along s e_d is no-slip. */
LQ_INLINE int lq_viscosity_wall_noslip(int noslip, int d, int s)
{
    return (noslip >> (2 * d + (s > 0))) & 1;
}

LQ_INLINE int lq_viscosity_clampi(int x, int lo, int hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* ν where the flux between the UNKNOWN face (a; i, j, k) and its neighbour along s e_d
 * sits (see the header comment). */
LQ_INLINE float lq_viscosity_nu_at(LQ_GLOBAL const float *nu, int a, int d, int s, int i, int j,
                                   int k, int nx, int ny, int nz)
{
    int ai = i - (a == 0), aj = j - (a == 1), ak = k - (a == 2); /* the cell c − e_a */
    if (d == a)
        return s > 0 ? nu[LQ_MAC_CELL(i, j, k, nx, ny)] : nu[LQ_MAC_CELL(ai, aj, ak, nx, ny)];
    int bi = i, bj = j, bk = k;
    if (d == 0) bi = lq_viscosity_clampi(i + s, 0, nx - 1);
    if (d == 1) bj = lq_viscosity_clampi(j + s, 0, ny - 1);
    if (d == 2) bk = lq_viscosity_clampi(k + s, 0, nz - 1);
    int ci = ai + (bi - i), cj = aj + (bj - j), ck = ak + (bk - k);
    float n1 = nu[LQ_MAC_CELL(i, j, k, nx, ny)], n2 = nu[LQ_MAC_CELL(ai, aj, ak, nx, ny)];
    float n3 = nu[LQ_MAC_CELL(bi, bj, bk, nx, ny)], n4 = nu[LQ_MAC_CELL(ci, cj, ck, nx, ny)];
    return 0.25f * ((n1 + n2) + (n3 + n4));
}

/* Setup of component a at face (i, j, k): kind and the weight sum W = Σ w of an UNKNOWN
 * face (w = ν per coupled or Dirichlet flux, 2ν per no-slip wall flux); the diagonal of
 * the system is 1 + kk W (kk = Δt/h²). W is stored rather than 1 + kk W so that the
 * viscous part keeps its own float precision: with νΔt/h² ~ 1e-3, 1 + kk W in float
 * would carry ~1e-4 relative error in the viscous decrement (Taylor–Green drifted 1e-5
 * in 200 steps that way). */
LQ_INLINE void lq_viscosity_setup_face(int a, int i, int j, int k, int nx, int ny, int nz,
                                       LQ_GLOBAL const float *nu, LQ_GLOBAL const float *phi,
                                       LQ_GLOBAL const float *sdf, int has_sdf, int noslip,
                                       LQ_GLOBAL unsigned char *kind, LQ_GLOBAL float *diag)
{
    int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
    int kd = lq_viscosity_kind(a, i, j, k, nx, ny, nz, phi, sdf, has_sdf);
    kind[f] = (unsigned char)kd;
    if (kd != LQ_VISCOSITY_UNKNOWN) {
        diag[f] = 0.0f;
        return;
    }
    float w = 0.0f;
    int dims = nz > 1 ? 3 : 2, nf;
    for (int d = 0; d < dims; d++)
        for (int s = -1; s <= 1; s += 2) {
            int cl = lq_viscosity_nb_class(a, d, s, i, j, k, nx, ny, nz, phi, sdf, has_sdf, &nf);
            if (cl == LQ_VISCOSITY_AIR ||
                (cl == LQ_VISCOSITY_WALL && !lq_viscosity_wall_noslip(noslip, d, s)))
                continue;
            float n = lq_viscosity_nu_at(nu, a, d, s, i, j, k, nx, ny, nz);
            w = w + (cl == LQ_VISCOSITY_WALL ? 2.0f * n : n);
        }
    diag[f] = w;
}

/* Σ over the coupled (UNKNOWN, want = UNKNOWN) or Dirichlet (FIXED, want = FIXED)
 * neighbours of ν·x_n, in the fixed order d = 0.., s = −1, +1. Uses the stored kinds. */
LQ_INLINE float lq_viscosity_nb_sum(int a, int i, int j, int k, int nx, int ny, int nz,
                                    LQ_GLOBAL const float *nu, LQ_GLOBAL const unsigned char *kind,
                                    LQ_GLOBAL const float *x, int want)
{
    int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
    int dims = nz > 1 ? 3 : 2;
    float sum = 0.0f;
    for (int d = 0; d < dims; d++)
        for (int s = -1; s <= 1; s += 2) {
            int ni = i + (d == 0 ? s : 0), nj = j + (d == 1 ? s : 0), nk = k + (d == 2 ? s : 0);
            if (ni < 0 || nj < 0 || nk < 0 || ni >= fx || nj >= fy || nk >= fz) continue;
            int nf = lq_viscosity_fidx(a, ni, nj, nk, nx, ny);
            if ((int)kind[nf] != want) continue;
            sum = sum + lq_viscosity_nu_at(nu, a, d, s, i, j, k, nx, ny, nz) * x[nf];
        }
    return sum;
}

/* y = (I − kk A) x = x + kk (W x − Σ ν x_n) on an UNKNOWN face (eq. 11–16, Dirichlet
 * values excluded); 0 elsewhere. */
LQ_INLINE float lq_viscosity_apply_face(int a, int i, int j, int k, int nx, int ny, int nz,
                                        LQ_GLOBAL const float *nu,
                                        LQ_GLOBAL const unsigned char *kind,
                                        LQ_GLOBAL const float *diag, LQ_GLOBAL const float *x,
                                        float kk)
{
    int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
    if (kind[f] != LQ_VISCOSITY_UNKNOWN) return 0.0f;
    float xf = x[f];
    return xf + kk * (diag[f] * xf - lq_viscosity_nb_sum(a, i, j, k, nx, ny, nz, nu, kind, x,
                                                         LQ_VISCOSITY_UNKNOWN));
}

/* Right-hand side: b = q + kk Σ_FIXED ν q_n on an UNKNOWN face (q = u* with the explicit
 * part added), 0 elsewhere. */
LQ_INLINE float lq_viscosity_rhs_face(int a, int i, int j, int k, int nx, int ny, int nz,
                                      LQ_GLOBAL const float *nu,
                                      LQ_GLOBAL const unsigned char *kind, LQ_GLOBAL const float *q,
                                      float kk)
{
    int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
    if (kind[f] != LQ_VISCOSITY_UNKNOWN) return 0.0f;
    return q[f] + kk * lq_viscosity_nb_sum(a, i, j, k, nx, ny, nz, nu, kind, q, LQ_VISCOSITY_FIXED);
}

/* r = b − (I − kk A) x on an UNKNOWN face, 0 elsewhere. */
LQ_INLINE float lq_viscosity_residual_face(int a, int i, int j, int k, int nx, int ny, int nz,
                                           LQ_GLOBAL const float *nu,
                                           LQ_GLOBAL const unsigned char *kind,
                                           LQ_GLOBAL const float *diag, LQ_GLOBAL const float *b,
                                           LQ_GLOBAL const float *x, float kk)
{
    int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
    if (kind[f] != LQ_VISCOSITY_UNKNOWN) return 0.0f;
    return b[f] - lq_viscosity_apply_face(a, i, j, k, nx, ny, nz, nu, kind, diag, x, kk);
}

/* The velocity difference across the explicit flux between face (a; c) and (a; c + s e_d)
 * (h times ∂_a u_d there, eq. 8–10): d = a: of u_a across the cell; d ≠ a: of u_d along a
 * on the edge (u_d faces at d-coordinate c_d + (s > 0), a-coordinates c_a and c_a − 1). */
LQ_INLINE float lq_viscosity_cross_diff(int a, int d, int s, int i, int j, int k, int nx, int ny,
                                        LQ_GLOBAL const float *ua, LQ_GLOBAL const float *ud)
{
    if (d == a) {
        int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
        int g = lq_viscosity_fidx(a, i + (a == 0 ? s : 0), j + (a == 1 ? s : 0),
                                  k + (a == 2 ? s : 0), nx, ny);
        return s > 0 ? ua[g] - ua[f] : ua[f] - ua[g];
    }
    int e = s > 0 ? 1 : 0;
    int pi = i + (d == 0 ? e : 0), pj = j + (d == 1 ? e : 0), pk = k + (d == 2 ? e : 0);
    int qi = pi - (a == 0), qj = pj - (a == 1), qk = pk - (a == 2);
    return ud[lq_viscosity_fidx(d, pi, pj, pk, nx, ny)] -
           ud[lq_viscosity_fidx(d, qi, qj, qk, nx, ny)];
}

/* The explicit part for an UNKNOWN face of component a: kk Σ_d (ν₊ D₊ − ν₋ D₋) over the
 * active fluxes (eq. 8–10; kk = Δt/h²); 0 for other faces. un, vn, wn: uⁿ. */
LQ_INLINE float lq_viscosity_explicit_face(int a, int i, int j, int k, int nx, int ny, int nz,
                                           LQ_GLOBAL const float *nu, LQ_GLOBAL const float *phi,
                                           LQ_GLOBAL const float *sdf, int has_sdf, int noslip,
                                           int cross, LQ_GLOBAL const float *un,
                                           LQ_GLOBAL const float *vn, LQ_GLOBAL const float *wn,
                                           float kk)
{
    if (lq_viscosity_kind(a, i, j, k, nx, ny, nz, phi, sdf, has_sdf) != LQ_VISCOSITY_UNKNOWN)
        return 0.0f;
    LQ_GLOBAL const float *ua = a == 0 ? un : (a == 1 ? vn : wn);
    int dims = nz > 1 ? 3 : 2, nf;
    float sum = 0.0f;
    for (int d = 0; d < dims; d++) {
        LQ_GLOBAL const float *ud = d == 0 ? un : (d == 1 ? vn : wn);
        for (int s = -1; s <= 1; s += 2) {
            int cl = lq_viscosity_nb_class(a, d, s, i, j, k, nx, ny, nz, phi, sdf, has_sdf, &nf);
            if (cl == LQ_VISCOSITY_WALL && !lq_viscosity_wall_noslip(noslip, d, s)) continue;
            if (cl == LQ_VISCOSITY_AIR && cross != LQ_VISCOSITY_CROSS_UNMASKED) continue;
            float t = lq_viscosity_nu_at(nu, a, d, s, i, j, k, nx, ny, nz) *
                      lq_viscosity_cross_diff(a, d, s, i, j, k, nx, ny, ua, ud);
            sum = s > 0 ? sum + t : sum - t;
        }
    }
    return kk * sum;
}

/* --- vector operations on the face arrays (CG) ----------------------------------------- */

LQ_INLINE void lq_viscosity_cg_update_elem(LQ_GLOBAL float *x, LQ_GLOBAL float *r,
                                           LQ_GLOBAL const float *d, LQ_GLOBAL const float *q,
                                           float alpha, int f)
{
    x[f] = x[f] + alpha * d[f];
    r[f] = r[f] - alpha * q[f];
}

/* d = z + beta d (beta = 0: d = z, also where d held garbage). */
LQ_INLINE void lq_viscosity_cg_direction_elem(LQ_GLOBAL const float *z, LQ_GLOBAL float *d,
                                              float beta, int f)
{
    d[f] = beta == 0.0f ? z[f] : z[f] + beta * d[f];
}

/* Jacobi: z = r / (1 + kk W) on the UNKNOWN faces. */
LQ_INLINE void lq_viscosity_precond_elem(LQ_GLOBAL const float *r, LQ_GLOBAL float *z,
                                         LQ_GLOBAL const unsigned char *kind,
                                         LQ_GLOBAL const float *diag, float kk, int f)
{
    z[f] = kind[f] == LQ_VISCOSITY_UNKNOWN ? r[f] / (1.0f + kk * diag[f]) : 0.0f;
}

/* --- multigrid V-cycle preconditioner (pls.viscosity_precond: mg) ------------------------
 * One hierarchy per component, built at each setup. Level 0 is the component's face
 * lattice (fx, fy, fz), every coarser level halves each dimension (rounding up; 2D keeps
 * z = 1) down to a single cell. Level l's operator is the Galerkin product P^T A P of
 * level l−1's with the piecewise-constant prolongation P (each cell of level l aggregates
 * its ≤ 2^d children, the simplest conservative coarsening of the liquid mask: a coarse
 * cell is active when any child is). Stored per cell: B, the part of the diagonal that is
 * not a link to an active neighbour (level 0: 1 + kk Σ ν over the Dirichlet and no-slip
 * wall fluxes; coarser: the sum of the children's B), and L[3 c + d], the link to the
 * neighbour c + e_d (off-diagonal −L; level 0: kk ν of the shared flux when both faces
 * are UNKNOWN; coarser: the sum of the children's links across the aggregates' shared
 * face). The diagonal is B + Σ of the cell's six links, summed in a fixed order, so the
 * coarse diagonal is built without cancellation (the aggregate-internal links never
 * enter). Inactive cells: B = 0 (an active cell has B ≥ 1). Smoother: red-black
 * Gauss-Seidel by the parity of i + j + k (a cell reads only the other colour: the result
 * is independent of the order of the work-items); pre-smoothing red then black,
 * post-smoothing black then red, R = P^T: the V-cycle is a symmetric positive definite
 * preconditioner. The coarsest level (one cell) is solved exactly by one sweep. */

#define LQ_VISCOSITY_MG_LEVELS 12 /* most levels: a lattice of up to 2^11 per side */

LQ_INLINE void lq_vmg_ijk(int c, int mx, int my, int *i, int *j, int *k)
{
    *i = c % mx;
    *j = (c / mx) % my;
    *k = c / (mx * my);
}

/* Level 0 of component a at face (i, j, k): B and the three links (setup's kinds). */
LQ_INLINE void lq_vmg_setup_face(int a, int i, int j, int k, int nx, int ny, int nz,
                                 LQ_GLOBAL const float *nu, LQ_GLOBAL const unsigned char *kind,
                                 int noslip, float kk, LQ_GLOBAL float *B, LQ_GLOBAL float *L)
{
    int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
    int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
    L[3 * f] = 0.0f;
    L[3 * f + 1] = 0.0f;
    L[3 * f + 2] = 0.0f;
    if (kind[f] != LQ_VISCOSITY_UNKNOWN) {
        B[f] = 0.0f;
        return;
    }
    int dims = nz > 1 ? 3 : 2;
    float w = 0.0f;
    for (int d = 0; d < dims; d++)
        for (int s = -1; s <= 1; s += 2) {
            int ni = i + (d == 0 ? s : 0), nj = j + (d == 1 ? s : 0), nk = k + (d == 2 ? s : 0);
            float n = lq_viscosity_nu_at(nu, a, d, s, i, j, k, nx, ny, nz);
            if (ni < 0 || nj < 0 || nk < 0 || ni >= fx || nj >= fy || nk >= fz) {
                if (lq_viscosity_wall_noslip(noslip, d, s)) w = w + 2.0f * n;
                continue;
            }
            int kn = kind[lq_viscosity_fidx(a, ni, nj, nk, nx, ny)];
            if (kn == LQ_VISCOSITY_FIXED) w = w + n;
            if (kn == LQ_VISCOSITY_UNKNOWN && s > 0) L[3 * f + d] = kk * n;
        }
    B[f] = 1.0f + kk * w;
}

/* Level l+1's B and links at coarse cell (I, J, K) from level l's (m*: fine dims). */
LQ_INLINE void lq_vmg_coarsen_cell(int I, int J, int K, int mx, int my, int mz, int cx, int cy,
                                   LQ_GLOBAL const float *Bf, LQ_GLOBAL const float *Lf,
                                   LQ_GLOBAL float *Bc, LQ_GLOBAL float *Lc)
{
    int C = I + cx * (J + cy * K);
    float b = 0.0f, l0 = 0.0f, l1 = 0.0f, l2 = 0.0f;
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++)
            for (int di = 0; di < 2; di++) {
                int i = 2 * I + di, j = 2 * J + dj, k = 2 * K + dk;
                if (i >= mx || j >= my || k >= mz) continue;
                int f = i + mx * (j + my * k);
                b = b + Bf[f];
                if (di == 1) l0 = l0 + Lf[3 * f];
                if (dj == 1) l1 = l1 + Lf[3 * f + 1];
                if (dk == 1) l2 = l2 + Lf[3 * f + 2];
            }
    Bc[C] = b;
    Lc[3 * C] = l0;
    Lc[3 * C + 1] = l1;
    Lc[3 * C + 2] = l2;
}

/* The diagonal D and Σ L x_n of cell (i, j, k) of a level (fixed order d, then −, +). */
LQ_INLINE float lq_vmg_offsum(int i, int j, int k, int mx, int my, int mz, LQ_GLOBAL const float *B,
                              LQ_GLOBAL const float *L, LQ_GLOBAL const float *x, float *diag)
{
    int c = i + mx * (j + my * k);
    float dg = B[c], s = 0.0f;
    for (int d = 0; d < 3; d++) {
        int st = d == 0 ? 1 : (d == 1 ? mx : mx * my);
        int cd = d == 0 ? i : (d == 1 ? j : k), md = d == 0 ? mx : (d == 1 ? my : mz);
        if (cd > 0) {
            float l = L[3 * (c - st) + d];
            dg = dg + l;
            s = s + l * x[c - st];
        }
        if (cd + 1 < md) {
            float l = L[3 * c + d];
            dg = dg + l;
            s = s + l * x[c + st];
        }
    }
    *diag = dg;
    return s;
}

/* One red-black half-sweep at cell c: cells of parity `color` relax, x = (b + Σ L x_n)/D;
 * first: x starts at 0 (the colour relaxes to b/D, the other colour is set to 0). */
LQ_INLINE void lq_vmg_smooth_cell(int c, int mx, int my, int mz, LQ_GLOBAL const float *B,
                                  LQ_GLOBAL const float *L, LQ_GLOBAL const float *b,
                                  LQ_GLOBAL float *x, int color, int first)
{
    int i, j, k;
    lq_vmg_ijk(c, mx, my, &i, &j, &k);
    if (((i + j + k) & 1) != color) {
        if (first) x[c] = 0.0f;
        return;
    }
    if (!(B[c] > 0.0f)) {
        x[c] = 0.0f;
        return;
    }
    float dg, s = lq_vmg_offsum(i, j, k, mx, my, mz, B, L, x, &dg);
    x[c] = first ? b[c] / dg : (b[c] + s) / dg;
}

/* t = b − A x at cell c of a level (0 on inactive cells). */
LQ_INLINE float lq_vmg_residual_cell(int c, int mx, int my, int mz, LQ_GLOBAL const float *B,
                                     LQ_GLOBAL const float *L, LQ_GLOBAL const float *b,
                                     LQ_GLOBAL const float *x)
{
    if (!(B[c] > 0.0f)) return 0.0f;
    int i, j, k;
    lq_vmg_ijk(c, mx, my, &i, &j, &k);
    float dg, s = lq_vmg_offsum(i, j, k, mx, my, mz, B, L, x, &dg);
    return b[c] - (dg * x[c] - s);
}

/* R = P^T: the coarse right-hand side at (I, J, K) is the sum of its children's t. */
LQ_INLINE float lq_vmg_restrict_cell(int I, int J, int K, int mx, int my, int mz,
                                     LQ_GLOBAL const float *t)
{
    float s = 0.0f;
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++)
            for (int di = 0; di < 2; di++) {
                int i = 2 * I + di, j = 2 * J + dj, k = 2 * K + dk;
                if (i < mx && j < my && k < mz) s = s + t[i + mx * (j + my * k)];
            }
    return s;
}

/* x_f += x_c of the parent on active fine cells (P: piecewise constant). */
LQ_INLINE void lq_vmg_prolong_cell(int c, int mx, int my, int cx, int cy, LQ_GLOBAL const float *Bf,
                                   LQ_GLOBAL const float *xc, LQ_GLOBAL float *xf)
{
    if (!(Bf[c] > 0.0f)) return;
    int i, j, k;
    lq_vmg_ijk(c, mx, my, &i, &j, &k);
    xf[c] = xf[c] + xc[i / 2 + cx * (j / 2 + cy * (k / 2))];
}

/* Item l of group g of the dot product a·b (see the header comment). */
LQ_INLINE float lq_viscosity_red_item(LQ_GLOBAL const float *a, LQ_GLOBAL const float *b, int g,
                                      int l, int span, int n)
{
    int lo = g * span, hi = lo + span < n ? lo + span : n;
    float s = 0.0f;
    for (int c = lo + l; c < hi; c += LQ_VISCOSITY_LOCAL) s = s + a[c] * b[c];
    return s;
}

#endif
