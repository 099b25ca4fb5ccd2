/*
 * ref/macspray.c — reference twins of the spray and foam operations: plain loops over
 * the per-cell and per-particle functions the kernels call (kernels/mac/macspray_cell.h), in
 * the kernels' block order. Serial, so the "atomics" there are plain sums; integers, so
 * the totals do not depend on order.
 */
#include "ops/mac/macspray_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define I(fld)  ((int *)(fld)->host)
#define UC(fld) ((const unsigned char *)(fld)->host)

void lq_macspray_ref_advance(lq_macspray_state *st, const lq_field *u, const lq_field *v,
                             const lq_field *w, const lq_field *flags,
                             const lq_macspray_params *prm)
{
    float *part = F(&st->part[st->cur]);
    for (int p = 0; p < st->live; p++)
        lq_macspray_advance_one(part + (size_t)p * LQ_MACSPRAY_STRIDE, I(&st->counters), CF(u),
                                CF(v), CF(w), UC(flags), CF(&st->coef), p, st->nx, st->ny, st->nz,
                                prm->seed, prm->step);
}

void lq_macspray_ref_compact(lq_macspray_state *st, const lq_macspray_params *prm)
{
    int n = st->live, nblocks = (n + LQ_MACSPRAY_BLOCK - 1) / LQ_MACSPRAY_BLOCK;
    const float *src = F(&st->part[st->cur]);
    float *dst = F(&st->part[1 - st->cur]);
    int *bsum = I(&st->bsum), *boff = I(&st->boff), *cnt = I(&st->counters);
    for (int b = 0; b < nblocks; b++) {
        int sum = 0;
        for (int p = b * LQ_MACSPRAY_BLOCK; p < (b + 1) * LQ_MACSPRAY_BLOCK && p < n; p++)
            sum += lq_macspray_outputs(src + (size_t)p * LQ_MACSPRAY_STRIDE);
        bsum[b] = sum;
    }
    lq_scan_bufs sb = lq_macspray_scan_bufs(st);
    lq_scan_ref_offsets(&sb, nblocks, LQ_SCAN_COMPACT);
    for (int b = 0; b < nblocks; b++) {
        int slot = boff[b];
        for (int p = b * LQ_MACSPRAY_BLOCK;
             p < (b + 1) * LQ_MACSPRAY_BLOCK && p < n && slot < st->capacity; p++) {
            const float *a = src + (size_t)p * LQ_MACSPRAY_STRIDE;
            int k = lq_macspray_outputs(a);
            if (k == 0) continue;
            int two = k == 2 && slot + 1 < st->capacity;
            lq_macspray_copy_out(dst + (size_t)slot * LQ_MACSPRAY_STRIDE, a, p, two, CF(&st->coef),
                                 st->nz, prm->seed, prm->step);
            int wr = two ? 2 : 1;
            cnt[a[LQ_MACSPRAY_KIND] == LQ_MACSPRAY_FOAM ? LQ_MACSPRAY_CNT_FOAM
                                                        : LQ_MACSPRAY_CNT_SPRAY] += wr;
            slot += wr;
        }
    }
    st->cur = 1 - st->cur;
}

void lq_macspray_ref_emit(lq_macspray_state *st, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *flags, const lq_macspray_params *prm)
{
    int nx = st->nx, ny = st->ny, nz = st->nz, cells = nx * ny * nz;
    int *ccnt = I(&st->ccnt), *boff = I(&st->boff);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                ccnt[LQ_MAC_CELL(i, j, k, nx, ny)] = lq_macspray_emit_count(
                    CF(v), UC(flags), CF(&st->coef), i, j, k, nx, ny, prm->seed, prm->step);
    lq_scan_bufs sb = lq_macspray_scan_bufs(st);
    lq_scan_ref_append(&sb, &st->ccnt, cells);
    float *part = F(&st->part[st->cur]);
    for (int b = 0; b < st->cblocks; b++) {
        int slot = boff[b];
        for (int q = b * LQ_MACSPRAY_BLOCK; q < (b + 1) * LQ_MACSPRAY_BLOCK && q < cells; q++)
            for (int m = 0; m < ccnt[q] && slot < st->capacity; m++, slot++)
                lq_macspray_emit_particle(part + (size_t)slot * LQ_MACSPRAY_STRIDE, CF(u), CF(v),
                                          CF(w), CF(&st->coef), q, m, nx, ny, nz, prm->seed,
                                          prm->step);
    }
}
