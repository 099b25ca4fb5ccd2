/*
 * extrap_cell.h — per-face and per-cell math of velocity extrapolation for the `pls`
 * solver (Rasmussen et al. 2004 §3, §5.2, §5.5.1; the layer-by-layer averaging of
 * Enright, Marschner & Fedkiw 2002), shared by the kernels (kernels/pls/extrap.cl) and the
 * reference twins (host/ops/pls/extrap_ref.c).
 *
 * Grid: mac_grid.h indexing, uniform cell size h, no wall layer. Component c = 0, 1, 2
 * is u, v, w; its array has (nx + [c=0]) × (ny + [c=1]) × (nz + [c=2]) faces. The face
 * (i, j, k) of component c lies between cell a = (i, j, k) − e_c and cell b = (i, j, k).
 * A face with index 0 or n_c along c is on the domain edge (a wall): it is never
 * written and never read as a source here (it keeps the caller's wall value).
 *
 * Face kinds (a pure function of φ and the object sdf, so every pass can recompute it):
 *  - solid:  the object sdf interpolated to the face is negative, sdf_a + sdf_b < 0 (with
 *            prm.closed: an object cell on either side, sdf_a ≤ 0 or sdf_b ≤ 0, so the
 *            faces the object condition sets are extrapolated from the liquid alone);
 *  - liquid: not on the edge, not solid, and φ_a ≤ 0 or φ_b ≤ 0 (liquid on either side);
 *  - fixed:  on the edge, liquid or solid. Extrapolation and the projection of §5.2
 *            never change a fixed face except that extrapolation fills solid faces.
 *            With prm.closed the §5.2 projection takes the closed faces as open, p = 0 in
 *            the object cell (the caller sets them again by §5.5.1 afterwards): fixed, an
 *            air pocket on a resting ball under a falling sheet (its faces liquid or
 *            closed) was a band island with no p = 0 cell, an inconsistent Neumann system
 *            whose SOR drifted to 14 m/s at the face between its two cells (32³ pour
 *            over a ball; 46 m/s in scenes/pls_pour_over_rock.yaml).
 *
 * Extrapolation (§3, after [EMF02]; §5.5.1 "extrapolate ... into the object"): the
 * valid mask starts as the liquid faces; each layer, a face that is not valid becomes
 * the mean of its valid same-component neighbours (±x, ±y, ±z, summed in that order,
 * times a literal reciprocal of the count) and valid (one mask per component, in place:
 * see "extrapolation by fronts" below); a layer writes velocity only at faces not valid
 * before it, which no other face of the layer reads, so it runs race-free.
 *
 * Divergence-free extrapolation (§5.2, after [Sus03]): after extrapolating, "project
 * out any non-divergence free component of the extrapolated velocity field ... the same
 * as for the liquid velocities. A constant pressure boundary condition is maintained
 * in the air outside the extrapolated velocity region and a fixed velocity boundary
 * condition is applied to the liquid." Discretely: the unknowns are the band cells, air
 * cells (φ > 0, not solid) all of whose faces are valid or on the edge, except that a
 * cell beside the domain edge is one only with a liquid cell (φ ≤ 0) within two cells
 * (|Δi| + |Δj| + |Δk| ≤ 2); p = 0 in every other non-liquid cell (Dirichlet); fixed faces
 * are Neumann (not corrected). The edge rule keeps "the air outside" at constant pressure
 * where the band reaches the walls: a band filling the air up to a lid had no p = 0 cell
 * at all, and its solve returned a closed box's air flow, whose vertical velocity falls
 * towards the lid; the φ advection above the surface read it, and a standing wave 4 cells
 * below the lid ran 6 % slow (0.7 % with the rule). Near the liquid the walls stay
 * Neumann (a sheet running up a wall keeps its extrapolated velocity ahead of it). With the
 * discrete divergence D_c = Σ_c (u_{+} − u_{−}) (m/s, h cancels) of eq. 1 and the face
 * update u_f ← u_f − (p_b − p_a) (p in m/s: pressure × δt/(ρ h)), ∇·u = 0 in a band cell
 * is  m_c p_c − Σ_{n free} p_n = −D_c, m_c the number of its non-fixed faces; solved by
 * red-black SOR (one colour's cells share no face: order-free, bit for bit).
 * Sealed pockets: the solve runs only in band cells joined through open faces to a p = 0
 * cell (bit 7, lq_extrap_reach_bits). A component of band cells whose every other face is
 * fixed (air caught between liquid and walls, e.g. two cells 0.1 h outside a film the
 * dam break's front pushes into a corner) is a pure Neumann system; the liquid faces'
 * net inflow (9.9 m/s there) makes it incompatible, so SOR diverged (p 3282 m/s after
 * 60 sweeps, residual 33) and the face between the two cells got 26.8 m/s, 7× the
 * liquid's. Such a pocket has no divergence-free field: it keeps the plain extrapolated
 * velocity (p = 0 in its cells, so no face of it is corrected).
 *
 * Object velocity (§5.5.1, after [HBW03]), at the closed faces (an object cell, sdf ≤ 0,
 * on either side: the faces host/ops/pls/poisson.c treats as Neumann, whose velocity is then the
 * wall's flux in the projection's right-hand side), with N = ∇sdf/|∇sdf| (outward), uext
 * the extrapolated velocity and uobj the object's (a constant, or per-face fields of a
 * rigid motion; own component at the face, the others the mean of the 4 surrounding
 * faces): ucomb = (1 − α) uext + α uobj; ufix = ucomb − (ucomb·N) N + u⊥ N, u⊥ = uobj·N
 * when (uext − uobj)·N < 0 (flow into the object) or always (`hold`: no separation in
 * the velocity), else uext·N; the face keeps ufix's own component. With use_phi (moving
 * objects with §5.5.2 separation) the normal part is the object's also at every face
 * with an object cell still liquid (φ ≤ 0) on either side (lq_extrap_held): host/ops/pls/poisson.c
 * keeps those faces closed, and a closed face's velocity is a fixed flux into the
 * liquid, so the inequality there made the object a volume source (a ball in a closed
 * tank gained 50 % in 20 frames with it); the inequality acts only beside object cells
 * the liquid has left (φ > 0), which the projection treats as air (poisson_cell.h
 * LQ_POISSON_OBJECT_AIR), their faces open. At a boundary face (an object cell on one side
 * only, the projection's wall) N is the face's own axis: the face keeps uobj's own
 * component, or uext's where the inequality allows (not held, flow out of the object).
 * The blended ufix's own component there (its tangential slip across a staircase face)
 * was a fixed flux: with a ball at rest under a falling column 100-240 face·m/s in and
 * out of the liquid per step, a net sink (−6 % in 20 frames) that carried the sheet
 * round to the underside. Friction acts through the faces inside the objects.
 *
 * Invariants: plain float arithmetic in a fixed order, contraction off, no division
 * (literal reciprocals) except 1/sqrt in the object normal (correctly rounded on both
 * sides: PoCL builds with -cl-fp32-correctly-rounded-divide-sqrt).
 */
#ifndef LQ_EXTRAP_CELL_H
#define LQ_EXTRAP_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"

#ifdef __OPENCL_VERSION__
typedef uchar lq_extrap_u8;
#else
typedef unsigned char lq_extrap_u8;
#endif

/* Extent of component c's face array. */
LQ_INLINE void lq_extrap_dims(int c, int nx, int ny, int nz, int *ax, int *ay, int *az)
{
    *ax = nx + (c == 0);
    *ay = ny + (c == 1);
    *az = nz + (c == 2);
}

LQ_INLINE int lq_extrap_face_index(int c, int i, int j, int k, int nx, int ny, int nz)
{
    int ax, ay, az;
    lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
    (void)az;
    return i + ax * (j + ay * k);
}

/* On the domain edge along its own axis. */
LQ_INLINE int lq_extrap_edge(int c, int i, int j, int k, int nx, int ny, int nz)
{
    if (c == 0) return i == 0 || i == nx;
    if (c == 1) return j == 0 || j == ny;
    return k == 0 || k == nz;
}

/* The two cells beside an interior face (a below, b above along c). */
LQ_INLINE void lq_extrap_cells(int c, int i, int j, int k, int nx, int ny, int *a, int *b)
{
    *b = LQ_MAC_CELL(i, j, k, nx, ny);
    *a = *b - (c == 0 ? 1 : c == 1 ? nx : nx * ny);
}

/* use_sdf 0: no objects; 1: solid when sdf_a + sdf_b < 0; 2: closed (an object cell on
 * either side, the faces of host/ops/pls/poisson.c's Neumann condition) */
LQ_INLINE int lq_extrap_solid(LQ_GLOBAL const float *sdf, int use_sdf, int a, int b)
{
    if (use_sdf == 2) return sdf[a] <= 0.0f || sdf[b] <= 0.0f;
    return use_sdf && sdf[a] + sdf[b] < 0.0f;
}

/* The face kinds of the header comment; an edge face is neither liquid nor solid. */
LQ_INLINE int lq_extrap_liquid(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf, int use_sdf,
                               int c, int i, int j, int k, int nx, int ny, int nz)
{
    if (lq_extrap_edge(c, i, j, k, nx, ny, nz)) return 0;
    int a, b;
    lq_extrap_cells(c, i, j, k, nx, ny, &a, &b);
    if (lq_extrap_solid(sdf, use_sdf, a, b)) return 0;
    return phi[a] <= 0.0f || phi[b] <= 0.0f;
}

LQ_INLINE int lq_extrap_fixed(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf, int use_sdf,
                              int c, int i, int j, int k, int nx, int ny, int nz)
{
    if (lq_extrap_edge(c, i, j, k, nx, ny, nz)) return 1;
    int a, b;
    lq_extrap_cells(c, i, j, k, nx, ny, &a, &b);
    /* closed (use_sdf 2): an object face is open, the object cell p = 0 (lq_ex_object_open) */
    if (use_sdf == 2 && lq_extrap_solid(sdf, use_sdf, a, b)) return 0;
    if (lq_extrap_solid(sdf, use_sdf, a, b)) return 1;
    return phi[a] <= 0.0f || phi[b] <= 0.0f;
}

/* --- extrapolation ------------------------------------------------------------------ */

LQ_INLINE void lq_extrap_init_face(LQ_GLOBAL lq_extrap_u8 *valid, LQ_GLOBAL const float *phi,
                                   LQ_GLOBAL const float *sdf, int use_sdf, int c, int i, int j,
                                   int k, int nx, int ny, int nz)
{
    int f = lq_extrap_face_index(c, i, j, k, nx, ny, nz);
    valid[f] = (lq_extrap_u8)lq_extrap_liquid(phi, sdf, use_sdf, c, i, j, k, nx, ny, nz);
}

/* --- extrapolation by fronts ---------------------------------------------------------
 * The layers above, with one mask per component in place of the ping-pong: lev[f] = 0 not
 * valid, 1 liquid (lq_extrap_init_face), l + 2 valid since layer l. Layer l sets every face
 * that is not valid and not on the edge and has a neighbour with 1 ≤ lev ≤ l + 1 (valid
 * before the layer) to the mean of those, lev = l + 2 (the ping-pong masks of before, with
 * the same sums in the same order: the same values bit for bit). In place and race-free: a face the
 * layer sets is never a source of the layer (lev 0 before, l + 2 after). The twins run
 * lq_extrap_layer_lev over every face; the kernels only over the layer's front, the faces it
 * sets: front 0 the faces with a liquid neighbour (lq_extrap_seed_face), front l + 1 the
 * faces not valid, not on the edge, beside a face of front l (lq_extrap_expand_face; each
 * face added once, by its first such neighbour in the order −x +x −y +y −z +z). A face
 * joins the front of the layer that sets it (a face beside an older valid face was set
 * by an earlier layer), so the fronts are exactly the faces the layers set. */
LQ_INLINE int lq_extrap_lev_src(unsigned int v, int l)
{
    return v != 0 && v <= (unsigned int)(l + 1);
}

LQ_INLINE void lq_extrap_layer_lev(LQ_GLOBAL float *vel, LQ_GLOBAL lq_extrap_u8 *lev, int c, int i,
                                   int j, int k, int nx, int ny, int nz, int l)
{
    int ax, ay, az;
    lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
    int f = i + ax * (j + ay * k), sy = ax, sz = ax * ay;
    if (lev[f] || lq_extrap_edge(c, i, j, k, nx, ny, nz)) return;
    float s = 0.0f;
    int n = 0;
#define LQ_EXTRAP_SRC(cond, off)                                                                   \
    if ((cond) && lq_extrap_lev_src(lev[f + (off)], l)) {                                          \
        s = s + vel[f + (off)];                                                                    \
        n++;                                                                                       \
    }
    LQ_EXTRAP_SRC(i > 0, -1)
    LQ_EXTRAP_SRC(i < ax - 1, 1)
    LQ_EXTRAP_SRC(j > 0, -sy)
    LQ_EXTRAP_SRC(j < ay - 1, sy)
    LQ_EXTRAP_SRC(k > 0, -sz)
    LQ_EXTRAP_SRC(k < az - 1, sz)
#undef LQ_EXTRAP_SRC
    if (n > 0) {
        vel[f] = s * lq_recip6(n);
        lev[f] = (lq_extrap_u8)(l + 2);
    }
}

/* Face f of component c as (i, j, k). */
LQ_INLINE void lq_extrap_face_ijk(int c, int f, int nx, int ny, int nz, int *i, int *j, int *k)
{
    int ax, ay, az;
    lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
    (void)az;
    *i = f % ax;
    *j = (f / ax) % ay;
    *k = f / (ax * ay);
}

/* Front 0: not valid, not on the edge, a liquid (lev 1) neighbour. */
LQ_INLINE int lq_extrap_seed_face(LQ_GLOBAL const lq_extrap_u8 *lev, int c, int i, int j, int k,
                                  int nx, int ny, int nz)
{
    int ax, ay, az;
    lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
    int f = i + ax * (j + ay * k), sy = ax, sz = ax * ay;
    if (lev[f] || lq_extrap_edge(c, i, j, k, nx, ny, nz)) return 0;
    return (i > 0 && lev[f - 1] == 1) || (i < ax - 1 && lev[f + 1] == 1) ||
           (j > 0 && lev[f - sy] == 1) || (j < ay - 1 && lev[f + sy] == 1) ||
           (k > 0 && lev[f - sz] == 1) || (k < az - 1 && lev[f + sz] == 1);
}

/* Offset of neighbour n (0..5: −x +x −y +y −z +z) of face (i, j, k) on an ax × ay × az
 * lattice, or 0 beyond it. */
LQ_INLINE int lq_extrap_nb_off(int n, int i, int j, int k, int ax, int ay, int az)
{
    if (n == 0) return i > 0 ? -1 : 0;
    if (n == 1) return i < ax - 1 ? 1 : 0;
    if (n == 2) return j > 0 ? -ax : 0;
    if (n == 3) return j < ay - 1 ? ax : 0;
    if (n == 4) return k > 0 ? -ax * ay : 0;
    return k < az - 1 ? ax * ay : 0;
}

/* Neighbour n of face f (set by layer l) as a face of front l + 1 that f adds (its first
 * neighbour with lev l + 2 is f): the face index, or −1. */
LQ_INLINE int lq_extrap_expand_face(LQ_GLOBAL const lq_extrap_u8 *lev, int c, int f, int n, int nx,
                                    int ny, int nz, int l)
{
    int ax, ay, az, i, j, k;
    lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
    lq_extrap_face_ijk(c, f, nx, ny, nz, &i, &j, &k);
    int off = lq_extrap_nb_off(n, i, j, k, ax, ay, az);
    if (!off) return -1;
    int g = f + off;
    int gi = i + (n == 0 ? -1 : n == 1), gj = j + (n == 2 ? -1 : n == 3),
        gk = k + (n == 4 ? -1 : n == 5);
    if (lev[g] || lq_extrap_edge(c, gi, gj, gk, nx, ny, nz)) return -1;
    for (int m = 0; m < 6; m++) {
        int o = lq_extrap_nb_off(m, gi, gj, gk, ax, ay, az);
        if (o && lev[g + o] == (lq_extrap_u8)(l + 2)) return g + o == f ? g : -1;
    }
    return -1;
}

/* --- divergence-free extrapolation (§5.2) --------------------------------------------- */

/* Is face (c; i, j, k) valid in the final mask or on the edge? */
LQ_INLINE int lq_extrap_known(LQ_GLOBAL const lq_extrap_u8 *valid, int c, int i, int j, int k,
                              int nx, int ny, int nz)
{
    return lq_extrap_edge(c, i, j, k, nx, ny, nz) ||
           valid[lq_extrap_face_index(c, i, j, k, nx, ny, nz)];
}

/* Marks band cells (nonzero: bit 0 and the non-fixed faces' bits, see below), sets
 * rhs = −D_c there (0 elsewhere) and p = 0. */
LQ_INLINE void lq_extrap_band_cell(LQ_GLOBAL lq_extrap_u8 *band, LQ_GLOBAL float *rhs,
                                   LQ_GLOBAL float *p, LQ_GLOBAL const float *u,
                                   LQ_GLOBAL const float *v, LQ_GLOBAL const float *w,
                                   LQ_GLOBAL const lq_extrap_u8 *vu,
                                   LQ_GLOBAL const lq_extrap_u8 *vv,
                                   LQ_GLOBAL const lq_extrap_u8 *vw, LQ_GLOBAL const float *phi,
                                   LQ_GLOBAL const float *sdf, int use_sdf, int i, int j, int k,
                                   int nx, int ny, int nz)
{
    int cell = LQ_MAC_CELL(i, j, k, nx, ny);
    p[cell] = 0.0f;
    rhs[cell] = 0.0f;
    int in = phi[cell] > 0.0f && !(use_sdf && sdf[cell] < 0.0f);
    in = in && lq_extrap_known(vu, 0, i, j, k, nx, ny, nz) &&
         lq_extrap_known(vu, 0, i + 1, j, k, nx, ny, nz);
    in = in && lq_extrap_known(vv, 1, i, j, k, nx, ny, nz) &&
         lq_extrap_known(vv, 1, i, j + 1, k, nx, ny, nz);
    in = in && lq_extrap_known(vw, 2, i, j, k, nx, ny, nz) &&
         lq_extrap_known(vw, 2, i, j, k + 1, nx, ny, nz);
    if (in && (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || /* the edge rule */
               (nz > 1 && (k == 0 || k == nz - 1)))) {
        int wet = 0;
        for (int dk = -2; dk <= 2; dk++)
            for (int dj = -2; dj <= 2; dj++)
                for (int di = -2; di <= 2; di++) {
                    int a = i + di, b = j + dj, c = k + dk;
                    int d = (di < 0 ? -di : di) + (dj < 0 ? -dj : dj) + (dk < 0 ? -dk : dk);
                    if (d > 2 || a < 0 || a >= nx || b < 0 || b >= ny || c < 0 || c >= nz) continue;
                    wet = wet || phi[LQ_MAC_CELL(a, b, c, nx, ny)] <= 0.0f;
                }
        in = wet;
    }
    if (in) { /* bit 0: an unknown; bits 1–6: its non-fixed faces −x +x −y +y −z +z */
        in |= !lq_extrap_fixed(phi, sdf, use_sdf, 0, i, j, k, nx, ny, nz) << 1;
        in |= !lq_extrap_fixed(phi, sdf, use_sdf, 0, i + 1, j, k, nx, ny, nz) << 2;
        in |= !lq_extrap_fixed(phi, sdf, use_sdf, 1, i, j, k, nx, ny, nz) << 3;
        in |= !lq_extrap_fixed(phi, sdf, use_sdf, 1, i, j + 1, k, nx, ny, nz) << 4;
        in |= !lq_extrap_fixed(phi, sdf, use_sdf, 2, i, j, k, nx, ny, nz) << 5;
        in |= !lq_extrap_fixed(phi, sdf, use_sdf, 2, i, j, k + 1, nx, ny, nz) << 6;
    }
    band[cell] = (lq_extrap_u8)in;
    if (!in) return;
    float d = u[LQ_MAC_U(i + 1, j, k, nx, ny)] - u[LQ_MAC_U(i, j, k, nx, ny)];
    d = d + (v[LQ_MAC_V(i, j + 1, k, nx, ny)] - v[LQ_MAC_V(i, j, k, nx, ny)]);
    if (nz > 1) d = d + (w[LQ_MAC_W(i, j, k + 1, nx, ny)] - w[LQ_MAC_W(i, j, k, nx, ny)]);
    rhs[cell] = -d;
}

/* Bit 7 of a band cell: joined to a p = 0 cell through open (non-fixed) faces. One
 * update of band cell `cell` (its open faces from bits 1-6): set when an open face leads
 * to a cell outside the band (p = 0) or to a band cell with bit 7. Run by colour ((i + j
 * + k) & 1; a face joins cells of opposite colours, so a colour's updates read only the
 * other colour: order-free, bit for bit) until a round sets none. Returns 1 when set. */
LQ_INLINE int lq_extrap_reach_bits(LQ_GLOBAL lq_extrap_u8 *band, int cell, int nx, int ny)
{
    int bits = band[cell], sy = nx, sz = nx * ny, r = 0;
    if (!bits || (bits & 0x80)) return 0;
#define LQ_EXTRAP_RCH(bit, off)                                                                    \
    if (bits & (1 << (bit))) r = r || !band[cell + (off)] || (band[cell + (off)] & 0x80);
    LQ_EXTRAP_RCH(1, -1)
    LQ_EXTRAP_RCH(2, 1)
    LQ_EXTRAP_RCH(3, -sy)
    LQ_EXTRAP_RCH(4, sy)
    LQ_EXTRAP_RCH(5, -sz)
    LQ_EXTRAP_RCH(6, sz)
#undef LQ_EXTRAP_RCH
    if (r) band[cell] = (lq_extrap_u8)(bits | 0x80);
    return r;
}

/* One red-black SOR update of band cell (i, j, k) when (i + j + k) & 1 == colour and it
 * reaches p = 0 (bit 7). The neighbour across face (c, fi, fj, fk) counts when the face
 * is not fixed. */
LQ_INLINE void lq_extrap_sor_cell(LQ_GLOBAL float *p, LQ_GLOBAL const lq_extrap_u8 *band,
                                  LQ_GLOBAL const float *rhs, LQ_GLOBAL const float *phi,
                                  LQ_GLOBAL const float *sdf, int use_sdf, int colour, float omega,
                                  int i, int j, int k, int nx, int ny, int nz)
{
    if (((i + j + k) & 1) != colour) return;
    int cell = LQ_MAC_CELL(i, j, k, nx, ny);
    if (!(band[cell] & 0x80)) return; /* not a band cell, or a sealed pocket's */
    float s = 0.0f;
    int m = 0, sy = nx, sz = nx * ny;
#define LQ_EXTRAP_NB(c, fi, fj, fk, off)                                                           \
    if (!lq_extrap_fixed(phi, sdf, use_sdf, c, fi, fj, fk, nx, ny, nz)) {                          \
        m++;                                                                                       \
        if (band[cell + (off)]) s = s + p[cell + (off)];                                           \
    }
    LQ_EXTRAP_NB(0, i, j, k, -1)
    LQ_EXTRAP_NB(0, i + 1, j, k, 1)
    LQ_EXTRAP_NB(1, i, j, k, -sy)
    LQ_EXTRAP_NB(1, i, j + 1, k, sy)
    LQ_EXTRAP_NB(2, i, j, k, -sz)
    LQ_EXTRAP_NB(2, i, j, k + 1, sz)
#undef LQ_EXTRAP_NB
    if (m == 0) return;
    float pn = (s + rhs[cell]) * lq_recip6(m);
    p[cell] = p[cell] + omega * (pn - p[cell]);
}

/* lq_extrap_sor_cell of band cell `cell` from its face bits (lq_extrap_band_cell): the same
 * sums in the same order, without recomputing the face kinds; for the kernels that
 * visit a list of one colour's band cells. */
LQ_INLINE void lq_extrap_sor_bits(LQ_GLOBAL float *p, LQ_GLOBAL const lq_extrap_u8 *band,
                                  LQ_GLOBAL const float *rhs, float omega, int cell, int nx, int ny)
{
    int bits = band[cell], sy = nx, sz = nx * ny, m = 0;
    if (!(bits & 0x80)) return; /* a sealed pocket's cell */
    float s = 0.0f;
#define LQ_EXTRAP_NBB(bit, off)                                                                    \
    if (bits & (1 << (bit))) {                                                                     \
        m++;                                                                                       \
        if (band[cell + (off)]) s = s + p[cell + (off)];                                           \
    }
    LQ_EXTRAP_NBB(1, -1)
    LQ_EXTRAP_NBB(2, 1)
    LQ_EXTRAP_NBB(3, -sy)
    LQ_EXTRAP_NBB(4, sy)
    LQ_EXTRAP_NBB(5, -sz)
    LQ_EXTRAP_NBB(6, sz)
#undef LQ_EXTRAP_NBB
    if (m == 0) return;
    float pn = (s + rhs[cell]) * lq_recip6(m);
    p[cell] = p[cell] + omega * (pn - p[cell]);
}

/* u_f ← u_f − (p_b − p_a) at a non-fixed face beside a band cell (p = 0 outside). */
LQ_INLINE void lq_extrap_correct_face(LQ_GLOBAL float *vel, LQ_GLOBAL const float *p,
                                      LQ_GLOBAL const lq_extrap_u8 *band,
                                      LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                      int use_sdf, int c, int i, int j, int k, int nx, int ny,
                                      int nz)
{
    if (lq_extrap_fixed(phi, sdf, use_sdf, c, i, j, k, nx, ny, nz)) return;
    int a, b;
    lq_extrap_cells(c, i, j, k, nx, ny, &a, &b);
    if (!band[a] && !band[b]) return;
    float pa = band[a] ? p[a] : 0.0f, pb = band[b] ? p[b] : 0.0f;
    int f = lq_extrap_face_index(c, i, j, k, nx, ny, nz);
    vel[f] = vel[f] - (pb - pa);
}

/* --- object velocity (§5.5.1) ------------------------------------------------------- */

/* Mean of the 4 faces of component e around face (c; i, j, k): the faces of the two
 * cells a and b beside it, low and high along e. */
LQ_INLINE float lq_extrap_cross(LQ_GLOBAL const float *vel, int e, int c, int i, int j, int k,
                                int nx, int ny, int nz)
{
    int ai = i - (c == 0), aj = j - (c == 1), ak = k - (c == 2);
    float s = vel[lq_extrap_face_index(e, ai, aj, ak, nx, ny, nz)];
    s = s + vel[lq_extrap_face_index(e, ai + (e == 0), aj + (e == 1), ak + (e == 2), nx, ny, nz)];
    s = s + vel[lq_extrap_face_index(e, i, j, k, nx, ny, nz)];
    s = s + vel[lq_extrap_face_index(e, i + (e == 0), j + (e == 1), k + (e == 2), nx, ny, nz)];
    return 0.25f * s;
}

/* A closed face (an object cell on either side) whose normal velocity is the object's
 * in every case (`held`): with use_phi, one with an object cell still liquid (sdf ≤ 0,
 * φ ≤ 0) on either side (host/ops/pls/poisson.c's Neumann faces with LQ_POISSON_OBJECT_AIR);
 * without, every closed face. */
LQ_INLINE int lq_extrap_held(LQ_GLOBAL const float *sdf, LQ_GLOBAL const float *phi, int use_phi,
                             int a, int b)
{
    if (!use_phi) return sdf[a] <= 0.0f || sdf[b] <= 0.0f;
    return (sdf[a] <= 0.0f && phi[a] <= 0.0f) || (sdf[b] <= 0.0f && phi[b] <= 0.0f);
}

/* out = the face's own component of ufix at solid faces, the input elsewhere. */
LQ_INLINE void lq_extrap_object_face(LQ_GLOBAL float *out, LQ_GLOBAL const float *u,
                                     LQ_GLOBAL const float *v, LQ_GLOBAL const float *w,
                                     LQ_GLOBAL const float *sdf, LQ_GLOBAL const float *phi,
                                     int use_phi, float ox, float oy, float oz,
                                     LQ_GLOBAL const float *uo, LQ_GLOBAL const float *vo,
                                     LQ_GLOBAL const float *wo, int use_ob, int hold, float alpha,
                                     int c, int i, int j, int k, int nx, int ny, int nz)
{
    LQ_GLOBAL const float *own = c == 0 ? u : c == 1 ? v : w;
    int f = lq_extrap_face_index(c, i, j, k, nx, ny, nz);
    float val = own[f];
    out[f] = val;
    if (lq_extrap_edge(c, i, j, k, nx, ny, nz)) return;
    int a, b;
    lq_extrap_cells(c, i, j, k, nx, ny, &a, &b);
    if (!(sdf[a] <= 0.0f || sdf[b] <= 0.0f)) return; /* not a closed face */
    if (!(sdf[a] <= 0.0f && sdf[b] <= 0.0f)) {       /* a boundary face: its own axis is N */
        float obf = !use_ob  ? (c == 0   ? ox
                                : c == 1 ? oy
                                         : oz)
                    : c == 0 ? uo[f]
                    : c == 1 ? vo[f]
                             : wo[f];
        float rel =
            sdf[a] <= 0.0f ? val - obf : obf - val; /* (uext − uobj)·N, N out of the object */
        int held = hold || (use_phi && lq_extrap_held(sdf, phi, 1, a, b));
        out[f] = (held || rel < 0.0f) ? obf : val;
        return;
    }
    int ai = i - (c == 0), aj = j - (c == 1), ak = k - (c == 2);
    float g[3], e[3];
    for (int q = 0; q < 3; q++) {
        if (q == c)
            g[q] = sdf[b] - sdf[a];
        else
            g[q] = 0.5f * (lq_mac_grid_diff(sdf, q, ai, aj, ak, nx, ny, nz) +
                           lq_mac_grid_diff(sdf, q, i, j, k, nx, ny, nz));
    }
    float g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    if (!(g2 > 0.0f)) return;
    float il = 1.0f / LQ_SQRTF(g2);
    float nrm[3] = {g[0] * il, g[1] * il, g[2] * il};
    e[0] = c == 0 ? val : lq_extrap_cross(u, 0, c, i, j, k, nx, ny, nz);
    e[1] = c == 1 ? val : lq_extrap_cross(v, 1, c, i, j, k, nx, ny, nz);
    e[2] = nz < 2 ? 0.0f : c == 2 ? val : lq_extrap_cross(w, 2, c, i, j, k, nx, ny, nz);
    float ob[3] = {ox, oy, oz};
    if (use_ob) { /* a rigid field: the 4-face means are exact (plsobject_cell.h) */
        ob[0] = c == 0 ? uo[f] : lq_extrap_cross(uo, 0, c, i, j, k, nx, ny, nz);
        ob[1] = c == 1 ? vo[f] : lq_extrap_cross(vo, 1, c, i, j, k, nx, ny, nz);
        ob[2] = nz < 2 ? 0.0f : c == 2 ? wo[f] : lq_extrap_cross(wo, 2, c, i, j, k, nx, ny, nz);
    }
    if (nz < 2) ob[2] = 0.0f;
    float cb[3], dn_comb = 0.0f, dn_rel = 0.0f, dn_obj = 0.0f, dn_ext = 0.0f;
    for (int q = 0; q < 3; q++) {
        cb[q] = (1.0f - alpha) * e[q] + alpha * ob[q];
        dn_comb = dn_comb + cb[q] * nrm[q];
        dn_rel = dn_rel + (e[q] - ob[q]) * nrm[q];
        dn_obj = dn_obj + ob[q] * nrm[q];
        dn_ext = dn_ext + e[q] * nrm[q];
    }
    /* with use_phi the inequality only beside object cells the liquid left */
    int held = hold || (use_phi && lq_extrap_held(sdf, phi, 1, a, b));
    float perp = (held || dn_rel < 0.0f) ? dn_obj : dn_ext;
    out[f] = cb[c] - dn_comb * nrm[c] + perp * nrm[c];
}

/* vel = saved at the held faces of component c (lq_extrap_held; the edge excluded): puts
 * back object_bc's result after a pass that changed them (gravity); with use_phi the
 * faces beside object cells the liquid left keep the pass's result. */
LQ_INLINE void lq_extrap_restore_face(LQ_GLOBAL float *vel, LQ_GLOBAL const float *saved,
                                      LQ_GLOBAL const float *sdf, LQ_GLOBAL const float *phi,
                                      int use_phi, int c, int i, int j, int k, int nx, int ny,
                                      int nz)
{
    if (lq_extrap_edge(c, i, j, k, nx, ny, nz)) return;
    int a, b;
    lq_extrap_cells(c, i, j, k, nx, ny, &a, &b);
    if (!lq_extrap_held(sdf, phi, use_phi, a, b)) return;
    int f = lq_extrap_face_index(c, i, j, k, nx, ny, nz);
    vel[f] = saved[f];
}

#endif
