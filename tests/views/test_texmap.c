/*
 * test_texmap.c — texmap.h, the texture particles' rest coordinate on the surface:
 *  1. the nearest-particle search gives the brute force's set, nearest first (k = 1, 8,
 *     64, 257; queries inside, on the edge of and outside the binned box); with a reach,
 *     only those within it (none: rest = q);
 *  2. the interpolation reproduces an affine rest field: particles on a sphere with rest
 *     = x − T (a rigid translation) and rest = R x + T (a rotation about an axis, then a
 *     translation), queried on the sphere (radius 6 h, 16 particles per h², h the cell):
 *     within 0.05 h (measured 0.02 h: the fit's λ term cannot follow the sphere's
 *     curvature along its normal); a constant rest field gives that constant; no
 *     particles: rest = q;
 *  3. the mesh with per-vertex attributes is written and read back (io.h): x y z nx ny nz
 *     rest_x rest_y rest_z s t, rest = vertex − T on a translated sphere within 0.05 h
 *     (measured 0.03 h),
 *     s t = the rest coordinate across the domain;
 *  4. the style: the checker's two colours alternate across a cell edge in rest space, s t
 *     span the domain in the chosen plane; an image is looked up at (s, t), t = 1 its top
 *     row, repeated; a missing one is LQ_EINPUT;
 *  5. the preview (volview.h) paints a textured ball in the checker's colours for one
 *     picture (lq_volview_texture), and not without it.
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"
#include "views/texmap.h"
#include "views/volview.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double H = 0.05; /* m, the cell */

typedef struct cloud {
    int n;
    float *c[6];
} cloud;

static void cloud_alloc(cloud *p, int n)
{
    p->n = n;
    for (int i = 0; i < 6; i++) p->c[i] = calloc((size_t)n, sizeof(float));
}

static void cloud_free(cloud *p)
{
    for (int i = 0; i < 6; i++) free(p->c[i]);
}

/* n points spread evenly over the sphere |x − c| = r (a Fibonacci lattice), rest = x. */
static void cloud_sphere(cloud *p, int n, const double c[3], double r)
{
    cloud_alloc(p, n);
    const double ga = LQ_PI * (3 - sqrt(5.0));
    for (int i = 0; i < n; i++) {
        double y = 1 - 2 * (i + 0.5) / n, rr = sqrt(1 - y * y), th = ga * i;
        double x[3] = {c[0] + r * rr * cos(th), c[1] + r * y, c[2] + r * rr * sin(th)};
        for (int a = 0; a < 3; a++) p->c[a][i] = p->c[3 + a][i] = (float)x[a];
    }
}

/* --- 1. nearest ------------------------------------------------------------------------- */

static void test_nearest(void)
{
    lq_rng r;
    lq_rng_seed(&r, 11);
    cloud p;
    cloud_alloc(&p, 3000);
    for (int i = 0; i < p.n; i++)
        for (int a = 0; a < 3; a++) p.c[a][i] = p.c[3 + a][i] = (float)lq_rng_uniform(&r);
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    lq_texmap t;
    CHECK_OK(lq_texmap_build(&t, p.n, (const float *const *)p.c, lo, hi, 0.07, 64, INFINITY));
    int ks[] = {1, 8, 64, 257}, bad = 0;
    static int idx[LQ_TEXMAP_MAX_K + 1];
    static double d2[LQ_TEXMAP_MAX_K + 1], all[3000];
    for (int qn = 0; qn < 40; qn++) {
        double q[3];
        for (int a = 0; a < 3; a++) q[a] = 1.4 * lq_rng_uniform(&r) - 0.2; /* some outside */
        for (int i = 0; i < p.n; i++) {
            const float *x = t.p + (size_t)i * 6;
            double e = 0;
            for (int a = 0; a < 3; a++) e += (x[a] - q[a]) * (x[a] - q[a]);
            all[i] = e;
        }
        for (size_t kk = 0; kk < LQ_COUNT(ks); kk++) {
            int k = ks[kk], got = lq_texmap_nearest(&t, q, k, idx, d2);
            CHECK(got == k);
            for (int i = 0; i < got; i++) { /* the distances match and ascend */
                bad += d2[i] != all[idx[i]];
                if (i) bad += d2[i] < d2[i - 1];
            }
            int closer = 0; /* nothing left out is nearer than the k-th */
            for (int i = 0; i < p.n; i++) closer += all[i] < d2[got - 1];
            bad += closer > got - 1;
        }
    }
    CHECK_MSG(bad == 0, "%d mismatches with the brute force", bad);
    fprintf(stderr, "nearest: 40 queries × k = 1, 8, 64, 257 match the brute force\n");
    lq_texmap_free(&t);
    lq_texmap_free(&t); /* twice: safe */
    /* a reach of 0.1 m: only those within it, the nearest of them */
    CHECK_OK(lq_texmap_build(&t, p.n, (const float *const *)p.c, lo, hi, 0.07, 64, 0.1));
    for (int qn = 0; qn < 40; qn++) {
        double q[3];
        for (int a = 0; a < 3; a++) q[a] = 1.4 * lq_rng_uniform(&r) - 0.2;
        int within = 0;
        for (int i = 0; i < p.n; i++) {
            const float *x = t.p + (size_t)i * 6;
            double e = 0;
            for (int a = 0; a < 3; a++) e += (x[a] - q[a]) * (x[a] - q[a]);
            within += e <= 0.01;
        }
        int got = lq_texmap_nearest(&t, q, 64, idx, d2);
        bad += got != LQ_MIN(within, 64) || (got > 0 && d2[got - 1] > 0.01);
        double rest[3];
        if (within == 0) bad += lq_texmap_rest(&t, q, rest) != 0 || rest[0] != q[0];
    }
    CHECK_MSG(bad == 0, "%d mismatches with a reach", bad);
    lq_texmap_free(&t);
    cloud_free(&p);
}

/* --- 2. affine fields ------------------------------------------------------------------- */

/* Max |lq_texmap_rest(q) − want(q)| over queries on the sphere, want = A q + b. */
static double affine_error(const cloud *p, const double A[3][3], const double b[3],
                           const double c[3], double r, int k)
{
    cloud q = *p;
    float *rest[3];
    for (int a = 0; a < 3; a++) rest[a] = malloc((size_t)p->n * sizeof(float));
    for (int i = 0; i < p->n; i++)
        for (int a = 0; a < 3; a++) {
            double v = b[a];
            for (int e = 0; e < 3; e++) v += A[a][e] * p->c[e][i];
            rest[a][i] = (float)v;
        }
    for (int a = 0; a < 3; a++) q.c[3 + a] = rest[a];
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    lq_texmap t;
    CHECK_OK(lq_texmap_build(&t, q.n, (const float *const *)q.c, lo, hi, H, k, INFINITY));
    double worst = 0;
    lq_rng g;
    lq_rng_seed(&g, 3);
    for (int s = 0; s < 500; s++) {
        double u = 2 * lq_rng_uniform(&g) - 1, ph = 2 * LQ_PI * lq_rng_uniform(&g);
        double rr = sqrt(1 - u * u),
               x[3] = {c[0] + r * rr * cos(ph), c[1] + r * u, c[2] + r * rr * sin(ph)}, got[3];
        CHECK(lq_texmap_rest(&t, x, got) == LQ_MIN(k, p->n));
        for (int a = 0; a < 3; a++) {
            double want = b[a];
            for (int e = 0; e < 3; e++) want += A[a][e] * x[e];
            worst = fmax(worst, fabs(got[a] - want));
        }
    }
    lq_texmap_free(&t);
    for (int a = 0; a < 3; a++) free(rest[a]);
    return worst;
}

static void test_affine(void)
{
    const double c[3] = {0.5, 0.45, 0.55}, R = 0.3;
    cloud p;
    /* 16 particles per h² of surface, as pls.texture's defaults give a flat surface */
    int n = (int)(4 * LQ_PI * R * R / (H * H) * 16);
    cloud_sphere(&p, n, c, R);
    const double I[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, T[3] = {-0.12, 0.31, 0.05};
    double e_tr = affine_error(&p, I, T, c, R, 64);
    double an = 0.7, Rot[3][3] = {{cos(an), 0, sin(an)}, {0, 1, 0}, {-sin(an), 0, cos(an)}};
    double e_rot = affine_error(&p, Rot, T, c, R, 64);
    const double Z[3][3] = {{0}};
    double e_const = affine_error(&p, Z, T, c, R, 64);
    double e_k8 = affine_error(&p, I, T, c, R, 8);
    fprintf(stderr,
            "affine rest fields on a sphere (%d particles, R = %.0f h): translation %.2g h, "
            "rotation %.2g h, constant %.2g h, translation with k = 8 %.2g h\n",
            n, R / H, e_tr / H, e_rot / H, e_const / H, e_k8 / H);
    CHECK(e_tr < 0.05 * H);
    CHECK(e_rot < 0.05 * H);
    CHECK(e_const < 1e-6);
    CHECK(e_k8 < 0.05 * H);
    /* no particles: rest = q */
    lq_texmap t;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, q[3] = {0.2, 0.3, 0.4};
    double got[3];
    CHECK_OK(lq_texmap_build(&t, 0, (const float *const *)p.c, lo, hi, H, 64, INFINITY));
    CHECK(lq_texmap_rest(&t, q, got) == 0 && got[0] == q[0] && got[1] == q[1] && got[2] == q[2]);
    lq_texmap_free(&t);
    cloud_free(&p);
}

/* --- 3. the mesh, written and read back ------------------------------------------------- */

static void test_mesh(void)
{
    const int n = 24;
    const double c[3] = {0.5, 0.6, 0.55}, R = 0.3, T[3] = {0.1, -0.05, 0.2};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1.2 / n, 1.2 / n, 1.2 / n};
    float *phi = malloc((size_t)n * n * n * sizeof *phi);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * spacing[0] - c[0], y = (j + 0.5) * spacing[1] - c[1],
                       z = (k + 0.5) * spacing[2] - c[2];
                phi[i + n * (j + n * k)] = (float)(sqrt(x * x + y * y + z * z) - R);
            }
    cloud p;
    int np = (int)(4 * LQ_PI * R * R / (spacing[0] * spacing[0]) * 16);
    cloud_sphere(&p, np, c, R);
    for (int i = 0; i < p.n; i++)
        for (int a = 0; a < 3; a++) p.c[3 + a][i] = (float)(p.c[a][i] - T[a]);
    const double hi[3] = {1.2, 1.2, 1.2};
    lq_texmap t;
    CHECK_OK(
        lq_texmap_build(&t, p.n, (const float *const *)p.c, origin, hi, spacing[0], 64, INFINITY));
    lq_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.pls.texture.plane = LQ_CONFIG_TEXTURE_XZ;
    lq_texmap_style st;
    CHECK_OK(lq_texmap_style_init(&st, &cfg, origin, hi));
    char path[64];
    snprintf(path, sizeof path, "/tmp/lq_texmap_%d.ply", (int)getpid());
    CHECK_OK(lq_texmap_write_mesh(path, n, n, n, origin, spacing, phi, &t, &st));
    lq_ply ply;
    CHECK_OK(lq_ply_read(path, &ply));
    unlink(path);
    const char *want[11] = {"x",      "y",      "z",      "nx", "ny", "nz",
                            "rest_x", "rest_y", "rest_z", "s",  "t"};
    CHECK(ply.nprops == 11 && ply.nverts > 1000 && ply.ntris > 2000);
    for (int i = 0; i < 11 && i < ply.nprops; i++) CHECK(strcmp(ply.names[i], want[i]) == 0);
    double worst = 0, worst_st = 0;
    for (int v = 0; v < ply.nverts && ply.nprops == 11; v++) {
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(ply.columns[6 + a][v] - (ply.columns[a][v] - T[a])));
        worst_st = fmax(worst_st, fabs(ply.columns[9][v] - ply.columns[6][v] / 1.2));
        worst_st = fmax(worst_st, fabs(ply.columns[10][v] - ply.columns[8][v] / 1.2));
    }
    fprintf(stderr,
            "mesh: %d vertices read back with rest_x rest_y rest_z s t; max |rest - (x - T)| = "
            "%.2g h, max |s t - rest / L| = %.2g\n",
            ply.nverts, worst / spacing[0], worst_st);
    CHECK(worst < 0.05 * spacing[0]);
    CHECK(worst_st < 1e-6);
    lq_ply_free(&ply);
    lq_texmap_style_free(&st);
    lq_texmap_free(&t);
    cloud_free(&p);
    free(phi);
}

/* --- 4. style ------------------------------------------------------------------------------ */

static void test_style(void)
{
    lq_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.pls.texture.checker = 0.1;
    cfg.pls.texture.plane = LQ_CONFIG_TEXTURE_YZ;
    const double lo[3] = {-1, 0, 2}, hi[3] = {1, 2, 6};
    lq_texmap_style s;
    CHECK_OK(lq_texmap_style_init(&s, &cfg, lo, hi));
    double a[3], b[3], c[3], st[2];
    const double r0[3] = {0.05, 0.05, 0.05}, r1[3] = {0.15, 0.05, 0.05},
                 r2[3] = {0.15, -0.05, 0.05};
    lq_texmap_albedo(&s, r0, a);
    lq_texmap_albedo(&s, r1, b);
    lq_texmap_albedo(&s, r2, c);
    CHECK(memcmp(a, b, sizeof a) != 0 && memcmp(a, c, sizeof a) == 0);
    const double rq[3] = {0.3, 1.5, 5};
    lq_texmap_st(&s, rq, st);
    CHECK_NEAR(st[0], 0.75, 1e-12);
    CHECK_NEAR(st[1], 0.75, 1e-12);
    lq_texmap_style_free(&s);
    /* the automatic checker: 1/16 of the longest edge */
    cfg.pls.texture.checker = 0;
    CHECK_OK(lq_texmap_style_init(&s, &cfg, lo, hi));
    CHECK_NEAR(s.checker, 0.25, 1e-12);
    lq_texmap_style_free(&s);
    /* an image: 2 × 2 pixels, red green over blue white; (s, t) = (0.25, 0.75) is the
     * top-left pixel's centre, t = 1 the top row; repeated past 1 */
    char path[64];
    snprintf(path, sizeof path, "/tmp/lq_texmap_%d.png", (int)getpid());
    const uint8_t rgb[12] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
    CHECK_OK(lq_png_write_rgb(path, 2, 2, rgb));
    cfg.pls.texture.image = path;
    cfg.pls.texture.plane = LQ_CONFIG_TEXTURE_XY;
    const double ulo[3] = {0, 0, 0}, uhi[3] = {1, 1, 1};
    CHECK_OK(lq_texmap_style_init(&s, &cfg, ulo, uhi));
    unlink(path);
    const double at[4][3] = {{0.25, 0.75, 0.3}, {0.75, 0.75, 0}, {0.25, 0.25, 0}, {1.75, 1.25, 0}};
    const double want[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    for (int q = 0; q < 4; q++) {
        lq_texmap_albedo(&s, at[q], a);
        for (int k = 0; k < 3; k++) CHECK_NEAR(a[k], want[q][k], 1e-9);
    }
    lq_texmap_style_free(&s);
    cfg.pls.texture.image = "/nonexistent/texture.png";
    CHECK(lq_texmap_style_init(&s, &cfg, ulo, uhi) == LQ_EINPUT);
    lq_error_clear();
    lq_texmap_style_free(&s);
}

/* --- 5. the preview ------------------------------------------------------------------------ */

/* Pixels of the checker's colours (sRGB within 40 of orange 0.93 0.45 0.12, cream 0.96
 * 0.92 0.80 as lit: red well above blue) in the picture. */
static int painted(const lq_volview *p)
{
    int n = 0;
    for (int i = 0; i < p->width * p->height; i++) {
        const uint8_t *c = p->rgb + 3 * i;
        n += c[0] > c[2] + 60;
    }
    return n;
}

static void test_preview(void)
{
    const int n = 24;
    const double c[3] = {0.6, 0.6, 0.6}, R = 0.3;
    const double origin[3] = {0, 0, 0}, spacing[3] = {1.2 / n, 1.2 / n, 1.2 / n};
    const double hi[3] = {1.2, 1.2, 1.2};
    float *phi = malloc((size_t)n * n * n * sizeof *phi);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * spacing[0] - c[0], y = (j + 0.5) * spacing[1] - c[1],
                       z = (k + 0.5) * spacing[2] - c[2];
                phi[i + n * (j + n * k)] = (float)(sqrt(x * x + y * y + z * z) - R);
            }
    cloud p;
    cloud_sphere(&p, 20000, c, R);
    lq_texmap t;
    CHECK_OK(
        lq_texmap_build(&t, p.n, (const float *const *)p.c, origin, hi, spacing[0], 64, INFINITY));
    lq_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.pls.texture.checker = 0.1;
    lq_texmap_style st;
    CHECK_OK(lq_texmap_style_init(&st, &cfg, origin, hi));
    lq_volview v;
    char path[64];
    snprintf(path, sizeof path, "/tmp/lq_texmap_%d_preview.png", (int)getpid());
    CHECK_OK(lq_volview_init(&v, n, n, n, origin, spacing, 320));
    v.phi_is_distance = 1;
    CHECK_OK(lq_volview_render(&v, path, phi, NULL, NULL, 0));
    int plain = painted(&v);
    CHECK_OK(lq_volview_texture(&v, &t, &st));
    CHECK_OK(lq_volview_render(&v, path, phi, NULL, NULL, 0));
    int tex = painted(&v);
    CHECK(v.tex == NULL); /* one picture only */
    CHECK_OK(lq_volview_render(&v, path, phi, NULL, NULL, 0));
    int again = painted(&v);
    fprintf(stderr, "preview: %d painted pixels with the texture, %d without, %d after it\n", tex,
            plain, again);
    CHECK(plain == 0 && again == 0 && tex > 250); /* the ball covers ~3000 px */
    unlink(path);
    lq_volview_free(&v);
    lq_texmap_style_free(&st);
    lq_texmap_free(&t);
    cloud_free(&p);
    free(phi);
}

int main(void)
{
    test_nearest();
    test_affine();
    test_mesh();
    test_style();
    test_preview();
    CHECK_DONE();
}
