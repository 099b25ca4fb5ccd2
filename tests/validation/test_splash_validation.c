/*
 * test_splash_validation.c — VALIDATION.md's `splash` cases at small sizes (quick),
 * on the reference path (tests/ops/test_splash_ops.c ties the kernels to it).
 */
#include "validation/splash_validation.h"

int main(void)
{
    const char *dev = "ref";
    spv_ballistic(dev);
    spv_symmetry(dev, 0, NULL);
    const char *lw[] = {"grid.size=[300,3]", "grid.cell=0.01", "time.fps=200", "time.frames=260"};
    spv_long_wave(dev, 4, lw);
    spv_conservation(dev, 0, NULL);
    const char *lake[] = {"grid.size=[48,48]", "grid.cell=0.1333333333"};
    spv_lake_at_rest(dev, 2, lake);
    const char *drop[] = {"grid.size=[48,48]", "grid.cell=0.03125", "time.frames=20"};
    spv_steps_before_impact(dev, 3, drop);
    double carried = spv_current(dev, 0, NULL);
    CHECK(carried >= 0.8 && carried <= 1.2);
    double pushed = spv_wave_push(dev, 0, NULL);
    CHECK(pushed >= 0.5);
    /* issue 18, item 4: a floating box level and at Archimedes' draft wherever its edges
     * fall; a ball at rest on a dry slope */
    const double shifts[2] = {0.0, 0.5};
    for (int j = 0; j < 2; j++) {
        double derr, tilt = spv_box(dev, shifts[j], 0, NULL, &derr);
        CHECK(tilt <= 1.0);
        CHECK(fabs(derr) <= 0.02);
    }
    double slid, ramp = spv_ramp(dev, 0, NULL, &slid);
    CHECK(fabs(ramp) <= 2e-3);
    CHECK(fabs(slid) < 0.1); /* it bounced downhill a little, and stayed on the ramp */
    spv_float(dev, 0.5, 0, NULL);
    spv_float(dev, 0.25, 0, NULL);
    spv_float(dev, 0.75, 0, NULL);
    CHECK_DONE();
}
