/*
 * reinit.cl — level-set reinitialisation to a signed distance (Russo–Smereka PDE or a
 * Jacobi fast-iterative eikonal solve). The math is kernels/pls/reinit_cell.h, shared with
 * the reference twins (host/ops/pls/reinit_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per cell, a 3D range.
 */

#define LQ_REINIT_CELL                                                                             \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= NX || j >= NY || k >= NZ) return

kernel void reinit_init(global float *phi, global float *phi0, global uint *mx, int method,
                        float bh)
{
    LQ_REINIT_CELL;
    if ((i | j | k) == 0) mx[0] = 0u;
    lq_reinit_init_cell(phi, phi0, method, i, j, k, NX, NY, bh);
}

kernel void reinit_pde1(global float *f1, global const float *phi, global const float *phi0,
                        float h, float ih, float dth, float bh, float keep)
{
    LQ_REINIT_CELL;
    lq_reinit_pde_stage1(f1, phi, phi0, i, j, k, NX, NY, NZ, h, ih, dth, bh, keep);
}

kernel void reinit_pde2(global float *phi, global const float *f1, global const float *phi0,
                        global volatile uint *mx, int note, float h, float ih, float dth, float bh,
                        float keep)
{
    LQ_REINIT_CELL;
    lq_reinit_pde_stage2(phi, f1, phi0, mx, note, i, j, k, NX, NY, NZ, h, ih, dth, bh, keep);
}

/* The FIM sweeps visit only the cells that can change (an active list). A cell none of
 * whose inputs (its own value and its 6 neighbours') changed in the previous sweep, bit
 * for bit, would compute what it computed then, which `out` (the buffer of two sweeps
 * ago) already holds. So each sweep, a cell that changed stamps itself and its
 * neighbours in `mark` with the next sweep's stamp (atomic_max: once each) and appends
 * them to the next list. The order within a list is free (a Jacobi sweep reads `in`,
 * writes `out`); the result is that of sweeping every cell, bit for bit, and an empty
 * list means both buffers are equal (the rest of the sweeps would change nothing). */
void lq_reinit_activate(global volatile int *mark, global int *lout, global volatile int *cnt,
                        int i, int j, int k, int stamp)
{
    /* a plain read first (marks only grow: one at the stamp is taken), then the cells
     * this item stamped appended with one atomic add */
    int nb[7], add[7], m = 0;
    lq_reinit_nbrs(nb, i, j, k, NX, NY, NZ);
    nb[6] = LQ_MAC_CELL(i, j, k, NX, NY);
    for (int n = 6; n >= 0; n--) /* the cell itself first, as before */
        if (mark[nb[n]] < stamp && atomic_max(&mark[nb[n]], stamp) < stamp) add[m++] = nb[n];
    if (m == 0) return;
    int at = atomic_add(cnt, m);
    for (int n = 0; n < m; n++) lout[at + n] = add[n];
}

/* lq_reinit_fim_seed_cell, also copying the started φ into `copy` (the first sweep's output
 * buffer) and activating the near cells and their neighbours for the first sweep: every
 * other cell has all its neighbours at S·band·h of its own sign, where an update gives
 * S·band·h again (U ≥ band·h), so the first sweep needs only these (reinit_fim_list). */
kernel void reinit_fim_seed_list(global float *phi, global const float *phi0, global float *copy,
                                 float h, float bh, global volatile int *mark, global int *lout,
                                 global volatile int *cnt, int stamp, float keep)
{
    LQ_REINIT_CELL;
    int nb[6], c = LQ_MAC_CELL(i, j, k, NX, NY);
    float d;
    lq_reinit_nbrs(nb, i, j, k, NX, NY, NZ);
    int near = lq_reinit_near(phi0, nb, c, h, keep, &d);
    if (near) phi[c] = lq_reinit_clamp(d, bh);
    copy[c] = phi[c];
    if (near) lq_reinit_activate(mark, lout, cnt, i, j, k, stamp);
}

/* A sweep: the *nin cells of list lin, a fixed grid striding over them (the length stays
 * on the device). */
kernel void reinit_fim_list(global float *out, global const float *in, global const float *phi0,
                            global volatile uint *mx, int note, float h, float h2, float bh,
                            global volatile int *mark, global int *lout, global volatile int *cnt,
                            int stamp, global const int *lin, global const int *nin)
{
    int n = *nin;
    for (int g = get_global_id(0); g < n; g += get_global_size(0)) {
        int c = lin[g], i = c % NX, j = (c / NX) % NY, k = c / (NX * NY);
        lq_reinit_fim_cell(out, in, phi0, mx, note, i, j, k, NX, NY, NZ, h, h2, bh);
        if (as_uint(out[c]) != as_uint(in[c])) lq_reinit_activate(mark, lout, cnt, i, j, k, stamp);
    }
}

/* The departure sum: one work-item per LQ_REINIT_DEP_BLOCK cells, one atomic per sum. */
kernel void reinit_departure(global const float *phi, float ih, float w, global long *out)
{
    int c0 = get_global_id(0) * LQ_REINIT_DEP_BLOCK, n = NX * NY * NZ;
    if (c0 >= n) return;
    long s = 0, m = 0;
    for (int c = c0; c < c0 + LQ_REINIT_DEP_BLOCK && c < n; c++) {
        int in, i = c % NX, j = (c / NX) % NY, k = c / (NX * NY);
        s += lq_reinit_departure_cell(phi, i, j, k, NX, NY, NZ, ih, w, &in);
        m += in;
    }
    if (s != 0) atom_add(out, s);
    if (m != 0) atom_add(out + 1, m);
}
