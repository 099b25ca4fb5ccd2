/*
 * test_voxel.c — obstacles and terrain as solid cells (host/world/voxel.c): exact cell sets
 * for small boxes, cylinders, terrain, mask stacks and OBJ cubes (including rays that
 * run exactly along the cube's face diagonals and through a sphere mesh's poles), cell
 * volumes against analytic and mesh volumes, a torus whose hole must stay open, the
 * 128³ / 10k-triangle timing, and one error case per kind of bad input file.
 *
 * Scenes and input files are written to a fresh temporary folder.
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"
#include "common/mac_grid.h"
#include "scene/config.h"
#include "world/voxel.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64];

static void tmp_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", tmpdir, name);
}

static void write_text(const char *name, const char *fmt, ...) LQ_PRINTF(2, 3);
static void write_text(const char *name, const char *fmt, ...)
{
    char path[256];
    tmp_path(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

/* A voxelised scene: the grid and its marks. */
typedef struct vox {
    int n[3];
    double dx, o[3];
    unsigned char *solid, *noslip;
    int rc;
    char msg[1024];
} vox;

/* Loads `mac` scene text (grid size nx ny nz, cell dx, origin 0, then `body`) and
 * voxelises it; solid starts 0 and noslip 9, so untouched cells are visible. */
static vox run(int nx, int ny, int nz, double dx, const char *body)
{
    vox v = {{nx, ny, nz}, dx, {0, 0, 0}, NULL, NULL, -1, ""};
    char path[256];
    write_text("scene.yaml", "solver: mac\ngrid:\n  size: [%d, %d, %d]\n  cell: %.17g\n%s", nx, ny,
               nz, dx, body);
    tmp_path(path, sizeof path, "scene.yaml");
    lq_error_clear();
    lq_config *cfg = lq_config_load(path, 0, NULL);
    if (!cfg) {
        v.rc = LQ_EINPUT;
        snprintf(v.msg, sizeof v.msg, "%s", lq_error_message());
        return v;
    }
    size_t n = (size_t)nx * ny * nz;
    v.solid = calloc(n, 1);
    v.noslip = malloc(n);
    memset(v.noslip, 9, n);
    v.rc = lq_voxel_obstacles(cfg, nx, ny, nz, dx, v.o, v.solid, v.noslip);
    snprintf(v.msg, sizeof v.msg, "%s", v.rc ? lq_error_message() : "");
    lq_config_free(cfg);
    return v;
}

static void vox_free(vox *v)
{
    free(v->solid);
    free(v->noslip);
}

static long count(const vox *v)
{
    long s = 0;
    for (size_t c = 0; c < (size_t)v->n[0] * v->n[1] * v->n[2]; c++) s += v->solid[c];
    return s;
}

static int at(const vox *v, int i, int j, int k)
{
    return v->solid[LQ_MAC_CELL(i, j, k, v->n[0], v->n[1])];
}

/* Every marked cell has noslip == ns and every other keeps 9. */
static void check_noslip(const vox *v, int ns, int line)
{
    long bad = 0;
    for (size_t c = 0; c < (size_t)v->n[0] * v->n[1] * v->n[2]; c++)
        bad += v->solid[c] ? v->noslip[c] != ns : v->noslip[c] != 9;
    CHECK_MSG(bad == 0, "line %d: %ld cells with a wrong noslip mark", line, bad);
}

/* Expects an input error whose message starts with `prefix` and holds `frag`. */
static void expect_error(const vox *v, const char *prefix, const char *frag, int line)
{
    CHECK_MSG(v->rc == LQ_EINPUT, "line %d: rc %d, expected LQ_EINPUT (%s)", line, v->rc, v->msg);
    CHECK_MSG(strncmp(v->msg, prefix, strlen(prefix)) == 0,
              "line %d: message '%s' does not start with '%s'", line, v->msg, prefix);
    CHECK_MSG(strstr(v->msg, frag) != NULL, "line %d: message '%s' does not contain '%s'", line,
              v->msg, frag);
    CHECK_MSG(strchr(v->msg, '\n') == NULL, "line %d: message is not one line", line);
}

/* --- analytic shapes ------------------------------------------------------------ */

static void test_box(void)
{
    /* centres at 0.05 + 0.1 i: x 0.25..0.45 (3), y 0.25..0.55 (4), z 0.25..0.65 (5) */
    vox v = run(10, 10, 10, 0.1,
                "obstacles:\n  - box: {min: [0.2, 0.2, 0.2], max: [0.5, 0.6, 0.7]}\n"
                "    boundary: free-slip\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 60);
    CHECK(at(&v, 2, 2, 2) && at(&v, 4, 5, 6) && !at(&v, 5, 5, 6) && !at(&v, 1, 2, 2));
    check_noslip(&v, 0, __LINE__);
    vox_free(&v);
    /* 2D: z ignored (the box's z range lies nowhere near the one cell's centre) */
    v = run(10, 10, 1, 0.1, "obstacles:\n  - box: {min: [0.2, 0.2, 5], max: [0.5, 0.6, 6]}\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 12);
    check_noslip(&v, 1, __LINE__);
    vox_free(&v);
    v = run(10, 10, 10, 0.1, "obstacles:\n  - box: {min: [0.2, 0.2, 0.2], max: [0.5, 0.1, 0.7]}\n");
    expect_error(&v, tmpdir, "max lies below min on axis y", __LINE__);
    vox_free(&v);
}

static void test_sphere_cylinder(void)
{
    /* A ball of radius R = 19.2 cells: centre sampling counts the lattice points in the
     * ball, whose error against the volume grows only like R^1.5 or less (≈ 84 of 29 650
     * cells here), far inside the 1 % allowed; a shape off by one cell layer would be off
     * by 3/R ≈ 16 %. */
    int n = 64;
    double dx = 1.0 / n, r = 0.3;
    vox v = run(n, n, n, dx, "obstacles:\n  - sphere: {center: [0.5, 0.51, 0.49], radius: 0.3}\n");
    CHECK_OK(v.rc);
    double vol = count(&v) * dx * dx * dx, exact = 4.0 / 3.0 * LQ_PI * r * r * r;
    fprintf(stderr, "sphere: %ld cells, volume %.5f vs %.5f (%.3f %%)\n", count(&v), vol, exact,
            100 * (vol / exact - 1));
    CHECK_NEAR(vol / exact, 1, 0.01);
    check_noslip(&v, 1, __LINE__);
    vox_free(&v);

    /* cylinders along each axis: the same count (the grid is symmetric); h = 0.5 spans
     * exactly 32 layers (16..47), so the count is 32 times the lattice points of a disc
     * of 12.8 cells' radius around a cell corner, counted here directly */
    long disc = 0;
    for (int b = 0; b < n; b++)
        for (int a = 0; a < n; a++) {
            double p = (a + 0.5) * dx - 0.5, q = (b + 0.5) * dx - 0.5;
            disc += p * p + q * q <= 0.2 * 0.2;
        }
    long c3[3];
    for (int a = 0; a < 3; a++) {
        char body[256];
        snprintf(body, sizeof body,
                 "obstacles:\n  - cylinder: {center: [0.5, 0.5, 0.5], radius: 0.2, height: 0.5, "
                 "axis: %c}\n",
                 "xyz"[a]);
        v = run(n, n, n, dx, body);
        CHECK_OK(v.rc);
        c3[a] = count(&v);
        int lo = n, hi = -1;
        for (int t = 0; t < n; t++) {
            int ijk[3] = {n / 2, n / 2, n / 2};
            ijk[a] = t;
            if (at(&v, ijk[0], ijk[1], ijk[2])) lo = LQ_MIN(lo, t), hi = LQ_MAX(hi, t);
        }
        CHECK_MSG(lo == 16 && hi == 47, "axis %c: extent %d..%d, expected 16..47", "xyz"[a], lo,
                  hi);
        vox_free(&v);
    }
    double cyl = LQ_PI * 0.2 * 0.2 * 0.5;
    fprintf(stderr, "cylinder: %ld %ld %ld cells (32 x %ld), volume %.5f vs %.5f\n", c3[0], c3[1],
            c3[2], disc, c3[1] * dx * dx * dx, cyl);
    CHECK(c3[0] == 32 * disc && c3[1] == 32 * disc && c3[2] == 32 * disc);
    /* and the disc against πr²: its lattice-point error is 1.8 % here */
    CHECK_NEAR(c3[1] * dx * dx * dx / cyl, 1, 0.03);

    /* exact small case: r = 0.1 around (0.5, 0.5) holds the 4 centres at 0.45/0.55
     * (distance 0.0707), h = 0.2 the 2 centres at z 0.45, 0.55 */
    v = run(10, 10, 10, 0.1,
            "obstacles:\n  - cylinder: {center: [0.5, 0.5, 0.5], radius: 0.1, height: 0.2, "
            "axis: z}\n    boundary: free-slip\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 8 && at(&v, 4, 4, 4) && at(&v, 5, 5, 5) && !at(&v, 5, 5, 6));
    check_noslip(&v, 0, __LINE__);
    vox_free(&v);

    /* 2D: a sphere is its full circle (z ignored): 1158 cells of area, lattice error a
     * few cells (R^(2/3) ≈ 7), within 2 % */
    v = run(64, 64, 1, dx, "obstacles:\n  - sphere: {center: [0.5, 0.5, 7], radius: 0.3}\n");
    CHECK_OK(v.rc);
    CHECK_NEAR(count(&v) * dx * dx / (LQ_PI * r * r), 1, 0.02);
    vox_free(&v);
}

/* --- terrain ------------------------------------------------------------------------ */

static void test_terrain(void)
{
    vox v = run(10, 10, 10, 0.1, "terrain:\n  - plane: {height: 0.3}\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 300 && at(&v, 3, 2, 7) && !at(&v, 3, 3, 7));
    check_noslip(&v, 0, __LINE__); /* free-slip by default */
    vox_free(&v);
    /* sloped: solid where y_j < 0.2 + 0.5 x_i; no-slip */
    v = run(10, 10, 4, 0.1,
            "terrain:\n  - plane: {height: 0.21, slope: [0.5, 0]}\n    boundary: no-slip\n");
    CHECK_OK(v.rc);
    long want = 0, wrong = 0;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 10; j++)
            for (int i = 0; i < 10; i++) {
                int in = 0.05 + 0.1 * j < 0.21 + 0.5 * (0.05 + 0.1 * i);
                want += in;
                wrong += in != at(&v, i, j, k);
            }
    CHECK_MSG(wrong == 0 && count(&v) == want, "%ld cells differ", wrong);
    check_noslip(&v, 1, __LINE__);
    vox_free(&v);
    /* an obstacle after the terrain decides its own cells' boundary */
    v = run(10, 10, 10, 0.1,
            "terrain:\n  - plane: {height: 0.3}\n"
            "obstacles:\n  - box: {min: [0, 0, 0], max: [0.1, 0.5, 0.1]}\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 302);
    CHECK(v.noslip[LQ_MAC_CELL(0, 0, 0, 10, 10)] == 1 &&
          v.noslip[LQ_MAC_CELL(1, 0, 0, 10, 10)] == 0);
    vox_free(&v);
}

/* --- mask stacks -------------------------------------------------------------------- */

static int mask_texel(int px, int py, int s)
{
    return (px * 3 + py * 5 + s * 7) % 4 == 0;
}

static void write_mask(const char *name, int w, int h, int s)
{
    char path[256];
    uint8_t *rgb = calloc((size_t)w * h * 3, 1);
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            /* solid texels at 128 and 255, empty at 0 and 127: the threshold exactly */
            uint8_t g = mask_texel(px, py, s) ? ((px + py) % 2 ? 128 : 255) : ((px % 2) ? 127 : 0);
            memset(rgb + 3 * (px + (size_t)w * py), g, 3);
        }
    tmp_path(path, sizeof path, name);
    CHECK_OK(lq_png_write_rgb(path, w, h, rgb));
    free(rgb);
}

static void test_mask(void)
{
    write_mask("m_01.png", 6, 5, 0);
    write_mask("m_02.png", 6, 5, 1);
    write_mask("m_03.png", 6, 5, 2);
    write_mask("small.png", 5, 5, 0);
    /* one cell per texel: x 0..6, y 0..5, z 0..3 with cell 1 */
    vox v = run(6, 5, 3, 1.0,
                "obstacles:\n  - mask: {file: 'm_%02d.png', first: 1, count: 3, min: [0, 0, 0], "
                "max: [6, 5, 3]}\n");
    CHECK_OK(v.rc);
    long wrong = 0, want = 0;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 6; i++) {
                int in = mask_texel(i, 4 - j, k); /* image row 0 is the top */
                want += in;
                wrong += in != at(&v, i, j, k);
            }
    CHECK_MSG(wrong == 0 && want > 10 && count(&v) == want, "%ld cells differ (of %ld)", wrong,
              want);
    check_noslip(&v, 1, __LINE__);
    vox_free(&v);
    /* 2 cells per texel in a larger grid: nearest sampling, box offset by one cell */
    v = run(14, 12, 8, 0.5,
            "obstacles:\n  - mask: {file: 'm_%02d.png', first: 1, count: 3, min: [0.5, 0.5, 0.5], "
            "max: [6.5, 5.5, 3.5]}\n");
    CHECK_OK(v.rc);
    wrong = 0;
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 12; j++)
            for (int i = 0; i < 14; i++) {
                int in = i >= 1 && i < 13 && j >= 1 && j < 11 && k >= 1 && k < 7 &&
                         mask_texel((i - 1) / 2, 4 - (j - 1) / 2, (k - 1) / 2);
                wrong += in != at(&v, i, j, k);
            }
    CHECK_MSG(wrong == 0, "%ld cells differ", wrong);
    vox_free(&v);
    /* 2D: one image */
    v = run(6, 5, 1, 1.0,
            "obstacles:\n  - mask: {file: m_02.png, min: [0, 0, 0], max: [6, 5, 1]}\n");
    CHECK_OK(v.rc);
    wrong = 0;
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 6; i++) wrong += mask_texel(i, 4 - j, 1) != at(&v, i, j, 0);
    CHECK_MSG(wrong == 0, "%ld cells differ", wrong);
    vox_free(&v);

    /* errors: a missing slice, slices of different sizes, pattern problems */
    char path[256];
    tmp_path(path, sizeof path, "m_04.png");
    v = run(6, 5, 3, 1.0,
            "obstacles:\n  - mask: {file: 'm_%02d.png', first: 2, count: 3, min: [0, 0, 0], "
            "max: [6, 5, 3]}\n");
    expect_error(&v, path, ": cannot open", __LINE__);
    vox_free(&v);
    write_text("mix.txt", "x");
    write_mask("s_0.png", 6, 5, 0);
    write_mask("s_1.png", 5, 5, 0);
    tmp_path(path, sizeof path, "s_1.png");
    v = run(6, 5, 3, 1.0,
            "obstacles:\n  - mask: {file: 's_%d.png', count: 2, min: [0, 0, 0], max: [6, 5, 3]}\n");
    expect_error(&v, path, "the slice is 5 x 5 pixels, but the first slice", __LINE__);
    vox_free(&v);
    tmp_path(path, sizeof path, "mix.txt");
    v = run(6, 5, 3, 1.0,
            "obstacles:\n  - mask: {file: mix.txt, min: [0, 0, 0], max: [6, 5, 3]}\n");
    expect_error(&v, path, "not a PNG file", __LINE__);
    vox_free(&v);
    tmp_path(path, sizeof path, "scene.yaml");
    strcat(path, ":6:");
    v = run(6, 5, 3, 1.0,
            "obstacles:\n  - mask: {file: 'm_%s.png', count: 2, min: [0, 0, 0], max: [6, 5, 3]}\n");
    expect_error(&v, path, "takes one integer conversion", __LINE__);
    vox_free(&v);
    v = run(6, 5, 3, 1.0,
            "obstacles:\n  - mask: {file: 'm_%d.png', min: [0, 0, 0], max: [6, 5, 3]}\n");
    expect_error(&v, path, "a file pattern needs `count`", __LINE__);
    vox_free(&v);
}

/* --- OBJ meshes --------------------------------------------------------------------- */

/* The cube [lo, hi]³ as 6 quads; `flip` reverses some faces' winding. */
static void write_cube(const char *name, double lo, double hi, int flip, int skip_face)
{
    static const int q[6][4] = {{1, 2, 4, 3}, {5, 7, 8, 6}, {1, 5, 6, 2},
                                {3, 4, 8, 7}, {1, 3, 7, 5}, {2, 6, 8, 4}};
    char text[2048];
    size_t o = 0;
    o += (size_t)snprintf(text + o, sizeof text - o, "# a cube\no cube\n");
    for (int c = 0; c < 8; c++)
        o += (size_t)snprintf(text + o, sizeof text - o, "v %.17g %.17g %.17g\n", c & 4 ? hi : lo,
                              c & 2 ? hi : lo, c & 1 ? hi : lo);
    o += (size_t)snprintf(text + o, sizeof text - o, "vn 0 0 1\ns off\nusemtl stone\n");
    for (int f = 0; f < 6; f++) {
        if (f == skip_face) continue;
        if (flip && f % 2)
            o += (size_t)snprintf(text + o, sizeof text - o, "f %d//1 %d//1 %d//1 %d//1\n", q[f][3],
                                  q[f][2], q[f][1], q[f][0]);
        else /* negative (relative) indices */
            o += (size_t)snprintf(text + o, sizeof text - o, "f %d/1 %d/1/1 %d %d\n", q[f][0] - 9,
                                  q[f][1] - 9, q[f][2] - 9, q[f][3] - 9);
    }
    write_text(name, "%s", text);
}

/* A UV sphere around the x axis through (c): poles on that axis, `st` stacks, `sl`
 * slices; quads between rings, triangles at the poles. 2·sl·(st - 1) triangles. */
static void write_uv_sphere(const char *name, const double c[3], double r, int st, int sl)
{
    char path[256];
    tmp_path(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fprintf(f, "v %.17g %.17g %.17g\nv %.17g %.17g %.17g\n", c[0] - r, c[1], c[2], c[0] + r, c[1],
            c[2]);
    for (int a = 1; a < st; a++)
        for (int b = 0; b < sl; b++) {
            double th = LQ_PI * a / st, ph = 2 * LQ_PI * b / sl;
            fprintf(f, "v %.17g %.17g %.17g\n", c[0] - r * cos(th), c[1] + r * sin(th) * cos(ph),
                    c[2] + r * sin(th) * sin(ph));
        }
#define RING(a, b) (3 + ((a)-1) * sl + ((b) % sl))
    for (int b = 0; b < sl; b++) {
        fprintf(f, "f 1 %d %d\n", RING(1, b + 1), RING(1, b));
        fprintf(f, "f 2 %d %d\n", RING(st - 1, b), RING(st - 1, b + 1));
        for (int a = 1; a + 1 < st; a++)
            fprintf(f, "f %d %d %d %d\n", RING(a, b), RING(a, b + 1), RING(a + 1, b + 1),
                    RING(a + 1, b));
    }
#undef RING
    fclose(f);
}

/* A torus around the y axis through c: major radius R, minor r. */
static void write_torus(const char *name, const double c[3], double R, double r, int nu, int nv)
{
    char path[256];
    tmp_path(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    for (int a = 0; a < nu; a++)
        for (int b = 0; b < nv; b++) {
            double u = 2 * LQ_PI * a / nu, w = 2 * LQ_PI * b / nv, d = R + r * cos(w);
            fprintf(f, "v %.17g %.17g %.17g\n", c[0] + d * cos(u), c[1] + r * sin(w),
                    c[2] + d * sin(u));
        }
    for (int a = 0; a < nu; a++)
        for (int b = 0; b < nv; b++)
            fprintf(f, "f %d %d %d %d\n", 1 + a * nv + b, 1 + ((a + 1) % nu) * nv + b,
                    1 + ((a + 1) % nu) * nv + (b + 1) % nv, 1 + a * nv + (b + 1) % nv);
    fclose(f);
}

static double mesh_volume(const char *name)
{
    char path[256];
    lq_voxel_mesh m;
    tmp_path(path, sizeof path, name);
    if (lq_voxel_mesh_read(path, &m)) return NAN;
    double vol = lq_voxel_mesh_volume(&m);
    lq_voxel_mesh_free(&m);
    return vol;
}

static void test_mesh_exact(void)
{
    /* [0.2, 0.6]³: rows with j == k run exactly along the x faces' quad diagonals; the
     * 4³ centres 0.25..0.55 are inside */
    write_cube("cube.obj", 0.2, 0.6, 0, -1);
    write_cube("flip.obj", 0.2, 0.6, 1, -1);
    const char *const names[] = {"cube.obj", "flip.obj"};
    for (int t = 0; t < 2; t++) {
        char body[256];
        snprintf(body, sizeof body, "obstacles:\n  - mesh: {file: %s}\n    boundary: free-slip\n",
                 names[t]);
        vox v = run(10, 10, 10, 0.1, body);
        CHECK_OK(v.rc);
        long wrong = 0;
        for (int k = 0; k < 10; k++)
            for (int j = 0; j < 10; j++)
                for (int i = 0; i < 10; i++) {
                    int in = i >= 2 && i <= 5 && j >= 2 && j <= 5 && k >= 2 && k <= 5;
                    wrong += in != at(&v, i, j, k);
                }
        CHECK_MSG(wrong == 0, "%s: %ld cells differ (%ld solid)", names[t], wrong, count(&v));
        check_noslip(&v, 0, __LINE__);
        vox_free(&v);
    }
    CHECK_NEAR(mesh_volume("cube.obj"), 0.064, 1e-12);
    /* the unit cube centred on 0, scaled, rotated a quarter turn and moved onto
     * [0.2, 0.7]³ (5³ cells); 2D: its 5 x 5 cross-section */
    write_cube("unit.obj", -0.5, 0.5, 0, -1);
    const char *tf = "obstacles:\n  - mesh: {file: unit.obj, scale: [0.5], rotate: [0, 90, 30], "
                     "translate: [0.45, 0.45, 0.45]}\n";
    vox v = run(10, 10, 10, 0.1,
                "obstacles:\n  - mesh: {file: unit.obj, scale: [0.5], rotate: [90, 90, 0], "
                "translate: [0.45, 0.45, 0.45]}\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 125 && at(&v, 2, 2, 2) && at(&v, 6, 6, 6) && !at(&v, 7, 6, 6));
    vox_free(&v);
    v = run(10, 10, 1, 0.1, tf); /* rotated 30° about z: not a square any more */
    CHECK_OK(v.rc);
    long c2 = count(&v);
    /* (0.25, 0.25) is 0.2, 0.2 from the centre: 0.273 > 0.25 along a turned axis */
    CHECK(at(&v, 4, 4, 0) && at(&v, 5, 3, 0) && !at(&v, 2, 2, 0) && !at(&v, 6, 6, 0));
    vox_free(&v);
    v = run(10, 10, 1, 0.1,
            "obstacles:\n  - mesh: {file: unit.obj, scale: [0.5, 0.5, 9], "
            "translate: [0.45, 0.45, 3]}\n");
    CHECK_OK(v.rc);
    CHECK(count(&v) == 25 && at(&v, 2, 2, 0) && at(&v, 6, 6, 0));
    CHECK(c2 > 15 && c2 < 35);
    vox_free(&v);
}

static void test_mesh_volumes(void)
{
    int n = 64;
    double dx = 1.0 / n;
    /* poles on a row of centres: every pole triangle meets that ray at their vertex */
    double c[3] = {0.5, 32.5 * dx, 32.5 * dx};
    write_uv_sphere("uv.obj", c, 0.3, 24, 32);
    double mv = mesh_volume("uv.obj");
    vox v = run(n, n, n, dx, "obstacles:\n  - mesh: {file: uv.obj}\n");
    CHECK_OK(v.rc);
    double vol = count(&v) * dx * dx * dx;
    fprintf(stderr, "uv sphere: %ld cells, volume %.5f vs mesh %.5f (%.3f %%)\n", count(&v), vol,
            mv, 100 * (vol / mv - 1));
    /* same lattice-point argument as the analytic ball (the mesh is within 1 % of it) */
    CHECK_NEAR(vol / mv, 1, 0.01);
    /* the pole ray: solid from x = 0.2 to 0.8, i.e. cells 13..50 */
    int lo = n, hi = -1;
    for (int i = 0; i < n; i++)
        if (at(&v, i, 32, 32)) lo = LQ_MIN(lo, i), hi = LQ_MAX(hi, i);
    CHECK_MSG(lo == 13 && hi == 50, "pole ray solid over %d..%d", lo, hi);
    vox_free(&v);

    double tc[3] = {0.5, 0.5, 0.5};
    write_torus("torus.obj", tc, 0.3, 0.1, 64, 24);
    mv = mesh_volume("torus.obj");
    v = run(n, n, n, dx, "obstacles:\n  - mesh: {file: torus.obj}\n");
    CHECK_OK(v.rc);
    vol = count(&v) * dx * dx * dx;
    fprintf(stderr, "torus: %ld cells, volume %.5f vs mesh %.5f (%.3f %%)\n", count(&v), vol, mv,
            100 * (vol / mv - 1));
    /* a thinner shape (tube radius 6.4 cells): 3 % */
    CHECK_NEAR(vol / mv, 1, 0.03);
    long hole = 0, tube = 0;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * dx - 0.5, y = (j + 0.5) * dx - 0.5, z = (k + 0.5) * dx - 0.5;
                double rho = sqrt(x * x + z * z);
                if (rho < 0.15) hole += at(&v, i, j, k); /* the hole: empty */
                if ((rho - 0.3) * (rho - 0.3) + y * y < 0.08 * 0.08) tube += !at(&v, i, j, k);
            }
    CHECK_MSG(hole == 0 && tube == 0, "%ld solid cells in the hole, %ld empty in the tube", hole,
              tube);
    vox_free(&v);
}

static void test_mesh_speed(void)
{
    /* 128³ cells against 100 x 51 → 10 000 triangles */
    int n = 128;
    double dx = 1.0 / n, c[3] = {0.5, 0.5, 0.5};
    write_uv_sphere("big.obj", c, 0.45, 51, 100);
    double t0 = lq_now();
    vox v = run(n, n, n, dx, "obstacles:\n  - mesh: {file: big.obj}\n");
    double t = lq_now() - t0;
    CHECK_OK(v.rc);
    double mv = mesh_volume("big.obj"), vol = count(&v) * dx * dx * dx;
    fprintf(stderr, "128^3 vs 10000 triangles: %.3f s (read, weld, check, fill), volume %.3f %%\n",
            t, 100 * (vol / mv - 1));
    CHECK_NEAR(vol / mv, 1, 0.01);
    CHECK_MSG(t < 3.0, "%.2f s", t);
    vox_free(&v);
}

static void test_mesh_errors(void)
{
    char path[256], prefix[300];
    tmp_path(path, sizeof path, "bad.obj");
    const char *scene = "obstacles:\n  - mesh: {file: bad.obj}\n";
    static const struct {
        int line;
        const char *text, *at, *frag;
    } cases[] = {
        {__LINE__, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1x\nf 1 2 3\n",
         ":4:7: ", "malformed number '1x'"},
        {__LINE__, "v 0 0 0\nv 1 0 0\n\n  v 0 1 0\nf 1 2 3\nf 1 2 -4\n",
         ":6:7: ", "vertex index -4 is out of range (3 vertices so far)"},
        {__LINE__, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n",
         ":4:7: ", "vertex index 4 is out of range"},
        {__LINE__, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n", ":4:5: ", "vertex index 0"},
        {__LINE__, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n",
         ":4:1: ", "a face needs at least 3 vertices, got 2"},
        {__LINE__, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3a\n",
         ":4:7: ", "malformed vertex reference '3a'"},
        {__LINE__, "v 0 0\n", ":1:1: ", "a vertex needs 3 coordinates, got 2"},
        {__LINE__, "v 0 0 0\nbevel on\n", ":2:1: ", "unknown OBJ statement 'bevel'"},
        {__LINE__, "# nothing\nv 0 0 0\nv 1 0 0\n", ": ", "the mesh is empty (no faces)"},
        {__LINE__, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", ": ",
         "the mesh is not closed (3 boundary edges"},
    };
    for (size_t i = 0; i < LQ_COUNT(cases); i++) {
        write_text("bad.obj", "%s", cases[i].text);
        snprintf(prefix, sizeof prefix, "%s%s", path, cases[i].at);
        vox v = run(8, 8, 8, 0.1, scene);
        expect_error(&v, prefix, cases[i].frag, cases[i].line);
        vox_free(&v);
    }
    /* a cube missing one face: 4 boundary edges */
    write_cube("bad.obj", 0.2, 0.6, 0, 3);
    snprintf(prefix, sizeof prefix, "%s: ", path);
    vox v = run(8, 8, 8, 0.1, scene);
    expect_error(&v, prefix,
                 "the mesh is not closed (4 boundary edges, each used by an odd number "
                 "of faces, e.g. between vertices",
                 __LINE__);
    vox_free(&v);
    /* a missing file is refused when the scene loads (a FILE key), and by the reader */
    v = run(8, 8, 8, 0.1, "obstacles:\n  - mesh: {file: gone.obj}\n");
    tmp_path(path, sizeof path, "scene.yaml");
    expect_error(&v, path, "cannot read file", __LINE__);
    vox_free(&v);
    lq_voxel_mesh m;
    tmp_path(path, sizeof path, "gone.obj");
    lq_error_clear();
    CHECK(lq_voxel_mesh_read(path, &m) == LQ_EINPUT && strstr(lq_error_message(), path) &&
          strstr(lq_error_message(), "cannot open"));
    /* scale takes 1 or 3 numbers */
    write_cube("cube.obj", 0.2, 0.6, 0, -1);
    v = run(8, 8, 8, 0.1, "obstacles:\n  - mesh: {file: cube.obj, scale: [1, 2]}\n");
    tmp_path(path, sizeof path, "scene.yaml");
    strcat(path, ":6:");
    expect_error(&v, path, "scale takes 1 number (uniform) or 3", __LINE__);
    vox_free(&v);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lq_voxel_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "cannot make a temporary folder\n");
        return 1;
    }
    test_box();
    test_sphere_cylinder();
    test_terrain();
    test_mask();
    test_mesh_exact();
    test_mesh_volumes();
    test_mesh_speed();
    test_mesh_errors();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    CHECK_DONE();
}
