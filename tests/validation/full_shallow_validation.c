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
    sv_damping(dev, 0.0, 1.0, 0, NULL); /* the paper's scheme */
    sv_damping(dev, 0.1, 1.0, 0, NULL);
    sv_damping(dev, 0.0, 0.5, 0, NULL); /* Crank–Nicolson */
    sv_damping(dev, 0.1, 0.5, 0, NULL);
    sv_long_wave(dev, 0, NULL);
    sv_pulse_result pulse = sv_pulse(dev, 0, NULL);
    CHECK(pulse.crest >= 0.80);
    CHECK(fabs(pulse.speed_error) <= 0.02);
    CHECK(fabs(sv_ring(dev, 0, NULL)) <= 0.02);
    sv_thacker_planar(dev, 0, NULL);
    sv_thacker_radial(dev, 0, NULL);
    const char *paper[] = {"shallow.advection=false"};
    sv_thacker_radial(dev, 1, paper); /* the paper's model: no advection, θ = 1 */
    sv_thacker_planar(dev, 1, paper);
    sv_sloshing(dev, 0, NULL);
    sv_conservation(dev, 0, NULL);
    sv_filling(dev, 0, NULL);
    CHECK(sv_thin_water(dev, 0, NULL) == 0);
    double drift;
    CHECK(sv_walls(dev, 0, NULL, &drift) <= 0.05 && drift <= 1e-6);
    const char *absorbing[] = {"walls={x_min: absorbing, x_max: absorbing}",
                               "shallow.absorbing_width=0.5"};
    CHECK(sv_walls(dev, 2, absorbing, &drift) <= 0.05 && drift <= 1e-6);
    const char *absorbing_default[] = {"walls={x_min: absorbing, x_max: absorbing}"};
    sv_walls(dev, 1, absorbing_default, &drift); /* 32 cells: reported */
    const char *beach_paper[] = {"shallow.thin_film=0", "shallow.advection=false",
                                 "shallow.adi_iterations=1"};
    sv_thin_water(dev, 3, beach_paper); /* the paper's model: reported */
    sv_dam_break(dev, 0, NULL);
    sv_dam_break(dev, 1, paper); /* the paper's model, for contrast (reported only) */
    CHECK_DONE();
}
