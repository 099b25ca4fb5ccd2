/*
 * ref/heightfield.c — reference twins of the height-field operations: plain loops
 * over the same per-line and per-cell functions the kernels call
 * (kernels/hf/heightfield_cell.h). Serial, so the "atomics" there are ordinary updates.
 */
#include "ops/hf/heightfield_ref.h"

#include <stdlib.h>

#define F(fld)   ((float *)(fld)->host)
#define CF(fld)  ((const float *)(fld)->host)
#define I(fld)   ((int *)(fld)->host)
#define L64(fld) ((lq_long *)(fld)->host)

void lq_heightfield_ref_residual(int nx, int nz, const lq_field *h1, const lq_field *u,
                                 const lq_field *w, const lq_field *b, const lq_field *href,
                                 lq_field *hn, float kappa, float cdt,
                                 const lq_heightfield_walls *wl)
{
    float *o = F(hn);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            o[i + nx * k] = lq_heightfield_residual_cell(CF(h1), CF(u), CF(w), CF(b), CF(href), i,
                                                         k, nx, nz, kappa, cdt, wl->open, wl->cb);
}

void lq_heightfield_ref_adi_x(int nx, int nz, const lq_field *h1, const lq_field *b, lq_field *hn,
                              lq_field *cp, float kappa, float e_lo, float e_hi)
{
    for (int k = 0; k < nz; k++)
        lq_heightfield_solve_line(CF(h1), CF(b), CF(h1), F(hn), F(cp), k * nx, 1, nx, kappa, 0,
                                  e_lo, e_hi);
}

void lq_heightfield_ref_adi_z(int nx, int nz, const lq_field *h1, const lq_field *b,
                              const lq_field *base, lq_field *hn, lq_field *cp, float kappa,
                              float e_lo, float e_hi)
{
    for (int i = 0; i < nx; i++)
        lq_heightfield_solve_line(CF(h1), CF(b), CF(base), F(hn), F(cp), i, nx, nz, kappa, 1, e_lo,
                                  e_hi);
}

/* The parallel line solve (heightfield_cell.h) of one line, step by step as the kernel's
 * work-group runs it: E holds the reduced line, T the next PCR step's equations. */
static void lq_heightfield_ref_pcr_line(const float *h1, const float *b, const float *base,
                                        float *out, lq_heightfield_eq *E, lq_heightfield_eq *T,
                                        int first, int stride, int n, float kappa, int add_base,
                                        float e_lo, float e_hi)
{
    const int n2 = n / 2, W = lq_heightfield_pcr_width(n2);
    const lq_heightfield_eq zero = {0.0f, 0.0f, 0.0f};
    for (int j = 0; j < n2; j++)
        E[j] = lq_heightfield_pcr_cr(h1, b, out, first, stride, n, j, kappa, e_lo, e_hi);
    for (int s = 1; s < W; s *= 2) {
        for (int j = 0; j < n2; j++)
            T[j] = lq_heightfield_pcr_reduce(j >= s ? E[j - s] : zero, E[j],
                                             j + s < n2 ? E[j + s] : zero);
        lq_heightfield_eq *t = E;
        E = T;
        T = t;
    }
    for (int r = 0; r < W && r < n2; r++) lq_heightfield_pcr_thomas(E, r, n2, W);
    for (int t = 0; t < n; t++) {
        int j = t / 2, idx = first + t * stride;
        float x;
        if (t & 1) {
            x = E[j].d;
        } else {
            lq_heightfield_eq e =
                lq_heightfield_pcr_row(h1, b, out, first, stride, n, t, kappa, e_lo, e_hi);
            x = lq_heightfield_pcr_even(e, j > 0 ? E[j - 1].d : 0.0f, j < n2 ? E[j].d : 0.0f);
        }
        out[idx] = add_base ? base[idx] + x : x;
    }
}

int lq_heightfield_ref_pcr(int nx, int nz, int axis, const lq_field *h1, const lq_field *b,
                           const lq_field *base, lq_field *hn, float kappa, float e_lo, float e_hi)
{
    int n = axis ? nz : nx, lines = axis ? nx : nz;
    size_t cap = (size_t)(n / 2 > 0 ? n / 2 : 1);
    lq_heightfield_eq *E = lq_alloc(cap * sizeof *E), *T = lq_alloc(cap * sizeof *T);
    if (!E || !T) {
        free(E);
        free(T);
        return lq_error(LQ_ESIM, "out of memory for the parallel line solve's %zu equations", cap);
    }
    for (int l = 0; l < lines; l++)
        lq_heightfield_ref_pcr_line(CF(h1), CF(b), CF(base), F(hn), E, T, axis ? l : l * nx,
                                    axis ? nx : 1, n, kappa, axis, e_lo, e_hi);
    free(E);
    free(T);
    return LQ_OK;
}

void lq_heightfield_ref_defect(int nx, int nz, const lq_field *h1, const lq_field *hn,
                               const lq_field *u, const lq_field *w, const lq_field *b,
                               const lq_field *href, lq_field *out, float kappa, float cdt,
                               float kappa_s, const lq_heightfield_walls *wl)
{
    float *o = F(out);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            o[i + nx * k] =
                lq_heightfield_defect_cell(CF(h1), CF(hn), CF(u), CF(w), CF(b), CF(href), i, k, nx,
                                           nz, kappa, cdt, kappa_s, wl->open, wl->cb, wl->cbt);
}

void lq_heightfield_ref_open(int nx, int nz, const lq_field *h1, const lq_field *hn,
                             const lq_field *b, const lq_field *href, const lq_field *L,
                             lq_field *old_sum, lq_field *acc_l, const lq_heightfield_walls *wl,
                             float scale, int project)
{
    for (int j = 0; j < 2 * (nx + nz); j++) { /* heightfield_open's order */
        int wall = j < nz ? 0 : (j < 2 * nz ? 1 : (j < 2 * nz + nx ? 2 : 3)), idx;
        if (!((wl->open >> wall) & 1)) continue;
        if (wall < 2)
            idx = (wall == 0 ? 0 : nx - 1) + nx * (j - wall * nz);
        else
            idx = (j - 2 * nz - (wall - 2) * nx) + nx * (wall == 2 ? 0 : nz - 1);
        lq_heightfield_open_account(CF(h1), CF(hn), CF(b), CF(href), (const int *)L->host,
                                    L64(old_sum), L64(acc_l), idx, wl->cb, wl->theta, scale,
                                    project);
    }
}

void lq_heightfield_ref_source(int nx, int nz, lq_field *h1, const lq_field *b, lq_field *acc_l,
                               int i0, int k0, int ni, int nk, float ci, float ck, float inv_r2,
                               int mode, float amount, float scale)
{
    for (int k = k0; k < k0 + nk && k < nz; k++)
        for (int i = i0; i < i0 + ni && i < nx; i++) {
            float dx = (float)i + 0.5f - ci, dz = (float)k + 0.5f - ck;
            lq_heightfield_source_cell(F(h1), CF(b), L64(acc_l), i + nx * k, dx * dx + dz * dz,
                                       inv_r2, mode, amount, scale);
        }
}

void lq_heightfield_ref_label(int nx, int nz, const lq_field *h1, const lq_field *hn,
                              const lq_field *b, lq_field *L, lq_field *old_sum, lq_field *new_sum,
                              lq_field *wet)
{
    int n = nx * nz;
    for (int k = 0; k < nz; k++) lq_heightfield_label_init_row(CF(h1), CF(hn), CF(b), I(L), k, nx);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) lq_heightfield_label_merge_cell(I(L), i, k, nx, nz);
    for (int idx = 0; idx < n; idx++)
        lq_heightfield_label_compress_cell(I(L), L64(old_sum), L64(new_sum), I(wet), idx);
}

void lq_heightfield_ref_volume_reduce(int nx, int nz, const lq_field *h1, const lq_field *hn,
                                      const lq_field *b, const lq_field *L, lq_field *old_sum,
                                      lq_field *new_sum, lq_field *wet, float scale, int with_old)
{
    for (int k = 0; k < nz; k++)
        for (int i0 = 0; i0 < nx; i0 += LQ_HEIGHTFIELD_SEGMENT)
            lq_heightfield_volume_reduce_segment(
                CF(h1), CF(hn), CF(b), (const int *)L->host, L64(old_sum), L64(new_sum), I(wet),
                i0 + nx * k, LQ_MIN(LQ_HEIGHTFIELD_SEGMENT, nx - i0), scale, with_old);
}

void lq_heightfield_ref_volume_apply(int nx, int nz, lq_field *hn, const lq_field *b,
                                     const lq_field *L, const lq_field *old_sum,
                                     const lq_field *new_sum, const lq_field *wet,
                                     lq_field *next_new, lq_field *next_wet, lq_field *acc_l,
                                     float inv_scale, int last_pass)
{
    int n = nx * nz;
    for (int idx = 0; idx < n; idx++)
        lq_heightfield_volume_apply_cell(
            F(hn), CF(b), (const int *)L->host, (const lq_long *)old_sum->host,
            (const lq_long *)new_sum->host, (const int *)wet->host, L64(next_new), I(next_wet),
            L64(acc_l), idx, inv_scale, last_pass);
}

void lq_heightfield_ref_finish(int nx, int nz, lq_field *hn, const lq_field *h1, const lq_field *b,
                               lq_field *u, lq_field *w, lq_field *acc_i, float g_new, float g_old,
                               float keep, float fric, float grav, float thin, float eps, int step,
                               const lq_heightfield_walls *wl)
{
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            lq_heightfield_finish_cell(F(hn), CF(h1), CF(b), F(u), F(w), I(acc_i), i, k, nx, nz,
                                       g_new, g_old, keep, fric, grav, thin, eps, step, wl->absorb,
                                       wl->aw, wl->sponge);
}

void lq_heightfield_ref_advect(int nx, int nz, const lq_field *h1, const lq_field *b,
                               const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                               float dt_dx)
{
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            lq_heightfield_advect_cell(CF(h1), CF(b), CF(u), CF(w), F(ua), F(wa), i, k, nx, nz,
                                       dt_dx);
}

void lq_heightfield_ref_stats(int nx, int nz, const lq_field *h, const lq_field *b,
                              const lq_field *u, const lq_field *w, lq_field *acc_l,
                              lq_field *acc_i, float scale)
{
    for (int k = 0; k < nz; k++)
        for (int i0 = 0; i0 < nx; i0 += LQ_HEIGHTFIELD_SEGMENT)
            lq_heightfield_stats_segment(CF(h), CF(b), CF(u), CF(w), L64(acc_l), I(acc_i), i0, k,
                                         LQ_MIN(LQ_HEIGHTFIELD_SEGMENT, nx - i0), nx, scale);
}
