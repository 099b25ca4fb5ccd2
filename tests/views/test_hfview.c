/*
 * test_hfview.c — hfview.h: the water and terrain meshes of small known fields (vertex
 * and triangle counts, compact indices, upward winding, dry vertices below the ground,
 * depth and velocity columns, normals), and previews of synthetic scenes whose pixels
 * are known to see water or ground (water bluer than ground, recently wet ground darker
 * than the same ground dry, the darkening gone once it has faded), plus inputs that
 * must not crash the renderer. Scenes with objects and spray: a ball half in a pool
 * shows its colour above the water and a dimmed tint of it through the water, changes
 * nothing when buried or hidden behind a wall, and is framed by the first frame even
 * high above the pool; a spray drop changes only the pixels near it, not when hidden,
 * and a dense cloud reads as white.
 *
 * Files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "lib/check.h"
#include "core/common.h"
#include "views/hfview.h"
#include "views/raster.h"
#include "io/io.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static const float eps_dry = 1e-4f;

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

/* Scene: a square pool, N x N cells of 0.1 m, floor at -1, a rim 3 cells wide at 0.3,
 * water at 0. */
enum { POOL = 64 };
static const double pool_dx = 0.1, pool_origin[3] = {0, 0, 0}, pool_mid = 0.5 * POOL * 0.1;

static void pool_scene(float *h, float *b)
{
    for (int k = 0; k < POOL; k++)
        for (int i = 0; i < POOL; i++) {
            int c = i + POOL * k, rim = i < 3 || k < 3 || i >= POOL - 3 || k >= POOL - 3;
            b[c] = rim ? 0.3f : -1.0f;
            h[c] = rim ? b[c] - 1e-3f : 0.0f;
        }
}

static lq_view_object ball(double r, double x, double y, double z)
{
    lq_view_object o;
    memset(&o, 0, sizeof o);
    o.shape = LQ_SHAPE_SPHERE;
    o.half[0] = o.half[1] = o.half[2] = r;
    o.pos[0] = x;
    o.pos[1] = y;
    o.pos[2] = z;
    o.rot[0] = o.rot[4] = o.rot[8] = 1;
    o.rgb[0] = 0.8f; /* red */
    o.rgb[1] = 0.1f;
    o.rgb[2] = 0.08f;
    return o;
}

static double redness(const uint8_t *c)
{
    return c[0] - 0.5 * (c[1] + c[2]);
}

/* Copies the picture and the depths of p. */
static void keep(const lq_hfview_preview *p, uint8_t *rgb, float *depth)
{
    size_t n = (size_t)p->width * p->height;
    memcpy(rgb, p->rgb, 3 * n);
    if (depth) memcpy(depth, p->depth, n * sizeof *depth);
}

/* Pixels of p that differ from rgb outside the square of half size r around px. */
static int changed_outside(const lq_hfview_preview *p, const uint8_t *rgb, const double px[2],
                           double r)
{
    int n = 0;
    for (int y = 0; y < p->height; y++)
        for (int x = 0; x < p->width; x++) {
            size_t c = 3 * ((size_t)y * p->width + x);
            if (fabs(x + 0.5 - px[0]) <= r && fabs(y + 0.5 - px[1]) <= r) continue;
            n += memcmp(p->rgb + c, rgb + c, 3) != 0;
        }
    return n;
}

static void test_preview_objects(void)
{
    static float h[POOL * POOL], b[POOL * POOL];
    const char *path = tmp_path("objects.png");
    const float eps = 1e-4f;
    lq_hfview_preview p;
    uint8_t *plain = NULL, *with = NULL, *aa = NULL;
    float *dplain = NULL, *dwith = NULL;
    pool_scene(h, b);
    CHECK_OK(lq_hfview_preview_init(&p, POOL, POOL, pool_dx, pool_origin, 320, 3.0));
    size_t n = (size_t)p.width * p.height;
    plain = malloc(3 * n);
    with = malloc(3 * n);
    dplain = malloc(n * sizeof *dplain);
    dwith = malloc(n * sizeof *dwith);
    aa = malloc(n);
    if (!plain || !with || !dplain || !dwith || !aa) goto done;

    /* The plain pool first (it fixes the camera); drawn again with nothing, the same. */
    CHECK_OK(lq_hfview_preview_render(&p, path, 0, h, b, eps));
    keep(&p, plain, dplain);
    CHECK(p.depth[0] == INFINITY);                 /* a corner of the sky */
    CHECK(isfinite(p.depth[n / 2 + p.width / 2])); /* the middle of the pool */
    CHECK_OK(
        lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 0, NULL, NULL, NULL, 0, 0));
    CHECK(memcmp(p.rgb, plain, 3 * n) == 0);
    int aa_plain = 0, aa_with = 0;
    for (size_t c = 0; c < n; c++) aa_plain += p.aa[c];

    /* A red ball of radius 0.8 half under water in the middle, and one of radius 0.4
     * just under the surface (its top 5 cm down) in front of it. */
    lq_view_object o = ball(0.8, pool_mid, 0, pool_mid), two[2];
    two[0] = o;
    two[1] = ball(0.4, pool_mid - 1.2, -0.45, pool_mid + 1.4);
    CHECK_OK(
        lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, two, 2, NULL, NULL, NULL, 0, 0));
    keep(&p, with, dwith);
    memcpy(aa, p.aa, n);
    for (size_t c = 0; c < n; c++) aa_with += aa[c];
    CHECK_MSG(aa_with > aa_plain + 20, "no extra rays on the ball's outline (%d vs %d)", aa_with,
              aa_plain);
    {
        /* Its top and the point facing the camera: red, and not red without it. */
        double top[3] = {pool_mid, 0.8, pool_mid}, face[3], pt[2], pf[2];
        for (int a = 0; a < 3; a++) face[a] = o.pos[a] - 0.8 * p.cam.fwd[a];
        CHECK(lq_hfview_preview_project(&p, top, pt) == 0);
        CHECK(lq_hfview_preview_project(&p, face, pf) == 0);
        pt[1] += 1; /* a pixel inside the outline, off its anti-aliased edge */
        const uint8_t *bt = pixel_at(with, p.width, p.height, pt);
        const uint8_t *bf = pixel_at(with, p.width, p.height, pf);
        const uint8_t *wt = pixel_at(plain, p.width, p.height, pt);
        CHECK(bt && bf && wt);
        if (bt && bf && wt) {
            CHECK_MSG(redness(bt) > 40 && redness(bf) > 40, "ball top (%d %d %d), face (%d %d %d)",
                      bt[0], bt[1], bt[2], bf[0], bf[1], bf[2]);
            CHECK(redness(wt) < 0 && memcmp(bt, wt, 3) != 0);
            /* Depth at the facing point: the distance to the ball, nearer than the water. */
            size_t c = (size_t)floor(pf[1]) * p.width + (size_t)floor(pf[0]);
            double rel[3], dist = 0;
            for (int a = 0; a < 3; a++) rel[a] = face[a] - p.cam.eye[a];
            dist = sqrt(rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2]);
            CHECK_NEAR(dwith[c], dist, 0.02);
            CHECK(dwith[c] < dplain[c]);
        }
        /* Under water: pixels whose centre ray meets the water surface as before (same
         * depth) but now sees a ball through it are redder than the water there, and on
         * average far less red than the ball in air (the pixels whose depth shrank).
         * Edge pixels, which mix both, are left out. ("As before" to 0.2 %: the plain
         * picture's water between samples has an interpolated distance, views/raster.h,
         * where the ball's box is traced pixel by pixel.) */
        int through = 0, air = 0;
        double red_through = 0, red_air = 0;
        for (size_t c = 0; c < n; c++) {
            const uint8_t *a = with + 3 * c, *w = plain + 3 * c;
            if (aa[c]) continue;
            if (dwith[c] < 0.99f * dplain[c]) {
                air++;
                red_air += redness(a);
            } else if (fabsf(dwith[c] - dplain[c]) <= 2e-3f * dplain[c] && /* sampling's */
                       redness(a) > redness(w) + 8) {
                through++;
                red_through += redness(a);
            }
        }
        CHECK_MSG(through > 100 && air > 100, "%d pixels see the ball in air, %d through water",
                  air, through);
        if (through && air)
            CHECK_MSG(red_through / through < 0.6 * red_air / air,
                      "redness %g through water, %g in air", red_through / through, red_air / air);
    }

    /* A ball with NaN in its placement is skipped: the plain picture. */
    lq_view_object bad = o;
    bad.rot[4] = NAN;
    CHECK_OK(
        lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, &bad, 1, NULL, NULL, NULL, 0, 0));
    CHECK(memcmp(p.rgb, plain, 3 * n) == 0);
    bad = o;
    bad.half[1] = 0;
    CHECK_OK(
        lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, &bad, 1, NULL, NULL, NULL, 0, 0));
    CHECK(memcmp(p.rgb, plain, 3 * n) == 0);

    /* Spray. One drop in the air above the pool: only pixels within its disc (at most
     * 4 px + the soft edge) change, and they get lighter. */
    {
        float sx = (float)(pool_mid - 1.5), sy = 0.6f, sz = (float)(pool_mid + 1.0);
        double q[3] = {sx, sy, sz}, pq[2];
        CHECK(lq_hfview_preview_project(&p, q, pq) == 0);
        CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 0, &sx, &sy, &sz, 1,
                                                0.005f));
        const uint8_t *dot = pixel_at(p.rgb, p.width, p.height, pq);
        const uint8_t *was = pixel_at(plain, p.width, p.height, pq);
        CHECK(dot && was);
        if (dot && was)
            CHECK_MSG(luma(dot) > luma(was) + 40, "drop %g over %g", luma(dot), luma(was));
        CHECK(changed_outside(&p, plain, pq, 5) == 0);
        CHECK(memcmp(p.depth, dplain, n * sizeof *dplain) == 0); /* spray leaves depth be */

        /* A dense cloud there: white mist. */
        enum { CLOUD = 20000 };
        static float cx[CLOUD], cy[CLOUD], cz[CLOUD];
        lq_rng rng;
        lq_rng_seed(&rng, 5);
        for (int j = 0; j < CLOUD; j++) {
            cx[j] = sx + (float)(0.2 * (lq_rng_uniform(&rng) - 0.5));
            cy[j] = sy + (float)(0.2 * (lq_rng_uniform(&rng) - 0.5));
            cz[j] = sz + (float)(0.2 * (lq_rng_uniform(&rng) - 0.5));
        }
        CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 0, cx, cy, cz, CLOUD,
                                                0.002f));
        dot = pixel_at(p.rgb, p.width, p.height, pq);
        if (dot)
            CHECK_MSG(dot[0] > 220 && dot[1] > 220 && dot[2] > 220, "mist (%d %d %d)", dot[0],
                      dot[1], dot[2]);

        /* Drops under the water surface, behind the camera, far off screen, at the eye
         * or not finite: nothing drawn, nothing broken. */
        const double *e = p.cam.eye, *f = p.cam.fwd, *r = p.cam.right;
        float ux[6] = {
            (float)pool_mid, (float)(e[0] - f[0]), (float)(e[0] + r[0] + 1e-6 * f[0]), 1e30f, NAN,
            (float)e[0]};
        float uy[6] = {-0.5f, (float)(e[1] - f[1]), (float)(e[1] + r[1] + 1e-6 * f[1]), 0,
                       0,     (float)e[1]};
        float uz[6] = {
            (float)pool_mid, (float)(e[2] - f[2]), (float)(e[2] + r[2] + 1e-6 * f[2]), 0, 0,
            (float)e[2]};
        CHECK_OK(
            lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 0, ux, uy, uz, 6, 0.005f));
        CHECK(memcmp(p.rgb, plain, 3 * n) == 0);
        /* An absurd radius is held to a few pixels. */
        CHECK_OK(
            lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 0, ux, uy, uz, 6, 1e9f));
    }

    /* Errors: bad lists and unknown shapes. */
    bad = o;
    bad.shape = 9;
    CHECK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, &bad, 1, NULL, NULL, NULL, 0, 0) ==
          LQ_ESIM);
    CHECK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 1, NULL, NULL, NULL, 0, 0) ==
          LQ_ESIM);
    CHECK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, NULL, 0, NULL, NULL, NULL, 3, 0) ==
          LQ_ESIM);
    CHECK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps, &o, -1, NULL, NULL, NULL, 0, 0) ==
          LQ_ESIM);
    lq_error_clear();
done:
    lq_hfview_preview_free(&p);
    free(plain);
    free(with);
    free(dplain);
    free(dwith);
    free(aa);
    remove(path);
}

/* Depth tests against the terrain: a plateau 2 m high on dry ground and a wall 3 m high
 * in front of some ground; a ball inside the plateau and a ball or a drop behind the
 * wall do not show. */
static void test_preview_hidden(void)
{
    enum { NX = 64, NZ = 64 };
    const double dx = 0.1, origin[3] = {0, 0, 0};
    static float h[NX * NZ], b[NX * NZ];
    const char *path = tmp_path("hidden.png");
    lq_hfview_preview p;
    uint8_t *plain = NULL;
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++) {
            int c = i + NX * k;
            int plateau = i >= 8 && i < 24 && k >= 20 && k < 44, wall = k >= 48 && k < 52;
            b[c] = plateau ? 2.0f : wall ? 3.0f : 0.0f;
            h[c] = b[c] - 1e-3f;
        }
    CHECK_OK(lq_hfview_preview_init(&p, NX, NZ, dx, origin, 320, 3.0));
    size_t n = (size_t)p.width * p.height;
    if (!(plain = malloc(3 * n))) goto done;
    CHECK_OK(lq_hfview_preview_render(&p, path, 0, h, b, eps_dry));
    keep(&p, plain, NULL);

    /* Buried in the plateau (its top 0.3 m under the plateau's top): no change at all. */
    lq_view_object buried = ball(0.6, 1.6, 1.1, 3.2);
    CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps_dry, &buried, 1, NULL, NULL,
                                            NULL, 0, 0));
    {
        /* no change but sampling's: the blocks over an object are traced pixel by pixel
         * where the plain picture interpolated some (views/raster.h), within the
         * interpolation's few bytes */
        int worst = 0;
        for (size_t q = 0; q < 3 * n; q++) worst = LQ_MAX(worst, abs(p.rgb[q] - plain[q]));
        CHECK_MSG(worst <= 2 * LQ_RASTER_SMOOTH, "a buried ball changed a byte by %d", worst);
    }

    /* Behind the wall (seen from the front, +z): a ball and a drop whose projections land
     * on the wall's face. Nothing changes around them. */
    lq_view_object behind = ball(0.3, 4.5, 0.5, 4.2);
    double c[3] = {4.5, 0.5, 4.2}, pc[2], rel[3];
    CHECK(lq_hfview_preview_project(&p, c, pc) == 0);
    for (int a = 0; a < 3; a++) rel[a] = c[a] - p.cam.eye[a];
    double dist = sqrt(rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2]);
    int x = (int)pc[0], y = (int)pc[1];
    CHECK(x >= 0 && x < p.width && y >= 0 && y < p.height);
    if (x >= 0 && x < p.width && y >= 0 && y < p.height) {
        CHECK_MSG(p.depth[(size_t)y * p.width + x] < dist - 1, "the wall does not hide the spot");
        CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps_dry, &behind, 1, NULL, NULL,
                                                NULL, 0, 0));
        uint8_t *seen = p.rgb;
        int diff = 0;
        for (int yy = y - 12; yy <= y + 12; yy++)
            for (int xx = x - 12; xx <= x + 12; xx++) {
                if (xx < 0 || yy < 0 || xx >= p.width || yy >= p.height) continue;
                size_t q = 3 * ((size_t)yy * p.width + xx);
                diff += memcmp(seen + q, plain + q, 3) != 0;
            }
        CHECK_MSG(diff == 0, "%d pixels changed by a ball behind the wall", diff);
        float sx = (float)c[0], sy = (float)c[1], sz = (float)c[2];
        CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps_dry, NULL, 0, &sx, &sy, &sz,
                                                1, 0.01f));
        CHECK(memcmp(p.rgb, plain, 3 * n) == 0);
        /* The same drop in front of the wall shows. */
        sz = 5.6f;
        CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, eps_dry, NULL, 0, &sx, &sy, &sz,
                                                1, 0.01f));
        CHECK(memcmp(p.rgb, plain, 3 * n) != 0);
    }
done:
    lq_hfview_preview_free(&p);
    free(plain);
    remove(path);
}

/* A ball 10 m above a 6.4 m pool on the first frame is framed with the pool. */
static void test_preview_framing(void)
{
    static float h[POOL * POOL], b[POOL * POOL];
    const char *path = tmp_path("framing.png");
    lq_hfview_preview p;
    lq_view_object o = ball(0.5, pool_mid, 10, pool_mid);
    pool_scene(h, b);
    /* By default the pool fills the picture and the ball, far above it, is out of it
     * until it falls in; a ball just over the water is framed. */
    for (int high = 1; high >= 0; high--) {
        lq_view_object q = ball(0.2, pool_mid, high ? 10 : 0.5, pool_mid);
        double pb[2], pa[2], pc[3] = {pool_mid, high ? 10 : 0.5, pool_mid};
        CHECK_OK(lq_hfview_preview_init(&p, POOL, POOL, pool_dx, pool_origin, 320, 3.0));
        CHECK_OK(lq_hfview_preview_render_scene(&p, path, 0, h, b, 1e-4f, &q, 1, NULL, NULL, NULL,
                                                0, 0));
        CHECK(lq_hfview_preview_project(&p, pc, pb) == 0);
        int inside = pb[0] > 0 && pb[0] < p.width && pb[1] > 0 && pb[1] < p.height;
        CHECK_MSG(inside == !high, "ball at %g m: %s the picture", pc[1], inside ? "in" : "out of");
        /* the pool's corners span most of the picture's width */
        double xlo = INFINITY, xhi = -INFINITY;
        for (int k = 0; k < 4; k++) {
            double corner[3] = {(k & 1) * POOL * pool_dx, 0, (k >> 1) * POOL * pool_dx};
            CHECK(lq_hfview_preview_project(&p, corner, pa) == 0);
            xlo = fmin(xlo, pa[0]);
            xhi = fmax(xhi, pa[0]);
        }
        if (high) CHECK_MSG(xhi - xlo > 0.6 * p.width, "pool %g px wide of %d", xhi - xlo, p.width);
        lq_hfview_preview_free(&p);
    }
    /* output.preview_framing all: the ball 10 m up is framed with the pool */
    CHECK_OK(lq_hfview_preview_init(&p, POOL, POOL, pool_dx, pool_origin, 320, 3.0));
    p.frame_all = 1;
    CHECK_OK(
        lq_hfview_preview_render_scene(&p, path, 0, h, b, 1e-4f, &o, 1, NULL, NULL, NULL, 0, 0));
    double top[3] = {pool_mid, 10.5, pool_mid}, bottom[3] = {pool_mid, 9.5, pool_mid}, px[2];
    CHECK(lq_hfview_preview_project(&p, top, px) == 0);
    CHECK(px[0] > 0 && px[0] < p.width && px[1] > 0 && px[1] < p.height);
    CHECK(lq_hfview_preview_project(&p, bottom, px) == 0);
    CHECK(px[0] > 0 && px[0] < p.width && px[1] > 0 && px[1] < p.height);
    double mid[3] = {pool_mid, 10, pool_mid};
    CHECK(lq_hfview_preview_project(&p, mid, px) == 0);
    const uint8_t *c = pixel_at(p.rgb, p.width, p.height, px);
    CHECK(c && redness(c) > 40);
    for (int k = 0; k < 4; k++) {
        double corner[3] = {(k & 1) * POOL * pool_dx, 0, (k >> 1) * POOL * pool_dx};
        CHECK(lq_hfview_preview_project(&p, corner, px) == 0);
        CHECK(px[0] > 0 && px[0] < p.width && px[1] > 0 && px[1] < p.height);
    }
    /* Later frames keep the camera, wherever the ball goes. */
    lq_hfview_camera cam = p.cam;
    o.pos[1] = 40;
    CHECK_OK(
        lq_hfview_preview_render_scene(&p, path, 0.1, h, b, 1e-4f, &o, 1, NULL, NULL, NULL, 0, 0));
    CHECK(memcmp(&cam, &p.cam, sizeof cam) == 0);
    lq_hfview_preview_free(&p);
    remove(path);
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
    test_preview_objects();
    test_preview_hidden();
    test_preview_framing();
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
