/*
 * chains.cl — the cell classification of the 2D free-surface particle chains (Foster &
 * Metaxas 1996 §4.2, Fig. 5) as parallel label propagation. The passes, their order and
 * why each is race-free: kernels/mac/chains_cell.h, shared with the reference twins
 * (host/ops/mac/chains_ref.c). The chains themselves move with markers_advect (markers.cl).
 *
 * Built with -DNX, -DNY (cells; nz = 1). One work-item per cell (chains_clear, _grow,
 * _side, _spread, _label) or per point (chains_mark; n points, an argument, launched
 * with a fixed local size).
 */

kernel void chains_clear(global int *label, global const uchar *flags)
{
    int c = get_global_id(0);
    if (c >= NX * NY) return;
    lq_chains_clear_cell(label, flags, c);
}

kernel void chains_mark(global int *label, global const float *pos, global const int *next, int n,
                        global const uchar *flags, float idx, float idy)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_chains_mark_point(label, pos, next, flags, p, NX, NY, idx, idy);
}

kernel void chains_grow(global int *label, global int *changed)
{
    int i = get_global_id(0), j = get_global_id(1);
    if (i >= NX || j >= NY) return;
    if (lq_chains_grow_cell(label, i, j, NX, NY)) changed[0] = 1;
}

kernel void chains_side(global int *state, global const int *label, global const float *pos,
                        global const int *next, int n, float dx, float dy)
{
    int i = get_global_id(0), j = get_global_id(1);
    if (i >= NX || j >= NY) return;
    lq_chains_side_cell(state, label, pos, next, n, i, j, NX, dx, dy);
}

kernel void chains_spread(global int *state, global const int *label)
{
    int c = get_global_id(0);
    if (c >= NX * NY) return;
    lq_chains_spread_cell(state, label, c);
}

kernel void chains_label(global uchar *flags, global const int *state)
{
    int i = get_global_id(0), j = get_global_id(1);
    if (i >= NX || j >= NY) return;
    lq_markers_label_cell(flags, state, i, j, 0, NX, NY, 1, 0);
}
