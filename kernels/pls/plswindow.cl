/*
 * plswindow.cl — the moving grid window's kernels (plswindow_cell.h states the rules).
 * plswindow_shift: one work-item per element of the moved lattice, reading the old one
 * (src and dst distinct). plswindow_particles: one per particle record, in place, one
 * atomic per particle left behind. plswindow_box: one per row (j, k), six atomics per row
 * holding liquid.
 */

kernel void plswindow_shift(global const float *src, global float *dst, int fx, int fy, int fz,
                            int dx, int dy, int dz, int mode, float fill, int wall)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= fx || j >= fy || k >= fz) return;
    dst[i + fx * (j + fy * k)] =
        lq_plswindow_shift_at(src, i, j, k, fx, fy, fz, dx, dy, dz, mode, fill, wall);
}

kernel void plswindow_particles(global float *part, int n, int stride, int rslot, float dxh,
                                float dyh, float dzh, float ex, float ey, float ez, global int *out)
{
    int q = get_global_id(0);
    if (q >= n) return;
    if (lq_plswindow_particle(part, q, stride, rslot, dxh, dyh, dzh, ex, ey, ez))
        atomic_add(out, 1);
}

kernel void plswindow_box(global const float *phi, int nx, int ny, int nz, global int *box)
{
    int j = get_global_id(0), k = get_global_id(1);
    if (j >= ny || k >= nz) return;
    int lo, hi;
    lq_plswindow_row(phi, j, k, nx, ny, &lo, &hi);
    lq_plswindow_row_box(box, j, k, lo, hi);
}
