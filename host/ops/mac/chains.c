/*
 * chains.c — the 2D free-surface particle chains (chains.h; Foster & Metaxas 1996 §4.2,
 * Fig. 5): their state, the host-side construction from liquid shapes, the insertion
 * and deletion of points (sequential, O(points) per step), the area measure, and the
 * launchers of the classification passes (kernels/mac/chains.cl), each dispatching to the
 * reference twin or enqueueing the kernel. The points move with the markers' advection
 * kernel (the same position layout).
 */
#include "ops/mac/chains.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_chains_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/mac/chains_cell.h", "kernels/mac/chains.cl"};

#define IS_REF(ctx) ((ctx)->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_chains_kernels[] = {
    LQ_KERNEL(lq_chains_ops, clear, "chains_clear"),
    LQ_KERNEL(lq_chains_ops, mark, "chains_mark"),
    LQ_KERNEL(lq_chains_ops, grow, "chains_grow"),
    LQ_KERNEL(lq_chains_ops, side, "chains_side"),
    LQ_KERNEL(lq_chains_ops, spread, "chains_spread"),
    LQ_KERNEL(lq_chains_ops, label, "chains_label"),
};
static const lq_program lq_chains_program = LQ_PROGRAM("XY", lq_chains_sources, lq_chains_kernels);

static int lq_chains_need_2d(int nz)
{
    if (nz == 1) return LQ_OK;
    return lq_error(LQ_EINPUT,
                    "surface particle chains are a 2D method (nz = 1), this grid has nz = %d: use "
                    "marker particles or the height field in 3D",
                    nz);
}

int lq_chains_ops_init(lq_chains_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_chains_ops){.ctx = ctx, .nx = nx, .ny = ny};
    int rc = lq_chains_need_2d(nz);
    if (rc || IS_REF(ctx)) return rc;
    return lq_program_build(&lq_chains_program, o, &o->program, ctx, nx, ny, 1, "");
}

void lq_chains_ops_release(lq_chains_ops *o)
{
    lq_program_release(&lq_chains_program, o, &o->program);
}

/* --- state -------------------------------------------------------------------------- */

int lq_chains_state_init(lq_chains_state *st, lq_ctx *ctx, int nx, int ny, int nz, float dz)
{
    memset(st, 0, sizeof *st);
    st->ctx = ctx;
    st->nx = nx;
    st->ny = ny;
    st->zc = 0.5f * dz;
    int rc = lq_chains_need_2d(nz);
    if (!rc) rc = lq_field_alloc(ctx, &st->label, "chain_label", nx, ny, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->state, "chain_state", nx, ny, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->changed, "chain_changed", 1, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&st->state, 0);
    if (rc) lq_chains_state_release(st);
    return rc;
}

void lq_chains_state_release(lq_chains_state *st)
{
    lq_field *fs[] = {&st->pos, &st->next, &st->label, &st->state, &st->changed};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(st->hp);
    free(st->hn);
    free(st->first);
    free(st->count);
    free(st->closed);
    st->hp = NULL;
    st->hn = NULL;
    st->first = st->count = NULL;
    st->closed = NULL;
    st->n = st->cap = st->nchains = st->ccap = st->dev_cap = 0;
}

/* Room for `points` points and `chains` chains on the host. */
static int lq_chains_reserve(lq_chains_state *st, int points, int chains)
{
    if (points > st->cap) {
        int cap = LQ_MAX(points, 2 * st->cap);
        cap = LQ_MAX(cap, 64);
        float *hp = realloc(st->hp, (size_t)cap * 3 * sizeof *hp);
        if (!hp) return lq_error(LQ_ESIM, "out of memory for %d chain points", cap);
        st->hp = hp;
        int *hn = realloc(st->hn, (size_t)cap * sizeof *hn);
        if (!hn) return lq_error(LQ_ESIM, "out of memory for %d chain points", cap);
        st->hn = hn;
        st->cap = cap;
    }
    if (chains > st->ccap) {
        int cap = LQ_MAX(chains, 2 * st->ccap);
        cap = LQ_MAX(cap, 8);
        int *f = realloc(st->first, (size_t)cap * sizeof *f);
        if (!f) return lq_error(LQ_ESIM, "out of memory for %d chains", cap);
        st->first = f;
        int *c = realloc(st->count, (size_t)cap * sizeof *c);
        if (!c) return lq_error(LQ_ESIM, "out of memory for %d chains", cap);
        st->count = c;
        unsigned char *cl = realloc(st->closed, (size_t)cap);
        if (!cl) return lq_error(LQ_ESIM, "out of memory for %d chains", cap);
        st->closed = cl;
        st->ccap = cap;
    }
    return LQ_OK;
}

/* next[] of chain ch from its first point, count and closed flag. */
static void lq_chains_link(lq_chains_state *st, int ch)
{
    int f = st->first[ch], m = st->count[ch];
    for (int p = 0; p < m; p++) st->hn[f + p] = f + p + 1;
    if (m > 0) st->hn[f + m - 1] = st->closed[ch] ? f : -2 - f;
}

int lq_chains_add(lq_chains_state *st, int npts, const float *xy, int closed)
{
    if (npts <= 0) return LQ_OK;
    int rc = lq_chains_reserve(st, st->n + npts, st->nchains + 1);
    if (rc) return rc;
    int ch = st->nchains++;
    st->first[ch] = st->n;
    st->count[ch] = npts;
    st->closed[ch] = (unsigned char)(closed != 0);
    for (int p = 0; p < npts; p++) {
        float *q = st->hp + 3 * (size_t)(st->n + p);
        q[0] = xy[2 * p];
        q[1] = xy[2 * p + 1];
        q[2] = st->zc;
    }
    st->n += npts;
    lq_chains_link(st, ch);
    return LQ_OK;
}

int lq_chains_sync(lq_chains_state *st)
{
    int rc = LQ_OK;
    if (st->dev_cap < st->cap || st->dev_cap == 0) {
        lq_field_release(&st->pos);
        lq_field_release(&st->next);
        st->dev_cap = 0;
        rc = lq_chains_reserve(st, LQ_MAX(st->cap, 1), 0);
        int cap = st->cap;
        if (!rc) rc = lq_field_alloc(st->ctx, &st->pos, "chain_pos", 3, cap, 1, 4);
        if (!rc) rc = lq_field_alloc(st->ctx, &st->next, "chain_next", cap, 1, 1, 4);
        if (rc) return rc;
        st->dev_cap = cap;
    }
    /* only the used part matters; the rest of the host arrays is initialised for the copy */
    for (int p = st->n; p < st->dev_cap; p++) {
        st->hp[3 * p] = st->hp[3 * p + 1] = st->hp[3 * p + 2] = 0.0f;
        st->hn[p] = -1;
    }
    rc = lq_field_upload(&st->pos, st->hp);
    if (!rc) rc = lq_field_upload(&st->next, st->hn);
    return rc;
}

/* --- from shapes -------------------------------------------------------------------- */

/* A growable list of x, y pairs. */
typedef struct lq_chains_poly {
    float *xy;
    int n, cap;
} lq_chains_poly;

static int lq_chains_push(lq_chains_poly *p, double x, double y)
{
    if (p->n == p->cap) {
        int cap = LQ_MAX(64, 2 * p->cap);
        float *xy = realloc(p->xy, (size_t)cap * 2 * sizeof *xy);
        if (!xy) return lq_error(LQ_ESIM, "out of memory for a chain of %d points", cap);
        p->xy = xy;
        p->cap = cap;
    }
    p->xy[2 * p->n] = (float)x;
    p->xy[2 * p->n + 1] = (float)y;
    p->n++;
    return LQ_OK;
}

/* A wave's surface height at x (its box's y range bounds it). */
static double lq_chains_wave_y(const lq_markers_shape *w, double x, double zc)
{
    double xa = w->axis == 2 ? zc : x;
    double y = w->level + w->amp * cos(w->k * (xa - w->x0));
    if (y > w->b[1]) y = w->b[1];
    if (y < w->a[1]) y = w->a[1];
    return y;
}

/* Points from (x0, y0) toward (x1, y1), the end excluded, spaced sp at most; the wave's
 * surface y(x) replaces the straight line when top != NULL. */
static int lq_chains_edge(lq_chains_poly *p, double x0, double y0, double x1, double y1, double sp,
                          const lq_markers_shape *top, double zc)
{
    int m = (int)ceil(hypot(x1 - x0, y1 - y0) / sp);
    if (m < 1) m = 1;
    int rc = LQ_OK;
    for (int t = 0; t < m && !rc; t++) {
        double f = (double)t / m, x = x0 + f * (x1 - x0), y = y0 + f * (y1 - y0);
        if (top) y = lq_chains_wave_y(top, x, zc);
        rc = lq_chains_push(p, x, y);
    }
    return rc;
}

int lq_chains_from_shapes(lq_chains_state *st, float dx, float dy, int nshapes,
                          const lq_markers_shape *shapes)
{
    double sp = 0.4 * (dx < dy ? dx : dy), lx = st->nx * (double)dx, ly = st->ny * (double)dy;
    lq_chains_poly p = {0};
    int rc = LQ_OK;
    for (int q = 0; q < nshapes && !rc; q++) {
        const lq_markers_shape *s = &shapes[q];
        p.n = 0;
        if (s->kind == LQ_MARKERS_SPHERE) {
            double r = s->r;
            int m = (int)ceil(2 * LQ_PI * r / sp);
            if (m < 8) m = 8;
            for (int t = 0; t < m && !rc; t++) {
                double th = 2 * LQ_PI * t / m;
                rc = lq_chains_push(&p, s->a[0] + r * cos(th), s->a[1] + r * sin(th));
            }
        } else {
            /* box or wave: edges within a cell of the domain edge go onto it (wall cells) */
            double x0 = s->a[0], x1 = s->b[0], y0 = s->a[1], y1 = s->b[1];
            if (x0 <= dx) x0 = 0;
            if (y0 <= dy) y0 = 0;
            if (x1 >= lx - dx) x1 = lx;
            if (y1 >= ly - dy) y1 = ly;
            if (!(x1 > x0 && y1 > y0)) continue;
            const lq_markers_shape *top = s->kind == LQ_MARKERS_WAVE ? s : NULL;
            lq_markers_shape wt;
            if (top) { /* the wave's curve in the clamped box */
                wt = *s;
                wt.a[1] = (float)y0;
                wt.b[1] = (float)y1;
                top = &wt;
            }
            double yl = y1, yr = y1; /* the top's ends */
            if (top) {
                yl = lq_chains_wave_y(top, x0, st->zc);
                yr = lq_chains_wave_y(top, x1, st->zc);
            }
            if (!rc) rc = lq_chains_edge(&p, x0, y0, x1, y0, sp, NULL, 0);     /* bottom → */
            if (!rc) rc = lq_chains_edge(&p, x1, y0, x1, yr, sp, NULL, 0);     /* right ↑ */
            if (!rc) rc = lq_chains_edge(&p, x1, yr, x0, yl, sp, top, st->zc); /* top ← */
            if (!rc) rc = lq_chains_edge(&p, x0, yl, x0, y0, sp, NULL, 0);     /* left ↓ */
        }
        if (!rc && p.n >= 3) rc = lq_chains_add(st, p.n, p.xy, 1);
    }
    free(p.xy);
    return rc;
}

/* --- refine (host) ------------------------------------------------------------------ */

static double lq_chains_dist(const float *a, const float *b)
{
    return hypot((double)a[0] - b[0], (double)a[1] - b[1]);
}

void lq_chains_refine(lq_chains_state *st, const lq_chains_params *prm)
{
    double d = prm->dx < prm->dy ? prm->dx : prm->dy;
    double dmax = (prm->max_seg > 0 ? prm->max_seg : 0.5) * d;
    double dmin = (prm->min_seg > 0 ? prm->min_seg : 0.1) * d;
    int kmax = 4 * (st->nx + st->ny); /* a garbage (huge) segment gets no more than this */
    st->inserted = st->merged = st->dropped = 0;
    /* merged chains into a, then the evenly split result into b, chain by chain */
    lq_chains_poly a = {0}, b = {0}, all = {0};
    int nch = st->nchains, kept = 0, rc = LQ_OK;
    int *cnt = malloc((size_t)LQ_MAX(nch, 1) * sizeof *cnt);
    unsigned char *cls = malloc((size_t)LQ_MAX(nch, 1));
    if (!cnt || !cls) rc = lq_error(LQ_ESIM, "out of memory refining the chains");
    for (int ch = 0; ch < nch && !rc; ch++) {
        const float *src = st->hp + 3 * (size_t)st->first[ch];
        int m = st->count[ch], closed = st->closed[ch];
        a.n = b.n = 0;
        for (int p = 0; p < m && !rc; p++) {
            const float *P = src + 3 * p;
            float *L = a.n ? a.xy + 2 * (a.n - 1) : NULL;
            if (L && lq_chains_dist(L, P) < dmin) {
                st->merged++;
                if (!closed && p == m - 1) { /* an open chain's last point stays */
                    L[0] = P[0];
                    L[1] = P[1];
                } else if (!(!closed && a.n == 1)) { /* (its first point stays too) */
                    L[0] = 0.5f * (L[0] + P[0]);
                    L[1] = 0.5f * (L[1] + P[1]);
                }
                continue;
            }
            rc = lq_chains_push(&a, P[0], P[1]);
        }
        if (closed && a.n >= 2 && lq_chains_dist(a.xy + 2 * (a.n - 1), a.xy) < dmin) {
            st->merged++;
            a.xy[0] = 0.5f * (a.xy[0] + a.xy[2 * (a.n - 1)]);
            a.xy[1] = 0.5f * (a.xy[1] + a.xy[2 * (a.n - 1) + 1]);
            a.n--;
        }
        for (int s = 0; s < a.n && !rc; s++) {
            const float *P = a.xy + 2 * s;
            rc = lq_chains_push(&b, P[0], P[1]);
            if (s + 1 == a.n && !closed) break;
            const float *Q = a.xy + 2 * ((s + 1) % a.n);
            double len = lq_chains_dist(P, Q);
            if (!(len > dmax)) continue;
            double kk = ceil(len / dmax);
            int k = kk > kmax ? kmax : (int)kk;
            for (int t = 1; t < k && !rc; t++) {
                double f = (double)t / k;
                rc = lq_chains_push(&b, P[0] + f * ((double)Q[0] - P[0]),
                                    P[1] + f * ((double)Q[1] - P[1]));
            }
            st->inserted += k - 1;
        }
        if (b.n < (closed ? 3 : 2)) {
            st->dropped++;
            continue;
        }
        for (int s = 0; s < b.n && !rc; s++)
            rc = lq_chains_push(&all, b.xy[2 * s], b.xy[2 * s + 1]);
        cnt[kept] = b.n;
        cls[kept++] = (unsigned char)closed;
    }
    if (!rc) {
        st->n = 0;
        st->nchains = 0;
        int off = 0;
        for (int ch = 0; ch < kept && !rc; ch++) {
            rc = lq_chains_add(st, cnt[ch], all.xy + 2 * (size_t)off, cls[ch]);
            off += cnt[ch];
        }
    }
    if (rc) fprintf(stderr, "liquidcl: %s (chains left unrefined)\n", lq_error_message());
    free(a.xy);
    free(b.xy);
    free(all.xy);
    free(cnt);
    free(cls);
}

int lq_chains_advance(lq_chains_state *st, lq_markers_ops *ko, const lq_field *u, const lq_field *v,
                      const lq_field *w, const lq_field *flags, const lq_chains_params *prm)
{
    assert(st->dev_cap >= st->n && st->dev_cap == st->cap);
    lq_markers_params kp = {.dt = prm->dt, .dx = prm->dx, .dy = prm->dy, .dz = prm->dz};
    int rc = lq_markers_advect(ko, &st->pos, st->n, u, v, w, flags, &kp);
    if (!rc) rc = lq_field_download(&st->pos, st->hp);
    if (rc) return rc;
    lq_chains_refine(st, prm);
    return lq_chains_sync(st);
}

/* --- classification ----------------------------------------------------------------- */

int lq_chains_classify(lq_chains_ops *o, lq_chains_state *st, lq_field *flags,
                       const lq_chains_params *prm)
{
    int nx = o->nx, ny = o->ny, n = st->n, rc = LQ_OK;
    assert(flags->elem == 1 && flags->count == (size_t)nx * ny);
    assert(st->dev_cap >= n);
    float idx = (float)(1.0 / prm->dx), idy = (float)(1.0 / prm->dy);
    float dx = prm->dx, dy = prm->dy;
    size_t cells = (size_t)nx * ny;
    int ref = IS_REF(o->ctx);
    if (ref) {
        lq_chains_ref_clear(&st->label, flags);
        lq_chains_ref_mark(&st->label, &st->pos, &st->next, n, flags, idx, idy);
    } else {
        lq_arg ca[] = {LQ_MEM(&st->label), LQ_MEM(flags)};
        lq_arg ma[] = {LQ_MEM(&st->label), LQ_MEM(&st->pos), LQ_MEM(&st->next), LQ_VAL(n),
                       LQ_MEM(flags),      LQ_VAL(idx),      LQ_VAL(idy)};
        rc = lq_kernel_launch(&o->clear, lq_range_1d(cells, 0), LQ_ARGS(ca));
        if (!rc) rc = lq_kernel_launch(&o->mark, lq_range_var(&o->mark, n), LQ_ARGS(ma));
    }
    /* grow to the fixed point: a few sweeps between reads of the change flag */
    int sweeps = 0, changed = 1, limit = (int)cells + 8;
    lq_arg ga[] = {LQ_MEM(&st->label), LQ_MEM(&st->changed)};
    while (!rc && changed && sweeps < limit) {
        rc = lq_field_zero(&st->changed, 0);
        for (int r = 0; r < 4 && !rc; r++, sweeps++) {
            if (ref)
                lq_chains_ref_grow(&st->label, &st->changed);
            else
                rc = lq_kernel_launch(&o->grow, lq_range_2d(nx, ny, 0, 0), LQ_ARGS(ga));
        }
        if (!rc) rc = lq_field_download(&st->changed, &changed);
    }
    if (rc) return rc;
    if (changed)
        return lq_error(LQ_ESIM, "chains: region growing did not settle in %d sweeps", sweeps);
    st->grow_sweeps = sweeps;
    if (ref) {
        lq_chains_ref_side(&st->state, &st->label, &st->pos, &st->next, n, dx, dy);
        lq_chains_ref_spread(&st->state, &st->label);
        lq_chains_ref_label(flags, &st->state);
        return LQ_OK;
    }
    lq_arg sa[] = {LQ_MEM(&st->state), LQ_MEM(&st->label), LQ_MEM(&st->pos), LQ_MEM(&st->next),
                   LQ_VAL(n),          LQ_VAL(dx),         LQ_VAL(dy)};
    lq_arg pa[] = {LQ_MEM(&st->state), LQ_MEM(&st->label)};
    lq_arg la[] = {LQ_MEM(flags), LQ_MEM(&st->state)};
    rc = lq_kernel_launch(&o->side, lq_range_2d(nx, ny, 0, 0), LQ_ARGS(sa));
    if (!rc) rc = lq_kernel_launch(&o->spread, lq_range_1d(cells, 0), LQ_ARGS(pa));
    if (!rc) rc = lq_kernel_launch(&o->label, lq_range_2d(nx, ny, 0, 0), LQ_ARGS(la));
    return rc;
}

/* --- area --------------------------------------------------------------------------- */

/* Clips polygon (n points, x y pairs in in) against one half-plane, keeping
 * s·(coord[axis] − bound) ≤ 0; writes to out, returns its count. */
static int lq_chains_clip(const double *in, int n, double *out, int axis, double bound, double s)
{
    int m = 0;
    for (int p = 0; p < n; p++) {
        const double *A = in + 2 * p, *B = in + 2 * ((p + 1) % n);
        double fa = s * (A[axis] - bound), fb = s * (B[axis] - bound);
        if (fa <= 0) {
            out[2 * m] = A[0];
            out[2 * m + 1] = A[1];
            m++;
        }
        if ((fa < 0 && fb > 0) || (fa > 0 && fb < 0)) {
            double t = fa / (fa - fb);
            out[2 * m] = A[0] + t * (B[0] - A[0]);
            out[2 * m + 1] = A[1] + t * (B[1] - A[1]);
            m++;
        }
    }
    return m;
}

double lq_chains_area(const lq_chains_state *st, const double *lo, const double *hi)
{
    double total = 0;
    for (int ch = 0; ch < st->nchains; ch++) {
        int m = st->count[ch];
        const float *src = st->hp + 3 * (size_t)st->first[ch];
        /* each clipping stage at most doubles the count (m + 4 in practice) */
        size_t room = (size_t)(16 * m + 16) * 2;
        double *a = malloc(room * sizeof *a), *b = malloc(room * sizeof *b);
        if (!a || !b) {
            free(a);
            free(b);
            return NAN;
        }
        for (int p = 0; p < m; p++) {
            a[2 * p] = src[3 * p];
            a[2 * p + 1] = src[3 * p + 1];
        }
        if (lo && hi) {
            m = lq_chains_clip(a, m, b, 0, lo[0], -1);
            m = lq_chains_clip(b, m, a, 0, hi[0], 1);
            m = lq_chains_clip(a, m, b, 1, lo[1], -1);
            m = lq_chains_clip(b, m, a, 1, hi[1], 1);
        }
        double s = 0;
        for (int p = 0; p < m; p++) {
            const double *A = a + 2 * p, *B = a + 2 * ((p + 1) % m);
            s += A[0] * B[1] - B[0] * A[1];
        }
        total += 0.5 * s;
        free(a);
        free(b);
    }
    return total;
}
