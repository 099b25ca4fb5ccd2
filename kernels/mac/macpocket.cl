/*
 * macpocket.cl — the `mac` solver's sealed air pockets (mac.air_pockets: gas): connected
 * components of the EMPTY cells (block-local labels, then hooks across the blocks' faces
 * and jumps to the roots until no hook is made, the kernels of kernels/pls/plspocket.cl
 * with air for liquid), the open roots, each pocket's air tallied, and its gauge pressure
 * held in its cells. The math and the invariants: kernels/mac/macpocket_cell.h, shared
 * with the reference twins (host/ops/mac/macpocket_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per block (local) or per cell (the
 * rest). Counters: LQ_MACPOCKET_CNT_* (integer atomics, order-free).
 */

kernel void macpocket_local(global const uchar *flags, int bnx, int bny, int bnz, global int *lab)
{
    int b = get_global_id(0);
    if (b >= bnx * bny * bnz) return;
    lq_macpocket_local_block(flags, b % bnx, (b / bnx) % bny, b / (bnx * bny), NX, NY, NZ, lab);
}

/* A round: hooks counted into cnt[slot], then the jumps; a round does nothing once the
 * one before it (cnt[prev]) made no hook, so the host enqueues rounds in batches. */
kernel void macpocket_hook(global volatile int *lab, global int *cnt, int slot, int prev)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ || cnt[prev] == 0) return;
    int made = lq_plspocket_hook(lab, i, j, k, NX, NY, NZ);
    if (made) atomic_add(&cnt[slot], made);
}

kernel void macpocket_jump(global volatile int *lab, global int *cnt, int prev)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ || cnt[prev] == 0) return;
    if (c == 0) atomic_add(&cnt[LQ_MACPOCKET_CNT_ROUNDS], 1);
    if (lab[c] < 0) return;
    lab[c] = lq_plspocket_root(lab, c);
}

/* Each open air cell marks its root (every writer stores the same value). */
kernel void macpocket_open(global const uchar *flags, int up, global volatile int *lab,
                           global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    int c = LQ_MAC_CELL(i, j, k, NX, NY);
    if (lab[c] < 0 || !lq_macpocket_open(flags, up, i, j, k, NX, NY, NZ)) return;
    int r = lab[c] & LQ_PLSPOCKET_MASK;
    lab[r] = r | LQ_PLSPOCKET_OPEN;
    atomic_add(&cnt[LQ_MACPOCKET_CNT_OPEN], 1);
}

/* The pockets' air into vol[root] (zeroed by the host), their cells and roots counted. */
kernel void macpocket_tally(global const uchar *flags, global const int *lab,
                            global const int *count, int per_cell, global volatile int *vol,
                            global int *cnt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    if (!lq_macpocket_tally(flags, lab, count, per_cell, i, j, k, NX, NY, NZ, vol)) return;
    int c = LQ_MAC_CELL(i, j, k, NX, NY);
    atomic_add(&cnt[LQ_MACPOCKET_CNT_SEALED], 1);
    if (lab[c] == c) atomic_add(&cnt[LQ_MACPOCKET_CNT_ROOTS], 1);
}

kernel void macpocket_apply(global const uchar *flags, global const uchar *pflags,
                            global const int *lab, global const float *gauge,
                            global const int *count, global const float *table, int per_cell,
                            global float *p)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_macpocket_apply_cell(flags, pflags, lab, gauge, count, table, per_cell, i, j, k, NX, NY, NZ,
                            p);
}
