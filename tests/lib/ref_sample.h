/*
 * ref_sample.h — independent double-precision samples for tests: what a kernel's
 * sampling should give, written without the kernel's code (STYLE.md: check the math,
 * not only twin agreement).
 */
#ifndef LQ_REF_SAMPLE_H
#define LQ_REF_SAMPLE_H

#include <stddef.h>

/* Trilinear sample of a cell-centred field f (nx·ny·nz, cells of h) at p (m, grid-
 * relative), clamped to the cell centres as lq_plsparticles_sample does; axes of one cell drop. */
static inline double ref_trilinear(const float *f, const float *p, int nx, int ny, int nz, double h)
{
    double g[3], fr[3], v = 0;
    int i0[3], dim[3] = {nx, ny, nz};
    for (int e = 0; e < 3; e++) {
        g[e] = p[e] / h - 0.5;
        if (g[e] < 0) g[e] = 0;
        if (g[e] > dim[e] - 1) g[e] = dim[e] - 1;
        i0[e] = (int)g[e];
        if (i0[e] > dim[e] - 2) i0[e] = dim[e] - 2 < 0 ? 0 : dim[e] - 2;
        fr[e] = dim[e] > 1 ? g[e] - i0[e] : 0;
    }
    for (int c = 0; c < 8; c++) {
        int ii[3];
        double wgt = 1;
        for (int e = 0; e < 3; e++) {
            int b = (c >> e) & 1;
            ii[e] = i0[e] + (dim[e] > 1 ? b : 0);
            wgt *= b ? fr[e] : 1 - fr[e];
        }
        v += wgt * f[ii[0] + (size_t)nx * (ii[1] + (size_t)ny * ii[2])];
    }
    return v;
}

#endif
