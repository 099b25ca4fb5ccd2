/*
 * plspocket.cl — enslaved liquid pockets of the `pls` solver (Rasmussen et al. 2004 §5.6):
 * connected components of the liquid cells (block-local labels, then hooks across the
 * blocks' faces and jumps to the roots until no hook is made), the pockets (components
 * with no open cell) made solid for the projection, and the passes that give their faces
 * the diffused velocity of their boundary. The math and the invariants:
 * kernels/pls/plspocket_cell.h, shared with the reference twins
 * (host/ops/pls/plspocket_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per block (local), per cell (hook,
 * jump, open, mark) or per (i, j, k) of the (nx+1)·(ny+1)·(nz+1) face box (enslave, one
 * component a launch). Counters: LQ_PLSPOCKET_CNT_* (integer atomics, order-free).
 */

kernel void plspocket_local(global const float *phi, global const float *solid, int mode, int bnx,
                            int bny, int bnz, global int *lab)
{
    int b = get_global_id(0);
    if (b >= bnx * bny * bnz) return;
    lq_plspocket_local_block(phi, solid, mode, b % bnx, (b / bnx) % bny, b / (bnx * bny), NX, NY,
                             NZ, lab);
}

kernel void plspocket_hook(global volatile int *lab, global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    int made = lq_plspocket_hook(lab, i, j, k, NX, NY, NZ);
    if (made) atomic_add(&cnt[LQ_PLSPOCKET_CNT_CHANGED], made);
}

kernel void plspocket_jump(global volatile int *lab)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ || lab[c] < 0) return;
    lab[c] = lq_plspocket_root(lab, c);
}

/* Each open liquid cell marks its root (every writer stores the same value). */
kernel void plspocket_open(global const float *phi, global const float *solid, int mode,
                           int wall_dirichlet, global volatile int *lab, global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    int c = LQ_MAC_CELL(i, j, k, NX, NY);
    if (lab[c] < 0 || !lq_plspocket_open(phi, solid, mode, wall_dirichlet, i, j, k, NX, NY, NZ))
        return;
    int r = lab[c] & LQ_PLSPOCKET_MASK;
    lab[r] = r | LQ_PLSPOCKET_OPEN;
    atomic_add(&cnt[LQ_PLSPOCKET_CNT_OPEN], 1);
}

/* The pockets counted (cells, roots) and the projection's solid field with them written
 * to out, from solid (has_solid) or +h. */
kernel void plspocket_mark(global const int *lab, global const float *solid, int has_solid, float h,
                           global float *out, global int *cnt)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    int in = lq_plspocket_in(lab, c);
    out[c] = in ? -0.5f * h : (has_solid ? solid[c] : h);
    if (!in) return;
    atomic_add(&cnt[LQ_PLSPOCKET_CNT_CELLS], 1);
    if (lab[c] == c) atomic_add(&cnt[LQ_PLSPOCKET_CNT_POCKETS], 1);
}

kernel void plspocket_enslave(global const float *src, global float *dst, int axis, int pass0,
                              global const int *lab, global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    int fx = NX + (axis == 0), fy = NY + (axis == 1), fz = NZ + (axis == 2);
    if (i >= fx || j >= fy || k >= fz) return;
    int unknown;
    dst[i + fx * (j + fy * k)] =
        lq_plspocket_face(src, lab, axis, i, j, k, NX, NY, NZ, pass0, &unknown);
    if (unknown) atomic_add(&cnt[LQ_PLSPOCKET_CNT_UNKNOWN], 1);
}
