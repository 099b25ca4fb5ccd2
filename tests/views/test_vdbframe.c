/*
 * test_vdbframe.c — lq_vdbframe_distance (views/vdbframe.h), the signed distance written as
 * a VDB level set for a solver whose phi is not one (mac): from phi = 0.5 − ρ of a ball
 * (a marker-density-like field: the smoothed step of the ball, not a distance), the
 * distance within 2.5 cells of the surface matches the ball's true signed distance within
 * 0.2 h (measured 0.12 h: the marching-cubes surface is linear between cell centres), its
 * sign is phi's everywhere, and cells beyond the band read ±3 h.
 */
#include "lib/check.h"
#include "core/common.h"
#include "views/vdbframe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const int dims[3] = {32, 28, 24};
    const double h = 0.05, c[3] = {15.3, 13.7, 11.9}, R = 7.4; /* cells */
    const size_t n = (size_t)dims[0] * dims[1] * dims[2];
    float *phi = malloc(n * sizeof *phi), *d = malloc(n * sizeof *d);
    double worst = 0;
    int wrong_sign = 0, wrong_far = 0, inband = 0;
    for (int k = 0; k < dims[2]; k++)
        for (int j = 0; j < dims[1]; j++)
            for (int i = 0; i < dims[0]; i++) {
                double r = sqrt((i - c[0]) * (i - c[0]) + (j - c[1]) * (j - c[1]) +
                                (k - c[2]) * (k - c[2]));
                /* a density falling from 1 to 0 over 2 cells round the surface */
                double rho = 0.5 - 0.5 * tanh((r - R) / 1.0);
                phi[i + dims[0] * ((size_t)j + dims[1] * (size_t)k)] = (float)(0.5 - rho);
            }
    lq_vdbframe_distance(phi, dims, h, 3, d);
    for (int k = 0; k < dims[2]; k++)
        for (int j = 0; j < dims[1]; j++)
            for (int i = 0; i < dims[0]; i++) {
                size_t q = i + dims[0] * ((size_t)j + dims[1] * (size_t)k);
                double r = sqrt((i - c[0]) * (i - c[0]) + (j - c[1]) * (j - c[1]) +
                                (k - c[2]) * (k - c[2]));
                double exact = (r - R) * h;
                wrong_sign += (d[q] < 0) != (phi[q] < 0);
                if (fabs(exact) < 2.5 * h) {
                    worst = fmax(worst, fabs(d[q] - exact));
                    inband++;
                } else if (fabs(exact) > 4.5 * h) {
                    wrong_far += fabs(fabs(d[q]) - 3 * h) > 1e-6;
                }
            }
    fprintf(stderr, "%d cells within 2.5 h: worst |d - exact| = %.3f h\n", inband, worst / h);
    CHECK(inband > 1000);
    CHECK_MSG(wrong_sign == 0, "%d cells with the wrong sign", wrong_sign);
    CHECK_MSG(worst < 0.2 * h, "worst error %.3f h", worst / h);
    CHECK_MSG(wrong_far == 0, "%d cells beyond the band not at 3 h", wrong_far);
    free(phi);
    free(d);
    CHECK_DONE();
}
