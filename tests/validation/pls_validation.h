/*
 * pls_validation.h — VALIDATION.md's `pls` cases through the solver (hydrostatic tank,
 * standing wave of finite depth, dam break against Martin & Moyce 1952), shared by the
 * quick test (test_pls_validation.c, small sizes) and the full one
 * (full_pls_validation.c, the scenes as they are). Scenes: scenes/validation/pls_*.yaml.
 * The scene is opened through the solver table with tests/validation/mac_validation.h's mv_open;
 * the measurements read the `phi` view (a signed distance, m, liquid ≤ 0) and the `u`
 * view. Unlike `mac`, a pls grid has no wall layer: cell (i, j) spans [i h, (i+1) h] ×
 * [j h, (j+1) h] above the origin, and the domain edge is the wall.
 *
 * The liquid fraction of a cell is the linear Heaviside of its φ, clamp(½ − φ/h, 0, 1)
 * (exact for a plane surface when φ is a signed distance), the same measure as the
 * solver's volume (lq_plsforce_volume).
 */
#ifndef LQ_PLS_VALIDATION_H
#define LQ_PLS_VALIDATION_H

#pragma GCC diagnostic ignored "-Wunused-function"
#include "validation/mac_validation.h"

/* φ of every cell into r->fill (the field is named fill in mv_run; here it holds φ). */
static int pv_read_phi(mv_run *r)
{
    lq_field_view v;
    int rc = r->sv.vt->view(r->sv.state, "phi", &v);
    if (!rc) memcpy(r->fill, v.data, (size_t)r->nx * r->ny * r->nz * sizeof(float));
    return rc;
}

/* Advances to frame f and reads φ (mv_frame with pv_read_phi). */
static int pv_frame(mv_run *r, int f, lq_frame_stats *st)
{
    r->read = pv_read_phi;
    return mv_frame(r, f, st);
}

static double pv_phi(const mv_run *r, int i, int j, int k)
{
    return r->fill[LQ_MAC_CELL(i, j, k, r->nx, r->ny)];
}

static double pv_frac(double phi, double h)
{
    return fmin(fmax(0.5 - phi / h, 0.0), 1.0);
}

/* Height of the liquid in column i (layer k) above the floor, m. */
static double pv_column(const mv_run *r, int i, int k)
{
    double s = 0;
    for (int j = 0; j < r->ny; j++) s += pv_frac(pv_phi(r, i, j, k), r->dx);
    return s * r->dx;
}

/* Horizontal volume flux through the x-faces of face column i (m²/s, 2D): each face's u
 * times its liquid fraction (the mean of its two cells' φ: the extrapolated air
 * velocities do not count). */
static double pv_flux(const mv_run *r, int i)
{
    lq_field_view vu;
    double q = 0;
    if (r->sv.vt->view(r->sv.state, "u", &vu)) return NAN;
    int il = LQ_MAX(i - 1, 0), ir = LQ_MIN(i, r->nx - 1);
    for (int j = 0; j < r->ny; j++)
        q += vu.data[i + vu.dims[0] * j] * r->dx *
             pv_frac(0.5 * (pv_phi(r, il, j, 0) + pv_phi(r, ir, j, 0)), r->dx);
    return q;
}

/* --- hydrostatic tank -------------------------------------------------------------- */

/* Still water (scenes/validation/pls_tank.yaml) must stay still: max |u| ≤ 1e-4 √(g D)
 * and the volume from φ within 1e-5 of the start over the frames; every projection
 * converged. */
static void pv_tank(const char *device, int nsets, const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, device, "scenes/validation/pls_tank.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "tank not run");
        if (rc == 2) mv_close(&r);
        return;
    }
    double D = r.sv.cfg->liquid[0].level - r.origin[1];
    double vmax = 0, dv = 0, unconv = 0;
    int steps = 0;
    lq_frame_stats st;
    for (int f = 1; f <= r.sv.frames; f++) {
        if (pv_frame(&r, f, &st)) break;
        steps += st.steps;
        vmax = fmax(vmax, st.max_speed);
        dv = fmax(dv, fabs(mv_extra(&st, "volume_change")));
        unconv += mv_extra(&st, "pressure_unconverged");
    }
    double bar = 1e-4 * sqrt(G * D);
    fprintf(stderr,
            "hydrostatic tank (%d x %d x %d, depth %.3g m, %d frames, %d steps): max speed "
            "%.3g m/s (bar %.3g), worst |volume change| %.3g (bar 1e-5), unconverged "
            "projections %.0f\n",
            r.nx, r.ny, r.nz, D, r.sv.frames, steps, vmax, bar, dv, unconv);
    CHECK(steps >= r.sv.frames);
    CHECK(vmax <= bar);
    CHECK(dv <= 1e-5);
    CHECK(unconv == 0);
    mv_close(&r);
}

/* --- standing wave of finite depth ------------------------------------------------- */

/* η = A cos(m π x / L) in the domain (x from 0 to L = nx h, floor at y = 0). Linear
 * theory: ω² = g k tanh(k h), k = m π / L. Timed as for `mac` (mac_validation.h's
 * mv_standing_wave) by down-crossings of their mean: (1) the horizontal volume flux
 * through the first node of η, x = L / (2m), checked; (2) the mode's amplitude (column
 * heights from φ projected on cos(k x)) and (3) the surface height in the first column,
 * reported. The period from (1) must be within `tol` of the tanh value. Also reports the
 * amplitude's decay (the first and the last third's peak |mode amplitude|) and the
 * volume change. */
static void pv_standing_wave(const char *device, double tol, int nsets, const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, device, "scenes/validation/pls_standing_wave.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "standing wave not run");
        if (rc == 2) mv_close(&r);
        return;
    }
    const lq_config *cfg = r.sv.cfg;
    int m = cfg->liquid[1].wave.mode;
    double amp = cfg->liquid[1].wave.amplitude;
    double h = cfg->liquid[0].level - r.origin[1];
    int ni = r.nx, node = (int)lround(ni / (2.0 * m));
    double L = ni * r.dx, k = m * LQ_PI / L;
    double T = 2 * LQ_PI / sqrt(G * k * tanh(k * h)), Tsw = 2 * LQ_PI / (k * sqrt(G * h));
    int cells = (int)lround(2 * L / m / r.dx), n = r.sv.frames + 1;
    double *t = calloc((size_t)n, sizeof *t), *y[3];
    for (int q = 0; q < 3; q++) y[q] = calloc((size_t)n, sizeof *y[q]);
    lq_frame_stats st;
    int steps = 0, nf = 0;
    double vmax = 0, qmax = 0, dv = 0;
    for (int f = 0; f < n; f++) {
        if (f > 0) {
            if (pv_frame(&r, f, &st)) break;
            steps += st.steps;
            vmax = fmax(vmax, st.max_speed);
            dv = fmax(dv, fabs(mv_extra(&st, "volume_change")));
        } else {
            pv_read_phi(&r);
        }
        t[f] = f / r.sv.fps;
        double s = 0;
        for (int i = 0; i < ni; i++) s += (pv_column(&r, i, 0) - h) * cos(k * (i + 0.5) * r.dx);
        y[0][f] = pv_flux(&r, node);
        y[1][f] = 2 * s / ni;
        y[2][f] = pv_column(&r, 0, 0) - h;
        qmax = fmax(qmax, fabs(y[0][f]));
        nf = f + 1;
    }
    double a0 = y[1][0], p[3], afirst = 0, alast = 0;
    for (int f = 0; f < nf; f++) {
        if (f < nf / 3) afirst = fmax(afirst, fabs(y[1][f]));
        if (f >= nf - nf / 3) alast = fmax(alast, fabs(y[1][f]));
    }
    int nc[3];
    for (int q = 0; q < 3; q++) {
        double mean = 0;
        for (int f = 0; f < nf; f++) mean += y[q][f] / nf;
        for (int f = 0; f < nf; f++) y[q][f] -= mean;
        double cr[64];
        nc[q] = sv_down_crossings(t, y[q], nf, cr, 64);
        p[q] = nc[q] >= 2 ? (cr[nc[q] - 1] - cr[0]) / (nc[q] - 1) : 0;
    }
    double w = 2 * LQ_PI / T;
    fprintf(stderr,
            "standing wave mode %d (%d cells per wavelength, a k = %.3f, a = %.3g dx, %d "
            "steps): period %.5f s from the flux at the node (%d crossings), %.5f s from the "
            "mode amplitude (%d), %.5f s from the height at x = 0 (%d); exact %.6f, "
            "shallow-water %.4f: %+.2f%%, %+.2f%%, %+.2f%% off; peak flux %.3g m2/s (linear "
            "%.3g); max speed %.3g m/s (linear %.3g); mode amplitude at t = 0 %.3g m, peak "
            "in the first third %.3g, in the last %.3g; worst |volume change| %.2g\n",
            m, cells, amp * k, amp / r.dx, steps, p[0], nc[0], p[1], nc[1], p[2], nc[2], T, Tsw,
            100 * (p[0] - T) / T, 100 * (p[1] - T) / T, 100 * (p[2] - T) / T, qmax, amp * w / k,
            vmax, amp * w / tanh(k * h), a0, afirst, alast, dv);
    CHECK(nf == n);
    CHECK(nc[0] >= 3);
    CHECK(fabs(p[0] - T) <= tol * T);
    free(t);
    for (int q = 0; q < 3; q++) free(y[q]);
    mv_close(&r);
}

/* --- dam break against Martin & Moyce (1952) ------------------------------------- */

/* The initial acceleration of a w × d column released at rest against the back wall
 * (x = 0) on the floor (y = 0), over |g|: inviscid potential flow at t = 0+ (the
 * pressure's Laplace problem: p = 0 on the top y = d and the dam face x = w, ∂p/∂x = 0 on
 * the wall, ∂p/∂y = −ρ|g| on the floor). With p = ρ|g|(d − y) + q and (d − y) expanded
 * in cos k_n y, k_n = (n + ½)π/d (coefficients 2/(d k_n²)), q's modes are cosh k_n x:
 *   a_x/|g| = Σ 2/(d k_n) sinh(k_n x)/cosh(k_n w) cos k_n y,
 *   a_y/|g| = −Σ 2/(d k_n) cosh(k_n x)/cosh(k_n w) sin k_n y.
 * At the top of the back wall of a 1 × 2 column a_y = −0.890 |g|: the whole column starts
 * falling at once. (Singular at the toe x = w, y = 0: sampled in the back half only.) */
static void pv_release_accel(double x, double y, double w, double d, double *ax, double *ay)
{
    double sx = 0, sy = 0;
    for (int n = 0; n < 4000; n++) {
        double k = (n + 0.5) * LQ_PI / d;
        double e = 2 / (d * k) * exp(k * (x - w)) / (1 + exp(-2 * k * w));
        sx += e * (1 - exp(-2 * k * x)) * cos(k * y);
        sy -= e * (1 + exp(-2 * k * x)) * sin(k * y);
    }
    *ax = sx;
    *ay = sy;
}

/* The dam break's first step from rest (one frame, one step: u = dt (g − ∇p/ρ), the
 * projection alone) against pv_release_accel on every face of the back half of the
 * column (x ≤ w/2; the back wall's cells included): max |u/(|g| t) − a/|g|| within
 * `tol`, per component (second order in h: 0.0028, 0.0007, 0.0002 at w = 8, 16, 32
 * cells). A wall condition that held the liquid next to the back wall (the column's H)
 * would show here. */
static void pv_dam_release(const char *device, double tol, int nsets, const char *const *sets)
{
    const char *one[16] = {"time.frames=1"};
    for (int q = 0; q < nsets && q < 15; q++) one[q + 1] = sets[q];
    mv_run r;
    int rc =
        mv_open(&r, device, "scenes/validation/pls_dam_break.yaml", LQ_MIN(nsets, 15) + 1, one);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "dam release not run");
        if (rc == 2) mv_close(&r);
        return;
    }
    const double *b = r.sv.cfg->liquid[0].box.max;
    double w = b[0] - r.origin[0], d = b[1] - r.origin[1], g = fabs(r.g[1]), h = r.dx;
    lq_frame_stats st;
    double t = 1 / r.sv.fps, eu = 0, ev = 0, top = 0, top_th = 0;
    int nu = 0, nv = 0;
    if (pv_frame(&r, 1, &st)) {
        mv_close(&r);
        return;
    }
    lq_field_view vw;
    for (int c = 0; c < 2; c++) {
        if (r.sv.vt->view(r.sv.state, c ? "v" : "u", &vw)) break;
        for (int j = 0; j < r.ny; j++)
            for (int i = 0; i < vw.dims[0]; i++) {
                double x = (i + (c ? 0.5 : 0)) * h, y = (j + (c ? 0 : 0.5)) * h, ax, ay;
                if (x > 0.5 * w || y >= d || (c ? j == 0 : i == 0)) continue;
                pv_release_accel(x / w, y / w, 1, d / w, &ax, &ay);
                double e = fabs(vw.data[i + vw.dims[0] * j] / (g * t) - (c ? ay : ax));
                if (c)
                    ev = fmax(ev, e), nv++;
                else
                    eu = fmax(eu, e), nu++;
                if (c && i == 0 && y + h >= d) {
                    top = vw.data[i + vw.dims[0] * j] / (g * t);
                    top_th = ay;
                }
            }
    }
    fprintf(stderr,
            "dam break release (w = %.3g cells, first step %.3g s, %d steps): back half of "
            "the column against potential flow, max |du|/(g t) %.2g over %d u faces, max "
            "|dv|/(g t) %.2g over %d v faces (bar %.3g); at the top of the back wall v/(g t) "
            "%.4f, potential flow %.4f\n",
            w / h, t, st.steps, eu, nu, ev, nv, tol, top, top_th);
    CHECK(st.steps == 1);
    CHECK(nu > 0 && nv > 0);
    CHECK(eu <= tol);
    CHECK(ev <= tol);
    mv_close(&r);
}

/* The front, m from the back wall: along the two lowest rows, the farthest zero of φ
 * (linear between cell centres) reached from the back wall before a gap of 3 dry
 * columns (a stray droplet ahead of the front does not count). */
static double pv_front(const mv_run *r)
{
    double front = 0;
    for (int j = 0; j < 2 && j < r->ny; j++) {
        int last = -1, dry = 0;
        for (int i = 0; i < r->nx && dry < 3; i++) {
            if (pv_phi(r, i, j, 0) <= 0) {
                last = i;
                dry = 0;
            } else {
                dry++;
            }
        }
        if (last < 0) continue;
        double x = (last + 1) * r->dx; /* the wall, when the liquid reaches it */
        if (last + 1 < r->nx) {
            double a = pv_phi(r, last, j, 0), b = pv_phi(r, last + 1, j, 0);
            x = (last + 0.5 + a / (a - b)) * r->dx;
        }
        front = fmax(front, x);
    }
    return front;
}

/* Runs the dam break and compares with Martin & Moyce by mac_validation.h's method
 * (mv_dam_fit: reported as run, checked with the front delayed by its best shift in
 * [0, 0.3) T units and the column by its own in [0, 0.1]: mean |ΔZ| ≤ 0.056 at T ≥ 1 and
 * mean |ΔH| ≤ 0.028). check 0 reports the
 * comparison only (the volume and run checks stay). The volume change from φ (stats
 * volume_change) is reported per run (worst and last) and must stay within 2 %.
 * Writes T, Z, τ, H per frame to csv when given (tools/plot-dam-break). */
static void pv_dam_break(const char *device, const char *csv, int check, int nsets,
                         const char *const *sets)
{
    mv_run r;
    int rc = mv_open(&r, device, "scenes/validation/pls_dam_break.yaml", nsets, sets);
    if (rc) {
        if (rc == 2) CHECK_MSG(0, "dam break not run");
        if (rc == 2) mv_close(&r);
        return;
    }
    const double *b = r.sv.cfg->liquid[0].box.max;
    double a = b[0] - r.origin[0], g = fabs(r.g[1]);
    int n = r.sv.frames + 1;
    double *T = calloc((size_t)n, sizeof *T), *Z = calloc((size_t)n, sizeof *Z),
           *tau = calloc((size_t)n, sizeof *tau), *H = calloc((size_t)n, sizeof *H);
    lq_frame_stats st;
    int steps = 0, nf = 0;
    double dv = 0, dv_last = 0, t0 = lq_now();
    pv_read_phi(&r);
    for (int f = 0; f < n; f++) {
        if (f > 0) {
            if (pv_frame(&r, f, &st)) break;
            steps += st.steps;
            dv_last = mv_extra(&st, "volume_change");
            dv = fmax(dv, fabs(dv_last));
        }
        double t = f / r.sv.fps;
        T[f] = t * sqrt(2 * g / a);
        tau[f] = t * sqrt(g / a);
        Z[f] = pv_front(&r) / a;
        H[f] = pv_column(&r, 0, 0) / (2 * a);
        nf = f + 1;
    }
    double wall = lq_now() - t0;
    FILE *out = csv ? fopen(csv, "w") : NULL;
    if (out) {
        fprintf(out, "# pls, a = %.0f cells (%d steps)\nT,Z,tau,H\n", a / r.dx, steps);
        for (int f = 0; f < nf; f++)
            fprintf(out, "%.5f,%.5f,%.5f,%.5f\n", T[f], Z[f], tau[f], H[f]);
        fclose(out);
    }
    fprintf(stderr,
            "dam break (pls, a = %.3g cells, %d steps, %.1f s): T, Z measured, Z simulated:",
            a / r.dx, steps, wall);
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
    fprintf(stderr,
            "  volume change from phi: worst |dV|/V0 %.2f%%, at the end %+.2f%% (bar 2%%)%s\n",
            100 * dv, 100 * dv_last, check ? "" : " (comparison reported only)");
    CHECK(nf == n);
    CHECK(dv < 0.02);
    if (check)
        mv_dam_check(&fit);
    else
        CHECK(fit.d0.zn >= 10 && fit.d0.hn >= 15);
    free(T);
    free(Z);
    free(tau);
    free(H);
    mv_close(&r);
}

#endif
