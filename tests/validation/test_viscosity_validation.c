/*
 * test_viscosity_validation.c — quick sizes of the pls viscosity validation
 * (tests/validation/viscosity_validation.h states the cases and why the closed-box Taylor–Green):
 *  - Taylor–Green, 32 cells on [0, π] (h = 2π/64), ν = 0.01, Δt = 0.05, 200 steps: the
 *    amplitude equals 1/(1 + νΔtλ_h)^200 = 0.81894395, λ_h = (8/h²) sin²(h/2), to 1e-5;
 *  - plane Poiseuille, 16 cells across: the middle profile within 1 % of
 *    g y (H − y)/(2ν) (of u_max = g H²/(8ν));
 *  - film on an incline, 16 cells deep (free surface, zero shear): the profile within 2 %
 *    of g sinθ y (2H − y)/(2ν) (of the surface speed g sinθ H²/(2ν));
 *  - a liquid ball spinning rigidly (2D, 32²) keeps Ω within 1 % over one revolution with
 *    the stress-consistent explicit part (LQ_VISCOSITY_CROSS_MASKED, constant and variable ν);
 *    the air-blind and the no-explicit variants are measured and printed.
 */
#include "validation/viscosity_validation.h"

int main(void)
{
    double amp, want, res;
    int it;
    vv_taylor_green(32, 0.01, 0.05, 200, &amp, &want, &it, &res);
    fprintf(stderr,
            "taylor-green 32 on [0,pi]: amplitude %.8f, 1/(1+nu dt lambda_h)^200 = %.8f, "
            "diff %.2g (max CG iterations %d, residual %.2g)\n",
            amp, want, amp - want, it, res);
    CHECK(fabs(want - 0.81894395) < 5e-8);
    CHECK(fabs(amp - want) < 1e-5);
    double err, um;
    vv_poiseuille(16, 1.0, 0.5, 1.0, 0.5, 30, 0, &err, &um, &it);
    fprintf(stderr,
            "poiseuille 16 across: profile err %.3g of u_max, max u / (gH^2/8nu) %.5f "
            "(max CG iterations %d)\n",
            err, um, it);
    CHECK(err < 0.01 && fabs(um - 1) < 0.01);
    vv_poiseuille(16, 1.0, 0.5, 1.0, 0.5, 30, 1, &err, &um, &it);
    fprintf(stderr,
            "inclined film 16 deep: profile err %.3g of g sin(theta) H^2/(2nu), top row u / "
            "exact there %.5f (max CG iterations %d)\n",
            err, um, it);
    CHECK(err < 0.02 && fabs(um - 1) < 0.02);
    const char *names[3] = {"masked (stress-consistent)", "none (CMVHT02)", "unmasked (air-blind)"};
    for (int var = 0; var < 2; var++)
        for (int cross = 0; cross < 3; cross++) {
            double r = vv_rotation(32, 1, 0.1, var, cross, 100);
            fprintf(stderr,
                    "rigid rotation 2D 32^2, nu %s 0.1, explicit %s: Omega after 1 rev / "
                    "before = %.6f\n",
                    var ? "random <=" : "=", names[cross], r);
            if (cross == LQ_VISCOSITY_CROSS_MASKED) CHECK(fabs(r - 1) < 0.01);
        }
    for (int cross = 1; cross < 3; cross++) {
        double r = vv_rotation(32, 1, 0.001, 0, cross, 100);
        fprintf(stderr,
                "rigid rotation 2D 32^2, nu = 0.001, explicit %s: Omega after 1 rev / "
                "before = %.6f\n",
                names[cross], r);
    }
    CHECK_DONE();
}
