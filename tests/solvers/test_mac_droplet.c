/*
 * test_mac_droplet.c — liquid one cell thick must move ballistically (quick, reference
 * path; scene scenes/validation/mac_droplet.yaml, cases through the solver table as in
 * tests/validation/mac_validation.h).
 *
 * Gates' open pairs (a SURFACE cell whose two neighbours along an axis are both EMPTY)
 * take the body force only (Gates 2001 §2.2–2.6). Eq. 2's convective term on such a face
 * reads the air beyond it (0), so it pushed the leading face of a drop moving along the
 * pair by about half the CFL number of its speed every step; with δt ∝ 1/speed that grows
 * geometrically (×1.45 per step at cfl 0.9): the full dam break's jet up the far wall
 * left the tank at 14 m/s and the run blew up (docs/VALIDATION.md). A pair's two faces
 * also kept whatever difference they had (stale air values), which the drop's closing
 * face turned into a steady stretch. Cases:
 *   - a one-cell drop thrown up at 1.5 m/s beside a wall;
 *   - the same drop in the open, thrown diagonally in zero g, and in an arc under
 *     gravity (it enters cells diagonally: their far faces must be in the air band);
 *   - a column a cell wide and 4 high falling beside a wall from rest;
 * each must keep its largest face speed within 10 % of |v0 + g t| (+ 0.05 m/s) in every
 * frame and its markers' centroid within 0.5 δx of x0 + v0 t + ½ g t². Every frame's
 * steps must also be even (the shortest at least half the longest: a frame used to end
 * on a sliver whose 1/δt-sized pressure the next step applied over a whole δt).
 */
#include "validation/mac_validation.h"

static void md_case(const char *label, int nsets, const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, "ref", "scenes/validation/mac_droplet.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "droplet (%s) not run", label);
        if (rc == 2) mv_close(&r);
        return;
    }
    const double *v0 = r.sv.cfg->liquid[0].box.velocity;
    const char *key[3] = {"centroid_x", "centroid_y", "centroid_z"};
    lq_frame_stats st;
    double c0[3];
    r.sv.vt->measure(r.sv.state, &st);
    for (int q = 0; q < 3; q++) c0[q] = mv_extra(&st, key[q]);
    double vworst = 0, vmax = 0, cworst = 0, ratio = 1;
    int steps = 0, nf = 0;
    for (int f = 1; f <= r.sv.frames; f++) {
        if (mv_frame(&r, f, &st)) break;
        steps += st.steps;
        nf = f;
        double t = f / r.sv.fps, vexp = 0, e = 0;
        for (int q = 0; q < 3; q++) {
            vexp = fmax(vexp, fabs(v0[q] + r.g[q] * t));
            double d = v0[q] * t + 0.5 * r.g[q] * t * t;
            e = fmax(e, fabs(mv_extra(&st, key[q]) - c0[q] - d));
        }
        vworst = fmax(vworst, st.max_speed - (1.1 * vexp + 0.05));
        vmax = fmax(vmax, st.max_speed);
        cworst = fmax(cworst, e);
        if (st.steps > 1) ratio = fmin(ratio, st.dt_min / st.dt_max);
    }
    fprintf(stderr,
            "droplet (%s): %d frames, %d steps; largest face speed %.3g m/s, over 1.1 "
            "|v0 + g t| + 0.05 by %.3g m/s at worst (bar 0); markers' centroid off the "
            "ballistic path by %.3g dx at worst (bar 0.5); shortest/longest step in a frame "
            "%.3f (bar 0.5)\n",
            label, nf, steps, vmax, vworst, cworst / r.dx, ratio);
    CHECK(nf == r.sv.frames);
    CHECK(vworst <= 0);
    CHECK(cworst <= 0.5 * r.dx);
    CHECK(ratio >= 0.5);
    mv_close(&r);
}

int main(void)
{
    md_case("thrown up beside a wall", 0, NULL);
    const char *open[] = {"gravity=[0,0,0]", "liquid.0.box.min=[0.02,0.05,0]",
                          "liquid.0.box.max=[0.025,0.055,1]", "liquid.0.box.velocity=[0.5,0.4,0]",
                          "time.frames=12"};
    md_case("in the open, zero g", 5, open);
    const char *arc[] = {"liquid.0.box.min=[0.01,0.02,0]", "liquid.0.box.max=[0.015,0.025,1]",
                         "liquid.0.box.velocity=[0.2,1.2,0]", "time.frames=40"};
    md_case("in the open, thrown in an arc", 4, arc);
    const char *column[] = {"liquid.0.box.min=[0.055,0.12,0]", "liquid.0.box.max=[0.06,0.14,1]",
                            "liquid.0.box.velocity=[0,0,0]", "time.frames=25", "time.cfl=0.2"};
    md_case("a column a cell wide, falling beside a wall", 5, column);
    CHECK_DONE();
}
