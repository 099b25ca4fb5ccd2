/*
 * mac_surface.cl — free-surface conditions of the `mac` solver: the empty-neighbour
 * masks of SURFACE cells, Gates' (2001) face velocities for all 63 configurations,
 * and the surface pressure of Foster & Metaxas (1996) §7.2, eq. 17–19. The math and
 * the table are kernels/mac/macsurface_cell.h, shared with the reference twins
 * (host/ops/mac/macsurface_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ. One work-item per cell over (NX, NY·NZ). apply runs in
 * one pass without ordering: a SURFACE cell writes only faces it shares with EMPTY
 * cells, which no other work-item reads or writes (the header explains why).
 */

kernel void macsurface_classify(global const uchar *flags, global uchar *mask)
{
    int i = get_global_id(0), jk = get_global_id(1);
    if (i >= NX || jk >= NY * NZ) return;
    lq_macsurface_classify_cell(flags, mask, i, jk % NY, jk / NY, NX, NY, NZ);
}

kernel void macsurface_apply(global const uchar *flags, global const uchar *mask, global float *u,
                             global float *v, global float *w, float hx, float hy, float hz,
                             float ix, float iy, float iz, float gx, float gy, float gz)
{
    int i = get_global_id(0), jk = get_global_id(1);
    if (i >= NX || jk >= NY * NZ) return;
    lq_macsurface_apply_cell(flags, mask, u, v, w, i, jk % NY, jk / NY, NX, NY, hx, hy, hz, ix, iy,
                             iz, gx, gy, gz);
}

kernel void macsurface_fill_pressure(global const uchar *flags, global const uchar *mask,
                                     global float *p, global const int *count,
                                     global const float *ratio, int per_cell)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_macsurface_fill_pressure_cell(flags, mask, p, count, ratio, c, NX, per_cell);
}

kernel void macsurface_pressure(global const uchar *flags, global float *p, int axis, float s0,
                                float ds, float p_atm, float A, float B, float C, float phase,
                                float inv_dt)
{
    int i = get_global_id(0), jk = get_global_id(1);
    if (i >= NX || jk >= NY * NZ) return;
    lq_macsurface_pressure_cell(flags, p, i, jk % NY, jk / NY, NX, NY, axis, s0, ds, p_atm, A, B, C,
                                phase, inv_dt);
}
