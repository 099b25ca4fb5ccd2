/*
 * test_hfview.c — hfview.h: the water and terrain meshes of small known fields (vertex
 * and triangle counts, compact indices, upward winding, dry vertices below the ground,
 * depth and velocity columns, normals), and previews of synthetic scenes whose pixels
 * are known to see water or ground (water bluer than ground, recently wet ground darker
 * than the same ground dry, the darkening gone once it has faded), plus inputs that
 * must not crash the renderer.
 *
 * Files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "check.h"
#include "common.h"
#include "hfview.h"
#include "io.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char buf[16][256]; /* a few paths stay valid at once */
    static int next;
    char *p = buf[next++ % 16];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static int column(const lq_ply *m, const char *name)
{
    for (int p = 0; p < m->nprops; p++)
        if (strcmp(m->names[p], name) == 0) return p;
    return -1;
}

/* Every triangle's geometric normal points up, and vertex normals are unit and up. */
static void check_up(const lq_ply *m)
{
    const float *x = m->columns[0], *y = m->columns[1], *z = m->columns[2];
    int up = 1, unit = 1, ny = column(m, "ny");
    for (int t = 0; t < m->ntris; t++) {
        const uint32_t *v = m->tris + 3 * t;
        double e1[3] = {x[v[1]] - x[v[0]], y[v[1]] - y[v[0]], z[v[1]] - z[v[0]]};
        double e2[3] = {x[v[2]] - x[v[0]], y[v[2]] - y[v[0]], z[v[2]] - z[v[0]]};
        up &= e1[2] * e2[0] - e1[0] * e2[2] > 0;
    }
    for (int i = 0; ny > 0 && i < m->nverts; i++) {
        double a = m->columns[ny - 1][i], b = m->columns[ny][i], c = m->columns[ny + 1][i];
        unit &= fabs(a * a + b * b + c * c - 1) < 1e-5 && b > 0;
    }
    CHECK_MSG(up, "a triangle faces down");
    CHECK_MSG(unit, "a vertex normal is not a unit vector pointing up");
}

static void test_surface_mesh(void)
{
    /* 4 x 3 cells, ground 0.2, water at 1.0 except the dry cell (1, 1). */
    enum { NX = 4, NZ = 3 };
    const double dx = 0.5, origin[3] = {10, -1, 20};
    const float eps = 1e-4f;
    float h[NX * NZ], b[NX * NZ], u[NX * NZ], w[NX * NZ];
    const char *path = tmp_path("surface.ply");
    lq_ply m;
    for (int c = 0; c < NX * NZ; c++) {
        b[c] = 0.2f;
        h[c] = 1.0f;
        u[c] = (float)c;
        w[c] = (float)(-c);
    }
    h[1 + NX * 1] = b[1 + NX * 1] - eps;
    CHECK_OK(lq_hfview_write_surface(path, NX, NZ, dx, origin, h, b, eps, u, w));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == NX * NZ && m.ntris == 2 * (NX - 1) * (NZ - 1));
    CHECK(m.nprops == 9);
    const char *want[] = {"x", "y", "z", "nx", "ny", "nz", "depth", "u", "w"};
    for (int p = 0; p < 9 && p < m.nprops; p++) CHECK(strcmp(m.names[p], want[p]) == 0);
    if (m.nverts == NX * NZ && m.nprops == 9) {
        for (int c = 0; c < NX * NZ; c++) {
            int i = c % NX, k = c / NX, dry = c == 1 + NX;
            CHECK_NEAR(m.columns[0][c], origin[0] + (i + 0.5) * dx, 1e-5);
            CHECK_NEAR(m.columns[2][c], origin[2] + (k + 0.5) * dx, 1e-5);
            /* Dry vertex just below the ground, wet ones at the surface. */
            CHECK_NEAR(m.columns[1][c], dry ? 0.2 - 0.05 * dx : 1.0, 1e-6);
            CHECK_NEAR(m.columns[6][c], dry ? 0.0 : 0.8, 1e-6);
            CHECK(m.columns[7][c] == u[c] && m.columns[8][c] == w[c]);
        }
        CHECK(m.columns[1][1 + NX] < b[1 + NX]);
        /* Flat water far from the dry cell has a vertical normal. */
        CHECK_NEAR(m.columns[4][3 + NX * 2], 1.0, 1e-6);
        check_up(&m);
    }
    lq_ply_free(&m);

    /* Only the corner cell (3, 2) wet: one quad, its four vertices renumbered 0..3 in
     * cell order; no velocity columns. */
    for (int c = 0; c < NX * NZ; c++) h[c] = b[c] - eps;
    h[3 + NX * 2] = 0.7f;
    CHECK_OK(lq_hfview_write_surface(path, NX, NZ, dx, origin, h, b, eps, NULL, NULL));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 4 && m.ntris == 2 && m.nprops == 7);
    if (m.nverts == 4 && m.ntris == 2) {
        const int cells[4] = {2 + NX * 1, 3 + NX * 1, 2 + NX * 2, 3 + NX * 2};
        for (int v = 0; v < 4; v++) {
            CHECK_NEAR(m.columns[0][v], origin[0] + (cells[v] % NX + 0.5) * dx, 1e-5);
            CHECK_NEAR(m.columns[2][v], origin[2] + (cells[v] / NX + 0.5) * dx, 1e-5);
            CHECK(v == 3 ? m.columns[1][v] == 0.7f : m.columns[1][v] < 0.2f);
            CHECK_NEAR(m.columns[6][v], v == 3 ? 0.5 : 0.0, 1e-6);
        }
        for (int t = 0; t < 6; t++) CHECK(m.tris[t] < 4);
        check_up(&m);
    }
    lq_ply_free(&m);

    /* All dry: an empty mesh, still a valid file. */
    h[3 + NX * 2] = 0;
    CHECK_OK(lq_hfview_write_surface(path, NX, NZ, dx, origin, h, b, eps, NULL, NULL));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 0 && m.ntris == 0);
    lq_ply_free(&m);

    /* Rough water on rough ground: winding stays upward whatever the heights. */
    enum { RX = 17, RZ = 13 };
    float rh[RX * RZ], rb[RX * RZ];
    lq_rng rng;
    lq_rng_seed(&rng, 7);
    for (int c = 0; c < RX * RZ; c++) {
        rb[c] = (float)(3 * lq_rng_uniform(&rng));
        rh[c] = (float)(1.5 + lq_rng_uniform(&rng));
    }
    CHECK_OK(lq_hfview_write_surface(path, RX, RZ, 0.1, origin, rh, rb, eps, NULL, NULL));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.ntris > 0);
    int below = 1;
    for (int v = 0; v < m.nverts; v++) {
        /* Find the cell of the vertex and check dry vertices sit below its ground. */
        int i = (int)lround((m.columns[0][v] - origin[0]) / 0.1 - 0.5);
        int k = (int)lround((m.columns[2][v] - origin[2]) / 0.1 - 0.5);
        int c = i + RX * k;
        if (!(rh[c] > rb[c] + eps)) below &= m.columns[1][v] < rb[c];
    }
    CHECK(below);
    check_up(&m);
    lq_ply_free(&m);
    remove(path);

    CHECK(lq_hfview_write_surface(path, 0, 3, dx, origin, h, b, eps, NULL, NULL) == LQ_ESIM);
    CHECK(lq_hfview_write_surface(tmp_path("no/dir.ply"), NX, NZ, dx, origin, h, b, eps, NULL,
                                  NULL) == LQ_ESIM);
}

static void test_terrain_mesh(void)
{
    enum { NX = 4, NZ = 3 };
    const double dx = 2, origin[3] = {0, 0, 0};
    float b[NX * NZ];
    const char *path = tmp_path("terrain.ply");
    lq_ply m;
    for (int c = 0; c < NX * NZ; c++) b[c] = (float)(0.5 * (c % NX) * dx); /* slope 0.5 in x */
    CHECK_OK(lq_hfview_write_terrain(path, NX, NZ, dx, origin, b));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == NX * NZ && m.ntris == 2 * (NX - 1) * (NZ - 1) && m.nprops == 6);
    if (m.nverts == NX * NZ && m.nprops == 6) {
        for (int c = 0; c < NX * NZ; c++) {
            CHECK(m.columns[1][c] == b[c]);
            /* n = (-0.5, 1, 0) / |.| on a plane of slope 0.5. */
            CHECK_NEAR(m.columns[3][c], -0.5 / sqrt(1.25), 1e-6);
            CHECK_NEAR(m.columns[4][c], 1 / sqrt(1.25), 1e-6);
            CHECK_NEAR(m.columns[5][c], 0, 1e-6);
        }
        check_up(&m);
    }
    lq_ply_free(&m);
    remove(path);
}

/* Scene: ground rising along x through 0 at the middle; water level 0 on the low half. */
static void slope_scene(int nx, int nz, double dx, float *h, float *b, int water)
{
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            size_t c = (size_t)i + (size_t)nx * k;
            b[c] = (float)(0.1 * ((i + 0.5) * dx - 0.5 * nx * dx));
            h[c] = water && b[c] < 0 ? 0.0f : b[c] - 1e-4f;
        }
}

static double blueness(const uint8_t *p)
{
    return (double)p[2] - 0.5 * (p[0] + p[1]);
}

static double luma(const uint8_t *p)
{
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

static const uint8_t *pixel_at(const uint8_t *rgb, int w, int h, const double px[2])
{
    int x = (int)floor(px[0]), y = (int)floor(px[1]);
    if (x < 0 || y < 0 || x >= w || y >= h) return NULL;
    return rgb + 3 * ((size_t)y * w + x);
}

static void test_preview(void)
{
    enum { NX = 96, NZ = 64 };
    const double dx = 0.25, origin[3] = {-3, 0, 5}, X = NX * dx, Z = NZ * dx;
    const float eps = 1e-4f;
    static float h[NX * NZ], b[NX * NZ], dry[NX * NZ];
    const char *path = tmp_path("preview.png");
    lq_hfview_preview p, q;
    uint8_t *rgb = NULL;
    int w, hh;

    /* Half lake, half beach: size, and water bluer than ground. */
    slope_scene(NX, NZ, dx, h, b, 1);
    CHECK_OK(lq_hfview_preview_init(&p, NX, NZ, dx, origin, 320, 3.0));
    CHECK(p.width == 320 && p.height == 180);
    double probe[3] = {0, 0, 0}, px[2];
    CHECK(lq_hfview_preview_project(&p, probe, px) == -1); /* no camera yet */
    CHECK_OK(lq_hfview_preview_render(&p, path, 0.0, h, b, eps));
    CHECK_OK(lq_png_read_rgb(path, &w, &hh, &rgb));
    CHECK(w == 320 && hh == 180);
    if (rgb && w == 320 && hh == 180) {
        CHECK(memcmp(rgb, p.rgb, (size_t)w * hh * 3) == 0);
        /* Domain corners all project inside the frame (the block fills it). */
        for (int c = 0; c < 4; c++) {
            double corner[3] = {origin[0] + (c & 1) * X, 0, origin[2] + (c >> 1) * Z};
            CHECK(lq_hfview_preview_project(&p, corner, px) == 0);
            CHECK(px[0] > 0 && px[0] < w && px[1] > 0 && px[1] < hh);
        }
        double water_pt[3] = {origin[0] + 0.2 * X, 0, origin[2] + 0.5 * Z};
        double ground_pt[3] = {origin[0] + 0.8 * X, 0.1 * 0.3 * X, origin[2] + 0.5 * Z};
        double pw[2], pg[2];
        CHECK(lq_hfview_preview_project(&p, water_pt, pw) == 0);
        CHECK(lq_hfview_preview_project(&p, ground_pt, pg) == 0);
        const uint8_t *cw = pixel_at(rgb, w, hh, pw), *cg = pixel_at(rgb, w, hh, pg);
        CHECK(cw && cg);
        if (cw && cg) {
            CHECK_MSG(blueness(cw) > blueness(cg) + 30, "water (%d %d %d) vs ground (%d %d %d)",
                      cw[0], cw[1], cw[2], cg[0], cg[1], cg[2]);
            /* Neither is the background: the sky gradient is bluer than sand and
             * brighter than water. */
            CHECK(cw[2] < 200 && cg[0] > cg[2]);
        }
    }
    free(rgb);
    rgb = NULL;

    /* Wet darkening: the same camera (same first frame), then the lake drains. Half a
     * second after draining, the former lake bed is darker than after it has dried. */
    CHECK_OK(lq_hfview_preview_init(&q, NX, NZ, dx, origin, 320, 3.0));
    CHECK_OK(lq_hfview_preview_render(&q, path, 0.0, h, b, eps));
    slope_scene(NX, NZ, dx, dry, b, 0);
    CHECK_OK(lq_hfview_preview_render(&p, path, 0.5, dry, b, eps));  /* p: 0.5 s after */
    CHECK_OK(lq_hfview_preview_render(&q, path, 60.0, dry, b, eps)); /* q: long dry */
    {
        double bed[3] = {origin[0] + 0.25 * X, 0.1 * (-0.25 * X), origin[2] + 0.5 * Z};
        double top[3] = {origin[0] + 0.8 * X, 0.1 * 0.3 * X, origin[2] + 0.5 * Z};
        double pb[2], pt[2];
        CHECK(lq_hfview_preview_project(&p, bed, pb) == 0);
        CHECK(lq_hfview_preview_project(&p, top, pt) == 0);
        const uint8_t *wet_px = pixel_at(p.rgb, p.width, p.height, pb);
        const uint8_t *dry_px = pixel_at(q.rgb, q.width, q.height, pb);
        CHECK(wet_px && dry_px);
        if (wet_px && dry_px)
            CHECK_MSG(luma(wet_px) < 0.8 * luma(dry_px), "wet %g vs dry %g", luma(wet_px),
                      luma(dry_px));
        /* Ground that never got wet is the same in both. */
        const uint8_t *a = pixel_at(p.rgb, p.width, p.height, pt);
        const uint8_t *c = pixel_at(q.rgb, q.width, q.height, pt);
        CHECK(a && c && memcmp(a, c, 3) == 0);
    }
    /* Past the fade the darkening is gone: p renders the same picture as q. */
    CHECK_OK(lq_hfview_preview_render(&p, path, 10.0, dry, b, eps));
    CHECK(memcmp(p.rgb, q.rgb, (size_t)p.width * p.height * 3) == 0);
    /* Time running backwards (a restarted run) does not fade anything. */
    CHECK_OK(lq_hfview_preview_render(&p, path, 1.0, h, b, eps));
    CHECK_OK(lq_hfview_preview_render(&p, path, 0.5, dry, b, eps));
    CHECK(p.dry_for[0] == 0.0f);

    /* A failed write records an error and leaves no file. */
    CHECK(lq_hfview_preview_render(&p, tmp_path("no/dir.png"), 11.0, h, b, eps) == LQ_ESIM);
    lq_hfview_preview_free(&p);
    lq_hfview_preview_free(&q);
    remove(path);
}

/* Degenerate grids and non-finite values render without crashing. */
static void test_preview_robust(void)
{
    const char *path = tmp_path("odd.png"), *ply = tmp_path("odd.ply");
    const double origin[3] = {0, 0, 0};
    static const int sizes[][2] = {{1, 1}, {2, 1}, {1, 5}, {40, 1}, {9, 7}};
    for (size_t s = 0; s < LQ_COUNT(sizes); s++) {
        int nx = sizes[s][0], nz = sizes[s][1];
        float *h = malloc(sizeof(float) * nx * nz), *b = malloc(sizeof(float) * nx * nz);
        lq_hfview_preview p;
        for (int c = 0; c < nx * nz; c++) {
            b[c] = (float)(0.1 * c);
            h[c] = c % 3 ? 1.0f : NAN;
        }
        if (nx * nz > 3) {
            b[1] = NAN;
            b[2] = INFINITY;
            h[nx * nz - 1] = 1e30f;
        }
        CHECK_OK(lq_hfview_preview_init(&p, nx, nz, 0.1, origin, 64, 0));
        CHECK_OK(lq_hfview_preview_render(&p, path, 0, h, b, 1e-4f));
        CHECK_OK(lq_hfview_preview_render(&p, path, 1, h, b, 1e-4f));
        CHECK_OK(lq_hfview_write_surface(ply, nx, nz, 0.1, origin, h, b, 1e-4f, NULL, NULL));
        CHECK_OK(lq_hfview_write_terrain(ply, nx, nz, 0.1, origin, b));
        lq_hfview_preview_free(&p);
        free(h);
        free(b);
    }
    lq_hfview_preview p;
    CHECK(lq_hfview_preview_init(&p, 0, 4, 0.1, origin, 64, 0) == LQ_ESIM);
    CHECK(lq_hfview_preview_init(&p, 4, 4, 0.1, origin, 4, 0) == LQ_ESIM);
    lq_hfview_preview_free(&p); /* zeroed by the failed init: harmless */
    remove(path);
    remove(ply);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lq_test_hfview_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_surface_mesh();
    test_terrain_mesh();
    test_preview();
    test_preview_robust();
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
