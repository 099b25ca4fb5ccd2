/*
 * full_splash_validation.c — VALIDATION.md's `splash` cases at the sizes of the scenes
 * under scenes/validation/ (full label), on the default OpenCL device when there is
 * one (the quick test covers the reference path at small sizes).
 */
#include "validation/splash_validation.h"

int main(void)
{
    const char *dev = "auto";
    spv_ballistic(dev);
    spv_symmetry(dev, 0, NULL);
    /* 400 steps at Courant number 0.44 (at the scene's 200 fps this grid's steps would be
     * 0.89, past the pipes' stability bound of 0.866) */
    const char *sym[] = {"grid.size=[81,81]",
                         "grid.cell=0.01",
                         "time.frames=400",
                         "time.fps=400",
                         "liquid.1.hump.center=[0.405,0.405]",
                         "liquid.1.hump.sigma=0.02"};
    spv_symmetry(dev, 6, sym);
    spv_long_wave(dev, 0, NULL);
    spv_conservation(dev, 0, NULL);
    const char *cons[] = {"grid.size=[96,96]", "grid.cell=0.01", "time.frames=60",
                          "spray.threshold=1.0"};
    spv_conservation(dev, 4, cons);
    spv_lake_at_rest(dev, 0, NULL);
    const double shifts[4] = {0.0, 0.25, 0.5, 0.77};
    const char *fine_box[] = {"grid.size=[96,96]", "grid.cell=0.0125"};
    for (int j = 0; j < 4; j++)
        for (int g = 0; g < 2; g++) {
            double derr, tilt = spv_box(dev, shifts[j], g ? 2 : 0, g ? fine_box : NULL, &derr);
            CHECK(tilt <= 1.0);
            CHECK(fabs(derr) <= 0.02);
        }
    double slid;
    CHECK(fabs(spv_ramp(dev, 0, NULL, &slid)) <= 2e-3);
    double carried = spv_current(dev, 0, NULL);
    CHECK(carried >= 0.8 && carried <= 1.2);
    CHECK(spv_wave_push(dev, 0, NULL) >= 0.5);
    const char *fine[] = {"grid.size=[96,96]", "grid.cell=0.0125", "time.frames=330"};
    for (int i = 1; i <= 3; i++) {
        spv_float(dev, 0.25 * i, 0, NULL);
        spv_float(dev, 0.25 * i, 3, fine);
    }
    CHECK_DONE();
}
