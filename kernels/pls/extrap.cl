/*
 * extrap.cl — velocity extrapolation for the `pls` solver (Rasmussen et al. 2004 §3,
 * §5.2, §5.5.1). The math is kernels/pls/extrap_cell.h, shared with the reference twins
 * (host/ops/pls/extrap_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). Face kernels run one work-item per face of one
 * component c (a 3D range of that component's extent); cell kernels one per cell.
 */

#define LQ_EXTRAP_FACE                                                                             \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= NX + (c == 0) || j >= NY + (c == 1) || k >= NZ + (c == 2)) return

#define LQ_EXTRAP_CELL                                                                             \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= NX || j >= NY || k >= NZ) return

kernel void extrap_init(global uchar *valid, global const float *phi, global const float *sdf,
                        int use_sdf, int c)
{
    LQ_EXTRAP_FACE;
    lq_extrap_init_face(valid, phi, sdf, use_sdf, c, i, j, k, NX, NY, NZ);
}

/* Extrapolation by fronts (extrap_cell.h): lev is valid[0][c]. */
kernel void extrap_layer_lev(global float *vel, global uchar *lev, int c, int l)
{
    LQ_EXTRAP_FACE;
    lq_extrap_layer_lev(vel, lev, c, i, j, k, NX, NY, NZ, l);
}

/* Front 0 of component c into front[0, cnt[at + c]) (counting past cap: cnt[3] is then set
 * and the host redoes the layers over the whole grid); the order is free (each face's
 * update is independent of it). */
kernel void extrap_seed(global const uchar *lev, int c, global int *front, global volatile int *cnt,
                        int cap, int at)
{
    LQ_EXTRAP_FACE;
    if (!lq_extrap_seed_face(lev, c, i, j, k, NX, NY, NZ)) return;
    int q = atomic_inc(&cnt[at + c]);
    if (q < cap)
        front[q] = i + (NX + (c == 0)) * (j + (NY + (c == 1)) * k);
    else
        cnt[3] = 1;
}

/* Layer l at the faces of its front (cnt[at + c] of them, at most cap), a fixed grid
 * striding over them: the count stays on the device. */
kernel void extrap_front(global float *vel, global uchar *lev, int c, int l,
                         global const int *front, global const int *cnt, int at, int cap)
{
    int n = min(cnt[at + c], cap);
    for (int t = get_global_id(0); t < n; t += get_global_size(0)) {
        int i, j, k;
        lq_extrap_face_ijk(c, front[t], NX, NY, NZ, &i, &j, &k);
        lq_extrap_layer_lev(vel, lev, c, i, j, k, NX, NY, NZ, l);
    }
}

/* Front l + 1 from front l's faces (cnt[at + c], at most cap) into next[0, cnt[nat + c])
 * (at most ncap; past it cnt[3] is set). */
kernel void extrap_expand(global const uchar *lev, int c, int l, global const int *front, int at,
                          int cap, global int *next, global volatile int *cnt, int nat, int ncap)
{
    int n = min(cnt[at + c], cap);
    for (int t = get_global_id(0); t < n; t += get_global_size(0)) {
        int f = front[t];
        for (int m = 0; m < 6; m++) {
            int g = lq_extrap_expand_face(lev, c, f, m, NX, NY, NZ, l);
            if (g < 0) continue;
            int q = atomic_inc(&cnt[nat + c]);
            if (q < ncap)
                next[q] = g;
            else
                cnt[3] = 1;
        }
    }
}

kernel void extrap_band(global uchar *band, global float *rhs, global float *p,
                        global const float *u, global const float *v, global const float *w,
                        global const uchar *vu, global const uchar *vv, global const uchar *vw,
                        global const float *phi, global const float *sdf, int use_sdf)
{
    LQ_EXTRAP_CELL;
    lq_extrap_band_cell(band, rhs, p, u, v, w, vu, vv, vw, phi, sdf, use_sdf, i, j, k, NX, NY, NZ);
}

kernel void extrap_sor(global float *p, global const uchar *band, global const float *rhs,
                       global const float *phi, global const float *sdf, int use_sdf, int colour,
                       float omega)
{
    LQ_EXTRAP_CELL;
    lq_extrap_sor_cell(p, band, rhs, phi, sdf, use_sdf, colour, omega, i, j, k, NX, NY, NZ);
}

kernel void extrap_correct(global float *vel, global const float *p, global const uchar *band,
                           global const float *phi, global const float *sdf, int use_sdf, int c)
{
    LQ_EXTRAP_FACE;
    lq_extrap_correct_face(vel, p, band, phi, sdf, use_sdf, c, i, j, k, NX, NY, NZ);
}

kernel void extrap_object(global float *out, global const float *u, global const float *v,
                          global const float *w, global const float *sdf, global const float *phi,
                          int use_phi, float ox, float oy, float oz, global const float *uo,
                          global const float *vo, global const float *wo, int use_ob, int hold,
                          float alpha, int c)
{
    LQ_EXTRAP_FACE;
    lq_extrap_object_face(out, u, v, w, sdf, phi, use_phi, ox, oy, oz, uo, vo, wo, use_ob, hold,
                          alpha, c, i, j, k, NX, NY, NZ);
}

kernel void extrap_restore(global float *vel, global const float *saved, global const float *sdf,
                           global const float *phi, int use_phi, int c)
{
    LQ_EXTRAP_FACE;
    lq_extrap_restore_face(vel, saved, sdf, phi, use_phi, c, i, j, k, NX, NY, NZ);
}

kernel void extrap_copy(global float *dst, global const float *src, int n)
{
    int f = get_global_id(0);
    if (f < n) dst[f] = src[f];
}

/* The band cells of colour (i + j + k) & 1 into list: colour 0 from the front, colour 1
 * from the back (cnt[0], cnt[1] zeroed by the host). The order within a list is free:
 * one colour's SOR updates are independent, so the result does not depend on it. */
kernel void extrap_list(global int *list, global volatile int *cnt, global const uchar *band)
{
    LQ_EXTRAP_CELL;
    int cell = LQ_MAC_CELL(i, j, k, NX, NY), colour = (i + j + k) & 1;
    if (!band[cell]) return;
    int q = atomic_inc(&cnt[colour]);
    list[colour ? NX * NY * NZ - 1 - q : q] = cell;
}

/* lq_extrap_reach_bits at the band cells of one colour's list (cnt[colour] of them, a
 * fixed grid striding over them); cnt[slot] counts the cells set (zeroed before each
 * round), and a round does nothing once the previous one (cnt[prev]) set none. */
kernel void extrap_reach_list(global uchar *band, global volatile int *cnt, global const int *list,
                              int colour, int slot, int prev)
{
    if (cnt[prev] == 0) return;
    int n = cnt[colour];
    for (int g = get_global_id(0); g < n; g += get_global_size(0)) {
        int cell = list[colour ? NX * NY * NZ - 1 - g : g];
        if (lq_extrap_reach_bits(band, cell, NX, NY)) atomic_inc(&cnt[slot]);
    }
}

/* lq_extrap_sor_cell at the band cells of one colour's list (cnt[colour] of them). */
kernel void extrap_sor_list(global float *p, global const uchar *band, global const float *rhs,
                            global const int *list, int colour, global const int *cnt, float omega)
{
    int n = cnt[colour];
    for (int g = get_global_id(0); g < n; g += get_global_size(0)) {
        int cell = list[colour ? NX * NY * NZ - 1 - g : g];
        lq_extrap_sor_bits(p, band, rhs, omega, cell, NX, NY);
    }
}
