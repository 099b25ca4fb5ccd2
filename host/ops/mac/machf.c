/*
 * machf.c — launchers of the height-field surface (machf.h; Foster & Metaxas 1996 §4.3,
 * eq. 11–12), its state, and the host-side initialisation and measures. Each launcher
 * dispatches to the reference twin or binds its arguments and enqueues; nothing here
 * allocates in the step loop.
 */
#include "ops/mac/machf.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_machf_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/mac/machf_cell.h", "kernels/mac/machf.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_machf_kernels[] = {
    LQ_KERNEL(lq_machf_ops, advance, "machf_advance"),
    LQ_KERNEL(lq_machf_ops, fill, "machf_fill"),
    LQ_KERNEL(lq_machf_ops, label, "machf_label"),
};
static const lq_program lq_machf_program = LQ_PROGRAM("XYZ", lq_machf_sources, lq_machf_kernels);

int lq_machf_ops_init(lq_machf_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_machf_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    return lq_program_build(&lq_machf_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_machf_ops_release(lq_machf_ops *o)
{
    lq_program_release(&lq_machf_program, o, &o->program);
}

int lq_machf_state_init(lq_machf_state *st, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(st, 0, sizeof *st);
    st->nx = nx;
    st->ny = ny;
    st->nz = nz;
    int rc = lq_field_alloc(ctx, &st->h, "h", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->hn, "hn", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->state, "hf_state", nx, ny, nz, 4);
    if (!rc) rc = lq_field_zero(&st->h, 0);
    if (!rc) rc = lq_field_zero(&st->hn, 0);
    if (rc) lq_machf_state_release(st);
    return rc;
}

void lq_machf_state_release(lq_machf_state *st)
{
    lq_field_release(&st->h);
    lq_field_release(&st->hn);
    lq_field_release(&st->state);
}

int lq_machf_set(lq_machf_state *st, const float *h)
{
    return lq_field_upload(&st->h, h);
}

int lq_machf_get(const lq_machf_state *st, float *h)
{
    return lq_field_download(&st->h, h);
}

int lq_machf_advance(lq_machf_ops *o, lq_machf_state *st, const lq_field *u, const lq_field *v,
                     const lq_field *w, const lq_field *flags, const lq_machf_params *prm)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    assert(st->nx == nx && st->ny == ny && st->nz == nz);
    assert(flags->elem == 1 && flags->count == (size_t)nx * ny * nz);
    assert(u->count == (size_t)(nx + 1) * ny * nz && v->count == (size_t)nx * (ny + 1) * nz &&
           w->count == (size_t)nx * ny * (nz + 1));
    int rc = LQ_OK;
    if (IS_REF(o)) {
        lq_machf_ref_advance(&st->hn, &st->h, u, v, w, flags, prm);
    } else {
        lq_machf_coef c = lq_machf_coef_of(prm, ny);
        float dy = prm->dy, dt = prm->dt;
        lq_arg a[] = {LQ_MEM(&st->hn), LQ_MEM(&st->h), LQ_MEM(u),    LQ_MEM(v),
                      LQ_MEM(w),       LQ_MEM(flags),  LQ_VAL(dy),   LQ_VAL(c.idy),
                      LQ_VAL(c.q4x),   LQ_VAL(c.q4z),  LQ_VAL(c.ly), LQ_VAL(dt)};
        rc = lq_kernel_launch(&o->advance, lq_range_2d(nx, nz, 0, 0), LQ_ARGS(a));
    }
    if (rc) return rc;
    lq_field t = st->h; /* the new heights become h */
    st->h = st->hn;
    st->hn = t;
    return LQ_OK;
}

int lq_machf_classify(lq_machf_ops *o, lq_machf_state *st, lq_field *flags,
                      const lq_machf_params *prm)
{
    assert(flags->elem == 1 && flags->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_machf_ref_classify(&st->h, &st->state, flags, prm);
        return LQ_OK;
    }
    float dy = prm->dy;
    lq_arg fa[] = {LQ_MEM(&st->state), LQ_MEM(flags), LQ_MEM(&st->h), LQ_VAL(dy)};
    lq_arg la[] = {LQ_MEM(flags), LQ_MEM(&st->state)};
    lq_range cells = lq_range_3d(o->nx, o->ny, o->nz);
    int rc = lq_kernel_launch(&o->fill, cells, LQ_ARGS(fa));
    if (!rc) rc = lq_kernel_launch(&o->label, cells, LQ_ARGS(la));
    return rc;
}

/* --- host helpers ------------------------------------------------------------------- */

void lq_machf_from_shapes(int nx, int ny, int nz, float dx, float dy, float dz,
                          const unsigned char *flags, int nshapes, const lq_markers_shape *shapes,
                          float *h)
{
    double top = ny * (double)dy;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            double x = (i + 0.5) * dx, z = (k + 0.5) * dz, best = 0;
            for (int q = 0; q < nshapes; q++) {
                const lq_markers_shape *s = &shapes[q];
                double y = -1;
                int over =
                    x >= s->a[0] && x <= s->b[0] && (nz == 1 || (z >= s->a[2] && z <= s->b[2]));
                if (s->kind == LQ_MARKERS_BOX) {
                    if (over) y = s->b[1];
                } else if (s->kind == LQ_MARKERS_WAVE) {
                    double xa = s->axis == 2 ? z : x;
                    double yw = s->level + s->amp * cos(s->k * (xa - s->x0));
                    if (over) y = yw < s->b[1] ? yw : s->b[1];
                } else {
                    double ex = x - s->a[0], ez = nz == 1 ? 0 : z - s->a[2];
                    double d2 = (double)s->r * s->r - ex * ex - ez * ez;
                    if (d2 >= 0) y = s->a[1] + sqrt(d2);
                }
                if (y > best) best = y;
            }
            int jf = 0;
            while (flags && jf < ny - 1 && lq_markers_fixed(flags[LQ_MAC_CELL(i, jf, k, nx, ny)]))
                jf++;
            if (best < jf * (double)dy) best = jf * (double)dy;
            h[i + nx * k] = (float)(best < top ? best : top);
        }
}

void lq_machf_from_flags(int nx, int ny, int nz, float dy, const unsigned char *flags, float *h)
{
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            int top = -1;
            for (int j = 0; j < ny; j++) {
                int f = flags[LQ_MAC_CELL(i, j, k, nx, ny)];
                if (f == LQ_MAC_FULL || f == LQ_MAC_SURFACE) top = j;
            }
            h[i + nx * k] = (float)((top + 1) * (double)dy);
        }
}

void lq_machf_measure_host(int nx, int ny, int nz, float dx, float dy, float dz,
                           const unsigned char *flags, const float *h, lq_machf_measure *m)
{
    memset(m, 0, sizeof *m);
    m->h_min = INFINITY;
    m->h_max = -INFINITY;
    double vol = 0;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            int col = i + nx * k;
            double hc = h[col];
            int js = lq_machf_row(h[col], ny, dy, (float)(1.0 / dy));
            int wet = !lq_markers_fixed(flags[LQ_MAC_CELL(i, js, k, nx, ny)]);
            for (int j = 0; j < ny; j++) {
                if (lq_markers_fixed(flags[LQ_MAC_CELL(i, j, k, nx, ny)])) continue;
                double d = hc - j * (double)dy;
                vol += d <= 0 ? 0 : d >= dy ? dy : d;
            }
            if (!wet) continue;
            if (h[col] < m->h_min) m->h_min = h[col];
            if (h[col] > m->h_max) m->h_max = h[col];
            /* slopes toward the +x and +z neighbours that are wet too */
            int steep = 0;
            for (int a = 0; a < 2; a++) {
                int i2 = i + (a == 0), k2 = k + (a == 1);
                if (i2 >= nx || k2 >= nz) continue;
                int c2 = i2 + nx * k2;
                int j2 = lq_machf_row(h[c2], ny, dy, (float)(1.0 / dy));
                if (lq_markers_fixed(flags[LQ_MAC_CELL(i2, j2, k2, nx, ny)])) continue;
                double s = fabs((double)h[c2] - hc) / (a == 0 ? dx : dz);
                if (s > m->max_slope) m->max_slope = s;
                if (fabs((double)h[c2] - hc) > dy) steep = 1;
            }
            m->steep += steep;
        }
    m->volume = vol * dx * dz;
    if (m->h_min > m->h_max) m->h_min = m->h_max = 0;
}
