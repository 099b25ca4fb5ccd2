/*
 * plsobject.cl — moving rigid objects of the `pls` solver (Rasmussen et al. 2004 §5.5).
 * The math is kernels/pls/plsobject_cell.h, shared with the reference twins
 * (host/ops/pls/plsobject_ref.c). Built with -DNX, -DNY, -DNZ (cells); face kernels run one
 * work-item per face of component c, cell kernels one per cell (3D ranges).
 */

#define LQ_PLSOBJECT_CELL                                                                          \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= NX || j >= NY || k >= NZ) return

kernel void plsobject_sdf(global float *sdf, global const float *sdf_static, int has_static,
                          global const float *desc, global const float *grids, int n, float h,
                          float far)
{
    LQ_PLSOBJECT_CELL;
    lq_plsobject_sdf_cell(sdf, sdf_static, has_static, desc, grids, n, h, far, i, j, k, NX, NY);
}

kernel void plsobject_vel(global float *out, global const float *sdf_static, int has_static,
                          global const float *desc, global const float *grids, int n, float h,
                          float band, int c)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (c == 0) || j >= NY + (c == 1) || k >= NZ + (c == 2)) return;
    lq_plsobject_vel_face(out, sdf_static, has_static, desc, grids, n, h, band, c, i, j, k, NX, NY,
                          NZ);
}

kernel void plsobject_separate(global float *phi, global const float *u, global const float *v,
                               global const float *w, global const float *uo,
                               global const float *vo, global const float *wo,
                               global const float *sdf, global const float *p, int use_p)
{
    LQ_PLSOBJECT_CELL;
    lq_plsobject_separate_cell(phi, u, v, w, uo, vo, wo, sdf, p, use_p, i, j, k, NX, NY, NZ);
}

kernel void plsobject_close(global float *phi, global const float *u, global const float *v,
                            global const float *w, global const float *uo, global const float *vo,
                            global const float *wo, global const float *sdf)
{
    LQ_PLSOBJECT_CELL;
    lq_plsobject_close_cell(phi, u, v, w, uo, vo, wo, sdf, i, j, k, NX, NY, NZ);
}

/* The particle kernels: p < n, and p < cnt[0] with use_cnt (the live count the device
 * holds, n then a bound). */
#define PARTICLE_OUT(p, n, cnt, use_cnt) ((p) >= (n) || ((use_cnt) && (p) >= (cnt)[0]))

kernel void plsobject_kill_air(global float *part, int n, global const int *cnt, int use_cnt,
                               global const float *sdf, float d, float ih)
{
    int p = get_global_id(0);
    if (PARTICLE_OUT(p, n, cnt, use_cnt)) return;
    lq_plsobject_kill_air_one(part + (size_t)p * LQ_PLSPARTICLES_STRIDE, sdf, d, ih, NX, NY, NZ);
}

kernel void plsobject_strat_label(global const float *part, global float *lab, int n,
                                  global const int *cnt, int use_cnt, global const float *sdf,
                                  global const float *phi, global const float *uo,
                                  global const float *vo, global const float *wo, float band,
                                  float hdt, float ih, float lx, float ly, float lz)
{
    int p = get_global_id(0);
    if (PARTICLE_OUT(p, n, cnt, use_cnt)) return;
    lq_plsobject_strat_label_one(part + (size_t)p * LQ_PLSPARTICLES_STRIDE,
                                 lab + (size_t)p * LQ_PLSPARTICLES_STRIDE, sdf, phi, uo, vo, wo,
                                 band, hdt, ih, lx, ly, lz, NX, NY, NZ);
}

kernel void plsobject_strat_apply(global float *part, global const float *lab, int n,
                                  global const int *cnt, int use_cnt, global const float *sdf,
                                  global const float *uo, global const float *vo,
                                  global const float *wo, float hdt, float ih, float h, float lx,
                                  float ly, float lz)
{
    int p = get_global_id(0);
    if (PARTICLE_OUT(p, n, cnt, use_cnt)) return;
    lq_plsobject_strat_apply_one(part + (size_t)p * LQ_PLSPARTICLES_STRIDE,
                                 lab + (size_t)p * LQ_PLSPARTICLES_STRIDE, sdf, uo, vo, wo, hdt, ih,
                                 h, lx, ly, lz, NX, NY, NZ);
}

kernel void plsobject_shift(global float *out, global const float *sdf, float d)
{
    LQ_PLSOBJECT_CELL;
    lq_plsobject_shift_cell(out, sdf, d, LQ_MAC_CELL(i, j, k, NX, NY));
}

kernel void plsobject_phi_init(global uchar *valid, global const float *sdf)
{
    LQ_PLSOBJECT_CELL;
    lq_plsobject_phi_init(valid, sdf, LQ_MAC_CELL(i, j, k, NX, NY));
}

kernel void plsobject_phi_layer(global float *phi, global const uchar *vin, global uchar *vout,
                                float h)
{
    LQ_PLSOBJECT_CELL;
    lq_plsobject_phi_layer(phi, vin, vout, h, i, j, k, NX, NY, NZ);
}
