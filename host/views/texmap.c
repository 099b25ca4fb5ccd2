/*
 * texmap.c — the texture particles' rest coordinate on the liquid's surface (texmap.h):
 * the binning, the nearest-particle search, the weighted linear fit, the style's texture
 * coordinate and colour, and the mesh with per-vertex rest coordinates.
 *
 * Binning: a counting sort of the particles by bin (x fastest), so each bin's particles
 * are contiguous and the lookups touch only the rings they need. Every lookup is
 * independent and reads only the binned copy: deterministic, order-free.
 */
#include "views/texmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/vec3.h"
#include "io/io.h"
#include "views/mcubes.h"

/* --- binning ----------------------------------------------------------------------------- */

void lq_texmap_free(lq_texmap *t)
{
    free(t->p);
    free(t->start);
    memset(t, 0, sizeof *t);
}

static int tm_bin_axis(const lq_texmap *t, int a, double x)
{
    double g = floor((x - t->lo[a]) / t->bin);
    int i = g > 0 ? (g < t->nb[a] ? (int)g : t->nb[a] - 1) : 0; /* NaN → 0 */
    return i;
}

static int tm_bin_of(const lq_texmap *t, const double x[3])
{
    return tm_bin_axis(t, 0, x[0]) +
           t->nb[0] * (tm_bin_axis(t, 1, x[1]) + t->nb[1] * tm_bin_axis(t, 2, x[2]));
}

int lq_texmap_build(lq_texmap *t, int n, const float *const cols[6], const double lo[3],
                    const double hi[3], double bin, int k, double reach)
{
    memset(t, 0, sizeof *t);
    if (n < 0 || !(bin > 0) || k < 1 || k > LQ_TEXMAP_MAX_K || !(reach > 0))
        return lq_error(LQ_ESIM, "texture: bad binning (%d particles, bin %g, k %d, reach %g)", n,
                        bin, k, reach);
    t->n = n;
    t->k = k;
    t->bin = bin;
    t->reach = reach;
    size_t bins = 1;
    for (int a = 0; a < 3; a++) {
        t->lo[a] = lo[a];
        double e = ceil((hi[a] - lo[a]) / bin);
        t->nb[a] = e >= 1 ? (e < 4096 ? (int)e : 4096) : 1;
        bins *= (size_t)t->nb[a];
    }
    int *bin_of = lq_alloc((size_t)LQ_MAX(n, 1) * sizeof *bin_of);
    t->start = lq_calloc(bins + 1, sizeof *t->start);
    t->p = lq_alloc((size_t)LQ_MAX(n, 1) * 6 * sizeof *t->p);
    if (!bin_of || !t->start || !t->p) {
        free(bin_of);
        lq_texmap_free(t);
        return LQ_ESIM;
    }
    for (int i = 0; i < n; i++) {
        double x[3] = {cols[0][i], cols[1][i], cols[2][i]};
        bin_of[i] = tm_bin_of(t, x);
        t->start[bin_of[i] + 1]++;
    }
    for (size_t b = 0; b < bins; b++) t->start[b + 1] += t->start[b];
    for (int i = 0; i < n; i++) { /* stable: a bin keeps the particles' order */
        int slot = t->start[bin_of[i]]++;
        for (int c = 0; c < 6; c++) t->p[(size_t)slot * 6 + c] = cols[c][i];
    }
    for (size_t b = bins; b > 0; b--) t->start[b] = t->start[b - 1]; /* back to the starts */
    t->start[0] = 0;
    free(bin_of);
    return LQ_OK;
}

/* --- the nearest particles ------------------------------------------------------------------ */

/* The candidates of a lookup: (d², binned index), ordered by d² and then by index, so the
 * nearest set is unique. Held on the stack; a lookup among more than fit (particles piled
 * up in a few bins) grows onto the heap. */
typedef struct tm_cand {
    double d2;
    int idx;
} tm_cand;

typedef struct tm_list {
    tm_cand *c;
    int n, cap, failed;
    tm_cand local[1024];
} tm_list;

static int tm_less(const tm_cand *a, const tm_cand *b)
{
    return a->d2 < b->d2 || (a->d2 == b->d2 && a->idx < b->idx);
}

static void tm_push(tm_list *l, int idx, double d2)
{
    if (l->n == l->cap) {
        int cap = 2 * l->cap;
        tm_cand *c = lq_alloc((size_t)cap * sizeof *c);
        if (!c) {
            l->failed = 1;
            return;
        }
        memcpy(c, l->c, (size_t)l->n * sizeof *c);
        if (l->c != l->local) free(l->c);
        l->c = c;
        l->cap = cap;
    }
    l->c[l->n].d2 = d2;
    l->c[l->n++].idx = idx;
}

/* Reorders c[0 .. n) so that its m least (tm_less) come first, unordered (quickselect,
 * the middle element as pivot: deterministic). */
static void tm_select(tm_cand *c, int n, int m)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        tm_cand pv = c[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (tm_less(&c[i], &pv)) i++;
            while (tm_less(&pv, &c[j])) j--;
            if (i <= j) {
                tm_cand x = c[i];
                c[i++] = c[j];
                c[j--] = x;
            }
        }
        if (m - 1 <= j)
            hi = j;
        else if (m - 1 >= i)
            lo = i;
        else
            return;
    }
}

static void tm_visit_bin(const lq_texmap *t, int b, const double q[3], tm_list *l)
{
    for (int i = t->start[b]; i < t->start[b + 1]; i++) {
        const float *p = t->p + (size_t)i * 6;
        double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
        tm_push(l, i, dx * dx + dy * dy + dz * dz);
    }
}

/* The bins at Chebyshev distance exactly r from bin c (within the grid). */
static void tm_visit_ring(const lq_texmap *t, const int c[3], int r, const double q[3], tm_list *l)
{
    for (int dk = -r; dk <= r; dk++) {
        int k = c[2] + dk;
        if (k < 0 || k >= t->nb[2]) continue;
        for (int dj = -r; dj <= r; dj++) {
            int j = c[1] + dj;
            if (j < 0 || j >= t->nb[1]) continue;
            int shell = abs(dk) == r || abs(dj) == r, step = shell || r == 0 ? 1 : 2 * r;
            for (int di = -r; di <= r; di += step) {
                int i = c[0] + di;
                if (i < 0 || i >= t->nb[0]) continue;
                tm_visit_bin(t, i + t->nb[0] * (j + t->nb[1] * k), q, l);
            }
        }
    }
}

/* A lower bound of the squared distance from q to the particles not yet seen once the
 * rings 0..r around bin c are: the distance to the nearest face of that block of bins
 * with bins beyond it (none beyond the grid's edge: there the face does not count). */
static double tm_unseen(const lq_texmap *t, const int c[3], int r, const double q[3])
{
    double gap = INFINITY;
    for (int a = 0; a < 3; a++) {
        if (c[a] - r > 0) gap = fmin(gap, q[a] - (t->lo[a] + (c[a] - r) * t->bin));
        if (c[a] + r < t->nb[a] - 1) gap = fmin(gap, t->lo[a] + (c[a] + r + 1) * t->bin - q[a]);
    }
    gap = fmax(gap, r * t->bin); /* q outside the box: at least the rings crossed */
    return gap * gap;
}

/* Rings are visited outward, no farther than t->reach; after each, the m least candidates
 * are kept (the rest can never be among the m nearest), and the search stops once the
 * m-th of them is no farther than anything unseen. Those beyond reach are then dropped. */
int lq_texmap_nearest(const lq_texmap *t, const double q[3], int m, int *idx, double *d2)
{
    tm_list l;
    l.c = l.local;
    l.n = l.failed = 0;
    l.cap = (int)LQ_COUNT(l.local);
    m = LQ_MIN(LQ_MIN(m, t->n), LQ_TEXMAP_MAX_K + 1);
    if (m <= 0) return 0;
    int c[3], rmax = LQ_MAX(LQ_MAX(t->nb[0], t->nb[1]), t->nb[2]);
    double rings = ceil(t->reach / t->bin), reach2 = t->reach * t->reach;
    if (rings < rmax) rmax = (int)rings;
    for (int a = 0; a < 3; a++) c[a] = tm_bin_axis(t, a, q[a]);
    for (int r = 0; r <= rmax && !l.failed; r++) {
        tm_visit_ring(t, c, r, q, &l);
        if (l.n < m) continue;
        tm_select(l.c, l.n, m);
        l.n = m;
        double far = 0;
        for (int i = 0; i < m; i++) far = fmax(far, l.c[i].d2);
        if (far <= tm_unseen(t, c, r, q)) break;
    }
    int n = 0; /* l.n ≤ m here (every ring that filled it cut it to m): those within reach */
    for (int i = 0; i < l.n && !l.failed; i++)
        if (l.c[i].d2 <= reach2) l.c[n++] = l.c[i];
    for (int i = 1; i < n; i++) { /* insertion sort: nearest first */
        tm_cand x = l.c[i];
        int j = i - 1;
        for (; j >= 0 && tm_less(&x, &l.c[j]); j--) l.c[j + 1] = l.c[j];
        l.c[j + 1] = x;
    }
    for (int i = 0; i < n; i++) {
        idx[i] = l.c[i].idx;
        d2[i] = l.c[i].d2;
    }
    if (l.c != l.local) free(l.c);
    return n;
}

/* --- the weighted linear fit ------------------------------------------------------------ */

/* inv = the inverse of the symmetric 3 × 3 matrix a; 0 when it is singular. */
static int tm_inverse3(const double a[3][3], double inv[3][3])
{
    double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    if (!(fabs(det) > 0) || !isfinite(det)) return 0;
    double id = 1 / det;
    inv[0][0] = c00 * id;
    inv[1][0] = c01 * id;
    inv[2][0] = c02 * id;
    inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * id;
    inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * id;
    inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * id;
    inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * id;
    inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * id;
    inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * id;
    return 1;
}

/* The weights of the header over the cnt nearest (d2 ascending) into w; *r2 gets R². */
static int tm_weights(const lq_texmap *t, int cnt, const double *d2, double *w, double *r2)
{
    int use = cnt > t->k ? t->k : cnt;
    double R2 = cnt > t->k ? d2[t->k] : 2.25 * d2[cnt - 1];
    double sum = 0;
    for (int i = 0; i < use; i++) {
        double f = R2 > 0 ? 1 - d2[i] / R2 : 1;
        w[i] = f > 0 ? f * f * f : 0;
        sum += w[i];
    }
    if (!(sum > 0)) /* every one at distance R (or R = 0): equal weights */
        for (int i = 0; i < use; i++) w[i] = 1;
    *r2 = R2;
    return use;
}

int lq_texmap_rest(const lq_texmap *t, const double q[3], double rest[3])
{
    int idx[LQ_TEXMAP_MAX_K + 1];
    double d2[LQ_TEXMAP_MAX_K + 1], w[LQ_TEXMAP_MAX_K + 1], R2;
    int cnt = lq_texmap_nearest(t, q, t->k + 1, idx, d2);
    memcpy(rest, q, 3 * sizeof *rest);
    if (cnt == 0) return 0;
    int use = tm_weights(t, cnt, d2, w, &R2);
    double W = 0, xm[3] = {0, 0, 0}, rm[3] = {0, 0, 0};
    for (int i = 0; i < use; i++) {
        const float *p = t->p + (size_t)idx[i] * 6;
        W += w[i];
        for (int a = 0; a < 3; a++) {
            xm[a] += w[i] * p[a];
            rm[a] += w[i] * p[3 + a];
        }
    }
    for (int a = 0; a < 3; a++) {
        xm[a] /= W;
        rm[a] /= W;
    }
    double C[3][3] = {{0}}, D[3][3] = {{0}}, inv[3][3];
    for (int i = 0; i < use; i++) {
        const float *p = t->p + (size_t)idx[i] * 6;
        double dx[3], dr[3];
        for (int a = 0; a < 3; a++) {
            dx[a] = p[a] - xm[a];
            dr[a] = p[3 + a] - rm[a];
        }
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                C[a][b] += w[i] * dx[a] * dx[b];
                D[a][b] += w[i] * dr[a] * dx[b];
            }
    }
    double lambda = 0.01 * (C[0][0] + C[1][1] + C[2][2]);
    for (int a = 0; a < 3; a++) C[a][a] += lambda;
    double dq[3], len = 0, R = sqrt(R2);
    for (int a = 0; a < 3; a++) {
        dq[a] = q[a] - xm[a];
        len += dq[a] * dq[a];
    }
    len = sqrt(len);
    if (len > R && len > 0)
        for (int a = 0; a < 3; a++) dq[a] *= R / len;
    int fit = lambda > 0 && tm_inverse3(C, inv);
    for (int a = 0; a < 3; a++) {
        rest[a] = rm[a];
        if (!fit) continue;
        for (int b = 0; b < 3; b++) {
            double g = 0; /* G = D (C + λ I)⁻¹, row a */
            for (int c = 0; c < 3; c++) g += D[a][c] * inv[c][b];
            rest[a] += g * dq[b];
        }
    }
    return use;
}

/* --- style ------------------------------------------------------------------------------ */

/* The checker's lattice is offset by this fraction of a square: a flat surface at a round
 * height (a box's top at 0.5 m, squares of 0.1 m) then lies inside a square, not on a
 * boundary, where the rest coordinate's rounding flipped the colour from pixel to pixel. */
#define LQ_TEXMAP_CHECKER_OFFSET 0.37

int lq_texmap_style_init(lq_texmap_style *s, const lq_config *cfg, const double lo[3],
                         const double hi[3])
{
    static const int axes[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    const lq_config_texture *tx = &cfg->pls.texture;
    memset(s, 0, sizeof *s);
    double ext = 0;
    for (int a = 0; a < 3; a++) {
        s->lo[a] = lo[a];
        s->hi[a] = hi[a];
        ext = fmax(ext, hi[a] - lo[a]);
    }
    s->sa = axes[tx->plane][0];
    s->ta = axes[tx->plane][1];
    s->checker = tx->checker > 0 ? tx->checker : ext / 16;
    lq_lin3(s->a, 0.93, 0.45, 0.12);
    lq_lin3(s->b, 0.96, 0.92, 0.80);
    if (tx->image) return lq_png_read_rgb(tx->image, &s->iw, &s->ih, &s->image);
    return LQ_OK;
}

void lq_texmap_style_free(lq_texmap_style *s)
{
    free(s->image);
    memset(s, 0, sizeof *s);
}

void lq_texmap_st(const lq_texmap_style *s, const double rest[3], double st[2])
{
    int ax[2] = {s->sa, s->ta};
    for (int c = 0; c < 2; c++) {
        double span = s->hi[ax[c]] - s->lo[ax[c]];
        st[c] = span > 0 ? (rest[ax[c]] - s->lo[ax[c]]) / span : 0;
    }
}

/* The image at (s, t), bilinear between pixel centres, repeated; linear RGB. */
static void tm_image(const lq_texmap_style *s, const double st[2], double rgb[3])
{
    double x = st[0] * s->iw - 0.5, y = (1 - st[1]) * s->ih - 0.5;
    double fx = floor(x), fy = floor(y), tx = x - fx, ty = y - fy;
    if (!isfinite(fx) || !isfinite(fy)) fx = fy = tx = ty = 0;
    long ix = (long)fmod(fx, s->iw), iy = (long)fmod(fy, s->ih);
    if (ix < 0) ix += s->iw;
    if (iy < 0) iy += s->ih;
    long ix1 = (ix + 1) % s->iw, iy1 = (iy + 1) % s->ih;
    const uint8_t *p00 = s->image + 3 * ((size_t)iy * s->iw + ix);
    const uint8_t *p10 = s->image + 3 * ((size_t)iy * s->iw + ix1);
    const uint8_t *p01 = s->image + 3 * ((size_t)iy1 * s->iw + ix);
    const uint8_t *p11 = s->image + 3 * ((size_t)iy1 * s->iw + ix1);
    for (int c = 0; c < 3; c++) {
        double top = p00[c] + (p10[c] - p00[c]) * tx, bot = p01[c] + (p11[c] - p01[c]) * tx;
        rgb[c] = pow((top + (bot - top) * ty) / 255.0, 2.2);
    }
}

void lq_texmap_albedo(const lq_texmap_style *s, const double rest[3], double rgb[3])
{
    if (s->image) {
        double st[2];
        lq_texmap_st(s, rest, st);
        tm_image(s, st, rgb);
        return;
    }
    long parity = 0;
    for (int a = 0; a < 3; a++) {
        double g = floor(rest[a] / s->checker - LQ_TEXMAP_CHECKER_OFFSET);
        parity += isfinite(g) ? (long)fmod(g, 2.0) : 0;
    }
    memcpy(rgb, parity & 1 ? s->a : s->b, 3 * sizeof *rgb);
}

/* --- the mesh ----------------------------------------------------------------------------- */

int lq_texmap_write_mesh(const char *path, int nx, int ny, int nz, const double origin[3],
                         const double spacing[3], const float *phi, const lq_texmap *t,
                         const lq_texmap_style *s)
{
    static const char *const names[11] = {"x",      "y",      "z",      "nx", "ny", "nz",
                                          "rest_x", "rest_y", "rest_z", "s",  "t"};
    lq_mcubes_mesh m;
    const float *colp[11];
    int rc = lq_mcubes_extract(nx, ny, nz, origin, spacing, phi, 0.0f, true, &m);
    if (rc) return rc;
    size_t n = (size_t)m.nverts;
    float *cols = lq_alloc(11 * (n ? n : 1) * sizeof *cols);
    if (!cols) {
        lq_mcubes_free(&m);
        return LQ_ESIM;
    }
    for (int c = 0; c < 11; c++) colp[c] = cols + (size_t)c * n;
    for (size_t v = 0; v < n; v++) {
        double q[3], rest[3], st[2];
        for (int a = 0; a < 3; a++) {
            q[a] = m.pos[3 * v + (size_t)a];
            cols[(size_t)a * n + v] = m.pos[3 * v + (size_t)a];
            cols[(size_t)(3 + a) * n + v] = m.normal[3 * v + (size_t)a];
        }
        lq_texmap_rest(t, q, rest);
        lq_texmap_st(s, rest, st);
        for (int a = 0; a < 3; a++) cols[(size_t)(6 + a) * n + v] = (float)rest[a];
        cols[9 * n + v] = (float)st[0];
        cols[10 * n + v] = (float)st[1];
    }
    rc = lq_ply_write(path, m.nverts, 11, names, colp, m.ntris, m.tris);
    free(cols);
    lq_mcubes_free(&m);
    return rc;
}
