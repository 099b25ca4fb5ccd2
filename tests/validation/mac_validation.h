/*
 * mac_validation.h — VALIDATION.md's `mac` cases through the solver (standing wave of
 * finite depth, free fall, dam break against Martin & Moyce 1952), as functions of a
 * device and --set overrides, shared by the quick test (test_mac_validation.c, small
 * sizes) and the full one (full_mac_validation.c, the scenes as they are). Scenes:
 * scenes/validation/mac_*.yaml. Each case loads its scene with the overrides through the
 * solver table (as shallow_validation.h's sv_open does), steps frames with
 * vt->advance and reads the cells' marker fill from the `phi` view (fill = ½ − phi).
 */
#ifndef LQ_MAC_VALIDATION_H
#define LQ_MAC_VALIDATION_H

#pragma GCC diagnostic ignored "-Wunused-function"
#include "validation/shallow_validation.h"

#include "common/mac_grid.h"

typedef struct mv_run {
    sv_run sv; /* scene, solver table, state, context (sv.h, sv.b unused) */
    int nx, ny, nz;
    double dx, origin[3], g[3];
    float *fill; /* marker fill per cell, 0..1 (walls 0); pls: φ (pls_validation.h) */
    int (*read)(struct mv_run *); /* what mv_frame reads into fill; NULL: mv_read_fill */
} mv_run;

/* Opens the scene like sv_open, without the height-field views. Returns 0, 1 on a
 * failure (checked), 2 when the solver refuses the scene (reported, not checked: a
 * feature the case needs is missing; the message is printed). */
static int mv_open(mv_run *r, const char *device, const char *path, int nsets,
                   const char *const *sets)
{
    memset(r, 0, sizeof *r);
    lq_error_clear();
    sv_run *s = &r->sv;
    s->cfg = lq_config_load(path, nsets, sets);
    if (!s->cfg || !(s->vt = lq_registry_find(s->cfg)) || lq_ctx_open(&s->ctx, device, false)) {
        fprintf(stderr, "%s: %s\n", path, lq_error_message());
        CHECK(!"scene set-up failed");
        return 1;
    }
    if (s->vt->create(&s->ctx, s->cfg, &s->state)) {
        fprintf(stderr, "%s: NOT RUN, the solver refuses the scene: %s\n", path,
                lq_error_message());
        s->state = NULL;
        return 2;
    }
    const lq_config *cfg = s->cfg;
    r->nx = cfg->grid.size[0];
    r->ny = cfg->grid.size[1];
    r->nz = cfg->grid.size[2];
    r->dx = cfg->grid.cell;
    memcpy(r->origin, cfg->grid.origin, sizeof r->origin);
    memcpy(r->g, cfg->gravity, sizeof r->g);
    s->fps = cfg->time.fps;
    s->frames = cfg->time.frames;
    s->dx = r->dx;
    r->fill = malloc((size_t)r->nx * r->ny * r->nz * sizeof(float));
    return 0;
}

static void mv_close(mv_run *r)
{
    sv_close(&r->sv);
    free(r->fill);
}

static int mv_read_fill(mv_run *r)
{
    lq_field_view v;
    int rc = r->sv.vt->view(r->sv.state, "phi", &v);
    if (!rc)
        for (size_t c = 0; c < (size_t)r->nx * r->ny * r->nz; c++) r->fill[c] = 0.5f - v.data[c];
    return rc;
}

/* Advances to frame f (time f / fps) and reads the fill (or what r->read reads). */
static int mv_frame(mv_run *r, int f, lq_frame_stats *st)
{
    int rc = r->sv.vt->advance(r->sv.state, f, f / r->sv.fps, st);
    if (!rc) rc = r->read ? r->read(r) : mv_read_fill(r);
    if (rc) {
        fprintf(stderr, "frame %d: %s\n", f, lq_error_message());
        CHECK(!"solver step failed");
    }
    return rc;
}

static double mv_f(const mv_run *r, int i, int j, int k)
{
    return r->fill[LQ_MAC_CELL(i, j, k, r->nx, r->ny)];
}

/* Height of the liquid in column i (layer k) above the floor (the top of the wall
 * layer j = 0): the column's fill summed, m. */
static double mv_column(const mv_run *r, int i, int k)
{
    double s = 0;
    for (int j = 1; j < r->ny - 1; j++) s += mv_f(r, i, j, k);
    return s * r->dx;
}

/* A stats extra, NaN when the solver does not report it (not a failure). */
static double mv_extra(const lq_frame_stats *st, const char *key)
{
    for (int i = 0; i < st->nextra; i++)
        if (strcmp(st->extra[i].key, key) == 0) return st->extra[i].value;
    return NAN;
}

/* --- standing wave of finite depth ------------------------------------------------- */

/* Horizontal volume flux through the x-faces of face column i (m²/s, 2D). */
static double mv_flux(const mv_run *r, int i)
{
    lq_field_view vu;
    double q = 0;
    if (r->sv.vt->view(r->sv.state, "u", &vu)) return NAN;
    for (int j = 1; j < r->ny - 1; j++) q += vu.data[i + vu.dims[0] * j] * r->dx;
    return q;
}

/* The mode's amplitude from the markers (2D): each marker carries the area δx²/n of its
 * cell share (n markers per cell), so Σ_markers cos(k x_m) δx²/n approximates
 * ∫∫_liquid cos(k x) dA = ∫_0^L (h + η) cos(k x) dx = A L / 2 for η = A cos(k x),
 * k = m π / L. It moves continuously with the markers (a marker crossing a cell face
 * does not jump it, unlike the cells' fill), so it carries a wave far below a cell.
 * x0: the world x of the basin's wall (x = 0). NaN without the points view. */
static double mv_marker_mode(const mv_run *r, double k, double L, double x0, int per_cell)
{
    lq_points_view pv;
    if (!r->sv.vt->points || r->sv.vt->points(r->sv.state, &pv) || pv.n <= 1) return NAN;
    double s = 0;
    for (int q = 0; q < pv.n; q++) s += cos(k * (pv.columns[0][q] - x0));
    return 2 / L * s * r->dx * r->dx / per_cell;
}

/* Least-squares fit of y(t) ≈ c + e^(−λ t) (a cos ω t + b sin ω t) (a damped sine):
 * for each (ω, λ) the linear part by the normal equations, (ω, λ) by a grid search
 * around ω0 (0.5 … 1.5 ω0, λ 0 … ω0 / 2) refined three times. Returns the period
 * 2π/ω; *amp the amplitude √(a² + b²) at t = 0, *lam the damping rate (1/s), *fit the
 * fraction of the signal's variance the fit explains (R²). */
static double mv_sine_fit(const double *t, const double *y, int n, double w0, double *amp,
                          double *lam, double *fit)
{
    double bw = w0, bl = 0, best = INFINITY, ba = 0, bb = 0;
    double wlo = 0.5 * w0, whi = 1.5 * w0, llo = 0, lhi = 0.5 * w0;
    for (int round = 0; round < 4; round++) {
        int nw = round == 0 ? 400 : 40, nl = round == 0 ? 40 : 20;
        for (int iw = 0; iw <= nw; iw++)
            for (int il = 0; il <= nl; il++) {
                double w = wlo + (whi - wlo) * iw / nw, l = llo + (lhi - llo) * il / nl;
                if (w <= 0 || l < 0) continue;
                double M[3][4] = {{0}};
                for (int i = 0; i < n; i++) {
                    double e = exp(-l * t[i]), f[3] = {1, e * cos(w * t[i]), e * sin(w * t[i])};
                    for (int p = 0; p < 3; p++) {
                        for (int q = 0; q < 3; q++) M[p][q] += f[p] * f[q];
                        M[p][3] += f[p] * y[i];
                    }
                }
                for (int p = 0; p < 3; p++) { /* Gauss-Jordan, the matrix is SPD */
                    double d = M[p][p];
                    if (fabs(d) < 1e-300) goto next;
                    for (int q = 0; q < 4; q++) M[p][q] /= d;
                    for (int o = 0; o < 3; o++)
                        if (o != p) {
                            double m = M[o][p];
                            for (int q = 0; q < 4; q++) M[o][q] -= m * M[p][q];
                        }
                }
                double res = 0;
                for (int i = 0; i < n; i++) {
                    double e = exp(-l * t[i]);
                    double d =
                        y[i] - M[0][3] - e * (M[1][3] * cos(w * t[i]) + M[2][3] * sin(w * t[i]));
                    res += d * d;
                }
                if (res < best) {
                    best = res;
                    bw = w;
                    bl = l;
                    ba = M[1][3];
                    bb = M[2][3];
                }
            next:;
            }
        double dw = 2 * (whi - wlo) / nw, dl = 2 * (lhi - llo) / nl;
        wlo = bw - dw;
        whi = bw + dw;
        llo = fmax(bl - dl, 0);
        lhi = bl + dl;
    }
    double mean = 0, var = 0;
    for (int i = 0; i < n; i++) mean += y[i] / n;
    for (int i = 0; i < n; i++) var += (y[i] - mean) * (y[i] - mean);
    *amp = sqrt(ba * ba + bb * bb);
    *lam = bl;
    *fit = var > 0 ? 1 - best / var : 0;
    return 2 * LQ_PI / bw;
}

/* η = A cos(m π x / L) in a basin of length L, depth h (the scene's interior: x from 0
 * to L, floor at y = 0, origin = −δx so the wall layer lies outside). Linear theory:
 * ω² = g k tanh(k h), k = m π / L. The checked signal is the mode's amplitude from the
 * markers (mv_marker_mode; the caller sets output.markers so the points view has
 * them), its period from a damped-sine least-squares fit over the whole run
 * (mv_sine_fit), which must be within `tol` of the tanh value and explain at least
 * half of the signal's variance. Reported beside it: the same signal's down-crossings
 * of its mean; for an odd mode the markers' centroid_x (stats), fitted the same way;
 * the horizontal volume flux through the first node of η, x = L / (2m), timed by its
 * down-crossings (face velocities: noise dominated when the wave is below a cell); the
 * mode amplitude from the cells' fill (column heights projected on cos k x). A wave a
 * fraction of a cell high needs markers finer than it (mac.particles, e.g. 36 in 2D: a
 * 6 × 6 lattice per cell). tol ≤ 0: reported only. */
static void mv_standing_wave(const char *device, double tol, int nsets, const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, device, "scenes/validation/mac_standing_wave.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "standing wave not run");
        if (rc == 2) mv_close(&r);
        return;
    }
    const lq_config *cfg = r.sv.cfg;
    int m = cfg->liquid[1].wave.mode;
    int per_cell = cfg->mac.particles;
    if (per_cell == 0) per_cell = r.nz == 1 ? 4 : 8;
    double amp = cfg->liquid[1].wave.amplitude;
    double h = cfg->liquid[0].level;
    int ni = r.nx - 2, node = 1 + (int)lround(ni / (2.0 * m));
    double L = ni * r.dx, k = m * LQ_PI / L, x0 = r.origin[0] + r.dx;
    double T = 2 * LQ_PI / sqrt(G * k * tanh(k * h)), Tsw = 2 * LQ_PI / (k * sqrt(G * h));
    int cells = (int)lround(2 * L / m / r.dx), n = r.sv.frames + 1;
    enum { FLUX, MARKERS, CENTROID, FILL, NSIG };
    double *t = calloc((size_t)n, sizeof *t), *y[NSIG];
    for (int q = 0; q < NSIG; q++) y[q] = calloc((size_t)n, sizeof *y[q]);
    lq_frame_stats st;
    int steps = 0, nf = 0;
    double vmax = 0, qmax = 0;
    for (int f = 0; f < n; f++) {
        if (f > 0) {
            if (mv_frame(&r, f, &st)) break;
            steps += st.steps;
            vmax = fmax(vmax, st.max_speed);
        } else {
            mv_read_fill(&r);
            r.sv.vt->measure(r.sv.state, &st);
        }
        t[f] = f / r.sv.fps;
        double s = 0;
        for (int i = 1; i <= ni; i++) s += (mv_column(&r, i, 0) - h) * cos(k * (i - 0.5) * r.dx);
        y[FLUX][f] = mv_flux(&r, node);
        y[MARKERS][f] = mv_marker_mode(&r, k, L, x0, per_cell);
        y[CENTROID][f] = mv_extra(&st, "centroid_x");
        y[FILL][f] = 2 * s / ni;
        qmax = fmax(qmax, fabs(y[FLUX][f]));
        nf = f + 1;
    }
    double p[NSIG];
    int nc[NSIG];
    for (int q = 0; q < NSIG; q++) {
        double mean = 0, cr[64];
        for (int f = 0; f < nf; f++) mean += y[q][f] / nf;
        for (int f = 0; f < nf; f++) y[q][f] -= mean;
        nc[q] = sv_down_crossings(t, y[q], nf, cr, 64);
        p[q] = nc[q] >= 2 ? (cr[nc[q] - 1] - cr[0]) / (nc[q] - 1) : 0;
    }
    double w = 2 * LQ_PI / T, am = 0, lm = 0, fm = 0, ac = 0, lc = 0, fc = 0;
    double pm = isnan(y[MARKERS][0]) ? NAN : mv_sine_fit(t, y[MARKERS], nf, w, &am, &lm, &fm);
    double pc =
        m % 2 && !isnan(y[CENTROID][0]) ? mv_sine_fit(t, y[CENTROID], nf, w, &ac, &lc, &fc) : NAN;
    fprintf(stderr,
            "standing wave mode %d (%d cells per wavelength, a k = %.3f, a = %.3g dx, %d "
            "markers per cell, %d steps, %.2f periods): exact period %.6f s (shallow-water "
            "%.4f)\n  markers' mode amplitude, damped-sine fit: %.5f s (%+.2f%%), amplitude "
            "%.3g m (a = %.3g), damping %.3g 1/s, R2 %.3f; its down-crossings %.5f s (%d, "
            "%+.2f%%)\n",
            m, cells, amp * k, amp / r.dx, per_cell, steps, t[nf - 1] / T, T, Tsw, pm,
            100 * (pm - T) / T, am, amp, lm, fm, p[MARKERS], nc[MARKERS],
            100 * (p[MARKERS] - T) / T);
    if (m % 2)
        fprintf(stderr,
                "  markers' centroid_x, damped-sine fit: %.5f s (%+.2f%%), amplitude %.3g m "
                "(linear 2 a L / (pi^2 h) = %.3g), damping %.3g 1/s, R2 %.3f\n",
                pc, 100 * (pc - T) / T, ac, 2 * amp * L / (LQ_PI * LQ_PI * h), lc, fc);
    fprintf(stderr,
            "  flux at the node: %.5f s (%d crossings, %+.2f%%), peak %.3g m2/s (linear %.3g); "
            "fill mode amplitude %.5f s (%d, %+.2f%%); max speed %.3g m/s (linear %.3g)\n",
            p[FLUX], nc[FLUX], 100 * (p[FLUX] - T) / T, qmax, amp * w / k, p[FILL], nc[FILL],
            100 * (p[FILL] - T) / T, vmax, amp * w / tanh(k * h));
    CHECK(nf == n);
    if (tol > 0) CHECK(fm >= 0.5);
    if (tol > 0) CHECK(fabs(pm - T) <= tol * T);
    free(t);
    for (int q = 0; q < NSIG; q++) free(y[q]);
    mv_close(&r);
}

/* --- free fall ------------------------------------------------------------------- */

/* Fill-weighted centroid and radius of gyration (m, world). */
static void mv_moments(const mv_run *r, double c[3], double *rg)
{
    double s = 0, s1[3] = {0, 0, 0}, s2 = 0;
    for (int kk = 0; kk < r->nz; kk++)
        for (int j = 0; j < r->ny; j++)
            for (int i = 0; i < r->nx; i++) {
                double f = mv_f(r, i, j, kk);
                if (f <= 0) continue;
                double x[3] = {r->origin[0] + (i + 0.5) * r->dx, r->origin[1] + (j + 0.5) * r->dx,
                               r->origin[2] + (kk + 0.5) * r->dx};
                s += f;
                for (int q = 0; q < 3; q++) s1[q] += f * x[q];
                s2 += f * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            }
    for (int q = 0; q < 3; q++) c[q] = s > 0 ? s1[q] / s : 0;
    *rg = s > 0 ? sqrt(fmax(s2 / s - (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), 0)) : 0;
}

/* A liquid ball with velocity v0 under the scene's gravity (zero or not) must keep its
 * shape and its centroid must follow x0 + v0 t + ½ g t² within 0.1 δx over at least 100
 * steps. The centroid is the markers' mean (stats extras centroid_x/y/z); the
 * fill-weighted one is reported beside it (its sawtooth as the marker lattice slides
 * through the cells is up to ~¼ δx). Shape: the fill-weighted radius of gyration
 * within 0.3 δx of its start. And the largest face speed component must be
 * max_a |v0_a + g_a t| within 10 % (every face of a ball in free fall moves with it).
 * check: 0 reports only, 1 checks the centroid and the shape, 2 also the speed (a v0
 * the solver ignores fails from 1 on). */
static void mv_free_fall(const char *device, const char *label, int check, int nsets,
                         const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, device, "scenes/validation/mac_free_fall.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "free fall (%s) not run", label);
        if (rc == 2) mv_close(&r);
        return;
    }
    const double *v0 = r.sv.cfg->liquid[0].sphere.velocity;
    const char *key[3] = {"centroid_x", "centroid_y", "centroid_z"};
    double c[3], cf0[3], cm0[3], rg0, rg, worst = 0, worst_fill = 0, rg_drift = 0, vworst = 0;
    mv_read_fill(&r);
    mv_moments(&r, cf0, &rg0);
    lq_frame_stats st;
    r.sv.vt->measure(r.sv.state, &st);
    for (int q = 0; q < 3; q++) cm0[q] = mv_extra(&st, key[q]);
    if (isnan(cm0[0])) {
        fprintf(stderr, "free fall (%s): NOT RUN, the solver reports no centroid_x/y/z\n", label);
        CHECK_MSG(0, "free fall (%s): no centroid in the stats", label);
        mv_close(&r);
        return;
    }
    int steps = 0;
    bool ignored = false;
    double speed0 = sqrt(v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]);
    for (int f = 1; f <= r.sv.frames; f++) {
        if (mv_frame(&r, f, &st)) break;
        steps += st.steps;
        double t = f / r.sv.fps, ve[3], em = 0, ef = 0;
        mv_moments(&r, c, &rg);
        for (int q = 0; q < 3; q++) {
            double d = v0[q] * t + 0.5 * r.g[q] * t * t;
            ve[q] = v0[q] + r.g[q] * t;
            em = fmax(em, fabs(mv_extra(&st, key[q]) - cm0[q] - d));
            ef = fmax(ef, fabs(c[q] - cf0[q] - d));
        }
        if (f == 1 && speed0 > 0 && st.max_speed < 0.5 * speed0) ignored = true;
        worst = fmax(worst, em);
        worst_fill = fmax(worst_fill, ef);
        rg_drift = fmax(rg_drift, fabs(rg - rg0));
        double vexp = fmax(fabs(ve[0]), fmax(fabs(ve[1]), fabs(ve[2])));
        vworst = fmax(vworst, fabs(st.max_speed - vexp) / fmax(vexp, 1e-3));
    }
    if (ignored) {
        fprintf(stderr,
                "free fall (%s): NOT RUN, the solver ignores liquid[].sphere.velocity (max "
                "speed after frame 1 below half of |v0| = %.3g m/s)\n",
                label, speed0);
        if (check) CHECK_MSG(0, "free fall (%s): v0 ignored by the solver", label);
        mv_close(&r);
        return;
    }
    fprintf(stderr,
            "free fall (%s): %d steps; markers' centroid off x0 + v0 t + g t^2/2 by %.3g dx at "
            "worst (bar 0.1; fill-weighted %.3g dx); radius of gyration %.4g m drifts %.3g dx "
            "(bar 0.3); largest face speed off max|v0 + g t| by %.3g of it at worst (bar "
            "0.1)%s\n",
            label, steps, worst / r.dx, worst_fill / r.dx, rg0, rg_drift / r.dx, vworst,
            check == 0   ? "; reported only"
            : check == 1 ? "; speed reported only"
                         : "");
    CHECK(steps >= 100);
    if (check >= 1) CHECK(worst <= 0.1 * r.dx);
    if (check >= 1) CHECK(rg_drift <= 0.3 * r.dx);
    if (check >= 2) CHECK(vworst <= 0.1);
    mv_close(&r);
}

/* --- dam break against Martin & Moyce (1952) ------------------------------------- */

/* Martin & Moyce (1952), Phil. Trans. R. Soc. A 244, 312–324, n² = 2, a = 2¼ in =
 * 0.05715 m: Tables 2 and 6 as tabulated in TormodLandet/Ocellaris,
 * scripts/plot_dam_break.py (the front: Z = x/a at T = t √(2g/a); the residual
 * column: H = η/(2a) at τ = t √(g/a)). pysph/examples/db_exp_data.py digitises the
 * same case's Figure 3 (Z at T = 0.832: 1.217; 1.997: 2.292; 3.345: 4.134) in agreement. */
static const double mm_T[] = {0.41, 0.84, 1.19, 1.43, 1.63, 1.83, 1.98, 2.20,
                              2.32, 2.51, 2.65, 2.83, 2.98, 3.11, 3.33};
static const double mm_Z[] = {1.11, 1.22, 1.44, 1.67, 1.89, 2.11, 2.33, 2.56,
                              2.78, 3.00, 3.22, 3.44, 3.67, 3.89, 4.11};
static const double mm_tau[] = {0.56, 0.77, 0.93, 1.08, 1.28, 1.46, 1.66, 1.84, 2.00,
                                2.21, 2.45, 2.70, 3.06, 3.44, 4.20, 5.25, 7.40};
static const double mm_H[] = {0.94, 0.89, 0.83, 0.78, 0.72, 0.67, 0.61, 0.56, 0.50,
                              0.44, 0.39, 0.33, 0.28, 0.22, 0.17, 0.11, 0.06};

/* Linear interpolation of y(x) at x (x increasing). */
static double mv_interp(const double *x, const double *y, int n, double at)
{
    if (n == 0) return NAN;
    if (at <= x[0]) return y[0];
    for (int i = 1; i < n; i++)
        if (at <= x[i]) return y[i - 1] + (y[i] - y[i - 1]) * (at - x[i - 1]) / (x[i] - x[i - 1]);
    return y[n - 1];
}

/* The front, m from the back wall: along the two lowest rows (the larger fill of the
 * two per column), from the back wall to the last wet column before a gap of 3 dry
 * ones (a stray marker ahead of the front does not count), plus that column's fill
 * (sub-cell). */
static double mv_front(const mv_run *r)
{
    int last = 0, dry = 0;
    for (int i = 1; i < r->nx - 1 && dry < 3; i++) {
        if (fmax(mv_f(r, i, 1, 0), mv_f(r, i, 2, 0)) > 0) {
            last = i;
            dry = 0;
        } else {
            dry++;
        }
    }
    if (last == 0) return 0;
    return (last - 1 + fmin(fmax(mv_f(r, last, 1, 0), mv_f(r, last, 2, 0)), 1.0)) * r->dx;
}

/* Deviations from the measurements with the simulated curves delayed by `shift` in T
 * (τ = T / √2): the front's relative |ΔZ| / Z at the measured T ≥ 1 (after the release
 * transient) and the column's |ΔH| at every measured τ the run reaches; mean and worst. */
typedef struct mv_dev {
    double zmean, zworst, zabs, hmean, hworst; /* zabs: mean |ΔZ| */
    int zn, hn;
} mv_dev;

static mv_dev mv_dam_compare(const double *T, const double *Z, const double *tau, const double *H,
                             int nf, double shift)
{
    mv_dev d = {0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < LQ_COUNT(mm_T); i++) {
        if (mm_T[i] < 1 || mm_T[i] - shift > T[nf - 1]) continue;
        double dz = fabs(mv_interp(T, Z, nf, mm_T[i] - shift) - mm_Z[i]), e = dz / mm_Z[i];
        d.zabs += dz;
        d.zworst = fmax(d.zworst, e);
        d.zmean += e;
        d.zn++;
    }
    for (size_t i = 0; i < LQ_COUNT(mm_tau); i++) {
        double at = mm_tau[i] - shift / sqrt(2.0);
        if (at > tau[nf - 1]) continue;
        double e = fabs(mv_interp(tau, H, nf, at) - mm_H[i]);
        d.hworst = fmax(d.hworst, e);
        d.hmean += e;
        d.hn++;
    }
    if (d.zn) d.zmean /= d.zn;
    if (d.zn) d.zabs /= d.zn;
    if (d.hn) d.hmean /= d.hn;
    return d;
}

/* The comparison with Martin & Moyce, shared by the solvers' harnesses. Simulations of
 * this experiment lead its front in time (e.g. chaos-polymtl/lethe's
 * examples/multiphysics/dam-break/dam-break-2d.py shifts its simulated T by 0.175 before
 * comparing), but not its residual column: the measured column has already fallen to
 * H = 0.94 at τ = 0.56, which is what the released column's potential flow gives with no
 * delay (tests/validation/pls_validation.h checks the solver's first step against that flow), so
 * any delay of the column above about 0.1 in T puts that first reading outside its
 * reading error. The front's lag is the tip's bed resistance (Dressler 1952, Whitham
 * 1955), which an inviscid run does not have. So each curve is compared after its own
 * best delay: the front after s_Z in [0, 0.3) (T units, steps of 0.01, minimising its
 * mean error), the column after s_H in [0, 0.1]; bars mean |ΔZ| ≤ 0.056 (T ≥ 1) and mean
 * |ΔH| ≤ 0.028, half the tables' reading step (¼ in over a = 2¼ in and over 2a = 4½ in).
 * The single shift for both curves is reported too (mv_dam_report). */
typedef struct mv_fit {
    mv_dev d0;     /* as run */
    double s1;     /* one shift for both curves, chosen by the front (reported) */
    mv_dev d1;     /* delayed by s1 */
    double sz, sh; /* the front's and the column's own shifts */
    mv_dev dz, dh; /* delayed by sz (front) and by sh (column) */
} mv_fit;

static mv_fit mv_dam_fit(const double *T, const double *Z, const double *tau, const double *H,
                         int nf)
{
    mv_fit f;
    memset(&f, 0, sizeof f);
    f.d0 = f.d1 = f.dz = f.dh = mv_dam_compare(T, Z, tau, H, nf, 0);
    for (int q = 1; q <= 30; q++) {
        mv_dev d = mv_dam_compare(T, Z, tau, H, nf, 0.01 * q);
        if (d.zmean < f.dz.zmean) {
            f.dz = f.d1 = d;
            f.sz = f.s1 = 0.01 * q;
        }
        if (q <= 10 && d.hmean < f.dh.hmean) {
            f.dh = d;
            f.sh = 0.01 * q;
        }
    }
    return f;
}

static void mv_dam_report(const mv_fit *f)
{
    fprintf(stderr,
            "\n  as run: front (%d points, T >= 1) mean |dZ|/Z %.1f%%, worst %.1f%%; "
            "column (%d points) mean |dH| %.3f, worst %.3f\n"
            "  front delayed by its best shift dT = %.2f: mean |dZ| %.3f (bar 0.056), mean "
            "%.1f%%, worst %.1f%%\n"
            "  column delayed by its best shift dT = %.2f (at most 0.1): mean |dH| %.3f (bar "
            "0.028), worst %.3f\n"
            "  (one shift for both, dT = %.2f: column mean |dH| %.3f, worst %.3f)\n",
            f->d0.zn, 100 * f->d0.zmean, 100 * f->d0.zworst, f->d0.hn, f->d0.hmean, f->d0.hworst,
            f->sz, f->dz.zabs, 100 * f->dz.zmean, 100 * f->dz.zworst, f->sh, f->dh.hmean,
            f->dh.hworst, f->s1, f->d1.hmean, f->d1.hworst);
}

static void mv_dam_check(const mv_fit *f)
{
    CHECK(f->d0.zn >= 10 && f->d0.hn >= 15);
    CHECK(f->sz < 0.3);
    CHECK(f->dz.zabs <= 0.25 / 2.25 / 2);
    CHECK(f->dh.hmean <= 0.25 / 4.5 / 2);
}

/* Runs the dam break and compares with Martin & Moyce (mv_dam_fit). The column height
 * is read from the marker density's fill, which reads 2.3 % low in the full cells against
 * the back wall (the density's kernel is cut by the wall): H is divided by its own
 * reading at t = 0, where the true value is 2a.
 * Writes T, Z, τ, H per frame to csv when given (tools/plot-dam-break). */
static void mv_dam_break(const char *device, const char *csv, int nsets, const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, device, "scenes/validation/mac_dam_break.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "dam break not run");
        if (rc == 2) mv_close(&r);
        return;
    }
    const double *b = r.sv.cfg->liquid[0].box.max;
    double a = b[0], g = fabs(r.g[1]);
    int n = r.sv.frames + 1;
    double *T = calloc((size_t)n, sizeof *T), *Z = calloc((size_t)n, sizeof *Z),
           *tau = calloc((size_t)n, sizeof *tau), *H = calloc((size_t)n, sizeof *H);
    lq_frame_stats st;
    int steps = 0, nf = 0;
    mv_read_fill(&r);
    for (int f = 0; f < n; f++) {
        if (f > 0) {
            if (mv_frame(&r, f, &st)) break;
            steps += st.steps;
        }
        double t = f / r.sv.fps;
        T[f] = t * sqrt(2 * g / a);
        tau[f] = t * sqrt(g / a);
        Z[f] = mv_front(&r) / a;
        H[f] = mv_column(&r, 1, 0) / (2 * a);
        if (f > 0 && H[0] > 0) H[f] /= H[0];
        nf = f + 1;
    }
    if (nf > 0) H[0] = 1;
    FILE *out = csv ? fopen(csv, "w") : NULL;
    if (out) {
        fprintf(out, "# mac, a = %.0f cells (%d steps)\nT,Z,tau,H\n", a / r.dx, steps);
        for (int f = 0; f < nf; f++)
            fprintf(out, "%.5f,%.5f,%.5f,%.5f\n", T[f], Z[f], tau[f], H[f]);
        fclose(out);
    }
    fprintf(stderr, "dam break (a = %.3g cells, %d steps): T, Z measured, Z simulated:", a / r.dx,
            steps);
    for (size_t i = 0; i < LQ_COUNT(mm_T); i++)
        if (mm_T[i] <= T[nf - 1])
            fprintf(stderr, " %.2f %.2f %.2f;", mm_T[i], mm_Z[i], mv_interp(T, Z, nf, mm_T[i]));
    fprintf(stderr, "\n  tau, H measured, H simulated:");
    for (size_t i = 0; i < LQ_COUNT(mm_tau); i++)
        if (mm_tau[i] <= tau[nf - 1])
            fprintf(stderr, " %.2f %.2f %.3f;", mm_tau[i], mm_H[i],
                    mv_interp(tau, H, nf, mm_tau[i]));
    mv_fit fit = mv_dam_fit(T, Z, tau, H, nf);
    mv_dam_report(&fit);
    mv_dam_check(&fit);
    free(T);
    free(Z);
    free(tau);
    free(H);
    mv_close(&r);
}

#endif
