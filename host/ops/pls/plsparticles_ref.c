/*
 * ref/plsparticles.c — reference twins of the particle level set's particles: plain
 * loops over the per-particle and per-cell functions the kernels call
 * (kernels/pls/plsparticles_cell.h). Particles move independently, the correction keys are
 * an order-free max/min, the counts integer sums, and the compaction and the seeding
 * write in particle and cell order exactly as the kernels' block scans place them, so
 * the serial loops give the kernels' results bit for bit.
 */
#include "ops/pls/plsparticles_ref.h"

#define F(fld)     ((float *)(fld)->host)
#define CF(fld)    ((const float *)(fld)->host)
#define I(fld)     ((int *)(fld)->host)
#define PART(b, p) ((b) + (size_t)(p)*LQ_PLSPARTICLES_STRIDE)

void lq_plsparticles_ref_advect(lq_plsparticles_state *st, const lq_field *u, const lq_field *v,
                                const lq_field *w, const lq_plsparticles_params *prm)
{
    (void)prm;
    float *part = F(&st->part[st->cur]);
    for (int p = 0; p < st->live; p++)
        lq_plsparticles_advect_one(PART(part, p), CF(u), CF(v), CF(w), CF(&st->coef), st->nx,
                                   st->ny, st->nz);
}

void lq_plsparticles_ref_correct(lq_plsparticles_state *st, lq_field *phi,
                                 const lq_plsparticles_params *prm, int *escaped)
{
    (void)prm;
    int cells = st->nx * st->ny * st->nz, e = 0;
    const float *part = CF(&st->part[st->cur]);
    for (int q = 0; q < cells; q++)
        lq_plsparticles_correct_init_cell(CF(phi), I(&st->kp), I(&st->km), q);
    for (int p = 0; p < st->live; p++)
        e += lq_plsparticles_splat_one(PART(part, p), CF(phi), I(&st->kp), I(&st->km),
                                       CF(&st->coef), st->nx, st->ny, st->nz);
    for (int q = 0; q < cells; q++)
        lq_plsparticles_correct_apply_cell(F(phi), I(&st->kp), I(&st->km), q);
    if (escaped) *escaped = e;
}

void lq_plsparticles_ref_adjust_radii(lq_plsparticles_state *st, const lq_field *phi,
                                      const lq_plsparticles_params *prm)
{
    (void)prm;
    float *part = F(&st->part[st->cur]);
    for (int p = 0; p < st->live; p++)
        lq_plsparticles_radius_one(PART(part, p), CF(phi), CF(&st->coef), st->nx, st->ny, st->nz);
}

void lq_plsparticles_ref_delete(lq_plsparticles_state *st, const lq_field *phi, const lq_field *sdf,
                                const lq_plsparticles_params *prm)
{
    (void)prm;
    const float *src = CF(&st->part[st->cur]), *sd = sdf ? CF(sdf) : CF(phi);
    float *dst = F(&st->part[1 - st->cur]);
    int m = 0;
    for (int p = 0; p < st->live; p++)
        if (lq_plsparticles_keep(PART(src, p), CF(phi), sd, CF(&st->coef), st->nx, st->ny, st->nz))
            lq_plsparticles_copy(PART(dst, m++), PART(src, p));
    st->cur = 1 - st->cur;
    st->live = m;
    int *cnt = I(&st->counters);
    cnt[LQ_PLSPARTICLES_CNT_LIVE] = m;
}

int lq_plsparticles_ref_need(lq_plsparticles_state *st, const lq_field *phi, const lq_field *sdf,
                             const lq_plsparticles_params *prm)
{
    (void)prm;
    int nx = st->nx, ny = st->ny, nz = st->nz, cells = nx * ny * nz, n0 = st->live;
    const float *c = CF(&st->coef), *sd = sdf ? CF(sdf) : CF(phi);
    const float *part = CF(&st->part[st->cur]);
    int *cc = I(&st->ccnt), total = 0;
    for (int q = 0; q < cells; q++) cc[q] = 0;
    for (int p = 0; p < n0; p++) lq_plsparticles_count_one(cc, PART(part, p), c, nx, ny, nz);
    for (int q = 0; q < cells; q++) {
        lq_plsparticles_need_cell(cc, CF(phi), sd, c, q);
        total += cc[q];
    }
    return total;
}

void lq_plsparticles_ref_emit(lq_plsparticles_state *st, const lq_field *phi, int total,
                              const lq_plsparticles_params *prm)
{
    int nx = st->nx, ny = st->ny, nz = st->nz, cells = nx * ny * nz, n0 = st->live;
    const float *c = CF(&st->coef);
    float *part = F(&st->part[st->cur]);
    int *cc = I(&st->ccnt), *cnt = I(&st->counters);
    lq_scan_bufs b = lq_plsparticles_scan_bufs(st); /* cnt[b.at.live] is n0 here */
    lq_scan_done(cnt, total, b.capacity, LQ_SCAN_APPEND, b.at.live, b.at.dropped, b.at.made,
                 b.at.also);
    int slot = n0;
    for (int q = 0; q < cells; q++)
        for (int m = 0; m < cc[q] && slot < st->capacity; m++, slot++)
            lq_plsparticles_emit_one(PART(part, slot), CF(phi), c, q, m, nx, ny, nz, prm->seed,
                                     prm->step);
    for (int p = n0; p < slot; p++)
        lq_plsparticles_attract_one(PART(part, p), CF(phi), c, nx, ny, nz);
    st->live = cnt[LQ_PLSPARTICLES_CNT_LIVE];
    st->dropped += cnt[LQ_PLSPARTICLES_CNT_DROPPED];
    st->added = cnt[LQ_PLSPARTICLES_CNT_ADDED];
}

void lq_plsparticles_ref_add(lq_plsparticles_state *st, const lq_field *phi, const lq_field *sdf,
                             const lq_plsparticles_params *prm)
{
    lq_plsparticles_ref_emit(st, phi, lq_plsparticles_ref_need(st, phi, sdf, prm), prm);
}
