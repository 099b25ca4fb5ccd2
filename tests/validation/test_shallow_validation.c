/*
 * test_shallow_validation.c — VALIDATION.md's `shallow` cases at small sizes (quick):
 * the scenes under scenes/validation/ with coarser grids set through --set, on the
 * reference path (the diff tests tie the kernels to it).
 */
#include "validation/shallow_validation.h"

int main(void)
{
    const char *dev = "ref";
    const char *lake[] = {"grid.size=[48,48]", "grid.cell=0.1333333333"};
    sv_lake_at_rest(dev, 2, lake);
    const char *lake_face[] = {"grid.size=[48,48]", "grid.cell=0.1333333333", "liquid.0.level=0.4"};
    sv_lake_at_rest(dev, 3, lake_face); /* the surface on a multiple of the cell size */
    sv_damping(dev, 0.0, 1.0, 0, NULL); /* the paper's scheme */
    sv_damping(dev, 0.1, 1.0, 0, NULL);
    sv_damping(dev, 0.0, 0.5, 0, NULL); /* Crank–Nicolson */
    sv_damping(dev, 0.1, 0.5, 0, NULL);
    sv_long_wave(dev, 0, NULL);
    /* issue 18's targets at large steps, with the defaults; the paper's scheme reported */
    sv_pulse_result pulse = sv_pulse(dev, 0, NULL);
    CHECK(pulse.crest >= 0.80);
    CHECK(fabs(pulse.speed_error) <= 0.02);
    const char *paper_step[] = {"shallow.theta=1", "shallow.adi_iterations=1"};
    sv_pulse(dev, 2, paper_step);
    const char *cn[] = {"shallow.theta=0.5"};
    sv_pulse(dev, 1, cn); /* Crank–Nicolson, reported */
    double ring = sv_ring(dev, 0, NULL);
    CHECK(fabs(ring) <= 0.02);
    /* the measure sees the cross the single split solve makes */
    CHECK(fabs(sv_ring(dev, 2, paper_step)) > 0.1);
    const char *single[] = {"shallow.adi_iterations=1"};
    sv_ring(dev, 1, single); /* the new θ alone, reported */
    const char *planar[] = {"grid.size=[120,3]", "grid.cell=0.0333333333",
                            "terrain.0.bowl.center=[2.0,0.05]"};
    sv_thacker_planar(dev, 3, planar);
    const char *radial[] = {"grid.size=[64,64]", "grid.cell=0.046875"};
    sv_thacker_radial(dev, 2, radial);
    sv_sloshing(dev, 0, NULL);
    const char *cons[] = {"time.frames=48"};
    sv_conservation(dev, 1, cons);
    sv_filling(dev, 0, NULL);
    /* thin water: the limiter holds it to critical speed (the paper's model reported) */
    const char *beach[] = {"grid.size=[192,96]", "grid.cell=0.1", "time.frames=96"};
    CHECK(sv_thin_water(dev, 3, beach) == 0);
    const char *beach_paper[] = {"grid.size=[192,96]", "grid.cell=0.1", "time.frames=96",
                                 "shallow.thin_film=0", "shallow.advection=false"};
    sv_thin_water(dev, 5, beach_paper);
    /* walls: open ones let a wave out, absorbing ones swallow it, closed ones reflect */
    double drift, open = sv_walls(dev, 0, NULL, &drift);
    CHECK(open <= 0.05 && drift <= 1e-6);
    const char *absorbing[] = {"walls={x_min: absorbing, x_max: absorbing}",
                               "shallow.absorbing_width=0.5"};
    double absorbed = sv_walls(dev, 2, absorbing, &drift);
    CHECK(absorbed <= 0.05 && drift <= 1e-6);
    const char *closed[] = {"walls=free-slip"};
    CHECK(sv_walls(dev, 1, closed, &drift) >= 0.5); /* the measure sees a reflection */
    sv_dam_break(dev, 0, NULL);
    const char *paper[] = {"shallow.advection=false"};
    sv_dam_break(dev, 1, paper); /* the paper's model, for contrast (reported only) */
    CHECK_DONE();
}
