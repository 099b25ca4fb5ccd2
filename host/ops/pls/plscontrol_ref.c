/*
 * plscontrol_ref.c — reference twins of the control particles (plscontrol_ref.h): plain
 * loops over the functions of kernels/pls/plscontrol_cell.h. The binning runs the
 * kernels' passes in order (keys and counts, the scan, starts, scatter, the per-tile
 * sort); its scatter fills each tile in index order already, and the sort leaves it so,
 * which is the order the kernels' sort makes of any scatter.
 */
#include "ops/pls/plscontrol_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define I(fld)  ((int *)(fld)->host)

void lq_plscontrol_ref_bin(lq_plscontrol_ops *o, float h)
{
    int *keys = I(&o->keys), *tcount = I(&o->tcount), *tstart = I(&o->tstart),
        *tfill = I(&o->tfill), *order = I(&o->order);
    for (int t = 0; t < o->ntiles; t++) tcount[t] = 0;
    for (int i = 0; i < o->n; i++) {
        keys[i] = lq_plscontrol_key(CF(&o->part), i, o->nx, o->ny, o->nz, h, o->ith, o->tn[0],
                                    o->tn[1], o->tn[2]);
        if (keys[i] >= 0) tcount[keys[i]]++;
    }
    I(&o->counters)[LQ_PLSCONTROL_CNT_LIVE] = 0;
    lq_scan_bufs sb = lq_plscontrol_scan_bufs(o);
    lq_scan_ref_append(&sb, &o->tcount, o->ntiles);
    for (int blk = 0; blk < lq_scan_blocks_of(o->ntiles); blk++)
        lq_plscontrol_start_block(tcount, I(&o->boff), tstart, tfill, blk, o->ntiles);
    for (int i = 0; i < o->n; i++)
        if (keys[i] >= 0) order[tstart[keys[i]] + tfill[keys[i]]++] = i;
    for (int t = 0; t < o->ntiles; t++) lq_plscontrol_sort_tile(order, tstart, tcount, t);
}

void lq_plscontrol_ref_velocity(lq_plscontrol_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                const lq_field *phi, const lq_field *sdf, float h)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL, hard = 0;
    const float *sd = sdf ? CF(sdf) : NULL;
    lq_plscontrol_bins b = lq_plscontrol_ref_bins(o);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                hard += lq_plscontrol_velocity_cell(&b, CF(phi), sd, has, h, i, j, k, nx, ny, nz,
                                                    F(&o->ca), F(&o->cv), F(&o->solid));
    I(&o->counters)[LQ_PLSCONTROL_CNT_HARD] = hard;
    lq_field *fs[3] = {u, v, w};
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++) {
        float *q = F(fs[a]);
        int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
        for (int k = 0; k < fz; k++)
            for (int j = 0; j < fy; j++)
                for (int i = 0; i < fx; i++) {
                    int f = i + fx * (j + fy * k);
                    q[f] = lq_plscontrol_face(q[f], a, i, j, k, nx, ny, nz, CF(&o->ca), CF(&o->cv),
                                              CF(phi), sd, has);
                }
    }
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
