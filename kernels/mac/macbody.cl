/*
 * macbody.cl — buoyant rigid bodies of the `mac` solver (Foster & Metaxas 1996 §5,
 * eq. 13–16): the per-node force and torque and their per-work-group reduction. The
 * per-node math is kernels/mac/macbody_cell.h, shared with the reference twin
 * (host/ops/mac/macbody_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per node over the padded node array
 * (a multiple of LQ_MACBODY_LOCAL; every group belongs to one body), local size LQ_MACBODY_LOCAL.
 * Each group writes one row of LQ_MACBODY_OUT sums to `out` by a fixed binary tree.
 * Two-way coupling (macbody_mark, macbody_face, macbody_body_pressure): one work-item
 * per cell over NX × NY × NZ; macbody_markers: one per marker, local size LQ_MACBODY_LOCAL.
 */

kernel __attribute__((reqd_work_group_size(LQ_MACBODY_LOCAL, 1, 1))) void
macbody_forces(global const float *nodes, global const int *nbody, global const float *bodies,
               global const float *p, global const float *u, global const float *v,
               global const float *w, global const uchar *flags, global const int *owner,
               int use_owner, float idx, float idy, float idz, global float *out)
{
    local float red[LQ_MACBODY_OUT * LQ_MACBODY_LOCAL];
    int n = get_global_id(0), l = get_local_id(0);
    float f[LQ_MACBODY_OUT];
    lq_macbody_node(nodes, nbody, bodies, p, u, v, w, flags, owner, use_owner, n, NX, NY, NZ, idx,
                    idy, idz, f);
    for (int q = 0; q < LQ_MACBODY_OUT; q++) red[q * LQ_MACBODY_LOCAL + l] = f[q];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LQ_MACBODY_LOCAL / 2; s > 0; s >>= 1) {
        if (l < s)
            for (int q = 0; q < LQ_MACBODY_OUT; q++)
                red[q * LQ_MACBODY_LOCAL + l] =
                    red[q * LQ_MACBODY_LOCAL + l] + red[q * LQ_MACBODY_LOCAL + l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        for (int q = 0; q < LQ_MACBODY_OUT; q++)
            out[get_group_id(0) * LQ_MACBODY_OUT + q] = red[q * LQ_MACBODY_LOCAL];
}

kernel void macbody_mark(global uchar *flags, global const uchar *static_flags, global int *owner,
                         global const float *bodies, int nbodies, float h)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_macbody_mark_cell(flags, static_flags, owner, bodies, nbodies, i, j, k, NX, NY, h);
}

kernel void macbody_face(global float *u, global float *v, global float *w,
                         global const uchar *flags, global const int *owner,
                         global const float *bodies, float h)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_macbody_face_cell(u, v, w, flags, owner, bodies, i, j, k, NX, NY, NZ, h);
}

kernel void macbody_body_pressure(global const float *src, global float *dst,
                                  global const uchar *flags, global const int *owner, int first,
                                  int last)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_macbody_body_pressure_cell(src, dst, flags, owner, i, j, k, NX, NY, NZ, first, last);
}

kernel __attribute__((reqd_work_group_size(LQ_MACBODY_LOCAL, 1, 1))) void
macbody_markers(global float *pos, int n, global const int *owner, global const float *bodies,
                float idx, float idy, float idz)
{
    int q = get_global_id(0);
    if (q >= n) return;
    lq_macbody_marker_one(pos, owner, bodies, q, NX, NY, NZ, idx, idy, idz);
}
