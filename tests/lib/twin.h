/*
 * twin.h — helpers for diff tests: the same host data on a reference context and on
 * an OpenCL (PoCL in CI) context, and field-by-field comparison.
 */
#ifndef LQ_TWIN_H
#define LQ_TWIN_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "core/tolerance.h"

typedef struct twin_pair {
    lq_field ref, cl;
} twin_pair;

/* Opens the reference and the first OpenCL device; the test fails without one. */
static int twin_open(lq_ctx *ref, lq_ctx *cl)
{
    int rc = lq_ctx_open(ref, "ref", false);
    if (!rc) rc = lq_ctx_open(cl, "opencl", false);
    if (rc) fprintf(stderr, "twin: %s\n", lq_error_message());
    return rc;
}

static int twin_alloc(twin_pair *p, lq_ctx *ref, lq_ctx *cl, const char *name, int nx, int ny,
                      int nz, size_t elem, const void *init)
{
    int rc = lq_field_alloc(ref, &p->ref, name, nx, ny, nz, elem);
    if (!rc) rc = lq_field_alloc(cl, &p->cl, name, nx, ny, nz, elem);
    if (!rc && init) rc = lq_field_upload(&p->ref, init);
    if (!rc && init) rc = lq_field_upload(&p->cl, init);
    return rc;
}

static void twin_release(twin_pair *p)
{
    lq_field_release(&p->ref);
    lq_field_release(&p->cl);
}

/* Compares a float pair against the tolerance entry; prints the errors. */
static void twin_check_float(const char *op, const twin_pair *p)
{
    const lq_tolerance *t = lq_tolerance_get(op);
    size_t n = p->ref.count;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    CHECK(a && b);
    if (!a || !b) goto done;
    CHECK_OK(lq_field_download(&p->ref, a));
    CHECK_OK(lq_field_download(&p->cl, b));
    double ma = 0, mr = 0;
    size_t worst = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs((double)a[i] - (double)b[i]);
        if (isnan(a[i]) != isnan(b[i])) e = INFINITY;
        if (isnan(a[i]) && isnan(b[i])) e = 0;
        double r = e / fmax(fabs((double)a[i]), t->floor);
        if (e > ma) worst = i;
        ma = fmax(ma, e);
        mr = fmax(mr, r);
    }
    fprintf(stderr, "  %-18s %-8s max abs %.3g  max rel %.3g\n", op, p->ref.name, ma, mr);
    CHECK_MSG(lq_tolerance_ok(t, ma, mr), "%s field %s: max abs %g, rel %g at %zu (%g vs %g)", op,
              p->ref.name, ma, mr, worst, (double)a[worst], (double)b[worst]);
done:
    free(a);
    free(b);
}

/* Integer or fixed-point fields: must agree exactly. */
static void twin_check_exact(const char *op, const twin_pair *p)
{
    size_t bytes = lq_field_bytes(&p->ref);
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    CHECK(a && b);
    if (!a || !b) goto done;
    CHECK_OK(lq_field_download(&p->ref, a));
    CHECK_OK(lq_field_download(&p->cl, b));
    size_t bad = 0;
    for (size_t i = 0; i < bytes; i += p->ref.elem)
        if (memcmp(a + i, b + i, p->ref.elem) != 0) bad++;
    fprintf(stderr, "  %-18s %-8s %zu of %zu elements differ\n", op, p->ref.name, bad,
            p->ref.count);
    CHECK_MSG(bad == 0, "%s field %s: %zu elements differ", op, p->ref.name, bad);
done:
    free(a);
    free(b);
}

#endif
