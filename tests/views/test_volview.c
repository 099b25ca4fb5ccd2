/*
 * test_volview.c — volview.h: previews of synthetic 3D fields whose pixels are known.
 * A ball of liquid shows water-blue at its projected centre and sky at the corners; a
 * block of solid cells between the camera and the ball hides it behind stone; an empty
 * field shows only sky and floor; the camera stays fixed after the first frame; the PNG
 * is written atomically (no stray files) and reads back as the picture. Bad inputs are
 * errors, not crashes. A 2D field (nz 1) is drawn side-on: a half-full tank is water below
 * its surface and sky above it, framed centred with its aspect, with a dark outline, a
 * stone block and an object's cross-section where lq_volview_project puts them, the same
 * bytes twice. The camera's direction (the output.preview_* keys): their defaults give the
 * automatic camera's bytes, another direction another picture with the eye where asked,
 * and out-of-range values fail to load.
 *
 * `test_volview look FILE.png` writes a 960-px picture of a 128³ scene (a ball, a pool,
 * a stone block, an object) to FILE.png and prints the render time.
 *
 * Files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"
#include "scene/scene.h"
#include "views/volview.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

/* Signed distance to a ball of radius r at c (m), at every cell centre of an n³ unit box,
 * united (min) with a pool of depth `pool` (m) on the floor (pool <= 0: none). */
static void fill_ball(float *phi, int n, const double c[3], double r, double pool)
{
    const double dx = 1.0 / n;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * dx - c[0], y = (j + 0.5) * dx - c[1];
                double z = (k + 0.5) * dx - c[2], v = sqrt(x * x + y * y + z * z) - r;
                if (pool > 0) v = fmin(v, (j + 0.5) * dx - pool);
                phi[i + n * (j + n * k)] = (float)v;
            }
}

static const uint8_t *pixel(const lq_volview *p, double px, double py)
{
    int x = (int)px, y = (int)py;
    x = x < 0 ? 0 : x >= p->width ? p->width - 1 : x;
    y = y < 0 ? 0 : y >= p->height ? p->height - 1 : y;
    return p->rgb + 3 * ((size_t)y * p->width + x);
}

static int count_files(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* Colour checks for the 2D map (sRGB bytes). */
static int is_water(const uint8_t *s)
{
    /* the fill: lin3(0.20, 0.50, 0.80) written back as sRGB */
    return abs(s[0] - 51) <= 1 && abs(s[1] - 128) <= 1 && abs(s[2] - 204) <= 1;
}

static int is_sky(const uint8_t *s)
{
    return s[0] >= 110 && s[2] > s[0] && s[2] >= 200;
}

/* 2D (nz == 1): a half-full tank seen side-on. 34 × 20 cells of 0.05 m; the outer layer
 * is the wall (air, as the mac solver's view gives it); the surface is at y = 0.5, the
 * middle of the interior y 0.05..0.95. A solid block (cells 24..27 × 1..4, x 1.2..1.4,
 * y 0.05..0.25) sits in the water and a red box object hangs in the air. */
static int test_flat(void)
{
    const int nx = 34, ny = 20;
    const double origin[3] = {0, 0, -0.025}, spacing[3] = {0.05, 0.05, 0.05};
    const double ilo[2] = {0.05, 0.05}, ihi[2] = {1.65, 0.95};
    float phi[34 * 20], dens[34 * 20];
    uint8_t solid[34 * 20] = {0};
    lq_view_object ob = {.shape = LQ_SHAPE_BOX,
                         .half = {0.1, 0.08, 0.2},
                         .pos = {0.4, 0.75, 0.0},
                         .rot = {1, 0, 0, 0, 1, 0, 0, 0, 1},
                         .rgb = {0.9f, 0.1f, 0.1f}};
    lq_volview p, q;
    double pa[2], pb[2], pc[2];
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int wall = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
            phi[i + nx * j] = wall ? 0.05f : (float)((j + 0.5) * 0.05 - 0.5);
            dens[i + nx * j] = wall || j >= 10 ? 0.5f : -0.5f; /* 0.5 − marker fill */
            solid[i + nx * j] = i >= 24 && i < 28 && j >= 1 && j < 5;
        }
    CHECK_OK(lq_volview_init(&p, nx, ny, 1, origin, spacing, 320));
    CHECK(p.height == 180);
    CHECK_OK(lq_volview_render(&p, tmp_path("flat.png"), phi, solid, &ob, 1));
    lq_volview_camera cam = p.cam;
    CHECK(cam.fwd[0] == 0 && cam.fwd[1] == 0 && cam.fwd[2] == -1);

    /* Framing: the interior (1.6 × 0.9 m) is centred, keeps its aspect, and fills the
     * height up to a small margin (it is wider than 16:9 only by a hair: 1.78 vs 1.78). */
    const double wlo[3] = {ilo[0], ilo[1], 0}, whi[3] = {ihi[0], ihi[1], 0};
    const double wmid[3] = {0.85, 0.5, 0};
    CHECK(lq_volview_project(&p, wlo, pa) == 0 && lq_volview_project(&p, whi, pb) == 0);
    CHECK(lq_volview_project(&p, wmid, pc) == 0);
    double sx = pb[0] - pa[0], sy = pa[1] - pb[1]; /* y up: row numbers fall */
    fprintf(stderr, "2D interior: %.2f x %.2f px of %d x %d, centre %.2f %.2f\n", sx, sy, p.width,
            p.height, pc[0], pc[1]);
    CHECK(fabs(pc[0] - 0.5 * p.width) < 1e-6 && fabs(pc[1] - 0.5 * p.height) < 1e-6);
    CHECK(fabs(sx / sy - 1.6 / 0.9) < 1e-6);
    CHECK(pa[0] > 0 && pb[0] < p.width && pb[1] > 0 && pa[1] < p.height);
    CHECK(sx >= 0.93 * p.width || sy >= 0.89 * p.height);
    double mpp = 1.6 / sx; /* m per px */

    /* Every sample of the interior 4+ px from the surface, the block and the object:
     * water below y = 0.5, sky above; for the distance field and the marker density. */
    for (int pass = 0; pass < 2; pass++) {
        const float *f = pass ? dens : phi;
        int nw = 0, ns = 0, bad = 0;
        if (pass) CHECK_OK(lq_volview_render(&p, tmp_path("flat_d.png"), f, solid, &ob, 1));
        for (int a = 0; a <= 40; a++)
            for (int b = 0; b <= 24; b++) {
                double w[3] = {ilo[0] + (ihi[0] - ilo[0]) * a / 40.0,
                               ilo[1] + (ihi[1] - ilo[1]) * b / 24.0, 0},
                       px[2];
                double m = 4 * mpp;
                if (fabs(w[1] - 0.5) < m || w[0] < ilo[0] + m || w[0] > ihi[0] - m ||
                    w[1] < ilo[1] + m || w[1] > ihi[1] - m)
                    continue;
                if (w[0] > 1.2 - m && w[0] < 1.4 + m && w[1] < 0.25 + m) continue;
                if (fabs(w[0] - 0.4) < 0.1 + m && fabs(w[1] - 0.75) < 0.08 + m) continue;
                CHECK(lq_volview_project(&p, w, px) == 0);
                const uint8_t *s = pixel(&p, px[0], px[1]);
                if (w[1] < 0.5) {
                    nw++;
                    bad += !is_water(s);
                } else {
                    ns++;
                    bad += !is_sky(s);
                }
            }
        CHECK_MSG(bad == 0 && nw > 200 && ns > 200,
                  "2D tank (pass %d): %d wrong of %d water + %d sky samples", pass, bad, nw, ns);
    }
    CHECK(memcmp(&cam, &p.cam, sizeof cam) == 0);

    /* The outline: the pixel just under the surface is darker than the water. */
    {
        const double w[3] = {0.85, 0.5 - 0.6 * mpp, 0};
        double px[2];
        CHECK(lq_volview_project(&p, w, px) == 0);
        const uint8_t *s = pixel(&p, px[0], px[1]);
        CHECK_MSG(s[2] < 204 - 60 && s[0] < 51, "no dark outline at the surface: %d %d %d", s[0],
                  s[1], s[2]);
    }
    /* Stone grey in the block, the object's red at its centre, sky in the letterbox. */
    {
        const double wb[3] = {1.3, 0.15, 0}, wo[3] = {0.4, 0.75, 0};
        double px[2];
        CHECK(lq_volview_project(&p, wb, px) == 0);
        const uint8_t *s = pixel(&p, px[0], px[1]);
        CHECK_MSG(abs(s[0] - s[2]) < 20 && abs(s[1] - s[2]) < 20 && s[0] > 120 && s[0] < 220,
                  "block is not stone-grey: %d %d %d", s[0], s[1], s[2]);
        CHECK(lq_volview_project(&p, wo, px) == 0);
        s = pixel(&p, px[0], px[1]);
        CHECK_MSG(s[0] > 230 && s[1] < 100 && s[2] < 100, "object is not red: %d %d %d", s[0], s[1],
                  s[2]);
        CHECK(is_sky(pixel(&p, 0, 0)) && is_sky(pixel(&p, p.width - 1, 0)));
        /* The block's left face (x = 1.2, 63 px right of the centre) is where
         * lq_volview_project puts it: water 1 px left of it, stone 2.5 px right (past
         * the ~1.5 px joint). */
        const double we[3] = {1.2, 0.15, 0};
        CHECK(lq_volview_project(&p, we, px) == 0);
        CHECK(is_water(pixel(&p, px[0] - 1, px[1])));
        s = pixel(&p, px[0] + 2.5, px[1]);
        CHECK_MSG(abs(s[0] - s[2]) < 20 && s[0] > 120, "no stone right of the block's face");
    }
    /* Deterministic: a fresh preview of the same frame gives the same bytes; without
     * solids or objects the block and the object's places are water and sky. */
    {
        uint8_t *a = NULL, *b = NULL;
        int w1 = 0, h1 = 0, w2 = 0, h2 = 0;
        CHECK_OK(lq_volview_render(&p, tmp_path("flat2.png"), phi, solid, &ob, 1));
        CHECK_OK(lq_volview_init(&q, nx, ny, 1, origin, spacing, 320));
        CHECK_OK(lq_volview_render(&q, tmp_path("flat3.png"), phi, solid, &ob, 1));
        CHECK(memcmp(p.rgb, q.rgb, (size_t)p.width * p.height * 3) == 0);
        CHECK_OK(lq_png_read_rgb(tmp_path("flat.png"), &w1, &h1, &a));
        CHECK_OK(lq_png_read_rgb(tmp_path("flat3.png"), &w2, &h2, &b));
        CHECK(a && b && w1 == w2 && h1 == h2 && memcmp(a, b, (size_t)w1 * h1 * 3) == 0);
        free(a);
        free(b);
        CHECK_OK(lq_volview_render(&q, tmp_path("flat4.png"), phi, NULL, NULL, 0));
        const double wb[3] = {1.3, 0.15, 0}, wo[3] = {0.4, 0.75, 0};
        double px[2];
        CHECK(lq_volview_project(&q, wb, px) == 0 && is_water(pixel(&q, px[0], px[1])));
        CHECK(lq_volview_project(&q, wo, px) == 0 && is_sky(pixel(&q, px[0], px[1])));
        lq_volview_free(&q);
    }
    lq_volview_free(&p);
    {
        const char *names[] = {"flat.png", "flat_d.png", "flat2.png", "flat3.png", "flat4.png"};
        for (size_t k = 0; k < LQ_COUNT(names); k++) unlink(tmp_path(names[k]));
    }
    return 0;
}

/* Default of a FLOAT row of the key table (NAN when missing), its range in *lo, *hi. */
static double key_default(const char *path, double *lo, double *hi)
{
    for (const lq_key *k = lq_scene_keys; k->path; k++)
        if (strcmp(k->path, path) == 0 && k->type == LQ_KEY_FLOAT && k->def) {
            *lo = k->min;
            *hi = k->max;
            return strtod(k->def, NULL);
        }
    return NAN;
}

/* 1 when a mac scene with `output: {KEY: VALUE}` loads. */
static int scene_loads(const char *key_value)
{
    const char *path = tmp_path("camera.yaml");
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "solver: mac\ngrid: {size: [4, 4, 4], cell: 1}\noutput: {%s}\n", key_value);
    fclose(f);
    lq_scene *s = lq_scene_load(path, 0, NULL);
    unlink(path);
    lq_error_clear();
    if (s) lq_scene_free(s);
    return s != NULL;
}

static void test_camera_keys(int n, const double origin[3], const double spacing[3],
                             const float *ball, const uint8_t *auto_rgb)
{
    const char *keys[3] = {"output.preview_azimuth", "output.preview_elevation",
                           "output.preview_distance"};
    double def[3], lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        def[k] = key_default(keys[k], &lo[k], &hi[k]);
        CHECK_MSG(isfinite(def[k]), "no FLOAT row %s with a default", keys[k]);
    }
    CHECK(lo[1] >= 0 && hi[1] < 90); /* the view direction never turns vertical */
    CHECK(lo[2] > 0);
    /* the keys' defaults, set explicitly: the automatic camera's bytes */
    lq_volview q;
    CHECK_OK(lq_volview_init(&q, n, n, n, origin, spacing, 320));
    CHECK(q.azimuth == 32 && q.elevation == 33 && q.distance == 1);
    q.azimuth = def[0];
    q.elevation = def[1];
    q.distance = def[2];
    q.phi_is_distance = 1;
    CHECK_OK(lq_volview_render(&q, tmp_path("cam.png"), ball, NULL, NULL, 0));
    const size_t bytes = (size_t)q.width * q.height * 3;
    CHECK_MSG(auto_rgb && memcmp(q.rgb, auto_rgb, bytes) == 0,
              "the default camera keys do not give the automatic picture");
    uint8_t *def_rgb = malloc(bytes);
    if (def_rgb) memcpy(def_rgb, q.rgb, bytes);
    lq_volview_free(&q);
    /* another azimuth, lower, nearer: another picture, the ball still at its projection */
    CHECK_OK(lq_volview_init(&q, n, n, n, origin, spacing, 320));
    q.azimuth = -60;
    q.elevation = 10;
    q.distance = 0.7;
    q.phi_is_distance = 1;
    CHECK_OK(lq_volview_render(&q, tmp_path("cam.png"), ball, NULL, NULL, 0));
    size_t differ = 0;
    for (size_t b = 0; def_rgb && b < bytes; b++) differ += q.rgb[b] != def_rgb[b];
    CHECK_MSG(differ > bytes / 10, "azimuth -60 changed only %zu of %zu bytes", differ, bytes);
    /* the eye lies in that direction from the box centre (azimuth from +z towards -x) */
    double d[3] = {q.cam.eye[0] - 0.5, q.cam.eye[1] - 0.5, q.cam.eye[2] - 0.5};
    double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    CHECK_NEAR(asin(d[1] / r) * 180 / LQ_PI, 10, 1e-9);
    CHECK_NEAR(atan2(-d[0], d[2]) * 180 / LQ_PI, -60, 1e-9);
    CHECK_NEAR(r, 0.7 * 2.6 * sqrt(0.75), 1e-9);
    const double c[3] = {0.5, 0.5, 0.5};
    double ctr[2];
    CHECK(lq_volview_project(&q, c, ctr) == 0);
    const uint8_t *s = pixel(&q, ctr[0], ctr[1]);
    CHECK_MSG(s[2] > s[0] + 40 && s[2] >= s[1],
              "not water-blue at the ball's centre seen from azimuth -60: %d %d %d", s[0], s[1],
              s[2]);
    lq_volview_free(&q);
    unlink(tmp_path("cam.png"));
    free(def_rgb);
    /* the table's ranges reach the loader */
    CHECK(scene_loads("preview_azimuth: -120, preview_elevation: 5, preview_distance: 2") == 1);
    CHECK(scene_loads("preview_azimuth: 400") == 0);
    CHECK(scene_loads("preview_elevation: 90") == 0);
    CHECK(scene_loads("preview_elevation: -5") == 0);
    CHECK(scene_loads("preview_distance: 0.1") == 0);
}

static int look(const char *path)
{
    const int n = 128;
    const double origin[3] = {0, 0, 0}, spacing[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    const double c[3] = {0.45, 0.55, 0.5};
    float *phi = malloc((size_t)n * n * n * sizeof *phi);
    uint8_t *solid = calloc((size_t)n * n * n, 1);
    lq_volview p;
    lq_view_object ob = {.shape = LQ_SHAPE_SPHERE,
                         .half = {0.08, 0.08, 0.08},
                         .pos = {0.78, 0.2, 0.3},
                         .rot = {1, 0, 0, 0, 1, 0, 0, 0, 1},
                         .rgb = {0.8, 0.25, 0.15}};
    if (!phi || !solid) return 1;
    fill_ball(phi, n, c, 0.2, 0.12);
    for (int k = 90; k < 120; k++)
        for (int j = 0; j < 40; j++)
            for (int i = 8; i < 40; i++) solid[i + n * (j + n * k)] = 1;
    CHECK_OK(lq_volview_init(&p, n, n, n, origin, spacing, 960));
    p.phi_is_distance = 1;
    double t = lq_now();
    CHECK_OK(lq_volview_render(&p, path, phi, solid, &ob, 1));
    fprintf(stderr, "%dx%d frame of a %d^3 field (distance): %.2f s\n", p.width, p.height, n,
            lq_now() - t);
    /* The same field as a non-distance (half-cell steps), as a marker density would be. */
    p.phi_is_distance = 0;
    t = lq_now();
    CHECK_OK(lq_volview_render(&p, path, phi, solid, &ob, 1));
    fprintf(stderr, "%dx%d frame of a %d^3 field (half-cell steps): %.2f s\n", p.width, p.height, n,
            lq_now() - t);
    lq_volview_free(&p);
    free(phi);
    free(solid);
    CHECK_DONE();
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "look") == 0) return look(argv[2]);
    const int n = 48;
    const size_t cells = (size_t)n * n * n;
    const double origin[3] = {0, 0, 0}, spacing[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    const double c[3] = {0.5, 0.5, 0.5};
    float *ball = malloc(cells * sizeof *ball), *empty = malloc(cells * sizeof *empty);
    uint8_t *solid = calloc(cells, 1), *back = NULL, *sky = NULL, *ball_rgb = NULL;
    lq_volview p;
    int w = 0, h = 0;
    double ctr[2];

    snprintf(dir, sizeof dir, "/tmp/lq_volview_XXXXXX");
    if (!mkdtemp(dir) || !ball || !empty || !solid) {
        fprintf(stderr, "cannot set up\n");
        return 1;
    }
    fill_ball(ball, n, c, 0.22, 0);
    for (size_t q = 0; q < cells; q++) empty[q] = 1.0f / n;
    CHECK_OK(lq_volview_init(&p, n, n, n, origin, spacing, 320));
    CHECK(p.height == 180);
    CHECK(lq_volview_project(&p, c, ctr) == -1); /* no camera yet */

    /* A ball of liquid: water at its projected centre, sky in the corners. */
    p.phi_is_distance = 1;
    CHECK_OK(lq_volview_render(&p, tmp_path("ball.png"), ball, NULL, NULL, 0));
    lq_volview_camera cam = p.cam;
    CHECK(lq_volview_project(&p, c, ctr) == 0);
    CHECK(ctr[0] > 0 && ctr[0] < p.width && ctr[1] > 0 && ctr[1] < p.height);
    uint8_t wat[3];
    memcpy(wat, pixel(&p, ctr[0], ctr[1]), 3);
    CHECK_MSG(wat[2] > wat[0] + 40 && wat[2] >= wat[1], "not water-blue at the centre: %d %d %d",
              wat[0], wat[1], wat[2]);
    ball_rgb = malloc((size_t)p.width * p.height * 3);
    if (ball_rgb) memcpy(ball_rgb, p.rgb, (size_t)p.width * p.height * 3);
    const double corners[4][2] = {
        {0, 0}, {p.width - 1, 0}, {0, p.height - 1}, {p.width - 1, p.height - 1}};
    for (int k = 0; k < 4; k++) {
        const uint8_t *s = pixel(&p, corners[k][0], corners[k][1]);
        CHECK_MSG(s[2] > s[0] && s[2] > 180 && s[1] > s[0], "corner %d is not sky: %d %d %d", k,
                  s[0], s[1], s[2]);
    }
    /* Atomic write: exactly the one file, and it reads back as the picture. */
    CHECK(count_files() == 1);
    CHECK_OK(lq_png_read_rgb(tmp_path("ball.png"), &w, &h, &back));
    CHECK(w == p.width && h == p.height);
    CHECK(back && memcmp(back, p.rgb, (size_t)w * h * 3) == 0);

    /* A solid block between the camera and the ball hides it behind grey stone. */
    double u[3], m[3];
    for (int a = 0; a < 3; a++) u[a] = cam.eye[a] - c[a];
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int a = 0; a < 3; a++) m[a] = c[a] + 0.36 * u[a] / ul;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) / n, y = (j + 0.5) / n, z = (k + 0.5) / n;
                if (fabs(x - m[0]) < 0.1 && fabs(y - m[1]) < 0.1 && fabs(z - m[2]) < 0.1)
                    solid[i + n * (j + n * k)] = 1;
            }
    CHECK_OK(lq_volview_render(&p, tmp_path("block.png"), ball, solid, NULL, 0));
    const uint8_t *st = pixel(&p, ctr[0], ctr[1]);
    CHECK_MSG(abs(st[0] - st[2]) < 30 && abs(st[1] - st[2]) < 30 && st[0] > 40,
              "not stone-grey in front of the ball: %d %d %d", st[0], st[1], st[2]);
    CHECK(abs(st[0] - wat[0]) + abs(st[1] - wat[1]) + abs(st[2] - wat[2]) > 40);
    CHECK(memcmp(&cam, &p.cam, sizeof cam) == 0);

    /* An empty field: only sky and floor; no pixel is water-blue beyond the sky's tint,
     * the floor's centre is a neutral checker, the ball's centre (the line of sight
     * through it passes beyond the floor) and the corners are sky. */
    CHECK_OK(lq_volview_render(&p, tmp_path("empty.png"), empty, NULL, NULL, 0));
    CHECK(memcmp(&cam, &p.cam, sizeof cam) == 0);
    const double floor_c[3] = {0.5, 0, 0.5};
    double fpx[2];
    CHECK(lq_volview_project(&p, floor_c, fpx) == 0);
    const uint8_t *fl = pixel(&p, fpx[0], fpx[1]);
    CHECK_MSG(abs(fl[0] - fl[2]) < 30 && fl[0] > 60, "floor of the empty frame: %d %d %d", fl[0],
              fl[1], fl[2]);
    fl = pixel(&p, ctr[0], ctr[1]);
    CHECK_MSG(fl[2] > 200 && fl[2] > fl[0], "not sky behind the ball: %d %d %d", fl[0], fl[1],
              fl[2]);
    for (int k = 0; k < 4; k++) {
        const uint8_t *s = pixel(&p, corners[k][0], corners[k][1]);
        const uint8_t *b =
            ball_rgb ? ball_rgb + 3 * ((size_t)corners[k][1] * p.width + (size_t)corners[k][0]) : s;
        CHECK(memcmp(s, b, 3) == 0);
    }
    {
        /* Sky or floor only: every pixel is either the background gradient (blue above
         * red) or near-neutral floor. Water would be strongly blue and dark. */
        int bad = 0;
        for (size_t q = 0; q < (size_t)p.width * p.height; q++) {
            const uint8_t *s = p.rgb + 3 * q;
            if (s[2] > s[0] + 40 && s[2] < 170) bad++;
        }
        CHECK_MSG(bad == 0, "%d water-like pixels in an empty frame", bad);
    }
    sky = malloc((size_t)p.width * p.height * 3);
    if (sky) memcpy(sky, p.rgb, (size_t)p.width * p.height * 3);
    /* The ball frame differs from the empty one where the ball is. */
    CHECK(ball_rgb && memcmp(pixel(&p, ctr[0], ctr[1]),
                             ball_rgb + 3 * ((size_t)ctr[1] * p.width + (size_t)ctr[0]), 3) != 0);

    /* A non-distance field (a marker density passed as 0.5 − ρ) draws the same ball. */
    p.phi_is_distance = 0;
    for (size_t q = 0; q < cells; q++) empty[q] = ball[q] < 0 ? -0.5f : 0.5f;
    CHECK_OK(lq_volview_render(&p, tmp_path("density.png"), empty, NULL, NULL, 0));
    memcpy(wat, pixel(&p, ctr[0], ctr[1]), 3);
    CHECK_MSG(wat[2] > wat[0] + 40, "density ball not water-blue: %d %d %d", wat[0], wat[1],
              wat[2]);
    CHECK(memcmp(&cam, &p.cam, sizeof cam) == 0);

    /* Deterministic: the same frame twice gives the same bytes. */
    CHECK_OK(lq_volview_render(&p, tmp_path("density2.png"), empty, NULL, NULL, 0));
    {
        uint8_t *a = NULL, *b = NULL;
        int w1, h1, w2, h2;
        CHECK_OK(lq_png_read_rgb(tmp_path("density.png"), &w1, &h1, &a));
        CHECK_OK(lq_png_read_rgb(tmp_path("density2.png"), &w2, &h2, &b));
        CHECK(a && b && memcmp(a, b, (size_t)w1 * h1 * 3) == 0);
        free(a);
        free(b);
    }
    CHECK(count_files() == 5);

    /* The camera keys: their defaults are the automatic camera (the same bytes as the
     * ball above), another azimuth is another picture, and the table rejects values out
     * of range. */
    test_camera_keys(n, origin, spacing, ball, ball_rgb);

    /* Non-finite phi is air; bad inputs are errors. */
    for (size_t q = 0; q < cells; q++) empty[q] = q % 3 ? NAN : INFINITY;
    CHECK_OK(lq_volview_render(&p, tmp_path("nan.png"), empty, NULL, NULL, 0));
    CHECK(sky && memcmp(p.rgb, sky, (size_t)p.width * p.height * 3) == 0);
    lq_view_object bad = {.shape = 7};
    CHECK(lq_volview_render(&p, tmp_path("x.png"), ball, NULL, &bad, 1) != LQ_OK);
    CHECK(lq_volview_render(&p, tmp_path("x.png"), NULL, NULL, NULL, 0) != LQ_OK);
    CHECK(lq_volview_render(&p, "/nonexistent_dir/x.png", ball, NULL, NULL, 0) != LQ_OK);
    CHECK(count_files() == 6);
    lq_error_clear();
    lq_volview_free(&p);
    lq_volview q;
    CHECK(lq_volview_init(&q, 0, 4, 4, origin, spacing, 320) != LQ_OK);
    CHECK(lq_volview_init(&q, 4, 4, 4, origin, spacing, 8) != LQ_OK);
    lq_error_clear();

    /* 2D runs: a flat side-on map (its own files, removed again). */
    test_flat();
    CHECK(count_files() == 6);

    /* Clean up the folder. */
    {
        const char *names[] = {"ball.png",    "block.png",    "empty.png",
                               "density.png", "density2.png", "nan.png"};
        for (size_t k = 0; k < LQ_COUNT(names); k++) unlink(tmp_path(names[k]));
        rmdir(dir);
    }
    free(ball);
    free(empty);
    free(solid);
    free(back);
    free(sky);
    free(ball_rgb);
    CHECK_DONE();
}
