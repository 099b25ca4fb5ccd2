/*
 * full_levelset_validation.c — `pls` interface transport with the PLAIN level set at the
 * stated sizes (VALIDATION.md; tests/levelset_validation.h), and the reinitialisation
 * speed at 128³ on the OpenCL device (PoCL in CI), both methods in one run.
 *  - Zalesak 100², one turn, 628 steps (δt = 1) and 160 steps (δt = 3.925), FIM reinit
 *    every step: area loss reported; asserted only loosely (< 90% and < 40%), the
 *    particles are to bring it to the 1% target.
 *  - Single vortex 128², T = 8, to t = 8, δt = h and 4 h: area loss reported; asserted
 *    < 100% and < 60%.
 *  - Reinit of a sphere (R = 30 h) at 128³, band 5: ms per call for FIM and PDE (after
 *    a warm-up call, over 3 calls), and the two results' mean |φ − d| in the band.
 */
#include "levelset_validation.h"

static void reinit_speed(void)
{
    lq_ctx cl;
    if (lq_ctx_open(&cl, "opencl", false)) {
        CHECK(!"an OpenCL device is needed");
        return;
    }
    char desc[256];
    lq_ctx_describe(&cl, desc, sizeof desc);
    const int n = 128;
    const double h = 1.0 / n, R = 30 * h;
    size_t nc = (size_t)n * n * n;
    float *q = malloc(nc * 4), *p = malloc(nc * 4);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * h - 0.5, y = (j + 0.5) * h - 0.5, z = (k + 0.5) * h - 0.5;
                q[LQ_MAC_CELL(i, j, k, n, n)] = (float)(1.7 * (sqrt(x * x + y * y + z * z) - R));
            }
    lq_field phi, scr;
    lq_reinit_ops o;
    CHECK_OK(lq_field_alloc(&cl, &phi, "phi", n, n, n, 4));
    CHECK_OK(lq_field_alloc(&cl, &scr, "scratch", n, n, n, 4));
    CHECK_OK(lq_reinit_ops_init(&o, &cl, n, n, n));
    for (int method = 0; method < 2; method++) {
        lq_reinit_params prm = lq_reinit_params_default((float)h);
        prm.method = method;
        lq_reinit_stats st;
        CHECK_OK(lq_field_upload(&phi, q));
        CHECK_OK(lq_reinit(&o, &phi, &scr, &prm, &st)); /* warm-up (build, first touch) */
        double t = 0;
        for (int rep = 0; rep < 3; rep++) {
            CHECK_OK(lq_field_upload(&phi, q));
            CHECK_OK(lq_ctx_finish(&cl));
            double t0 = lq_now();
            CHECK_OK(lq_reinit(&o, &phi, &scr, &prm, &st));
            CHECK_OK(lq_ctx_finish(&cl));
            t += lq_now() - t0;
        }
        CHECK_OK(lq_field_download(&phi, p));
        double sum = 0, mx = 0;
        int cnt = 0;
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    double x = (i + 0.5) * h - 0.5, y = (j + 0.5) * h - 0.5,
                           z = (k + 0.5) * h - 0.5, d = sqrt(x * x + y * y + z * z) - R;
                    if (fabs(d) > 4 * h) continue;
                    double e = fabs(p[LQ_MAC_CELL(i, j, k, n, n)] - d);
                    sum += e, mx = fmax(mx, e), cnt++;
                }
        fprintf(stderr,
                "reinit %s 128^3 band 5 on %s: %.1f ms per call (%d %s), |phi - d| max %.3f h "
                "mean %.4f h\n",
                method == LQ_REINIT_FIM ? "fim" : "pde", desc, 1e3 * t / 3, st.iterations,
                method == LQ_REINIT_FIM ? "sweeps" : "RK2 steps", mx / h, sum / cnt / h);
        CHECK(sum / cnt < 0.1 * h);
    }
    lq_reinit_ops_release(&o);
    lq_field_release(&phi);
    lq_field_release(&scr);
    lq_ctx_close(&cl);
    free(q), free(p);
}

int main(void)
{
    (void)twin_open;
    const int zsteps[2] = {628, 160};
    for (int c = 0; c < 2; c++) {
        lv_zalesak_result z;
        if (lv_zalesak("ref", 100, zsteps[c], 628, LQ_REINIT_FIM, &z)) continue;
        double loss = (z.area0 - z.area) / z.area0;
        fprintf(stderr,
                "zalesak 100^2, %d steps per turn, plain level set: area %.2f (exact %.4f) -> "
                "%.2f at half a turn -> %.2f after one: %.1f%% lost; slot centre phi %.2f "
                "(%s); %.2f ms/step\n",
                zsteps[c], z.area0, z.exact, z.area_half, z.area, 100 * loss, z.slot_phi,
                z.slot_phi > 0 ? "open" : "filled", z.ms);
        CHECK(loss < (c == 0 ? 0.9 : 0.4));
    }
    const double cfls[2] = {1.0, 4.0};
    for (int c = 0; c < 2; c++) {
        lv_vortex_result v;
        if (lv_vortex("ref", 128, 8.0, cfls[c], LQ_REINIT_FIM, &v)) continue;
        double loss = (v.area0 - v.area) / v.area0;
        fprintf(stderr,
                "single vortex 128^2, T 8, dt %.0f h, plain level set: area %.5f (exact %.5f) "
                "-> %.5f at t 4 -> %.5f at t 8: %.1f%% lost; %.2f ms/step\n",
                cfls[c], v.area0, v.exact, v.area_half, v.area, 100 * loss, v.ms);
        CHECK(loss < (c == 0 ? 1.0 : 0.6));
    }
    reinit_speed();
    CHECK_DONE();
}
