/*
 * kernel.c — an operation's kernels: build, bound arguments, launches (see kernel.h).
 */
#include "core/kernel.h"

#include <stdio.h>
#include <string.h>

static size_t lq_round_up(size_t n, size_t local)
{
    return local ? (n + local - 1) / local * local : n;
}

lq_range lq_range_1d(size_t n, size_t local)
{
    lq_range r = {1, {lq_round_up(n, local), 1, 1}, {local, 0, 0}};
    return r;
}

lq_range lq_range_2d(size_t nx, size_t ny, size_t lx, size_t ly)
{
    bool grouped = lx > 0 && ly > 0;
    lq_range r = {2, {nx, ny, 1}, {0, 0, 0}};
    if (grouped) {
        r.global[0] = lq_round_up(nx, lx);
        r.global[1] = lq_round_up(ny, ly);
        r.local[0] = lx;
        r.local[1] = ly;
    }
    return r;
}

lq_range lq_range_3d(size_t nx, size_t ny, size_t nz)
{
    lq_range r = {3, {nx, ny, nz}, {0, 0, 0}};
    return r;
}

lq_range lq_range_faces(int nx, int ny, int nz, int axis)
{
    return lq_range_3d((size_t)(nx + (axis == 0)), (size_t)(ny + (axis == 1)),
                       (size_t)(nz + (axis == 2)));
}

size_t lq_kernel_group(const lq_kernel *k, size_t want)
{
    return LQ_MIN(want, LQ_MAX(k->ctx->cl.dev.max_work_group, (size_t)1));
}

lq_range lq_range_var(const lq_kernel *k, int n)
{
    return lq_range_1d(n > 0 ? (size_t)n : 0, lq_kernel_group(k, 64));
}

lq_range lq_range_stride(const lq_kernel *k, size_t items)
{
    const lq_cl_device *d = &k->ctx->cl.dev;
    size_t local = lq_kernel_group(k, 64);
    size_t want = (d->type & CL_DEVICE_TYPE_CPU) ? (size_t)d->compute_units * 4 * local : 65536;
    if (want > items) want = items;
    return lq_range_1d((want + local - 1) / local * local, local);
}

int lq_kernel_args(lq_kernel *k, int n, const lq_arg *args)
{
    for (int i = 0; i < n; i++) {
        if (args[i].size == 0) continue; /* LQ_KEEP */
        cl_int e = clSetKernelArg(k->k, (cl_uint)i, args[i].size, args[i].p);
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "%s arg %d", k->name, i);
            return lq_cl_fail(__FILE__, __LINE__, "clSetKernelArg", what, e);
        }
    }
    return LQ_OK;
}

int lq_kernel_run(lq_kernel *k, lq_range r)
{
    for (cl_uint d = 0; d < r.dims; d++)
        if (r.global[d] == 0) return LQ_OK; /* nothing to do */
    cl_int e = clEnqueueNDRangeKernel(k->ctx->cl.queue, k->k, r.dims, NULL, r.global,
                                      r.local[0] ? r.local : NULL, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return lq_cl_fail(__FILE__, __LINE__, "clEnqueueNDRangeKernel", k->name, e);
    return LQ_OK;
}

int lq_kernel_launch(lq_kernel *k, lq_range r, int n, const lq_arg *args)
{
    int rc = lq_kernel_args(k, n, args);
    return rc ? rc : lq_kernel_run(k, r);
}

int lq_kernels_bind(int n, const lq_binding *b)
{
    int rc = LQ_OK;
    for (int i = 0; i < n && !rc; i++)
        if (b[i].k->k) rc = lq_kernel_args(b[i].k, LQ_BIND_MAX, b[i].a);
    return rc;
}

static lq_kernel *lq_kernel_in(void *ops, const lq_kernel_slot *s)
{
    return (lq_kernel *)((char *)ops + s->offset);
}

int lq_program_build(const lq_program *p, void *ops, cl_program *program, lq_ctx *ctx, int nx,
                     int ny, int nz, const char *extra)
{
    if (ctx->backend == LQ_BACKEND_REF) return LQ_OK;
    char defines[256];
    size_t len = 0;
    defines[0] = '\0';
    for (const char *g = p->grid; *g && len < sizeof defines; g++) {
        int n = *g == 'X' ? nx : *g == 'Y' ? ny : nz;
        len += (size_t)snprintf(defines + len, sizeof defines - len, "%s-DN%c=%d", len ? " " : "",
                                *g, n);
    }
    if (extra && *extra && len < sizeof defines)
        snprintf(defines + len, sizeof defines - len, "%s%s", len ? " " : "", extra);
    int rc = lq_cl_build(&ctx->cl, p->nsources, p->sources, defines, program);
    for (int i = 0; i < p->nkernels && !rc; i++) {
        lq_kernel *k = lq_kernel_in(ops, &p->kernels[i]);
        cl_int e = CL_SUCCESS;
        k->k = clCreateKernel(*program, p->kernels[i].name, &e);
        if (e != CL_SUCCESS) {
            k->k = NULL; /* never release a handle that came back with an error */
            rc = lq_cl_fail(__FILE__, __LINE__, "clCreateKernel", p->kernels[i].name, e);
        }
        k->name = p->kernels[i].name;
        k->ctx = ctx;
    }
    if (rc) lq_program_release(p, ops, program);
    return rc;
}

void lq_program_release(const lq_program *p, void *ops, cl_program *program)
{
    for (int i = 0; i < p->nkernels; i++) {
        lq_kernel *k = lq_kernel_in(ops, &p->kernels[i]);
        if (k->k) clReleaseKernel(k->k);
        k->k = NULL;
    }
    if (*program) clReleaseProgram(*program);
    *program = NULL;
}
