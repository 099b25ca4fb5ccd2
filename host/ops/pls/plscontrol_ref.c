/*
 * plscontrol_ref.c — reference twins of the control particles (plscontrol_ref.h): plain
 * loops over the functions of kernels/pls/plscontrol_cell.h. The binning runs the
 * kernels' passes in order (keys, tile counts and block marks, the scans, starts,
 * scatter, the per-tile sort, the list of active blocks); its scatter fills each tile in
 * index order already, and the sort leaves it so, which is the order the kernels' sort
 * makes of any scatter. The velocity passes visit the listed blocks' cells, as the
 * kernels do, so the scratch they leave stale is the same on both sides.
 */
#include "ops/pls/plscontrol_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define I(fld)  ((int *)(fld)->host)

void lq_plscontrol_ref_bin(lq_plscontrol_ops *o, float h)
{
    int *keys = I(&o->keys), *tcount = I(&o->tcount), *tstart = I(&o->tstart),
        *tfill = I(&o->tfill), *order = I(&o->order), *map = I(&o->map);
    float ih = (float)(1.0 / h);
    for (int t = 0; t < o->ntiles; t++) tcount[t] = 0;
    for (int q = 0; q < o->nblocks; q++) map[q] = 0;
    for (int i = 0; i < o->n; i++) {
        keys[i] = lq_plscontrol_key(CF(&o->part), i, o->nx, o->ny, o->nz, h, o->ith, o->tn[0],
                                    o->tn[1], o->tn[2]);
        if (keys[i] < 0) continue;
        tcount[keys[i]]++;
        lq_plscontrol_mark(CF(&o->part), i, o->nx, o->ny, o->nz, h, ih, o->bn[0], o->bn[1], map);
    }
    int *cnt = I(&o->counters);
    cnt[LQ_PLSCONTROL_CNT_LIVE] = cnt[LQ_PLSCONTROL_CNT_BLOCKS] = 0;
    lq_scan_bufs sb = lq_plscontrol_scan_bufs(o);
    lq_scan_ref_append(&sb, &o->tcount, o->ntiles);
    for (int blk = 0; blk < lq_scan_blocks_of(o->ntiles); blk++)
        lq_plscontrol_start_block(tcount, I(&o->boff), tstart, tfill, blk, o->ntiles);
    for (int i = 0; i < o->n; i++)
        if (keys[i] >= 0) order[tstart[keys[i]] + tfill[keys[i]]++] = i;
    for (int t = 0; t < o->ntiles; t++) lq_plscontrol_sort_tile(order, tstart, tcount, t);
    lq_scan_bufs bb = lq_plscontrol_block_bufs(o);
    lq_scan_ref_append(&bb, &o->map, o->nblocks);
    for (int blk = 0; blk < lq_scan_blocks_of(o->nblocks); blk++)
        lq_plscontrol_list_block(map, I(&o->boff2), I(&o->list[o->lcur]), blk, o->nblocks);
}

/* The solid field's base: every cell, or the cells of list l. */
static void lq_plscontrol_ref_base(lq_plscontrol_ops *o, int l, const float *sd, float h)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, i, j, k;
    if (l < 0) {
        for (int c = 0; c < nx * ny * nz; c++)
            lq_plscontrol_base_cell(sd, sd != NULL, h, c, F(&o->solid));
        return;
    }
    for (int g = 0; g < o->nlist[l] * LQ_PLSCONTROL_BLOCK3; g++)
        if (lq_plscontrol_list_cell(I(&o->list[l]), o->nlist[l], g, o->bn[0], o->bn[1], nx, ny, nz,
                                    &i, &j, &k))
            lq_plscontrol_base_cell(sd, sd != NULL, h, LQ_MAC_CELL(i, j, k, nx, ny), F(&o->solid));
}

void lq_plscontrol_ref_velocity(lq_plscontrol_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                const lq_field *phi, const lq_field *sdf, float h)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL, hard = 0, i, j, k;
    const float *sd = sdf ? CF(sdf) : NULL;
    /* the base: everywhere with objects (their sdf moves) and the first time, else where
     * the last pass wrote */
    lq_plscontrol_ref_base(o, has || o->lw < 0 ? -1 : o->lw, sd, h);
    lq_plscontrol_bins b = lq_plscontrol_ref_bins(o);
    const int *list = I(&o->list[o->lcur]);
    int nl = o->nlist[o->lcur];
    for (int g = 0; g < nl * LQ_PLSCONTROL_BLOCK3; g++)
        if (lq_plscontrol_list_cell(list, nl, g, o->bn[0], o->bn[1], nx, ny, nz, &i, &j, &k))
            hard += lq_plscontrol_velocity_cell(&b, CF(phi), sd, has, h, i, j, k, nx, ny, nz,
                                                F(&o->ca), F(&o->cv), F(&o->solid));
    I(&o->counters)[LQ_PLSCONTROL_CNT_HARD] = hard;
    for (int g = 0; g < nl * LQ_PLSCONTROL_BLOCK3; g++)
        if (lq_plscontrol_list_cell(list, nl, g, o->bn[0], o->bn[1], nx, ny, nz, &i, &j, &k))
            lq_plscontrol_faces_cell(&b, i, j, k, nx, ny, nz, F(u), F(v), F(w), CF(&o->ca),
                                     CF(&o->cv), CF(phi), sd, has);
}

void lq_plscontrol_ref_phi(lq_plscontrol_ops *o, lq_field *phi, const lq_field *sdf, float h)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, moved = 0;
    lq_plscontrol_bins b = lq_plscontrol_ref_bins(o);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                moved += lq_plscontrol_phi_cell(&b, (int)o->present, F(phi), sdf ? CF(sdf) : NULL,
                                                sdf != NULL, h, i, j, k, nx, ny, nz, F(&o->kill));
    I(&o->counters)[LQ_PLSCONTROL_CNT_MOVED] = moved;
}

void lq_plscontrol_ref_viscosity(lq_plscontrol_ops *o, const lq_field *nu_in, float scale, float h)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    lq_plscontrol_bins b = lq_plscontrol_ref_bins(o);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_plscontrol_viscosity_cell(&b, nu_in ? CF(nu_in) : NULL, nu_in != NULL, scale, h,
                                             i, j, k, nx, ny, nz, F(&o->nu));
}

void lq_plscontrol_ref_divergence(lq_plscontrol_ops *o, lq_field *rhs, const lq_field *mask,
                                  int unknown, float scale, float h)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    lq_plscontrol_bins b = lq_plscontrol_ref_bins(o);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_plscontrol_divergence_cell(&b, (const unsigned char *)mask->host, unknown, scale,
                                              h, i, j, k, nx, ny, nz, F(rhs));
}
