/*
 * poisson_cell.h — per-cell math of the `pls` pressure projection (Rasmussen et al. 2004
 * §3: a preconditioned CG solve with zero pressure in the air and the liquid surface at
 * sub-cell position by the ghost fluid method of Gibou et al. 2002 / Enright et al.),
 * shared by kernels/pls/poisson.cl and the reference twins (host/ops/pls/poisson_ref.c).
 *
 * Unknowns: one kinematic pressure p (m²/s², pressure / density) per liquid cell
 * (φ ≤ 0 and not solid: sdf > 0 where an sdf is given). The system is −h²∇²p = −h²∇·u/dt,
 * i.e. A p = b with, per liquid cell c and each of its faces towards neighbour n:
 *   - n liquid:                     A_cc += 1, A_cn = −1 (bit n of the mask);
 *   - n air (φ_n > 0):              A_cc += 1/θ, θ = φ_c/(φ_c − φ_n) clamped to
 *                                   [θ_min, 1] (ghost fluid: p_ghost = p_c (1 − 1/θ), so
 *                                   that p = 0 where φ = 0); θ = 1 in the cell-centre
 *                                   variant (p = 0 at the air cell's centre, first order);
 *   - n solid (sdf_n ≤ 0; with LQ_POISSON_OBJECT_AIR only while φ_n ≤ 0 too: an object cell
 *     the liquid has left, §5.5.2, is air like any other, its face open) or the domain
 *     edge with Neumann walls: nothing (closed face);
 *   - the domain edge with Dirichlet walls (p = 0 on the face): A_cc += 2 (θ = ½).
 * In 2D (NZ = 1) there are no z faces. A liquid cell with no open face at all has no
 * equation (p = 0 there).
 * Per cell the setup stores diag = A_cc (float, summed in face order −x +x −y +y −z +z)
 * and a mask: bits 0–5 liquid neighbours (mac_grid.h order), LQ_POISSON_UNKNOWN, and
 * LQ_POISSON_DIRICHLET when the cell has an air or Dirichlet-wall term (a connected region
 * with none is singular).
 * RHS: b = −(h/dt) Σ_axes (u_{+face} − u_{−face}) (= −h² (∇·u)/dt); projection:
 * u_face −= (dt/h)(p_+ − p_−) on faces with liquid on one side at least, the air side's p
 * the ghost value; closed faces untouched.
 * Vectors are per cell, zero off the unknowns. No contraction, correctly rounded divides:
 * both backends agree bit for bit.
 */
#ifndef LQ_POISSON_CELL_H
#define LQ_POISSON_CELL_H

#include "common/mac_grid.h"
#include "common/scan_cell.h"

#define LQ_POISSON_OBJECT_AIR                                                                      \
    2 /* has_sdf mode: object cells with φ > 0 are air (lq_poisson_solid) */
#define LQ_POISSON_UNKNOWN   0x40
#define LQ_POISSON_DIRICHLET 0x80
#define LQ_POISSON_LOCAL     256 /* work-items per reduction group (fixed: twin order) */
#define LQ_POISSON_GROUPS    256 /* most reduction groups */

/* Reduction modes (lq_poisson_red_value). */
#define LQ_POISSON_RED_DOT       0 /* a·b */
#define LQ_POISSON_RED_SUM       1 /* Σ a over the unknowns */
#define LQ_POISSON_RED_NORM2     2 /* Σ (a − shift)² over the unknowns */
#define LQ_POISSON_RED_UNKNOWNS  3 /* how many unknowns */
#define LQ_POISSON_RED_DIRICHLET 4 /* how many unknowns with an air or Dirichlet term */

/* has_sdf 0: no objects; 1: sdf ≤ 0 is solid; LQ_POISSON_OBJECT_AIR: an object cell is solid
 * only while φ ≤ 0 there: one with φ > 0 (the liquid left it, §5.5.2) is air. */
LQ_INLINE int lq_poisson_solid(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf, int has_sdf,
                               int c)
{
    return has_sdf && sdf[c] <= 0.0f && (has_sdf != LQ_POISSON_OBJECT_AIR || phi[c] <= 0.0f);
}

LQ_INLINE int lq_poisson_liquid(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf, int has_sdf,
                                int c)
{
    return phi[c] <= 0.0f && !lq_poisson_solid(phi, sdf, has_sdf, c);
}

/* Where φ = 0 between the liquid centre (φ_c ≤ 0) and the air centre (φ_n > 0), as a
 * fraction of h from the liquid centre (Gibou et al. 2002). */
LQ_INLINE float lq_poisson_theta(float phic, float phin, int ghost, float theta_min)
{
    if (!ghost) return 1.0f;
    float t = phic / (phic - phin);
    if (!(t >= theta_min)) t = theta_min; /* also a NaN φ */
    return t > 1.0f ? 1.0f : t;
}

/* Neighbour n (mac_grid.h order) of cell (i, j, k): its index, or −1 beyond the edge. */
LQ_INLINE int lq_poisson_neighbour(int i, int j, int k, int n, int nx, int ny, int nz)
{
    int di = n == 0 ? -1 : (n == 1 ? 1 : 0);
    int dj = n == 2 ? -1 : (n == 3 ? 1 : 0);
    int dk = n == 4 ? -1 : (n == 5 ? 1 : 0);
    int a = i + di, b = j + dj, c = k + dk;
    if (a < 0 || a >= nx || b < 0 || b >= ny || c < 0 || c >= nz) return -1;
    return LQ_MAC_CELL(a, b, c, nx, ny);
}

LQ_INLINE void lq_poisson_setup_cell(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                     int has_sdf, int wall_dirichlet, int ghost, float theta_min,
                                     int i, int j, int k, int nx, int ny, int nz,
                                     LQ_GLOBAL unsigned char *mask, LQ_GLOBAL float *diag)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = 0;
    float d = 0.0f;
    if (lq_poisson_liquid(phi, sdf, has_sdf, c)) {
        int faces = nz > 1 ? 6 : 4;
        for (int n = 0; n < faces; n++) {
            int q = lq_poisson_neighbour(i, j, k, n, nx, ny, nz);
            if (q < 0) {
                if (wall_dirichlet) {
                    d = d + 2.0f;
                    m |= LQ_POISSON_DIRICHLET;
                }
            } else if (lq_poisson_solid(phi, sdf, has_sdf, q)) {
                /* closed face: Neumann */
            } else if (phi[q] <= 0.0f) {
                d = d + 1.0f;
                m |= 1u << n;
            } else {
                d = d + 1.0f / lq_poisson_theta(phi[c], phi[q], ghost, theta_min);
                m |= LQ_POISSON_DIRICHLET;
            }
        }
        if (d > 0.0f) m |= LQ_POISSON_UNKNOWN;
    }
    mask[c] = (unsigned char)m;
    diag[c] = m & LQ_POISSON_UNKNOWN ? d : 0.0f;
}

/* --- the system from cell kinds: `mac`'s pressure by PCG (issue 14 item 3) ------------------
 * Foster & Metaxas's iteration (kernels/mac/pressure_cell.h, eq. 6–9) moves each face of a
 * FULL cell by ±(δt/δ) δp unless the cell across is SOLID, INFLOW or off the grid, and adds
 * δp to p. Its fixed point, with P the sum of the δp, is: per FULL cell c,
 *   Σ_open faces f (δt/h²) w_f (P_c − P_n [n FULL]) = D_c      (eq. 5's D of the velocities
 * before the iteration; w_f the weight mac.surface_solve gives a face, 1 otherwise). Times
 * h²/δt this is A P = b of this module with b = −(h/δt)·(net outflow) (lq_poisson_rhs_cell):
 * a FULL neighbour couples (bit n, A_cc += 1); any other open neighbour (EMPTY, a held
 * SURFACE cell, OUTFLOW) holds δp = 0, a Dirichlet term A_cc += w_f; SOLID, INFLOW and the
 * grid's edge close the face. The weights (lq_pressure_surface_prep_cell: sw[c] weighs c's
 * +y face) only ever fall on faces toward a held or EMPTY cell, so the off-diagonal stays
 * −1 and A symmetric. flags: uchar LQ_MAC_* per cell as the iteration reads them (after the
 * surface prep); sw: NULL (0 in OpenCL) for weights 1. */
LQ_INLINE int lq_poisson_kind_open(int kind)
{
    return kind != LQ_MAC_SOLID && kind != LQ_MAC_INFLOW;
}

LQ_INLINE void lq_poisson_setup_kind_cell(LQ_GLOBAL const unsigned char *flags,
                                          LQ_GLOBAL const float *sw, int i, int j, int k, int nx,
                                          int ny, int nz, LQ_GLOBAL unsigned char *mask,
                                          LQ_GLOBAL float *diag)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = 0;
    float d = 0.0f;
    if (flags[c] == LQ_MAC_FULL) {
        int faces = nz > 1 ? 6 : 4;
        for (int n = 0; n < faces; n++) {
            int q = lq_poisson_neighbour(i, j, k, n, nx, ny, nz);
            if (q < 0 || !lq_poisson_kind_open(flags[q])) continue; /* closed face */
            if (flags[q] == LQ_MAC_FULL) {
                d = d + 1.0f;
                m |= 1u << n;
            } else {
                float wf = !sw ? 1.0f : (n == 2 ? sw[q] : (n == 3 ? sw[c] : 1.0f));
                d = d + wf;
                m |= LQ_POISSON_DIRICHLET;
            }
        }
        if (d > 0.0f) m |= LQ_POISSON_UNKNOWN;
    }
    mask[c] = (unsigned char)m;
    diag[c] = m & LQ_POISSON_UNKNOWN ? d : 0.0f;
}

/* Σ of x over the liquid neighbours of c, in face order. */
LQ_INLINE float lq_poisson_neighbour_sum(LQ_GLOBAL const float *x, unsigned int m, int i, int j,
                                         int k, int nx, int ny, int nz)
{
    float s = 0.0f;
    for (int n = 0; n < 6; n++)
        if (m & (1u << n)) s = s + x[lq_poisson_neighbour(i, j, k, n, nx, ny, nz)];
    return s;
}

/* y = A x (0 off the unknowns). */
LQ_INLINE void lq_poisson_apply_cell(LQ_GLOBAL const float *x, LQ_GLOBAL const unsigned char *mask,
                                     LQ_GLOBAL const float *diag, LQ_GLOBAL float *y, int i, int j,
                                     int k, int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = mask[c];
    if (!(m & LQ_POISSON_UNKNOWN)) {
        y[c] = 0.0f;
        return;
    }
    y[c] = diag[c] * x[c] - lq_poisson_neighbour_sum(x, m, i, j, k, nx, ny, nz);
}

/* r = (b − shift) − A p (0 off the unknowns). */
LQ_INLINE void lq_poisson_residual_cell(LQ_GLOBAL const float *b, float shift,
                                        LQ_GLOBAL const float *p,
                                        LQ_GLOBAL const unsigned char *mask,
                                        LQ_GLOBAL const float *diag, LQ_GLOBAL float *r, int i,
                                        int j, int k, int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = mask[c];
    if (!(m & LQ_POISSON_UNKNOWN)) {
        r[c] = 0.0f;
        return;
    }
    float ap = diag[c] * p[c] - lq_poisson_neighbour_sum(p, m, i, j, k, nx, ny, nz);
    r[c] = (b[c] - shift) - ap;
}

/* One red-black SOR colour pass: cells with (i + j + k) % 2 == colour relax toward the
 * Gauss–Seidel value g = (b − shift + Σ p_n)/A_cc by ω: p += ω (g − p). */
LQ_INLINE void lq_poisson_sor_cell(LQ_GLOBAL const float *b, float shift, LQ_GLOBAL float *p,
                                   LQ_GLOBAL const unsigned char *mask, LQ_GLOBAL const float *diag,
                                   int colour, float omega, int i, int j, int k, int nx, int ny,
                                   int nz)
{
    if (((i + j + k) & 1) != colour) return;
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = mask[c];
    if (!(m & LQ_POISSON_UNKNOWN)) {
        p[c] = 0.0f;
        return;
    }
    float g = ((b[c] - shift) + lq_poisson_neighbour_sum(p, m, i, j, k, nx, ny, nz)) / diag[c];
    p[c] = p[c] + omega * (g - p[c]);
}

/* One weighted Jacobi pass from pin into pout: pout = pin + ω (g − pin). */
LQ_INLINE void lq_poisson_jacobi_cell(LQ_GLOBAL const float *b, float shift,
                                      LQ_GLOBAL const float *pin, LQ_GLOBAL float *pout,
                                      LQ_GLOBAL const unsigned char *mask,
                                      LQ_GLOBAL const float *diag, float omega, int i, int j, int k,
                                      int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = mask[c];
    if (!(m & LQ_POISSON_UNKNOWN)) {
        pout[c] = 0.0f;
        return;
    }
    float g = ((b[c] - shift) + lq_poisson_neighbour_sum(pin, m, i, j, k, nx, ny, nz)) / diag[c];
    pout[c] = pin[c] + omega * (g - pin[c]);
}

/* The same three updates from the cell index alone (the list passes: the mask's neighbour
 * bits are set only for neighbours inside the grid, so no bounds and no (i, j, k) are
 * needed; the same sums in the same order, bit for bit). */
LQ_INLINE float lq_poisson_neighbour_sum_c(LQ_GLOBAL const float *x, unsigned int m, int c, int nx,
                                           int ny)
{
    float s = 0.0f;
    int sz = nx * ny;
    if (m & 1u) s = s + x[c - 1];
    if (m & 2u) s = s + x[c + 1];
    if (m & 4u) s = s + x[c - nx];
    if (m & 8u) s = s + x[c + nx];
    if (m & 16u) s = s + x[c - sz];
    if (m & 32u) s = s + x[c + sz];
    return s;
}

/* lq_poisson_sor_cell at cell c of the pass's colour. */
LQ_INLINE void lq_poisson_sor_c(LQ_GLOBAL const float *b, float shift, LQ_GLOBAL float *p,
                                LQ_GLOBAL const unsigned char *mask, LQ_GLOBAL const float *diag,
                                float omega, int c, int nx, int ny)
{
    unsigned int m = mask[c];
    if (!(m & LQ_POISSON_UNKNOWN)) {
        p[c] = 0.0f;
        return;
    }
    float g = ((b[c] - shift) + lq_poisson_neighbour_sum_c(p, m, c, nx, ny)) / diag[c];
    p[c] = p[c] + omega * (g - p[c]);
}

/* lq_poisson_residual_cell at cell c. */
LQ_INLINE void lq_poisson_residual_c(LQ_GLOBAL const float *b, float shift,
                                     LQ_GLOBAL const float *p, LQ_GLOBAL const unsigned char *mask,
                                     LQ_GLOBAL const float *diag, LQ_GLOBAL float *r, int c, int nx,
                                     int ny)
{
    unsigned int m = mask[c];
    if (!(m & LQ_POISSON_UNKNOWN)) {
        r[c] = 0.0f;
        return;
    }
    float ap = diag[c] * p[c] - lq_poisson_neighbour_sum_c(p, m, c, nx, ny);
    r[c] = (b[c] - shift) - ap;
}

/* --- CG vector operations (per cell c, every cell) ----------------------------------- */

/* x += α d, r −= α q. */
LQ_INLINE void lq_poisson_cg_update_cell(LQ_GLOBAL float *x, LQ_GLOBAL float *r,
                                         LQ_GLOBAL const float *d, LQ_GLOBAL const float *q,
                                         float alpha, int c)
{
    x[c] = x[c] + alpha * d[c];
    r[c] = r[c] - alpha * q[c];
}

/* d = z + β d. */
LQ_INLINE void lq_poisson_cg_direction_cell(LQ_GLOBAL const float *z, LQ_GLOBAL float *d,
                                            float beta, int c)
{
    d[c] = z[c] + beta * d[c];
}

/* Diagonal (Jacobi) preconditioner: z = r / A_cc. */
LQ_INLINE void lq_poisson_precond_jacobi_cell(LQ_GLOBAL const float *r, LQ_GLOBAL float *z,
                                              LQ_GLOBAL const unsigned char *mask,
                                              LQ_GLOBAL const float *diag, int c)
{
    z[c] = (mask[c] & LQ_POISSON_UNKNOWN) ? r[c] / diag[c] : 0.0f;
}

/* --- reductions ------------------------------------------------------------------------
 * Group g of G covers cells [g S, min((g + 1) S, n)); its work-item l sums the cells
 * g S + l + LQ_POISSON_LOCAL t in increasing t, then the group adds its items by a binary tree
 * (halving strides); the host adds the G group sums in order, in double. */
LQ_INLINE float lq_poisson_red_value(int mode, LQ_GLOBAL const float *a, LQ_GLOBAL const float *b,
                                     LQ_GLOBAL const unsigned char *mask, float shift, int c)
{
    unsigned int m = mask[c];
    if (mode == LQ_POISSON_RED_DOT) return a[c] * b[c];
    if (!(m & LQ_POISSON_UNKNOWN)) return 0.0f;
    if (mode == LQ_POISSON_RED_SUM) return a[c];
    if (mode == LQ_POISSON_RED_NORM2) {
        float e = a[c] - shift;
        return e * e;
    }
    if (mode == LQ_POISSON_RED_UNKNOWNS) return 1.0f;
    return (m & LQ_POISSON_DIRICHLET) ? 1.0f : 0.0f;
}

LQ_INLINE float lq_poisson_red_item(int mode, LQ_GLOBAL const float *a, LQ_GLOBAL const float *b,
                                    LQ_GLOBAL const unsigned char *mask, float shift, int g, int l,
                                    int span, int n)
{
    int lo = g * span, hi = lo + span < n ? lo + span : n;
    float s = 0.0f;
    for (int c = lo + l; c < hi; c += LQ_POISSON_LOCAL)
        s = s + lq_poisson_red_value(mode, a, b, mask, shift, c);
    return s;
}

/* --- unknown lists ----------------------------------------------------------------------
 * Level l's unknowns (LQ_POISSON_UNKNOWN in its mask) in one int array, built from the mask
 * after every build (lq_poisson_list_block below, on the device): colour 0 ((i + j + k)
 * even) in increasing cell index, then colour 1 likewise. The CG vectors and the V-cycle's passes
 * visit only these cells (about 5 % of the grid in a dam break): every vector they write is 0 off
 * the unknowns (zeroed by the solver, never written there by a list pass), which is what
 * the whole-grid passes wrote there, so a list pass updates what a whole-grid pass would,
 * bit for bit, and one colour's cells share no face (order-free).
 * List reductions: G = lq_poisson_list_groups(n) groups of LQ_POISSON_LOCAL items over the n
 * entries, group g the entries [g S, min((g + 1) S, n)) with S = ceil(n / G), its item l
 * the entries g S + l + LQ_POISSON_LOCAL t in increasing t, then the fixed tree per group and
 * the host's sum of the group sums in order, in double. */
/* The lists are built by stream compaction (core/scan.h), on the device as on the host:
 * the cells are cut into nb blocks of LQ_SCAN_BLOCK, and virtual block q of 3 nb is
 * block q mod nb seen as kind q / nb: 0 its colour-0 unknowns, 1 its colour-1 unknowns,
 * 2 its unknowns with a Dirichlet term (counted only: the singular test). A block's
 * count, the exclusive scan of the 3 nb counts, and the block's entries written in cell
 * order from its offset give colour 0 then colour 1, each in increasing cell index; the
 * scan's offsets at nb and 2 nb are n[0] and n[0] + n[1], its total less the latter the
 * Dirichlet count. Returns the count; writes the entries from list[at] when `write`. */
LQ_INLINE int lq_poisson_list_block(LQ_GLOBAL const unsigned char *mask, int q, int nb, int nx,
                                    int ny, int ncell, int write, LQ_GLOBAL int *list, int at)
{
    int kind = q / nb, c0 = (q - kind * nb) * LQ_SCAN_BLOCK;
    int c1 = c0 + LQ_SCAN_BLOCK < ncell ? c0 + LQ_SCAN_BLOCK : ncell;
    int i = c0 % nx, jk = c0 / nx, m = 0;
    int par = (i + jk % ny + jk / ny) & 1; /* (i + j + k) & 1, kept as i and the row step */
    for (int c = c0; c < c1; c++) {
        unsigned int f = mask[c];
        int take =
            (f & LQ_POISSON_UNKNOWN) && (kind == 2 ? (f & LQ_POISSON_DIRICHLET) != 0 : par == kind);
        if (take && write) list[at + m] = c;
        m += take;
        if (++i == nx) { /* next row: j + 1 (or k + 1, j back to 0) */
            i = 0;
            jk++;
            par = (jk % ny + jk / ny) & 1;
        } else {
            par ^= 1;
        }
    }
    return m;
}

LQ_INLINE int lq_poisson_list_groups(int n)
{
    int g = (n + LQ_POISSON_LOCAL - 1) / LQ_POISSON_LOCAL;
    return g < 1 ? 1 : (g < LQ_POISSON_GROUPS ? g : LQ_POISSON_GROUPS);
}

LQ_INLINE void lq_poisson_cell_ijk(int c, int nx, int ny, int *i, int *j, int *k)
{
    *i = c % nx;
    *j = (c / nx) % ny;
    *k = c / (nx * ny);
}

/* Entry range of item l of group g (t from lo by LQ_POISSON_LOCAL while t < hi). */
LQ_INLINE int lq_poisson_list_hi(int g, int span, int n)
{
    int hi = (g + 1) * span;
    return hi < n ? hi : n;
}

/* y = A x on the listed cells; returns the item's Σ x·y (d·q of CG). */
LQ_INLINE float lq_poisson_apply_dot_item(LQ_GLOBAL const float *x,
                                          LQ_GLOBAL const unsigned char *mask,
                                          LQ_GLOBAL const float *diag, LQ_GLOBAL float *y,
                                          LQ_GLOBAL const int *list, int g, int l, int span, int n,
                                          int nx, int ny, int nz)
{
    float s = 0.0f;
    int hi = lq_poisson_list_hi(g, span, n);
    (void)nz;
    for (int t = g * span + l; t < hi; t += LQ_POISSON_LOCAL) {
        /* lq_poisson_apply_cell from the cell index and the mask's neighbour bits alone
         * (no division back to i, j, k: a listed cell is an unknown, and a neighbour bit
         * is never set across the domain edge), the same sum in the same order */
        int c = list[t];
        unsigned int m = mask[c];
        float yc = diag[c] * x[c] - lq_poisson_neighbour_sum_c(x, m, c, nx, ny);
        y[c] = yc;
        s = s + x[c] * yc;
    }
    return s;
}

/* x += α d, r −= α q on the listed cells; returns the item's Σ r·r. */
LQ_INLINE float lq_poisson_update_dot_item(LQ_GLOBAL float *x, LQ_GLOBAL float *r,
                                           LQ_GLOBAL const float *d, LQ_GLOBAL const float *q,
                                           float alpha, LQ_GLOBAL const int *list, int g, int l,
                                           int span, int n)
{
    float s = 0.0f;
    int hi = lq_poisson_list_hi(g, span, n);
    for (int t = g * span + l; t < hi; t += LQ_POISSON_LOCAL) {
        int c = list[t];
        lq_poisson_cg_update_cell(x, r, d, q, alpha, c);
        s = s + r[c] * r[c];
    }
    return s;
}

/* The item's Σ a·b over the listed cells. */
LQ_INLINE float lq_poisson_dot_item(LQ_GLOBAL const float *a, LQ_GLOBAL const float *b,
                                    LQ_GLOBAL const int *list, int g, int l, int span, int n)
{
    float s = 0.0f;
    int hi = lq_poisson_list_hi(g, span, n);
    for (int t = g * span + l; t < hi; t += LQ_POISSON_LOCAL) s = s + a[list[t]] * b[list[t]];
    return s;
}

/* --- CG's scalars on the device ---------------------------------------------------------
 * So that a solve needs no host wait per iteration, CG's scalars live in a small array
 * beside the vectors (LQ_CG_*), updated by one work-item after each fused list reduction
 * from its group sums, added in group order in double as the host loop adds them: α, β,
 * the convergence test and the iteration count come out bit for bit the host loop's.
 * The passes that write x, r and d read α and β there and do nothing once the state has
 * left LQ_CG_RUN (converged, or broken down), so iterations enqueued past the end leave
 * the result as the host loop's break left it; the host reads the array once per batch
 * of iterations (host/ops/pls/poisson.c). Needs doubles (cl_khr_fp64); without them the
 * host loop runs. */
#ifdef __OPENCL_VERSION__
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double lq_cg_real;
#else
typedef float lq_cg_real; /* not used: the host runs CG's scalars (poisson.c) */
#endif
#else
typedef double lq_cg_real;
#endif

#define LQ_CG_RZ 0 /* r·z (r·r without a preconditioner) */
#define LQ_CG_DQ 1 /* d·A d */
#define LQ_CG_RR 2 /* r·r, recursive */
#define LQ_CG_GOAL                                                                                 \
    3                  /* stop at sqrt(r·r) ≤ goal (set by the host; with LQ_CG_BNORM the       \
                        * host's is a floor under tol·‖b‖) */
#define LQ_CG_STATE 4  /* LQ_CG_RUN, LQ_CG_CONVERGED, LQ_CG_BREAKDOWN */
#define LQ_CG_ITER  5  /* iterations done */
#define LQ_CG_ALPHA 6  /* α as the float the update uses */
#define LQ_CG_BETA  7  /* β likewise */
#define LQ_CG_RR0   8  /* r·r at the start (the host predicts the iterations left) */
#define LQ_CG_TOL   9  /* the relative tolerance (set by the host) */
#define LQ_CG_BB    10 /* b·b over the unknowns (LQ_CG_BNORM; −1: the host has it) */
#define LQ_CG_N     12

#define LQ_CG_RUN       0
#define LQ_CG_CONVERGED 1
#define LQ_CG_BREAKDOWN 2

/* Stages: after r·r of the starting residual, after d·q, after the update's r·r, after
 * r·z (the preconditioned case), after r·z of a (re)start (β stays 0). */
#define LQ_CG_START      0
#define LQ_CG_AFTER_DQ   1
#define LQ_CG_AFTER_RR   2
#define LQ_CG_AFTER_RZ   3
#define LQ_CG_RESTART_RZ 4
#define LQ_CG_BNORM      5 /* after b·b: the goal tol·‖b‖ (b = 0: the start has converged) */

LQ_INLINE void lq_poisson_cg_stage(LQ_GLOBAL const float *partial, int groups,
                                   LQ_GLOBAL lq_cg_real *s, int stage, int pre)
{
    lq_cg_real sum = 0;
    for (int g = 0; g < groups; g++) sum += (lq_cg_real)partial[g];
    if (stage == LQ_CG_BNORM) {
        s[LQ_CG_BB] = sum;
        lq_cg_real goal = s[LQ_CG_TOL] * sqrt(sum);
        if (goal < s[LQ_CG_GOAL]) goal = s[LQ_CG_GOAL]; /* the host's absolute floor */
        s[LQ_CG_GOAL] = goal;
        return;
    }
    if (stage == LQ_CG_START) {
        s[LQ_CG_RR] = sum;
        s[LQ_CG_RR0] = sum;
        s[LQ_CG_RZ] = sum; /* without a preconditioner; else LQ_CG_RESTART_RZ sets it */
        s[LQ_CG_BETA] = 0;
        s[LQ_CG_STATE] =
            s[LQ_CG_BB] == 0 || sqrt(sum) <= s[LQ_CG_GOAL] ? LQ_CG_CONVERGED : LQ_CG_RUN;
        return;
    }
    if (s[LQ_CG_STATE] != LQ_CG_RUN) return;
    if (stage == LQ_CG_AFTER_DQ) {
        s[LQ_CG_ITER] += 1;
        s[LQ_CG_DQ] = sum;
        if (!(sum > 0)) {
            s[LQ_CG_STATE] = LQ_CG_BREAKDOWN;
            return;
        }
        s[LQ_CG_ALPHA] = (float)(s[LQ_CG_RZ] / sum);
    } else if (stage == LQ_CG_AFTER_RR) {
        s[LQ_CG_RR] = sum;
        if (sqrt(sum) <= s[LQ_CG_GOAL]) {
            s[LQ_CG_STATE] = LQ_CG_CONVERGED;
        } else if (!pre) { /* z = r: β = r·r / the last r·r */
            s[LQ_CG_BETA] = (float)(sum / s[LQ_CG_RZ]);
            s[LQ_CG_RZ] = sum;
        }
    } else if (stage == LQ_CG_AFTER_RZ) {
        s[LQ_CG_BETA] = (float)(sum / s[LQ_CG_RZ]);
        s[LQ_CG_RZ] = sum;
    } else { /* LQ_CG_RESTART_RZ */
        s[LQ_CG_RZ] = sum;
    }
}

/* --- projection ------------------------------------------------------------------------ */

/* The face on `axis` (0 x, 1 y, 2 z) at face coordinates (i, j, k) lies between the cells
 * one step down that axis and (i, j, k). Subtracts (dt/h)(p_+ − p_−) where one side is
 * liquid and neither solid; a side beyond the domain edge is a closed wall, or with
 * Dirichlet walls the ghost −p of the inner cell. */
LQ_INLINE void lq_poisson_project_face(LQ_GLOBAL float *u, int axis, int i, int j, int k, int nx,
                                       int ny, int nz, LQ_GLOBAL const float *p,
                                       LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                       int has_sdf, int wall_dirichlet, int ghost, float theta_min,
                                       float dt_h)
{
    int fx = nx + (axis == 0), fy = ny + (axis == 1);
    int f = i + fx * (j + fy * k);
    int im = i - (axis == 0), jm = j - (axis == 1), km = k - (axis == 2);
    int na = axis == 0 ? nx : (axis == 1 ? ny : nz);
    int ca = axis == 0 ? i : (axis == 1 ? j : k);
    int cm = ca > 0 ? LQ_MAC_CELL(im, jm, km, nx, ny) : -1;
    int cp = ca < na ? LQ_MAC_CELL(i, j, k, nx, ny) : -1;
    if ((cm >= 0 && lq_poisson_solid(phi, sdf, has_sdf, cm)) ||
        (cp >= 0 && lq_poisson_solid(phi, sdf, has_sdf, cp)))
        return;
    int lm = cm >= 0 && phi[cm] <= 0.0f, lp = cp >= 0 && phi[cp] <= 0.0f;
    if (!lm && !lp) return;
    float pm, pp;
    if (cm < 0 || cp < 0) {
        if (!wall_dirichlet) return;
        float pin = cm < 0 ? p[cp] : p[cm];
        pm = cm < 0 ? -pin : pin;
        pp = cm < 0 ? pin : -pin;
    } else if (lm && lp) {
        pm = p[cm];
        pp = p[cp];
    } else if (lm) {
        pm = p[cm];
        pp = pm * (1.0f - 1.0f / lq_poisson_theta(phi[cm], phi[cp], ghost, theta_min));
    } else {
        pp = p[cp];
        pm = pp * (1.0f - 1.0f / lq_poisson_theta(phi[cp], phi[cm], ghost, theta_min));
    }
    u[f] = u[f] - dt_h * (pp - pm);
}

/* lq_poisson_project_face at the faces unknown cell (i, j, k) owns: its −x −y −z faces, and
 * each + face whose far cell is no unknown (or beyond the edge). Every face the
 * projection changes has an unknown beside it (a liquid cell with an open face, or with a
 * Dirichlet wall, has an equation), and each such face has one owner; so a pass over the
 * unknown list (the last build's, from the same φ, sdf and params) changes what the pass
 * over every face changes, bit for bit. */
LQ_INLINE void lq_poisson_project_cell(LQ_GLOBAL float *u, LQ_GLOBAL float *v, LQ_GLOBAL float *w,
                                       LQ_GLOBAL const unsigned char *mask, int i, int j, int k,
                                       int nx, int ny, int nz, LQ_GLOBAL const float *p,
                                       LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                       int has_sdf, int wall_dirichlet, int ghost, float theta_min,
                                       float dt_h)
{
    for (int axis = 0; axis < (nz > 1 ? 3 : 2); axis++) {
        LQ_GLOBAL float *f = axis == 0 ? u : (axis == 1 ? v : w);
        lq_poisson_project_face(f, axis, i, j, k, nx, ny, nz, p, phi, sdf, has_sdf, wall_dirichlet,
                                ghost, theta_min, dt_h);
        int q = lq_poisson_neighbour(i, j, k, 2 * axis + 1, nx, ny, nz);
        if (q < 0 || !(mask[q] & LQ_POISSON_UNKNOWN))
            lq_poisson_project_face(f, axis, i + (axis == 0), j + (axis == 1), k + (axis == 2), nx,
                                    ny, nz, p, phi, sdf, has_sdf, wall_dirichlet, ghost, theta_min,
                                    dt_h);
    }
}

/* b = −(h/dt) Σ (u_+ − u_−) on the unknowns, 0 elsewhere; rhs_scale = −h/dt. */
LQ_INLINE void lq_poisson_rhs_cell(LQ_GLOBAL const float *u, LQ_GLOBAL const float *v,
                                   LQ_GLOBAL const float *w, LQ_GLOBAL const unsigned char *mask,
                                   LQ_GLOBAL float *b, float rhs_scale, int i, int j, int k, int nx,
                                   int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (!(mask[c] & LQ_POISSON_UNKNOWN)) {
        b[c] = 0.0f;
        return;
    }
    float s = (u[LQ_MAC_U(i + 1, j, k, nx, ny)] - u[LQ_MAC_U(i, j, k, nx, ny)]) +
              (v[LQ_MAC_V(i, j + 1, k, nx, ny)] - v[LQ_MAC_V(i, j, k, nx, ny)]);
    if (nz > 1) s = s + (w[LQ_MAC_W(i, j, k + 1, nx, ny)] - w[LQ_MAC_W(i, j, k, nx, ny)]);
    b[c] = rhs_scale * s;
}

/* --- multigrid preconditioner ---------------------------------------------------------
 * Levels l = 0 (the system) … L: each coarse cell has the fine cells 2I, 2I+1 per axis
 * (z stays 1 in 2D), dims ceil(n/2). Cell state: LQ_POISSON_ST_UNKNOWN, LQ_POISSON_ST_AIR, or 0
 * (solid, or no equation), and on coarse levels a φ, the mean of the children's
 * (lq_poisson_coarsen_cell). The coarse system is rediscretised from them (scaling
 * −(2^l h)²∇²): unknown neighbours couple, an air neighbour is a ghost-fluid term from the
 * coarse φ (the surface where the fine level has it), the domain edge as
 * on level 0. Prolongation P is trilinear (weights ¾, ¼ per axis toward the child's side,
 * coarse values 0 off the unknowns, the parent's whole weight where the side's coarse cell
 * lies beyond the domain edge); restriction is (4/2^dim) Pᵀ, so with red-black
 * Gauss–Seidel pre-smoothing (red, black) mirrored by post-smoothing (black, red) the
 * V-cycle is a symmetric preconditioner. */
#define LQ_POISSON_ST_AIR     1
#define LQ_POISSON_ST_UNKNOWN 2

#define LQ_POISSON_MG_SMOOTH  2   /* red-black Gauss–Seidel sweeps before and after each level */
#define LQ_POISSON_MG_COARSE  16  /* sweeps (and as many mirrored) on the coarsest level */
#define LQ_POISSON_TAIL       6   /* most levels of the one-work-group tail (poisson_mg_tail) */
#define LQ_POISSON_TAIL_GROUP 256 /* its work-group */

LQ_INLINE void lq_poisson_state_cell(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                     int has_sdf, LQ_GLOBAL const unsigned char *mask,
                                     LQ_GLOBAL unsigned char *state, int c)
{
    unsigned char s = 0;
    if (mask[c] & LQ_POISSON_UNKNOWN)
        s = LQ_POISSON_ST_UNKNOWN;
    else if (phi[c] > 0.0f && !lq_poisson_solid(phi, sdf, has_sdf, c))
        s = LQ_POISSON_ST_AIR;
    state[c] = s;
}

/* Level 0's state from cell kinds (lq_poisson_setup_kind_cell): an open cell that is not
 * FULL holds δp = 0, the air of the coarse levels. */
LQ_INLINE void lq_poisson_state_kind_cell(LQ_GLOBAL const unsigned char *flags,
                                          LQ_GLOBAL const unsigned char *mask,
                                          LQ_GLOBAL unsigned char *state, int c)
{
    unsigned char s = 0;
    if (mask[c] & LQ_POISSON_UNKNOWN)
        s = LQ_POISSON_ST_UNKNOWN;
    else if (flags[c] != LQ_MAC_FULL && lq_poisson_kind_open(flags[c]))
        s = LQ_POISSON_ST_AIR;
    state[c] = s;
}

/* A coarse cell from its children (those with a state: solid cells and cells with no
 * equation have none and are left out): its φ is the children's mean (the trilinear value
 * at its centre where φ is a distance), and it is an unknown where that mean is ≤ 0 and a
 * child is one, air where it has children otherwise, 0 (solid) where it has none. So the
 * coarse levels see the surface where the fine one does, at sub-cell position (the
 * ghost-fluid weights of lq_poisson_coarse_system_cell), instead of a liquid cell wherever
 * any child is liquid with p = 0 only at the next air cell's centre: that put each coarse
 * level's surface up to 1½ of its cells into the air, thickened thin sheets and films
 * into liquid they are not, and the V-cycle's iterations grew with the grid (issue 20
 * item 2). A sheet thinner than a coarse cell drops out of that level: its error, held
 * by p = 0 on both sides, is local and the smoother's. from_state: level 0's φ from its
 * states alone (the cell-kind system of `mac`, where p = 0 at the air cell's centre): −¾
 * for an unknown, +¼ for air, which puts level 1's surface of a flat level-0 surface
 * where level 0 has it (θ = ¾); else fphi is level 0's φ (a level-0 fine) or the finer
 * level's mean. */
LQ_INLINE void lq_poisson_coarsen_cell(LQ_GLOBAL const unsigned char *fine,
                                       LQ_GLOBAL const float *fphi, int from_state, int fnx,
                                       int fny, int fnz, LQ_GLOBAL unsigned char *coarse,
                                       LQ_GLOBAL float *cphi, int i, int j, int k, int cnx, int cny)
{
    int n = 0, unknown = 0;
    float s = 0.0f;
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 2; b++)
            for (int a = 0; a < 2; a++) {
                int fi = 2 * i + a, fj = 2 * j + b, fk = 2 * k + c;
                if (fi >= fnx || fj >= fny || fk >= fnz) continue;
                int f = LQ_MAC_CELL(fi, fj, fk, fnx, fny);
                unsigned char t = fine[f];
                if (!t) continue;
                n++;
                unknown |= t == LQ_POISSON_ST_UNKNOWN;
                s = s + (from_state ? (t == LQ_POISSON_ST_UNKNOWN ? -0.75f : 0.25f) : fphi[f]);
            }
    int cc = LQ_MAC_CELL(i, j, k, cnx, cny);
    float mean = n ? s / (float)n : 0.0f;
    coarse[cc] = !n ? 0 : (unknown && mean <= 0.0f ? LQ_POISSON_ST_UNKNOWN : LQ_POISSON_ST_AIR);
    cphi[cc] = mean;
}

/* The coarse system from the states and φ of lq_poisson_coarsen_cell (scaling
 * −(2^l h)²∇²): unknown neighbours couple; an air neighbour is the ghost-fluid term 1/θ,
 * θ = φ_c/(φ_c − φ_n) clamped to [θ_min, 1] as on level 0 (a child's φ ≤ 0 in an air
 * coarse cell, or a NaN, clamps); the domain edge as on level 0. */
LQ_INLINE void lq_poisson_coarse_system_cell(LQ_GLOBAL const unsigned char *state,
                                             LQ_GLOBAL const float *phi, float theta_min,
                                             int wall_dirichlet, int dim3, int i, int j, int k,
                                             int nx, int ny, int nz, LQ_GLOBAL unsigned char *mask,
                                             LQ_GLOBAL float *diag)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    unsigned int m = 0;
    float d = 0.0f;
    if (state[c] == LQ_POISSON_ST_UNKNOWN) {
        for (int n = 0; n < (dim3 ? 6 : 4); n++) {
            int q = lq_poisson_neighbour(i, j, k, n, nx, ny, nz);
            if (q < 0) {
                if (wall_dirichlet) {
                    d = d + 2.0f;
                    m |= LQ_POISSON_DIRICHLET;
                }
            } else if (state[q] == LQ_POISSON_ST_UNKNOWN) {
                d = d + 1.0f;
                m |= 1u << n;
            } else if (state[q] == LQ_POISSON_ST_AIR) {
                d = d + 1.0f / lq_poisson_theta(phi[c], phi[q], 1, theta_min);
                m |= LQ_POISSON_DIRICHLET;
            }
        }
        if (d > 0.0f) m |= LQ_POISSON_UNKNOWN;
    }
    mask[c] = (unsigned char)m;
    diag[c] = m & LQ_POISSON_UNKNOWN ? d : 0.0f;
}

/* The restriction's weight on the axis of fine cell 2I + d (d = −1 … 2) for coarse cell I
 * of n: ¼ ¾ ¾ ¼, the transpose of lq_poisson_prolong_cell's (a fine cell whose coarse
 * neighbour lies beyond the domain edge gives its parent the whole weight, 1). */
LQ_INLINE float lq_poisson_restrict_weight(int d, int I, int n)
{
    if (d == 0) return I == 0 ? 1.0f : 0.75f;
    if (d == 1) return I + 1 >= n ? 1.0f : 0.75f;
    return 0.25f;
}

/* b_coarse = scale Σ w r_fine over fine cells 2I−1 … 2I+2 per axis (w ¼ ¾ ¾ ¼, 1 at the
 * edge: lq_poisson_restrict_weight). */
LQ_INLINE void lq_poisson_restrict_cell(LQ_GLOBAL const float *r, int fnx, int fny, int fnz,
                                        LQ_GLOBAL const unsigned char *cmask, LQ_GLOBAL float *b,
                                        float scale, int dim3, int i, int j, int k, int cnx,
                                        int cny, int cnz)
{
    int c = LQ_MAC_CELL(i, j, k, cnx, cny);
    if (!(cmask[c] & LQ_POISSON_UNKNOWN)) {
        b[c] = 0.0f;
        return;
    }
    float s = 0.0f;
    int zlo = dim3 ? -1 : 0, zhi = dim3 ? 2 : 0;
    for (int dc = zlo; dc <= zhi; dc++) {
        int fk = 2 * k + dc;
        if (fk < 0 || fk >= fnz) continue;
        float wz = !dim3 ? 1.0f : lq_poisson_restrict_weight(dc, k, cnz);
        for (int db = -1; db <= 2; db++) {
            int fj = 2 * j + db;
            if (fj < 0 || fj >= fny) continue;
            float wy = lq_poisson_restrict_weight(db, j, cny);
            for (int da = -1; da <= 2; da++) {
                int fi = 2 * i + da;
                if (fi < 0 || fi >= fnx) continue;
                float wx = lq_poisson_restrict_weight(da, i, cnx);
                s = s + (wx * wy * wz) * r[LQ_MAC_CELL(fi, fj, fk, fnx, fny)];
            }
        }
    }
    b[c] = scale * s;
}

/* x_fine += P e_coarse on the fine unknowns (trilinear; at the domain edge the parent's
 * value continues to the wall: with weights ¾ ¼ and 0 beyond the edge, a fine cell at a
 * wall got ¾ of the correction per axis, a corner 27/64, as if the wall held p = 0, and
 * the pool on the floor of a tank took most of it). */
LQ_INLINE void lq_poisson_prolong_cell(LQ_GLOBAL const float *e, int cnx, int cny, int cnz,
                                       LQ_GLOBAL const unsigned char *fmask, LQ_GLOBAL float *x,
                                       int dim3, int i, int j, int k, int fnx, int fny)
{
    int f = LQ_MAC_CELL(i, j, k, fnx, fny);
    if (!(fmask[f] & LQ_POISSON_UNKNOWN)) return;
    int ci = i >> 1, cj = j >> 1, ck = k >> 1;
    int si = (i & 1) ? 1 : -1, sj = (j & 1) ? 1 : -1, sk = (k & 1) ? 1 : -1;
    float s = 0.0f;
    /* at the domain edge the parent takes the whole weight (Neumann: the coarse value
     * mirrored across the wall, not 0 beyond it) */
    int ez = ck + sk < 0 || ck + sk >= cnz, ey = cj + sj < 0 || cj + sj >= cny;
    int ex = ci + si < 0 || ci + si >= cnx;
    for (int c = 0; c < (dim3 && !ez ? 2 : 1); c++) {
        int kk = ck + c * sk;
        float wz = dim3 && !ez ? (c ? 0.25f : 0.75f) : 1.0f;
        for (int b = 0; b < (ey ? 1 : 2); b++) {
            int jj = cj + b * sj;
            float wy = ey ? 1.0f : (b ? 0.25f : 0.75f);
            for (int a = 0; a < (ex ? 1 : 2); a++) {
                int ii = ci + a * si;
                float wx = ex ? 1.0f : (a ? 0.25f : 0.75f);
                s = s + (wx * wy * wz) * e[LQ_MAC_CELL(ii, jj, kk, cnx, cny)];
            }
        }
    }
    x[f] = x[f] + s;
}

#endif
