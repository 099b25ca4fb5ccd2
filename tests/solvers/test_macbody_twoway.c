/*
 * test_macbody_twoway.c — the two-way passes of the `mac` solver's buoyant bodies
 * (host/ops/mac/macbody.c, kernels/mac/macbody.cl; beyond Foster & Metaxas 1996 §5, which is
 * one-way):
 *   1. twin: reference and OpenCL agree bit for bit for lq_macbody_mark,
 *      lq_macbody_face_velocity, lq_macbody_body_pressure and lq_macbody_forces_owned
 *      on random fields with rotated, moving two-way box, ball and can and a one-way box;
 *   2. mark: owned cells are those whose centres lie inside a two-way body (checked in
 *      double away from the shape's boundary), static fixed cells are kept, cells a body
 *      left become EMPTY, a one-way body owns nothing;
 *   3. face velocity: the faces of owned cells toward liquid or air carry
 *      (v + ω × r)·n at the face centre (checked in double), other faces are untouched;
 *   3b. markers: twin bit for bit; a marker in the front half of its body (r·v > 0) goes
 *      to x − 2 (r·v/|v|²) v when that lies in the same body's cells, markers behind or
 *      outside bodies stay;
 *   4. pressure extension: with a linear p in the liquid around a submerged box, the
 *      owned cells converge to the same linear p (a discrete harmonic function), deep
 *      cells are reached, other cells keep p;
 *   5. buoyancy: in a hydrostatic tank (p = g (y_s − y), written directly), a two-way
 *      box of density ratio 0.5 floating at its draft, a deeper box and a submerged ball
 *      get the one-way buoyant force within 2%, and so does the deeper box at ten heights
 *      through a cell (the owned cells jump by whole cells, the nodes do not).
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
#define NU ((NX + 1) * NY * NZ)
#define NV (NX * (NY + 1) * NZ)
#define NW (NX * NY * (NZ + 1))
#define NC (NX * NY * NZ)

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
    d.two_way = 1;
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

/* Host inputs. */
static float hp[NC], hu[NU], hv[NV], hw[NW];
static unsigned char hfl[NC], hst[NC];
static int how[NC];

/* Fields on one context. */
typedef struct grid {
    lq_field p, u, v, w, flags, stat, owner;
} grid;

static void grid_alloc(lq_ctx *ctx, grid *g)
{
    CHECK_OK(lq_field_alloc(ctx, &g->p, "p", NX, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->u, "u", NX + 1, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->v, "v", NX, NY + 1, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->w, "w", NX, NY, NZ + 1, 4));
    CHECK_OK(lq_field_alloc(ctx, &g->flags, "flags", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &g->stat, "static", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &g->owner, "owner", NX, NY, NZ, 4));
    CHECK_OK(lq_field_upload(&g->p, hp));
    CHECK_OK(lq_field_upload(&g->u, hu));
    CHECK_OK(lq_field_upload(&g->v, hv));
    CHECK_OK(lq_field_upload(&g->w, hw));
    CHECK_OK(lq_field_upload(&g->flags, hfl));
    CHECK_OK(lq_field_upload(&g->stat, hst));
    CHECK_OK(lq_field_upload(&g->owner, how));
}

static void grid_release(grid *g)
{
    lq_field *fs[] = {&g->p, &g->u, &g->v, &g->w, &g->flags, &g->stat, &g->owner};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

static int wall(int i, int j, int k)
{
    return i == 0 || j == 0 || k == 0 || i == NX - 1 || j == NY - 1 || k == NZ - 1;
}

/* Static kinds: the wall layer and `inside` elsewhere; flags the same. */
static void tank(unsigned char inside)
{
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int c = LQ_MAC_CELL(i, j, k, NX, NY);
                hst[c] = wall(i, j, k) ? LQ_MAC_SOLID : LQ_MAC_EMPTY;
                hfl[c] = wall(i, j, k) ? LQ_MAC_SOLID : inside;
            }
    memset(how, 0, sizeof how);
}

/* Results of the passes on one context. */
typedef struct result {
    unsigned char fl[NC];
    int ow[NC];
    float u[NU], v[NV], w[NW], p[NC];
    double force[4][3], torque[4][3];
} result;

static void passes(lq_ctx *ctx, int n, const lq_macbody_desc *d, int npass, result *r)
{
    lq_macbody_ops o;
    lq_macbody_set s;
    grid g;
    CHECK_OK(lq_macbody_ops_init(&o, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_init(&s, ctx, n, d, NX, NY, NZ, H, origin, 1000.0, hst));
    grid_alloc(ctx, &g);
    CHECK_OK(lq_macbody_mark(&o, &s, &g.flags, &g.stat, &g.owner));
    CHECK_OK(lq_macbody_face_velocity(&o, &s, &g.u, &g.v, &g.w, &g.flags, &g.owner));
    CHECK_OK(lq_macbody_body_pressure(&o, &s, &g.p, &g.flags, &g.owner, npass));
    CHECK_OK(lq_macbody_forces_owned(&o, &s, &g.p, &g.u, &g.v, &g.w, &g.flags, &g.owner));
    CHECK_OK(lq_field_download(&g.flags, r->fl));
    CHECK_OK(lq_field_download(&g.owner, r->ow));
    CHECK_OK(lq_field_download(&g.u, r->u));
    CHECK_OK(lq_field_download(&g.v, r->v));
    CHECK_OK(lq_field_download(&g.w, r->w));
    CHECK_OK(lq_field_download(&g.p, r->p));
    for (int i = 0; i < n && i < 4; i++)
        for (int a = 0; a < 3; a++) {
            r->force[i][a] = s.b[i].force[a];
            r->torque[i][a] = s.b[i].torque[a];
        }
    grid_release(&g);
    lq_macbody_release(&s);
    lq_macbody_ops_release(&o);
}

/* Body-frame "radius" of the point x (world) for body d: ≤ 1 inside (a box: max norm). */
static double body_radius(const lq_macbody_desc *d, const double x[3])
{
    lq_body b;
    memset(&b, 0, sizeof b);
    memcpy(b.q, d->q, sizeof b.q);
    double R[9], r[3], q[3];
    lq_body_rotation(&b, R);
    for (int a = 0; a < 3; a++) r[a] = x[a] - d->pos[a];
    for (int a = 0; a < 3; a++)
        q[a] = (R[a] * r[0] + R[3 + a] * r[1] + R[6 + a] * r[2]) / d->half[a];
    if (d->shape == LQ_SHAPE_BOX) return fmax(fabs(q[0]), fmax(fabs(q[1]), fabs(q[2])));
    if (d->shape == LQ_MACBODY_CYLINDER) return fmax(sqrt(q[0] * q[0] + q[2] * q[2]), fabs(q[1]));
    return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
}

static void test_passes(void)
{
    lq_ctx ref, cl;
    if (lq_ctx_open(&ref, "ref", false) || lq_ctx_open(&cl, "opencl", false)) {
        CHECK(!"contexts");
        return;
    }
    lq_rng r;
    lq_rng_seed(&r, 11);
    tank(LQ_MAC_FULL);
    for (int q = 0; q < NC; q++) {
        hp[q] = (float)(lq_rng_uniform(&r) * 2 - 0.5);
        if (hst[q] == LQ_MAC_SOLID) continue;
        double x = lq_rng_uniform(&r);
        hfl[q] = x < 0.5 ? LQ_MAC_FULL : x < 0.7 ? LQ_MAC_SURFACE : LQ_MAC_EMPTY;
        if (lq_rng_uniform(&r) < 0.04) hst[q] = hfl[q] = LQ_MAC_SOLID; /* obstacles */
        if (hst[q] != LQ_MAC_SOLID && lq_rng_uniform(&r) < 0.1) {      /* owned last step */
            how[q] = 1 + (int)(lq_rng_uniform(&r) * 3);
            hfl[q] = LQ_MAC_SOLID;
        }
    }
    for (int q = 0; q < NU; q++) hu[q] = (float)(lq_rng_uniform(&r) - 0.5);
    for (int q = 0; q < NV; q++) hv[q] = (float)(lq_rng_uniform(&r) - 0.5);
    for (int q = 0; q < NW; q++) hw[q] = (float)(lq_rng_uniform(&r) - 0.5);
    lq_macbody_desc d[4] = {body(LQ_SHAPE_BOX, 0.2, 0.1, 0.15, 0.5, 0.45, 0.4),
                            body(LQ_SHAPE_SPHERE, 0.17, 0.17, 0.17, 0.8, 0.5, 0.5),
                            body(LQ_MACBODY_CYLINDER, 0.1, 0.2, 0.1, 0.35, 0.6, 0.6),
                            body(LQ_SHAPE_BOX, 0.15, 0.15, 0.15, 0.9, 0.3, 0.3)};
    d[3].two_way = 0;
    rotate(&d[0], 0.7, 1, 2, 3);
    rotate(&d[2], 1.1, 0, 0.5, 1);
    for (int i = 0; i < 4; i++)
        for (int a = 0; a < 3; a++) {
            d[i].vel[a] = lq_rng_uniform(&r) - 0.5;
            d[i].omega[a] = 2 * lq_rng_uniform(&r) - 1;
        }
    static result a, b;
    passes(&ref, 4, d, 6, &a);
    passes(&cl, 4, d, 6, &b);
    int dfl = memcmp(a.fl, b.fl, sizeof a.fl) != 0, dow = memcmp(a.ow, b.ow, sizeof a.ow) != 0;
    int duvw = memcmp(a.u, b.u, sizeof a.u) || memcmp(a.v, b.v, sizeof a.v) ||
               memcmp(a.w, b.w, sizeof a.w);
    int dp = memcmp(a.p, b.p, sizeof a.p) != 0, dforce = 0;
    for (int i = 0; i < 4; i++)
        for (int q = 0; q < 3; q++)
            dforce |= a.force[i][q] != b.force[i][q] || a.torque[i][q] != b.torque[i][q];
    fprintf(stderr, "twin: flags %s, owner %s, faces %s, p %s, forces %s\n",
            dfl ? "DIFFER" : "identical", dow ? "DIFFER" : "identical",
            duvw ? "DIFFER" : "identical", dp ? "DIFFER" : "identical",
            dforce ? "DIFFER" : "identical");
    CHECK(!dfl && !dow && !duvw && !dp && !dforce);

    /* 2. mark, in double */
    int owned[4] = {0, 0, 0, 0}, bad = 0, left = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int c = LQ_MAC_CELL(i, j, k, NX, NY);
                double x[3] = {origin[0] + (i + 0.5) * H, origin[1] + (j + 0.5) * H,
                               origin[2] + (k + 0.5) * H};
                if (hst[c] == LQ_MAC_SOLID) {
                    bad += a.fl[c] != LQ_MAC_SOLID || a.ow[c] != 0;
                    continue;
                }
                int want = 0, sure = 1;
                for (int q = 0; q < 3 && !want; q++) {
                    double rr = body_radius(&d[q], x);
                    if (fabs(rr - 1) < 1e-4) sure = 0;
                    if (rr <= 1) want = q + 1;
                }
                if (a.ow[c] >= 1 && a.ow[c] <= 4) owned[a.ow[c] - 1]++;
                if (!sure) continue;
                bad += a.ow[c] != want;
                if (want)
                    bad += a.fl[c] != LQ_MAC_SOLID;
                else if (how[c]) {
                    bad += a.fl[c] != LQ_MAC_EMPTY;
                    left++;
                } else
                    bad += a.fl[c] != hfl[c];
            }
    fprintf(stderr, "mark: owned cells %d %d %d (one-way %d), %d cells left, %d wrong\n", owned[0],
            owned[1], owned[2], owned[3], left, bad);
    CHECK(bad == 0);
    CHECK(owned[0] > 10 && owned[1] > 10 && owned[2] > 5 && owned[3] == 0 && left > 10);

    /* 3. face velocities, in double */
    double worst = 0;
    int nset = 0, untouched_bad = 0;
    for (int ax = 0; ax < 3; ax++) {
        int fx = NX + (ax == 0), fy = NY + (ax == 1), fz = NZ + (ax == 2);
        const float *got = ax == 0   ? a.u
                           : ax == 1 ? a.v
                                     : a.w,
                    *was = ax == 0   ? hu
                           : ax == 1 ? hv
                                     : hw;
        for (int k = 0; k < fz; k++)
            for (int j = 0; j < fy; j++)
                for (int i = 0; i < fx; i++) {
                    int q = i + fx * (j + fy * k), n[3] = {i, j, k};
                    int i0 = i - (ax == 0), j0 = j - (ax == 1), k0 = k - (ax == 2);
                    int o = 0;
                    if (n[ax] > 0 && n[ax] < (ax == 0 ? NX : ax == 1 ? NY : NZ)) {
                        int ca = LQ_MAC_CELL(i0, j0, k0, NX, NY), cb = LQ_MAC_CELL(i, j, k, NX, NY);
                        int oa = a.ow[ca], ob = a.ow[cb];
                        if (oa && ob)
                            o = oa == ob ? oa : 0;
                        else if (ob)
                            o = a.fl[ca] != LQ_MAC_SOLID ? ob : 0;
                        else if (oa)
                            o = a.fl[cb] != LQ_MAC_SOLID ? oa : 0;
                    }
                    if (!o) {
                        untouched_bad += got[q] != was[q];
                        continue;
                    }
                    const lq_macbody_desc *e = &d[o - 1];
                    double x[3] = {origin[0] + (i + 0.5) * H, origin[1] + (j + 0.5) * H,
                                   origin[2] + (k + 0.5) * H};
                    x[ax] -= 0.5 * H;
                    double rr[3] = {x[0] - e->pos[0], x[1] - e->pos[1], x[2] - e->pos[2]};
                    double vel[3] = {e->vel[0] + e->omega[1] * rr[2] - e->omega[2] * rr[1],
                                     e->vel[1] + e->omega[2] * rr[0] - e->omega[0] * rr[2],
                                     e->vel[2] + e->omega[0] * rr[1] - e->omega[1] * rr[0]};
                    worst = fmax(worst, fabs(got[q] - vel[ax]));
                    nset++;
                }
    }
    fprintf(stderr, "faces: %d body faces, worst |u - (v + w x r).n| %.3g m/s, %d others changed\n",
            nset, worst, untouched_bad);
    CHECK(nset > 50 && worst < 1e-5 && untouched_bad == 0);

    /* pressure: non-owned cells keep p, owned cells are finite and not UNSET */
    int pbad = 0;
    for (int c = 0; c < NC; c++) {
        if (!a.ow[c])
            pbad += a.p[c] != hp[c];
        else
            pbad += !(fabsf(a.p[c]) < 10.0f);
    }
    CHECK(pbad == 0);
    lq_ctx_close(&cl);
}

/* Markers in owned cells: twin, and the mirror to the wake checked on the host. */
#define NM 3000
static void marker_run(lq_ctx *ctx, int n, const lq_macbody_desc *d, const float *pin, float *pout,
                       int *ow)
{
    lq_macbody_ops o;
    lq_macbody_set s;
    grid g;
    lq_field pos;
    CHECK_OK(lq_macbody_ops_init(&o, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_init(&s, ctx, n, d, NX, NY, NZ, H, origin, 1000.0, hst));
    grid_alloc(ctx, &g);
    CHECK_OK(lq_field_alloc(ctx, &pos, "pos", 3 * NM, 1, 1, 4));
    CHECK_OK(lq_field_upload(&pos, pin));
    CHECK_OK(lq_macbody_mark(&o, &s, &g.flags, &g.stat, &g.owner));
    CHECK_OK(lq_macbody_markers(&o, &s, &pos, NM - 7, &g.owner)); /* not a multiple of 64 */
    CHECK_OK(lq_field_download(&pos, pout));
    CHECK_OK(lq_field_download(&g.owner, ow));
    lq_field_release(&pos);
    grid_release(&g);
    lq_macbody_release(&s);
    lq_macbody_ops_release(&o);
}

static void test_markers(void)
{
    lq_ctx ref, cl;
    if (lq_ctx_open(&ref, "ref", false) || lq_ctx_open(&cl, "opencl", false)) {
        CHECK(!"contexts");
        return;
    }
    tank(LQ_MAC_FULL);
    lq_rng r;
    lq_rng_seed(&r, 5);
    static float pin[3 * NM], pa[3 * NM], pb[3 * NM];
    static int ow[NC];
    const double ext[3] = {NX * H, NY * H, NZ * H};
    for (int q = 0; q < 3 * NM; q++) pin[q] = (float)(lq_rng_uniform(&r) * ext[q % 3]);
    lq_macbody_desc d[2] = {body(LQ_SHAPE_SPHERE, 0.23, 0.23, 0.23, 0.5, 0.45, 0.4),
                            body(LQ_SHAPE_BOX, 0.2, 0.15, 0.15, 0.85, 0.5, 0.5)};
    d[0].vel[0] = 0.3;
    d[0].vel[1] = -1.2;
    d[0].vel[2] = 0.2;
    d[1].vel[1] = 0.5;
    marker_run(&ref, 2, d, pin, pa, ow);
    marker_run(&cl, 2, d, pin, pb, ow);
    int differ = memcmp(pa, pb, sizeof pa) != 0, moved = 0, bad = 0;
    for (int q = 0; q < NM; q++) {
        const float *x = pin + 3 * q, *y = pa + 3 * q;
        int c = LQ_MAC_CELL((int)(x[0] / H), (int)(x[1] / H), (int)(x[2] / H), NX, NY);
        int same = x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
        if (q >= NM - 7 || !ow[c]) {
            bad += !same; /* outside the count or outside bodies: untouched */
            continue;
        }
        const lq_macbody_desc *e = &d[ow[c] - 1];
        double rr[3], rv = 0, vv = 0, m[3];
        for (int a = 0; a < 3; a++) {
            rr[a] = origin[a] + x[a] - e->pos[a];
            rv += rr[a] * e->vel[a];
            vv += e->vel[a] * e->vel[a];
        }
        for (int a = 0; a < 3; a++) m[a] = x[a] - 2 * rv / vv * e->vel[a];
        int mc = LQ_MAC_CELL((int)(m[0] / H), (int)(m[1] / H), (int)(m[2] / H), NX, NY);
        int want_move = rv > 0 && m[0] > 0 && m[1] > 0 && m[2] > 0 && ow[mc] == ow[c];
        if (want_move) {
            double err = 0;
            for (int a = 0; a < 3; a++) err = fmax(err, fabs(y[a] - m[a]));
            bad += err > 1e-5;
            moved++;
        } else if (rv <= 0) {
            bad += !same;
        }
    }
    fprintf(stderr, "markers: %s; %d of %d mirrored to their body's wake, %d wrong\n",
            differ ? "DIFFER" : "identical", moved, NM - 7, bad);
    CHECK(!differ);
    CHECK(moved > 30 && bad == 0);
    lq_ctx_close(&cl);
}

/* 4. the extension of a linear p into a submerged box */
static void test_extension(const char *device)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, device, false)) {
        CHECK(!"context");
        return;
    }
    const double a = 3.0, b = -9.81, c = 1.5;
    tank(LQ_MAC_FULL);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                hp[LQ_MAC_CELL(i, j, k, NX, NY)] =
                    (float)(a * (i + 0.5) * H + b * (j + 0.5) * H + c * (k + 0.5) * H + 5);
    memset(hu, 0, sizeof hu);
    memset(hv, 0, sizeof hv);
    memset(hw, 0, sizeof hw);
    /* 6 × 5 × 5 cells: the centre cells are 2–3 cells from any liquid */
    lq_macbody_desc d = body(LQ_SHAPE_BOX, 0.3, 0.25, 0.25, 0.6, 0.52, 0.47);
    static result r2, rn;
    passes(&ctx, 1, &d, 2, &r2);
    passes(&ctx, 1, &d, 200, &rn);
    double worst = 0, unreached = 0;
    int nown = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int q = LQ_MAC_CELL(i, j, k, NX, NY);
                if (!rn.ow[q]) continue;
                nown++;
                worst = fmax(worst, fabs(rn.p[q] - hp[q]));
                unreached += r2.p[q] == 0.0f;
            }
    fprintf(stderr,
            "%s: extension of a linear p into %d owned cells: 200 passes off by at most %.3g "
            "m²/s² (|grad p| dx = %.3g); after 2 passes %g cells still 0\n",
            device, nown, worst, fabs(b) * H, unreached);
    CHECK(nown == 6 * 5 * 5);
    CHECK(worst < 1e-3 * fabs(b) * H);
    CHECK(unreached > 0); /* the deep cells need more than 2 passes: the test sees them */
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
}

/* 5. buoyancy: one-way vs two-way in a hydrostatic tank */
static double tank_force(lq_ctx *ctx, const lq_macbody_desc *d, int two_way, double *vsub)
{
    lq_macbody_desc e = *d;
    e.two_way = two_way;
    lq_macbody_ops o;
    lq_macbody_set s;
    grid g;
    CHECK_OK(lq_macbody_ops_init(&o, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_init(&s, ctx, 1, &e, NX, NY, NZ, H, origin, 1000.0, hst));
    grid_alloc(ctx, &g);
    if (two_way) {
        CHECK_OK(lq_macbody_mark(&o, &s, &g.flags, &g.stat, &g.owner));
        CHECK_OK(lq_macbody_body_pressure(&o, &s, &g.p, &g.flags, &g.owner, 32));
        CHECK_OK(lq_macbody_forces_owned(&o, &s, &g.p, &g.u, &g.v, &g.w, &g.flags, &g.owner));
    } else {
        CHECK_OK(lq_macbody_forces(&o, &s, &g.p, &g.u, &g.v, &g.w, &g.flags));
    }
    double f = s.b[0].force[1];
    *vsub = s.b[0].vsub;
    grid_release(&g);
    lq_macbody_release(&s);
    lq_macbody_ops_release(&o);
    return f;
}

static void test_buoyancy(const char *device)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, device, false)) {
        CHECK(!"context");
        return;
    }
    const int js = 6; /* SURFACE layer; p = 0 at its centres */
    const double g = 9.81, ys = (js + 0.5) * H;
    tank(LQ_MAC_EMPTY);
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int c = LQ_MAC_CELL(i, j, k, NX, NY);
                hp[c] = 0;
                if (wall(i, j, k)) continue;
                if (j <= js) {
                    hfl[c] = j == js ? LQ_MAC_SURFACE : LQ_MAC_FULL;
                    hp[c] = (float)(g * (ys - (j + 0.5) * H));
                }
            }
    memset(hu, 0, sizeof hu);
    memset(hv, 0, sizeof hv);
    memset(hw, 0, sizeof hw);
    /* a box of s = 0.5 at its draft (half height 0.15: draft 0.15), a box 2/3 under, and
     * a ball under water, off the cell lattice */
    lq_macbody_desc d[3] = {body(LQ_SHAPE_BOX, 0.25, 0.15, 0.2, 0.6, ys, 0.45),
                            body(LQ_SHAPE_BOX, 0.2, 0.15, 0.2, 0.57, ys - 0.05, 0.43),
                            body(LQ_SHAPE_SPHERE, 0.17, 0.17, 0.17, 0.58, 0.33, 0.46)};
    const char *names[3] = {"box at its draft", "box 2/3 under", "ball under water"};
    for (int i = 0; i < 3; i++) {
        double v1, v2, f1 = tank_force(&ctx, &d[i], 0, &v1), f2 = tank_force(&ctx, &d[i], 1, &v2);
        fprintf(stderr,
                "%s: %s: buoyancy one-way %.4f N, two-way %.4f N (%.2f%%); submerged %.5f, "
                "%.5f m³\n",
                device, names[i], f1, f2, 100 * (f2 - f1) / f1, v1, v2);
        CHECK(f1 > 0);
        CHECK(fabs(f2 - f1) <= 0.02 * f1);
    }
    /* the same box swept through a cell: the owned cells jump where the nodes do not */
    double worst = 0, mean = 0;
    for (int q = 0; q < 10; q++) {
        lq_macbody_desc e = d[1];
        e.pos[1] = origin[1] + ys - 0.05 + 0.01 * q + 0.003;
        double v1, v2, f1 = tank_force(&ctx, &e, 0, &v1), f2 = tank_force(&ctx, &e, 1, &v2);
        worst = fmax(worst, fabs(f2 - f1) / f1);
        mean += (f2 - f1) / f1 / 10;
    }
    fprintf(stderr, "%s: box swept through a cell: worst %.2f%%, mean %.2f%%\n", device,
            100 * worst, 100 * mean);
    CHECK(worst <= 0.02);
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
}

int main(void)
{
    test_passes();
    test_markers();
    test_extension("ref");
    test_extension("opencl");
    test_buoyancy("ref");
    test_buoyancy("opencl");
    CHECK_DONE();
}
