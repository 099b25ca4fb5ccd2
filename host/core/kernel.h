/*
 * kernel.h — an operation's OpenCL kernels and their launches.
 *
 * An operation builds its program once (lq_program_build, from its sources and a table
 * of its kernels' names and places in its object). Each kernel is an lq_kernel: its cl_kernel, its
 * name (for the error messages) and the backend it runs on. The arguments that stay the same for
 * the life of the operation's object (its own scratch buffers, grid sizes) are bound once, right
 * after the build (lq_kernel_args); a launch then sets only the arguments that change,
 * marking the bound ones LQ_KEEP, and enqueues over a range (lq_kernel_launch).
 *
 * Invariants:
 * - An argument list has one entry per parameter of the kernel, in the .cl file's order:
 *   LQ_MEM(field), LQ_VAL(variable), LQ_LOCAL(bytes), or LQ_KEEP for one left as it is
 *   (bound once, or set by the launch). A bound argument is bound at one place only.
 * - Nothing is enqueued for an empty range (a global size of 0 in any dimension).
 * - A message names the kernel (and the argument): "clSetKernelArg(reinit_init arg 2)
 *   failed: ...", formatted only when a call fails.
 * - lq_program_release is safe on a zeroed object and when called twice.
 */
#ifndef LQ_KERNEL_H
#define LQ_KERNEL_H

#include <stddef.h>

#include "core/field.h"

typedef struct lq_kernel {
    cl_kernel k;      /* NULL before the build and after the release */
    const char *name; /* its name in the program (a string literal) */
    lq_ctx *ctx;      /* the backend whose queue it runs on */
} lq_kernel;

/* One argument: `size` bytes at `p`; local memory has p NULL, LQ_KEEP size 0. */
typedef struct lq_arg {
    const void *p;
    size_t size;
} lq_arg;
#define LQ_MEM(f)                                                                                  \
    {                                                                                              \
        &(f)->mem, sizeof(cl_mem)                                                                  \
    }
#define LQ_VAL(v)                                                                                  \
    {                                                                                              \
        &(v), sizeof(v)                                                                            \
    }
#define LQ_LOCAL(bytes)                                                                            \
    {                                                                                              \
        NULL, (bytes)                                                                              \
    }
#define LQ_KEEP                                                                                    \
    {                                                                                              \
        NULL, 0                                                                                    \
    }
/* An argument array as the count and pointer the functions below take. */
#define LQ_ARGS(a) (int)LQ_COUNT(a), (a)

/* Work-items over 1 to 3 dimensions; a local size of 0 lets the runtime choose. */
typedef struct lq_range {
    cl_uint dims;
    size_t global[3];
    size_t local[3];
} lq_range;

/* n work-items; with local > 0, work-groups of `local` and n rounded up to a multiple
 * of it (the kernels return past their end). Ranges that change from launch to launch
 * (particles, lists) want a fixed local size: PoCL compiles a kernel variant per
 * work-group size, and a runtime's choice follows the range. */
lq_range lq_range_1d(size_t n, size_t local);
/* nx × ny work-items; with lx, ly > 0, work-groups of lx × ly, each size rounded up. */
lq_range lq_range_2d(size_t nx, size_t ny, size_t lx, size_t ly);
/* nx × ny × nz work-items, the work-group size left to the runtime. */
lq_range lq_range_3d(size_t nx, size_t ny, size_t nz);
/* The faces of `axis` (0: x, 1: y, 2: z) of an nx × ny × nz grid of cells, one work-item
 * each ((nx + 1) × ny × nz for x, mac_grid.h), or its cells for axis < 0. */
lq_range lq_range_faces(int nx, int ny, int nz, int axis);

/* n work-items (none for n < 0) in work-groups of 64, or of the device's largest when
 * smaller, n rounded up (the kernels return past their end): for ranges that change from
 * launch to launch (particles, lists, blocks of them). Left to the runtime, each new
 * range may get a new group size, and PoCL compiles a kernel variant per group size: a
 * ball splash took seconds per frame that way. */
lq_range lq_range_var(const lq_kernel *k, int n);
/* A fixed grid for a kernel whose work-items stride over a count that stays on the
 * device (no host wait to size the launch): enough work-items to fill a GPU, a few groups
 * per compute unit on a CPU (idle work-items cost there), at most `items`. */
lq_range lq_range_stride(const lq_kernel *k, size_t items);

/* `want`, or the device's largest work-group when that is smaller. */
size_t lq_kernel_group(const lq_kernel *k, size_t want);

/* Sets arguments 0 … n−1 of k, skipping the LQ_KEEP ones. */
int lq_kernel_args(lq_kernel *k, int n, const lq_arg *args);
/* Enqueues k over r (its arguments set). */
int lq_kernel_run(lq_kernel *k, lq_range r);
/* lq_kernel_args, then lq_kernel_run. */
int lq_kernel_launch(lq_kernel *k, lq_range r, int n, const lq_arg *args);

/* Arguments bound once, right after the build: the kernel, and its bound arguments by
 * index, {&o->apply, {[1] = LQ_MEM(&o->mask), [2] = LQ_MEM(&o->diag)}}; the others stay
 * LQ_KEEP (the launches set them). */
#define LQ_BIND_MAX 16
typedef struct lq_binding {
    lq_kernel *k;
    lq_arg a[LQ_BIND_MAX];
} lq_binding;
int lq_kernels_bind(int n, const lq_binding *b); /* kernels not built (reference path): none */

/* An operation's program: its sources and its kernels, each a slot of the operation's
 * object (LQ_KERNEL(lq_reinit_ops, init, "reinit_init")), built once per object. */
typedef struct lq_kernel_slot {
    size_t offset;    /* of the lq_kernel in the object */
    const char *name; /* of the kernel in the program */
} lq_kernel_slot;
#define LQ_KERNEL(type, member, name)                                                              \
    {                                                                                              \
        offsetof(type, member), (name)                                                             \
    }

typedef struct lq_program {
    const char *grid; /* the grid constants it is built with: "XYZ" is -DNX=nx -DNY=ny -DNZ=nz,
                         "XZ" -DNX=nx -DNZ=nz, and so on; "" none */
    int nsources;
    const char *const *sources; /* in dependency order, as "kernels/pls/reinit.cl" */
    int nkernels;
    const lq_kernel_slot *kernels;
} lq_program;
#define LQ_PROGRAM(grid, sources, kernels)                                                         \
    {                                                                                              \
        (grid), (int)LQ_COUNT(sources), (sources), (int)LQ_COUNT(kernels), (kernels)               \
    }

/* On OpenCL: builds p into *program (lq_cl_build) with its grid constants and the
 * `extra` options ("-DLQ_MO_W=16", or ""), then creates its kernels in `ops`; on failure
 * releases what it made. On the reference path: nothing to build (LQ_OK). */
int lq_program_build(const lq_program *p, void *ops, cl_program *program, lq_ctx *ctx, int nx,
                     int ny, int nz, const char *extra);
/* Releases p's kernels in `ops` and the program (NULL handles are skipped) and clears
 * them: safe on a zeroed object and twice. */
void lq_program_release(const lq_program *p, void *ops, cl_program *program);

#endif
