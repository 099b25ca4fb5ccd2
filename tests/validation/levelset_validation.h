/*
 * levelset_validation.h — VALIDATION.md's `pls` interface-transport cases run with the
 * PLAIN level set (semi-Lagrangian advection, host/ops/pls/sladvect.h, plus reinitialisation,
 * host/ops/pls/reinit.h; no particles, no pressure solve: the velocities are prescribed on the
 * faces): Zalesak's slotted disk and the single vortex. Shared by the quick test
 * (tests/validation/test_levelset_validation.c, reduced) and the full one
 * (tests/validation/full_levelset_validation.c, the stated sizes). 2D (nz = 1).
 *
 * Area: Σ H_ε(−φ) h² with the smoothed Heaviside of width ε = 1.5 h (Osher & Fedkiw),
 * second-order accurate for a signed distance.
 */
#ifndef LQ_LEVELSET_VALIDATION_H
#define LQ_LEVELSET_VALIDATION_H

#pragma GCC diagnostic ignored "-Wunused-function"
#include "ops/pls/reinit.h"
#include "ops/pls/sladvect.h"
#include "lib/twin.h"

typedef struct lv_run {
    lq_ctx ctx;
    int n;
    double h, L;
    lq_field phi, phin, scr, u, v, w;
    float *hu, *hv, *hphi;
    lq_sladvect_ops sl;
    lq_reinit_ops ri;
    lq_reinit_params rp;
} lv_run;

static int lv_open(lv_run *r, const char *device, int n, double L, int method)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->L = L;
    r->h = L / n;
    int rc = lq_ctx_open(&r->ctx, device, false);
    if (!rc) rc = lq_field_alloc(&r->ctx, &r->phi, "phi", n, n, 1, 4);
    if (!rc) rc = lq_field_alloc(&r->ctx, &r->phin, "phin", n, n, 1, 4);
    if (!rc) rc = lq_field_alloc(&r->ctx, &r->scr, "scratch", n, n, 1, 4);
    if (!rc) rc = lq_field_alloc(&r->ctx, &r->u, "u", n + 1, n, 1, 4);
    if (!rc) rc = lq_field_alloc(&r->ctx, &r->v, "v", n, n + 1, 1, 4);
    if (!rc) rc = lq_field_alloc(&r->ctx, &r->w, "w", n, n, 2, 4);
    if (!rc) rc = lq_field_zero(&r->w, 0);
    if (!rc) rc = lq_sladvect_ops_init(&r->sl, &r->ctx, n, n, 1);
    if (!rc) rc = lq_reinit_ops_init(&r->ri, &r->ctx, n, n, 1);
    r->hu = calloc((size_t)(n + 1) * n, 4);
    r->hv = calloc((size_t)(n + 1) * n, 4);
    r->hphi = calloc((size_t)n * n, 4);
    r->rp = lq_reinit_params_default((float)r->h);
    r->rp.method = method;
    CHECK_OK(rc);
    return rc;
}

static void lv_close(lv_run *r)
{
    lq_sladvect_ops_release(&r->sl);
    lq_reinit_ops_release(&r->ri);
    lq_field *fs[] = {&r->phi, &r->phin, &r->scr, &r->u, &r->v, &r->w};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(r->hu), free(r->hv), free(r->hphi);
    lq_ctx_close(&r->ctx);
}

/* The scalar scheme of the φ advection (lq_sladvect_scheme; the tests may switch it). */
static int lv_scheme = LQ_SLADVECT_DEFAULT;

typedef void (*lv_vel)(double x, double y, double t, double *u, double *v);

/* Faces from the velocity function at time t. */
static int lv_set_faces(lv_run *r, lv_vel f, double t)
{
    int n = r->n;
    double h = r->h, a, b;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= n; i++) {
            f(i * h, (j + 0.5) * h, t, &a, &b);
            r->hu[LQ_MAC_U(i, j, 0, n, n)] = (float)a;
        }
    for (int j = 0; j <= n; j++)
        for (int i = 0; i < n; i++) {
            f((i + 0.5) * h, j * h, t, &a, &b);
            r->hv[LQ_MAC_V(i, j, 0, n, n)] = (float)b;
        }
    int rc = lq_field_upload(&r->u, r->hu);
    if (!rc) rc = lq_field_upload(&r->v, r->hv);
    return rc;
}

/* φ from a function of the cell centre (then reinitialised). */
static int lv_set_phi(lv_run *r, double (*f)(double x, double y))
{
    for (int j = 0; j < r->n; j++)
        for (int i = 0; i < r->n; i++)
            r->hphi[LQ_MAC_CELL(i, j, 0, r->n, r->n)] =
                (float)f((i + 0.5) * r->h, (j + 0.5) * r->h);
    int rc = lq_field_upload(&r->phi, r->hphi);
    if (!rc) rc = lq_reinit(&r->ri, &r->phi, &r->scr, &r->rp, NULL);
    return rc;
}

/* One step: advect φ over dt through the faces at the step's mid time, reinitialise. */
static int lv_step(lv_run *r, lv_vel f, double t, double dt, int reinit)
{
    lq_sladvect_params p = {(float)dt, (float)r->h, lv_scheme, 0, 0};
    int rc = lv_set_faces(r, f, t + 0.5 * dt);
    if (!rc) rc = lq_sladvect_advect_scalar(&r->sl, &r->phi, &r->phin, &r->u, &r->v, &r->w, &p);
    lq_field tmp = r->phi;
    r->phi = r->phin;
    r->phin = tmp;
    if (!rc && reinit) rc = lq_reinit(&r->ri, &r->phi, &r->scr, &r->rp, NULL);
    return rc;
}

/* Area (smoothed Heaviside) and centroid of φ ≤ 0 from the host copy. */
static double lv_area(lv_run *r, double *cx, double *cy)
{
    CHECK_OK(lq_field_download(&r->phi, r->hphi));
    double h = r->h, eps = 1.5 * h, A = 0, X = 0, Y = 0;
    for (int j = 0; j < r->n; j++)
        for (int i = 0; i < r->n; i++) {
            double p = -r->hphi[LQ_MAC_CELL(i, j, 0, r->n, r->n)], H;
            if (p < -eps)
                H = 0;
            else if (p > eps)
                H = 1;
            else
                H = 0.5 * (1 + p / eps + sin(LQ_PI * p / eps) / LQ_PI);
            A += H * h * h;
            X += H * h * h * (i + 0.5) * h;
            Y += H * h * h * (j + 0.5) * h;
        }
    if (cx) *cx = X / A;
    if (cy) *cy = Y / A;
    return A;
}

/* φ at a point (m): bilinear from the last lv_area download. */
static double lv_phi_at(const lv_run *r, double x, double y)
{
    int n = r->n;
    double gx = x / r->h - 0.5, gy = y / r->h - 0.5;
    int i = (int)floor(gx), j = (int)floor(gy);
    if (i < 0) i = 0;
    if (j < 0) j = 0;
    if (i > n - 2) i = n - 2;
    if (j > n - 2) j = n - 2;
    double fx = gx - i, fy = gy - j;
    const float *p = r->hphi;
    return (1 - fy) * ((1 - fx) * p[i + n * j] + fx * p[i + 1 + n * j]) +
           fy * ((1 - fx) * p[i + n * (j + 1)] + fx * p[i + 1 + n * (j + 1)]);
}

/* --- Zalesak's slotted disk ---------------------------------------------------------- */

static double lv_zalesak_phi(double x, double y)
{
    double disk = sqrt((x - 50) * (x - 50) + (y - 75) * (y - 75)) - 15;
    /* slot: |x − 50| ≤ 2.5, 60 ≤ y ≤ 85 (a box; distance inside it negative) */
    double dx = fabs(x - 50) - 2.5, dy = fmax(60 - y, y - 85);
    double box = dx > 0 || dy > 0 ? sqrt(fmax(dx, 0) * fmax(dx, 0) + fmax(dy, 0) * fmax(dy, 0))
                                  : fmax(dx, dy);
    return fmax(disk, -box); /* disk minus slot */
}

static void lv_zalesak_vel(double x, double y, double t, double *u, double *v)
{
    (void)t;
    *u = LQ_PI / 314 * (50 - y);
    *v = LQ_PI / 314 * (x - 50);
}

typedef struct lv_zalesak_result {
    double area0, area_half, area, exact;
    double cx0, cy0, cx_half, cy_half, cx, cy;
    double slot_phi, slot_phi0; /* φ at the slot centre (50, 70) after one turn, start */
    double ms;                  /* wall time per step */
} lv_zalesak_result;

/* Zalesak at n² over [0, 100]², steps per revolution, to t_end. */
static int lv_zalesak(const char *device, int n, int steps, double t_end, int method,
                      lv_zalesak_result *res)
{
    lv_run r;
    memset(res, 0, sizeof *res);
    if (lv_open(&r, device, n, 100.0, method)) return 1;
    int rc = lv_set_phi(&r, lv_zalesak_phi);
    res->exact = 582.2070;
    res->area0 = lv_area(&r, &res->cx0, &res->cy0);
    res->slot_phi0 = lv_phi_at(&r, 50, 70);
    double dt = 628.0 / steps;
    int m = (int)lround(t_end / dt);
    double t0 = lq_now();
    for (int s = 0; s < m && !rc; s++) {
        rc = lv_step(&r, lv_zalesak_vel, s * dt, dt, 1);
        if (2 * (s + 1) == steps) res->area_half = lv_area(&r, &res->cx_half, &res->cy_half);
    }
    if (!rc) rc = lq_ctx_finish(&r.ctx);
    res->ms = 1e3 * (lq_now() - t0) / (m > 0 ? m : 1);
    res->area = lv_area(&r, &res->cx, &res->cy);
    res->slot_phi = lv_phi_at(&r, 50, 70);
    CHECK_OK(rc);
    lv_close(&r);
    return rc;
}

/* --- single vortex ------------------------------------------------------------------ */

static double lv_vortex_T = 8.0;

static double lv_vortex_phi(double x, double y)
{
    return sqrt((x - 0.5) * (x - 0.5) + (y - 0.75) * (y - 0.75)) - 0.15;
}

static void lv_vortex_vel(double x, double y, double t, double *u, double *v)
{
    double c = cos(LQ_PI * t / lv_vortex_T), sx = sin(LQ_PI * x), sy = sin(LQ_PI * y);
    *u = -sx * sx * sin(2 * LQ_PI * y) * c;
    *v = sy * sy * sin(2 * LQ_PI * x) * c;
}

typedef struct lv_vortex_result {
    double area0, area_half, area, exact;
    double cx0, cy0, cx, cy;
    double ms;
} lv_vortex_result;

/* Single vortex at n², period T, dt = cfl·h, to t = T (area also at T/2). */
static int lv_vortex(const char *device, int n, double T, double cfl, int method,
                     lv_vortex_result *res)
{
    lv_run r;
    memset(res, 0, sizeof *res);
    lv_vortex_T = T;
    if (lv_open(&r, device, n, 1.0, method)) return 1;
    int rc = lv_set_phi(&r, lv_vortex_phi);
    res->exact = LQ_PI * 0.15 * 0.15;
    res->area0 = lv_area(&r, &res->cx0, &res->cy0);
    int m = (int)ceil(T / (cfl * r.h));
    m += m & 1;
    double dt = T / m, t0 = lq_now();
    for (int s = 0; s < m && !rc; s++) {
        rc = lv_step(&r, lv_vortex_vel, s * dt, dt, 1);
        if (2 * (s + 1) == m) res->area_half = lv_area(&r, NULL, NULL);
    }
    if (!rc) rc = lq_ctx_finish(&r.ctx);
    res->ms = 1e3 * (lq_now() - t0) / m;
    res->area = lv_area(&r, &res->cx, &res->cy);
    CHECK_OK(rc);
    lv_close(&r);
    return rc;
}

#endif
