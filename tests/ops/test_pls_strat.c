/*
 * test_pls_strat.c — §5.5.3 stratified liquid particles near objects (Rasmussen et al.
 * 2004; host/ops/pls/plsobject.h lq_plsobject_strat_label, lq_plsobject_strat_apply):
 *  1. reference vs OpenCL, bit for bit (labels and moved particles), near a moving
 *     sphere, a moving turning box, a cylinder and a mesh-grid ball, 3D and 2D; and
 *     against an independent double-precision evaluation of the trilinear sdf and φ:
 *     exactly the liquid particles with φ ≤ 0 and 0 ≤ sdf < h are labelled, the others never move,
 * and every labelled one ends no closer to the objects than it was (sdf_t+δt ≥ d0 − 1e-3 h);
 *  2. the mapping at a plane face of a box moving at V along its normal: a particle carried
 *     with the box, or sliding along it, is not touched; a particle at rest is pushed
 *     ahead by exactly V δt (its distance kept); one leaving faster is not touched;
 *  3. physics: a liquid film in a stagnation flow onto a slab (v = −a (y − y_w) above it,
 *     0 inside, u = a (x − x_c): the grid velocity §5.5.1 leaves next to an object),
 *     advected through the real RK2 (lq_plsparticles_advect) for a t = 3: without §5.5.3 the
 *     particles pile up in a thin band (their distance decays as e^(−a t)); with it the
 *     fraction closer than 0.1 h stays what it was at the start and no particle ends
 *     closer than its labelled start distance.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/pls/plsobject.h"
#include "ops/pls/plsparticles.h"
#include "lib/ref_sample.h"
#include "lib/twin.h"

static float frand(unsigned *r, float lo, float hi)
{
    *r = *r * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)((*r >> 8) & 0xffff) / 65535.0f;
}

static void fill(lq_field *f, float x)
{
    float *b = malloc(f->count * sizeof(float));
    for (size_t q = 0; q < f->count; q++) b[q] = x;
    CHECK_OK(lq_field_upload(f, b));
    free(b);
}

static lq_plsobject_object make_obj(int kind, double cx, double cy, double cz, double s0, double s1,
                                    double s2, const double *keys, int nkeys)
{
    lq_plsobject_object ob;
    memset(&ob, 0, sizeof ob);
    ob.kind = kind;
    ob.c0[0] = cx, ob.c0[1] = cy, ob.c0[2] = cz;
    ob.size[0] = s0, ob.size[1] = s1, ob.size[2] = s2;
    ob.nkeys = nkeys;
    ob.keys = malloc((size_t)nkeys * 7 * sizeof(double));
    memcpy(ob.keys, keys, (size_t)nkeys * 7 * sizeof(double));
    return ob;
}

/* --- 1. twins and the invariants -------------------------------------------------------- */
/* Apart by more than 2 h (at nx ≥ 20) at both times: in a narrower gap between two objects
 * the sdf's ridge is below d0 and no position meets sdf ≥ d0 (the projection stops there
 * after LQ_PLSOBJECT_STRAT_ITERS steps). */
static void add_objects(lq_plsobject_ops *o, int nz)
{
    double ks[] = {0.0, 0, 0, 0, 0, 0, 0, 1.0, 0.3, -0.2, nz > 1 ? 0.1 : 0, 0, 0, 0};
    double kb[] = {0.0, 0, 0, 0, 0, 0, 0, 1.0, -0.2, 0.1, 0, 0, 0, 90};
    double kc[] = {0.0, 0, 0, 0, 0, 0, 0, 1.0, 0, 0.1, 0, nz > 1 ? 30 : 0, 0, -40};
    lq_plsobject_object sp = make_obj(1, 0.3, 0.65, 0.3, 0.14, 0, 0, ks, 2);
    lq_plsobject_object bx = make_obj(0, 0.72, 0.22, 0.3, 0.12, 0.06, 0.12, kb, 2);
    lq_plsobject_object cy = make_obj(3, 0.22, 0.2, 0.3, 0.07, 0.2, 0, kc, 2);
    cy.axis = nz > 1 ? 0 : 2;
    CHECK_OK(lq_plsobject_add(o, &sp));
    CHECK_OK(lq_plsobject_add(o, &bx));
    CHECK_OK(lq_plsobject_add(o, &cy));
}

static void test_twins(int nx, int ny, int nz)
{
    lq_ctx ctx[2];
    if (twin_open(&ctx[0], &ctx[1])) {
        CHECK(0);
        return;
    }
    float h = 1.0f / (float)nx, dt = 0.03f;
    double t0 = 0.3;
    size_t n = (size_t)nx * ny * nz;
    const int np = 6000;
    size_t nf = (size_t)np * LQ_PLSPARTICLES_STRIDE;
    lq_plsobject_ops po[2];
    lq_field sdf[2], part[2], lab[2], phi[2];
    float *pt = malloc(nf * 4), *moved = malloc(nf * 4), *got = malloc(nf * 4),
          *lb = malloc(nf * 4);
    float *sd0 = malloc(n * 4), *sd1 = malloc(n * 4), *ph = malloc(n * 4);
    unsigned r = 11;
    for (int k = 0; k < nz; k++) /* a smooth φ: about half the particles on each side */
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                ph[i + nx * (j + ny * k)] =
                    0.6f * h *
                    sinf(7.0f * (float)i * h + 5.0f * (float)j * h + 3.0f * (float)k * h);
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_plsobject_ops_init(&po[s], &ctx[s], nx, ny, nz, h, 10 * h));
        add_objects(&po[s], nz);
        CHECK_OK(lq_field_alloc(&ctx[s], &sdf[s], "sdf", nx, ny, nz, 4));
        CHECK_OK(lq_field_alloc(&ctx[s], &part[s], "part", (int)nf, 1, 1, 4));
        CHECK_OK(lq_field_alloc(&ctx[s], &lab[s], "lab", (int)nf, 1, 1, 4));
        CHECK_OK(lq_field_alloc(&ctx[s], &phi[s], "phi", nx, ny, nz, 4));
        CHECK_OK(lq_field_upload(&phi[s], ph));
        CHECK_OK(lq_plsobject_update(&po[s], t0, NULL, &sdf[s]));
    }
    CHECK_OK(lq_field_download(&sdf[0], sd0));
    /* particles: most within 1.5 h of an object (rejection on the sdf at the start) */
    for (int q = 0; q < np; q++) {
        float *a = pt + (size_t)q * LQ_PLSPARTICLES_STRIDE;
        for (int tries = 0; tries < 200; tries++) {
            a[0] = frand(&r, 0, nx * h), a[1] = frand(&r, 0, ny * h);
            a[2] = nz == 1 ? 0.5f * h : frand(&r, 0, nz * h);
            double d = ref_trilinear(sd0, a, nx, ny, nz, h);
            if (q % 5 == 0 || (d > -0.3 * h && d < 1.5 * h)) break;
        }
        a[3] = frand(&r, 0.1f * h, 0.5f * h) * (q % 4 == 0 ? 1.0f : -1.0f);
        if (q % 23 == 0) a[3] = 0.0f; /* dead */
    }
    /* the move: up to 0.6 h per axis, liquid particles pushed towards the objects more
     * often than not (half of them move down the sdf gradient by up to 0.6 h) */
    for (int q = 0; q < np; q++) {
        const float *a = pt + (size_t)q * LQ_PLSPARTICLES_STRIDE;
        float *b = moved + (size_t)q * LQ_PLSPARTICLES_STRIDE;
        double g[3] = {0, 0, 0}, e = 0.5 * h;
        for (int ax = 0; ax < (nz > 1 ? 3 : 2); ax++) {
            float pp[3] = {a[0], a[1], a[2]}, pm[3] = {a[0], a[1], a[2]};
            pp[ax] += (float)e, pm[ax] -= (float)e;
            g[ax] = ref_trilinear(sd0, pp, nx, ny, nz, h) - ref_trilinear(sd0, pm, nx, ny, nz, h);
        }
        double gl = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) + 1e-30;
        float push = q % 2 ? frand(&r, 0, 0.6f * h) : 0.0f;
        for (int ax = 0; ax < 3; ax++) {
            float dx = (nz == 1 && ax == 2) ? 0.0f : frand(&r, -0.6f * h, 0.6f * h);
            float L = ax == 0 ? nx * h : ax == 1 ? ny * h : nz * h;
            float x = a[ax] + dx - push * (float)(g[ax] / gl);
            b[ax] = x < 0 ? 0 : x > L ? L : x;
        }
        b[3] = a[3];
    }
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&part[s], pt));
        CHECK_OK(
            lq_plsobject_strat_label(&po[s], &part[s], &lab[s], np - 7, &sdf[s], &phi[s], h, dt));
        CHECK_OK(lq_field_upload(&part[s], moved));
        CHECK_OK(lq_plsobject_update(&po[s], t0 + dt, NULL, &sdf[s]));
        CHECK_OK(lq_plsobject_strat_apply(&po[s], &part[s], &lab[s], np - 7, &sdf[s], dt));
    }
    CHECK_OK(lq_ctx_finish(&ctx[1]));
    twin_pair p = {lab[0], lab[1]};
    twin_check_exact("plsobject.strat_label", &p);
    twin_pair p2 = {part[0], part[1]};
    twin_check_exact("plsobject.strat_apply", &p2);
    CHECK_OK(lq_field_download(&sdf[1], sd1));
    CHECK_OK(lq_field_download(&part[1], got));
    CHECK_OK(lq_field_download(&lab[1], lb));
    int labelled = 0, wrong_label = 0, moved_unlab = 0, pushed = 0, closer_before = 0, gated = 0;
    double worst = 0, worst_before = 0;
    for (int q = 0; q < np; q++) {
        const float *a = pt + (size_t)q * LQ_PLSPARTICLES_STRIDE,
                    *b = moved + (size_t)q * LQ_PLSPARTICLES_STRIDE;
        const float *c = got + (size_t)q * LQ_PLSPARTICLES_STRIDE,
                    *l = lb + (size_t)q * LQ_PLSPARTICLES_STRIDE;
        double d0 = ref_trilinear(sd0, a, nx, ny, nz, h), f0 = ref_trilinear(ph, a, nx, ny, nz, h);
        bool want = q < np - 7 && a[3] < 0 && f0 <= 0 && d0 >= 0 && d0 < h;
        bool near_edge = fabs(d0) < 1e-5 * h || fabs(d0 - h) < 1e-5 * h || fabs(f0) < 1e-5 * h;
        gated += q < np - 7 && a[3] < 0 && f0 > 0 && d0 >= 0 && d0 < h;
        bool is = q < np - 7 && l[3] >= 0;
        if (!near_edge) wrong_label += want != is;
        if (is) {
            labelled++;
            CHECK(fabs(l[3] - d0) < 1e-5 * h);
            double d1 = ref_trilinear(sd1, c, nx, ny, nz, h),
                   db = ref_trilinear(sd1, b, nx, ny, nz, h);
            worst = fmax(worst, l[3] - d1);
            worst_before = fmax(worst_before, l[3] - db);
            closer_before += db < l[3];
            pushed += memcmp(b, c, 12) != 0;
        } else {
            moved_unlab += memcmp(b, c, 16) != 0;
        }
    }
    fprintf(stderr,
            "strat twins %dx%dx%d: %d labelled (%d wrong; %d near but φ > 0), %d closer than d0 "
            "after the move "
            "(worst %.3f h), %d moved; after: worst shortfall %.2e h; unlabelled moved: %d\n",
            nx, ny, nz, labelled, wrong_label, gated, closer_before, worst_before / h, pushed,
            worst / h, moved_unlab);
    CHECK(labelled > 300 && gated > 300 && wrong_label == 0 && moved_unlab == 0);
    CHECK(closer_before > 200 && pushed >= closer_before);
    CHECK(worst < 1e-3 * h);
    for (int s = 0; s < 2; s++) {
        lq_plsobject_ops_release(&po[s]);
        lq_field_release(&sdf[s]);
        lq_field_release(&part[s]);
        lq_field_release(&lab[s]);
        lq_field_release(&phi[s]);
    }
    free(pt), free(moved), free(got), free(lb), free(sd0), free(sd1), free(ph);
    lq_ctx_close(&ctx[0]);
    lq_ctx_close(&ctx[1]);
}

/* --- 2. a plane face moving along its normal ------------------------------------------- */
static void test_plane(void)
{
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    int nx = 32, ny = 32, nz = 1;
    float h = 1.0f / 32, dt = 0.02f;
    double V = 0.5; /* m/s along +x */
    /* a box spanning x in [−0.6, 0.4] + V t, y in [−1, 2]: its +x face is the only one near */
    double keys[] = {0.0, 0, 0, 0, 0, 0, 0, 10.0, 10 * V, 0, 0, 0, 0, 0};
    lq_plsobject_ops po;
    lq_field sdf, part, lab, phi;
    CHECK_OK(lq_plsobject_ops_init(&po, &ctx, nx, ny, nz, h, 10 * h));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", nx, ny, nz, 4));
    fill(&phi, -h); /* all liquid */
    lq_plsobject_object bx = make_obj(0, -0.1, 0.5, 0.5 * h, 0.5, 1.5, 1.0, keys, 2);
    CHECK_OK(lq_plsobject_add(&po, &bx));
    CHECK_OK(lq_field_alloc(&ctx, &sdf, "sdf", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &part, "part", 5 * LQ_PLSPARTICLES_STRIDE, 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &lab, "lab", 5 * LQ_PLSPARTICLES_STRIDE, 1, 1, 4));
    double t0 = 1.0, X0 = 0.4 + V * t0, Vdt = V * dt;
    CHECK_OK(lq_plsobject_update(&po, t0, NULL, &sdf));
    float d0 = 0.4f * h, y = 0.5f, zc = 0.5f * h;
    float x0 = (float)(X0 + d0);
    float in[5 * 4] = {x0, y,         zc, -0.2f * h, x0, y,         zc, -0.2f * h, x0, y,
                       zc, -0.2f * h, x0, y,         zc, -0.2f * h, x0, y,         zc, 0.2f * h};
    /* a: carried with the box; b: at rest; c: with the box and sliding along it (y);
     * d: leaving faster than the box; e: an air particle at rest (not labelled) */
    float mv[5 * 4];
    memcpy(mv, in, sizeof in);
    mv[0] = (float)(x0 + Vdt);
    mv[8] = (float)(x0 + Vdt), mv[9] = y + 0.3f * h;
    mv[12] = (float)(x0 + 2 * Vdt), mv[13] = y - 0.2f * h;
    CHECK_OK(lq_field_upload(&part, in));
    CHECK_OK(lq_plsobject_strat_label(&po, &part, &lab, 5, &sdf, &phi, h, dt));
    CHECK_OK(lq_field_upload(&part, mv));
    CHECK_OK(lq_plsobject_update(&po, t0 + dt, NULL, &sdf));
    CHECK_OK(lq_plsobject_strat_apply(&po, &part, &lab, 5, &sdf, dt));
    float out[5 * 4], lb[5 * 4], sd[32 * 32];
    CHECK_OK(lq_field_download(&part, out));
    CHECK_OK(lq_field_download(&lab, lb));
    CHECK_OK(lq_field_download(&sdf, sd));
    double X1 = X0 + Vdt;
    fprintf(stderr,
            "strat plane (V dt = %.3f h): labels %.4f %.4f %.4f %.4f %.4f h; x − X1 after: "
            "%.5f %.5f %.5f %.5f %.5f h (d0 %.4f h)\n",
            Vdt / h, lb[3] / h, lb[7] / h, lb[11] / h, lb[15] / h, lb[19] / h, (out[0] - X1) / h,
            (out[4] - X1) / h, (out[8] - X1) / h, (out[12] - X1) / h, (out[16] - X1) / h, d0 / h);
    for (int q = 0; q < 4; q++) CHECK(fabs(lb[4 * q + 3] - d0) < 1e-4 * h);
    CHECK(lb[19] < 0);
    CHECK(fabs(out[0] - mv[0]) < 1e-5 * h && out[1] == mv[1]);              /* a */
    CHECK(fabs(out[4] - (x0 + Vdt)) < 1e-3 * h && out[5] == mv[5]);         /* b: pushed V dt */
    CHECK(fabs(ref_trilinear(sd, out + 4, nx, ny, nz, h) - d0) < 1e-3 * h); /* b: at d0 again */
    CHECK(fabs(out[8] - mv[8]) < 1e-5 * h && out[9] == mv[9]);              /* c */
    CHECK(out[12] == mv[12] && out[13] == mv[13]);                          /* d */
    CHECK(memcmp(out + 16, mv + 16, 16) == 0);                              /* e */
    lq_plsobject_ops_release(&po);
    lq_field_release(&sdf);
    lq_field_release(&part);
    lq_field_release(&lab);
    lq_field_release(&phi);
    lq_ctx_close(&ctx);
}

/* --- 3. a film in a stagnation flow onto a slab ------------------------------------------- */
typedef struct film_result {
    double frac01_start, frac01_end; /* liquid particles with sdf < 0.1 h */
    double min_end;                  /* smallest sdf of a liquid particle at the end (h) */
    double worst;                    /* worst d0 − sdf after an apply, over all steps (h) */
    int inside;                      /* liquid particles with sdf < 0 at the end */
} film_result;

static film_result run_film(bool strat)
{
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    int nx = 48, ny = 24, nz = 1, np = 3000, steps = 150;
    float h = 0.01f, a = 5.0f, dt = 0.004f; /* a t = 3 */
    float yw = 4 * h, xc = 0.5f * nx * h;   /* the slab: y < yw (cells j < 4) */
    lq_plsparticles_ops ko;
    lq_plsparticles_state ks;
    lq_plsobject_ops po;
    lq_field sdf, u, v, w, phi;
    CHECK_OK(lq_plsparticles_ops_init(&ko, &ctx, nx, ny, nz));
    CHECK_OK(lq_plsparticles_state_init(&ks, &ctx, nx, ny, nz, np));
    CHECK_OK(lq_plsobject_ops_init(&po, &ctx, nx, ny, nz, h, 10 * h)); /* no objects: vel 0 */
    CHECK_OK(lq_field_alloc(&ctx, &sdf, "sdf", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", nx + 1, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", nx, ny + 1, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", nx, ny, nz + 1, 4));
    CHECK_OK(lq_field_zero(&w, 0));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", nx, ny, nz, 4));
    fill(&phi, -h); /* the film: liquid throughout */
    float *sd = malloc(sizeof(float) * nx * ny), *uf = malloc(sizeof(float) * (nx + 1) * ny);
    float *vf = malloc(sizeof(float) * nx * (ny + 1)), *pt = malloc(sizeof(float) * 4 * np);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) sd[i + nx * j] = ((float)j + 0.5f) * h - yw;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i <= nx; i++) /* 0 on the domain walls */
            uf[i + (nx + 1) * j] = i == 0 || i == nx ? 0.0f : a * ((float)i * h - xc);
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < nx; i++) /* towards the slab above it, 0 inside (§5.5.1) */
            vf[i + nx * j] = j == ny || (float)j * h <= yw ? 0.0f : -a * ((float)j * h - yw);
    CHECK_OK(lq_field_upload(&sdf, sd));
    CHECK_OK(lq_field_upload(&u, uf));
    CHECK_OK(lq_field_upload(&v, vf));
    unsigned r = 5;
    for (int q = 0; q < np; q++) { /* a film 3 h thick on the slab, liquid particles */
        pt[4 * q] = frand(&r, 0, nx * h);
        pt[4 * q + 1] = yw + frand(&r, 0, 3 * h);
        pt[4 * q + 2] = 0.5f * h;
        pt[4 * q + 3] = -0.2f * h;
    }
    CHECK_OK(lq_plsparticles_upload(&ks, pt, np));
    lq_plsparticles_params kp;
    memset(&kp, 0, sizeof kp);
    kp.h = h;
    kp.dt = dt;
    film_result res = {0, 0, 1e30, 0, 0};
    for (int q = 0; q < np; q++) res.frac01_start += pt[4 * q + 1] - yw < 0.1f * h;
    res.frac01_start /= np;
    float *lb = malloc(sizeof(float) * 4 * np);
    for (int s = 0; s < steps; s++) {
        lq_field *lab = &ks.part[1 - ks.cur];
        if (strat)
            CHECK_OK(
                lq_plsobject_strat_label(&po, &ks.part[ks.cur], lab, ks.live, &sdf, &phi, h, dt));
        CHECK_OK(lq_plsparticles_advect(&ko, &ks, &u, &v, &w, &kp));
        if (strat) {
            CHECK_OK(lq_plsobject_strat_apply(&po, &ks.part[ks.cur], lab, ks.live, &sdf, dt));
            CHECK_OK(lq_field_download(lab, lb));
            CHECK_OK(lq_field_download(&ks.part[ks.cur], pt));
            for (int q = 0; q < ks.live; q++)
                if (lb[4 * q + 3] >= 0)
                    res.worst =
                        fmax(res.worst,
                             (lb[4 * q + 3] - ref_trilinear(sd, pt + 4 * q, nx, ny, nz, h)) / h);
        }
    }
    int n = 0;
    CHECK_OK(lq_plsparticles_download(&ks, pt, np, &n));
    for (int q = 0; q < n; q++) {
        double d = ref_trilinear(sd, pt + 4 * q, nx, ny, nz, h) / h;
        res.frac01_end += d < 0.1;
        res.min_end = fmin(res.min_end, d);
        res.inside += d < 0;
    }
    res.frac01_end /= n;
    free(sd), free(uf), free(vf), free(pt), free(lb);
    lq_plsparticles_ops_release(&ko);
    lq_plsparticles_state_release(&ks);
    lq_plsobject_ops_release(&po);
    lq_field_release(&sdf);
    lq_field_release(&u);
    lq_field_release(&v);
    lq_field_release(&w);
    lq_field_release(&phi);
    lq_ctx_close(&ctx);
    return res;
}

static void test_film(void)
{
    film_result o = run_film(false), s = run_film(true);
    fprintf(stderr,
            "strat film (stagnation flow onto a slab, a t = 3): liquid particles closer than "
            "0.1 h: start %.1f %%, end without %.1f %%, with %.1f %%; nearest at the end "
            "without %.2e h, with %.2e h; inside without %d, with %d; worst shortfall after an "
            "apply %.2e h\n",
            100 * o.frac01_start, 100 * o.frac01_end, 100 * s.frac01_end, o.min_end, s.min_end,
            o.inside, s.inside, s.worst);
    CHECK(o.frac01_end > 3 * o.frac01_start); /* the pile-up the paper describes */
    CHECK(s.frac01_end < 1.5 * s.frac01_start + 0.005);
    CHECK(s.min_end >= 0 && s.inside == 0);
    CHECK(s.worst < 1e-3);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    (void)twin_check_float;
    test_plane();
    test_twins(20, 18, 12);
    test_twins(26, 24, 1);
    test_film();
    CHECK_DONE();
}
