/*
 * ref/splash.c — reference twins of the splash operations: plain loops over the
 * per-pipe, per-column, per-corner and per-particle functions the kernels call
 * (kernels/hf/columns_cell.h), in the kernels' block order. Serial, so the "atomics" there
 * are ordinary updates.
 */
#include "ops/hf/columns_ref.h"

#define F(fld)   ((float *)(fld)->host)
#define I(fld)   ((int *)(fld)->host)
#define L64(fld) ((lq_long *)(fld)->host)

void lq_columns_ref_flow(lq_columns_state *st, float keep, float ga, float gd, float ge, float visc)
{
    int nx = st->nx, nz = st->nz;
    for (int k = 0; k <= nz; k++)
        for (int i = 0; i <= nx; i++)
            lq_columns_flow_corner(F(&st->qx), F(&st->qz), F(&st->qd), F(&st->qa), F(&st->qx2),
                                   F(&st->qz2), F(&st->qd2), F(&st->qa2), F(&st->b), F(&st->d),
                                   F(&st->e), i, k, nx, nz, keep, ga, gd, ge, visc);
}

void lq_columns_ref_limit(lq_columns_state *st, float r, int last)
{
    int nx = st->nx, nz = st->nz;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            float f = lq_columns_limit_cell(F(&st->qx), F(&st->qz), F(&st->qd), F(&st->qa),
                                            F(&st->d), i, k, nx, r, last);
            F(&st->s)[i + nx * k] = f;
            if (f < 1.0f) I(&st->counters)[LQ_COLUMNS_CNT_LIMITED]++;
        }
    for (int k = 0; k <= nz; k++)
        for (int i = 0; i <= nx; i++)
            lq_columns_scale_corner(F(&st->qx), F(&st->qz), F(&st->qd), F(&st->qa), F(&st->s), i, k,
                                    nx, nz);
}

void lq_columns_ref_volume(lq_columns_state *st, float r, float inv_area, float dt)
{
    int nx = st->nx, nz = st->nz;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            lq_columns_volume_cell(F(&st->d), F(&st->hd), L64(&st->ret), L64(&st->acc), F(&st->qx),
                                   F(&st->qz), F(&st->qd), F(&st->qa), i, k, nx, nz, r, inv_area,
                                   dt);
}

void lq_columns_ref_boundary(lq_columns_state *st, int axis, int wall, int from, int n, float q)
{
    for (int j = from; j < from + n; j++) {
        if (axis == 0 && j < st->nz) F(&st->qx)[wall + (st->nx + 1) * j] = q;
        if (axis == 1 && j < st->nx) F(&st->qz)[j + st->nx * wall] = q;
    }
}

void lq_columns_ref_spray(lq_columns_state *st, const lq_columns_spray_params *p)
{
    int nx = st->nx, nz = st->nz, total = (nx + 1) * (nz + 1);
    int *cnt = I(&st->ccnt), *boff = I(&st->boff);
    for (int c = 0; c < total; c++)
        cnt[c] = lq_columns_emit_count(F(&st->d), F(&st->hd), F(&st->e), c % (nx + 1), c / (nx + 1),
                                       nx, nz, p->threshold, p->per_step, p->cap_per_depth, p->seed,
                                       p->step);
    lq_scan_bufs sb = lq_columns_scan_bufs(st);
    lq_scan_ref_append(&sb, &st->ccnt, total);
    float *part = F(&st->part[st->cur]);
    for (int blk = 0; blk < st->cblocks; blk++) {
        int slot = boff[blk];
        for (int c = blk * LQ_COLUMNS_BLOCK; c < (blk + 1) * LQ_COLUMNS_BLOCK && c < total; c++) {
            int n = cnt[c], m = 0;
            for (int j = 0; j < n && slot < st->capacity; j++, slot++, m++)
                lq_columns_emit_particle(part + (size_t)slot * LQ_COLUMNS_PSTRIDE, F(&st->b),
                                         F(&st->d), F(&st->hd), F(&st->qx), F(&st->qz),
                                         c % (nx + 1), c / (nx + 1), j, nx, nz, p->dx, p->ox, p->oz,
                                         p->inv_fa, p->volume, p->seed, p->step);
            cnt[c] = m;
        }
    }
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            lq_columns_take_cell(F(&st->d), cnt, i, k, nx, p->quarter_depth);
}

void lq_columns_ref_particles(lq_columns_state *st, const lq_columns_flight_params *p)
{
    float *part = F(&st->part[st->cur]);
    for (int j = 0; j < p->n; j++)
        lq_columns_particle_step(part + (size_t)j * LQ_COLUMNS_PSTRIDE, F(&st->b), F(&st->d),
                                 L64(&st->ret), L64(&st->acc), F(&st->obj), p->nobj, st->nx, st->nz,
                                 p->dx, p->ox, p->oz, p->dt, p->g[0], p->g[1], p->g[2],
                                 p->drag_keep, p->dry);
}

void lq_columns_ref_compact(lq_columns_state *st, int n)
{
    const float *src = F(&st->part[st->cur]);
    float *dst = F(&st->part[1 - st->cur]);
    int live = 0;
    for (int j = 0; j < n; j++) {
        if (src[(size_t)j * LQ_COLUMNS_PSTRIDE + 7] == 0.0f) continue;
        for (int a = 0; a < LQ_COLUMNS_PSTRIDE; a++)
            dst[(size_t)live * LQ_COLUMNS_PSTRIDE + a] = src[(size_t)j * LQ_COLUMNS_PSTRIDE + a];
        live++;
    }
    I(&st->counters)[LQ_COLUMNS_CNT_LIVE] = live;
    st->cur = 1 - st->cur;
}

void lq_columns_ref_contact(lq_columns_state *st, int nobj, float dx, float ox, float oz,
                            float inv_fa, int mode, int i0, int k0, int ni, int nk)
{
    for (int k = k0; k < k0 + nk; k++)
        for (int i = i0; i < i0 + ni; i++) {
            if (mode == 0)
                lq_columns_contact_cell(L64(&st->acc), F(&st->obj), nobj, F(&st->b), F(&st->d), i,
                                        k, st->nx, st->nz, dx, ox, oz);
            else if (mode == 3)
                lq_columns_around_object(L64(&st->acc), F(&st->obj), i, F(&st->b), F(&st->d),
                                         F(&st->e), F(&st->qx), F(&st->qz), st->nx, st->nz, dx, ox,
                                         oz, inv_fa);
            else if (mode == 2)
                lq_columns_push_corner(F(&st->qx), F(&st->qz), F(&st->obj), nobj, F(&st->b),
                                       F(&st->d), i, k, st->nx, st->nz, dx, ox, oz);
            else if (i < st->nx && k < st->nz)
                lq_columns_pressure_cell(F(&st->e), F(&st->obj), nobj, F(&st->b), F(&st->d), i, k,
                                         st->nx, st->nz, dx, ox, oz);
        }
}
