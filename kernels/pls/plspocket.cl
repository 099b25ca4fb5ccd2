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
 * jump, open), per LQ_PLSPOCKET_CHUNK cells (mark: its counts and box summed locally,
 * one set of atomics a chunk) or per face of the pockets' box (enslave, one component a
 * launch). Counters:
 * LQ_PLSPOCKET_CNT_* (integer atomics, order-free).
 */

kernel void plspocket_local(global const float *phi, global const float *solid, int mode, int bnx,
                            int bny, int bnz, global int *lab)
{
    int b = get_global_id(0);
    if (b >= bnx * bny * bnz) return;
    lq_plspocket_local_block(phi, solid, mode, b % bnx, (b / bnx) % bny, b / (bnx * bny), NX, NY,
                             NZ, lab);
}

/* A round: hooks counted into cnt[slot], then the jumps; a round does nothing once the
 * one before it (cnt[prev]) made no hook, so the host enqueues rounds in batches. */
kernel void plspocket_hook(global volatile int *lab, global int *cnt, int slot, int prev)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ || cnt[prev] == 0) return;
    int made = lq_plspocket_hook(lab, i, j, k, NX, NY, NZ);
    if (made) atomic_add(&cnt[slot], made);
}

kernel void plspocket_jump(global volatile int *lab, global int *cnt, int prev)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ || cnt[prev] == 0) return;
    if (c == 0) atomic_add(&cnt[LQ_PLSPOCKET_CNT_ROUNDS], 1);
    if (lab[c] < 0) return;
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
    int c0 = get_global_id(0) * LQ_PLSPOCKET_CHUNK, nc = NX * NY * NZ;
    if (c0 >= nc || cnt[LQ_PLSPOCKET_CNT_OPEN] == 0) return; /* one closed tank: nothing */
    int cells = 0, roots = 0, box[6] = {INT_MAX, INT_MAX, INT_MAX, -1, -1, -1};
    for (int c = c0; c < c0 + LQ_PLSPOCKET_CHUNK && c < nc; c++) {
        int in = lq_plspocket_in(lab, c);
        out[c] = in ? -0.5f * h : (has_solid ? solid[c] : h);
        if (in) lq_plspocket_tally(lab, c, NX, NY, &cells, &roots, box);
    }
    if (!cells) return; /* one set of atomics per chunk with pocket cells */
    atomic_add(&cnt[LQ_PLSPOCKET_CNT_CELLS], cells);
    if (roots) atomic_add(&cnt[LQ_PLSPOCKET_CNT_POCKETS], roots);
    for (int a = 0; a < 3; a++) {
        atomic_min(&cnt[LQ_PLSPOCKET_CNT_BOX + a], box[a]);
        atomic_max(&cnt[LQ_PLSPOCKET_CNT_BOX + 3 + a], box[3 + a]);
    }
}

/* One enslaving pass over the faces of component `axis` in the box of bx × by × bz faces
 * from (i0, j0, k0). */
kernel void plspocket_enslave(global const float *src, global float *dst, int axis, int pass0,
                              global const int *lab, int i0, int j0, int k0, int bx, int by, int bz,
                              global int *cnt)
{
    int t = get_global_id(0);
    if (t >= bx * by * bz) return;
    int i = i0 + t % bx, j = j0 + (t / bx) % by, k = k0 + t / (bx * by);
    int fx = NX + (axis == 0), fy = NY + (axis == 1);
    int unknown;
    dst[i + fx * (j + fy * k)] =
        lq_plspocket_face(src, lab, axis, i, j, k, NX, NY, NZ, pass0, &unknown);
    if (unknown) atomic_add(&cnt[LQ_PLSPOCKET_CNT_UNKNOWN], 1);
}
