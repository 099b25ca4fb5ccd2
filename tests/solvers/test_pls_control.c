/*
 * test_pls_control.c — the `pls` solver directed by control particles (Rasmussen et al.
 * 2004 §4), measured on small grids through the solver interface (PoCL):
 *  1. hard control holds a shape: a ball of liquid in mid-air (3D 24³, h = 1 cm, R = 6
 *     cells) under hard velocity control (V = 0, α = 1 in every cell of it) for 10 steps
 *     while gravity acts. Its φ must equal, to 1e-3 of a cell in the band |φ| < 2 h, that
 *     of the same ball left still with no gravity and no control (the solver's own
 *     drift, which the bound below also states), must change by less than 0.3 of a cell
 *     in that band over the 10 steps, and the ball left free under gravity must move by
 *     more than 2 cells there (the control, not the scene, holds it);
 *  2. the liquid just outside a hard region follows smoothly: a block of hard cells moving
 *     liquid through itself at V = 0.2 m/s inside a pool (3D 24 × 16 × 12, no gravity):
 *     after a frame its cells' faces hold V exactly; every other liquid cell's divergence
 *     is below 2 % of V/h (no spike at the block: the projection sees its faces as a moving
 *     wall), and the liquid just ahead of and behind the block moves at 0.2–3 V;
 *  3. a divergence particle grows a drop at the set rate: a ball of R = 7 cells with no
 *     gravity, a divergence particle of D = 2 1/s over the cells within 3.05 cells of its
 *     centre (box falloff): over 12 steps its volume grows by D N h³ t (N the cells the
 *     particle covers), measured against the same drop without the particle (the solver's
 *     own drift cancels), within 10 %;
 *  4. viscosity particles change the local viscosity: a 0.24 m block of inviscid liquid
 *     (2D 32 × 24, h = 2 cm) slumps (max speed above 0.3 m/s within 6 frames); with
 *     viscosity particles of ν = 50 m²/s over it (box falloff) it holds (below 0.05 m/s)
 *     and the viscous solve runs;
 *  5. an open inlet and hard control together (the projection takes both as solids):
 *     test_inlet's comment;
 *  6. §5.6's enslaved pockets: a pocket walled in by squeezing hard control stalls the
 *     solve without them and is found, enslaved and solved with them: test_pocket's
 *     comment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/check.h"
#include "common/mac_grid.h"
#include "core/common.h"
#include "scene/config.h"
#include "solvers/registry.h"

typedef struct run {
    lq_ctx ctx;
    lq_config *cfg;
    const lq_solver_vt *vt;
    void *st;
    int frame;
    lq_frame_stats last;
} run;

static int run_open(run *r, const char *yaml)
{
    memset(r, 0, sizeof *r);
    char dir[] = "/tmp/lq_test_control_XXXXXX", path[64];
    if (!mkdtemp(dir)) return LQ_EINPUT;
    snprintf(path, sizeof path, "%s/scene.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f) return LQ_EINPUT;
    fputs(yaml, f);
    fclose(f);
    int rc = lq_ctx_open(&r->ctx, "opencl", false);
    if (!rc) {
        r->cfg = lq_config_load(path, 0, NULL);
        rc = r->cfg ? LQ_OK : LQ_EINPUT;
    }
    remove(path);
    rmdir(dir);
    if (!rc) {
        r->vt = lq_registry_find(r->cfg);
        rc = r->vt->create(&r->ctx, r->cfg, &r->st);
    }
    if (!rc) rc = r->vt->measure(r->st, &r->last);
    return rc;
}

static int run_frames(run *r, int n)
{
    int rc = LQ_OK;
    for (int i = 0; i < n && !rc; i++) {
        r->frame++;
        rc = r->vt->advance(r->st, r->frame, r->frame / r->cfg->time.fps, &r->last);
    }
    return rc;
}

static double run_extra(const run *r, const char *key)
{
    for (int i = 0; i < r->last.nextra; i++)
        if (strcmp(r->last.extra[i].key, key) == 0) return r->last.extra[i].value;
    return NAN;
}

/* A copy of a field (malloc'd); dims get its size. */
static float *run_field(run *r, const char *name, int dims[3])
{
    lq_field_view v;
    CHECK_OK(r->vt->view(r->st, name, &v));
    size_t n = (size_t)v.dims[0] * v.dims[1] * v.dims[2];
    float *out = malloc(n * sizeof *out);
    memcpy(out, v.data, n * sizeof *out);
    memcpy(dims, v.dims, sizeof v.dims);
    return out;
}

static void run_close(run *r)
{
    if (r->st) r->vt->destroy(r->st);
    lq_config_free(r->cfg);
    lq_ctx_close(&r->ctx);
}

/* max |a − b| over the band |a0| < band. */
static double band_diff(const float *a0, const float *a, const float *b, size_t n, double band)
{
    double m = 0;
    for (size_t c = 0; c < n; c++)
        if (fabs(a0[c]) < band) m = fmax(m, fabs((double)a[c] - b[c]));
    return m;
}

#define BALL                                                                                       \
    "solver: pls\ngrid: {size: [24, 24, 24], cell: 0.01}\ntime: {frames: 10, fps: 30}\n"           \
    "liquid:\n  - sphere: {center: [0.125, 0.145, 0.125], radius: 0.06}\n"                         \
    "pls: {particles_per_cell: 16}\noutput: {preview: false, mesh: false}\n"

static void test_hold(void)
{
    fprintf(stderr, "hard control holds a ball under gravity:\n");
    const char *held = BALL "control:\n  - sphere: {center: [0.125, 0.145, 0.125], radius: 0.066}\n"
                            "    property: velocity\n    falloff: box\n    radius: 0.006\n";
    const char *still = BALL "gravity: [0, 0, 0]\n";
    run a, b, c;
    CHECK_OK(run_open(&a, held));
    CHECK_OK(run_open(&b, still));
    CHECK_OK(run_open(&c, BALL));
    int d[3];
    float *phi0 = run_field(&a, "phi", d);
    size_t n = (size_t)d[0] * d[1] * d[2];
    CHECK_OK(run_frames(&a, 10));
    CHECK_OK(run_frames(&b, 10));
    CHECK_OK(run_frames(&c, 10));
    float *pa = run_field(&a, "phi", d), *pb = run_field(&b, "phi", d),
          *pc = run_field(&c, "phi", d);
    double h = 0.01, same = band_diff(phi0, pa, pb, n, 2 * h),
           held_d = band_diff(phi0, pa, phi0, n, 2 * h),
           free_d = band_diff(phi0, pc, phi0, n, 2 * h);
    double hard = run_extra(&a, "control_hard_cells");
    fprintf(stderr,
            "  %d steps, %.0f hard cells, max speed %.3g m/s; band |Δφ| held %.3g h, held vs "
            "still %.3g h, free %.3g h\n",
            a.last.steps * 0 + 10, hard, a.last.max_speed, held_d / h, same / h, free_d / h);
    CHECK(hard > 800 && a.last.max_speed == 0);
    CHECK(same <= 1e-3 * h);
    CHECK(held_d < 0.3 * h);
    CHECK(free_d > 2 * h);
    free(phi0);
    free(pa);
    free(pb);
    free(pc);
    run_close(&a);
    run_close(&b);
    run_close(&c);
}

static void test_smooth(void)
{
    fprintf(stderr, "the liquid around a hard region follows smoothly:\n");
    const char *yaml =
        "solver: pls\ngrid: {size: [24, 16, 12], cell: 0.01}\ntime: {frames: 1, fps: 60}\n"
        "gravity: [0, 0, 0]\nliquid:\n  - level: 0.12\n"
        "control:\n  - box: {min: [0.07, 0.03, 0.03], max: [0.11, 0.07, 0.09]}\n"
        "    velocity: [0.2, 0, 0]\n    falloff: box\n    radius: 0.006\n"
        "pls: {particles_per_cell: 16}\noutput: {preview: false, mesh: false}\n";
    run r;
    CHECK_OK(run_open(&r, yaml));
    CHECK_OK(run_frames(&r, 1));
    int du[3], dv[3], dw[3], dp[3];
    float *u = run_field(&r, "u", du), *v = run_field(&r, "v", dv), *w = run_field(&r, "w", dw),
          *phi = run_field(&r, "phi", dp);
    int nx = dp[0], ny = dp[1], nz = dp[2], bad = 0, nin = 0;
    double h = 0.01, V = 0.2, dmax = 0, ahead = 1e9, ahead_max = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                size_t c = LQ_MAC_CELL(i, j, k, nx, ny);
                double div = (u[LQ_MAC_U(i + 1, j, k, nx, ny)] - u[LQ_MAC_U(i, j, k, nx, ny)] +
                              v[LQ_MAC_V(i, j + 1, k, nx, ny)] - v[LQ_MAC_V(i, j, k, nx, ny)] +
                              w[LQ_MAC_W(i, j, k + 1, nx, ny)] - w[LQ_MAC_W(i, j, k, nx, ny)]) /
                             h;
                bool in = i >= 7 && i <= 10 && j >= 3 && j <= 6 && k >= 3 && k <= 8;
                if (in) {
                    nin++;
                    bad += u[LQ_MAC_U(i, j, k, nx, ny)] != 0.2f ||
                           u[LQ_MAC_U(i + 1, j, k, nx, ny)] != 0.2f ||
                           v[LQ_MAC_V(i, j, k, nx, ny)] != 0.0f ||
                           w[LQ_MAC_W(i, j, k, nx, ny)] != 0.0f;
                    continue;
                }
                if (phi[c] > 0) continue;
                /* liquid cells with liquid on every side (the surface row is extrapolated) */
                if (j + 1 >= ny || phi[LQ_MAC_CELL(i, j + 1, k, nx, ny)] > 0) continue;
                dmax = fmax(dmax, fabs(div));
                if ((i == 6 || i == 11) && j >= 3 && j <= 6 && k >= 3 && k <= 8) {
                    double s = u[LQ_MAC_U(i == 6 ? 6 : 12, j, k, nx, ny)];
                    ahead = fmin(ahead, s);
                    ahead_max = fmax(ahead_max, s);
                }
            }
    fprintf(stderr,
            "  %d hard cells (%.0f counted), %d faces wrong; max |div| h/V %.3g; speed just "
            "behind and ahead of it %.3g to %.3g m/s\n",
            nin, run_extra(&r, "control_hard_cells"), bad, dmax * h / V, ahead, ahead_max);
    CHECK(nin == 4 * 4 * 6 && bad == 0 && run_extra(&r, "control_hard_cells") == nin);
    CHECK(dmax * h / V < 0.02);
    CHECK(ahead >= 0.1 * V && ahead_max <= 3 * V);
    free(u);
    free(v);
    free(w);
    free(phi);
    run_close(&r);
}

#define DROP                                                                                       \
    "solver: pls\ngrid: {size: [24, 24, 24], cell: 0.01}\ntime: {frames: 12, fps: 48}\n"           \
    "gravity: [0, 0, 0]\nliquid:\n  - sphere: {center: [0.125, 0.125, 0.125], radius: 0.07}\n"     \
    "pls: {particles_per_cell: 16}\noutput: {preview: false, mesh: false}\n"

static void test_divergence(void)
{
    fprintf(stderr, "a divergence particle grows a drop at its rate:\n");
    const char *grow = DROP "control:\n  - point: {position: [0.125, 0.125, 0.125]}\n"
                            "    property: divergence\n    value: 2\n    falloff: box\n"
                            "    radius: 0.0305\n";
    run a, b;
    CHECK_OK(run_open(&a, grow));
    CHECK_OK(run_open(&b, DROP));
    double v0 = a.last.liquid_volume, w0 = b.last.liquid_volume;
    CHECK_OK(run_frames(&a, 12));
    CHECK_OK(run_frames(&b, 12));
    double h = 0.01, t = 12 / 48.0, D = 2;
    int N = 0; /* cells whose centre lies within the particle's radius */
    for (int k = -4; k <= 4; k++)
        for (int j = -4; j <= 4; j++)
            for (int i = -4; i <= 4; i++) N += i * i + j * j + k * k <= 3.05 * 3.05;
    double want = D * N * h * h * h * t,
           got = (a.last.liquid_volume - v0) - (b.last.liquid_volume - w0);
    fprintf(stderr,
            "  %d controlled cells, over %.3g s: grew %.4g m³ more than without (%.4g m³ by "
            "D N h³ t), %+.1f %%; drift without %.3g %%\n",
            N, t, got, want, 100 * (got / want - 1), 100 * (b.last.liquid_volume / w0 - 1));
    CHECK(fabs(got / want - 1) < 0.10);
    run_close(&a);
    run_close(&b);
}

#define BLOCK                                                                                      \
    "solver: pls\ngrid: {size: [32, 24, 1], cell: 0.02}\ntime: {frames: 6, fps: 30}\n"             \
    "liquid:\n  - box: {min: [0.2, 0, 0], max: [0.44, 0.24, 0.02]}\n"                              \
    "pls: {cfl: 2}\noutput: {preview: false, mesh: false}\n"

static void test_viscosity(void)
{
    fprintf(stderr, "viscosity particles hold a block that otherwise slumps:\n");
    const char *held = BLOCK "control:\n  - box: {min: [0.18, 0, 0], max: [0.46, 0.26, 0.02]}\n"
                             "    property: viscosity\n    value: 50\n    falloff: box\n"
                             "    radius: 0.012\n";
    run a, b;
    CHECK_OK(run_open(&a, held));
    CHECK_OK(run_open(&b, BLOCK));
    double va = 0, vb = 0, iters = 0;
    for (int f = 0; f < 6; f++) {
        CHECK_OK(run_frames(&a, 1));
        CHECK_OK(run_frames(&b, 1));
        va = fmax(va, a.last.max_speed);
        vb = fmax(vb, b.last.max_speed);
        iters += run_extra(&a, "viscosity_iterations");
    }
    fprintf(stderr,
            "  max speed with ν particles %.3g m/s (%.0f viscous CG iterations), without %.3g\n",
            va, iters, vb);
    CHECK(va < 0.05 && iters > 0);
    CHECK(vb > 0.3);
    run_close(&a);
    run_close(&b);
}

/* An open inlet and a hard region in one pool: both are boundaries of the projection.
 * The inlet (a cylinder under the surface pushing F up until 0.5 s) must deliver F·Δt
 * over frames 3-12 within 1 % while a still hard block elsewhere in the pool keeps
 * every one of its cells (and its faces at 0); after the inlet closes (frame 15) the
 * volume must stay within 1 % of F·Δt of where it was (no inlet cell left solid). */
static void test_inlet(void)
{
    fprintf(stderr, "an open inlet and hard control in one pool:\n");
    const char *yaml = "solver: pls\ngrid: {size: [16, 16, 16], cell: 0.0625}\n"
                       "time: {frames: 24, fps: 30}\nliquid: [{level: 0.5}]\n"
                       "sources:\n  - inlet:\n"
                       "      cylinder: {center: [0.5, 0.0625, 0.5], radius: 0.15, height: 0.125}\n"
                       "      velocity: [0, 1, 0]\n      flow: 0.003\n      stop: 0.5\n"
                       "control:\n  - box: {min: [0.72, 0.1, 0.3], max: [0.92, 0.3, 0.7]}\n"
                       "    falloff: box\n    radius: 0.04\n"
                       "pls: {particles_per_cell: 16}\noutput: {preview: false, mesh: false}\n";
    run r;
    CHECK_OK(run_open(&r, yaml));
    double v3 = 0, v12 = 0, v16 = 0, v24 = 0, hard_min = 1e9;
    for (int f = 1; f <= 24; f++) {
        CHECK_OK(run_frames(&r, 1));
        hard_min = fmin(hard_min, run_extra(&r, "control_hard_cells"));
        if (f == 3) v3 = r.last.liquid_volume;
        if (f == 12) v12 = r.last.liquid_volume;
        if (f == 16) v16 = r.last.liquid_volume;
        if (f == 24) v24 = r.last.liquid_volume;
    }
    double want = 0.003 * 9 / 30.0;
    fprintf(stderr,
            "  frames 3-12 delivered %.6g m³ (stated %.6g, %+.3f %%); closed, frames 16-24 "
            "%+.3g m³; hard cells at least %.0f\n",
            v12 - v3, want, 100 * (v12 - v3 - want) / want, v24 - v16, hard_min);
    CHECK(fabs(v12 - v3 - want) <= 0.01 * want);
    CHECK(fabs(v24 - v16) <= 0.01 * want);
    CHECK(hard_min == 3 * 3 * 6); /* cell centres 0.75-0.875 (x), 0.125-0.25 (y), 0.3-0.7 (z) */
    run_close(&r);
}

/* A control box of cells [i0, i1] × [j0, j1] × [k0, k1] (h = 1 cm: one particle per cell
 * centre, radius 0.4 h, box falloff: α = 1, hard) moving at (0, vy, 0). */
static void shell_box(char *out, size_t n, int i0, int i1, int j0, int j1, int k0, int k1,
                      double vy)
{
    double h = 0.01, e = 0.001;
    snprintf(out, n,
             "  - box: {min: [%.4f, %.4f, %.4f], max: [%.4f, %.4f, %.4f]}\n"
             "    falloff: box\n    radius: 0.004\n    velocity: [0, %g, 0]\n",
             i0 * h + e, j0 * h + e, k0 * h + e, (i1 + 1) * h - e, (j1 + 1) * h - e,
             (k1 + 1) * h - e, vy);
}

/* §5.6: a pocket walled in by hard control is found, enslaved and the solve converges. A
 * shell of hard cells (i, k in 5..12, j in 3..10, one cell thick) sits in a pool (20³,
 * h = 1 cm, surface at 16 cells); its top wall moves down at 0.1 m/s, pushing 36 faces'
 * flux into the 6³ liquid cells it walls in, which no pressure can balance: with
 * pls.enslave_pockets false the solve's pocket block is incompatible and the run fails
 * (the solve diverges; were it to survive, it must at least stall at pls.max_iterations
 * every step); with it, the 216 cells are one pocket every step, the solve
 * converges every step, and the pocket's faces take values between their walls' (v in
 * [−0.1, 0], the top wall's −0.1 kept on its faces). */
static void test_pocket(void)
{
    fprintf(stderr, "a pocket walled in by hard control (§5.6):\n");
    char yaml[4096], part[6][400];
    shell_box(part[0], sizeof part[0], 5, 12, 3, 3, 5, 12, 0);      /* bottom */
    shell_box(part[1], sizeof part[1], 5, 12, 10, 10, 5, 12, -0.1); /* top, moving down */
    shell_box(part[2], sizeof part[2], 5, 5, 4, 9, 5, 12, 0);       /* -x */
    shell_box(part[3], sizeof part[3], 12, 12, 4, 9, 5, 12, 0);     /* +x */
    shell_box(part[4], sizeof part[4], 6, 11, 4, 9, 5, 5, 0);       /* -z */
    shell_box(part[5], sizeof part[5], 6, 11, 4, 9, 12, 12, 0);     /* +z */
    for (int off = 0; off < 2; off++) {
        snprintf(yaml, sizeof yaml,
                 "solver: pls\ngrid: {size: [20, 20, 20], cell: 0.01}\ntime: {frames: 3, fps: "
                 "30}\nliquid:\n  - level: 0.16\ncontrol:\n%s%s%s%s%s%s"
                 "pls: {particles_per_cell: 16, max_iterations: 300, enslave_pockets: %s}\n"
                 "output: {preview: false, mesh: false}\n",
                 part[0], part[1], part[2], part[3], part[4], part[5], off ? "false" : "true");
        run r;
        CHECK_OK(run_open(&r, yaml));
        int unconv = 0, iters = 0, steps = 0, failed = 0;
        double cells_min = 1e9, cells_max = 0, pockets_max = 0, hard = 0;
        for (int f = 0; f < 3 && !failed; f++) {
            if (off) {
                failed = run_frames(&r, 1) != LQ_OK;
                if (failed) fprintf(stderr, "  without enslaving: %s\n", lq_error_message());
            } else {
                CHECK_OK(run_frames(&r, 1));
            }
            if (failed) break;
            unconv += (int)run_extra(&r, "pressure_unconverged");
            iters += r.last.pressure_iterations;
            steps += r.last.steps;
            hard = run_extra(&r, "control_hard_cells");
            if (!off) {
                cells_min = fmin(cells_min, run_extra(&r, "pocket_cells"));
                cells_max = fmax(cells_max, run_extra(&r, "pocket_cells"));
                pockets_max = fmax(pockets_max, run_extra(&r, "pockets"));
            }
        }
        if (off) {
            fprintf(stderr,
                    "  without enslaving: %s after %d steps (%d unconverged, %d iterations)\n",
                    failed ? "the run failed" : "ran", steps, unconv, iters);
            CHECK(failed || (unconv == steps && iters >= 300 * steps));
        } else {
            int d[3];
            float *v = run_field(&r, "v", d);
            int nx = 20, ny = 20;
            double lo = 1e9, hi = -1e9, topface = 0;
            for (int k = 6; k <= 11; k++)
                for (int j = 5; j <= 9; j++) /* faces between two pocket cells (4..9) */
                    for (int i = 6; i <= 11; i++) {
                        double x = v[LQ_MAC_V(i, j, k, nx, ny)];
                        lo = fmin(lo, x);
                        hi = fmax(hi, x);
                    }
            topface = v[LQ_MAC_V(8, 10, 8, nx, ny)];
            fprintf(stderr,
                    "  enslaved: %d steps, %d unconverged, %d iterations; pocket cells %.0f-%.0f "
                    "in at most %.0f pocket; v inside in [%.4g, %.4g], on the top wall's inner "
                    "face %.4g\n",
                    steps, unconv, iters, cells_min, cells_max, pockets_max, lo, hi, topface);
            CHECK(hard == 296 && unconv == 0);
            CHECK(cells_min == 216 && cells_max == 216 && pockets_max == 1);
            CHECK(lo >= -0.1f && hi <= 0.0f && lo < -0.01);
            CHECK(topface == -0.1f);
            free(v);
        }
        run_close(&r);
    }
}

int main(void)
{
    test_pocket();
    test_inlet();
    test_hold();
    test_smooth();
    test_divergence();
    test_viscosity();
    CHECK_DONE();
}
