/*
 * machf.cl — the height-field surface of the `mac` solver (Foster & Metaxas 1996 §4.3,
 * eq. 11–12): the column update and the two passes of the cell classification. The
 * math, the sampling and the boundary rules are kernels/mac/machf_cell.h, shared with the
 * reference twins (host/ops/mac/machf_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per column (machf_advance, nx × nz)
 * or per cell (machf_fill, machf_label).
 */

kernel void machf_advance(global float *hn, global const float *h, global const float *u,
                          global const float *v, global const float *w, global const uchar *flags,
                          float dy, float idy, float q4x, float q4z, float ly, float dt)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_machf_advance_column(hn, h, u, v, w, flags, i, k, NX, NY, NZ, dy, idy, q4x, q4z, ly, dt);
}

kernel void machf_fill(global int *state, global const uchar *flags, global const float *h,
                       float dy)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_machf_fill_cell(state, flags, h, i, j, k, NX, NY, dy);
}

kernel void machf_label(global uchar *flags, global const int *state)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_markers_label_cell(flags, state, i, j, k, NX, NY, NZ, 0);
}
