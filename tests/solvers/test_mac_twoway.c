/*
 * test_mac_twoway.c — two-way buoyant bodies stepped with the `mac` building blocks
 * (as test_mac_hydrostatic.c composes them, plus the markers that move the surface and
 * the two-way passes of host/ops/mac/macbody.c), in the order the solver's step takes:
 *   lq_macbody_mark, lq_macbody_markers; markers classify (§6 step 3) and Gates' classes and
 * surface p; Gates apply + lq_momentum_boundary (4), lq_macbody_face_velocity; momentum (5);
 *   pressure (6); Gates apply + extrapolation + boundary (7), lq_macbody_face_velocity;
 *   markers advect (8); lq_macbody_body_pressure, lq_macbody_forces_owned,
 *   lq_macbody_integrate.
 * Asserts:
 *   1. a box of density ratio 0.5 released 0.3 δx above its equilibrium settles at draft
 *      s H (from the SURFACE cells' centres away from it, where the pressure puts the
 *      surface) within max(2% H, 0.5 δx), averaged over the last 0.5 s;
 *   2. the two-way effect: a heavy ball (s = 2, r = 1.8 δx) dropped into a deep tank
 *      moves the liquid (max liquid-face speed > 0.05 m/s), and the volume level — the
 *      markers in liquid cells plus the ball's owned cells under the surface, over the
 *      tank's area — rises by the ball's volume over the area within 25% (on the floor,
 *      averaged over the last 0.1 s; and at every sample while it falls under water):
 *      the owned cells' volume is the ball's within ±7% at this size, and markers the
 *      ball holds inside it (lq_macbody_markers keeps them inside; ~10% of its volume
 *      measured) do not count. The SURFACE cells' mean height rises too (> half of it;
 *      the entry splash and the sloshing of the inviscid tank raise it several times
 *      more, so it is not a measure of the displacement);
 *   3. the control: the same ball one-way leaves the liquid still (< 1e-3 m/s) and the
 *      level unchanged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "common/mac_grid.h"
#include "ops/mac/macsurface.h"
#include "ops/mac/macbc.h"
#include "ops/mac/macbody.h"
#include "ops/mac/markers.h"
#include "ops/mac/momentum.h"
#include "ops/mac/pressure.h"

#define NX 12
#define NY 18
#define NZ 12
#define NC (NX * NY * NZ)
#define G  9.81
#define PC 8 /* markers per cell */

static const float h = 0.05f;
static const double origin[3] = {0, 0, 0};

typedef struct sim {
    lq_ctx *ctx;
    lq_field u, v, w, p, flags, bnd, mask, stat, owner, pos, count;
    int npart;
    lq_momentum_ops mo;
    lq_momentum_state ms;
    lq_pressure_ops po;
    lq_pressure_state ps;
    lq_pressure_params pp;
    lq_macsurface_ops so;
    lq_macbc_ops bo;
    lq_markers_ops ko;
    lq_macbody_ops bdo;
    lq_macbody_set bs;
    unsigned char fl0[NC];
    double t;
} sim;

static void swap(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

/* A tank with walls, liquid up to `level` (m), one two-way body d. */
static void sim_init(sim *s, lq_ctx *ctx, double level, const lq_macbody_desc *d)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int wall = i == 0 || j == 0 || k == 0 || i == NX - 1 || j == NY - 1 || k == NZ - 1;
                s->fl0[LQ_MAC_CELL(i, j, k, NX, NY)] = wall ? LQ_MAC_SOLID : LQ_MAC_EMPTY;
            }
    size_t cap = (size_t)NC * PC, n = 0;
    float *pos = malloc(cap * 3 * sizeof(float));
    lq_markers_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.kind = LQ_MARKERS_BOX;
    sh.a[0] = sh.a[1] = sh.a[2] = 0;
    sh.b[0] = NX * h;
    sh.b[1] = (float)level;
    sh.b[2] = NZ * h;
    /* no liquid inside the body at the start: the cells it owns are not seeded */
    lq_macbody_ops bo;
    lq_macbody_set bs;
    lq_field f, st, ow;
    unsigned char fl[NC];
    CHECK_OK(lq_macbody_ops_init(&bo, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_init(&bs, ctx, 1, d, NX, NY, NZ, h, origin, 1000.0, s->fl0));
    CHECK_OK(lq_field_alloc(ctx, &f, "f", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &st, "st", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &ow, "ow", NX, NY, NZ, 4));
    CHECK_OK(lq_field_upload(&f, s->fl0));
    CHECK_OK(lq_field_upload(&st, s->fl0));
    CHECK_OK(lq_field_zero(&ow, 0));
    CHECK_OK(lq_macbody_mark(&bo, &bs, &f, &st, &ow));
    CHECK_OK(lq_field_download(&f, fl));
    lq_field_release(&f);
    lq_field_release(&st);
    lq_field_release(&ow);
    lq_macbody_release(&bs);
    lq_macbody_ops_release(&bo);
    CHECK_OK(lq_markers_seed(NX, NY, NZ, h, h, h, fl, 1, &sh, PC, 3, pos, cap, &n));
    s->npart = (int)n;
    CHECK_OK(lq_field_alloc(ctx, &s->u, "u", NX + 1, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &s->v, "v", NX, NY + 1, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &s->w, "w", NX, NY, NZ + 1, 4));
    CHECK_OK(lq_field_alloc(ctx, &s->p, "p", NX, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &s->flags, "flags", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &s->bnd, "bnd", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &s->mask, "mask", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &s->stat, "static", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(ctx, &s->owner, "owner", NX, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &s->count, "count", NX, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(ctx, &s->pos, "pos", (int)(3 * n), 1, 1, 4));
    CHECK_OK(lq_field_upload(&s->pos, pos));
    free(pos);
    CHECK_OK(lq_field_upload(&s->flags, s->fl0));
    CHECK_OK(lq_field_upload(&s->stat, s->fl0));
    lq_field *z[] = {&s->u, &s->v, &s->w, &s->p, &s->bnd, &s->owner, &s->count};
    for (size_t i = 0; i < LQ_COUNT(z); i++) CHECK_OK(lq_field_zero(z[i], 0));
    CHECK_OK(lq_momentum_ops_init(&s->mo, ctx, NX, NY, NZ));
    CHECK_OK(lq_momentum_state_init(&s->ms, ctx, NX, NY, NZ, &s->u, &s->v, &s->w, &s->p, &s->flags,
                                    &s->bnd));
    CHECK_OK(lq_pressure_ops_init(&s->po, ctx, NX, NY, NZ));
    CHECK_OK(
        lq_pressure_state_init(&s->ps, ctx, NX, NY, NZ, &s->u, &s->v, &s->w, &s->p, &s->flags));
    CHECK_OK(lq_macsurface_ops_init(&s->so, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbc_ops_init(&s->bo, ctx, NX, NY, NZ));
    CHECK_OK(lq_markers_ops_init(&s->ko, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_ops_init(&s->bdo, ctx, NX, NY, NZ));
    CHECK_OK(lq_macbody_init(&s->bs, ctx, 1, d, NX, NY, NZ, h, origin, 1000.0, s->fl0));
}

static void sim_release(sim *s)
{
    lq_macbody_release(&s->bs);
    lq_macbody_ops_release(&s->bdo);
    lq_markers_ops_release(&s->ko);
    lq_macbc_ops_release(&s->bo);
    lq_macsurface_ops_release(&s->so);
    lq_pressure_state_release(&s->ps);
    lq_pressure_ops_release(&s->po);
    lq_momentum_state_release(&s->ms);
    lq_momentum_ops_release(&s->mo);
    lq_field *all[] = {&s->u,    &s->v,    &s->w,     &s->p,     &s->flags, &s->bnd,
                       &s->mask, &s->stat, &s->owner, &s->count, &s->pos};
    for (size_t i = 0; i < LQ_COUNT(all); i++) lq_field_release(all[i]);
}

/* One step of §6 with the two-way passes (the order of the header). */
static void sim_step(sim *s, float dt)
{
    const float hh[3] = {h, h, h}, g3[3] = {0, (float)-G, 0}, org[3] = {0, 0, 0};
    lq_markers_params kp = {.dt = dt, .dx = h, .dy = h, .dz = h};
    lq_momentum_params mp = {.dt = dt, .dx = h, .dy = h, .dz = h, .nu = 0.0f};
    memcpy(mp.g, g3, sizeof g3);
    lq_macsurface_forcing fo;
    memset(&fo, 0, sizeof fo);
    fo.L = 1.0f;
    fo.g = (float)-G;
    fo.dt = dt;
    fo.t = s->t;
    s->pp.dt = dt;
    int sweeps = 0;
    float maxdiv = 0;
    CHECK_OK(lq_macbody_mark(&s->bdo, &s->bs, &s->flags, &s->stat, &s->owner));
    CHECK_OK(lq_macbody_markers(&s->bdo, &s->bs, &s->pos, s->npart, &s->owner));
    CHECK_OK(lq_markers_classify(&s->ko, &s->pos, s->npart, &s->flags, &s->count, &kp)); /* 3 */
    CHECK_OK(lq_macsurface_classify(&s->so, &s->flags, &s->mask));
    CHECK_OK(lq_macsurface_pressure(&s->so, &s->flags, &s->p, hh, org, &fo));
    CHECK_OK(
        lq_macsurface_apply(&s->so, &s->flags, &s->mask, &s->u, &s->v, &s->w, hh, dt, g3)); /* 4 */
    CHECK_OK(lq_momentum_boundary(&s->mo, &s->ms));
    CHECK_OK(lq_macbody_face_velocity(&s->bdo, &s->bs, &s->u, &s->v, &s->w, &s->flags, &s->owner));
    CHECK_OK(lq_momentum_step(&s->mo, &s->ms, &mp)); /* 5 */
    swap(&s->u, &s->ms.un);
    swap(&s->v, &s->ms.vn);
    swap(&s->w, &s->ms.wn);
    CHECK_OK(lq_pressure_solve(&s->po, &s->ps, &s->pp, &sweeps, &maxdiv)); /* 6 */
    CHECK_OK(
        lq_macsurface_apply(&s->so, &s->flags, &s->mask, &s->u, &s->v, &s->w, hh, dt, g3)); /* 7 */
    CHECK_OK(lq_macbc_extrapolate(&s->bo, &s->u, &s->v, &s->w, &s->flags));
    CHECK_OK(lq_momentum_boundary(&s->mo, &s->ms));
    CHECK_OK(lq_macbody_face_velocity(&s->bdo, &s->bs, &s->u, &s->v, &s->w, &s->flags, &s->owner));
    CHECK_OK(
        lq_markers_advect(&s->ko, &s->pos, s->npart, &s->u, &s->v, &s->w, &s->flags, &kp)); /* 8 */
    CHECK_OK(lq_macbody_body_pressure(&s->bdo, &s->bs, &s->p, &s->flags, &s->owner, 16));
    CHECK_OK(
        lq_macbody_forces_owned(&s->bdo, &s->bs, &s->p, &s->u, &s->v, &s->w, &s->flags, &s->owner));
    const double g[3] = {0, -G, 0};
    s->t += dt;
    lq_macbody_integrate(&s->bs, dt, s->t, g);
}

/* Columns (i, k) at least `clear` (m) from the body's vertical axis. */
static int away(const sim *s, int i, int k, double clear)
{
    const double *c = s->bs.b[0].body.pos;
    double dx = (i + 0.5) * h - c[0], dz = (k + 0.5) * h - c[2];
    return dx * dx + dz * dz >= clear * clear;
}

/* Mean over the columns away from the body: the SURFACE layer's centre height (the top
 * liquid cell, m) and the level counted in markers (m). Also the largest speed on a
 * face between two liquid cells (m/s) and the owned cells. */
typedef struct meas {
    double ys, level, umax;
    double ys_all;      /* m: the top liquid cell's centre, mean over all columns */
    double vol_all;     /* m: (markers' volume + owned cells) / the tank's area + the floor */
    double vliq;        /* m³: the markers counted in liquid cells (PC per cell) */
    double vown;        /* m³: owned cells with centres below the mean surface (ys_all) */
    int owned, bubbles; /* bubbles: EMPTY cells two cells or more below the mean surface */
} meas;

static meas measure(sim *s, double clear)
{
    static unsigned char fl[NC];
    static int cnt[NC], ow[NC];
    static float f[(NX + 1) * (NY + 1) * (NZ + 1)];
    meas m;
    memset(&m, 0, sizeof m);
    lq_markers_params kp = {.dt = 0, .dx = h, .dy = h, .dz = h};
    CHECK_OK(lq_markers_classify(&s->ko, &s->pos, s->npart, &s->flags, &s->count, &kp));
    CHECK_OK(lq_field_download(&s->flags, fl));
    CHECK_OK(lq_field_download(&s->count, cnt));
    CHECK_OK(lq_field_download(&s->owner, ow));
    int ncol = 0;
    for (int k = 1; k < NZ - 1; k++)
        for (int i = 1; i < NX - 1; i++) {
            if (!away(s, i, k, clear)) continue;
            int top = 0;
            long n = 0;
            for (int j = 1; j < NY - 1; j++) {
                int c = LQ_MAC_CELL(i, j, k, NX, NY);
                if (fl[c] == LQ_MAC_FULL || fl[c] == LQ_MAC_SURFACE) top = j;
                n += cnt[c];
            }
            m.ys += (top + 0.5) * h;
            m.level += h + (double)n / PC * h; /* the floor's wall cell below */
            ncol++;
        }
    m.ys /= ncol;
    m.level /= ncol;
    for (int k = 1; k < NZ - 1; k++)
        for (int i = 1; i < NX - 1; i++) {
            int top = 0;
            long n = 0;
            for (int j = 1; j < NY - 1; j++) {
                int c = LQ_MAC_CELL(i, j, k, NX, NY);
                if (fl[c] == LQ_MAC_FULL || fl[c] == LQ_MAC_SURFACE) top = j;
                n += ow[c] ? PC : cnt[c];
            }
            m.ys_all += (top + 0.5) * h / ((NX - 2) * (NZ - 2));
            m.vol_all += (h + (double)n / PC * h) / ((NX - 2) * (NZ - 2));
        }
    m.bubbles = 0;
    for (int k = 1; k < NZ - 1; k++)
        for (int j = 1; j < NY - 1; j++)
            for (int i = 1; i < NX - 1; i++) {
                int c = LQ_MAC_CELL(i, j, k, NX, NY);
                if (fl[c] != LQ_MAC_EMPTY || (j + 0.5) * h > m.ys_all - 2 * h) continue;
                m.bubbles++;
            }
    for (int c = 0; c < NC; c++) {
        int j = c / NX % NY;
        if (ow[c] && (j + 0.5) * h < m.ys_all) m.vown += h * h * h;
        m.owned += ow[c] != 0;
        if (cnt[c] > 0) m.vliq += (double)cnt[c] / PC * h * h * h;
    }
    lq_field *fs[3] = {&s->u, &s->v, &s->w};
    for (int a = 0; a < 3; a++) {
        CHECK_OK(lq_field_download(fs[a], f));
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j < NY; j++)
                for (int i = 0; i < NX; i++) {
                    int n[3] = {i, j, k};
                    if (n[a] == 0) continue;
                    int c = LQ_MAC_CELL(i, j, k, NX, NY);
                    int d = c - (a == 0 ? 1 : a == 1 ? NX : NX * NY);
                    int lc = fl[c] == LQ_MAC_FULL || fl[c] == LQ_MAC_SURFACE;
                    int ld = fl[d] == LQ_MAC_FULL || fl[d] == LQ_MAC_SURFACE;
                    if (!lc || !ld) continue;
                    int q = a == 0   ? LQ_MAC_U(i, j, k, NX, NY)
                            : a == 1 ? LQ_MAC_V(i, j, k, NX, NY)
                                     : LQ_MAC_W(i, j, k, NX, NY);
                    m.umax = fmax(m.umax, fabs(f[q]));
                }
    }
    return m;
}

static lq_macbody_desc desc(int shape, double a, double b, double c, double s, double y)
{
    lq_macbody_desc d;
    memset(&d, 0, sizeof d);
    d.shape = shape;
    d.half[0] = a;
    d.half[1] = b;
    d.half[2] = c;
    d.density = 1000 * s;
    d.pos[0] = 0.5 * NX * h + 0.013;
    d.pos[1] = y;
    d.pos[2] = 0.5 * NZ * h - 0.007;
    d.q[0] = 1;
    d.restitution = 0.2;
    d.two_way = 1;
    snprintf(d.name, sizeof d.name, "body");
    return d;
}

static void test_box(lq_ctx *ctx)
{
    const double level = 0.33, s = 0.5, H = 0.15, dt = 0.004;
    /* equilibrium from the SURFACE layer the seed gives (centre of the cell holding the
     * level), raised by the box's displaced volume over the tank's area */
    lq_macbody_desc d = desc(LQ_SHAPE_BOX, 0.1, 0.5 * H, 0.1, s, 0);
    double ys0 = (floor(level / h) + 0.5) * h;
    d.pos[1] = ys0 - s * H + 0.5 * H + 0.3 * h;
    sim sm;
    sim_init(&sm, ctx, level, &d);
    sm.pp = lq_pressure_params_of(LQ_PRESSURE_RED_BLACK, (float)dt, h, h, h, 1e-4f, 1000);
    sm.pp.max_sweeps = 2000;
    int steps = (int)(2.0 / dt), avg = (int)(0.5 / dt);
    double draft = 0, ysm = 0, umax = 0, dmin = 1, dmax = 0;
    for (int q = 0; q < steps; q++) {
        sim_step(&sm, (float)dt);
        if (q % 25 == 0 || q >= steps - avg) {
            meas m = measure(&sm, 0.2);
            if (getenv("LQ_DEBUG"))
                fprintf(stderr, "box t %.3f y %.4f vy %.4f ys %.4f owned %d umax %.3f vliq %.5f\n",
                        sm.t, sm.bs.b[0].body.pos[1], sm.bs.b[0].body.vel[1], m.ys, m.owned, m.umax,
                        m.vliq);
            umax = fmax(umax, m.umax);
            if (q >= steps - avg) {
                const lq_body *b = &sm.bs.b[0].body;
                double dr = m.ys - (b->pos[1] - 0.5 * H);
                draft += dr / avg;
                ysm += m.ys / avg;
                dmin = fmin(dmin, dr);
                dmax = fmax(dmax, dr);
            }
        }
    }
    double tol = fmax(0.02 * H, 0.5 * h);
    fprintf(stderr,
            "%s: box s = %.2f, H = %.3f m: draft %.4f m over the last 0.5 s (s H = %.4f, "
            "error %.4f, tolerance %.4f; range %.4f to %.4f), surface layer at %.4f m, max "
            "liquid speed %.3f m/s\n",
            ctx->backend == LQ_BACKEND_REF ? "ref" : "opencl", s, H, draft, s * H, draft - s * H,
            tol, dmin, dmax, ysm, umax);
    CHECK(fabs(draft - s * H) <= tol);
    CHECK(umax > 0.01);
    sim_release(&sm);
}

/* A heavy ball dropped into the tank; two_way 0: the one-way control. */
static void test_ball(lq_ctx *ctx, int two_way)
{
    const double level = 0.65, r = 0.09, dt = 0.004;
    lq_macbody_desc d = desc(LQ_SHAPE_SPHERE, r, r, r, 2.0, level + r + 0.02);
    d.two_way = two_way;
    sim sm;
    sim_init(&sm, ctx, level, &d);
    sm.pp = lq_pressure_params_of(LQ_PRESSURE_RED_BLACK, (float)dt, h, h, h, 1e-4f, 1000);
    sm.pp.max_sweeps = 2000;
    meas m0 = measure(&sm, r + 2 * h);
    const double area = (NX - 2) * (NZ - 2) * h * h, vol = 4.0 / 3.0 * LQ_PI * r * r * r;
    double umax = 0, rise = 0, rise_cells = 0, vown = 0, ytop = 0, worst = 0;
    int steps = (int)(0.9 / dt), nrise = 0;
    for (int q = 0; q < steps; q++) {
        sim_step(&sm, (float)dt);
        const lq_body *b = &sm.bs.b[0].body;
        if (q % 10 && q < steps - 25) continue;
        meas m = measure(&sm, r + 2 * h);
        umax = fmax(umax, m.umax);
        if (getenv("LQ_DEBUG"))
            fprintf(stderr, "t %.3f y %.4f vy %.3f umax %.3f ys_all %.4f vliq %.5f vown %.5f\n",
                    sm.t, b->pos[1], b->vel[1], m.umax, m.ys_all, m.vliq, m.vown);
        /* the volume level: the liquid's markers and the body's owned cells under the
         * surface over the tank's area */
        double r1 = (m.vliq + m.vown - m0.vliq) / area;
        if (b->pos[1] + r < level - h && b->pos[1] - r > 2 * h) /* under water, falling */
            worst = fmax(worst, fabs(r1 - vol / area));
        if (q >= steps - 25) { /* on the floor, under water */
            rise += r1 / 25;
            rise_cells += (m.ys_all - m0.ys_all) / 25;
            vown += m.vown / 25;
            ytop = b->pos[1] + r;
            nrise++;
        }
    }
    double want = two_way ? vol / area : 0;
    fprintf(stderr,
            "%s: ball s = 2, r = %.3f m, %s: max liquid speed %.3g m/s; volume level (markers "
            "+ owned cells under the surface) +%.4f m (ball volume / area %.4f; owned cells "
            "%.5f m³ of %.5f; worst while falling under water %.4f), SURFACE cells' mean "
            "height %+.4f m (%d samples), ball top at %.3f m\n",
            ctx->backend == LQ_BACKEND_REF ? "ref" : "opencl", r, two_way ? "two-way" : "one-way",
            umax, rise, vol / area, vown, vol, worst, rise_cells, nrise, ytop);
    CHECK(ytop < m0.ys_all - h); /* the ball is under water */
    if (two_way) {
        CHECK(umax > 0.05);
        CHECK(fabs(rise - want) <= 0.25 * want);
        CHECK(worst <= 0.25 * want);
        CHECK(rise_cells > 0.5 * want); /* the surface layer does rise */
    } else {
        CHECK(umax < 1e-3); /* one-way: the liquid stays still (solver residue only) */
        CHECK(fabs(rise) <= 1e-9);
    }
    sim_release(&sm);
}

int main(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    test_box(&ref);
    test_ball(&ref, 1);
    test_ball(&ref, 0);
    CHECK_DONE();
}
