/*
 * test_pls_validation.c — VALIDATION.md's `pls` cases at small sizes (quick), on the
 * reference path (tests/validation/pls_validation.h has the cases and their bars):
 *   - the hydrostatic tank as its scene is (max speed ≤ 1e-4 √(g D), volume within 1e-5);
 *   - the standing wave at VALIDATION.md's 32 cells per wavelength (a k = 0.03), mode 1
 *     as its scene is (16 x 12, h = 1/16 m: the water 8 cells deep, the lid 4 cells above
 *     it) and mode 2 (h = 1/32 m), and mode 1 at 64 cells per wavelength (h = 1/32 m):
 *     periods within the 2 % target;
 *   - the dam break's first step at a = 16 cells: the back half of the column accelerates
 *     as inviscid potential flow says, within 0.002 g on every face (the back wall's
 *     included);
 *   - the dam break against Martin & Moyce at a = 16 cells: the volume change within
 *     2 %; the comparison with the measurements reported (full_pls_validation.c checks
 *     it at a = 40 cells).
 */
#include "validation/pls_validation.h"

int main(void)
{
    const char *dev = "ref";
    pv_tank(dev, 0, NULL);
    pv_standing_wave(dev, 0.02, 0, NULL);
    const char *mode2[] = {"grid.size=[32,24,1]", "grid.cell=0.03125", "liquid.1.wave.mode=2",
                           "liquid.1.wave.amplitude=0.004775", "time.frames=125"};
    pv_standing_wave(dev, 0.02, 5, mode2);
    const char *mode1[] = {"grid.size=[32,24,1]", "grid.cell=0.03125"};
    pv_standing_wave(dev, 0.02, 2, mode1);
    const char *dam[] = {"grid.size=[128,40,1]", "grid.cell=0.003571875"};
    pv_dam_release(dev, 0.002, 2, dam);
    pv_dam_break(dev, NULL, 0, 2, dam);
    CHECK_DONE();
}
