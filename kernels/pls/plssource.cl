/*
 * plssource.cl — the pls solver's sources and sinks (plssource_cell.h states the math).
 * plssource_cells / plssource_content: one work-item per LQ_PLSSOURCE_BLOCK cells, their
 * fixed-point sums added into `red` with one 64-bit atomic per slot and block (order-free).
 * plssource_faces: one work-item per (i, j, k) of the (nx+1)·(ny+1)·(nz+1) face box, each
 * writing the faces it owns. plssource_kill: one work-item per particle.
 */

kernel void plssource_cells(global float *phi, global const int *rid, global const float *ed,
                            global const float *sd, global const float *tab, int n,
                            global const float *sdf, int has_sdf, global float *solid,
                            int has_solid, float h, float ih, float far, global long *red)
{
    int c0 = get_global_id(0) * LQ_PLSSOURCE_BLOCK, nc = NX * NY * NZ;
    if (c0 >= nc) return;
    long s = 0;
    for (int c = c0; c < c0 + LQ_PLSSOURCE_BLOCK && c < nc; c++) {
        float yc = ((float)((c / NX) % NY) + 0.5f) * h;
        s = LQ_WRAP_ADD(s, lq_plssource_cell(phi, rid, ed, sd, tab, n, sdf, has_sdf, solid,
                                             has_solid, c, yc, ih, far));
    }
    if (s != 0) atom_add(red + LQ_PLSSOURCE_RED_SINK, s);
}

kernel void plssource_faces(global float *u, global float *v, global float *w,
                            global const int *rid, global const float *ed, global const float *tab)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    /* each face is read and written by its own work-item only */
    if (j < NY && k < NZ && i <= NX)
        u[LQ_MAC_U(i, j, k, NX, NY)] = lq_plssource_face(u, 0, i, j, k, NX, NY, NZ, rid, ed, tab);
    if (i < NX && k < NZ && j <= NY)
        v[LQ_MAC_V(i, j, k, NX, NY)] = lq_plssource_face(v, 1, i, j, k, NX, NY, NZ, rid, ed, tab);
    if (NZ > 1 && i < NX && j < NY && k <= NZ)
        w[LQ_MAC_W(i, j, k, NX, NY)] = lq_plssource_face(w, 2, i, j, k, NX, NY, NZ, rid, ed, tab);
}

/* p < np, and p < pcnt[0] with use_cnt (the live count the device holds, np a bound). */
kernel void plssource_kill(global float *part, int np, global const int *pcnt, int use_cnt,
                           global const int *rid, global const float *ed, global const float *sd,
                           global const float *tab, int n, float ih)
{
    int p = get_global_id(0);
    if (p >= np || (use_cnt && p >= pcnt[0])) return;
    lq_plssource_kill_one(part + (size_t)p * LQ_PLSSOURCE_PSTRIDE, rid, ed, sd, tab, n, ih, NX, NY,
                          NZ);
}

kernel void plssource_content(global const float *phi, global const int *rid,
                              global const float *ed, float ih, global long *red)
{
    int c0 = get_global_id(0) * LQ_PLSSOURCE_BLOCK, nc = NX * NY * NZ;
    if (c0 >= nc) return;
    long s = 0;
    int slot = -1;
    for (int c = c0; c < c0 + LQ_PLSSOURCE_BLOCK && c < nc; c++) {
        int e = lq_plssource_content_slot(rid, ed, c);
        if (e != slot) { /* a run of one inlet's cells ends: its sum out */
            if (slot >= 0 && s != 0) atom_add(red + LQ_PLSSOURCE_RED_CONTENT + slot, s);
            slot = e;
            s = 0;
        }
        if (e >= 0) s = LQ_WRAP_ADD(s, lq_plssource_fraction(phi[c], ih));
    }
    if (slot >= 0 && s != 0) atom_add(red + LQ_PLSSOURCE_RED_CONTENT + slot, s);
}
