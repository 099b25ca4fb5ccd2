/*
 * reinit.cl — level-set reinitialisation to a signed distance (Russo–Smereka PDE or a
 * Jacobi fast-iterative eikonal solve). The math is kernels/reinit_cell.h, shared with
 * the reference twins (host/ref/reinit.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per cell, a 3D range.
 */

#define LQ_RI_CELL                                                                                 \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= NX || j >= NY || k >= NZ) return

kernel void reinit_init(global float *phi, global float *phi0, global uint *mx, int method,
                        float bh)
{
    LQ_RI_CELL;
    if ((i | j | k) == 0) mx[0] = 0u;
    lq_ri_init_cell(phi, phi0, method, i, j, k, NX, NY, bh);
}

kernel void reinit_fim_seed(global float *phi, global const float *phi0, float h, float bh)
{
    LQ_RI_CELL;
    lq_ri_fim_seed_cell(phi, phi0, i, j, k, NX, NY, NZ, h, bh);
}

kernel void reinit_pde1(global float *f1, global const float *phi, global const float *phi0,
                        float h, float ih, float dth, float bh)
{
    LQ_RI_CELL;
    lq_ri_pde_stage1(f1, phi, phi0, i, j, k, NX, NY, NZ, h, ih, dth, bh);
}

kernel void reinit_pde2(global float *phi, global const float *f1, global const float *phi0,
                        global volatile uint *mx, int note, float h, float ih, float dth, float bh)
{
    LQ_RI_CELL;
    lq_ri_pde_stage2(phi, f1, phi0, mx, note, i, j, k, NX, NY, NZ, h, ih, dth, bh);
}

/* One Jacobi FIM sweep, at the cells that can change: a cell none of whose inputs (its
 * own value and its 6 neighbours') changed in the previous sweep (cin, bit for bit)
 * would compute what it computed then, which `out` (the buffer of two sweeps ago) already
 * holds; it only clears its flag. all = 1 (the first sweep): every cell. cout gets which
 * cells changed. The result is that of sweeping every cell, bit for bit. */
kernel void reinit_fim(global float *out, global const float *in, global const float *phi0,
                       global volatile uint *mx, int note, float h, float h2, float bh,
                       global const uchar *cin, global uchar *cout, int all)
{
    LQ_RI_CELL;
    int c = LQ_MAC_CELL(i, j, k, NX, NY);
    if (!all) {
        int nb[6], act = cin[c];
        lq_ri_nbrs(nb, i, j, k, NX, NY, NZ);
        for (int n = 0; n < 6; n++) act |= cin[nb[n]];
        if (!act) {
            cout[c] = 0;
            return;
        }
    }
    lq_ri_fim_cell(out, in, phi0, mx, note, i, j, k, NX, NY, NZ, h, h2, bh);
    cout[c] = as_uint(out[c]) != as_uint(in[c]);
}
