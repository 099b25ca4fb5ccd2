/*
 * full_mac_validation.c — VALIDATION.md's `mac` cases at the sizes of the scenes under
 * scenes/validation/ (label full), on the default device, with VALIDATION.md's bars
 * (tests/validation/mac_validation.h has the cases):
 *   - standing wave, a k = 0.03 at 32 cells per wavelength, modes 1 and 2, 36 markers
 *     per cell (mac.particles: the wave is 0.15 δx high): period from the markers' mode
 *     amplitude within 5 %; the same waves with the still level mid-cell (h + ½ δx)
 *     within 5 %; the resolved waves (2 δx high) within 2 % (all with the default
 *     mac.surface_solve, the ghost fluid at the marker fill: docs/VALIDATION.md);
 *   - free fall, 100 steps: from rest, thrown under gravity, thrown in zero g: centroid
 *     within 0.1 δx, shape, and every face moving with the ball;
 *   - dam break against Martin & Moyce (1952) at a = 40 cells; the curves go to
 *     $LQ_DAM_BREAK_CSV (default out/mac_dam_break.csv) for tools/plot-dam-break.
 */
#include <sys/stat.h>

#include "validation/mac_validation.h"

int main(void)
{
    const char *dev = "auto";
    const char *mode1[] = {"mac.particles=36", "output.markers=true"};
    mv_standing_wave(dev, 0.05, 2, mode1);
    const char *mode2[] = {"grid.size=[34,22,1]",
                           "grid.cell=0.03125",
                           "grid.origin=[-0.03125,-0.03125,0]",
                           "liquid.1.wave.mode=2",
                           "liquid.1.wave.amplitude=0.004775",
                           "time.frames=125",
                           "mac.particles=36",
                           "output.markers=true"};
    mv_standing_wave(dev, 0.05, 8, mode2);
    const char *mode1_mid[] = {"mac.particles=36", "output.markers=true", "liquid.0.level=0.53125"};
    mv_standing_wave(dev, 0.05, 3, mode1_mid);
    const char *mode2_mid[] = {"grid.size=[34,22,1]",
                               "grid.cell=0.03125",
                               "grid.origin=[-0.03125,-0.03125,0]",
                               "liquid.1.wave.mode=2",
                               "liquid.1.wave.amplitude=0.004775",
                               "time.frames=125",
                               "mac.particles=36",
                               "output.markers=true",
                               "liquid.0.level=0.515625"};
    mv_standing_wave(dev, 0.05, 9, mode2_mid);
    const char *mode1_resolved[] = {"grid.size=[66,50,1]", "grid.cell=0.015625",
                                    "grid.origin=[-0.015625,-0.015625,0]",
                                    "liquid.1.wave.amplitude=0.03183", "output.markers=true"};
    mv_standing_wave(dev, 0.02, 5, mode1_resolved);
    const char *mode2_resolved[] = {"grid.size=[66,50,1]",
                                    "grid.cell=0.015625",
                                    "grid.origin=[-0.015625,-0.015625,0]",
                                    "liquid.1.wave.mode=2",
                                    "liquid.1.wave.amplitude=0.03183",
                                    "time.frames=125",
                                    "output.markers=true"};
    mv_standing_wave(dev, 0.02, 7, mode2_resolved);
    const char *rest[] = {"liquid.0.sphere.velocity=[0,0,0]"};
    mv_free_fall(dev, "gravity, from rest", 2, 1, rest);
    mv_free_fall(dev, "gravity, v0 = [0.5, 0, 0]", 2, 0, NULL);
    const char *zero_g[] = {"gravity=[0,0,0]", "liquid.0.sphere.velocity=[1,0.5,0]",
                            "liquid.0.sphere.center=[0.15,0.2,0.16]"};
    mv_free_fall(dev, "zero g, v0 = [1, 0.5, 0]", 2, 3, zero_g);
    const char *csv = getenv("LQ_DAM_BREAK_CSV");
    if (!csv) {
        mkdir("out", 0777);
        csv = "out/mac_dam_break.csv";
    }
    mv_dam_break(dev, csv, 0, NULL);
    CHECK_DONE();
}
