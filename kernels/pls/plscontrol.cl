/*
 * plscontrol.cl — control particles of the `pls` solver (Rasmussen et al. 2004 §4): the
 * counting sort of the particles by tile, and the per-cell gathers that apply velocity
 * (eq. 4, hard control where α > 0.9), viscosity, level-set (with erasers) and divergence
 * control. The math and the binning's invariants: kernels/pls/plscontrol_cell.h, shared
 * with the reference twins (host/ops/pls/plscontrol_ref.c); the tiles' starts come from
 * the shared block scan (kernels/common/scan_cell.h, scan.cl).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per particle (key, scatter), per
 * LQ_SCAN_BLOCK tiles (start), per tile (sort), per cell (the gathers), or per (i, j, k)
 * of the (NX+1)·(NY+1)·(NZ+1) face box (faces). The gathers' bins are the arguments
 * part … reach (lq_plscontrol_bins).
 */

#define LQ_PLSCONTROL_BINS_ARGS                                                                    \
    global const float *part, global const int *order, global const int *tstart,                   \
        global const int *tcount, int tnx, int tny, int tnz, float ith, float reach
#define LQ_PLSCONTROL_BINS                                                                         \
    lq_plscontrol_bins b = {part, order, tstart, tcount, tnx, tny, tnz, ith, reach}

kernel void plscontrol_key(global const float *part, int n, global int *keys, global int *tcount,
                           float h, float ith, int tnx, int tny, int tnz)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int key = lq_plscontrol_key(part, i, NX, NY, NZ, h, ith, tnx, tny, tnz);
    keys[i] = key;
    if (key >= 0) atomic_add(&tcount[key], 1);
}

kernel void plscontrol_start(global const int *tcount, global const int *boff, global int *tstart,
                             global int *tfill, int nblocks, int ntiles)
{
    int blk = get_global_id(0);
    if (blk >= nblocks) return;
    lq_plscontrol_start_block(tcount, boff, tstart, tfill, blk, ntiles);
}

kernel void plscontrol_scatter(global const int *keys, int n, global const int *tstart,
                               global int *tfill, global int *order)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int key = keys[i];
    if (key < 0) return;
    order[tstart[key] + atomic_add(&tfill[key], 1)] = i;
}

kernel void plscontrol_sort(global int *order, global const int *tstart, global const int *tcount,
                            int ntiles)
{
    int t = get_global_id(0);
    if (t >= ntiles) return;
    lq_plscontrol_sort_tile(order, tstart, tcount, t);
}

kernel void plscontrol_velocity(LQ_PLSCONTROL_BINS_ARGS, global const float *phi,
                                global const float *sdf, int has_sdf, float h, global float *ca,
                                global float *cv, global float *solid, global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    LQ_PLSCONTROL_BINS;
    if (lq_plscontrol_velocity_cell(&b, phi, sdf, has_sdf, h, i, j, k, NX, NY, NZ, ca, cv, solid))
        atomic_add(&cnt[LQ_PLSCONTROL_CNT_HARD], 1);
}

kernel void plscontrol_faces(global float *u, global float *v, global float *w,
                             global const float *ca, global const float *cv,
                             global const float *phi, global const float *sdf, int has_sdf)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (j < NY && k < NZ && i <= NX) {
        int f = LQ_MAC_U(i, j, k, NX, NY);
        u[f] = lq_plscontrol_face(u[f], 0, i, j, k, NX, NY, NZ, ca, cv, phi, sdf, has_sdf);
    }
    if (i < NX && k < NZ && j <= NY) {
        int f = LQ_MAC_V(i, j, k, NX, NY);
        v[f] = lq_plscontrol_face(v[f], 1, i, j, k, NX, NY, NZ, ca, cv, phi, sdf, has_sdf);
    }
    if (NZ > 1 && i < NX && j < NY && k <= NZ) {
        int f = LQ_MAC_W(i, j, k, NX, NY);
        w[f] = lq_plscontrol_face(w[f], 2, i, j, k, NX, NY, NZ, ca, cv, phi, sdf, has_sdf);
    }
}

kernel void plscontrol_phi(LQ_PLSCONTROL_BINS_ARGS, int kinds, global float *phi,
                           global const float *sdf, int has_sdf, float h, global float *kill,
                           global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    LQ_PLSCONTROL_BINS;
    if (lq_plscontrol_phi_cell(&b, kinds, phi, sdf, has_sdf, h, i, j, k, NX, NY, NZ, kill))
        atomic_add(&cnt[LQ_PLSCONTROL_CNT_MOVED], 1);
}

kernel void plscontrol_viscosity(LQ_PLSCONTROL_BINS_ARGS, global const float *nu_in, int has_nu,
                                 float scale, float h, global float *nu_out)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    LQ_PLSCONTROL_BINS;
    lq_plscontrol_viscosity_cell(&b, nu_in, has_nu, scale, h, i, j, k, NX, NY, NZ, nu_out);
}

kernel void plscontrol_divergence(LQ_PLSCONTROL_BINS_ARGS, global const uchar *mask, int unknown,
                                  float scale, float h, global float *rhs)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    LQ_PLSCONTROL_BINS;
    lq_plscontrol_divergence_cell(&b, mask, unknown, scale, h, i, j, k, NX, NY, NZ, rhs);
}
