/*
 * test_mac_noslip_markers.c — markers beside a no-slip wall move with the liquid (quick,
 * reference path; scene scenes/validation/mac_droplet.yaml with walls: no-slip).
 *
 * The obstacle rule mirrors a tangential face into a no-slip wall as −q (§3.2.1), which
 * eq. 2's viscous term needs; but the markers sample the same faces, and between the
 * liquid's face and its mirror the velocity falls to 0 at the wall: a marker a quarter
 * cell from it moved at half the liquid's speed, one pressed onto it not at all. Markers
 * on a rock froze, their cell stayed SURFACE and its open pair gained g δt every step
 * (Moonlight Cove: 17 m/s by frame 75). Step 7 (host/solvers/mac.c) now sets free-slip
 * ghosts for the markers' move; step 4 mirrors again before eq. 2.
 * Case: a column a cell wide and 4 high falling from rest beside the no-slip wall: its
 * markers' centroid must follow ½ g t² within 0.5 δx for 25 frames (it lagged 3.8 δx,
 * 75 % of the fall, before), and its largest face speed stay within 10 % of g t.
 */
#include "validation/mac_validation.h"

int main(void)
{
    mv_run r;
    const char *sets[] = {"walls=no-slip",
                          "liquid.0.box.min=[0.055,0.12,0]",
                          "liquid.0.box.max=[0.06,0.14,1]",
                          "liquid.0.box.velocity=[0,0,0]",
                          "time.frames=25",
                          "time.cfl=0.2"};
    int rc = mv_open(&r, "ref", "scenes/validation/mac_droplet.yaml", (int)LQ_COUNT(sets), sets);
    if (rc) {
        CHECK_MSG(0, "no-slip column not run");
        if (rc == 2) mv_close(&r);
        CHECK_DONE();
    }
    lq_frame_stats st;
    r.sv.vt->measure(r.sv.state, &st);
    double y0 = mv_extra(&st, "centroid_y"), worst = 0, vworst = 0, drop = 0;
    int nf = 0;
    for (int f = 1; f <= r.sv.frames; f++) {
        if (mv_frame(&r, f, &st)) break;
        nf = f;
        double t = f / r.sv.fps, want = -0.5 * r.g[1] * t * t;
        drop = y0 - mv_extra(&st, "centroid_y");
        worst = fmax(worst, fabs(drop - want));
        vworst = fmax(vworst, fabs(st.max_speed - fabs(r.g[1]) * t) / (fabs(r.g[1]) * t));
    }
    double t = nf / r.sv.fps;
    fprintf(stderr,
            "no-slip column: %d frames; fell %.4f m (1/2 g t^2 = %.4f); centroid off by %.3g dx "
            "at worst (bar 0.5); largest face speed off g t by %.3g (bar 0.1)\n",
            nf, drop, -0.5 * r.g[1] * t * t, worst / r.dx, vworst);
    CHECK(nf == r.sv.frames);
    CHECK(worst <= 0.5 * r.dx);
    CHECK(vworst <= 0.1);
    mv_close(&r);
    CHECK_DONE();
}
