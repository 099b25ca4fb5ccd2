/*
 * splash_validation.h — VALIDATION.md's `splash` cases (and the all-solver lake at
 * rest) as functions of a device and --set overrides, shared by the quick test (small
 * sizes) and the full one. Scenes: scenes/validation/splash_*.yaml.
 */
#ifndef LQ_SPLASH_VALIDATION_H
#define LQ_SPLASH_VALIDATION_H

#pragma GCC diagnostic ignored "-Wunused-function"
#include "validation/shallow_validation.h"
#include "ops/hf/columns.h"

/* Long-wave speed: the crest reaches a probe 1 m away at (distance)/√(g h), ±3 %. */
static void spv_long_wave(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_long_wave.yaml", nsets, sets)) return;
    const double *c0 = r.cfg->liquid[1].hump.center;
    double depth = -r.cfg->terrain[0].plane.height;
    double c = sqrt(G * depth);
    int probe = (int)floor((c0[0] + 1.0) / r.dx);
    double xp = (probe + 0.5) * r.dx;
    double *t = malloc((size_t)(r.frames + 1) * sizeof *t),
           *y = malloc((size_t)(r.frames + 1) * sizeof *y);
    lq_frame_stats st;
    t[0] = y[0] = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        t[f] = f / r.fps;
        y[f] = sv_h(&r, probe);
    }
    double tp = sv_peak_time(t, y, r.frames / 4, r.frames + 1);
    double expect = (xp - c0[0]) / c;
    fprintf(stderr,
            "splash long-wave speed: c = %.6f m/s (sqrt(g h) = %.6f), crest %.4f s after "
            "(expected %.4f s), %.2f%% off\n",
            (xp - c0[0]) / tp, c, tp, expect, 100 * (tp - expect) / expect);
    CHECK(fabs(tp - expect) <= 0.03 * expect);
    free(t);
    free(y);
    sv_close(&r);
}

/* Issue 18, item 5: the contact's stiffness sets the step only while a body may press
 * on the water. The ball drop's steps per frame before the impact must equal those of
 * the same pool without the ball; once it is in the water they must be more (the
 * contact still has its limit). Returns the frame of the impact. */
static int spv_steps_before_impact(const char *device, int nsets, const char *const *sets)
{
    const char *all[16];
    int n = 0;
    for (int i = 0; i < nsets && n < 15; i++) all[n++] = sets[i];
    sv_run a, b;
    if (sv_open(&a, device, "scenes/ball_drop.yaml", n, all)) return -1;
    all[n++] = "objects=[]";
    if (sv_open(&b, device, "scenes/ball_drop.yaml", n, all)) return -1;
    lq_frame_stats sa, sb;
    int impact = -1, same = 0, before = 0, stiffer = 0, steps_a = 0, steps_b = 0;
    for (int f = 1; f <= a.frames; f++) {
        if (sv_frame(&a, f, &sa) || sv_frame(&b, f, &sb)) break;
        if (impact < 0 && sv_extra(&sa, "max_object_force") > 0) impact = f;
        if (impact < 0) {
            before++;
            same += sa.steps == sb.steps;
            if (f == 1) {
                steps_a = sa.steps;
                steps_b = sb.steps;
            }
        } else if (f > impact && f <= impact + 3) {
            stiffer += sa.steps > 2 * sb.steps;
        }
    }
    fprintf(stderr,
            "splash steps before impact: ball reaches the water in frame %d; %d of the %d "
            "frames before take the steps of the pool without the ball (frame 1: %d, %d without "
            "it); "
            "%d of the 3 frames after take more than twice as many\n",
            impact, same, before, steps_a, steps_b, stiffer);
    CHECK(impact >= 8);
    /* the frame that ends within the predictor's reach of the water may be stiff */
    CHECK(same >= before - 1);
    CHECK(stiffer == 3);
    sv_close(&a);
    sv_close(&b);
    return impact;
}

/* 8-fold symmetry of a centred drop after the scene's steps: max |h − mirror(h)| over
 * the x, z and diagonal mirrors ≤ 1e-4 of the initial amplitude. */
static void spv_symmetry(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_symmetry.yaml", nsets, sets)) return;
    double amp = r.cfg->liquid[1].hump.height;
    lq_frame_stats st;
    int steps = 0;
    double moved = 0, level = r.cfg->liquid[0].level;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        steps += st.steps;
    }
    int n = r.nx;
    double asym = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            double h = r.h[i + n * k];
            moved = fmax(moved, fabs(h - level));
            asym = fmax(asym, fabs(h - r.h[(n - 1 - i) + n * k]));
            asym = fmax(asym, fabs(h - r.h[i + n * (n - 1 - k)]));
            asym = fmax(asym, fabs(h - r.h[k + n * i]));
        }
    fprintf(stderr,
            "splash 8-fold symmetry: %d steps, max asymmetry %.3g m = %.3g of the amplitude "
            "(limit 1e-4); waves still %.3g m high\n",
            steps, asym, asym / amp, moved);
    CHECK(steps >= 200);
    CHECK(moved > 0.01 * amp); /* something is still moving */
    CHECK(asym <= 1e-4 * amp);
    sv_close(&r);
}

/* Volume bookkeeping with spray, sources and sinks: every frame the drift is at float
 * round-off, no column is negative, and spray was emitted and came back. */
static void spv_conservation(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_conservation.yaml", nsets, sets)) return;
    lq_frame_stats st;
    double worst = 0, dmin = INFINITY, emitted = 0, spray_max = 0, bin = 0, bout = 0;
    int limited = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        worst = fmax(worst, fabs(sv_extra(&st, "volume_drift")));
        emitted = sv_extra(&st, "spray_emitted");
        spray_max = fmax(spray_max, sv_extra(&st, "spray_volume"));
        bin = sv_extra(&st, "boundary_in");
        bout = sv_extra(&st, "boundary_out");
        limited = (int)sv_extra(&st, "limited_columns");
        lq_field_view v;
        if (r.vt->view(r.state, "depth", &v)) break;
        for (int c = 0; c < r.nx * r.nz; c++) dmin = fmin(dmin, v.data[c]);
    }
    fprintf(stderr,
            "splash volume bookkeeping: worst drift %.3g, min depth %.3g m, %.0f particles "
            "emitted (up to %.3g m3 in flight), in %.4g m3, out %.4g m3, %d column-steps "
            "limited by eq. 9\n",
            worst, dmin, emitted, spray_max, bin, bout, limited);
    CHECK(worst <= 2e-6);
    CHECK(dmin >= 0);
    CHECK(emitted > 100);
    CHECK(bin > 0 && bout > 0);
    CHECK(limited > 0); /* the sink really ran columns dry */
    sv_close(&r);
}

/* Lake at rest over a bump, a step and a beach: nothing moves. */
static void spv_lake_at_rest(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_lake_at_rest.yaml", nsets, sets)) return;
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
    double vdrift = fabs(st.liquid_volume - st0.liquid_volume) / st0.liquid_volume;
    double ulim = 1e-4 * sqrt(G * dmax);
    fprintf(stderr,
            "splash lake at rest: %d steps, max speed %.3g m/s (limit %.3g), surface drift "
            "%.3g m (limit %.3g), volume drift %.3g\n",
            steps, max_speed, ulim, drift, 0.01 * r.dx, vdrift);
    CHECK(steps >= 1000);
    CHECK(max_speed <= ulim);
    CHECK(drift <= 0.01 * r.dx);
    CHECK(vdrift <= 1e-6);
    sv_close(&r);
}

/* Spray flies x0 + v0 t + ½ g t² exactly until it lands, then its volume is back in the
 * column it landed in. The step (v' = v + g Δt, x' = x + Δt (v + v')/2) is exact for
 * constant acceleration; what remains is float32 rounding of positions near 1 m
 * accumulated over the flight (about 40 ulp after 600 steps). */
static void spv_ballistic(const char *device)
{
    lq_ctx ctx;
    lq_columns_state st;
    if (lq_ctx_open(&ctx, device, false) || lq_columns_state_alloc(&st, &ctx, 16, 16, 64)) {
        CHECK(!"set-up");
        return;
    }
    lq_columns_ops o;
    CHECK_OK(lq_columns_ops_init(&o, &ctx, 16, 16));
    float d[256], part[64 * LQ_COLUMNS_PSTRIDE] = {0};
    for (int c = 0; c < 256; c++) d[c] = 0.2f;
    double x0[3] = {0.31, 0.25, 0.42}, v0[3] = {0.4, 3.0, -0.3}, g = -9.81;
    for (int a = 0; a < 3; a++) {
        part[a] = (float)x0[a];
        part[3 + a] = (float)v0[a];
    }
    part[6] = (float)(ldexp(1.0, -22)); /* 2.4e-7 m³, on the fixed-point grid */
    part[7] = 1;
    int ctr[LQ_COLUMNS_CNT_COUNT] = {1, 0, 0, 0};
    CHECK_OK(lq_field_upload(&st.d, d));
    CHECK_OK(lq_field_upload(&st.part[st.cur], part));
    CHECK_OK(lq_field_upload(&st.counters, ctr));
    lq_columns_flight_params fp = {.n = 1, .nobj = 0, .dx = 0.05f, .dt = 1e-3f, .drag_keep = 1.0f};
    fp.g[1] = (float)g;
    fp.dry = 1e-6f;
    double worst = 0;
    int landed = -1;
    for (int s = 1; s <= 1000 && landed < 0; s++) {
        CHECK_OK(lq_columns_particles(&o, &st, &fp));
        CHECK_OK(lq_field_download(&st.part[st.cur], part));
        double t = s * 1e-3;
        if (part[7] == 0) {
            landed = s;
            break;
        }
        for (int a = 0; a < 3; a++) {
            double exact = x0[a] + v0[a] * t + (a == 1 ? 0.5 * g * t * t : 0);
            worst = fmax(worst, fabs(part[a] - exact));
        }
    }
    /* lands where y = 0.2 (the water surface; the ground is 0): t = (v0 + √(v0² + 2 g
     * Δy))/|g| */
    double tl = (v0[1] + sqrt(v0[1] * v0[1] + 2 * (-g) * (x0[1] - 0.2))) / (-g);
    lq_long ret[256];
    CHECK_OK(lq_field_download(&st.ret, ret));
    double xl = x0[0] + v0[0] * tl, zl = x0[2] + v0[2] * tl;
    int c = (int)(xl / 0.05) + 16 * (int)(zl / 0.05);
    fprintf(stderr,
            "splash ballistic spray: max error %.3g m over %d steps; landed at step %d "
            "(expected %.1f), volume back in column %d: %lld\n",
            worst, landed, landed, tl * 1e3, c, (long long)ret[c]);
    CHECK(worst <= 1e-5);
    CHECK(abs(landed - (int)ceil(tl * 1e3)) <= 1);
    CHECK(ret[c] == (lq_long)ldexp(1.0, 18)); /* 2^-22 m³ · 2^40 */
    lq_columns_ops_release(&o);
    lq_columns_state_release(&st);
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
}

/* Floating ball of density ratio s: draft (depth of its lowest point below the far
 * water level) within max(3 % of the diameter, 0.5 dx) of Archimedes, once settled. */
static void spv_float(const char *device, double s, int nsets, const char *const *sets)
{
    /* the scene's level and radius, then Archimedes: cap volume π d² (3r − d)/3 =
     * s · 4/3 π r³, by bisection */
    lq_config *cfg = lq_config_load("scenes/validation/splash_float.yaml", nsets, sets);
    if (!cfg) {
        CHECK(!"scene");
        return;
    }
    double rad = cfg->objects[0].radius;
    double level0 = cfg->liquid[0].level, c[3];
    memcpy(c, cfg->objects[0].center, sizeof c);
    lq_config_free(cfg);
    double lo = 0, hi = 2 * rad;
    for (int it = 0; it < 100; it++) {
        double m = 0.5 * (lo + hi);
        if (m * m * (3 * rad - m) < 4 * s * rad * rad * rad)
            lo = m;
        else
            hi = m;
    }
    double expect = 0.5 * (lo + hi);
    /* released 2 cm above its equilibrium: it must fall in and settle there */
    const char *all[16];
    char dens[64], centre[128];
    snprintf(dens, sizeof dens, "objects.0.density=%g", 1000 * s);
    snprintf(centre, sizeof centre, "objects.0.sphere.center=[%.9g,%.9g,%.9g]", c[0],
             level0 + rad - expect + 0.02, c[2]);
    all[0] = dens;
    all[1] = centre;
    for (int i = 0; i < nsets && i < 14; i++) all[i + 2] = sets[i];
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_float.yaml", nsets + 2, all)) return;
    lq_frame_stats st;
    double y = NAN, swing = 0, ylast[30];
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        const lq_object_record *rec;
        int n;
        r.vt->objects(r.state, &rec, &n);
        y = rec[0].pos[1];
        ylast[f % 30] = y;
    }
    /* settled: the mean of the last second, and how far it still swings about it */
    y = 0;
    for (int i = 0; i < 30; i++) y += ylast[i] / 30;
    for (int i = 0; i < 30; i++) swing = fmax(swing, fabs(ylast[i] - y));
    /* far-field level: mean surface over the grid's edge rows */
    double level = 0;
    int cnt = 0;
    for (int i = 0; i < r.nx; i++) {
        level += r.h[i] + r.h[i + r.nx * (r.nz - 1)];
        cnt += 2;
    }
    level /= cnt;
    double draft = level - (y - rad), tol = fmax(0.03 * 2 * rad, 0.5 * r.dx);
    fprintf(stderr,
            "splash floating ball s = %.2f: draft %.4f m, Archimedes %.4f m (%+.2f%% of the "
            "diameter, limit %.4f m); swinging %.2g m about it over the last second\n",
            s, draft, expect, 100 * (draft - expect) / (2 * rad), tol, swing);
    CHECK(fabs(draft - expect) <= tol);
    CHECK(swing <= 0.5 * tol);
    sv_close(&r);
}

/* The water's x velocity at world (x, z) from the solver's cell-centred view "uc". */
static double spv_water_u(sv_run *r, double x, double z)
{
    lq_field_view v;
    if (r->vt->view(r->state, "uc", &v)) return NAN;
    return sv_bilinear_field(v.data, r->nx, r->nz, x / r->dx - 0.5, z / r->dx - 0.5);
}

/* Issue 18, item 3: a floating ball in a current (splash_current.yaml) drifts with the
 * water under it: its mean x speed while it crosses [0.8, 1.4] m against the mean of the
 * water's velocity where it is. Returns that fraction. */
static double spv_current(const char *device, int nsets, const char *const *sets)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_current.yaml", nsets, sets)) return NAN;
    lq_frame_stats st;
    double x0 = NAN, t0 = NAN, x1 = NAN, t1 = NAN, usum = 0, xlast = NAN;
    int nu = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        const lq_object_record *rec;
        int n;
        r.vt->objects(r.state, &rec, &n);
        double x = rec[0].pos[0], t = f / r.fps;
        xlast = x;
        if (x < 0.8 || !isnan(t1)) continue;
        if (isnan(t0)) {
            x0 = x;
            t0 = t;
        }
        if (x > 1.4) {
            x1 = x;
            t1 = t;
            continue;
        }
        usum += spv_water_u(&r, x, rec[0].pos[2]);
        nu++;
    }
    double vb = (x1 - x0) / (t1 - t0), uw = usum / fmax(nu, 1);
    fprintf(stderr,
            "splash ball in a current: from x = 0.8 to 1.4 m (t = %.2f to %.2f s) it drifts at "
            "%.4f m/s in water moving %.4f m/s under it: %.1f%% (at the end x = %.3f m)\n",
            t0, t1, vb, uw, 100 * vb / uw, xlast);
    sv_close(&r);
    return vb / uw;
}

/* Issue 18, item 3: a floating ball pushed by a passing wave (splash_wave_push.yaml):
 * its net forward displacement after the crest has passed, against the water's at the
 * same place in the same tank without the ball (∫ u dt there). Returns ball / water. */
static double spv_wave_push(const char *device, int nsets, const char *const *sets)
{
    const char *all[16] = {NULL};
    int n = 0;
    for (int i = 0; i < nsets && n < 15; i++) all[n++] = sets[i];
    sv_run a, w;
    if (sv_open(&a, device, "scenes/validation/splash_wave_push.yaml", n, all)) return NAN;
    all[n++] = "objects=[]";
    if (sv_open(&w, device, "scenes/validation/splash_wave_push.yaml", n, all)) return NAN;
    lq_frame_stats st;
    const double xb = a.cfg->objects[0].center[0], zb = a.cfg->objects[0].center[2];
    double xi = 0, x = xb, peak = 0, u_prev = spv_water_u(&w, xb, zb), umax = 0;
    for (int f = 1; f <= a.frames; f++) {
        if (sv_frame(&a, f, &st) || sv_frame(&w, f, &st)) break;
        double u = spv_water_u(&w, xb, zb);
        xi += 0.5 * (u + u_prev) / a.fps; /* the water's displacement at xb, trapezoids */
        u_prev = u;
        umax = fmax(umax, fabs(u));
        const lq_object_record *rec;
        int no;
        a.vt->objects(a.state, &rec, &no);
        x = rec[0].pos[0];
        peak = fmax(peak, fabs(rec[0].vel[0]));
    }
    fprintf(stderr,
            "splash ball in a passing wave: moved %+.2f mm (peak speed %.3f m/s) while the water "
            "there moved %+.2f mm (peak %.3f m/s) in the tank without it: %.0f%%\n",
            1e3 * (x - xb), peak, 1e3 * xi, umax, 100 * (x - xb) / xi);
    sv_close(&a);
    sv_close(&w);
    return (x - xb) / xi;
}

/* Issue 18, item 4: a floating box of half water's density (splash_box.yaml) settles
 * level and at Archimedes' draft wherever its edges fall on the grid: `shift` moves it
 * by that many cells along x and z. Returns the tilt in degrees; *draft_err the draft's
 * error relative to Archimedes'. */
static double spv_box(const char *device, double shift, int nsets, const char *const *sets,
                      double *draft_err)
{
    lq_config *cfg = lq_config_load("scenes/validation/splash_box.yaml", nsets, sets);
    if (!cfg) {
        CHECK(!"scene");
        return NAN;
    }
    double c[3], size[3], s = cfg->objects[0].density / 1000.0, dx = cfg->grid.cell;
    memcpy(c, cfg->objects[0].center, sizeof c);
    memcpy(size, cfg->objects[0].size, sizeof size);
    lq_config_free(cfg);
    const char *all[16];
    char centre[128];
    snprintf(centre, sizeof centre, "objects.0.box.center=[%.9g,%.9g,%.9g]", c[0] + shift * dx,
             c[1], c[2] + shift * dx);
    all[0] = centre;
    for (int i = 0; i < nsets && i < 14; i++) all[i + 1] = sets[i];
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_box.yaml", nsets + 1, all)) return NAN;
    lq_frame_stats st;
    double ylast[30] = {0}, tilt = 0;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        const lq_object_record *rec;
        int n;
        r.vt->objects(r.state, &rec, &n);
        ylast[f % 30] = rec[0].pos[1];
        /* the angle between the box's own y axis and the vertical: R[1][1] = 1 − 2(x² + z²) */
        const double *q = rec[0].q;
        double cy = 1 - 2 * (q[1] * q[1] + q[3] * q[3]);
        tilt = acos(fmin(1.0, fmax(-1.0, cy))) * 180 / LQ_PI;
    }
    double y = 0, level = 0;
    for (int i = 0; i < 30; i++) y += ylast[i] / 30;
    int cnt = 0;
    for (int i = 0; i < r.nx; i++) {
        level += r.h[i] + r.h[i + r.nx * (r.nz - 1)];
        cnt += 2;
    }
    level /= cnt;
    double draft = level - (y - 0.5 * size[1]), expect = s * size[1];
    *draft_err = (draft - expect) / expect;
    fprintf(stderr,
            "splash floating box s = %.2f, shifted %.2f cells: tilt %.2f°, draft %.4f m "
            "(Archimedes %.4f m, %+.2f%%)\n",
            s, shift, tilt, draft, expect, 100 * *draft_err);
    sv_close(&r);
    return tilt;
}

/* Issue 18, item 4: a ball dropped on a dry slope (splash_ramp.yaml) comes to rest on it:
 * its centre r / cos θ above the ground under it. Returns the height error (m); *slid the
 * distance it moved along x from where it fell. */
static double spv_ramp(const char *device, int nsets, const char *const *sets, double *slid)
{
    sv_run r;
    if (sv_open(&r, device, "scenes/validation/splash_ramp.yaml", nsets, sets)) return NAN;
    const lq_config_terrain *t = &r.cfg->terrain[0];
    double rad = r.cfg->objects[0].radius, x0 = r.cfg->objects[0].center[0];
    double slope = (t->ramp.height[1] - t->ramp.height[0]) / (t->ramp.to[0] - t->ramp.from[0]);
    lq_frame_stats st;
    double x = NAN, y = NAN, v = NAN;
    for (int f = 1; f <= r.frames; f++) {
        if (sv_frame(&r, f, &st)) break;
        const lq_object_record *rec;
        int n;
        r.vt->objects(r.state, &rec, &n);
        x = rec[0].pos[0];
        y = rec[0].pos[1];
        v = sqrt(rec[0].vel[0] * rec[0].vel[0] + rec[0].vel[1] * rec[0].vel[1] +
                 rec[0].vel[2] * rec[0].vel[2]);
    }
    double ground = t->ramp.height[0] + slope * (x - t->ramp.from[0]);
    double expect = ground + rad * sqrt(1 + slope * slope);
    *slid = x - x0;
    fprintf(stderr,
            "splash ball on a ramp (slope %.2f): rests at x = %.4f m (%+.1f mm from where it "
            "fell), y = %.4f m against %.4f m on the slope (%+.2f mm), speed %.2g m/s\n",
            slope, x, 1e3 * (x - x0), y, expect, 1e3 * (y - expect), v);
    CHECK(v < 0.01);
    sv_close(&r);
    return y - expect;
}

#endif
