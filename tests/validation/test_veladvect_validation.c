/*
 * test_veladvect_validation.c — the face velocity's advection schemes (pls.velocity_advection;
 * host/ops/pls/sladvect.h) on the inviscid Taylor–Green vortex, VALIDATION.md "Advection
 * schemes".
 *
 * The closed-box Taylor–Green of viscosity_validation.h: one cell of the vortex, [0, π]² with
 * free-slip walls, u = sin x cos y, v = −cos x sin y. It is a steady solution of Euler's
 * equations (u·∇u = −∇(cos 2x + cos 2y)/4, a gradient), so the exact flow keeps its kinetic
 * energy for ever; each step here is what the pls step does to a liquid that fills the box:
 * the velocity advected by itself (the scheme under test, Rasmussen et al. 2004 §3), then the
 * projection (host/ops/pls/poisson.h, PCG with the multigrid preconditioner, ‖r‖ ≤ 1e-6 ‖b‖;
 * the box is all liquid: the singular system, b's mean removed). Whatever energy goes is the
 * advection's numerical dissipation (the projection only removes the divergent part it made).
 *
 * The step is Chorin's splitting (advect with uⁿ frozen, then project), which loses energy
 * even with exact advection: the advected field is uⁿ + Δt ∇p + O(Δt²) (Du/Dt = −∇p), volume
 * preserving, and the projection takes the gradient part away, Δt² |∇p|² a step. For this
 * vortex ⟨|∇p|²⟩ / ⟨|u|²⟩ = ½, so E(t)/E(0) ≈ exp(−½ Δt t) whatever the scheme: the floor
 * the table's last column gives (first order in Δt: at CFL 3 a rough guide only).
 *
 * Checked (32 cells on π, Δt = h/4: CFL ¼ at the peak speed 1, where the splitting's floor
 * is 0.885, t = 10, 407 steps; the reference backend, whose results are the kernels' bit for
 * bit, test_sladvect_ops): measured, plain keeps 0.497 of the energy, MacCormack 0.892, BFECC
 * 0.891. Asserted: plain under 0.6, both second-order schemes over 0.85 and losing less than
 * a third of what plain loses, their L2 error under half plain's, and no scheme gaining
 * energy (the limiter: no new extrema). `test_veladvect_validation table` prints the larger
 * table VALIDATION.md quotes (32 and 64 cells, CFL ¼, 1 and 3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "ops/pls/poisson.h"
#include "ops/pls/sladvect.h"

typedef struct tg_result {
    double energy;      /* E(t_end) / E(0) */
    double err;         /* ‖u − u_exact‖₂ / ‖u_exact‖₂ over the faces at t_end */
    int worst_iters;    /* most PCG iterations in a step */
    double worst_resid; /* largest final ‖r‖/‖b‖ */
} tg_result;

static void swap_fields(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

/* n cells on [0, π]², `steps` steps of Δt, the velocity by `scheme`. */
static tg_result tg_run(int n, double dt, int steps, int scheme)
{
    tg_result res = {0, 0, 0, 0};
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    const double h = LQ_PI / n;
    lq_field u, v, w, un, vn, wn, phi, b, p;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", n + 1, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", n, n + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", n, n, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &un, "un", n + 1, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &vn, "vn", n, n + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &wn, "wn", n, n, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", n, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &b, "b", n, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &p, "p", n, n, 1, 4));
    lq_field *zs[] = {&w, &wn, &p, &b};
    for (size_t i = 0; i < LQ_COUNT(zs); i++) memset(zs[i]->host, 0, lq_field_bytes(zs[i]));
    for (size_t c = 0; c < phi.count; c++) ((float *)phi.host)[c] = -1.0f; /* all liquid */
    double *ue = malloc(u.count * sizeof(double)), *ve = malloc(v.count * sizeof(double));
    double e0 = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= n; i++) {
            double e = (i == 0 || i == n) ? 0.0 : sin(i * h) * cos((j + 0.5) * h);
            ue[LQ_MAC_U(i, j, 0, n, n)] = e;
            ((float *)u.host)[LQ_MAC_U(i, j, 0, n, n)] = (float)e;
            e0 += e * e;
        }
    for (int j = 0; j <= n; j++)
        for (int i = 0; i < n; i++) {
            double e = (j == 0 || j == n) ? 0.0 : -cos((i + 0.5) * h) * sin(j * h);
            ve[LQ_MAC_V(i, j, 0, n, n)] = e;
            ((float *)v.host)[LQ_MAC_V(i, j, 0, n, n)] = (float)e;
            e0 += e * e;
        }
    lq_sladvect_ops so;
    lq_poisson_ops po;
    CHECK_OK(lq_sladvect_ops_init(&so, &ctx, n, n, 1));
    CHECK_OK(lq_poisson_ops_init(&po, &ctx, n, n, 1));
    lq_sladvect_params sp = {(float)dt, (float)h, LQ_SLADVECT_BFECC, 0, scheme};
    lq_poisson_params pp = {.dt = (float)dt,
                            .h = (float)h,
                            .solver = LQ_POISSON_PCG,
                            .precond = LQ_POISSON_PRECOND_MG,
                            .tol = 1e-4f,
                            .max_iter = 1000};
    for (int s = 0; s < steps; s++) {
        CHECK_OK(lq_sladvect_advect_velocity(&so, &u, &v, &w, &un, &vn, &wn, &sp));
        swap_fields(&u, &un);
        swap_fields(&v, &vn);
        swap_fields(&w, &wn);
        lq_poisson_stats st;
        memset(p.host, 0, lq_field_bytes(&p)); /* no warm start: p's free constant would drift */
        CHECK_OK(lq_poisson_step(&po, &phi, NULL, &u, &v, &w, &b, &p, &pp, &st));
        res.worst_iters = st.iterations > res.worst_iters ? st.iterations : res.worst_iters;
        res.worst_resid = fmax(res.worst_resid, st.residual);
    }
    double e1 = 0, d2 = 0;
    for (size_t f = 0; f < u.count; f++) {
        double x = ((float *)u.host)[f];
        e1 += x * x;
        d2 += (x - ue[f]) * (x - ue[f]);
    }
    for (size_t f = 0; f < v.count; f++) {
        double x = ((float *)v.host)[f];
        e1 += x * x;
        d2 += (x - ve[f]) * (x - ve[f]);
    }
    res.energy = e1 / e0;
    res.err = sqrt(d2 / e0);
    lq_sladvect_ops_release(&so);
    lq_poisson_ops_release(&po);
    lq_field *fs[] = {&u, &v, &w, &un, &vn, &wn, &phi, &b, &p};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(ue);
    free(ve);
    lq_ctx_close(&ctx);
    return res;
}

static const char *const tg_names[4] = {"", "plain", "maccormack", "bfecc"};

/* The table of VALIDATION.md: t = 10 at CFL 1 and 3, 32 and 64 cells. */
static void tg_table(void)
{
    printf("| cells on [0, π] | CFL | steps | scheme | energy kept | L2 error | PCG its | "
           "splitting's floor exp(−Δt t/2) |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    static const double cfls[] = {0.25, 1, 3};
    for (int n = 32; n <= 64; n *= 2)
        for (size_t q = 0; q < LQ_COUNT(cfls); q++) {
            double cfl = cfls[q], h = LQ_PI / n, dt = cfl * h;
            int steps = (int)lround(10.0 / dt);
            for (int sc = LQ_SLADVECT_PLAIN; sc <= LQ_SLADVECT_BFECC; sc++) {
                tg_result r = tg_run(n, dt, steps, sc);
                printf("| %d | %g | %d | %s | %.4f | %.4f | %d | %.4f |\n", n, cfl, steps,
                       tg_names[sc], r.energy, r.err, r.worst_iters, exp(-0.5 * dt * dt * steps));
                fflush(stdout);
            }
        }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "table") == 0) {
        tg_table();
        CHECK_DONE();
    }
    tg_result r[4];
    const int n = 32;
    const double dt = 0.25 * LQ_PI / n;
    const int steps = (int)lround(10.0 / dt);
    for (int sc = LQ_SLADVECT_PLAIN; sc <= LQ_SLADVECT_BFECC; sc++) {
        r[sc] = tg_run(n, dt, steps, sc);
        fprintf(stderr,
                "taylor-green %d on [0,pi], dt h/4 (CFL 1/4), t = 10 (%d steps): %-10s energy "
                "kept %.4f, L2 error %.4f (PCG at most %d iterations, residual %.2g)\n",
                n, steps, tg_names[sc], r[sc].energy, r[sc].err, r[sc].worst_iters,
                r[sc].worst_resid);
        CHECK(r[sc].energy <= 1.0 + 1e-4); /* no scheme makes energy */
        CHECK(r[sc].worst_resid <= 1e-4);
    }
    fprintf(stderr, "splitting's floor exp(-dt t/2) = %.4f\n", exp(-0.5 * dt * dt * steps));
    double lost = 1.0 - r[LQ_SLADVECT_PLAIN].energy;
    CHECK(r[LQ_SLADVECT_PLAIN].energy < 0.6); /* the plain pass dissipates half of it */
    CHECK(r[LQ_SLADVECT_MACCORMACK].energy > 0.85 && r[LQ_SLADVECT_BFECC].energy > 0.85);
    CHECK(1.0 - r[LQ_SLADVECT_MACCORMACK].energy < lost / 3);
    CHECK(1.0 - r[LQ_SLADVECT_BFECC].energy < lost / 3);
    CHECK(r[LQ_SLADVECT_MACCORMACK].err < r[LQ_SLADVECT_PLAIN].err / 2);
    CHECK(r[LQ_SLADVECT_BFECC].err < r[LQ_SLADVECT_PLAIN].err / 2);
    CHECK_DONE();
}
