/*
 * test_poisson_validation.c — quick `pls` pressure-solver validation
 * (tests/validation/poisson_validation.h, VALIDATION.md `pls`) on the OpenCL device (PoCL in CI):
 * iteration counts at 64³ (red-black SOR 146, CG 182, ±25%; Jacobi-PCG against CG's;
 * multigrid-PCG ≤ 20), the time per iteration of SOR, Jacobi and PCG, and the order of accuracy at
 * 16³ → 32³ (sine: ×4, ghost-fluid sphere: ×4, cell-centre sphere: ×2).
 */
#include "validation/poisson_validation.h"

int main(void)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, "opencl", false)) {
        fprintf(stderr, "%s\n", lq_error_message());
        CHECK(!"an OpenCL device is needed (install pocl-opencl-icd)");
        CHECK_DONE();
    }
    char dev[160];
    lq_ctx_describe(&ctx, dev, sizeof dev);
    fprintf(stderr, "device: %s\n", dev);
    pv_iteration_case(&ctx, 64, 146, 182, 0);
    pv_jacobi_timing(&ctx, 64);
    int sizes[] = {16, 32};
    pv_order_case(&ctx, sizes, 2);
    lq_ctx_close(&ctx);
    CHECK_DONE();
}
