/*
 * mac_surface.h — free-surface conditions of the `mac` solver, shared by the OpenCL
 * kernels (kernels/mac/macsurface.cl) and their reference twins (host/ops/mac/macsurface_ref.c):
 * the velocities on the faces of a SURFACE cell that it shares with EMPTY cells (Gates
 * 2001, all 2^6 − 1 = 63 empty-neighbour configurations; Foster & Metaxas 1996 §3.2.3)
 * and the surface-cell pressure (Foster & Metaxas §3.2.3, §7.2 eq. 17–19).
 *
 * Grid: kernels/common/mac_grid.h. A cell's empty mask has bit n set when neighbour n (order
 * −x +x −y +y −z +z) is an EMPTY cell; a neighbour outside the grid is a wall, never
 * empty. Face n of cell (i, j, k) is, in the same order: u(i−½) u(i+½) v(j−½) v(j+½)
 * w(k−½) w(k+½). Axis a has faces lo = 2a, hi = 2a + 1 and contributes
 * (f[hi] − f[lo]) / δa to the discrete divergence Σ_a (f[hi] − f[lo]) / δa (eq. 5).
 *
 * The rule (Gates §1, the issue): after the conditions the cell's divergence is zero;
 * an axis whose two neighbours are both empty (an "open pair") gets the body force
 * (f += g_a δt on both faces), because there is no surface normal along it. Per axis a:
 *   O1: one face open, O2: both open, closed: none open. Then, in Gates' words:
 *   |O2| = 3        all six open: body force only (§2.6), divergence left as it is;
 *   |O1| = 3        a corner: each open face copies its opposite face, every axis is
 *                   divergence-free on its own (Foster & Metaxas' ∂u/∂x = 0, §2.3);
 *   |O1| = 1 or 2   open pairs take the body force, then each one-open axis closes an
 *                   equal share 1/|O1| of what the other axes leave:
 *                   f[open] = f[opposite] ∓ δa · share · R, R = Σ over the axes without
 *                   a one-open face of (f[hi] − f[lo]) / δ, after the body force
 *                   (§2.1, §2.2 adjacent, §2.3 opposite, §2.4 one pair, §2.5);
 *   |O1| = 0, 1 ≤ |O2| ≤ 2   the pairs take the body force, then each of their 2|O2|
 *                   faces takes share 1/(2|O2|) of the whole divergence D:
 *                   f[lo] += δa · share · D, f[hi] −= δa · share · D: the pair's mean
 *                   moves by body force only, its difference closes D (§2.2 opposite,
 *                   §2.4 two pairs).
 * The table below spells this out per configuration; tests/ops/test_mac_surface.c derives
 * it again from the rule and compares.
 *
 * A hanging cell (not in Gates): a SURFACE cell with EMPTY below it (−y, y is up:
 * DESIGN.md) and a SOLID cell or the grid's top above it. With the ceiling's face at 0
 * and level side faces, Gates' one-open-face rule V(j) = V(j+1) + δy (ΔU/δx + ΔW/δz)
 * gave its bottom face 0 every step: a film one cell thick under a ceiling hung there
 * for ever, where liquid with air below falls. Its other open faces now follow the rule
 * of the mask without −y, the y axis left out of R (x and z closed by themselves); the
 * −y face is set last to the least of its own value (eq. 2 moves it by the body force
 * only, as an open pair's: kernels/mac/momentum_cell.h), the continuity value above (with
 * the other faces as set) and 0: it falls by g, faster where the liquid beside it
 * pushes it down, and is never drawn up out of the air below (an air-band value, up the
 * dam break's far wall, went into it at 3 m/s and blew the run up). Divergence is not
 * zero there: the cell empties from the top, the air entering at the ceiling. A
 * SURFACE cell with liquid above (the underside of a falling blob) keeps Gates' rule.
 * The markers of the film (kernels/mac/markers_cell.h) move with the bottom face and the
 * rows it crosses stay SURFACE, or the pressure would hold it up by suction.
 *
 * Where Gates' listing and the rule disagree (the rule wins):
 *   NF_011110 (+x −y +y −z empty): the listing sets U(i−1) — the −x face, shared with a
 *     fluid cell — instead of U(i), the open +x face; its body is NF_101110's. The
 *     divergence still vanishes, but a fluid face is overwritten and the open one left
 *     stale. Here +x closes: U(i) = U(i−1) − ½ δx (ΔV / δy).
 *   NF_00011 is a typo for NF_000011 (the z pair).
 *   Foster & Metaxas' 2D three-open rule (the side opposite the fluid copies it, the
 *   pair follows the body force) leaves the pair's divergence in the cell; Gates (and
 *   the rule) close it with the open face opposite the fluid instead.
 * Non-uniform spacing: Gates writes H everywhere; each H is the δ of the axis it stands
 * on (the H outside a bracket is the δ of the face being set, the H inside under a
 * difference is that difference's axis), as his §3 says.
 *
 * Race freedom: every face this table writes lies between the SURFACE cell and an
 * EMPTY neighbour (the actions other than KEEP occur only on open faces; a hanging
 * cell's −y face too, and the ceiling face it reads touches a SOLID cell, which runs
 * nothing), and EMPTY cells run nothing. So each face has at most one writer, and no cell reads a
 * face another cell writes (a face between two non-empty cells is KEEP for both). One pass over all
 * SURFACE cells in any order, or all at once, gives Gates' serial result; the twins agree bit for
 * bit (same float operations in the same order, no division: the host passes 1/δ).
 *
 * Surface pressure (eq. 17–19): p = p_atm + (A + B cos(C s − ω t)) / δt with
 * B = a √(−g D / C), C = π / L; s is the cell centre's coordinate along the wave's
 * axis (the paper's z, a horizontal coordinate), 2L the wavelength, D the mean depth,
 * a the amplitude, g gravity (negative: pointing down). The host computes B, C, ωt
 * (mod 2π) and 1/δt; cos is the only operation whose rounding may differ between the
 * backends (host/core/tolerance.c).
 */
#ifndef LQ_MACSURFACE_CELL_H
#define LQ_MACSURFACE_CELL_H

#include "common/mac_grid.h"

/* A program-scope table: `constant` in OpenCL C, static const data in C; LQ_MACSURFACE_CONST
 * qualifies pointers into it. */
#ifdef __OPENCL_VERSION__
#define LQ_MACSURFACE_TABLE   constant
#define LQ_MACSURFACE_CONST   constant
#define LQ_MACSURFACE_COSF(x) cos(x)
#else
#define LQ_MACSURFACE_TABLE   static const
#define LQ_MACSURFACE_CONST   const
#define LQ_MACSURFACE_COSF(x) cosf(x)
#endif

/* How one face of a surface cell is set. */
#define LQ_MACSURFACE_KEEP       0 /* a non-empty side (fluid, solid, wall): unchanged */
#define LQ_MACSURFACE_COPY       1 /* = the opposite face (corner: ∂u/∂x = 0 along this axis) */
#define LQ_MACSURFACE_CLOSE      2 /* = the opposite face ∓ δ · share · R (one-open axis) */
#define LQ_MACSURFACE_BODY       3 /* += g δt, nothing else (open pair beside one-open axes) */
#define LQ_MACSURFACE_BODY_CLOSE 4 /* += g δt, then ± δ · share · D (open pairs close D) */

typedef struct lq_macsurface_rule {
    unsigned char face[6]; /* LQ_MS_* per face, neighbour order */
    float share;           /* of the divergence each closing face takes (0: none close) */
} lq_macsurface_rule;

/* The mask of Gates' neighbour flag NF_abcdef (a = −x ... f = +z). */
#define LQ_MACSURFACE_NF(a, b, c, d, e, f)                                                         \
    ((a) | (b) << 1 | (c) << 2 | (d) << 3 | (e) << 4 | (f) << 5)

#define KP LQ_MACSURFACE_KEEP
#define CP LQ_MACSURFACE_COPY
#define CL LQ_MACSURFACE_CLOSE
#define BF LQ_MACSURFACE_BODY
#define BS LQ_MACSURFACE_BODY_CLOSE
/* Indexed by the empty mask; row 0 (no empty neighbour) keeps everything. Rows in
 * Gates' order of classes; faces −x +x −y +y −z +z. */
// clang-format off
LQ_MACSURFACE_TABLE lq_macsurface_rule lq_macsurface_rules[64] = {
    [0] = {{KP, KP, KP, KP, KP, KP}, 0.0f},
    /* One empty neighbour (§2.1, 6): the open face alone makes the divergence zero,
     * U(i−1) = U(i) + δx (ΔV/δy + ΔW/δz) and alike. */
    [LQ_MACSURFACE_NF(1,0,0,0,0,0)] = {{CL, KP, KP, KP, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,1,0,0,0,0)] = {{KP, CL, KP, KP, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,1,0,0,0)] = {{KP, KP, CL, KP, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,0,1,0,0)] = {{KP, KP, KP, CL, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,0,0,1,0)] = {{KP, KP, KP, KP, CL, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,0,0,0,1)] = {{KP, KP, KP, KP, KP, CL}, 1.0f},
    /* Two, opposite (§2.2, 3): body force on the pair, then ½ of the divergence on
     * each face: U(i−1) += ½ δx D, U(i) −= ½ δx D (Gates' listing). */
    [LQ_MACSURFACE_NF(1,1,0,0,0,0)] = {{BS, BS, KP, KP, KP, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,0,1,1,0,0)] = {{KP, KP, BS, BS, KP, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,0,0,0,1,1)] = {{KP, KP, KP, KP, BS, BS}, 0.5f},
    /* Two, sharing an edge (§2.2, 12): each open face copies its opposite one plus half
     * the difference across the third, closed axis: U(i−1) = U(i) + ½ δx (ΔW/δz). */
    [LQ_MACSURFACE_NF(1,0,1,0,0,0)] = {{CL, KP, CL, KP, KP, KP}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,0,1,0,0)] = {{CL, KP, KP, CL, KP, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,1,0,0,0)] = {{KP, CL, CL, KP, KP, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,0,1,0,0)] = {{KP, CL, KP, CL, KP, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,0,1,0,1,0)] = {{KP, KP, CL, KP, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,0,1,0,0,1)] = {{KP, KP, CL, KP, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(0,0,0,1,1,0)] = {{KP, KP, KP, CL, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,0,0,1,0,1)] = {{KP, KP, KP, CL, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,0,0,1,0)] = {{CL, KP, KP, KP, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,0,0,0,1)] = {{CL, KP, KP, KP, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,0,0,1,0)] = {{KP, CL, KP, KP, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,0,0,0,1)] = {{KP, CL, KP, KP, KP, CL}, 0.5f},
    /* Three, a corner (§2.3, 8): no two opposite; every open face copies its opposite
     * face, so each axis is divergence-free by itself. */
    [LQ_MACSURFACE_NF(0,1,0,1,0,1)] = {{KP, CP, KP, CP, KP, CP}, 0.0f},
    [LQ_MACSURFACE_NF(1,0,0,1,0,1)] = {{CP, KP, KP, CP, KP, CP}, 0.0f},
    [LQ_MACSURFACE_NF(0,1,1,0,0,1)] = {{KP, CP, CP, KP, KP, CP}, 0.0f},
    [LQ_MACSURFACE_NF(1,0,1,0,0,1)] = {{CP, KP, CP, KP, KP, CP}, 0.0f},
    [LQ_MACSURFACE_NF(0,1,0,1,1,0)] = {{KP, CP, KP, CP, CP, KP}, 0.0f},
    [LQ_MACSURFACE_NF(1,0,0,1,1,0)] = {{CP, KP, KP, CP, CP, KP}, 0.0f},
    [LQ_MACSURFACE_NF(0,1,1,0,1,0)] = {{KP, CP, CP, KP, CP, KP}, 0.0f},
    [LQ_MACSURFACE_NF(1,0,1,0,1,0)] = {{CP, KP, CP, KP, CP, KP}, 0.0f},
    /* Three, two of them opposite (§2.3, 12): body force on the pair, the third open
     * face closes all: V(j−1) = V(j) + δy (ΔU/δx + ΔW/δz), ΔU after the body force. */
    [LQ_MACSURFACE_NF(1,1,1,0,0,0)] = {{BF, BF, CL, KP, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,0,1,0,0)] = {{BF, BF, KP, CL, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,0,0,1,0)] = {{BF, BF, KP, KP, CL, KP}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,0,0,0,1)] = {{BF, BF, KP, KP, KP, CL}, 1.0f},
    [LQ_MACSURFACE_NF(1,0,1,1,0,0)] = {{CL, KP, BF, BF, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,1,1,1,0,0)] = {{KP, CL, BF, BF, KP, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,1,1,1,0)] = {{KP, KP, BF, BF, CL, KP}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,1,1,0,1)] = {{KP, KP, BF, BF, KP, CL}, 1.0f},
    [LQ_MACSURFACE_NF(1,0,0,0,1,1)] = {{CL, KP, KP, KP, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(0,1,0,0,1,1)] = {{KP, CL, KP, KP, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,1,0,1,1)] = {{KP, KP, CL, KP, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(0,0,0,1,1,1)] = {{KP, KP, KP, CL, BF, BF}, 1.0f},
    /* Four, two opposite pairs (§2.4, 3): body force on both pairs, then ¼ of the
     * divergence on each of their four faces (Gates' 0.25 H div). */
    [LQ_MACSURFACE_NF(1,1,1,1,0,0)] = {{BS, BS, BS, BS, KP, KP}, 0.25f},
    [LQ_MACSURFACE_NF(1,1,0,0,1,1)] = {{BS, BS, KP, KP, BS, BS}, 0.25f},
    [LQ_MACSURFACE_NF(0,0,1,1,1,1)] = {{KP, KP, BS, BS, BS, BS}, 0.25f},
    /* Four, one opposite pair (§2.4, 12): body force on the pair, the two remaining
     * open faces share an edge and each closes half of the pair's difference:
     * V(j) = V(j−1) − ½ δy (ΔU/δx). NF_011110 follows the rule, not the listing. */
    [LQ_MACSURFACE_NF(1,1,0,1,0,1)] = {{BF, BF, KP, CL, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(1,1,0,1,1,0)] = {{BF, BF, KP, CL, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(1,1,1,0,0,1)] = {{BF, BF, CL, KP, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(1,1,1,0,1,0)] = {{BF, BF, CL, KP, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,1,1,0,1)] = {{KP, CL, BF, BF, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,1,1,1,0)] = {{KP, CL, BF, BF, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,1,1,0,1)] = {{CL, KP, BF, BF, KP, CL}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,1,1,1,0)] = {{CL, KP, BF, BF, CL, KP}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,0,1,1,1)] = {{KP, CL, KP, CL, BF, BF}, 0.5f},
    [LQ_MACSURFACE_NF(0,1,1,0,1,1)] = {{KP, CL, CL, KP, BF, BF}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,0,1,1,1)] = {{CL, KP, KP, CL, BF, BF}, 0.5f},
    [LQ_MACSURFACE_NF(1,0,1,0,1,1)] = {{CL, KP, CL, KP, BF, BF}, 0.5f},
    /* Five (§2.5, 6): body force on the two pairs, the last open face closes all:
     * U(i) = U(i−1) − δx (ΔV/δy + ΔW/δz). */
    [LQ_MACSURFACE_NF(0,1,1,1,1,1)] = {{KP, CL, BF, BF, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(1,0,1,1,1,1)] = {{CL, KP, BF, BF, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,0,1,1,1)] = {{BF, BF, KP, CL, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,1,0,1,1)] = {{BF, BF, CL, KP, BF, BF}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,1,1,0,1)] = {{BF, BF, BF, BF, KP, CL}, 1.0f},
    [LQ_MACSURFACE_NF(1,1,1,1,1,0)] = {{BF, BF, BF, BF, CL, KP}, 1.0f},
    /* Six (§2.6, 1): a drop in free fall; every face moves by g δt only. */
    [LQ_MACSURFACE_NF(1,1,1,1,1,1)] = {{BF, BF, BF, BF, BF, BF}, 0.0f},
};
// clang-format on
#undef KP
#undef CP
#undef CL
#undef BF
#undef BS

/* Empty mask of cell (i, j, k) from the kinds of its six neighbours (outside: wall). */
LQ_INLINE int lq_macsurface_empty_mask(const LQ_GLOBAL unsigned char *flags, int i, int j, int k,
                                       int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), sy = nx, sz = nx * ny, m = 0;
    if (i > 0 && flags[c - 1] == LQ_MAC_EMPTY) m |= 1 << LQ_MAC_NX_MINUS;
    if (i < nx - 1 && flags[c + 1] == LQ_MAC_EMPTY) m |= 1 << LQ_MAC_NX_PLUS;
    if (j > 0 && flags[c - sy] == LQ_MAC_EMPTY) m |= 1 << LQ_MAC_NY_MINUS;
    if (j < ny - 1 && flags[c + sy] == LQ_MAC_EMPTY) m |= 1 << LQ_MAC_NY_PLUS;
    if (k > 0 && flags[c - sz] == LQ_MAC_EMPTY) m |= 1 << LQ_MAC_NZ_MINUS;
    if (k < nz - 1 && flags[c + sz] == LQ_MAC_EMPTY) m |= 1 << LQ_MAC_NZ_PLUS;
    return m;
}

/* Is SURFACE cell c (row j) with empty mask m hanging from a ceiling: EMPTY below it
 * (−y), a SOLID cell or the grid's top above it (the header comment)? */
LQ_INLINE int lq_macsurface_hanging(const LQ_GLOBAL unsigned char *flags, int m, int c, int j,
                                    int nx, int ny)
{
    return (m & (1 << LQ_MAC_NY_MINUS)) != 0 && (j == ny - 1 || flags[c + nx] == LQ_MAC_SOLID);
}

/* classify, per cell: the empty mask of a SURFACE cell, 0 for every other cell. */
LQ_INLINE void lq_macsurface_classify_cell(const LQ_GLOBAL unsigned char *flags,
                                           LQ_GLOBAL unsigned char *mask, int i, int j, int k,
                                           int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    int m = flags[c] == LQ_MAC_SURFACE ? lq_macsurface_empty_mask(flags, i, j, k, nx, ny, nz) : 0;
    mask[c] = (unsigned char)m;
}

/* apply, per cell: the faces of SURFACE cell (i, j, k) from its rule (the header
 * comment). h: δx δy δz (m); inv: their reciprocals (host-computed); gdt: g δt (m/s).
 * The mask must come from classify over the same flags (race freedom rests on it). */
LQ_INLINE void lq_macsurface_apply_cell(const LQ_GLOBAL unsigned char *flags,
                                        const LQ_GLOBAL unsigned char *mask, LQ_GLOBAL float *u,
                                        LQ_GLOBAL float *v, LQ_GLOBAL float *w, int i, int j, int k,
                                        int nx, int ny, float hx, float hy, float hz, float ix,
                                        float iy, float iz, float gx, float gy, float gz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (flags[c] != LQ_MAC_SURFACE) return;
    int m = mask[c] & 63;
    /* a hanging cell (the header comment): the other open faces follow the rule of the
     * mask without −y, the y axis left out of R; the −y face is set last */
    int hang = lq_macsurface_hanging(flags, m, c, j, nx, ny);
    if (hang) m = m & ~(1 << LQ_MAC_NY_MINUS);
    if (m == 0 && !hang) return;
    LQ_MACSURFACE_CONST lq_macsurface_rule *r = &lq_macsurface_rules[m];
    int fu = LQ_MAC_U(i, j, k, nx, ny), fv = LQ_MAC_V(i, j, k, nx, ny);
    int fw = LQ_MAC_W(i, j, k, nx, ny);
    float f[6] = {u[fu], u[fu + 1], v[fv], v[fv + nx], w[fw], w[fw + nx * ny]};
    float h[3] = {hx, hy, hz}, inv[3] = {ix, iy, iz}, gdt[3] = {gx, gy, gz};
    /* 1. the body force on open pairs */
    for (int n = 0; n < 6; n++)
        if (r->face[n] == LQ_MACSURFACE_BODY || r->face[n] == LQ_MACSURFACE_BODY_CLOSE)
            f[n] = f[n] + gdt[n >> 1];
    /* 2. R: the divergence of the axes without a one-open face, in axis order */
    float R = 0.0f;
    for (int a = 0; a < 3; a++) {
        int lo = r->face[2 * a], hi = r->face[2 * a + 1];
        if (lo == LQ_MACSURFACE_CLOSE || hi == LQ_MACSURFACE_CLOSE || lo == LQ_MACSURFACE_COPY ||
            hi == LQ_MACSURFACE_COPY)
            continue;
        if (hang && a == 1) continue;
        R = R + (f[2 * a + 1] - f[2 * a]) * inv[a];
    }
    /* 3. the closing faces (each reads only its opposite face, which it does not set) */
    for (int n = 0; n < 6; n++) {
        int a = n >> 1, lo = (n & 1) == 0;
        float s = h[a] * r->share * R;
        if (r->face[n] == LQ_MACSURFACE_COPY) f[n] = f[n ^ 1];
        if (r->face[n] == LQ_MACSURFACE_CLOSE) f[n] = lo ? f[n ^ 1] + s : f[n ^ 1] - s;
        if (r->face[n] == LQ_MACSURFACE_BODY_CLOSE) f[n] = lo ? f[n] + s : f[n] - s;
    }
    /* 4. a hanging cell's −y face: the least of its own value (eq. 2's body force
     * only, kernels/mac/momentum_cell.h), the continuity value and 0 */
    if (hang) {
        float rxz = (f[1] - f[0]) * inv[0] + (f[5] - f[4]) * inv[2];
        float q = f[3] + h[1] * rxz;
        if (f[2] < q) q = f[2];
        if (q > 0.0f) q = 0.0f;
        v[fv] = q;
    }
    /* 5. store the open faces only: the faces this cell owns */
    if (r->face[0] != LQ_MACSURFACE_KEEP) u[fu] = f[0];
    if (r->face[1] != LQ_MACSURFACE_KEEP) u[fu + 1] = f[1];
    if (r->face[2] != LQ_MACSURFACE_KEEP) v[fv] = f[2];
    if (r->face[3] != LQ_MACSURFACE_KEEP) v[fv + nx] = f[3];
    if (r->face[4] != LQ_MACSURFACE_KEEP) w[fw] = f[4];
    if (r->face[5] != LQ_MACSURFACE_KEEP) w[fw + nx * ny] = f[5];
}

/* pressure, per cell: eq. 17 plus the atmosphere in a SURFACE cell, others untouched.
 * The wave runs along axis `axis`; s0 is the world coordinate of the grid's lower face
 * along it, ds the spacing; phase = ω t (mod 2π), inv_dt = 1/δt. */
LQ_INLINE void lq_macsurface_pressure_cell(const LQ_GLOBAL unsigned char *flags, LQ_GLOBAL float *p,
                                           int i, int j, int k, int nx, int ny, int axis, float s0,
                                           float ds, float p_atm, float A, float B, float C,
                                           float phase, float inv_dt)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (flags[c] != LQ_MAC_SURFACE) return;
    int n = axis == 0 ? i : (axis == 1 ? j : k);
    float s = s0 + ((float)n + 0.5f) * ds;
    p[c] = p_atm + (A + B * LQ_MACSURFACE_COSF(C * s - phase)) * inv_dt;
}

/* The surface pressure placed at the liquid's height within the cell (a ghost-fluid
 * condition on the marker fill): in a SURFACE cell c with air above (+y EMPTY in its
 * mask) and a FULL cell n below, the fill f = count / per_cell (clamped to [0, 1]) puts
 * the surface f δy above c's bottom; the applied pressure P (what lq_macsurface_pressure put in
 * p_c) there and linear between n's centre and the surface give
 * p_c = P + (p_n − P) (f − ½) / (f + ½): the hydrostatic g (f − ½) δy at rest, P in free
 * fall (p_n = P), with p_n − P capped at its hydrostatic value |g| (f + ½) δy.
 * ratio[m] = (f − ½)/(f + ½), f held at ≥ 0.1, for a count of m markers, and
 * ratio[per_cell + 1 + m] the cap, from the host (no division here). Other cells, and SURFACE cells
 * without that up-facing shape, keep p. Reads only p of FULL cells, writes only SURFACE cells:
 * race-free. Without it the surface pressure sits at the cell centre and jumps by a whole
 * g δy when the surface crosses a row of faces: a wave lower than a cell has no restoring
 * force. */
LQ_INLINE void lq_macsurface_fill_pressure_cell(const LQ_GLOBAL unsigned char *flags,
                                                const LQ_GLOBAL unsigned char *mask,
                                                LQ_GLOBAL float *p, const LQ_GLOBAL int *count,
                                                const LQ_GLOBAL float *ratio, int c, int nx,
                                                int per_cell)
{
    if (flags[c] != LQ_MAC_SURFACE) return;
    if (!(mask[c] & (1 << LQ_MAC_NY_PLUS)) || (mask[c] & (1 << LQ_MAC_NY_MINUS))) return;
    if (c < nx || flags[c - nx] != LQ_MAC_FULL) return;
    int m = count[c];
    if (m < 0) m = 0;
    if (m > per_cell) m = per_cell;
    /* the head between the full cell and the surface, capped at its hydrostatic value
     * |g| (f + ½) δy (ratio[per_cell + 1 + m]): an impact's pressure below a surface cell
     * fed back through this lagged line and blew a dam break up */
    float head = p[c - nx] - p[c], cap = ratio[per_cell + 1 + m];
    if (head > cap) head = cap;
    p[c] = p[c] + head * ratio[m];
}

#endif
