/*
 * full_poisson_validation.c — full `pls` pressure-solver validation
 * (tests/validation/poisson_validation.h, VALIDATION.md `pls`) on the first OpenCL device:
 * iteration counts at 128³ (SOR 288, CG 351) and 256³ (SOR 572, CG 655), ±25%,
 * multigrid-PCG ≤ 20, where float32 reaches 1e-6 (else the residual reached, ≤ 1e-5);
 * order of accuracy from 16³ to 128³ (sine and ghost-fluid sphere ×4 per halving,
 * cell-centre sphere ×2). LQ_POISSON_FULL_MAX=128 skips 256³.
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
    const char *max_env = getenv("LQ_POISSON_FULL_MAX");
    int nmax = max_env ? atoi(max_env) : 256;
    int sizes[] = {16, 32, 64, 128};
    pv_order_case(&ctx, sizes, 4);
    pv_iteration_case(&ctx, 128, 288, 351, 1);
    pv_jacobi_timing(&ctx, 128);
    if (nmax >= 256) pv_iteration_case(&ctx, 256, 572, 655, 1);
    lq_ctx_close(&ctx);
    CHECK_DONE();
}
