/*
 * macbody_cell.h — per-node math of the buoyant rigid bodies of the `mac` solver
 * (Foster & Metaxas 1996 §5, eq. 13–16), shared by the OpenCL kernel
 * (kernels/mac/macbody.cl) and its reference twin (host/ops/mac/macbody_ref.c). Grid, face arrays
 * and cell kinds: mac_grid.h; velocity sampling: markers_cell.h.
 *
 * Nodes. Each body is a fixed set of nodes in body coordinates (a lattice at about half
 * a cell inside the shape, host/ops/mac/macbody.c), each with a volume dV. Node n belongs to
 * body nbody[n] (−1: padding). Every body's nodes are padded to a multiple of
 * LQ_MACBODY_LOCAL, so a work-group holds the nodes of one body only.
 *
 * Per node (eq. 13, 16), in grid coordinates x = pos + R b (pos: the body's centre
 * relative to the grid's lower corner):
 *   F = −ρ_l ∇p dV + ρ_l c dV (u_fluid − u_node) [node in a FULL or SURFACE cell],
 *   u_node = v + ω × (R b),  τ = (R b) × F.
 * p is kinematic (pressure over density, m²/s², eq. 2), so ρ_l turns it into N. The
 * gravity term m g of eq. 13 is added per body on the host (it acts at the centre).
 *
 * Pressure gradient (eq. 14, the one-sided difference of the staggered grid): the
 * gradient on each face is (p_b − p_a)/δ between the cells a, b it separates, and a node
 * takes the trilinear interpolation of these face values on the face lattice of its
 * axis (the lattices of markers_cell.h). Face rules:
 *   both cells liquid (FULL/SURFACE): (p_b − p_a)/δ;
 *   a liquid cell and an EMPTY one: 0 (EMPTY holds the surface pressure, which the
 *     SURFACE cell carries, §3.2.3) — and 0 between EMPTY and anything: air pushes
 *     nothing;
 *   a liquid cell and a fixed one (SOLID, INFLOW, OUTFLOW): the gradient of the next
 *     face into the liquid when that face is liquid–liquid, else 0 (constant
 *     extrapolation into walls, so a body resting on the floor keeps its buoyancy);
 *   faces on the grid's edge: 0.
 * In still water with p = g (y_s − y) in the liquid and 0 at the SURFACE cells' centres
 * y_s, the face gradient is −g up to half a cell below y_s and 0 from half a cell above,
 * so the node-sampled ramp integrates to exactly g (y_s − y_bottom): Archimedes with the
 * surface at the SURFACE cells' centres.
 *
 * Reduction: per work-group of LQ_MACBODY_LOCAL nodes (one body), a fixed binary tree over
 * the LQ_MACBODY_OUT node values (F, τ, submerged volume, damping conductance ρ_l c dV), one
 * row of LQ_MACBODY_OUT floats per group; the host adds the rows of a body in group order.
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, no division (the host passes 1/δ), the tree's order fixed on both sides.
 */
#ifndef LQ_MACBODY_CELL_H
#define LQ_MACBODY_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "mac/markers_cell.h"

#define LQ_MACBODY_LOCAL 64 /* nodes per work-group (fixed: PoCL recompiles per size) */
#define LQ_MACBODY_OUT                                                                             \
    8 /* Fx Fy Fz (N), τx τy τz (N m), submerged volume (m³), Σ ρ c dV (kg/s)                \
       */

/* Per-body row of `bodies` (floats): centre relative to the grid's lower corner (m), R
 * body → world row-major, velocity (m/s), angular velocity (rad/s), ρ_l (kg/m³), damping
 * rate c (1/s). */
#define LQ_MACBODY_B_POS    0
#define LQ_MACBODY_B_ROT    3
#define LQ_MACBODY_B_VEL    12
#define LQ_MACBODY_B_OMEGA  15
#define LQ_MACBODY_B_RHO    18
#define LQ_MACBODY_B_DAMP   19
#define LQ_MACBODY_B_IHALF  20 /* 1 / half extents (1/m), body frame */
#define LQ_MACBODY_B_SHAPE  23 /* LQ_SHAPE_* (0 ball, 1 ellipsoid, 2 box) or 3 can, as a float */
#define LQ_MACBODY_B_TWOWAY 24 /* 1: the body pushes the liquid (two-way coupling) */
#define LQ_MACBODY_B_IVV    25 /* 1 / |v|² (s²/m²), 0 at rest */
#define LQ_MACBODY_B_STRIDE 26

#define LQ_MACBODY_UNSET 3.0e38f /* body_pressure: an owned cell not reached yet */

LQ_INLINE int lq_macbody_liquid(int kind)
{
    return kind == LQ_MAC_FULL || kind == LQ_MAC_SURFACE;
}

/* Liquid for the pressure gradient: FULL/SURFACE, or a cell owned by a two-way body
 * (use_owner: owner is a real field; its p is the extension of lq_mb_body_pressure).
 * A face between an owned cell and an EMPTY one takes the air's p as 0 there (the body's
 * dry surface is at the atmosphere's pressure), unlike liquid | EMPTY faces (0: the
 * SURFACE cell carries the surface pressure). */
LQ_INLINE int lq_macbody_wet(const LQ_GLOBAL unsigned char *flags, const LQ_GLOBAL int *owner,
                             int use_owner, int c)
{
    return lq_macbody_liquid(flags[c]) || (use_owner && owner[c] != 0);
}

/* Gradient of p (m/s²) on the face of `axis` (0 x, 1 y, 2 z) below cell (i, j, k): the
 * face between cell c − s and c, s the cell stride of the axis; n its index along the
 * axis of m cells; inv = 1/δ. */
LQ_INLINE float lq_macbody_face_grad(const LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                     const LQ_GLOBAL int *owner, int use_owner, int c, int s, int n,
                                     int m, float inv)
{
    if (n <= 0 || n >= m) return 0.0f;
    int a = c - s, ka = flags[a], kb = flags[c];
    int la = lq_macbody_wet(flags, owner, use_owner, a),
        lb = lq_macbody_wet(flags, owner, use_owner, c);
    if (la && lb) return (p[c] - p[a]) * inv;
    if (use_owner) { /* a two-way body's cell and air: p = 0 on its dry surface */
        if (owner[a] != 0 && kb == LQ_MAC_EMPTY) return (0.0f - p[a]) * inv;
        if (owner[c] != 0 && ka == LQ_MAC_EMPTY) return p[c] * inv;
    }
    if (ka == LQ_MAC_EMPTY || kb == LQ_MAC_EMPTY || (!la && !lb)) return 0.0f;
    if (lb) {
        if (n + 1 < m && lq_macbody_wet(flags, owner, use_owner, c + s))
            return (p[c + s] - p[c]) * inv;
        return 0.0f;
    }
    if (n - 2 >= 0 && lq_macbody_wet(flags, owner, use_owner, a - s))
        return (p[a] - p[a - s]) * inv;
    return 0.0f;
}

/* The face gradient of `axis` at lattice node (i, j, k) of that axis's face lattice. */
LQ_INLINE float lq_macbody_grad_at(const LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                   const LQ_GLOBAL int *ow, int uo, int axis, int i, int j, int k,
                                   int nx, int ny, int nz, float inv)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (axis == 0) return i >= nx ? 0.0f : lq_macbody_face_grad(p, flags, ow, uo, c, 1, i, nx, inv);
    if (axis == 1)
        return j >= ny ? 0.0f : lq_macbody_face_grad(p, flags, ow, uo, c, nx, j, ny, inv);
    return k >= nz ? 0.0f : lq_macbody_face_grad(p, flags, ow, uo, c, nx * ny, k, nz, inv);
}

/* Trilinear sample of the face gradient of `axis` at the point (x, y, z) (m), on the
 * lattice of m0 × m1 × m2 face nodes, clamped as lq_markers_lattice. */
LQ_INLINE float lq_macbody_grad(const LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                const LQ_GLOBAL int *ow, int uo, int axis, float x, float y,
                                float z, int nx, int ny, int nz, float idx, float idy, float idz)
{
    int m0 = nx + (axis == 0), m1 = ny + (axis == 1), m2 = nz + (axis == 2);
    float g0 = x * idx - (axis == 0 ? 0.0f : 0.5f);
    float g1 = y * idy - (axis == 1 ? 0.0f : 0.5f);
    float g2 = z * idz - (axis == 2 ? 0.0f : 0.5f);
    float inv = axis == 0 ? idx : axis == 1 ? idy : idz;
    float f0, f1, f2;
    int i = lq_markers_node(lq_markers_clampf(g0, 0.0f, (float)(m0 - 1)), m0, &f0);
    int j = lq_markers_node(lq_markers_clampf(g1, 0.0f, (float)(m1 - 1)), m1, &f1);
    int k = lq_markers_node(lq_markers_clampf(g2, 0.0f, (float)(m2 - 1)), m2, &f2);
    int s0 = m0 > 1 ? 1 : 0, s1 = m1 > 1 ? 1 : 0, s2 = m2 > 1 ? 1 : 0;
    float c000 = lq_macbody_grad_at(p, flags, ow, uo, axis, i, j, k, nx, ny, nz, inv);
    float c100 = lq_macbody_grad_at(p, flags, ow, uo, axis, i + s0, j, k, nx, ny, nz, inv);
    float c010 = lq_macbody_grad_at(p, flags, ow, uo, axis, i, j + s1, k, nx, ny, nz, inv);
    float c110 = lq_macbody_grad_at(p, flags, ow, uo, axis, i + s0, j + s1, k, nx, ny, nz, inv);
    float c001 = lq_macbody_grad_at(p, flags, ow, uo, axis, i, j, k + s2, nx, ny, nz, inv);
    float c101 = lq_macbody_grad_at(p, flags, ow, uo, axis, i + s0, j, k + s2, nx, ny, nz, inv);
    float c011 = lq_macbody_grad_at(p, flags, ow, uo, axis, i, j + s1, k + s2, nx, ny, nz, inv);
    float c111 =
        lq_macbody_grad_at(p, flags, ow, uo, axis, i + s0, j + s1, k + s2, nx, ny, nz, inv);
    float a0 =
        lq_markers_lerp(lq_markers_lerp(c000, c100, f0), lq_markers_lerp(c010, c110, f0), f1);
    float a1 =
        lq_markers_lerp(lq_markers_lerp(c001, c101, f0), lq_markers_lerp(c011, c111, f0), f1);
    return lq_markers_lerp(a0, a1, f2);
}

/* The LQ_MACBODY_OUT values of node n into out (zeros for padding). nodes: bx, by, bz (m,
 * body frame), dV (m³) per node. */
LQ_INLINE void lq_macbody_node(const LQ_GLOBAL float *nodes, const LQ_GLOBAL int *nbody,
                               const LQ_GLOBAL float *bodies, const LQ_GLOBAL float *p,
                               const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                               const LQ_GLOBAL float *w, const LQ_GLOBAL unsigned char *flags,
                               const LQ_GLOBAL int *ow, int uo, int n, int nx, int ny, int nz,
                               float idx, float idy, float idz, float *out)
{
    for (int q = 0; q < LQ_MACBODY_OUT; q++) out[q] = 0.0f;
    int b = nbody[n];
    if (b < 0) return;
    const LQ_GLOBAL float *B = bodies + b * LQ_MACBODY_B_STRIDE;
    const LQ_GLOBAL float *R = B + LQ_MACBODY_B_ROT;
    float bx = nodes[4 * n], by = nodes[4 * n + 1], bz = nodes[4 * n + 2], dV = nodes[4 * n + 3];
    float r[3];
    for (int a = 0; a < 3; a++) r[a] = R[3 * a] * bx + R[3 * a + 1] * by + R[3 * a + 2] * bz;
    lq_markers_vec3 x;
    x.x = B[LQ_MACBODY_B_POS] + r[0];
    x.y = B[LQ_MACBODY_B_POS + 1] + r[1];
    x.z = B[LQ_MACBODY_B_POS + 2] + r[2];
    float rho = B[LQ_MACBODY_B_RHO], rdV = rho * dV;
    float F[3];
    for (int a = 0; a < 3; a++) /* eq. 13–14 */
        F[a] =
            -(lq_macbody_grad(p, flags, ow, uo, a, x.x, x.y, x.z, nx, ny, nz, idx, idy, idz) * rdV);
    int cell = lq_markers_cell_of(x, nx, ny, nz, idx, idy, idz);
    int wet = lq_macbody_liquid(flags[cell]);
    if (!wet && uo && ow[cell] != 0 && p[cell] > 0.0f) out[6] = dV; /* two-way: submerged */
    if (wet) { /* eq. 16: damping by the node's velocity relative to the liquid */
        const LQ_GLOBAL float *V = B + LQ_MACBODY_B_VEL, *W = B + LQ_MACBODY_B_OMEGA;
        float un[3];
        un[0] = V[0] + (W[1] * r[2] - W[2] * r[1]);
        un[1] = V[1] + (W[2] * r[0] - W[0] * r[2]);
        un[2] = V[2] + (W[0] * r[1] - W[1] * r[0]);
        lq_markers_vec3 uf = lq_markers_velocity(u, v, w, x, nx, ny, nz, idx, idy, idz);
        float k = rdV * B[LQ_MACBODY_B_DAMP];
        F[0] = F[0] + k * (uf.x - un[0]);
        F[1] = F[1] + k * (uf.y - un[1]);
        F[2] = F[2] + k * (uf.z - un[2]);
        out[6] = dV;
        out[7] = k;
    }
    out[0] = F[0];
    out[1] = F[1];
    out[2] = F[2];
    out[3] = r[1] * F[2] - r[2] * F[1];
    out[4] = r[2] * F[0] - r[0] * F[2];
    out[5] = r[0] * F[1] - r[1] * F[0];
}

/* --- two-way coupling (the bodies push the liquid; not in the paper, which is one-way) --
 *
 * A two-way body occupies the cells whose centres lie inside it: they become SOLID
 * (owner[c] = body + 1, an int per cell, 0 elsewhere), so the momentum step leaves their
 * faces and the pressure iteration holds them as walls; their faces carry the body's
 * rigid velocity (lq_macbody_face_cell), a moving wall that pushes the liquid. The pressure
 * the liquid puts on the body is carried into its cells by lq_macbody_body_pressure_cell, and
 * lq_macbody_node treats owned cells as liquid for ∇p, so eq. 13–14 integrate over the
 * body's nodes as in the one-way case. */

/* Is the point (x, y, z) (m, grid-relative) inside body row B? (float; 1/half uploaded,
 * no division.) */
LQ_INLINE int lq_macbody_inside_row(const LQ_GLOBAL float *B, float x, float y, float z)
{
    const LQ_GLOBAL float *R = B + LQ_MACBODY_B_ROT;
    float d0 = x - B[LQ_MACBODY_B_POS], d1 = y - B[LQ_MACBODY_B_POS + 1],
          d2 = z - B[LQ_MACBODY_B_POS + 2];
    float q[3];
    for (int a = 0; a < 3; a++) /* body frame: Rᵀ d, scaled by 1/half */
        q[a] = (R[a] * d0 + R[3 + a] * d1 + R[6 + a] * d2) * B[LQ_MACBODY_B_IHALF + a];
    int shape = (int)B[LQ_MACBODY_B_SHAPE];
    if (shape == 2) /* box */
        return fabs(q[0]) <= 1.0f && fabs(q[1]) <= 1.0f && fabs(q[2]) <= 1.0f;
    if (shape == 3) /* can, axis along body y */
        return q[0] * q[0] + q[2] * q[2] <= 1.0f && fabs(q[1]) <= 1.0f;
    return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] <= 1.0f; /* ball, ellipsoid */
}

/* Cell (i, j, k) of the mark pass (called before the marker classification, §6 step
 * 3): a static fixed kind (SOLID, INFLOW, OUTFLOW in static_flags) is left as it is; a
 * cell whose centre is inside a two-way body (the lowest index first) becomes SOLID,
 * owned by it; a cell a body has left becomes EMPTY (the classification refills it). */
LQ_INLINE void lq_macbody_mark_cell(LQ_GLOBAL unsigned char *flags,
                                    const LQ_GLOBAL unsigned char *static_flags,
                                    LQ_GLOBAL int *owner, const LQ_GLOBAL float *bodies,
                                    int nbodies, int i, int j, int k, int nx, int ny, float h)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (static_flags[c] >= LQ_MAC_SOLID) {
        owner[c] = 0;
        return;
    }
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    for (int b = 0; b < nbodies; b++) {
        const LQ_GLOBAL float *B = bodies + b * LQ_MACBODY_B_STRIDE;
        if (B[LQ_MACBODY_B_TWOWAY] != 0.0f && lq_macbody_inside_row(B, x, y, z)) {
            flags[c] = LQ_MAC_SOLID;
            owner[c] = b + 1;
            return;
        }
    }
    if (owner[c] != 0) {
        flags[c] = LQ_MAC_EMPTY;
        owner[c] = 0;
    }
}

/* The rigid velocity of body row B along `axis` at the point x (m, grid-relative):
 * (v + ω × (x − x_cm))·e_axis. */
LQ_INLINE float lq_macbody_rigid(const LQ_GLOBAL float *B, int axis, float x, float y, float z)
{
    const LQ_GLOBAL float *V = B + LQ_MACBODY_B_VEL, *W = B + LQ_MACBODY_B_OMEGA;
    float r0 = x - B[LQ_MACBODY_B_POS], r1 = y - B[LQ_MACBODY_B_POS + 1],
          r2 = z - B[LQ_MACBODY_B_POS + 2];
    if (axis == 0) return V[0] + (W[1] * r2 - W[2] * r1);
    if (axis == 1) return V[1] + (W[2] * r0 - W[0] * r2);
    return V[2] + (W[0] * r1 - W[1] * r0);
}

/* The faces below cell (i, j, k) (x, y, z: the face toward cell i−1, j−1, k−1), so every
 * face has one writer: a face between an owned cell and a cell that is not SOLID, or
 * between two cells of one body, gets the normal rigid velocity of that body at the
 * face centre. Faces between two different bodies and toward static fixed cells are
 * left as they are. */
LQ_INLINE void lq_macbody_face_cell(LQ_GLOBAL float *u, LQ_GLOBAL float *v, LQ_GLOBAL float *w,
                                    const LQ_GLOBAL unsigned char *flags,
                                    const LQ_GLOBAL int *owner, const LQ_GLOBAL float *bodies,
                                    int i, int j, int k, int nx, int ny, int nz, float h)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    int st[3] = {1, nx, nx * ny}, n[3] = {i, j, k};
    float cx = ((float)i + 0.5f) * h, cy = ((float)j + 0.5f) * h, cz = ((float)k + 0.5f) * h;
    for (int a = 0; a < 3; a++) {
        if (n[a] <= 0 || (a == 2 && nz == 1)) continue;
        int d = c - st[a], ob = owner[c], oa = owner[d], o = 0;
        if (ob != 0 && oa != 0) {
            if (ob == oa) o = ob;
        } else if (ob != 0) {
            if (flags[d] != LQ_MAC_SOLID) o = ob;
        } else if (oa != 0) {
            if (flags[c] != LQ_MAC_SOLID) o = oa;
        }
        if (o == 0) continue;
        const LQ_GLOBAL float *B = bodies + (o - 1) * LQ_MACBODY_B_STRIDE;
        float x = a == 0 ? (float)i * h : cx, y = a == 1 ? (float)j * h : cy,
              z = a == 2 ? (float)k * h : cz;
        float vn = lq_macbody_rigid(B, a, x, y, z);
        if (a == 0) u[LQ_MAC_U(i, j, k, nx, ny)] = vn;
        if (a == 1) v[LQ_MAC_V(i, j, k, nx, ny)] = vn;
        if (a == 2) w[LQ_MAC_W(i, j, k, nx, ny)] = vn;
    }
}

/* One Jacobi pass of the pressure extension into owned cells (cell c; src → dst). The
 * neighbours that count: FULL/SURFACE cells (their p), EMPTY cells (air: p = 0, the dry
 * part of the body's surface) and owned cells already reached (src ≠ LQ_MACBODY_UNSET; not in
 * the first pass, whose owned values are last step's); static fixed cells (walls) do
 * not. An owned cell takes the mean over its counting neighbours across gravity (x and
 * z: y is up) when it has any, else over those along y; none: LQ_MACBODY_UNSET, or 0 in the
 * last pass. Other cells copy. Across gravity first: a row of the body gets the
 * liquid's p at its own height (hydrostatic p exactly, the waterline's kink in p where it
 * is: above the water the rows take the air's 0), which an isotropic mean would smear
 * over the body's height (tens of % on a box floating a cell deep). Exact for a linear
 * p. With the face rule of lq_macbody_face_grad (owned | EMPTY: the air's p = 0) the node sum
 * of −∇p over a column of owned cells runs from the liquid below to the air above.
 * The mean multiplies by a float reciprocal (no division: exact in both twins). */
LQ_INLINE void lq_macbody_body_pressure_cell(const LQ_GLOBAL float *src, LQ_GLOBAL float *dst,
                                             const LQ_GLOBAL unsigned char *flags,
                                             const LQ_GLOBAL int *owner, int i, int j, int k,
                                             int nx, int ny, int nz, int first, int last)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (owner[c] == 0) {
        dst[c] = src[c];
        return;
    }
    int st[3] = {1, nx, nx * ny}, n[3] = {i, j, k}, m[3] = {nx, ny, nz};
    float sum[2] = {0.0f, 0.0f}; /* across gravity (x, z), along it (y) */
    int cnt[2] = {0, 0};
    for (int a = 0; a < 3; a++)
        for (int sg = -1; sg <= 1; sg += 2) {
            int q = n[a] + sg, h = a == 1;
            if (q < 0 || q >= m[a]) continue;
            int d = c + sg * st[a];
            if (owner[d] != 0 ? (!first && src[d] != LQ_MACBODY_UNSET)
                              : lq_macbody_liquid(flags[d])) {
                sum[h] = sum[h] + src[d];
                cnt[h]++;
            } else if (owner[d] == 0 && flags[d] == LQ_MAC_EMPTY) {
                cnt[h]++; /* air: p = 0 */
            }
        }
    const float inv[5] = {0.0f, 1.0f, 0.5f, 1.0f / 3.0f, 0.25f};
    int h = cnt[0] > 0 ? 0 : 1;
    dst[c] = cnt[h] > 0 ? sum[h] * inv[cnt[h]] : (last ? 0.0f : LQ_MACBODY_UNSET);
}

/* Marker n (§4.1 markers, x y z per particle, m, grid-relative) in a cell owned by a
 * body: the advection leaves markers in SOLID cells where they are, so a marker the
 * body's front runs over would stay inside it and come back as liquid where the body
 * was (the swept volume added twice: pushed aside by the faces and left behind), and a
 * cell the body leaves with no marker would be an air cell inside the liquid (p = 0:
 * the liquid rushes in). So a marker in the front half of its body (r·v > 0, r from the
 * centre, v the body's velocity) is mirrored to the back half, x − 2 (r·v / |v|²) v:
 * the liquid the front captures is given back to the wake, no marker is created or
 * lost. The mirror image must lie in a cell of the same body (else the marker stays:
 * a marker put outside the body would be liquid dropped in the air above a rising
 * body, which feeds sloshing); markers in the back half, or of a body at rest, stay.
 * The cells of a shape symmetric about the plane through the centre across v (a ball
 * always; a box or can moving along an axis) mirror into its own cells. 1/|v|² is
 * uploaded (no division). */
LQ_INLINE void lq_macbody_marker_one(LQ_GLOBAL float *pos, const LQ_GLOBAL int *owner,
                                     const LQ_GLOBAL float *bodies, int n, int nx, int ny, int nz,
                                     float idx, float idy, float idz)
{
    lq_markers_vec3 p;
    p.x = pos[3 * n];
    p.y = pos[3 * n + 1];
    p.z = pos[3 * n + 2];
    int o = owner[lq_markers_cell_of(p, nx, ny, nz, idx, idy, idz)];
    if (o == 0) return;
    const LQ_GLOBAL float *B = bodies + (o - 1) * LQ_MACBODY_B_STRIDE, *V = B + LQ_MACBODY_B_VEL;
    float r0 = p.x - B[LQ_MACBODY_B_POS], r1 = p.y - B[LQ_MACBODY_B_POS + 1],
          r2 = p.z - B[LQ_MACBODY_B_POS + 2];
    float rv = r0 * V[0] + r1 * V[1] + r2 * V[2];
    if (!(rv > 0.0f) || B[LQ_MACBODY_B_IVV] == 0.0f) return;
    float f = 2.0f * rv * B[LQ_MACBODY_B_IVV];
    lq_markers_vec3 m;
    m.x = p.x - f * V[0];
    m.y = p.y - f * V[1];
    m.z = p.z - f * V[2];
    if (owner[lq_markers_cell_of(m, nx, ny, nz, idx, idy, idz)] != o) return; /* stays inside */
    pos[3 * n] = m.x;
    pos[3 * n + 1] = m.y;
    pos[3 * n + 2] = m.z;
}

#endif
