/*
 * plscontrol.cl — control particles of the `pls` solver (Rasmussen et al. 2004 §4): the
 * counting sort of the particles by tile, and the per-cell gathers that apply velocity
 * (eq. 4, hard control where α > 0.9), viscosity, level-set (with erasers) and divergence
 * control. The math and the binning's invariants: kernels/pls/plscontrol_cell.h, shared
 * with the reference twins (host/ops/pls/plscontrol_ref.c); the tiles' starts come from
 * the shared block scan (kernels/common/scan_cell.h, scan.cl).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per particle (key and block marks,
 * scatter), per LQ_SCAN_BLOCK tiles or blocks (start, list), per tile (sort), per cell
 * (the φ, ν and divergence gathers; the base of the solid field with objects), or per
 * cell of the listed active blocks (the velocity gather and its faces; the base without
 * objects, over the last binning's list). The gathers' bins are the arguments part …
 * bny (lq_plscontrol_bins).
 */

#define LQ_PLSCONTROL_BINS_ARGS                                                                    \
    global const float *part, global const int *order, global const int *tstart,                   \
        global const int *tcount, int tnx, int tny, int tnz, float ith, float reach,               \
        global const int *map, int bnx, int bny
#define LQ_PLSCONTROL_BINS                                                                         \
    lq_plscontrol_bins b = {part, order, tstart, tcount, tnx, tny, tnz, ith, reach, map, bnx, bny}

kernel void plscontrol_key(global const float *part, int n, global int *keys, global int *tcount,
                           float h, float ith, int tnx, int tny, int tnz, global int *map, int bnx,
                           int bny, float ih)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int key = lq_plscontrol_key(part, i, NX, NY, NZ, h, ith, tnx, tny, tnz);
    keys[i] = key;
    if (key < 0) return;
    atomic_add(&tcount[key], 1);
    lq_plscontrol_mark(part, i, NX, NY, NZ, h, ih, bnx, bny, map);
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

kernel void plscontrol_list(global const int *map, global const int *boff, global int *list,
                            int nscan, int nblocks)
{
    int blk = get_global_id(0);
    if (blk >= nscan) return;
    lq_plscontrol_list_block(map, boff, list, blk, nblocks);
}

/* The solid field's base: every cell (full), or the cells of the listed blocks. */
kernel void plscontrol_base(global const int *list, int nlist, int full, int bnx, int bny,
                            global const float *sdf, int has_sdf, float h, global float *solid)
{
    int g = get_global_id(0), i, j, k;
    if (full) {
        if (g < NX * NY * NZ) lq_plscontrol_base_cell(sdf, has_sdf, h, g, solid);
        return;
    }
    if (lq_plscontrol_list_cell(list, nlist, g, bnx, bny, NX, NY, NZ, &i, &j, &k))
        lq_plscontrol_base_cell(sdf, has_sdf, h, LQ_MAC_CELL(i, j, k, NX, NY), solid);
}

kernel void plscontrol_velocity(LQ_PLSCONTROL_BINS_ARGS, global const int *list, int nlist,
                                global const float *phi, global const float *sdf, int has_sdf,
                                float h, global float *ca, global float *cv, global float *solid,
                                global int *cnt)
{
    int i, j, k;
    if (!lq_plscontrol_list_cell(list, nlist, get_global_id(0), bnx, bny, NX, NY, NZ, &i, &j, &k))
        return;
    LQ_PLSCONTROL_BINS;
    if (lq_plscontrol_velocity_cell(&b, phi, sdf, has_sdf, h, i, j, k, NX, NY, NZ, ca, cv, solid))
        atomic_add(&cnt[LQ_PLSCONTROL_CNT_HARD], 1);
}

kernel void plscontrol_faces(LQ_PLSCONTROL_BINS_ARGS, global const int *list, int nlist,
                             global float *u, global float *v, global float *w,
                             global const float *ca, global const float *cv,
                             global const float *phi, global const float *sdf, int has_sdf)
{
    int i, j, k;
    if (!lq_plscontrol_list_cell(list, nlist, get_global_id(0), bnx, bny, NX, NY, NZ, &i, &j, &k))
        return;
    LQ_PLSCONTROL_BINS;
    lq_plscontrol_faces_cell(&b, i, j, k, NX, NY, NZ, u, v, w, ca, cv, phi, sdf, has_sdf);
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
