/*
 * machf_cell.h — per-column and per-cell math of the height-field surface of the `mac`
 * solver (Foster & Metaxas 1996 §4.3, eq. 11–12), shared by the OpenCL kernels
 * (kernels/mac/machf.cl) and their reference twins (host/ops/mac/machf_ref.c). Grid: mac_grid.h.
 *
 * The surface. One height h[i + nx k] (m, from the grid's bottom edge y = 0) per
 * vertical column (i, k) of cells; y is up in this project, so the paper's vertical w is
 * our v and its horizontal (u, v) are our (u, w). A cell (i, j, k) is liquid when it is
 * not SOLID, INFLOW or OUTFLOW and its bottom is below the surface, j δy < h. The
 * surface row js of a column is the highest j with j δy < h (clamped to [0, ny − 1]).
 * A column's floor is the bottom of its lowest cell not of a fixed kind (δy over the
 * wall layer); a column with h at or below its floor is dry and is updated in the row
 * just above its floor, so liquid flowing in from a neighbour raises it.
 *
 * Eq. 12 (the paper's discretisation, with our axes):
 *   h' = h + δt { v̄ + (h[i−1] − h[i+1]) / (4 δx) · (u[i+½] + u[i−½])
 *                   + (h[k−1] − h[k+1]) / (4 δz) · (w[k+½] + w[k−½]) },
 * all velocities from the new field (t + δt: call it after step 7), at the surface row
 * js: u on the column's two x-faces, w on its two z-faces, and v̄ the vertical velocity
 * interpolated linearly in height between the surface cell's lower and upper y-faces
 * (the paper's bar, read as the value at the surface). A uniform v raises h by v δt
 * exactly (up to float rounding).
 * Boundaries: a neighbour column whose cell in row js is SOLID, INFLOW or OUTFLOW (or
 * that lies beyond the grid) is mirrored, h[nb] := h (∂h/∂n = 0, free-slip walls). A
 * column of fixed cells only (the wall columns) or whose surface cell is of a fixed kind
 * (a surface that has reached an obstacle's underside) keeps its h. h' is clamped to
 * [floor, ny δy] (a NaN becomes the floor).
 * Overturning cannot be represented: h stays one value per column, so a wave that would
 * overturn steepens instead (the measure on the host reports the steepest slope).
 *
 * Classification (§4.3: "cells crossed by the height field are Surface, those above it
 * Empty, those below it Full"), two race-free passes: (1) per cell, state = −1 for a
 * fixed kind, 1 for a liquid cell, 0 otherwise; (2) per cell, the marker path's rule
 * (lq_markers_label_cell, kernels/mac/markers_cell.h): a liquid cell with an EMPTY neighbour in
 * the grid is SURFACE, else FULL; others EMPTY; fixed kinds untouched. So the surface
 * row is SURFACE (unless it touches a ceiling), the cells under it FULL, and where a
 * neighbour column is lower by more than a cell the exposed side cells are SURFACE as
 * well — the same flags the marker path would give for the same liquid.
 *
 * Invariants (bit-for-bit twins): no division (the host passes 1/δy and 1/(4δ)), no
 * contraction, comparisons instead of fmin/fmax.
 */
#ifndef LQ_MACHF_CELL_H
#define LQ_MACHF_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "mac/markers_cell.h"

/* The surface row of a column of height hc: the highest j with j δy < hc, clamped to
 * [0, ny − 1]. */
LQ_INLINE int lq_machf_row(float hc, int ny, float dy, float idy)
{
    int j = (int)lq_markers_clampf(hc * idy, 0.0f, (float)ny);
    if (j > ny) j = ny;
    while (j > 0 && !((float)j * dy < hc)) j--;
    while (j + 1 < ny && (float)(j + 1) * dy < hc) j++;
    if (j > ny - 1) j = ny - 1;
    return j;
}

/* Eq. 12 for column (i, k): reads h, writes hn. q4x = 1/(4 δx), q4z = 1/(4 δz); ly =
 * ny δy. */
LQ_INLINE void lq_machf_advance_column(LQ_GLOBAL float *hn, const LQ_GLOBAL float *h,
                                       const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                       const LQ_GLOBAL float *w,
                                       const LQ_GLOBAL unsigned char *flags, int i, int k, int nx,
                                       int ny, int nz, float dy, float idy, float q4x, float q4z,
                                       float ly, float dt)
{
    int col = i + nx * k;
    float hc = h[col];
    /* the column's floor: the bottom of its lowest cell not of a fixed kind */
    int jf = 0;
    while (jf < ny && lq_markers_fixed(flags[LQ_MAC_CELL(i, jf, k, nx, ny)])) jf++;
    if (jf >= ny) { /* all fixed: a wall column */
        hn[col] = hc;
        return;
    }
    float hfl = (float)jf * dy;
    if (!(hc >= hfl)) hc = hfl; /* a dry column sits on its floor */
    int js = lq_machf_row(hc, ny, dy, idy);
    if (js < jf) js = jf; /* dry: the first row above the floor */
    if (lq_markers_fixed(flags[LQ_MAC_CELL(i, js, k, nx, ny)])) { /* under an overhang */
        hn[col] = hc;
        return;
    }
    /* v̄: v at height hc between the faces at js δy and (js + 1) δy */
    float f = lq_markers_clampf(hc * idy - (float)js, 0.0f, 1.0f);
    float vs = lq_markers_lerp(v[LQ_MAC_V(i, js, k, nx, ny)], v[LQ_MAC_V(i, js + 1, k, nx, ny)], f);
    /* neighbours, mirrored where the neighbour's cell in this row is fixed */
    float hl = hc, hr = hc, hb = hc, hf = hc;
    if (i > 0 && !lq_markers_fixed(flags[LQ_MAC_CELL(i - 1, js, k, nx, ny)])) hl = h[col - 1];
    if (i < nx - 1 && !lq_markers_fixed(flags[LQ_MAC_CELL(i + 1, js, k, nx, ny)])) hr = h[col + 1];
    if (k > 0 && !lq_markers_fixed(flags[LQ_MAC_CELL(i, js, k - 1, nx, ny)])) hb = h[col - nx];
    if (k < nz - 1 && !lq_markers_fixed(flags[LQ_MAC_CELL(i, js, k + 1, nx, ny)])) hf = h[col + nx];
    float us = u[LQ_MAC_U(i, js, k, nx, ny)] + u[LQ_MAC_U(i + 1, js, k, nx, ny)];
    float ws = w[LQ_MAC_W(i, js, k, nx, ny)] + w[LQ_MAC_W(i, js, k + 1, nx, ny)];
    float rate = vs + (hl - hr) * q4x * us + (hb - hf) * q4z * ws; /* eq. 12's braces */
    hn[col] = lq_markers_clampf(hc + dt * rate, hfl, ly);
}

/* Classification pass 1, cell (i, j, k): −1 fixed, 1 liquid (j δy < h), 0 empty. */
LQ_INLINE void lq_machf_fill_cell(LQ_GLOBAL int *state, const LQ_GLOBAL unsigned char *flags,
                                  const LQ_GLOBAL float *h, int i, int j, int k, int nx, int ny,
                                  float dy)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (lq_markers_fixed(flags[c]))
        state[c] = -1;
    else
        state[c] = (float)j * dy < h[i + nx * k] ? 1 : 0;
}

#endif
