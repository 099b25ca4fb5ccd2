/*
 * bandgeom.c — grid sourcing's geometry (bandgeom.h): bands, shells and the trilinear
 * stencils that resample one from the other.
 */
#include "core/bandgeom.h"

#include <math.h>

uint64_t lq_bandgeom_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static int lq_bandgeom_gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* An axis both grids hold one cell of (a 2D scene's z): no faces, sampled index to index. */
static bool lq_bandgeom_flat(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int a)
{
    return u->n[a] == 1 && d->n[a] == 1;
}

/* Both grids on the finest lattice they share (L points per scene cell): U's and D's sizes
 * and D's corner in U's, in those points; a flat axis stays one point. Returns L / d->r, D's
 * cell in points. */
static int lq_bandgeom_common(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int nu[3],
                              int nd[3], int off[3])
{
    int L = u->r / lq_bandgeom_gcd(u->r, d->r) * d->r;
    for (int a = 0; a < 3; a++) {
        bool flat = lq_bandgeom_flat(u, d, a);
        nu[a] = flat ? 1 : u->n[a] * (L / u->r);
        nd[a] = flat ? 1 : d->n[a] * (L / d->r);
        off[a] = flat ? 0 : (d->off[a] - u->off[a]) * L;
    }
    return L / d->r;
}

int lq_bandgeom_depth(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int f)
{
    int nu[3], nd[3], off[3], a = f / 2;
    int cell = lq_bandgeom_common(u, d, nu, nd, off);
    if (d->n[a] < 2 || u->n[a] < 2) return 0;
    for (int b = 0; b < 3; b++) /* the grids overlap on the other axes */
        if (b != a && !(off[b] < nu[b] && off[b] + nd[b] > 0)) return 0;
    int depth;
    if (f % 2 == 0) /* D's min face: U starts below it and holds D's cell 0 */
        depth = off[a] > 0 && off[a] < nu[a] ? nu[a] - off[a] : 0;
    else /* D's max face: U holds D's last cell and goes on past it */
        depth = off[a] + nd[a] < nu[a] && off[a] + nd[a] > 0 ? off[a] + nd[a] : 0;
    depth = depth < nd[a] ? depth : nd[a];
    return depth / cell;
}

bool lq_bandgeom_cell(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, const int c[3])
{
    int nu[3], nd[3], off[3];
    int cell = lq_bandgeom_common(u, d, nu, nd, off);
    for (int a = 0; a < 3; a++) { /* U holds the whole cell */
        if (lq_bandgeom_flat(u, d, a)) continue;
        int lo = off[a] + c[a] * cell;
        if (lo < 0 || lo + cell > nu[a]) return false;
    }
    for (int f = 0; f < 6; f++) {
        int a = f / 2;
        if (lq_bandgeom_depth(u, d, f) == 0) continue;
        if (f % 2 == 0 ? c[a] < LQ_BAND_CELLS : c[a] >= d->n[a] - LQ_BAND_CELLS) return true;
    }
    return false;
}

bool lq_bandgeom_shell(const lq_bandgeom_grid *u, int q, const int c[3], bool stored)
{
    bool in = false;
    for (int f = 0; f < 6; f++) {
        int a = f / 2;
        if (!(u->outflow >> f & 1) || u->n[a] < 2) continue;
        double p = c[a] + (q - 1 == a ? 0.0 : 0.5), n = u->n[a];
        if (f % 2 == 0 ? p <= u->shell : p >= n - u->shell) in = true;
        if (!stored && (f % 2 == 0 ? p < LQ_BAND_DRAIN : p > n - LQ_BAND_DRAIN)) return false;
    }
    return in;
}

int lq_bandgeom_stencil(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int q, const int c[3],
                        int node[8][3], float w[8])
{
    int idx[3][2], cnt[3];
    double wt[3][2];
    for (int a = 0; a < 3; a++) {
        bool face = q - 1 == a;
        int hi = u->n[a] - (face ? 0 : 1);
        if (lq_bandgeom_flat(u, d, a)) {
            idx[a][0] = c[a] < hi ? c[a] : hi;
            wt[a][0] = 1;
            cnt[a] = 1;
            continue;
        }
        double X = d->off[a] + (c[a] + (face ? 0.0 : 0.5)) / d->r; /* scene cells */
        double x = (X - u->off[a]) * u->r - (face ? 0.0 : 0.5);    /* U's lattice q */
        x = x < 0 ? 0 : x > hi ? hi : x;
        int i0 = (int)floor(x);
        double fr = x - i0;
        if (i0 >= hi) {
            i0 = hi;
            fr = 0;
        }
        cnt[a] = 0;
        if (fr < 1) {
            idx[a][cnt[a]] = i0;
            wt[a][cnt[a]++] = 1 - fr;
        }
        if (fr > 0) {
            idx[a][cnt[a]] = i0 + 1;
            wt[a][cnt[a]++] = fr;
        }
    }
    int m = 0;
    for (int k = 0; k < cnt[2]; k++)
        for (int j = 0; j < cnt[1]; j++)
            for (int i = 0; i < cnt[0]; i++) {
                node[m][0] = idx[0][i];
                node[m][1] = idx[1][j];
                node[m][2] = idx[2][k];
                w[m++] = (float)(wt[0][i] * wt[1][j] * wt[2][k]);
            }
    return m;
}

/* Whether D's node c of lattice q is a face (or, q = 0, the centre) of a band cell. */
static bool lq_bandgeom_node(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int q,
                             const int c[3])
{
    int a = q - 1, e[3] = {c[0], c[1], c[2]};
    if (a < 0) return lq_bandgeom_cell(u, d, c);
    if (c[a] < d->n[a] && lq_bandgeom_cell(u, d, c)) return true;
    if (c[a] == 0) return false;
    e[a]--;
    return lq_bandgeom_cell(u, d, e);
}

int lq_bandgeom_check(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int *deep, bool *drain)
{
    for (int f = 0; f < 6; f++) {
        int a = f / 2;
        if (lq_bandgeom_depth(u, d, f) == 0) continue;
        for (int q = 0; q < 4; q++) {
            int ln[3];
            lq_bandgeom_lattice(d->n, q, ln);
            int lo = f % 2 == 0 ? 0 : ln[a] - LQ_BAND_CELLS - 1;
            int hi = f % 2 == 0 ? LQ_BAND_CELLS + 1 : ln[a];
            lo = lo < 0 ? 0 : lo;
            hi = hi > ln[a] ? ln[a] : hi;
            int c[3], lim[3][2] = {{0, ln[0]}, {0, ln[1]}, {0, ln[2]}};
            lim[a][0] = lo;
            lim[a][1] = hi;
            for (c[2] = lim[2][0]; c[2] < lim[2][1]; c[2]++)
                for (c[1] = lim[1][0]; c[1] < lim[1][1]; c[1]++)
                    for (c[0] = lim[0][0]; c[0] < lim[0][1]; c[0]++) {
                        if (!lq_bandgeom_node(u, d, q, c)) continue;
                        int node[8][3];
                        float w[8];
                        int m = lq_bandgeom_stencil(u, d, q, c, node, w);
                        for (int e = 0; e < m; e++) {
                            if (lq_bandgeom_shell(u, q, node[e], false)) continue;
                            double p = node[e][a] + (q - 1 == a ? 0.0 : 0.5);
                            /* D's min face lies toward U's max face */
                            double dist = f % 2 == 0 ? u->n[a] - p : p;
                            *deep = (int)ceil(dist);
                            *drain = lq_bandgeom_shell(u, q, node[e], true);
                            return 1 + f;
                        }
                    }
        }
    }
    return 0;
}
