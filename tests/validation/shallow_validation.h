/*
 * shallow_validation.h — the `shallow` cases of VALIDATION.md, shared by the quick
 * test (test_shallow_validation.c: small sizes through --set) and the full one
 * (full_shallow_validation.c: the scenes under scenes/validation/ as they are).
 * Each case loads its scene, runs the solver frame by frame and measures against the
 * closed-form answer; the numbers are printed so a run documents itself.
 */
#ifndef LQ_SHALLOW_VALIDATION_H
#define LQ_SHALLOW_VALIDATION_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "scene/config.h"
#include "solvers/registry.h"

#define G 9.81

typedef struct sv_run {
    lq_ctx ctx;
    lq_config *cfg;
    const lq_solver_vt *vt;
    void *state;
    int nx, nz, frames;
    double dx, fps;
    float *h, *b;
} sv_run;

static int sv_open(sv_run *r, const char *device, const char *path, int nsets,
                   const char *const *sets)
{
    memset(r, 0, sizeof *r);
    lq_error_clear();
    r->cfg = lq_config_load(path, nsets, sets);
    if (!r->cfg) goto fail;
    r->vt = lq_registry_find(r->cfg);
    if (!r->vt) goto fail;
    if (lq_ctx_open(&r->ctx, device, false)) goto fail;
    if (r->vt->create(&r->ctx, r->cfg, &r->state)) goto fail;
    r->nx = r->cfg->grid.size[0];
    r->nz = r->cfg->grid.size[1];
    r->dx = r->cfg->grid.cell;
    r->fps = r->cfg->time.fps;
    r->frames = r->cfg->time.frames;
    r->h = malloc((size_t)r->nx * r->nz * sizeof(float));
    r->b = malloc((size_t)r->nx * r->nz * sizeof(float));
    lq_field_view v;
    if (r->vt->view(r->state, "b", &v)) goto fail;
    memcpy(r->b, v.data, (size_t)r->nx * r->nz * sizeof(float));
    if (r->vt->view(r->state, "h", &v)) goto fail;
    memcpy(r->h, v.data, (size_t)r->nx * r->nz * sizeof(float));
    return 0;
fail:
    fprintf(stderr, "%s: %s\n", path, lq_error_message());
    CHECK(!"scene set-up failed");
    return 1;
}

static void sv_close(sv_run *r)
{
    if (r->state) r->vt->destroy(r->state);
    if (r->ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&r->ctx);
    lq_config_free(r->cfg);
    free(r->h);
    free(r->b);
}

/* Advances to frame f and copies h. */
static int sv_frame(sv_run *r, int f, lq_frame_stats *st)
{
    int rc = r->vt->advance(r->state, f, f / r->fps, st);
    lq_field_view v;
    if (!rc) rc = r->vt->view(r->state, "h", &v);
    if (!rc) memcpy(r->h, v.data, (size_t)r->nx * r->nz * sizeof(float));
    if (rc) {
        fprintf(stderr, "frame %d: %s\n", f, lq_error_message());
        CHECK(!"solver step failed");
    }
    return rc;
}

/* The θ the solver runs with (host/solvers/shallow.c: unset, 0.55 with advection, 1
 * without). */
static double sv_theta(const lq_config *cfg)
{
    return cfg->shallow.has_theta ? cfg->shallow.theta : (cfg->shallow.advection ? 0.55 : 1.0);
}

/* A solver-specific stats value (NaN when the solver does not report it). */
static double sv_extra(const lq_frame_stats *st, const char *key)
{
    for (int i = 0; i < st->nextra; i++)
        if (strcmp(st->extra[i].key, key) == 0) return st->extra[i].value;
    CHECK_MSG(0, "stats key %s missing", key);
    return NAN;
}

/* A cell-centred nx × nz field at cell-index coordinates (fx, fz) (cell centres at
 * integers), bilinear, clamped to the grid. */
static double sv_bilinear_field(const float *h, int nx, int nz, double fx, double fz)
{
    fx = fmin(fmax(fx, 0.0), nx - 1.0);
    fz = fmin(fmax(fz, 0.0), nz - 1.0);
    int i = (int)floor(fx), k = (int)floor(fz);
    i = i > nx - 2 ? nx - 2 : i;
    k = k > nz - 2 ? nz - 2 : k;
    double tx = fx - i, tz = fz - k;
    return (1 - tz) * ((1 - tx) * h[i + nx * k] + tx * h[i + 1 + nx * k]) +
           tz * ((1 - tx) * h[i + nx * (k + 1)] + tx * h[i + 1 + nx * (k + 1)]);
}

/* h at cell-index coordinates (fx, fz), bilinear. */
static double sv_bilinear(const sv_run *r, double fx, double fz)
{
    return sv_bilinear_field(r->h, r->nx, r->nz, fx, fz);
}

/* Mean of h over row k = nz/2 from cell i: the channel cases are uniform along z. */
static double sv_h(const sv_run *r, int i)
{
    return r->h[i + r->nx * (r->nz / 2)];
}

/* Projection of row nz/2 onto cos(m π (i + ½)/n): the mode's amplitude. */
static double sv_mode(const sv_run *r, int m)
{
    double s = 0;
    for (int i = 0; i < r->nx; i++) s += sv_h(r, i) * cos(m * LQ_PI * (i + 0.5) / r->nx);
    return 2 * s / r->nx;
}

/* Times where a sampled signal crosses zero going down, linearly interpolated. */
static int sv_down_crossings(const double *t, const double *y, int n, double *out, int cap)
{
    int c = 0;
    for (int i = 1; i < n && c < cap; i++)
        if (y[i - 1] > 0 && y[i] <= 0)
            out[c++] = t[i - 1] + (t[i] - t[i - 1]) * y[i - 1] / (y[i - 1] - y[i]);
    return c;
}

/* Index of the sample maximum in [lo, hi), refined by a parabola through its
 * neighbours; returns the interpolated time. */
static double sv_peak_time(const double *t, const double *y, int lo, int hi)
{
    int k = lo;
    for (int i = lo; i < hi; i++)
        if (y[i] > y[k]) k = i;
    if (k == 0 || k + 1 >= hi) return t[k];
    double a = y[k - 1], b = y[k], c = y[k + 1], den = a - 2 * b + c;
    double off = den != 0 ? 0.5 * (a - c) / den : 0;
    return t[k] + off * (t[k + 1] - t[k]);
}

/* --- the cases ----------------------------------------------------------------------- */

static void sv_lake_at_rest(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/lake_at_rest.yaml", nsets, sets)) return;
    double level = r.cfg->liquid[0].level;
    lq_frame_stats st0, st;
    r.vt->measure(r.state, &st0);
    double max_speed = 0, drift = 0, dmax = 0;
    int steps = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        steps += st.steps;
        max_speed = fmax(max_speed, st.max_speed);
        for (int c = 0; c < r.nx * r.nz; c++)
            if (r.h[c] > r.b[c]) {
                drift = fmax(drift, fabs(r.h[c] - level));
                dmax = fmax(dmax, r.h[c] - r.b[c]);
            }
    }
    lq_field_view vu;
    double umax = 0;
    if (!r.vt->view(r.state, "u", &vu))
        for (int c = 0; c < vu.dims[0] * vu.dims[2]; c++) umax = fmax(umax, fabs(vu.data[c]));
    double vdrift = fabs(st.liquid_volume - st0.liquid_volume) / st0.liquid_volume;
    double ulim = 1e-4 * sqrt(G * dmax);
    fprintf(stderr,
            "lake at rest (level %.4g m): %d steps, max speed %.3g m/s (limit %.3g), max |u| %.3g, "
            "surface drift "
            "%.3g m (limit %.3g), volume drift %.3g\n",
            level, steps, max_speed, ulim, umax, drift, 0.01 * r.dx, vdrift);
    CHECK(steps >= 1000 || r.frames < 10);
    CHECK(max_speed <= ulim);
    CHECK(umax <= ulim);
    CHECK(drift <= 0.01 * r.dx);
    CHECK(vdrift <= 1e-6);
    sv_close(&r);
}

/* The mode's amplitude must follow eq. 17 for one Fourier mode step by step, in the
 * θ-scheme's form (heightfield_cell.h): with μ = 4C² sin²(kΔx/2), P = 1 + θ²μ and v the
 * water the face velocities carry (v = 0 at rest),
 *   Δ = ((1 − θτ) v − θ μ a) / P,  a ← a + Δ,  v ← (1 − τ) v − μ (a_old + θ Δ);
 * for θ = 1 that is a_n = (a_{n-1} + (1 − τ)(a_{n-1} − a_{n-2})) / (1 + μ). Per step
 * |z|² = 1 + (1 − 2θ) μ / P (τ = 0): (1 + μ)^-1 for the paper's scheme, 1 for
 * Crank–Nicolson. */
static void sv_damping(const char *device, double tau, double theta, int nsets,
                       const char *const *sets)
{
    const char *all[16];
    char tau_set[64], theta_set[64];
    int n = 0;
    for (int i = 0; i < nsets && n < 14; i++) all[n++] = sets[i];
    snprintf(tau_set, sizeof tau_set, "shallow.damping=%g", tau);
    snprintf(theta_set, sizeof theta_set, "shallow.theta=%g", theta);
    all[n++] = tau_set;
    all[n++] = theta_set;
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/damping.yaml", n, all)) return;
    int m = r.cfg->liquid[1].wave.mode;
    double amp = r.cfg->liquid[1].wave.amplitude;
    double depth = -r.cfg->terrain[0].plane.height;
    double dt = 1.0 / r.fps, C = sqrt(G * depth) * dt / r.dx;
    double kdx = m * LQ_PI / r.nx;
    double mu = 4 * C * C * sin(kdx / 2) * sin(kdx / 2), P = 1 + theta * theta * mu;
    double a = amp, v = 0, worst = 0, keep = 1 - tau;
    lq_frame_stats st;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        double d = ((1 - theta * tau) * v - theta * mu * a) / P;
        v = keep * v - mu * (a + theta * d);
        a += d;
        worst = fmax(worst, fabs(sv_mode(&r, m) - a));
    }
    double z = sqrt(1 + (1 - 2 * theta) * mu / P);
    fprintf(stderr,
            "exact damping (theta %.2g, tau %.2g): C %.4f, %d cells per wavelength, |z| = %.6f, "
            "after %d steps amplitude %.6g (exact %.6g), max error %.3g of the amplitude\n",
            theta, tau, C, 2 * r.nx / m, z, r.frames, sv_mode(&r, m), a, worst / amp);
    if (tau == 0 && theta == 1) CHECK_NEAR(z, 0.987984, 2e-6); /* VALIDATION.md's example */
    if (tau == 0 && theta == 0.5) CHECK_NEAR(z, 1.0, 1e-12);   /* Crank–Nicolson: neutral */
    CHECK(worst <= 1e-4 * amp);
    sv_close(&r);
}

/* The long-wave pulse at a large step (pulse.yaml): the right-going crest's height as a
 * fraction of half the hump's and its speed's error against √(g h), after the scene's
 * frames. */
typedef struct sv_pulse_result {
    double crest, speed_error, courant;
} sv_pulse_result;

static sv_pulse_result sv_pulse(const char *device, int nsets, const char *const *sets)
{
    sv_pulse_result res = {NAN, NAN, NAN};
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/pulse.yaml", nsets, sets)) return res;
    double x0 = r.cfg->liquid[1].hump.center[0], A = r.cfg->liquid[1].hump.height;
    double depth = -r.cfg->terrain[0].plane.height, c = sqrt(G * depth);
    lq_frame_stats st;
    int steps = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        steps += st.steps;
    }
    double t = r.frames / r.fps;
    int i0 = (int)floor(x0 / r.dx), ib = i0;
    for (int i = i0; i + 1 < r.nx; i++)
        if (sv_h(&r, i) > sv_h(&r, ib)) ib = i;
    double ya = sv_h(&r, ib - 1), yb = sv_h(&r, ib), yc = sv_h(&r, ib + 1), den = ya - 2 * yb + yc;
    double off = den != 0 ? 0.5 * (ya - yc) / den : 0;
    double xp = (ib + 0.5 + off) * r.dx;
    res.crest = (yb - 0.125 * (ya - yc) * off) / (0.5 * A);
    res.speed_error = (xp - x0) / (c * t) - 1;
    res.courant = c * (t / steps) / r.dx;
    fprintf(stderr,
            "long-wave pulse (theta %.2g): C = %.2f, %d steps over %.2f s: crest %.1f%% of its "
            "half height, speed %+.2f%%\n",
            sv_theta(r.cfg), res.courant, steps, t, 100 * res.crest, 100 * res.speed_error);
    sv_close(&r);
    return res;
}

/* A drop's ring at a large step (ring.yaml): the radius of the main crest along the
 * grid's axis (+x) and its diagonal, sampled bilinearly from the centre outwards beyond
 * half of c t and refined by a parabola through the samples a cell either side. Returns
 * diagonal / axis − 1. */
static double sv_ring_radius(const sv_run *r, double cx, double cz, double ax, double az,
                             double rmin, double rmax)
{
#define SV_AT(rr) sv_bilinear(r, (cx + (rr)*ax) / r->dx - 0.5, (cz + (rr)*az) / r->dx - 0.5)
    double best = -INFINITY, rb = rmin, step = 0.05 * r->dx;
    for (double q = rmin; q < rmax; q += step) {
        double v = SV_AT(q);
        if (v > best) {
            best = v;
            rb = q;
        }
    }
    double ya = SV_AT(rb - r->dx), yb = SV_AT(rb), yc = SV_AT(rb + r->dx), den = ya - 2 * yb + yc;
#undef SV_AT
    return rb + (den != 0 ? 0.5 * (ya - yc) / den : 0) * r->dx;
}

static double sv_ring(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/ring.yaml", nsets, sets)) return NAN;
    double cx = r.cfg->liquid[1].hump.center[0], cz = r.cfg->liquid[1].hump.center[1];
    double c = sqrt(G * -r.cfg->terrain[0].plane.height);
    lq_frame_stats st;
    int steps = 0, iterations = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        steps += st.steps;
        iterations = (int)sv_extra(&st, "adi_iterations");
    }
    double t = r.frames / r.fps, reach = fmin(cx, r.nx * r.dx - cx) - r.dx;
    double ra = sv_ring_radius(&r, cx, cz, 1, 0, 0.5 * c * t, reach);
    double rd = sv_ring_radius(&r, cx, cz, sqrt(0.5), sqrt(0.5), 0.5 * c * t, reach);
    fprintf(stderr,
            "ring (theta %.2g, %d split solves per step): C = %.1f, %d steps: radius %.4f m along "
            "the axis, %.4f m along the diagonal (c t = %.4f m): %+.2f%%\n",
            sv_theta(r.cfg), iterations, c * (t / steps) / r.dx, steps, ra, rd, c * t,
            100 * (rd / ra - 1));
    sv_close(&r);
    return rd / ra - 1;
}

static void sv_long_wave(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/long_wave.yaml", nsets, sets)) return;
    double x0 = r.cfg->liquid[1].hump.center[0];
    double depth = -r.cfg->terrain[0].plane.height;
    double c = sqrt(G * depth), dist = 1.0;
    int probe = (int)floor((x0 + dist) / r.dx);
    double xp = (probe + 0.5) * r.dx;
    double *t = malloc((size_t)(r.frames + 1) * sizeof *t),
           *y = malloc((size_t)(r.frames + 1) * sizeof *y);
    lq_frame_stats st;
    t[0] = 0;
    y[0] = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        t[f] = f / r.fps;
        y[f] = sv_h(&r, probe);
    }
    /* the crest: the largest sample after the initial bump has left the probe */
    double tp = sv_peak_time(t, y, r.frames / 4, r.frames + 1);
    double expect = (xp - x0) / c;
    fprintf(stderr,
            "long-wave speed: c = %.6f m/s, crest at the probe %.4f s after (expected %.4f s), "
            "%.2f%% off\n",
            (xp - x0) / tp, tp, expect, 100 * (tp - expect) / expect);
    CHECK(fabs(tp - expect) <= 0.02 * expect);
    free(t);
    free(y);
    sv_close(&r);
}

/* Slope of the surface fitted over the wet cells of row nz/2 within `half` of x0. */
static double sv_slope(const sv_run *r, double x0, double half)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (int i = 0; i < r->nx; i++) {
        double x = (i + 0.5) * r->dx - x0;
        int c = i + r->nx * (r->nz / 2);
        if (fabs(x) > half || !(r->h[c] > r->b[c])) continue;
        sx += x;
        sy += r->h[c];
        sxx += x * x;
        sxy += x * r->h[c];
        n++;
    }
    return n > 2 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
}

static void sv_thacker_planar(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/thacker_planar.yaml", nsets, sets)) return;
    double a = 1.0, h0 = 0.5, T = 2 * LQ_PI * a / sqrt(2 * G * h0);
    double *t = malloc((size_t)(r.frames + 1) * sizeof *t),
           *y = malloc((size_t)(r.frames + 1) * sizeof *y);
    lq_frame_stats st;
    t[0] = 0;
    y[0] = sv_slope(&r, 2.0, 0.5);
    double dt_sum = 0;
    int steps = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        t[f] = f / r.fps;
        y[f] = sv_slope(&r, 2.0, 0.5);
        dt_sum += st.steps ? st.dt_max * st.steps : 0;
        steps += st.steps;
    }
    double cr[8];
    int nc = sv_down_crossings(t, y, r.frames + 1, cr, 8);
    double period = nc >= 2 ? (cr[nc - 1] - cr[0]) / (nc - 1) : 0;
    /* amplitude of the slope per period, from its maxima */
    double amp[8];
    int na = 0;
    for (int p = 0; p < 8 && (p + 1) * T < t[r.frames]; p++) {
        int lo = (int)((p + 0.5) * T * r.fps),
            hi = (int)LQ_MIN((p + 1.5) * T * r.fps, r.frames + 1.0);
        double m = -1e30;
        for (int i = lo; i < hi; i++) m = fmax(m, y[i]);
        amp[na++] = m;
    }
    double dt = steps ? dt_sum / steps : 0, w = 2 * LQ_PI / T;
    /* the θ-scheme's |z| per step for this mode, μ = ω²Δt² (sv_damping) */
    double th = sv_theta(r.cfg), mu = w * w * dt * dt;
    double predicted = pow(1 + (1 - 2 * th) * mu / (1 + th * th * mu), 0.5 * T / dt);
    fprintf(stderr,
            "Thacker planar: period %.5f s (exact %.6f), %.2f%% off over %d crossings; slope "
            "amplitude %.4f -> %.4f per period (%.2f%% loss; theta %.2g predicts "
            "%.2f%% at this dt)\n",
            period, T, 100 * (period - T) / T, nc, y[0], na ? amp[0] : 0,
            na ? 100 * (1 - amp[0] / y[0]) : 0, th, 100 * (1 - predicted));
    CHECK(nc >= 3);
    CHECK(fabs(period - T) <= 0.02 * T);
    free(t);
    free(y);
    sv_close(&r);
}

static void sv_thacker_radial(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/thacker_radial.yaml", nsets, sets)) return;
    double T = 2 * LQ_PI * 1.0 / sqrt(8 * G * 0.1);
    double *t = malloc((size_t)(r.frames + 1) * sizeof *t),
           *y = malloc((size_t)(r.frames + 1) * sizeof *y);
    lq_frame_stats st;
    int ci = r.nx / 2, ck = r.nz / 2;
#define CENTRE(rr)                                                                                 \
    (0.25 * ((rr).h[ci - 1 + (rr).nx * (ck - 1)] + (rr).h[ci + (rr).nx * (ck - 1)] +               \
             (rr).h[ci - 1 + (rr).nx * ck] + (rr).h[ci + (rr).nx * ck]))
    t[0] = 0;
    y[0] = CENTRE(r);
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        t[f] = f / r.fps;
        y[f] = CENTRE(r);
    }
#undef CENTRE
    /* The centre height is not a clean sine (the motion is strongly nonlinear at this
     * amplitude): time its down-crossings of its own mean. */
    double mean = 0;
    for (int f = 0; f <= r.frames; f++) mean += y[f] / (r.frames + 1);
    for (int f = 0; f <= r.frames; f++) y[f] -= mean;
    double cr[8];
    int nc = sv_down_crossings(t, y, r.frames + 1, cr, 8);
    int np = nc - 1;
    double period = nc >= 2 ? (cr[nc - 1] - cr[0]) / (nc - 1) : 0;
    fprintf(stderr, "Thacker radial: period %.5f s (exact %.6f) over %d periods, %.2f%% off\n",
            period, T, np, 100 * (period - T) / T);
    CHECK(np >= 2);
    CHECK(fabs(period - T) <= 0.02 * T);
    free(t);
    free(y);
    sv_close(&r);
}

static void sv_sloshing(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/sloshing.yaml", nsets, sets)) return;
    double L = r.nx * r.dx, depth = -r.cfg->terrain[0].plane.height;
    double T = 2 * L / sqrt(G * depth);
    double *t = malloc((size_t)(r.frames + 1) * sizeof *t),
           *y = malloc((size_t)(r.frames + 1) * sizeof *y);
    lq_frame_stats st;
    t[0] = 0;
    y[0] = 0.001;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        t[f] = f / r.fps;
        y[f] = sv_mode(&r, 1);
    }
    double cr[8];
    int nc = sv_down_crossings(t, y, r.frames + 1, cr, 8);
    double period = nc >= 2 ? (cr[nc - 1] - cr[0]) / (nc - 1) : 0;
    fprintf(stderr,
            "sloshing: period %.5f s (shallow-water %.6f, linear theory 2.052009), %.2f%% off\n",
            period, T, 100 * (period - T) / T);
    CHECK(nc >= 2);
    CHECK(fabs(period - T) <= 0.02 * T);
    free(t);
    free(y);
    sv_close(&r);
}

static void sv_conservation(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/conservation.yaml", nsets, sets)) return;
    lq_frame_stats st;
    double worst = 0, added = 0, drained = 0;
    int changes = 0;
    float *prev = malloc((size_t)r.nx * r.nz * sizeof *prev);
    memcpy(prev, r.h, (size_t)r.nx * r.nz * sizeof *prev);
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        worst = fmax(worst, fabs(sv_extra(&st, "volume_drift")));
        added = sv_extra(&st, "source_volume");
        drained = sv_extra(&st, "sink_volume");
        for (int c = 0; c < r.nx * r.nz; c++) changes += (prev[c] > r.b[c]) != (r.h[c] > r.b[c]);
        memcpy(prev, r.h, (size_t)r.nx * r.nz * sizeof *prev);
    }
    fprintf(stderr,
            "volume bookkeeping: %d wet/dry changes, %.4g m3 added, %.4g m3 drained, worst "
            "relative drift %.3g\n",
            changes, added, drained, worst);
    CHECK(changes > 100);
    CHECK(added > 0 && drained > 0);
    CHECK(worst <= 1e-6);
    free(prev);
    sv_close(&r);
}

/* Ritter's dam break on a dry bed: with advection the depth at the dam settles to
 * 4 h0 / 9 and the rarefaction fan follows (2c − (x − x0)/t)² / 9g; the front on the
 * dry bed lags (reported, docs/VALIDATION.md). */
static void sv_dam_break(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/dam_break.yaml", nsets, sets)) return;
    double h0 = 1.0, x0 = 4.0, c = sqrt(G * h0);
    bool advect = r.cfg->shallow.advection;
    lq_frame_stats st;
    for (int f = 1; f <= r.frames; f++)
        if (sv_frame(&r, f, &st)) break;
    double t = r.frames / r.fps, err = 0, front = 0;
    int n = 0;
    for (int i = 0; i < r.nx; i++) {
        double x = (i + 0.5) * r.dx, sp = (x - x0) / t,
               d = sv_h(&r, i) - r.b[i + r.nx * (r.nz / 2)];
        if (d > 1e-3) front = x;
        if (sp > -c && sp < c) { /* the part of the fan behind the front's trouble */
            double ex = (2 * c - sp) * (2 * c - sp) / (9 * G);
            err += fabs(fmax(d, 0) - ex);
            n++;
        }
    }
    double at_dam = sv_h(&r, (int)(x0 / r.dx));
    fprintf(stderr,
            "dam break (advection %s): depth at the dam %.4f m (exact %.4f), mean depth error "
            "in the fan %.4f m, front at %.2f m (exact %.2f) after %.2f s\n",
            advect ? "on" : "off", at_dam, 4 * h0 / 9, n ? err / n : 0, front, x0 + 2 * c * t, t);
    if (advect) CHECK(fabs(at_dam - 4 * h0 / 9) <= 0.05 * 4 * h0 / 9);
    sv_close(&r);
}

/* A dry tank filled far deeper than its fixed-point scale first allowed. */
static void sv_filling(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/filling.yaml", nsets, sets)) return;
    lq_frame_stats st;
    double worst = 0, added = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        worst = fmax(worst, fabs(sv_extra(&st, "volume_drift")));
        added = sv_extra(&st, "source_volume");
    }
    double depth = st.liquid_volume / (r.nx * r.nz * r.dx * r.dx);
    fprintf(stderr,
            "filling a dry tank: %.4g m3 in, %.4g m3 present (mean depth %.3g m), worst "
            "relative drift %.3g\n",
            added, st.liquid_volume, depth, worst);
    CHECK(depth > 10);
    CHECK_NEAR(st.liquid_volume, added, 1e-6 * added);
    CHECK(worst <= 1e-6);
    sv_close(&r);
}

/* Issue 18, item 2: thin water on a beach (scenes/beach.yaml) runs no faster than its
 * critical speed: over the scene's frames, the cells under 1 cm deep whose centred
 * speed exceeds √(g d) (by more than float rounding: the limiter holds each axis to
 * √(g d / 2), so speeds at the cap land on √(g d) to an ulp), the worst Froude number
 * and the fastest thin cell. Returns the
 * count of such cell-frames. */
static int sv_thin_water(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/beach.yaml", nsets, sets)) return -1;
    lq_frame_stats st;
    int over = 0, fast = 0;
    double worst = 0, wd = 0, top = 0, td = 0;
    size_t n = (size_t)r.nx * r.nz;
    float *dep = malloc(n * sizeof *dep), *uc = malloc(n * sizeof *uc);
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        lq_field_view v;
        if (r.vt->view(r.state, "depth", &v)) break;
        memcpy(dep, v.data, n * sizeof *dep);
        if (r.vt->view(r.state, "uc", &v)) break;
        memcpy(uc, v.data, n * sizeof *uc);
        if (r.vt->view(r.state, "wc", &v)) break;
        for (size_t c = 0; c < n; c++) {
            double d = dep[c], sp = hypot(uc[c], v.data[c]);
            if (!(d > 0) || d >= 0.01) continue;
            if (sp > sqrt(G * d) * (1 + 1e-4)) { /* not the float rounding of the cap */
                over++;
                if (sp / sqrt(G * d) > worst) {
                    worst = sp / sqrt(G * d);
                    wd = d;
                }
            }
            fast += sp > 1.0;
            if (sp > top) {
                top = sp;
                td = d;
            }
        }
    }
    fprintf(stderr,
            "thin water on the beach (%d frames): %d cell-frames under 1 cm deep faster than "
            "sqrt(g d) (worst Froude %.2f at %.2g m), %d faster than 1 m/s; fastest %.3f m/s at "
            "%.2g m\n",
            r.frames, over, worst, wd, fast, top, td);
    free(dep);
    free(uc);
    sv_close(&r);
    return over;
}

/* Issue 18, item 2: waves meeting the end walls of a channel (open_walls.yaml): the
 * largest wave left in it after the scene's frames over the largest of the groups that
 * met the walls (at 0.4 s, once they have parted): the reflection coefficient; and the
 * worst volume drift on the way (water that left counted). */
static double sv_walls(const char *device, int nsets, const char *const *sets, double *drift)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/open_walls.yaml", nsets, sets)) return NAN;
    lq_frame_stats st;
    double incident = 0, left = 0;
    *drift = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        *drift = fmax(*drift, fabs(sv_extra(&st, "volume_drift")));
        if (f == (int)lround(0.4 * r.fps))
            for (int i = 0; i < r.nx; i++) incident = fmax(incident, fabs(sv_h(&r, i)));
    }
    for (int i = 0; i < r.nx; i++) left = fmax(left, fabs(sv_h(&r, i)));
    double out = 0, in = 0;
    for (int i = 0; i < st.nextra; i++) {
        if (strcmp(st.extra[i].key, "open_out_volume") == 0) out = st.extra[i].value;
        if (strcmp(st.extra[i].key, "open_in_volume") == 0) in = st.extra[i].value;
    }
    fprintf(stderr,
            "walls %s: after %.2f s the largest wave left is %.3g m, %.2f%% of the %.3g m "
            "that met the walls; %.3g m3 out and %.3g m3 in through open walls; worst volume "
            "drift %.2g\n",
            r.cfg->wall[0] == LQ_CONFIG_WALL_OPEN        ? "open"
            : r.cfg->wall[0] == LQ_CONFIG_WALL_ABSORBING ? "absorbing"
                                                         : "closed",
            r.frames / r.fps, left, 100 * left / incident, incident, out, in, *drift);
    sv_close(&r);
    return left / incident;
}

#endif
