/*
 * test_body.c — body.h against closed forms and brute force: mass and principal
 * inertia of each shape (also by grid integration), the exact per-step free-fall
 * formula of symplectic Euler, a torque-free symmetric top (L conserved, energy, the
 * analytic body-frame precession of ω), a constant torque, lq_body_column against
 * point-inside sampling of random rotated shapes, the support-function extent against
 * sampled surfaces, a ball bouncing to e² of its drop height, wall friction, head-on
 * collisions (velocity exchange at e = 1, momentum, kinematic scripted bodies), eq. 17,
 * scripted bodies following their path, and bodies on a height-field ground (the indexed
 * search against the plain one, bit for bit).
 */
#include "world/body.h"
#include "lib/check.h"
#include "core/common.h"

#include <stdbool.h>
#include <string.h>

static const double G[3] = {0, -9.81, 0};

static void rand_unit_quat(lq_rng *r, double q[4])
{
    double s = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = 2 * lq_rng_uniform(r) - 1;
        s += q[k] * q[k];
    }
    for (int k = 0; k < 4; k++) q[k] /= sqrt(s);
}

/* body = Rᵀ (p − c) */
static void to_body(const double R[9], const double c[3], const double p[3], double out[3])
{
    double d[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    for (int j = 0; j < 3; j++) out[j] = R[j] * d[0] + R[3 + j] * d[1] + R[6 + j] * d[2];
}

static int inside(const lq_body *b, const double p[3])
{
    double R[9], v[3];
    lq_body_rotation(b, R);
    to_body(R, b->pos, p, v);
    if (b->shape == LQ_SHAPE_BOX)
        return fabs(v[0]) <= b->half[0] && fabs(v[1]) <= b->half[1] && fabs(v[2]) <= b->half[2];
    double s = 0;
    for (int j = 0; j < 3; j++) s += v[j] * v[j] / (b->half[j] * b->half[j]);
    return s <= 1;
}

/* --- mass and inertia -------------------------------------------------------------- */

/* Mass and principal moments by midpoint-rule integration over a grid. */
static void integrate(const lq_body *b, double rho, double *m, double I[3])
{
    const int n = 160;
    const double *a = b->half;
    double h[3] = {2 * a[0] / n, 2 * a[1] / n, 2 * a[2] / n}, dv = h[0] * h[1] * h[2];
    *m = I[0] = I[1] = I[2] = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                double x = -a[0] + (i + 0.5) * h[0], y = -a[1] + (j + 0.5) * h[1];
                double z = -a[2] + (k + 0.5) * h[2];
                if (b->shape != LQ_SHAPE_BOX &&
                    x * x / (a[0] * a[0]) + y * y / (a[1] * a[1]) + z * z / (a[2] * a[2]) > 1)
                    continue;
                *m += rho * dv;
                I[0] += rho * dv * (y * y + z * z);
                I[1] += rho * dv * (x * x + z * z);
                I[2] += rho * dv * (x * x + y * y);
            }
}

static void test_mass_inertia(void)
{
    const double zero[3] = {0, 0, 0};
    lq_body b;

    const double r = 0.25, hs[3] = {r, 99, 99}; /* a sphere reads half[0] only */
    lq_body_init(&b, LQ_SHAPE_SPHERE, hs, 800, zero, NULL, NULL);
    double m = 800 * 4.0 / 3.0 * LQ_PI * r * r * r;
    CHECK(b.half[1] == r && b.half[2] == r);
    CHECK_NEAR(b.mass, m, 1e-12 * m);
    for (int k = 0; k < 3; k++) CHECK_NEAR(b.inertia[k], 0.4 * m * r * r, 1e-12 * m);
    CHECK_NEAR(lq_body_bounding_radius(&b), r, 0);

    const double he[3] = {0.3, 0.5, 0.2};
    lq_body_init(&b, LQ_SHAPE_ELLIPSOID, he, 1000, zero, NULL, NULL);
    m = 1000 * 4.0 / 3.0 * LQ_PI * 0.3 * 0.5 * 0.2;
    CHECK_NEAR(lq_body_volume(&b), 4.0 / 3.0 * LQ_PI * 0.03, 1e-15);
    CHECK_NEAR(b.mass, m, 1e-12 * m);
    CHECK_NEAR(b.inertia[0], m * (0.25 + 0.04) / 5, 1e-12 * m);
    CHECK_NEAR(b.inertia[1], m * (0.09 + 0.04) / 5, 1e-12 * m);
    CHECK_NEAR(b.inertia[2], m * (0.09 + 0.25) / 5, 1e-12 * m);
    CHECK_NEAR(lq_body_bounding_radius(&b), 0.5, 0);
    double mi, I[3];
    integrate(&b, 1000, &mi, I);
    CHECK_NEAR(mi, b.mass, 0.01 * b.mass);
    for (int k = 0; k < 3; k++) CHECK_NEAR(I[k], b.inertia[k], 0.01 * b.inertia[k]);

    const double hb[3] = {0.5, 0.1, 0.3}; /* edges 1, 0.2, 0.6 */
    lq_body_init(&b, LQ_SHAPE_BOX, hb, 500, zero, NULL, NULL);
    m = 500 * 1 * 0.2 * 0.6;
    CHECK_NEAR(b.mass, m, 1e-12 * m);
    CHECK_NEAR(b.inertia[0], m / 12 * (0.04 + 0.36), 1e-12 * m);
    CHECK_NEAR(b.inertia[1], m / 12 * (1 + 0.36), 1e-12 * m);
    CHECK_NEAR(b.inertia[2], m / 12 * (1 + 0.04), 1e-12 * m);
    CHECK_NEAR(lq_body_bounding_radius(&b), sqrt(0.25 + 0.01 + 0.09), 1e-15);
    integrate(&b, 500, &mi, I);
    CHECK_NEAR(mi, b.mass, 1e-9 * b.mass);
    for (int k = 0; k < 3; k++) CHECK_NEAR(I[k], b.inertia[k], 1e-3 * b.inertia[k]);
}

static void test_rotation_view(void)
{
    const double zero[3] = {0, 0, 0}, h[3] = {1, 2, 3}, pos[3] = {1, 2, 3};
    const double q[4] = {cos(LQ_PI / 4) * 3, 0, 0, sin(LQ_PI / 4) * 3}; /* 90° about z */
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_BOX, h, 1, pos, zero, q);
    CHECK_NEAR(b.q[0] * b.q[0] + b.q[3] * b.q[3], 1, 1e-15); /* normalised */
    lq_view_object v;
    lq_body_view(&b, 0.1f, 0.2f, 0.3f, &v);
    CHECK(v.shape == LQ_SHAPE_BOX && v.half[2] == 3 && v.pos[1] == 2 && v.rgb[2] == 0.3f);
    /* 90° about z takes body x to world y: world = rot · body */
    CHECK_NEAR(v.rot[0], 0, 1e-15);
    CHECK_NEAR(v.rot[3], 1, 1e-15);
    CHECK_NEAR(v.rot[1], -1, 1e-15);
    CHECK_NEAR(v.rot[8], 1, 1e-15);
}

/* --- integration ------------------------------------------------------------------- */

/* Symplectic Euler under constant g gives, after n steps (t = n dt), exactly
 * x = x0 + v0 t + ½ g t² + ½ g dt t and v = v0 + g t. */
static void test_free_fall(void)
{
    const double h[3] = {0.1, 0.1, 0.1}, x0[3] = {1, 20, -2}, v0[3] = {1.5, 3, -0.5};
    const double dt = 1e-3;
    const int n = 1000;
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_SPHERE, h, 1000, x0, v0, NULL);
    for (int i = 1; i <= n; i++) lq_body_step(&b, dt, i * dt, NULL, NULL, G);
    double t = n * dt;
    for (int k = 0; k < 3; k++) {
        double exact = x0[k] + v0[k] * t + 0.5 * G[k] * t * t;
        CHECK_NEAR(b.pos[k], exact + 0.5 * G[k] * dt * t, 1e-11);
        CHECK_NEAR(b.vel[k], v0[k] + G[k] * t, 1e-11);
        CHECK(fabs(b.pos[k] - exact) <= 0.5 * fabs(G[k]) * dt * t + 1e-11);
    }
    /* a force that cancels gravity: uniform motion */
    double f[3] = {0, 9.81 * b.mass, 0}, p[3], v[3];
    memcpy(p, b.pos, sizeof p);
    memcpy(v, b.vel, sizeof v);
    for (int i = 0; i < 100; i++) lq_body_step(&b, dt, 0, f, NULL, G);
    for (int k = 0; k < 3; k++) CHECK_NEAR(b.pos[k], p[k] + 0.1 * v[k], 1e-11);
}

/* Torque-free symmetric top (I1 = I2): L is constant in the world, the energy
 * ½ ω · L is constant, ω3 (body) is constant and (ω1, ω2) (body) turn at
 * Ω = (I3 − I1)/I1 · ω3. */
static void test_torque_free(void)
{
    const double h[3] = {0.4, 0.4, 0.15}, zero[3] = {0, 0, 0};
    const double q0[4] = {0.9, 0.2, -0.3, 0.1};
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_ELLIPSOID, h, 1000, zero, NULL, q0);
    CHECK_NEAR(b.inertia[0], b.inertia[1], 1e-12 * b.inertia[0]);
    double R[9], wb0[3] = {2, -1, 6}, L0[3], E0 = 0;
    lq_body_rotation(&b, R);
    for (int i = 0; i < 3; i++) {
        b.omega[i] = R[3 * i] * wb0[0] + R[3 * i + 1] * wb0[1] + R[3 * i + 2] * wb0[2];
        L0[i] = 0;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) L0[i] += R[3 * i + j] * b.inertia[j] * wb0[j];
    for (int j = 0; j < 3; j++) E0 += 0.5 * b.inertia[j] * wb0[j] * wb0[j];
    double w_start[3];
    memcpy(w_start, b.omega, sizeof w_start);

    const double dt = 1e-3;
    const int n = 1000;
    for (int s = 1; s <= n; s++) lq_body_step(&b, dt, s * dt, NULL, NULL, G);

    double wb[3], L[3] = {0, 0, 0}, E = 0, qn = 0;
    lq_body_rotation(&b, R);
    to_body(R, zero, b.omega, wb);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) L[i] += R[3 * i + j] * b.inertia[j] * wb[j];
    for (int j = 0; j < 3; j++) E += 0.5 * b.inertia[j] * wb[j] * wb[j];
    for (int k = 0; k < 4; k++) qn += b.q[k] * b.q[k];
    CHECK_NEAR(qn, 1, 1e-14);
    double Ln = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    for (int i = 0; i < 3; i++) CHECK_NEAR(L[i], L0[i], 1e-12 * Ln);
    CHECK_NEAR(E, E0, 1e-7 * E0); /* measured 8e-9; first order in the rotation: 2e-3 */
    /* analytic body-frame precession */
    double Om = (b.inertia[2] - b.inertia[0]) / b.inertia[0] * wb0[2], T = n * dt;
    double w1 = wb0[0] * cos(Om * T) - wb0[1] * sin(Om * T);
    double w2 = wb0[0] * sin(Om * T) + wb0[1] * cos(Om * T);
    CHECK_NEAR(wb[0], w1, 1e-4);
    CHECK_NEAR(wb[1], w2, 1e-4);
    CHECK_NEAR(wb[2], wb0[2], 1e-4);
    /* the test means something: ω turned in the world */
    double dw = 0;
    for (int k = 0; k < 3; k++) dw += (b.omega[k] - w_start[k]) * (b.omega[k] - w_start[k]);
    CHECK(sqrt(dw) > 1);
}

/* A constant torque on a sphere: ω = τ t / I, and the angle turned is the symplectic
 * sum α dt² n (n + 1)/2. */
static void test_torque(void)
{
    const double h[3] = {0.2, 0.2, 0.2}, zero[3] = {0, 0, 0}, tau[3] = {0, 0.5, 0};
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_SPHERE, h, 1000, zero, NULL, NULL);
    for (int s = 1; s <= 200; s++) lq_body_step(&b, 0.01, 0.01 * s, NULL, tau, NULL);
    CHECK_NEAR(b.omega[1], 0.5 * 2 / b.inertia[1], 1e-12);
    CHECK_NEAR(b.omega[0], 0, 1e-15);
    /* turned by ½ α t² (+ the symplectic ½ α dt t): angle of q about y */
    double angle = 2 * atan2(b.q[2], b.q[0]), alpha = 0.5 / b.inertia[1];
    CHECK_NEAR(angle, 0.5 * alpha * 4 + 0.5 * alpha * 0.01 * 2, 1e-9);
}

/* --- geometry ---------------------------------------------------------------------- */

static void test_column(void)
{
    lq_rng r;
    lq_rng_seed(&r, 7);
    int hits = 0, misses = 0;
    for (int trial = 0; trial < 300; trial++) {
        int shape = trial % 3;
        double h[3], pos[3], q[4];
        for (int k = 0; k < 3; k++) {
            h[k] = 0.1 + 0.9 * lq_rng_uniform(&r);
            pos[k] = 4 * lq_rng_uniform(&r) - 2;
        }
        rand_unit_quat(&r, q);
        if (trial % 10 == 0) q[1] = q[3] = 0; /* about y only: slabs parallel to the line */
        if (trial % 20 == 0) q[2] = 0;        /* identity */
        lq_body b;
        lq_body_init(&b, shape, h, 1, pos, NULL, trial % 20 == 0 ? NULL : q);
        double rb = lq_body_bounding_radius(&b);
        for (int c = 0; c < 10; c++) {
            double x = pos[0] + rb * (2 * lq_rng_uniform(&r) - 1);
            double z = pos[2] + rb * (2 * lq_rng_uniform(&r) - 1);
            double y0, y1, lo = INFINITY, hi = -INFINITY;
            lq_body_column(&b, x, z, &y0, &y1);
            const int ns = 4000;
            double dy = 2 * rb / ns;
            for (int s = 0; s <= ns; s++) {
                double p[3] = {x, pos[1] - rb + s * dy, z};
                if (inside(&b, p)) {
                    lo = LQ_MIN(lo, p[1]);
                    hi = LQ_MAX(hi, p[1]);
                }
            }
            if (lo <= hi) {
                hits++;
                CHECK_MSG(fabs(y0 - lo) <= dy * 1.0001 && fabs(y1 - hi) <= dy * 1.0001,
                          "shape %d trial %d: column [%g, %g], sampled [%g, %g]", shape, trial, y0,
                          y1, lo, hi);
            } else if (!isnan(y0)) {
                /* a graze the samples stepped over */
                CHECK_MSG(y1 - y0 <= 2 * dy, "shape %d trial %d: column [%g, %g] not sampled",
                          shape, trial, y0, y1);
            } else {
                misses++;
                CHECK(isnan(y1));
            }
        }
    }
    CHECK(hits > 1000 && misses > 200);
}

/* The support function is the largest world coordinate of a surface point. */
static void test_extent(void)
{
    lq_rng r;
    lq_rng_seed(&r, 3);
    const double zero[3] = {0, 0, 0};
    for (int trial = 0; trial < 40; trial++) {
        double h[3] = {0.2 + lq_rng_uniform(&r), 0.2 + lq_rng_uniform(&r),
                       0.2 + lq_rng_uniform(&r)};
        double q[4], R[9];
        rand_unit_quat(&r, q);
        lq_body b;
        lq_body_init(&b, 1 + trial % 2, h, 1, zero, NULL, q);
        lq_body_rotation(&b, R);
        for (int k = 0; k < 3; k++) {
            double best = 0;
            if (b.shape == LQ_SHAPE_BOX) {
                for (int c = 0; c < 8; c++) {
                    double v = 0;
                    for (int j = 0; j < 3; j++) v += R[3 * k + j] * ((c >> j & 1) ? h[j] : -h[j]);
                    best = LQ_MAX(best, v);
                }
                CHECK_NEAR(lq_body_extent(&b, k), best, 1e-14);
            } else {
                for (int i = 0; i <= 200; i++)
                    for (int j = 0; j < 400; j++) {
                        double th = LQ_PI * i / 200, ph = 2 * LQ_PI * j / 400;
                        double u[3] = {h[0] * sin(th) * cos(ph), h[1] * sin(th) * sin(ph),
                                       h[2] * cos(th)};
                        best = LQ_MAX(best,
                                      R[3 * k] * u[0] + R[3 * k + 1] * u[1] + R[3 * k + 2] * u[2]);
                    }
                double e = lq_body_extent(&b, k);
                CHECK(best <= e + 1e-14);
                CHECK_NEAR(e, best, 1e-3 * e);
            }
        }
    }
}

/* --- collisions -------------------------------------------------------------------- */

/* A ball dropped from height H onto the floor rises to e² H. */
static void test_bounce(void)
{
    const double r = 0.1, H = 1, e = 0.8, dt = 1e-4;
    const double h[3] = {r, r, r}, pos[3] = {0, r + H, 0}, lo[3] = {-1, 0, -1}, hi[3] = {1, 3, 1};
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_SPHERE, h, 500, pos, NULL, NULL);
    b.restitution = e;
    int bounced = 0;
    double apex = 0;
    for (int s = 1; s < 100000; s++) {
        lq_body_step(&b, dt, s * dt, NULL, NULL, G);
        lq_body_collide_box(&b, lo, hi);
        CHECK(b.pos[1] >= r);
        if (!bounced && b.vel[1] > 0) bounced = 1;
        if (bounced) apex = LQ_MAX(apex, b.pos[1] - r);
        if (bounced && b.vel[1] < 0) break;
    }
    CHECK(bounced);
    CHECK_MSG(fabs(apex - e * e * H) < 0.01 * e * e * H, "apex %g, want %g", apex, e * e * H);
}

/* Wall contact: normal velocity reflected with e, tangential reduced by μ (1 + e) |v_n|,
 * never reversed; a rotated box touches with its support extent. */
static void test_walls(void)
{
    const double h[3] = {0.1, 0.1, 0.1}, pos[3] = {0.95, 0.5, 0}, v[3] = {2, 1, 0};
    const double lo[3] = {-1, 0, -1}, hi[3] = {1, 3, 1};
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_SPHERE, h, 500, pos, v, NULL);
    b.restitution = 0.5;
    b.friction = 0.2;
    lq_body_collide_box(&b, lo, hi);
    CHECK_NEAR(b.pos[0], 0.9, 1e-15);
    CHECK_NEAR(b.vel[0], -1, 1e-15);
    CHECK_NEAR(b.vel[1], 1 - 0.2 * 1.5 * 2, 1e-15);
    b.vel[0] = 10; /* friction would reverse vt: it stops instead */
    b.pos[0] = 0.95;
    lq_body_collide_box(&b, lo, hi);
    CHECK(b.vel[1] == 0 && b.vel[2] == 0);

    /* a cube standing on an edge: 45° about z, lowest edge at centre − a√2 */
    const double q[4] = {cos(LQ_PI / 8), 0, 0, sin(LQ_PI / 8)}, p2[3] = {0, 0.1, 0};
    lq_body_init(&b, LQ_SHAPE_BOX, h, 500, p2, NULL, q);
    lq_body_collide_box(&b, lo, hi);
    CHECK_NEAR(b.pos[1], 0.1 * sqrt(2), 1e-15);

    /* scripted bodies are left alone */
    const double tk[2] = {0, 1}, pk[6] = {0, -5, 0, 0, -5, 0};
    lq_path *path = NULL;
    CHECK_OK(lq_path_from_keys(&path, 2, tk, pk, NULL));
    lq_body_attach(&b, path, p2, NULL, 0.5);
    lq_body_collide_box(&b, lo, hi);
    CHECK_NEAR(b.pos[1], -4.9, 1e-15);
    lq_path_free(path);
}

static void test_pair(void)
{
    const double h[3] = {0.1, 0.1, 0.1}, pa[3] = {0, 1, 0}, pb[3] = {0.19, 1, 0};
    const double va[3] = {1, 0.3, 0}, vb[3] = {-1, 0.3, 0};
    lq_body a, b;
    lq_body_init(&a, LQ_SHAPE_SPHERE, h, 1000, pa, va, NULL);
    lq_body_init(&b, LQ_SHAPE_SPHERE, h, 1000, pb, vb, NULL);
    a.restitution = b.restitution = 1;
    lq_body_collide_pair(&a, &b);
    CHECK_NEAR(a.vel[0], -1, 1e-14);
    CHECK_NEAR(b.vel[0], 1, 1e-14);
    CHECK(a.vel[1] == 0.3 && b.vel[1] == 0.3);
    CHECK_NEAR(b.pos[0] - a.pos[0], 0.2, 1e-15);
    CHECK_NEAR(a.pos[0] + b.pos[0], 0.19, 1e-15); /* split evenly */
    lq_body_collide_pair(&a, &b);                 /* separating: nothing more */
    CHECK_NEAR(a.vel[0], -1, 1e-14);

    /* unequal masses, e = 0.5 (the smaller restitution wins), oblique */
    const double h2[3] = {0.2, 0.2, 0.2}, pc[3] = {0.15, 1.15, 0.1};
    lq_body c;
    lq_body_init(&a, LQ_SHAPE_SPHERE, h, 1000, pa, va, NULL);
    lq_body_init(&c, LQ_SHAPE_SPHERE, h2, 300, pc, vb, NULL);
    a.restitution = 0.5;
    c.restitution = 0.9;
    double P0[3], n[3], d = 0;
    for (int k = 0; k < 3; k++) {
        P0[k] = a.mass * a.vel[k] + c.mass * c.vel[k];
        n[k] = pc[k] - pa[k];
        d += n[k] * n[k];
    }
    double vrel0 = 0, vrel1 = 0;
    for (int k = 0; k < 3; k++) vrel0 += (c.vel[k] - a.vel[k]) * n[k] / sqrt(d);
    lq_body_collide_pair(&a, &c);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(a.mass * a.vel[k] + c.mass * c.vel[k], P0[k], 1e-12 * fabs(a.mass));
        vrel1 += (c.vel[k] - a.vel[k]) * n[k] / sqrt(d);
    }
    CHECK(vrel0 < 0);
    CHECK_NEAR(vrel1, -0.5 * vrel0, 1e-12);
    double dist = 0;
    for (int k = 0; k < 3; k++) dist += (c.pos[k] - a.pos[k]) * (c.pos[k] - a.pos[k]);
    CHECK_NEAR(sqrt(dist), 0.3, 1e-14);
    /* the lighter body moved more: displacement ∝ inverse mass */
    double da = fabs(a.pos[0] - pa[0]), dc = fabs(c.pos[0] - pc[0]);
    CHECK_NEAR(da * a.mass, dc * c.mass, 1e-12);

    /* a scripted body is kinematic: it keeps its motion, the free ball takes it all */
    const double tk[2] = {0, 10}, pk[6] = {0, 1, 0, 20, 1, 0}; /* 2 m/s along x */
    lq_path *path = NULL;
    CHECK_OK(lq_path_from_keys(&path, 2, tk, pk, NULL));
    lq_body s;
    lq_body_init(&s, LQ_SHAPE_SPHERE, h, 1000, pa, NULL, NULL);
    lq_body_attach(&s, path, pa, NULL, 0); /* offset 1 m up: centre at (0, 2, 0) */
    s.restitution = 1;
    const double pf[3] = {0.15, 2, 0};
    lq_body_init(&a, LQ_SHAPE_SPHERE, h, 1000, pf, NULL, NULL);
    a.restitution = 1;
    lq_body_collide_pair(&s, &a);
    CHECK_NEAR(s.vel[0], 2, 1e-14);
    CHECK(s.pos[0] == 0);
    CHECK_NEAR(a.vel[0], 4, 1e-14);
    CHECK_NEAR(a.pos[0], 0.2, 1e-15);
    lq_body_collide_pair(&s, &s); /* two scripted: nothing */
    lq_path_free(path);
}

/* --- eq. 17 and scripted bodies ---------------------------------------------------- */

static void test_fmax(void)
{
    const double m = 3, z = 0.5, s0 = 0.55, sdot = -4, g = -9.81, t = 0.02;
    double f = lq_body_fmax(m, z, s0, sdot, g, t);
    /* eq. 16 with f = f_max lands the body on the surface */
    CHECK_NEAR(s0 + sdot * t + 0.5 * (g + f / m) * t * t, z, 1e-14);
    CHECK(f > 0);
    /* far above the surface, the body cannot reach it: f_max < 0 */
    CHECK(lq_body_fmax(m, z, 10, -1, g, t) < 0);
}

static void test_scripted(void)
{
    const double t[3] = {0, 1, 2}, p[9] = {0, 10, 0, 1, 8, 0, 3, 2, 0};
    const double a = 1.0;
    const double q[12] = {1, 0, 0, 0, cos(a / 2), 0, 0, sin(a / 2), cos(a), 0, 0, sin(a)};
    lq_path *path = NULL;
    CHECK_OK(lq_path_from_keys(&path, 3, t, p, q));
    if (!path) return;
    const double h[3] = {0.1, 0.3, 0.1}, off[3] = {0.5, 0, 0}, zero[3] = {0, 0, 0};
    const double ql[4] = {cos(0.2), sin(0.2), 0, 0};
    lq_body b;
    lq_body_init(&b, LQ_SHAPE_ELLIPSOID, h, 1000, zero, NULL, NULL);
    lq_body_attach(&b, path, off, ql, 0);
    CHECK_NEAR(b.pos[0], 0.5, 1e-15);
    CHECK_NEAR(b.pos[1], 10, 1e-15);
    const double force[3] = {1e6, 1e6, 1e6};
    lq_body_step(&b, 0.1, 1.5, force, force, G); /* forces ignored */
    double P[3], Q[4], R[9], ql_w[4];
    lq_path_eval(path, 1.5, P, Q, NULL, NULL);
    lq_quat_to_rot(Q, R);
    for (int i = 0; i < 3; i++) CHECK_NEAR(b.pos[i], P[i] + R[3 * i] * 0.5, 1e-14);
    lq_quat_mul(Q, ql, ql_w);
    CHECK_NEAR(fabs(b.q[0] * ql_w[0] + b.q[1] * ql_w[1] + b.q[2] * ql_w[2] + b.q[3] * ql_w[3]), 1,
               1e-14);
    CHECK_NEAR(b.omega[2], a, 1e-12); /* 1 rad per second about z */
    /* the velocity of the centre is the derivative of its position, ω × r included */
    const double dh = 1e-6;
    double v[3], x0[3], x1[3];
    memcpy(v, b.vel, sizeof v);
    lq_body_follow(&b, 1.5 - dh);
    memcpy(x0, b.pos, sizeof x0);
    lq_body_follow(&b, 1.5 + dh);
    memcpy(x1, b.pos, sizeof x1);
    for (int i = 0; i < 3; i++) CHECK_NEAR(v[i], (x1[i] - x0[i]) / (2 * dh), 1e-6);
    lq_path_free(path);
}

/* lq_body_collide_ground on a planar slope, ground at column centres: a ball pushed into
 * it comes out with its centre r / cos θ above the ground under it; a ball resting on a slope
 * gentler than atan(friction) stays put under gravity for 2 s; on a steeper one it
 * slides (½ g (sin θ − μ cos θ) t²: 0.22 m in 0.5 s); a ball in the air is not touched. */
static void test_ground(void)
{
    enum { GN = 40 };
    static float g[GN * GN];
    const double dx = 0.05, r = 0.1;
    for (int pass = 0; pass < 2; pass++) {
        double slope = pass ? 0.5 : 0.2; /* 26.6° and 11.3°; friction 0.3: 16.7° */
        for (int k = 0; k < GN; k++)
            for (int i = 0; i < GN; i++) g[i + GN * k] = (float)(slope * (i + 0.5) * dx);
        lq_body b;
        const double h[3] = {r, r, r}, pos[3] = {1.0, slope * 1.0 + 0.02, 1.0};
        lq_body_init(&b, LQ_SHAPE_SPHERE, h, 800, pos, NULL, NULL);
        CHECK(lq_body_collide_ground(&b, g, GN, GN, dx, 0, 0, 0.1));
        double above = b.pos[1] - slope * b.pos[0], want = r * sqrt(1 + slope * slope);
        fprintf(stderr, "  ground, slope %.1f: pushed out to %.5f m above it (want %.5f)\n", slope,
                above, want);
        CHECK(fabs(above - want) < 1e-3 * r);
        double x0 = b.pos[0];
        for (int n = 0; n < (pass ? 500 : 2000); n++) { /* 2 s (0.5 s sliding) at 1 ms */
            double dt = 1e-3;
            lq_body_step(&b, dt, (n + 1) * dt, NULL, NULL, G);
            lq_body_collide_ground(&b, g, GN, GN, dx, 0, 0, 2 * 9.81 * dt);
        }
        fprintf(stderr, "  ground, slope %.1f: after %s s on it x moved %+.4f m, %.5f m above\n",
                slope, pass ? "0.5" : "2", b.pos[0] - x0, b.pos[1] - slope * b.pos[0]);
        if (pass == 0) CHECK(fabs(b.pos[0] - x0) < 1e-3); /* rests */
        if (pass == 1) CHECK(b.pos[0] - x0 < -0.1);       /* slides down */
        CHECK(fabs(b.pos[1] - slope * b.pos[0] - want) < 2e-3 * r + 9.81e-6);
    }
    lq_body b;
    const double h[3] = {r, r, r}, pos[3] = {1.0, 1.0, 1.0};
    lq_body_init(&b, LQ_SHAPE_SPHERE, h, 800, pos, NULL, NULL);
    CHECK(!lq_body_collide_ground(&b, g, GN, GN, dx, 0, 0, 0.1) && b.pos[1] == 1.0);
}

/* lq_body_collide_ground_indexed against lq_body_collide_ground: spheres, ellipsoids and
 * boxes of every size from a tenth of a cell to most of the grid, turned at random, over
 * rough ground with a flat plateau (a flat-bottomed box resting there has many equally
 * deep samples: the first must win) on a grid of odd sizes, placed from well into the
 * ground to above it and partly off the grid: the bodies after the contact must be the
 * same bit for bit. */
static void test_ground_index(void)
{
    enum { NX = 37, NZ = 23 };
    static float g[NX * NZ];
    /* exact in binary: the cells' centre samples fall on the ground's nodes, where those on
     * the plateau's edge are as deep as the rest but see the step's slope */
    const double dx = 0.0625, ox = -0.5, oz = 0.25;
    lq_rng r;
    lq_rng_seed(&r, 18);
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++) {
            double v = 0.3 * sin(0.4 * i) * cos(0.3 * k) + 0.02 * lq_rng_uniform(&r);
            if (i >= 18 && i < 34 && k >= 3 && k < 19) v = -0.02; /* a step down round it */
            if (i >= 20 && i < 32 && k >= 5 && k < 17) v = 0.0;   /* the plateau */
            g[i + NX * k] = (float)v;
        }
    lq_body_ground_index gi;
    CHECK(lq_body_ground_index_build(&gi, g, NX, NZ) == 0);
    int touched = 0, cases = 3000;
    for (int n = 0; n < cases; n++) {
        int shape = n % 3 == 0 ? LQ_SHAPE_SPHERE : n % 3 == 1 ? LQ_SHAPE_ELLIPSOID : LQ_SHAPE_BOX;
        double h[3], q[4] = {1, 0, 0, 0}, pos[3], vel[3];
        double size = dx * pow(10.0, 2.3 * lq_rng_uniform(&r) - 1.0); /* 0.1 to 20 cells */
        for (int a = 0; a < 3; a++) {
            h[a] = size * (0.3 + 0.7 * lq_rng_uniform(&r));
            vel[a] = lq_rng_uniform(&r) - 0.5;
        }
        if (shape == LQ_SHAPE_SPHERE) h[1] = h[2] = h[0];
        bool flat = shape == LQ_SHAPE_BOX && n % 2 == 0; /* axis-aligned, on the plateau */
        if (!flat) rand_unit_quat(&r, q);
        pos[0] =
            ox + (flat ? 21 + 10 * lq_rng_uniform(&r) : NX * (1.4 * lq_rng_uniform(&r) - 0.2)) * dx;
        pos[2] =
            oz + (flat ? 6 + 10 * lq_rng_uniform(&r) : NZ * (1.4 * lq_rng_uniform(&r) - 0.2)) * dx;
        lq_body a;
        lq_body_init(&a, shape, h, 700, pos, vel, q);
        double bottom = flat ? h[1] : lq_body_bounding_radius(&a);
        a.pos[1] = (flat ? 0.0 : 0.3 * (2 * lq_rng_uniform(&r) - 1)) + bottom +
                   (flat ? -0.2 * dx : (lq_rng_uniform(&r) - 0.6) * 2 * bottom);
        lq_body b = a;
        int ta = lq_body_collide_ground(&a, g, NX, NZ, dx, ox, oz, 0.05);
        int tb = lq_body_collide_ground_indexed(&b, &gi, dx, ox, oz, 0.05);
        touched += ta;
        if (ta != tb || memcmp(&a, &b, sizeof a) != 0) {
            fprintf(stderr, "  ground index: case %d (shape %d, size %.4g) differs\n", n, shape,
                    size);
            CHECK(0);
            break;
        }
    }
    fprintf(stderr, "  ground index: %d bodies (%d touched the ground) the same bit for bit\n",
            cases, touched);
    CHECK(touched > cases / 4 && touched < cases);
    lq_body_ground_index_free(&gi);
    /* A tie the pyramid meets out of order: a flat box over two bumps as high, a ridge
     * of two cells at row 8 and a single cell at row 9 whose block comes first. The
     * plain loop takes the ridge (the earlier row), whose normal differs. */
    enum { N2 = 24 };
    static float f[N2 * N2];
    f[11 + N2 * 8] = f[12 + N2 * 8] = f[8 + N2 * 9] = 0.01f;
    CHECK(lq_body_ground_index_build(&gi, f, N2, N2) == 0);
    const double hb[3] = {0.6, 0.05, 0.6}, pb[3] = {10 * dx, 0.005 + 0.05, 9 * dx},
                 vb[3] = {0.3, -0.5, 0.2};
    lq_body a, b;
    lq_body_init(&a, LQ_SHAPE_BOX, hb, 700, pb, vb, NULL);
    b = a;
    CHECK(lq_body_collide_ground(&a, f, N2, N2, dx, 0, 0, 0.05));
    CHECK(lq_body_collide_ground_indexed(&b, &gi, dx, 0, 0, 0.05));
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    lq_body_ground_index_free(&gi);
}

int main(void)
{
    test_mass_inertia();
    test_rotation_view();
    test_free_fall();
    test_torque_free();
    test_torque();
    test_column();
    test_extent();
    test_bounce();
    test_walls();
    test_pair();
    test_fmax();
    test_scripted();
    test_ground();
    test_ground_index();
    CHECK_DONE();
}
