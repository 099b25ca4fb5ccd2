/*
 * full_shallow_validation.c — VALIDATION.md's `shallow` cases at the sizes of the
 * scenes under scenes/validation/ (label full), on the default device.
 */
#include "validation/shallow_validation.h"

int main(void)
{
    const char *dev = "auto";
    sv_lake_at_rest(dev, 0, NULL);
    const char *lake_face[] = {"liquid.0.level=0.5"};
    sv_lake_at_rest(dev, 1, lake_face); /* the surface on a multiple of the cell size */
    sv_damping(dev, 0.0, 0, NULL);
    sv_damping(dev, 0.1, 0, NULL);
    sv_long_wave(dev, 0, NULL);
    sv_thacker_planar(dev, 0, NULL);
    sv_thacker_radial(dev, 0, NULL);
    const char *advect[] = {"shallow.advection=true"};
    sv_thacker_radial(dev, 1, advect); /* with the advection the paper drops */
    sv_sloshing(dev, 0, NULL);
    sv_conservation(dev, 0, NULL);
    sv_filling(dev, 0, NULL);
    sv_dam_break(dev, 0, NULL);
    const char *paper[] = {"shallow.advection=false"};
    sv_dam_break(dev, 1, paper); /* the paper's model, for contrast (reported only) */
    CHECK_DONE();
}
