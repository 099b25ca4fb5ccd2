/*
 * test_pls_plan.c — the `pls` solver's device-memory plan (host/solvers/pls.c lq_pls_plan,
 * reserved whole by lq_ctx_reserve_plan before anything is allocated):
 *  1. it is what the solver allocates: a 64³ dam break (scenes/pls_dam_break.yaml at 64³,
 *     h = 2 cm) created on OpenCL allocates exactly the plan's bytes (the stats'
 *     device_bytes, summed over lq_field_alloc), and on the reference path no more (it
 *     leaves out the kernels' own scratch);
 *  2. a 256³ dam break (the same scene at 256³, h = 5 mm, its 16 particles per cell)
 *     plans at most 2.25 GiB (2174 MiB, 136 B a cell with the scratch pool shared by the
 *     stages; 2974 MiB before it; at 512³ 121 B a cell, docs/PERFORMANCE.md), and --plan
 *     mode stops before allocating anything;
 *  3. LIQUIDCL_DEVICE_MEMORY=2G refuses that grid (LQ_EINPUT, the bytes it needs in the
 *     message) before anything is allocated; 3G lets its plan through.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/field.h"
#include "scene/config.h"
#include "solvers/registry.h"

static const char *const scene_path = "scenes/pls_dam_break.yaml";

/* Creates the dam break at n³ with cell h on ctx; *bytes gets the stats' device_bytes
 * (0 when the create stopped). Returns the create's code. */
static int create(lq_ctx *ctx, int n, const char *cell, double *bytes)
{
    char size[64], h[64];
    snprintf(size, sizeof size, "grid.size=[%d,%d,%d]", n, n, n);
    snprintf(h, sizeof h, "grid.cell=%s", cell);
    const char *sets[] = {size, h};
    lq_config *cfg = lq_config_load(scene_path, 2, sets);
    CHECK(cfg != NULL);
    if (!cfg) return LQ_EINPUT;
    const lq_solver_vt *vt = lq_registry_find(cfg);
    void *state = NULL;
    int rc = vt->create(ctx, cfg, &state);
    *bytes = 0;
    if (!rc) {
        lq_frame_stats st;
        CHECK_OK(vt->measure(state, &st));
        for (int i = 0; i < st.nextra; i++)
            if (strcmp(st.extra[i].key, "device_bytes") == 0) *bytes = st.extra[i].value;
    }
    if (state) vt->destroy(state);
    lq_config_free(cfg);
    return rc;
}

static void test_plan_is_allocated(void)
{
    lq_ctx cl, ref;
    double plan = 0, plan_ref = 0;
    CHECK_OK(lq_ctx_open(&cl, "opencl", false));
    CHECK_OK(create(&cl, 64, "0.02", &plan));
    fprintf(stderr, "64³ on OpenCL: plan %.0f bytes, allocated %zu, reserved %zu\n", plan,
            cl.allocated, cl.cl.reserved);
    CHECK(plan > 0);
    CHECK_MSG((double)cl.allocated == plan, "allocated %zu, plan %.0f", cl.allocated, plan);
    CHECK((double)cl.cl.reserved == plan); /* reserved once, not twice */
    lq_ctx_close(&cl);
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    CHECK_OK(create(&ref, 64, "0.02", &plan_ref));
    fprintf(stderr, "64³ on the reference path: allocated %zu\n", ref.allocated);
    CHECK(plan_ref == plan && ref.allocated > 0 && (double)ref.allocated <= plan);
    lq_ctx_close(&ref);
}

static void test_256(void)
{
    lq_ctx ref;
    double bytes = 0;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    ref.plan_only = true;
    setenv("LIQUIDCL_DEVICE_MEMORY", "3G", 1);
    int rc = create(&ref, 256, "0.005", &bytes);
    size_t plan = ref.planned;
    fprintf(stderr, "256³ plan: %.1f MiB (%s)\n", plan / 1048576.0, lq_error_message());
    CHECK(rc == LQ_EINPUT && strstr(lq_error_message(), "stopped after its plan"));
    CHECK(plan > 2.0 * gib && plan <= 2.25 * gib);
    CHECK(ref.allocated == 0);
    lq_error_clear();
    /* a run under 2 GiB: refused before anything is allocated, naming the plan's bytes */
    ref.plan_only = false;
    ref.planned = 0;
    setenv("LIQUIDCL_DEVICE_MEMORY", "2G", 1);
    rc = create(&ref, 256, "0.005", &bytes);
    fprintf(stderr, "256³ under 2 GiB: %s\n", lq_error_message());
    char want[64];
    snprintf(want, sizeof want, "(%zu bytes)", plan);
    CHECK(rc == LQ_EINPUT && ref.allocated == 0 && ref.planned == 0);
    CHECK(strstr(lq_error_message(), "LIQUIDCL_DEVICE_MEMORY allows 2048.0 MiB") != NULL);
    CHECK_MSG(strstr(lq_error_message(), want), "want %s in: %s", want, lq_error_message());
    lq_error_clear();
    setenv("LIQUIDCL_DEVICE_MEMORY", "2 lots", 1);
    rc = create(&ref, 16, "0.08", &bytes);
    CHECK(rc == LQ_EINPUT && strstr(lq_error_message(), "expected bytes"));
    lq_error_clear();
    unsetenv("LIQUIDCL_DEVICE_MEMORY");
    lq_ctx_close(&ref);
}

int main(void)
{
    test_plan_is_allocated();
    test_256();
    CHECK_DONE();
}
