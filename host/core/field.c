/*
 * field.c — backend selection and field storage (see field.h).
 */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "core/field.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Host storage for fields: large ones on 2 MiB boundaries and marked for transparent
 * huge pages, because column sweeps touch a new 4 KiB page per cell and spend their
 * time in TLB misses otherwise (measured: the z solve 4x faster at 1024² on PoCL).
 * Zeroed. */
static void *lq_field_host_alloc(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    if (bytes < 2 * huge) return lq_calloc(bytes, 1);
    size_t rounded = (bytes + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded);
    if (!p) {
        lq_error(LQ_ESIM, "out of host memory allocating %zu bytes", bytes);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    memset(p, 0, rounded);
    return p;
}

int lq_ctx_open(lq_ctx *ctx, const char *device_spec, bool announce)
{
    lq_cl_device dev;
    bool use_ref = false;
    memset(ctx, 0, sizeof *ctx);
    int rc = lq_cl_choose(device_spec, &dev, &use_ref);
    if (rc) return rc;
    if (use_ref) {
        ctx->backend = LQ_BACKEND_REF;
    } else {
        rc = lq_cl_open(&ctx->cl, &dev);
        if (rc) return rc;
        ctx->backend = LQ_BACKEND_CL;
    }
    if (announce) lq_ctx_announce(ctx, device_spec);
    return LQ_OK;
}

void lq_ctx_announce(const lq_ctx *ctx, const char *device_spec)
{
    char what[640];
    lq_ctx_describe(ctx, what, sizeof what);
    const char *why = "";
    if (strcmp(device_spec, "auto") == 0)
        why = ctx->backend == LQ_BACKEND_REF            ? " (auto: no OpenCL device found)"
              : (ctx->cl.dev.type & CL_DEVICE_TYPE_GPU) ? " (auto: GPU)"
                                                        : " (auto: no GPU, first OpenCL device)";
    fprintf(stderr, "liquidcl: device %s%s\n", what, why);
}

void lq_ctx_close(lq_ctx *ctx)
{
    if (ctx->backend == LQ_BACKEND_CL) lq_cl_close(&ctx->cl);
    ctx->backend = LQ_BACKEND_REF;
}

void lq_ctx_describe(const lq_ctx *ctx, char *buf, size_t n)
{
    if (ctx->backend == LQ_BACKEND_REF) {
        snprintf(buf, n, "reference C");
        return;
    }
    const lq_cl_device *d = &ctx->cl.dev;
    snprintf(buf, n, "OpenCL %d.%d: %s (%s)", d->platform_index, d->device_index, d->name,
             d->platform_name);
}

static int lq_ctx_check(lq_ctx *ctx, const char *what, int count, const size_t *bytes)
{
    if (ctx->backend == LQ_BACKEND_CL) return lq_cl_reserve(&ctx->cl, what, count, bytes);
    size_t total = 0, cap = 0;
    int rc = lq_cl_memory_cap(&cap);
    if (rc) return rc;
    for (int i = 0; i < count; i++) total += bytes[i];
    if (cap > 0 && total > cap)
        return lq_error(LQ_EINPUT,
                        "%s needs %.1f MiB (%zu bytes) but LIQUIDCL_DEVICE_MEMORY allows %.1f "
                        "MiB; use a smaller grid",
                        what, (double)total / 1048576.0, total, (double)cap / 1048576.0);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (double)total > 0.9 * (double)pages * (double)page)
        return lq_error(LQ_EINPUT, "%s needs %.1f MiB but this machine has %.1f MiB of memory",
                        what, (double)total / 1048576.0, (double)pages * (double)page / 1048576.0);
    return LQ_OK;
}

int lq_ctx_reserve(lq_ctx *ctx, const char *what, int count, const size_t *bytes)
{
    if (ctx->plan_only)
        return lq_error(LQ_EINPUT,
                        "--plan: %s reserves its device memory part by part, not as one plan "
                        "before the run (solver 'pls' plans it whole)",
                        what);
    return lq_ctx_check(ctx, what, count, bytes);
}

void lq_ctx_unreserve(lq_ctx *ctx, size_t bytes)
{
    if (ctx->backend == LQ_BACKEND_CL) ctx->cl.reserved -= LQ_MIN(bytes, ctx->cl.reserved);
}

int lq_ctx_reserve_plan(lq_ctx *ctx, const char *what, int count, const size_t *bytes,
                        const char *const *names)
{
    int rc = lq_ctx_check(ctx, what, count, bytes);
    if (rc || !(ctx->plan_only || ctx->plan_stop)) return rc;
    size_t total = 0, cap = 0;
    for (int i = 0; i < count; i++) total += bytes[i];
    if (!ctx->plan_only) {
        ctx->planned = total;
        return lq_error(LQ_EINPUT, "%s stopped after its plan", what);
    }
    char dev[640];
    lq_ctx_describe(ctx, dev, sizeof dev);
    lq_cl_memory_cap(&cap);
    printf("plan: %s on %s: %.1f MiB of device memory", what, dev, (double)total / 1048576.0);
    if (cap > 0)
        printf(" (fits LIQUIDCL_DEVICE_MEMORY, %.1f MiB)\n", (double)cap / 1048576.0);
    else
        printf(" (fits)\n");
    for (int i = 0; i < count; i++)
        printf("  %10.1f MiB  %s\n", (double)bytes[i] / 1048576.0, names ? names[i] : "");
    printf("device_bytes %zu\n", total);
    fflush(stdout);
    ctx->planned = total;
    return lq_error(LQ_EINPUT, "--plan: %s stopped after its plan", what);
}

int lq_ctx_sync(lq_ctx *ctx)
{
    int rc = LQ_OK;
    if (ctx->backend == LQ_BACKEND_CL) LQ_CL_CHECK(clFinish(ctx->cl.queue), "queue");
    return LQ_OK;
fail:
    return rc;
}

int lq_ctx_finish(lq_ctx *ctx)
{
    ctx->waits++;
    return lq_ctx_sync(ctx);
}

/* One blocking transfer of `bytes` (ctx->waits). */
static void lq_field_waited(const lq_field *f, size_t bytes)
{
    f->ctx->waits++;
    f->ctx->wait_bytes += (long long)bytes;
}

int lq_field_alloc(lq_ctx *ctx, lq_field *f, const char *name, int nx, int ny, int nz, size_t elem)
{
    int rc = LQ_OK;
    memset(f, 0, sizeof *f);
    f->ctx = ctx;
    snprintf(f->name, sizeof f->name, "%s", name);
    f->nx = nx;
    f->ny = ny;
    f->nz = nz;
    f->count = (size_t)nx * (size_t)ny * (size_t)nz;
    f->elem = elem;
    size_t bytes = lq_field_bytes(f);
    if (ctx->backend == LQ_BACKEND_REF) {
        f->host = lq_field_host_alloc(bytes);
        ctx->allocated += f->host ? bytes : 0;
        return f->host ? LQ_OK : LQ_ESIM;
    }
    cl_int e = CL_SUCCESS;
    cl_mem_flags flags = CL_MEM_READ_WRITE;
    /* CPU devices (PoCL) work on host memory: give them huge-page-backed storage. The
     * field keeps the pointer only to free it; it is not accessed from the host. */
    void *host = NULL;
    if (ctx->cl.dev.type & CL_DEVICE_TYPE_CPU) {
        host = lq_field_host_alloc(bytes);
        if (!host) return LQ_ESIM;
        flags |= CL_MEM_USE_HOST_PTR;
    }
    cl_mem m = clCreateBuffer(ctx->cl.context, flags, bytes, host, &e);
    if (e != CL_SUCCESS)
        free(host);
    else
        f->backing = host;
    LQ_CL_CHECK(e, name);
    f->mem = m;
    ctx->allocated += bytes;
    return lq_field_zero(f, 0);
fail:
    return rc;
}

void lq_field_release(lq_field *f)
{
    free(f->host);
    /* Queued work may still use the buffer (and the host memory behind it on CPU
     * devices): finish it before either goes. */
    if (f->mem && f->ctx && f->ctx->cl.queue) clFinish(f->ctx->cl.queue);
    if (f->mem) clReleaseMemObject(f->mem);
    free(f->backing); /* after the buffer that used it */
    f->host = NULL;
    f->mem = NULL;
    f->backing = NULL;
}

lq_field lq_field_alias(const lq_field *of, const char *name, int nx, int ny, int nz, size_t elem)
{
    lq_field v;
    memset(&v, 0, sizeof v);
    v.ctx = of->ctx;
    snprintf(v.name, sizeof v.name, "%s", name);
    v.nx = nx;
    v.ny = ny;
    v.nz = nz;
    v.count = (size_t)nx * (size_t)ny * (size_t)nz;
    v.elem = elem;
    v.host = of->host;
    v.mem = of->mem; /* (no backing: only the owner frees it) */
    assert(lq_field_bytes(&v) <= lq_field_bytes(of));
    return v;
}

size_t lq_field_bytes(const lq_field *f)
{
    return f->count * f->elem;
}

int lq_field_upload(lq_field *f, const void *src)
{
    int rc = LQ_OK;
    lq_field_waited(f, lq_field_bytes(f));
    if (f->ctx->backend == LQ_BACKEND_REF) {
        memcpy(f->host, src, lq_field_bytes(f));
        return LQ_OK;
    }
    LQ_CL_CHECK(clEnqueueWriteBuffer(f->ctx->cl.queue, f->mem, CL_TRUE, 0, lq_field_bytes(f), src,
                                     0, NULL, NULL),
                f->name);
    return LQ_OK;
fail:
    return rc;
}

/* lq_field_write and lq_field_write_async: a blocking write counts as a host wait. */
static int lq_field_write_at(lq_field *f, size_t off, size_t bytes, const void *src, int blocking)
{
    int rc = LQ_OK;
    assert(off + bytes <= lq_field_bytes(f));
    if (bytes == 0) return LQ_OK;
    if (blocking) lq_field_waited(f, bytes);
    if (f->ctx->backend == LQ_BACKEND_REF) {
        memcpy((char *)f->host + off, src, bytes);
        return LQ_OK;
    }
    LQ_CL_CHECK(clEnqueueWriteBuffer(f->ctx->cl.queue, f->mem, blocking ? CL_TRUE : CL_FALSE, off,
                                     bytes, src, 0, NULL, NULL),
                f->name);
    return LQ_OK;
fail:
    return rc;
}

int lq_field_write(lq_field *f, size_t off, size_t bytes, const void *src)
{
    return lq_field_write_at(f, off, bytes, src, 1);
}

int lq_field_write_async(lq_field *f, size_t off, size_t bytes, const void *src)
{
    return lq_field_write_at(f, off, bytes, src, 0);
}

int lq_field_put(lq_field *f, size_t off, size_t bytes, const void *src)
{
    int rc = LQ_OK;
    assert(off + bytes <= lq_field_bytes(f) && bytes > 0 && bytes <= 128 &&
           (bytes & (bytes - 1)) == 0 && off % bytes == 0);
    if (f->ctx->backend == LQ_BACKEND_REF) {
        memcpy((char *)f->host + off, src, bytes);
        return LQ_OK;
    }
    LQ_CL_CHECK(
        clEnqueueFillBuffer(f->ctx->cl.queue, f->mem, src, bytes, off, bytes, 0, NULL, NULL),
        f->name);
    return LQ_OK;
fail:
    return rc;
}

int lq_field_read(const lq_field *f, size_t off, size_t bytes, void *dst)
{
    int rc = LQ_OK;
    assert(off + bytes <= lq_field_bytes(f));
    if (bytes == 0) return LQ_OK;
    lq_field_waited(f, bytes);
    if (f->ctx->backend == LQ_BACKEND_REF) {
        memcpy(dst, (const char *)f->host + off, bytes);
        return LQ_OK;
    }
    LQ_CL_CHECK(
        clEnqueueReadBuffer(f->ctx->cl.queue, f->mem, CL_TRUE, off, bytes, dst, 0, NULL, NULL),
        f->name);
    return LQ_OK;
fail:
    return rc;
}

int lq_field_download(const lq_field *f, void *dst)
{
    int rc = LQ_OK;
    lq_field_waited(f, lq_field_bytes(f));
    if (f->ctx->backend == LQ_BACKEND_REF) {
        memcpy(dst, f->host, lq_field_bytes(f));
        return LQ_OK;
    }
    LQ_CL_CHECK(clEnqueueReadBuffer(f->ctx->cl.queue, f->mem, CL_TRUE, 0, lq_field_bytes(f), dst, 0,
                                    NULL, NULL),
                f->name);
    return LQ_OK;
fail:
    return rc;
}

int lq_field_zero(lq_field *f, size_t bytes)
{
    int rc = LQ_OK;
    if (bytes == 0 || bytes > lq_field_bytes(f)) bytes = lq_field_bytes(f);
    if (f->ctx->backend == LQ_BACKEND_REF) {
        memset(f->host, 0, bytes);
        return LQ_OK;
    }
    const cl_uint zero = 0;
    size_t pattern = (bytes % 4 == 0) ? 4 : 1;
    LQ_CL_CHECK(
        clEnqueueFillBuffer(f->ctx->cl.queue, f->mem, &zero, pattern, 0, bytes, 0, NULL, NULL),
        f->name);
    return LQ_OK;
fail:
    return rc;
}
