/*
 * test_macbody_ops.c — the buoyant-body force kernel of the `mac` solver (Foster &
 * Metaxas 1996 §5, eq. 13–16; host/ops/mac/macbody.c, kernels/mac/macbody.cl):
 *   1. twin: reference and OpenCL agree bit for bit on random p, u, v, w and cell kinds
 *      for a rotated, moving box, ball and can (group rows and per-body sums);
 *   2. a linear p in a full tank: F = −∇p V ρ_l exactly (to float rounding) and no
 *      torque, for a rotated box and a can away from the walls;
 *   3. damping (eq. 16): a still body in a uniform stream is pushed along it with
 *      ρ_l c V U, a moving body in still liquid is held back with −ρ_l c V v, a spinning
 *      one feels a torque against its spin; nodes in EMPTY cells feel nothing;
 *   4. collisions (host only): a box falling in air comes to rest on a static SOLID
 *      block, a ball on the floor's wall layer, two overlapping balls are pushed apart;
 *      cans meet as capsules: side by side at the sum of their radii, end to end at the
 *      sum of their half lengths, parallel cans 0.1 m apart are left alone (their boxes'
 *      bounding spheres, 0.15 m, would push them apart);
 *   5. the scene's `objects` rows: a can's mass and inertia, names, rotation, coupling.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "ops/mac/macbody.h"

#define NX 12
#define NY 10
#define NZ 9
#define H  0.1

static const double origin[3] = {-0.3, 0.2, 0.1};

static lq_macbody_desc body(int shape, double a, double b, double c, double x, double y, double z)
{
    lq_macbody_desc d;
    memset(&d, 0, sizeof d);
    d.shape = shape;
    d.half[0] = a;
    d.half[1] = b;
    d.half[2] = c;
    d.density = 600;
    d.pos[0] = origin[0] + x;
    d.pos[1] = origin[1] + y;
    d.pos[2] = origin[2] + z;
    d.q[0] = 1;
    d.damping = 3;
    d.restitution = 0.3;
    snprintf(d.name, sizeof d.name, "b");
    return d;
}

static void rotate(lq_macbody_desc *d, double angle, double ax, double ay, double az)
{
    double n = sqrt(ax * ax + ay * ay + az * az), s = sin(angle / 2);
    d->q[0] = cos(angle / 2);
    d->q[1] = s * ax / n;
    d->q[2] = s * ay / n;
    d->q[3] = s * az / n;
}

/* Fields on one context. */
typedef struct grid {
    lq_field p, u, v, w, flags;
} grid;

static void grid_alloc(lq_ctx *ctx, grid *g, const float *p, const float *u, const float *v,
                       const float *w, const unsigned char *fl)
{
    CHECK_OK(lq_field_alloc(ctx, &g->p, "p", NX, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->u, "u", NX + 1, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->v, "v", NX, NY + 1, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->w, "w", NX, NY, NZ + 1, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->flags, "flags", NX, NY, NZ, 1));
    CHECK_OK(lq_field_upload(&g->p, p));
    CHECK_OK(lq_field_upload(&g->u, u));
    CHECK_OK(lq_field_upload(&g->v, v));
    CHECK_OK(lq_field_upload(&g->w, w));
    CHECK_OK(lq_field_upload(&g->flags, fl));
}

static void grid_release(grid *g)
{
    lq_field *fs[] = {&g->p, &g->u, &g->v, &g->w, &g->flags};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

#define NU ((NX + 1) * NY * NZ)
#define NV (NX * (NY + 1) * NZ)
#define NW (NX * NY * (NZ + 1))
#define NC (NX * NY * NZ)

static float hp[NC], hu[NU], hv[NV], hw[NW];
static unsigned char hfl[NC];

static void walls(unsigned char inside)
{
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int wall = i == 0 || j == 0 || k == 0 || i == NX - 1 || j == NY - 1 || k == NZ - 1;
                hfl[LQ_MAC_CELL(i, j, k, NX, NY)] = wall ? LQ_MAC_SOLID : inside;
            }
}

/* Forces of the bodies d on the fields above, on one context. */
static void forces(lq_ctx *ctx, int n, const lq_macbody_desc *d, lq_macbody_set *s, float *rows)
{
    lq_macbody_ops o;
    grid g;
    CHECK_OK(lq_macbody_ops_init(&o, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_init(s, ctx, n, d, NX, NY, NZ, H, origin, 1000.0, hfl));
    grid_alloc(ctx, &g, hp, hu, hv, hw, hfl);
    CHECK_OK(lq_macbody_forces(&o, s, &g.p, &g.u, &g.v, &g.w, &g.flags));
    if (rows) memcpy(rows, s->hout, sizeof(float) * LQ_MACBODY_OUT * s->ngroups);
    grid_release(&g);
    lq_macbody_ops_release(&o);
}

static void test_twin(void)
{
    lq_ctx ref, cl;
    if (lq_ctx_open(&ref, "ref", false) || lq_ctx_open(&cl, "opencl", false)) {
        CHECK(!"contexts");
        return;
    }
    lq_rng r;
    lq_rng_seed(&r, 7);
    for (int q = 0; q < NC; q++) hp[q] = (float)(lq_rng_uniform(&r) * 2 - 0.5);
    for (int q = 0; q < NU; q++) hu[q] = (float)(lq_rng_uniform(&r) - 0.5);
    for (int q = 0; q < NV; q++) hv[q] = (float)(lq_rng_uniform(&r) - 0.5);
    for (int q = 0; q < NW; q++) hw[q] = (float)(lq_rng_uniform(&r) - 0.5);
    walls(LQ_MAC_FULL);
    for (int q = 0; q < NC; q++)
        if (hfl[q] != LQ_MAC_SOLID) {
            double x = lq_rng_uniform(&r);
            hfl[q] = x < 0.5   ? LQ_MAC_FULL
                     : x < 0.7 ? LQ_MAC_SURFACE
                     : x < 0.9 ? LQ_MAC_EMPTY
                               : LQ_MAC_SOLID;
        }
    lq_macbody_desc d[3] = {body(LQ_SHAPE_BOX, 0.2, 0.1, 0.15, 0.5, 0.45, 0.4),
                            body(LQ_SHAPE_SPHERE, 0.17, 0.17, 0.17, 0.8, 0.5, 0.5),
                            body(LQ_MACBODY_CYLINDER, 0.1, 0.2, 0.1, 0.35, 0.6, 0.6)};
    rotate(&d[0], 0.7, 1, 2, 3);
    rotate(&d[2], 1.1, 0, 0.5, 1);
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 3; a++) {
            d[i].vel[a] = lq_rng_uniform(&r) - 0.5;
            d[i].omega[a] = 2 * lq_rng_uniform(&r) - 1;
        }
    lq_macbody_set sr, sc;
    float *ra = NULL, *rb = NULL;
    forces(&ref, 3, d, &sr, NULL);
    ra = malloc(sizeof(float) * LQ_MACBODY_OUT * sr.ngroups);
    rb = malloc(sizeof(float) * LQ_MACBODY_OUT * sr.ngroups);
    memcpy(ra, sr.hout, sizeof(float) * LQ_MACBODY_OUT * sr.ngroups);
    forces(&cl, 3, d, &sc, rb);
    int differ = memcmp(ra, rb, sizeof(float) * LQ_MACBODY_OUT * sr.ngroups) != 0;
    double fbig = 0;
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 3; a++) {
            CHECK(sr.b[i].force[a] == sc.b[i].force[a]);
            CHECK(sr.b[i].torque[a] == sc.b[i].torque[a]);
            fbig = fmax(fbig, fabs(sr.b[i].force[a]));
        }
    fprintf(stderr,
            "twin: %d groups of %d nodes (%d, %d, %d real), rows %s, largest force %.4g N\n",
            sr.ngroups, LQ_MACBODY_LOCAL, sr.b[0].nnodes, sr.b[1].nnodes, sr.b[2].nnodes,
            differ ? "DIFFER" : "identical", fbig);
    CHECK(!differ);
    CHECK(fbig > 1); /* the random field does push */
    free(ra);
    free(rb);
    lq_macbody_release(&sr);
    lq_macbody_release(&sc);
    lq_ctx_close(&cl);
}

static void test_linear(const char *device)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, device, false)) {
        CHECK(!"context");
        return;
    }
    const double a = 3.0, b = -9.81, c = 1.5; /* ∇p, m/s² */
    walls(LQ_MAC_FULL);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                hp[LQ_MAC_CELL(i, j, k, NX, NY)] =
                    (float)(a * (i + 0.5) * H + b * (j + 0.5) * H + c * (k + 0.5) * H + 5);
    memset(hu, 0, sizeof hu);
    memset(hv, 0, sizeof hv);
    memset(hw, 0, sizeof hw);
    lq_macbody_desc d[2] = {body(LQ_SHAPE_BOX, 0.2, 0.1, 0.15, 0.55, 0.5, 0.45),
                            body(LQ_MACBODY_CYLINDER, 0.1, 0.15, 0.1, 0.6, 0.5, 0.45)};
    rotate(&d[0], 0.5, 1, 1, 0);
    rotate(&d[1], 0.9, 1, 0, 1);
    lq_macbody_set s;
    double g[3] = {a, b, c};
    for (int i = 0; i < 2; i++) {
        forces(&ctx, 1, &d[i], &s, NULL);
        double vol = i == 0 ? 8 * 0.2 * 0.1 * 0.15 : LQ_PI * 0.1 * 0.1 * 0.3, worst = 0, tq = 0;
        for (int q = 0; q < 3; q++) {
            double want = -g[q] * vol * 1000;
            worst = fmax(worst, fabs(s.b[0].force[q] - want) / (fabs(b) * vol * 1000));
            tq = fmax(tq, fabs(s.b[0].torque[q]));
        }
        fprintf(stderr,
                "%s: linear p, %s of %d nodes: F = (%.6g, %.6g, %.6g) N, want (%.6g, %.6g, "
                "%.6g); worst relative error %.2g; max |torque| %.2g N m; submerged %.6g of "
                "%.6g m³\n",
                device, i ? "can" : "box", s.b[0].nnodes, s.b[0].force[0], s.b[0].force[1],
                s.b[0].force[2], -a * vol * 1000, -b * vol * 1000, -c * vol * 1000, worst, tq,
                s.b[0].vsub, vol);
        CHECK(worst < 1e-5);
        CHECK(tq < 1e-4 * fabs(b) * vol * 1000 * 0.2);
        CHECK_NEAR(s.b[0].vsub, vol, 1e-6 * vol);
        lq_macbody_release(&s);
    }
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
}

static void test_damping(const char *device)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, device, false)) {
        CHECK(!"context");
        return;
    }
    const double U = 0.4, c = 3, rho = 1000;
    walls(LQ_MAC_FULL);
    memset(hp, 0, sizeof hp);
    for (int q = 0; q < NU; q++) hu[q] = (float)U;
    memset(hv, 0, sizeof hv);
    memset(hw, 0, sizeof hw);
    lq_macbody_desc d = body(LQ_SHAPE_BOX, 0.2, 0.1, 0.15, 0.55, 0.5, 0.45);
    double vol = 8 * 0.2 * 0.1 * 0.15;
    lq_macbody_set s;
    /* a still box in a stream along +x: pushed along +x with ρ c V U */
    forces(&ctx, 1, &d, &s, NULL);
    double f1 = s.b[0].force[0];
    lq_macbody_release(&s);
    /* a box moving along +y in still liquid: held back */
    for (int q = 0; q < NU; q++) hu[q] = 0;
    d.vel[1] = 0.25;
    forces(&ctx, 1, &d, &s, NULL);
    double f2 = s.b[0].force[1];
    lq_macbody_release(&s);
    /* a box spinning about y: torque against the spin, −ρ c Σ dV (x² + z²) ω */
    d.vel[1] = 0;
    d.omega[1] = 2;
    forces(&ctx, 1, &d, &s, NULL);
    double t3 = s.b[0].torque[1], moment = vol * (0.2 * 0.2 + 0.15 * 0.15) / 3;
    lq_macbody_release(&s);
    /* the same box in air (EMPTY cells): no force at all */
    walls(LQ_MAC_EMPTY);
    d.vel[1] = 0.25;
    forces(&ctx, 1, &d, &s, NULL);
    double f4 = fabs(s.b[0].force[0]) + fabs(s.b[0].force[1]) + fabs(s.b[0].force[2]) +
                fabs(s.b[0].torque[1]);
    lq_macbody_release(&s);
    fprintf(stderr,
            "%s: damping: stream %.6g N (want %.6g), moving %.6g N (want %.6g), spinning %.6g "
            "N m (continuum %.6g), in air %.3g\n",
            device, f1, rho * c * vol * U, f2, -rho * c * vol * 0.25, t3, -rho * c * moment * 2,
            f4);
    CHECK_NEAR(f1, rho * c * vol * U, 1e-5 * rho * c * vol * U);
    CHECK_NEAR(f2, -rho * c * vol * 0.25, 1e-5 * rho * c * vol * 0.25);
    /* node lattice moments (midpoint rule) fall short of the continuum by < (δx/2)² terms */
    CHECK(t3 < 0 && fabs(t3) > 0.9 * rho * c * moment * 2 && fabs(t3) <= rho * c * moment * 2);
    CHECK(f4 == 0);
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
}

static void test_collisions(void)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, "ref", false)) {
        CHECK(!"context");
        return;
    }
    walls(LQ_MAC_EMPTY);
    for (int k = 2; k <= 6; k++) /* a block, top at y = 0.4 m above the origin */
        for (int j = 1; j <= 3; j++)
            for (int i = 3; i <= 8; i++) hfl[LQ_MAC_CELL(i, j, k, NX, NY)] = LQ_MAC_SOLID;
    lq_macbody_desc d[4] = {body(LQ_SHAPE_BOX, 0.1, 0.05, 0.1, 0.6, 0.8, 0.45),
                            body(LQ_SHAPE_SPHERE, 0.08, 0.08, 0.08, 1.0, 0.5, 0.2),
                            body(LQ_SHAPE_SPHERE, 0.1, 0.1, 0.1, 0.25, 0.75, 0.75),
                            body(LQ_SHAPE_SPHERE, 0.1, 0.1, 0.1, 0.4, 0.75, 0.75)};
    for (int i = 0; i < 4; i++) d[i].restitution = 0;
    lq_macbody_set s;
    CHECK_OK(lq_macbody_init(&s, &ctx, 4, d, NX, NY, NZ, H, origin, 1000.0, hfl));
    const double g[3] = {0, -9.81, 0};
    double t = 0;
    for (int step = 0; step < 500; step++) { /* no liquid: force and torque stay 0 */
        t += 0.002;
        lq_macbody_integrate(&s, 0.002, t, g);
    }
    double box_bottom = s.b[0].body.pos[1] - 0.05 - origin[1];
    double ball_bottom = s.b[1].body.pos[1] - 0.08 - origin[1];
    double gap = 0;
    for (int a = 0; a < 3; a++) gap += pow(s.b[3].body.pos[a] - s.b[2].body.pos[a], 2);
    gap = sqrt(gap);
    fprintf(stderr,
            "collisions: box bottom %.5f m (block top 0.4), ball bottom %.5f m (floor 0.1), "
            "balls' centres %.4f m apart (radii sum 0.2), box tilt q_w %.6f\n",
            box_bottom, ball_bottom, gap, s.b[0].body.q[0]);
    CHECK_NEAR(box_bottom, 0.4, 1e-3);
    CHECK_NEAR(ball_bottom, 0.1, 1e-3);
    CHECK(gap >= 0.2 - 1e-9);
    CHECK_NEAR(s.b[0].body.pos[0] - origin[0], 0.6, 1e-9); /* straight down */
    CHECK(s.b[0].body.q[0] == 1.0);
    lq_macbody_release(&s);
}

/* Three pairs of lying cans (r 0.033, length 0.12, axis along z), no gravity, no
 * liquid: one step of lq_macbody_integrate resolves each pair's contact. */
static void test_can_collisions(void)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, "ref", false)) {
        CHECK(!"context");
        return;
    }
    walls(LQ_MAC_EMPTY);
    const double r = 0.033, hh = 0.06;
    /* pair 1: side by side, 0.05 apart in x (overlap); pair 2: end to end, 0.1 apart in
     * z (overlap); pair 3: side by side, 0.1 apart in y (clear) */
    lq_macbody_desc d[6] = {
        body(LQ_MACBODY_CYLINDER, r, hh, r, 0.3, 0.3, 0.45),
        body(LQ_MACBODY_CYLINDER, r, hh, r, 0.35, 0.3, 0.45),
        body(LQ_MACBODY_CYLINDER, r, hh, r, 0.7, 0.3, 0.4),
        body(LQ_MACBODY_CYLINDER, r, hh, r, 0.7, 0.3, 0.5),
        body(LQ_MACBODY_CYLINDER, r, hh, r, 0.5, 0.6, 0.45),
        body(LQ_MACBODY_CYLINDER, r, hh, r, 0.5, 0.7, 0.45),
    };
    for (int i = 0; i < 6; i++) rotate(&d[i], LQ_PI / 2, 1, 0, 0); /* axis y -> z */
    lq_macbody_set s;
    CHECK_OK(lq_macbody_init(&s, &ctx, 6, d, NX, NY, NZ, H, origin, 1000.0, hfl));
    const double g[3] = {0, 0, 0};
    lq_macbody_integrate(&s, 1e-4, 1e-4, g);
    double gap[3];
    for (int p = 0; p < 3; p++) {
        gap[p] = 0;
        for (int a = 0; a < 3; a++)
            gap[p] += pow(s.b[2 * p + 1].body.pos[a] - s.b[2 * p].body.pos[a], 2);
        gap[p] = sqrt(gap[p]);
    }
    fprintf(stderr,
            "cans: side by side %.5f m apart (radii sum %.3f), end to end %.5f (lengths %.2f), "
            "clear pair %.5f (0.1, bounding spheres %.3f)\n",
            gap[0], 2 * r, gap[1], 2 * hh, gap[2], 2 * sqrt(2 * r * r + hh * hh));
    CHECK_NEAR(gap[0], 2 * r, 1e-9);
    CHECK_NEAR(gap[1], 2 * hh, 1e-9);
    CHECK_NEAR(gap[2], 0.1, 1e-9);
    CHECK_NEAR(s.b[0].body.pos[2] - origin[2], 0.45, 1e-9); /* pushed along x only */
    CHECK_NEAR(s.b[2].body.pos[0] - origin[0], 0.7, 1e-9);  /* pushed along z only */
    lq_macbody_release(&s);
}

static void test_scene(void)
{
    const char *path = "test_macbody_scene.yaml";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "solver: mac\ngrid: {size: [12, 10, 9], cell: 0.1}\nobjects:\n"
               "  - cylinder: {center: [0.5, 0.5, 0.4], radius: 0.05, height: 0.2}\n"
               "    density: 400\n    coupling: two-way\n    name: can\n"
               "  - box: {center: [0.3, 0.6, 0.4], size: [0.2, 0.1, 0.1]}\n"
               "    rotation: [0, 90, 0]\n    drag: 4\n");
    fclose(f);
    lq_config *cfg = lq_config_load(path, 0, NULL);
    CHECK_MSG(cfg != NULL, "%s", lq_error_message());
    remove(path);
    if (!cfg) return;
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_macbody_set s;
    double org[3] = {0, 0, 0};
    CHECK_OK(lq_macbody_from_scene(&s, &ctx, cfg, 12, 10, 9, 0.1, org, 1000, NULL));
    CHECK(s.n == 2);
    if (s.n == 2) {
        const lq_body *c = &s.b[0].body, *b = &s.b[1].body;
        double m = 400 * LQ_PI * 0.05 * 0.05 * 0.2;
        fprintf(stderr,
                "scene: %s mass %.5f kg (want %.5f), inertia %.3g %.3g %.3g, two-way %d; %s "
                "q %.4f %.4f %.4f %.4f, drag %g\n",
                s.b[0].name, c->mass, m, c->inertia[0], c->inertia[1], c->inertia[2],
                s.b[0].two_way, s.b[1].name, b->q[0], b->q[1], b->q[2], b->q[3], s.b[1].damping);
        CHECK(strcmp(s.b[0].name, "can") == 0 && strcmp(s.b[1].name, "box1") == 0);
        CHECK_NEAR(c->mass, m, 1e-12);
        CHECK_NEAR(c->inertia[1], m * 0.05 * 0.05 / 2, 1e-12);
        CHECK_NEAR(c->inertia[0], m * (3 * 0.05 * 0.05 + 0.04) / 12, 1e-12);
        CHECK(s.b[0].shape == LQ_MACBODY_CYLINDER && s.b[0].two_way == 1 && s.b[1].two_way == 0);
        CHECK_NEAR(b->q[2], sin(LQ_PI / 4), 1e-12);
        CHECK(s.b[1].damping == 4 && s.b[0].damping == 1);
        const lq_object_record *rec;
        int n = 0;
        CHECK_OK(lq_macbody_records(&s, &rec, &n));
        CHECK(n == 2 && rec[1].view.shape == LQ_SHAPE_BOX);
    }
    lq_macbody_release(&s);
    lq_config_free(cfg);
}

int main(void)
{
    test_scene();
    test_collisions();
    test_can_collisions();
    test_twin();
    test_linear("ref");
    test_linear("opencl");
    test_damping("ref");
    test_damping("opencl");
    CHECK_DONE();
}
