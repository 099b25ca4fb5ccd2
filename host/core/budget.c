/*
 * budget.c — the early memory check (budget.h).
 */
#include "core/budget.h"

#include <stdio.h>
#include <unistd.h>

#include "core/common.h"

static void lq_budget_mib(char *buf, size_t n, double bytes)
{
    if (bytes >= 1024.0 * 1048576.0)
        snprintf(buf, n, "%.1f GiB", bytes / (1024.0 * 1048576.0));
    else
        snprintf(buf, n, "%.1f MiB", bytes / 1048576.0);
}

static int lq_budget_run(const lq_ctx *ctx, const char *what, double host, double device,
                         double largest, bool use_cap)
{
    char a[32], b[32];
    size_t cap = 0;
    int rc = use_cap ? lq_cl_memory_cap(&cap) : LQ_OK;
    if (rc) return rc;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double mem = pages > 0 && page > 0 ? 0.9 * (double)pages * (double)page : 0;
    bool ref = ctx->backend == LQ_BACKEND_REF;
    if (cap > 0 && device > (double)cap) {
        lq_budget_mib(a, sizeof a, device);
        lq_budget_mib(b, sizeof b, (double)cap);
        return lq_error(LQ_EINPUT,
                        "%s needs at least %s of device memory but LIQUIDCL_DEVICE_MEMORY allows "
                        "%s; use a smaller grid",
                        what, a, b);
    }
    if (!ref && largest > (double)ctx->cl.dev.max_alloc) {
        lq_budget_mib(a, sizeof a, largest);
        lq_budget_mib(b, sizeof b, (double)ctx->cl.dev.max_alloc);
        return lq_error(LQ_EINPUT,
                        "%s needs a %s buffer but %s allows at most %s per buffer "
                        "(CL_DEVICE_MAX_MEM_ALLOC_SIZE); use a smaller grid or --device ref",
                        what, a, ctx->cl.dev.name, b);
    }
    if (!ref && device > (double)ctx->cl.dev.global_mem) {
        lq_budget_mib(a, sizeof a, device);
        lq_budget_mib(b, sizeof b, (double)ctx->cl.dev.global_mem);
        return lq_error(LQ_EINPUT,
                        "%s needs at least %s of device memory but %s has %s; use a smaller "
                        "grid or --device ref",
                        what, a, ctx->cl.dev.name, b);
    }
    double need = ref ? host + device : host;
    if (mem > 0 && need > mem) {
        lq_budget_mib(a, sizeof a, need);
        lq_budget_mib(b, sizeof b, mem / 0.9);
        return lq_error(LQ_EINPUT,
                        "%s needs at least %s of host memory but this machine has %s; use a "
                        "smaller grid",
                        what, a, b);
    }
    return LQ_OK;
}

int lq_budget_check(const lq_ctx *ctx, const char *what, double host, double device, double largest)
{
    return lq_budget_run(ctx, what, host, device, largest, true);
}

int lq_budget_check_nocap(const lq_ctx *ctx, const char *what, double host, double device,
                          double largest)
{
    return lq_budget_run(ctx, what, host, device, largest, false);
}
