/*
 * test_mac_ceiling.c — two `mac` free-surface artefacts of the marker classification and
 * Gates' (2001) rules (quick, reference path; the scenes are written here):
 *
 *  1. A film one cell thick against the ceiling of a closed box, at rest, must fall.
 *     Gates' one-open-face rule set its bottom face from continuity, V(j) = V(j+1) +
 *     δy (ΔU/δx + ΔW/δz) = the ceiling's 0, so gravity never acted and the film hung for
 *     ever (before the fix: markers' centroid 0.1975 m and largest face speed 0 in all
 *     60 frames of case 2D). A hanging cell (kernels/mac/macsurface_cell.h) now falls by the body
 *     force; the rows it spreads over on the way stay SURFACE and its markers move with the
 *     bottom face (kernels/mac/markers_cell.h), so the pressure does not hold it up by suction.
 *     Asserted: the markers' centroid reaches the floor (within a cell of a film resting
 *     on it) no sooner than 0.9 and no later than 1.5 times the free-fall time
 *     sqrt(2 H / g); half-way there it has dropped at least half the free-fall distance;
 *     at the end no ceiling cell holds liquid.
 *  2. A cell inside still water with no markers (Foster & Metaxas §4.1 labels it EMPTY)
 *     held the atmosphere's pressure and pulled its neighbours in (before the fix: 0.488
 *     m/s in the first frame of case 2D, 0.02 m/s left after 10 frames). A cavity is now
 *     FULL. Asserted: the cell is never EMPTY and the largest face speed stays below
 *     1e-3 m/s over 10 frames, 2D and 3D.
 * The kernels' twins are compared in test_mac_surface.c, test_markers_ops.c and
 * test_momentum_ops.c.
 */
#include "validation/mac_validation.h"

/* Writes the scene text to path and opens it (mv_open), then removes the file. */
static int open_text(mv_run *r, const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return 1;
    fputs(text, f);
    fclose(f);
    int rc = mv_open(r, "ref", path, 0, NULL);
    remove(path);
    if (rc == 2) mv_close(r);
    return rc;
}

static int flag_at(mv_run *r, int i, int j, int k)
{
    lq_field_view v;
    if (r->sv.vt->view(r->sv.state, "flags", &v)) return -1;
    return (int)v.data[LQ_MAC_CELL(i, j, k, r->nx, r->ny)];
}

/* --- 1. a film on the ceiling --------------------------------------------------------- */

static void film(int nz)
{
    /* interior 0.06 × 0.2 (× 0.03) m, 5 mm cells; the film fills the top interior row */
    char text[1024];
    snprintf(text, sizeof text,
             "solver: mac\n"
             "grid: {size: [14, 42, %d], cell: 0.005, origin: [-0.005, -0.005, %s]}\n"
             "gravity: [0, -9.81, 0]\n"
             "time: {frames: 60, fps: 200}\n"
             "walls: free-slip\n"
             "liquid:\n"
             "  - box: {min: [0, 0.195, 0], max: [0.06, 0.2, %s]}\n"
             "output: {mesh: false, preview: false}\n",
             nz, nz == 1 ? "0" : "-0.005", nz == 1 ? "1" : "0.03");
    mv_run r;
    if (open_text(&r, nz == 1 ? "test_mac_ceiling_film2.yaml" : "test_mac_ceiling_film3.yaml",
                  text))
        return;
    lq_frame_stats st;
    r.sv.vt->measure(r.sv.state, &st);
    double y0 = mv_extra(&st, "centroid_y"), rest = 0.5 * r.dx, g = fabs(r.g[1]);
    double land = rest + r.dx; /* within a cell of a film resting on the floor */
    double tff = sqrt(2 * (y0 - land) / g), tland = NAN, half = NAN, vmax = 0;
    int f;
    for (f = 1; f <= r.sv.frames; f++) {
        if (mv_frame(&r, f, &st)) break;
        double t = f / r.sv.fps, y = mv_extra(&st, "centroid_y");
        vmax = fmax(vmax, st.max_speed);
        if (isnan(half) && t >= 0.5 * tff) half = (y0 - y) / (0.5 * g * t * t);
        if (isnan(tland) && y <= land) tland = t;
    }
    int top = 0, ceiling_liquid = 0;
    for (int k = 0; k < r.nz; k++)
        for (int i = 1; i < r.nx - 1; i++) {
            int kind = flag_at(&r, i, r.ny - 2, nz == 1 ? 0 : k);
            if (nz > 1 && (k == 0 || k == r.nz - 1)) continue;
            top++;
            ceiling_liquid += kind == LQ_MAC_FULL || kind == LQ_MAC_SURFACE;
        }
    fprintf(stderr,
            "film on the ceiling (%s): from y = %.4f m, free fall to within a cell of the floor "
            "%.4f s; landed at %.4f s (%.3f of it, bar 0.9-1.5); at t = t_ff/2 dropped %.3f of "
            "the free-fall distance (bar 0.5); largest face speed %.3f m/s; %d of %d ceiling "
            "cells liquid at the end\n",
            nz == 1 ? "2D" : "3D", y0, tff, tland, tland / tff, half, vmax, ceiling_liquid, top);
    CHECK(f > r.sv.frames);
    CHECK(tland >= 0.9 * tff && tland <= 1.5 * tff);
    CHECK(half >= 0.5);
    CHECK(ceiling_liquid == 0 && top > 0);
    mv_close(&r);
}

/* --- 2. a marker-less cell inside still water ----------------------------------------- */

static void cavity(int nz)
{
    /* still water 0.5 m deep, 2 cm cells; the cell [0.12, 0.14] × [0.08, 0.1] (× [0.04,
     * 0.06]) is left out of the boxes, so it starts with no markers */
    char text[2048];
    const char *z1 = nz == 1 ? "1" : "0.1"; /* the boxes' upper z (2D: the slab) */
    int n = snprintf(text, sizeof text,
                     "solver: mac\n"
                     "grid: {size: [14, 30, %d], cell: 0.02, origin: [-0.02, -0.02, %s]}\n"
                     "gravity: [0, -9.81, 0]\n"
                     "time: {frames: 10, fps: 60}\n"
                     "walls: free-slip\n"
                     "output: {mesh: false, preview: false}\n"
                     "liquid:\n"
                     "  - box: {min: [0, 0, 0], max: [0.12, 0.5, %s]}\n"
                     "  - box: {min: [0.14, 0, 0], max: [0.24, 0.5, %s]}\n"
                     "  - box: {min: [0.12, 0, 0], max: [0.14, 0.08, %s]}\n"
                     "  - box: {min: [0.12, 0.1, 0], max: [0.14, 0.5, %s]}\n",
                     nz, nz == 1 ? "0" : "-0.02", z1, z1, z1, z1);
    if (nz > 1)
        snprintf(text + n, sizeof text - (size_t)n,
                 "  - box: {min: [0.12, 0.08, 0], max: [0.14, 0.1, 0.04]}\n"
                 "  - box: {min: [0.12, 0.08, 0.06], max: [0.14, 0.1, 0.1]}\n");
    mv_run r;
    if (open_text(&r, nz == 1 ? "test_mac_ceiling_hole2.yaml" : "test_mac_ceiling_hole3.yaml",
                  text))
        return;
    int hi = 7, hj = 5, hk = nz == 1 ? 0 : 3; /* the hole's cell (grid indices) */
    int empty = flag_at(&r, hi, hj, hk) == LQ_MAC_EMPTY, f;
    double vmax = 0;
    lq_frame_stats st;
    for (f = 1; f <= r.sv.frames; f++) {
        if (mv_frame(&r, f, &st)) break;
        vmax = fmax(vmax, st.max_speed);
        empty += flag_at(&r, hi, hj, hk) == LQ_MAC_EMPTY;
    }
    fprintf(stderr,
            "cavity in still water (%s): the marker-less cell EMPTY in %d of %d frames (bar 0); "
            "largest face speed %.3g m/s (bar 1e-3)\n",
            nz == 1 ? "2D" : "3D", empty, r.sv.frames + 1, vmax);
    CHECK(f > r.sv.frames);
    CHECK(empty == 0);
    CHECK(vmax < 1e-3);
    mv_close(&r);
}

int main(void)
{
    film(1);
    film(8);
    cavity(1);
    cavity(7);
    CHECK_DONE();
}
