/*
 * test_mcubes.c — mcubes.h: analytic surfaces on small lattices.
 *
 * Every mesh is checked for topology (each directed edge once and its reverse once, so
 * closed and consistently oriented; Euler characteristic V − E + F; components by
 * union-find) and, where the shape is known, geometry: enclosed volume by the divergence
 * theorem, vertex distance to the exact surface, and vertex normals against the exact
 * outward normal. Shapes: a sphere (signed distance, and as a density with
 * inside_negative = false), a box through the domain boundary, a torus, two balls,
 * non-uniform spacing, NaN samples, an empty field; the PLY writer is read back.
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"
#include "views/mcubes.h"
#include "views/meshout.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef double (*sdf_fn)(double x, double y, double z, const double *prm);

typedef struct grid {
    int nx, ny, nz;
    double origin[3], h[3];
} grid;

static float *sample(const grid *g, sdf_fn f, const double *prm)
{
    float *phi = malloc(sizeof *phi * (size_t)g->nx * g->ny * g->nz);
    for (int k = 0; k < g->nz; k++)
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++) {
                double x = g->origin[0] + (i + 0.5) * g->h[0];
                double y = g->origin[1] + (j + 0.5) * g->h[1];
                double z = g->origin[2] + (k + 0.5) * g->h[2];
                phi[i + g->nx * (j + g->ny * k)] = (float)f(x, y, z, prm);
            }
    return phi;
}

/* prm: cx cy cz r */
static double sphere(double x, double y, double z, const double *p)
{
    return sqrt((x - p[0]) * (x - p[0]) + (y - p[1]) * (y - p[1]) + (z - p[2]) * (z - p[2])) - p[3];
}

/* prm: two spheres, cx cy cz r each */
static double two_balls(double x, double y, double z, const double *p)
{
    return fmin(sphere(x, y, z, p), sphere(x, y, z, p + 4));
}

/* prm: cx cy cz R r, axis z */
static double torus(double x, double y, double z, const double *p)
{
    double q = sqrt((x - p[0]) * (x - p[0]) + (y - p[1]) * (y - p[1])) - p[3];
    return sqrt(q * q + (z - p[2]) * (z - p[2])) - p[4];
}

/* prm: lo[3] hi[3]; a box (Chebyshev distance, exact on faces) */
static double box(double x, double y, double z, const double *p)
{
    double c[3] = {x, y, z}, d = -1e30;
    for (int a = 0; a < 3; a++) d = fmax(d, fmax(p[a] - c[a], c[a] - p[3 + a]));
    return d;
}

typedef struct topo {
    int closed;     /* every directed edge once, its reverse once */
    int euler;      /* V − E + F (V: vertices used) */
    int components; /* connected components of used vertices */
    double volume;  /* divergence theorem */
} topo;

typedef struct dedge {
    uint32_t a, b;
} dedge;

static int dedge_cmp(const void *p, const void *q)
{
    const dedge *x = p, *y = q;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return 0;
}

static int find(int *parent, int v)
{
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

static int has_edge(const dedge *e, size_t n, uint32_t a, uint32_t b)
{
    dedge key = {a, b};
    return bsearch(&key, e, n, sizeof *e, dedge_cmp) != NULL;
}

static topo analyse(const lq_mcubes_mesh *m)
{
    topo t = {1, 0, 0, 0.0};
    size_t ne = 3 * (size_t)m->ntris;
    dedge *e = malloc(sizeof *e * (ne ? ne : 1));
    int *parent = malloc(sizeof *parent * (size_t)(m->nverts ? m->nverts : 1));
    char *used = calloc((size_t)(m->nverts ? m->nverts : 1), 1);
    int nused = 0;
    for (int v = 0; v < m->nverts; v++) parent[v] = v;
    for (int f = 0; f < m->ntris; f++) {
        const uint32_t *tr = m->tris + 3 * (size_t)f;
        const float *p0 = m->pos + 3 * tr[0], *p1 = m->pos + 3 * tr[1], *p2 = m->pos + 3 * tr[2];
        for (int c = 0; c < 3; c++) {
            e[3 * (size_t)f + c] = (dedge){tr[c], tr[(c + 1) % 3]};
            used[tr[c]] = 1;
            int ra = find(parent, (int)tr[c]), rb = find(parent, (int)tr[(c + 1) % 3]);
            if (ra != rb) parent[ra] = rb;
            if (tr[c] == tr[(c + 1) % 3]) t.closed = 0;
        }
        t.volume += (p0[0] * ((double)p1[1] * p2[2] - (double)p1[2] * p2[1]) -
                     p0[1] * ((double)p1[0] * p2[2] - (double)p1[2] * p2[0]) +
                     p0[2] * ((double)p1[0] * p2[1] - (double)p1[1] * p2[0])) /
                    6.0;
    }
    qsort(e, ne, sizeof *e, dedge_cmp);
    for (size_t i = 0; i < ne; i++) {
        if (i + 1 < ne && !dedge_cmp(&e[i], &e[i + 1])) t.closed = 0; /* directed edge twice */
        if (!has_edge(e, ne, e[i].b, e[i].a)) t.closed = 0;           /* boundary edge */
    }
    for (int v = 0; v < m->nverts; v++) {
        nused += used[v];
        if (used[v] && find(parent, v) == v) t.components++;
    }
    t.euler = nused - (int)(ne / 2) + m->ntris;
    free(e);
    free(parent);
    free(used);
    return t;
}

/* Max |distance| of vertices to the surface and min cos(normal, exact normal). */
static void geometry(const lq_mcubes_mesh *m, sdf_fn f, const double *prm, double *maxdist,
                     double *mincos)
{
    *maxdist = 0.0;
    *mincos = 1.0;
    for (int v = 0; v < m->nverts; v++) {
        const float *p = m->pos + 3 * (size_t)v, *n = m->normal + 3 * (size_t)v;
        double x = p[0], y = p[1], z = p[2], eps = 1e-5, g[3], len;
        *maxdist = fmax(*maxdist, fabs(f(x, y, z, prm)));
        g[0] = f(x + eps, y, z, prm) - f(x - eps, y, z, prm);
        g[1] = f(x, y + eps, z, prm) - f(x, y - eps, z, prm);
        g[2] = f(x, y, z + eps, prm) - f(x, y, z - eps, prm);
        len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (len > 0) *mincos = fmin(*mincos, (g[0] * n[0] + g[1] * n[1] + g[2] * n[2]) / len);
    }
}

static void check_unit_normals(const lq_mcubes_mesh *m)
{
    int bad = 0;
    for (int v = 0; v < m->nverts; v++) {
        const float *n = m->normal + 3 * (size_t)v;
        double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
        bad += !(fabs(len - 1.0) < 1e-4);
    }
    CHECK_MSG(bad == 0, "%d non-unit normals", bad);
}

static void test_sphere(bool density)
{
    grid g = {40, 40, 40, {0, 0, 0}, {0.025, 0.025, 0.025}};
    double prm[4] = {0.5, 0.5, 0.5, 0.3}, maxd, mincos;
    float *phi = sample(&g, sphere, prm);
    lq_mcubes_mesh m;
    if (density)
        for (int c = 0; c < 40 * 40 * 40; c++) phi[c] = 1.0f - phi[c]; /* liquid: > 1 */
    CHECK_OK(
        lq_mcubes_extract(40, 40, 40, g.origin, g.h, phi, density ? 1.0f : 0.0f, !density, &m));
    topo t = analyse(&m);
    double vexact = 4.0 / 3.0 * LQ_PI * 0.3 * 0.3 * 0.3;
    CHECK(m.ntris > 1000);
    CHECK(t.closed);
    CHECK_MSG(t.euler == 2, "euler %d", t.euler);
    CHECK(t.components == 1);
    CHECK_MSG(fabs(t.volume - vexact) < 0.01 * vexact, "volume %g, exact %g", t.volume, vexact);
    geometry(&m, sphere, prm, &maxd, &mincos);
    CHECK_MSG(maxd < 0.5 * g.h[0], "max distance %g", maxd);
    CHECK_MSG(mincos > 0.9, "min cos %g", mincos);
    check_unit_normals(&m);
    fprintf(stderr, "sphere%s: %d verts %d tris, volume err %.3g%%, dist %.3g dx, cos %.5f\n",
            density ? " (density)" : "", m.nverts, m.ntris, 100 * (t.volume / vexact - 1),
            maxd / g.h[0], mincos);
    lq_mcubes_free(&m);
    free(phi);
}

/* A box through three domain faces, closed on them (pads put the surface on the domain
 * faces). Marching tetrahedra cut a convex edge whose cubes' Kuhn diagonal misses the
 * inside corner by a chamfer of at most dx²/8 in cross-section, so the volume lies in
 * [exact − dx²/4 · (edge length), exact]; vertices stay in the clipped box. */
static void test_box_boundary(void)
{
    grid g = {20, 16, 12, {-1, 0, 2}, {0.1, 0.1, 0.1}};
    double prm[6] = {-2, -1, 2.35, -0.25, 0.85, 5};
    double clip[6] = {-1, 0, 2.35, -0.25, 0.85, 3.2}, dx2 = 0.01;
    float *phi = sample(&g, box, prm);
    lq_mcubes_mesh m;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    topo t = analyse(&m);
    double side[3] = {clip[3] - clip[0], clip[4] - clip[1], clip[5] - clip[2]};
    double vexact = side[0] * side[1] * side[2];
    double slack = dx2 / 4 * 4 * (side[0] + side[1] + side[2]);
    CHECK(t.closed);
    CHECK_MSG(t.euler == 2, "euler %d", t.euler);
    CHECK(t.components == 1);
    CHECK_MSG(t.volume <= vexact + 1e-6 && t.volume >= vexact - slack, "volume %g, exact %g",
              t.volume, vexact);
    int outside = 0;
    for (int v = 0; v < m.nverts; v++)
        for (int a = 0; a < 3; a++)
            outside += m.pos[3 * v + a] < clip[a] - 1e-5 || m.pos[3 * v + a] > clip[3 + a] + 1e-5;
    CHECK_MSG(outside == 0, "%d vertex coordinates outside the clipped box", outside);
    check_unit_normals(&m);
    fprintf(stderr, "box: %d verts %d tris, volume %.6g of %.6g\n", m.nverts, m.ntris, t.volume,
            vexact);
    lq_mcubes_free(&m);

    /* everything liquid: the domain's own box */
    for (int c = 0; c < g.nx * g.ny * g.nz; c++) phi[c] = -1.0f;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    t = analyse(&m);
    vexact = 2.0 * 1.6 * 1.2;
    slack = dx2 / 4 * 4 * (2.0 + 1.6 + 1.2);
    CHECK(t.closed);
    CHECK(t.euler == 2);
    CHECK_MSG(t.volume <= vexact + 1e-5 && t.volume >= vexact - slack, "volume %g, exact %g",
              t.volume, vexact);
    lq_mcubes_free(&m);
    free(phi);
}

/* A ball cut by the floor (liquid resting on the domain boundary): closed on y = 0,
 * half the ball's volume, curved vertices on the sphere, floor vertices on the floor. */
static void test_hemisphere(void)
{
    grid g = {40, 20, 40, {0, 0, 0}, {0.025, 0.025, 0.025}};
    double prm[4] = {0.5, 0.0, 0.5, 0.3};
    float *phi = sample(&g, sphere, prm);
    lq_mcubes_mesh m;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    topo t = analyse(&m);
    double vexact = 2.0 / 3.0 * LQ_PI * 0.3 * 0.3 * 0.3;
    CHECK(t.closed);
    CHECK_MSG(t.euler == 2, "euler %d", t.euler);
    CHECK_MSG(fabs(t.volume - vexact) < 0.01 * vexact, "volume %g, exact %g", t.volume, vexact);
    int off = 0;
    for (int v = 0; v < m.nverts; v++) {
        const float *p = m.pos + 3 * (size_t)v;
        off += p[1] < 0.0f || (p[1] > 1e-6f && fabs(sphere(p[0], p[1], p[2], prm)) > 0.5 * g.h[0]);
    }
    CHECK_MSG(off == 0, "%d vertices neither on the floor nor on the sphere", off);
    fprintf(stderr, "hemisphere: volume err %.3g%%\n", 100 * (t.volume / vexact - 1));
    lq_mcubes_free(&m);
    free(phi);
}

static void test_torus(void)
{
    grid g = {40, 40, 20, {0, 0, 0}, {0.025, 0.025, 0.025}};
    double prm[5] = {0.5, 0.5, 0.25, 0.3, 0.1}, maxd, mincos;
    float *phi = sample(&g, torus, prm);
    lq_mcubes_mesh m;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    topo t = analyse(&m);
    double vexact = 2 * LQ_PI * LQ_PI * 0.3 * 0.1 * 0.1;
    CHECK(t.closed);
    CHECK_MSG(t.euler == 0, "euler %d", t.euler);
    CHECK(t.components == 1);
    CHECK_MSG(fabs(t.volume - vexact) < 0.02 * vexact, "volume %g, exact %g", t.volume, vexact);
    geometry(&m, torus, prm, &maxd, &mincos);
    CHECK_MSG(maxd < 0.5 * g.h[0], "max distance %g", maxd);
    CHECK_MSG(mincos > 0.9, "min cos %g", mincos);
    lq_mcubes_free(&m);
    free(phi);
}

static void test_two_balls(void)
{
    grid g = {40, 24, 24, {0, 0, 0}, {0.025, 0.025, 0.025}};
    double prm[8] = {0.25, 0.3, 0.3, 0.15, 0.75, 0.3, 0.3, 0.12}, maxd, mincos;
    float *phi = sample(&g, two_balls, prm);
    lq_mcubes_mesh m;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    topo t = analyse(&m);
    CHECK(t.closed);
    CHECK_MSG(t.euler == 4, "euler %d", t.euler);
    CHECK_MSG(t.components == 2, "components %d", t.components);
    geometry(&m, two_balls, prm, &maxd, &mincos);
    CHECK_MSG(mincos > 0.9, "min cos %g", mincos);
    lq_mcubes_free(&m);
    free(phi);
}

static void test_nonuniform(void)
{
    grid g = {30, 40, 34, {-0.5, 1.0, 0.2}, {0.04, 0.03, 0.035}};
    double prm[4] = {0.1, 1.6, 0.8, 0.4}, maxd, mincos;
    float *phi = sample(&g, sphere, prm);
    lq_mcubes_mesh m;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    topo t = analyse(&m);
    double vexact = 4.0 / 3.0 * LQ_PI * 0.4 * 0.4 * 0.4;
    CHECK(t.closed);
    CHECK(t.euler == 2);
    CHECK_MSG(fabs(t.volume - vexact) < 0.01 * vexact, "volume %g, exact %g", t.volume, vexact);
    geometry(&m, sphere, prm, &maxd, &mincos);
    CHECK_MSG(maxd < 0.5 * 0.03, "max distance %g", maxd);
    CHECK_MSG(mincos > 0.9, "min cos %g", mincos);
    lq_mcubes_free(&m);
    free(phi);
}

/* NaN samples are outside: a NaN hole through a ball stays closed and finite. */
static void test_nan(void)
{
    grid g = {24, 24, 24, {0, 0, 0}, {0.05, 0.05, 0.05}};
    double prm[4] = {0.6, 0.6, 0.6, 0.4};
    float *phi = sample(&g, sphere, prm);
    lq_mcubes_mesh m;
    for (int k = 0; k < g.nz; k++) phi[12 + g.nx * (12 + g.ny * k)] = NAN;
    phi[0] = INFINITY;
    phi[1] = -INFINITY;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    topo t = analyse(&m);
    CHECK(t.closed);
    int finite = 1;
    for (int c = 0; c < 3 * m.nverts; c++) finite &= isfinite(m.pos[c]) && isfinite(m.normal[c]);
    CHECK(finite);
    lq_mcubes_free(&m);
    free(phi);
}

static void test_write(const char *dir)
{
    char path[256];
    grid g = {20, 20, 20, {0, 0, 0}, {0.05, 0.05, 0.05}};
    double prm[4] = {0.5, 0.5, 0.5, 0.3};
    float *phi = sample(&g, sphere, prm);
    lq_mcubes_mesh m;
    lq_ply ply;
    snprintf(path, sizeof path, "%s/sphere.ply", dir);
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    CHECK_OK(lq_meshout_write(path, g.nx, g.ny, g.nz, g.origin, g.h, phi, NULL, NULL, NULL));
    if (lq_ply_read(path, &ply) == LQ_OK) {
        static const char *names[6] = {"x", "y", "z", "nx", "ny", "nz"};
        CHECK(ply.nverts == m.nverts);
        CHECK(ply.ntris == m.ntris);
        CHECK(ply.nprops == 6);
        for (int p = 0; p < 6 && p < ply.nprops; p++) CHECK(!strcmp(ply.names[p], names[p]));
        int same = ply.nprops == 6 && ply.nverts == m.nverts && ply.ntris == m.ntris;
        for (int v = 0; same && v < m.nverts; v++)
            for (int a = 0; a < 3; a++)
                same &= ply.columns[a][v] == m.pos[3 * v + a] &&
                        ply.columns[3 + a][v] == m.normal[3 * v + a];
        if (same) same = !memcmp(ply.tris, m.tris, sizeof *m.tris * 3 * (size_t)m.ntris);
        CHECK(same);
        lq_ply_free(&ply);
    } else {
        CHECK_MSG(0, "read back: %s", lq_error_message());
    }
    CHECK(unlink(path) == 0);
    lq_mcubes_free(&m);

    /* empty field: a valid empty mesh */
    for (int c = 0; c < g.nx * g.ny * g.nz; c++) phi[c] = 1.0f;
    CHECK_OK(lq_mcubes_extract(g.nx, g.ny, g.nz, g.origin, g.h, phi, 0.0f, true, &m));
    CHECK(m.nverts == 0 && m.ntris == 0);
    lq_mcubes_free(&m);
    snprintf(path, sizeof path, "%s/empty.ply", dir);
    CHECK_OK(lq_meshout_write(path, g.nx, g.ny, g.nz, g.origin, g.h, phi, NULL, NULL, NULL));
    if (lq_ply_read(path, &ply) == LQ_OK) {
        CHECK(ply.nverts == 0 && ply.ntris == 0 && ply.nprops == 6);
        lq_ply_free(&ply);
    } else {
        CHECK_MSG(0, "read back empty: %s", lq_error_message());
    }
    CHECK(unlink(path) == 0);

    /* bad arguments are refused with a message */
    lq_error_clear();
    CHECK(lq_mcubes_extract(0, 1, 1, g.origin, g.h, phi, 0.0f, true, &m) == LQ_ESIM);
    CHECK(lq_error_message()[0] != '\0');
    lq_error_clear();
    free(phi);
}

int main(void)
{
    char dir[] = "/tmp/lq_test_mcubes.XXXXXX";
    test_sphere(false);
    test_sphere(true);
    test_box_boundary();
    test_hemisphere();
    test_torus();
    test_two_balls();
    test_nonuniform();
    test_nan();
    if (mkdtemp(dir)) {
        test_write(dir);
        CHECK(rmdir(dir) == 0);
    } else {
        perror("mkdtemp");
        lq_check_failures++;
    }
    CHECK_DONE();
}
