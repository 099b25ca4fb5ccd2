/*
 * test_meshout.c — meshout.h, the 3D solvers' surface mesh with its columns:
 *  1. the velocity per vertex: face grids holding a linear field (u = 1 + 2x − y,
 *     v = −0.5 + z, w = 3y − x, m/s with x, y, z in m) are sampled at each vertex of a
 *     ball's surface to the field's value there within float round-off (trilinear
 *     sampling reproduces a linear field; each component on its own staggered grid, so a
 *     half-cell slip of any grid would show as an error of 0.5 h·gradient = 0.025 m/s);
 *  2. the columns are x y z nx ny nz vx vy vz with a velocity, x y z nx ny nz without
 *     (with texture particles too: test_texmap and cli_pls_texture).
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"
#include "views/meshout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 20
static const double H = 0.05, O[3] = {-0.3, 0.1, 0.2}; /* lower corner, m */

static double field(int a, const double x[3])
{
    return a == 0 ? 1 + 2 * x[0] - x[1] : a == 1 ? -0.5 + x[2] : 3 * x[1] - x[0];
}

int main(void)
{
    float *phi = malloc(N * N * N * sizeof *phi), *f[3];
    const double sp[3] = {H, H, H};
    for (int k = 0; k < N; k++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                double x = (i + 0.5) * H - 0.5, y = (j + 0.5) * H - 0.5, z = (k + 0.5) * H - 0.5;
                phi[i + N * (j + N * k)] = (float)(sqrt(x * x + y * y + z * z) - 0.3);
            }
    for (int a = 0; a < 3; a++) {
        int n[3] = {N, N, N};
        n[a]++;
        f[a] = malloc((size_t)n[0] * n[1] * n[2] * sizeof(float));
        for (int k = 0; k < n[2]; k++)
            for (int j = 0; j < n[1]; j++)
                for (int i = 0; i < n[0]; i++) {
                    double x[3] = {O[0] + (i + (a == 0 ? 0 : 0.5)) * H,
                                   O[1] + (j + (a == 1 ? 0 : 0.5)) * H,
                                   O[2] + (k + (a == 2 ? 0 : 0.5)) * H};
                    f[a][i + n[0] * (j + (size_t)n[1] * k)] = (float)field(a, x);
                }
    }
    lq_meshout_vel vel = {f[0], f[1], f[2]};
    char path[64];
    snprintf(path, sizeof path, "/tmp/lq_meshout_%d.ply", (int)getpid());
    CHECK_OK(lq_meshout_write(path, N, N, N, O, sp, phi, &vel, NULL, NULL));
    lq_ply ply;
    CHECK_OK(lq_ply_read(path, &ply));
    const char *want[9] = {"x", "y", "z", "nx", "ny", "nz", "vx", "vy", "vz"};
    CHECK(ply.nprops == 9 && ply.nverts > 500);
    for (int i = 0; i < 9 && i < ply.nprops; i++) CHECK(strcmp(ply.names[i], want[i]) == 0);
    double worst = 0;
    for (int v = 0; v < ply.nverts && ply.nprops == 9; v++) {
        double x[3] = {ply.columns[0][v], ply.columns[1][v], ply.columns[2][v]};
        for (int a = 0; a < 3; a++) worst = fmax(worst, fabs(ply.columns[6 + a][v] - field(a, x)));
    }
    fprintf(stderr, "%d vertices: worst velocity error %.2g m/s\n", ply.nverts, worst);
    CHECK_MSG(worst < 1e-5, "velocity at the vertices off by %.3g m/s", worst);
    lq_ply_free(&ply);
    CHECK_OK(lq_meshout_write(path, N, N, N, O, sp, phi, NULL, NULL, NULL));
    CHECK_OK(lq_ply_read(path, &ply));
    CHECK(ply.nprops == 6);
    lq_ply_free(&ply);
    unlink(path);
    for (int a = 0; a < 3; a++) free(f[a]);
    free(phi);
    CHECK_DONE();
}
