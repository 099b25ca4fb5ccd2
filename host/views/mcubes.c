/*
 * mcubes.c — iso-surface extraction by marching tetrahedra (Doi & Koide 1991; Bloomenthal
 * 1994 "An Implicit Surface Polygonizer"), the mesh of mcubes.h.
 *
 * Method. The field is made signed, f = phi − iso (inside_negative) or iso − phi, so the
 * liquid is f < 0; NaN becomes a tiny positive value (outside) and ±inf is clamped. The
 * lattice of samples is padded by one node on every side (padded node I is cell I − 1).
 * A pad node takes |f| of the nearest real sample (at least a tiny positive value):
 * outside, and mirrored so the normals there see a wall-normal gradient. Every edge from
 * a real node to a pad node (axis or diagonal) leaves the domain box half-way, so its
 * vertex is put at t = ½: a liquid touching the wall is closed exactly on the domain
 * face, and no vertex leaves the domain box. Marching tetrahedra cut a
 * convex edge whose Kuhn diagonal misses the inside corner by a chamfer of at most
 * dx²/8 in cross-section (half of a box's edges, the domain's included).
 *
 * Each cube of the padded lattice is split into the 6 Kuhn tetrahedra around its main
 * diagonal (corner 0 → 7): corners 0, e_a, e_a + e_b, 7 for each permutation (a, b, c)
 * of the axes. Every face diagonal then runs from a face's lowest to its highest corner
 * in every cube, so neighbouring cubes agree on shared faces and the tetrahedra tile
 * space conformingly. A tetrahedron with 1 or 3 inside corners gives one triangle, with
 * 2 a quad split into two; there is no ambiguity. Every tet edge joins a corner to a
 * superset corner, so a lattice edge is keyed (lower node, direction bits 1..7) and one
 * vertex is made per crossed edge (an open-addressing hash), giving an indexed mesh.
 *
 * Orientation. Tetrahedra are stored positively oriented. With inside corner a and the
 * rest ordered so (a, b, c, d) is an even permutation of a positive tet, triangle
 * (ab, ac, ad) faces away from a; 3 inside mirrors it; for inside {a, b}, outside {c, d}
 * in even order, quad (ac, ad, bd, bc) faces from ab toward cd. So every triangle faces
 * out of the liquid.
 *
 * Why closed: the outermost pad layer is all outside, so every sign-changing tet face is
 * shared by two tets, each contributing the same segment; the tets around a crossed
 * lattice edge form a cycle, so each vertex's link is one cycle — a closed 2-manifold
 * combinatorially (vertices may coincide geometrically when f is exactly 0 at a node).
 *
 * Vertex: on the edge from inside node (f_i < 0) to outside node (f_o ≥ 0) at
 * t = f_i / (f_i − f_o) ∈ (0, 1]. Normal: node gradients of f by central differences
 * (one-sided on the outermost pad layer) divided by the spacing, trilinearly interpolated
 * in the cube at the vertex and normalised; a zero gradient falls back to the edge
 * direction inside → outside.
 */
#include "views/mcubes.h"

#include "core/common.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MC_TINY  1e-30f /* the "just outside" value for NaN and zero pads */
#define MC_CLAMP 1e30f  /* |f| bound, so differences stay finite */

/* Six Kuhn tetrahedra as cube-corner bits (bit 0 x, bit 1 y, bit 2 z), each made
 * positively oriented at first use. */
static const int mc_axes[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};

typedef struct mc_hash {
    uint64_t *keys; /* key + 1; 0 empty */
    uint32_t *vals;
    size_t cap, count;
} mc_hash;

typedef struct mc_state {
    int px, py, pz; /* padded sizes */
    const float *g; /* padded signed field */
    double origin[3], h[3];
    mc_hash hash;
    lq_mcubes_mesh *m;
    size_t vcap, tcap;
} mc_state;

static size_t mc_node(const mc_state *s, int i, int j, int k)
{
    return (size_t)i + (size_t)s->px * ((size_t)j + (size_t)s->py * (size_t)k);
}

static uint64_t mc_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int mc_hash_grow(mc_hash *h)
{
    size_t cap = h->cap ? 2 * h->cap : 1 << 12;
    uint64_t *keys = lq_calloc(cap, sizeof *keys);
    uint32_t *vals = lq_alloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return LQ_ESIM;
    }
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->keys[i]) continue;
        size_t p = mc_mix(h->keys[i]) & (cap - 1);
        while (keys[p]) p = (p + 1) & (cap - 1);
        keys[p] = h->keys[i];
        vals[p] = h->vals[i];
    }
    free(h->keys);
    free(h->vals);
    h->keys = keys;
    h->vals = vals;
    h->cap = cap;
    return LQ_OK;
}

/* Slot of key (found or the empty slot where it goes). */
static size_t mc_hash_slot(const mc_hash *h, uint64_t key)
{
    size_t p = mc_mix(key + 1) & (h->cap - 1);
    while (h->keys[p] && h->keys[p] != key + 1) p = (p + 1) & (h->cap - 1);
    return p;
}

static int mc_is_pad(const mc_state *s, int i, int j, int k)
{
    return i == 0 || j == 0 || k == 0 || i == s->px - 1 || j == s->py - 1 || k == s->pz - 1;
}

/* Gradient of f at padded node (i, j, k), per metre. */
static void mc_node_grad(const mc_state *s, int i, int j, int k, double out[3])
{
    const int n[3] = {s->px, s->py, s->pz};
    const int c[3] = {i, j, k};
    for (int a = 0; a < 3; a++) {
        int lo[3] = {i, j, k}, hi[3] = {i, j, k};
        lo[a] = c[a] > 0 ? c[a] - 1 : c[a];
        hi[a] = c[a] < n[a] - 1 ? c[a] + 1 : c[a];
        double span = (double)(hi[a] - lo[a]) * s->h[a];
        double d = (double)s->g[mc_node(s, hi[0], hi[1], hi[2])] -
                   (double)s->g[mc_node(s, lo[0], lo[1], lo[2])];
        out[a] = span > 0 ? d / span : 0.0;
    }
}

static int mc_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return LQ_OK;
    size_t nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return lq_error(LQ_ESIM, "marching tetrahedra: out of memory (%zu items)", nc);
    *p = q;
    *cap = nc;
    return LQ_OK;
}

/* Vertex index on the tet edge between cube corners ca and cb of cube (ci, cj, ck);
 * UINT32_MAX on error (recorded). */
static uint32_t mc_vertex(mc_state *s, int ci, int cj, int ck, int ca, int cb)
{
    int lo = (ca & cb) == ca ? ca : cb; /* the subset corner */
    int hi = lo == ca ? cb : ca;
    int dir = lo ^ hi;
    int bi = ci + (lo & 1), bj = cj + ((lo >> 1) & 1), bk = ck + ((lo >> 2) & 1);
    uint64_t key = (uint64_t)mc_node(s, bi, bj, bk) * 8 + (uint64_t)dir;
    if (2 * (s->hash.count + 1) > s->hash.cap && mc_hash_grow(&s->hash)) return UINT32_MAX;
    size_t slot = mc_hash_slot(&s->hash, key);
    if (s->hash.keys[slot]) return s->hash.vals[slot];

    lq_mcubes_mesh *m = s->m;
    if (m->nverts == INT_MAX) {
        lq_error(LQ_ESIM, "marching tetrahedra: more than %d vertices", INT_MAX);
        return UINT32_MAX;
    }
    size_t need = 3 * ((size_t)m->nverts + 1), cap = s->vcap;
    if (mc_grow((void **)&m->pos, &cap, need, sizeof(float))) return UINT32_MAX;
    cap = s->vcap;
    if (mc_grow((void **)&m->normal, &cap, need, sizeof(float))) return UINT32_MAX;
    s->vcap = cap;

    /* local cube coordinates of both ends; in = the inside (f < 0) end */
    double la[3], lb[3], fa, fb, t, l[3];
    for (int a = 0; a < 3; a++) la[a] = (ca >> a) & 1, lb[a] = (cb >> a) & 1;
    fa = s->g[mc_node(s, ci + (int)la[0], cj + (int)la[1], ck + (int)la[2])];
    fb = s->g[mc_node(s, ci + (int)lb[0], cj + (int)lb[1], ck + (int)lb[2])];
    const double *lin = fa < 0 ? la : lb, *lout = fa < 0 ? lb : la;
    double fin = fa < 0 ? fa : fb, fout = fa < 0 ? fb : fa;
    t = fin / (fin - fout);
    if (!(t >= 0.0)) t = 0.0;
    if (t > 1.0) t = 1.0;
    if (mc_is_pad(s, ci + (int)lout[0], cj + (int)lout[1], ck + (int)lout[2]))
        t = 0.5; /* a real–pad edge leaves the domain half-way: close on the face */
    for (int a = 0; a < 3; a++) l[a] = lin[a] + t * (lout[a] - lin[a]);

    /* trilinear interpolation of the 8 corner gradients */
    double gsum[3] = {0, 0, 0}, len;
    for (int c = 0; c < 8; c++) {
        double w = 1.0, gc[3];
        for (int a = 0; a < 3; a++) w *= (c >> a) & 1 ? l[a] : 1.0 - l[a];
        if (w == 0.0) continue;
        mc_node_grad(s, ci + (c & 1), cj + ((c >> 1) & 1), ck + ((c >> 2) & 1), gc);
        for (int a = 0; a < 3; a++) gsum[a] += w * gc[a];
    }
    len = sqrt(gsum[0] * gsum[0] + gsum[1] * gsum[1] + gsum[2] * gsum[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        for (int a = 0; a < 3; a++) gsum[a] = (lout[a] - lin[a]) * s->h[a];
        len = sqrt(gsum[0] * gsum[0] + gsum[1] * gsum[1] + gsum[2] * gsum[2]);
    }
    const int cell[3] = {ci, cj, ck};
    float *p = m->pos + 3 * (size_t)m->nverts, *nrm = m->normal + 3 * (size_t)m->nverts;
    for (int a = 0; a < 3; a++) {
        /* padded node I is cell I − 1, centred at origin + (I − ½) h */
        p[a] = (float)(s->origin[a] + ((double)cell[a] + l[a] - 0.5) * s->h[a]);
        nrm[a] = (float)(gsum[a] / len);
    }
    s->hash.keys[slot] = key + 1;
    s->hash.vals[slot] = (uint32_t)m->nverts;
    s->hash.count++;
    return (uint32_t)m->nverts++;
}

static int mc_tri(mc_state *s, uint32_t a, uint32_t b, uint32_t c)
{
    lq_mcubes_mesh *m = s->m;
    if (a == UINT32_MAX || b == UINT32_MAX || c == UINT32_MAX) return LQ_ESIM;
    if (m->ntris == INT_MAX)
        return lq_error(LQ_ESIM, "marching tetrahedra: more than %d triangles", INT_MAX);
    if (mc_grow((void **)&m->tris, &s->tcap, 3 * ((size_t)m->ntris + 1), sizeof(uint32_t)))
        return LQ_ESIM;
    uint32_t *t = m->tris + 3 * (size_t)m->ntris++;
    t[0] = a, t[1] = b, t[2] = c;
    return LQ_OK;
}

static int mc_parity_odd(const int p[4])
{
    int inv = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) inv += p[i] > p[j];
    return inv & 1;
}

/* One positively oriented tetrahedron (cube corners tc[4]) of cube (ci, cj, ck). */
static int mc_tet(mc_state *s, int ci, int cj, int ck, const int tc[4], const float f[8])
{
    int in[4], nin = 0, ins[4], outs[4], ni = 0, no = 0;
    for (int v = 0; v < 4; v++) {
        in[v] = f[tc[v]] < 0.0f;
        nin += in[v];
        if (in[v])
            ins[ni++] = v;
        else
            outs[no++] = v;
    }
    if (nin == 0 || nin == 4) return LQ_OK;
#define E(p, q) mc_vertex(s, ci, cj, ck, tc[p], tc[q])
    if (nin == 1 || nin == 3) {
        /* a: the lone corner; (a, b, c, d) even */
        int o[4];
        o[0] = nin == 1 ? ins[0] : outs[0];
        for (int v = 0, n = 1; v < 4; v++)
            if (v != o[0]) o[n++] = v;
        if (mc_parity_odd(o)) {
            int t = o[2];
            o[2] = o[3], o[3] = t;
        }
        uint32_t ab = E(o[0], o[1]), ac = E(o[0], o[2]), ad = E(o[0], o[3]);
        return nin == 1 ? mc_tri(s, ab, ac, ad) : mc_tri(s, ab, ad, ac);
    }
    int o[4] = {ins[0], ins[1], outs[0], outs[1]};
    if (mc_parity_odd(o)) {
        int t = o[2];
        o[2] = o[3], o[3] = t;
    }
    uint32_t ac = E(o[0], o[2]), ad = E(o[0], o[3]), bd = E(o[1], o[3]), bc = E(o[1], o[2]);
#undef E
    if (mc_tri(s, ac, ad, bd)) return LQ_ESIM;
    return mc_tri(s, ac, bd, bc);
}

void lq_mcubes_free(lq_mcubes_mesh *m)
{
    if (!m) return;
    free(m->pos);
    free(m->normal);
    free(m->tris);
    memset(m, 0, sizeof *m);
}

static float mc_signed(float phi, float iso, bool inside_negative)
{
    if (isnan(phi)) return MC_TINY;
    float f = inside_negative ? phi - iso : iso - phi;
    if (isnan(f)) return MC_TINY; /* inf − inf */
    return f > MC_CLAMP ? MC_CLAMP : f < -MC_CLAMP ? -MC_CLAMP : f;
}

int lq_mcubes_extract(int nx, int ny, int nz, const double origin[3], const double spacing[3],
                      const float *phi, float iso, bool inside_negative, lq_mcubes_mesh *out)
{
    mc_state s;
    float *g = NULL;
    int tets[6][4];

    memset(&s, 0, sizeof s);
    if (out) memset(out, 0, sizeof *out);
    if (!out || !phi || !origin || !spacing || nx < 1 || ny < 1 || nz < 1 || nx > INT_MAX - 2 ||
        ny > INT_MAX - 2 || nz > INT_MAX - 2)
        return lq_error(LQ_ESIM, "marching tetrahedra: bad arguments (%d x %d x %d)", nx, ny, nz);
    for (int a = 0; a < 3; a++)
        if (!(spacing[a] > 0.0) || !isfinite(spacing[a]) || !isfinite(origin[a]))
            return lq_error(LQ_ESIM, "marching tetrahedra: bad spacing or origin on axis %d", a);

    s.px = nx + 2, s.py = ny + 2, s.pz = nz + 2;
    s.m = out;
    for (int a = 0; a < 3; a++) s.origin[a] = origin[a], s.h[a] = spacing[a];
    size_t npad = (size_t)s.px * (size_t)s.py * (size_t)s.pz;
    if (npad / (size_t)s.px / (size_t)s.py != (size_t)s.pz || npad > SIZE_MAX / 8 / sizeof *g)
        return lq_error(LQ_ESIM, "marching tetrahedra: grid %d x %d x %d too large", nx, ny, nz);
    g = lq_alloc(npad * sizeof *g);
    if (!g) goto fail;
    s.g = g;

    /* signed field; pads mirror the nearest real sample to the outside */
    for (int k = 0; k < s.pz; k++)
        for (int j = 0; j < s.py; j++)
            for (int i = 0; i < s.px; i++) {
                int ri = LQ_MIN(LQ_MAX(i - 1, 0), nx - 1), rj = LQ_MIN(LQ_MAX(j - 1, 0), ny - 1),
                    rk = LQ_MIN(LQ_MAX(k - 1, 0), nz - 1);
                size_t c = (size_t)ri + (size_t)nx * ((size_t)rj + (size_t)ny * (size_t)rk);
                float f = mc_signed(phi[c], iso, inside_negative);
                if (mc_is_pad(&s, i, j, k)) f = fabsf(f) > MC_TINY ? fabsf(f) : MC_TINY;
                g[mc_node(&s, i, j, k)] = f;
            }

    /* the six Kuhn tetrahedra, positively oriented */
    for (int t = 0; t < 6; t++) {
        int a = mc_axes[t][0], b = mc_axes[t][1];
        int v[4] = {0, 1 << a, (1 << a) | (1 << b), 7}, e[3][3];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) e[r][c] = ((v[r + 1] >> c) & 1) - (v[0] >> c & 1);
        int det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                  e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                  e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
        if (det < 0) {
            int tmp = v[1];
            v[1] = v[2], v[2] = tmp;
        }
        memcpy(tets[t], v, sizeof v);
    }

    for (int ck = 0; ck < s.pz - 1; ck++)
        for (int cj = 0; cj < s.py - 1; cj++)
            for (int ci = 0; ci < s.px - 1; ci++) {
                float f[8];
                int nin = 0;
                for (int c = 0; c < 8; c++) {
                    f[c] = g[mc_node(&s, ci + (c & 1), cj + ((c >> 1) & 1), ck + ((c >> 2) & 1))];
                    nin += f[c] < 0.0f;
                }
                if (nin == 0 || nin == 8) continue;
                for (int t = 0; t < 6; t++)
                    if (mc_tet(&s, ci, cj, ck, tets[t], f)) goto fail;
            }

    free(g);
    free(s.hash.keys);
    free(s.hash.vals);
    return LQ_OK;
fail:
    free(g);
    free(s.hash.keys);
    free(s.hash.vals);
    lq_mcubes_free(out);
    return lq_error(LQ_ESIM, "marching tetrahedra: out of memory");
}
