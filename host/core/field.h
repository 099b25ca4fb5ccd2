/*
 * field.h — the backend a run uses (reference C or one OpenCL device) and the
 * fields that live on it.
 *
 * Invariant: a field's storage lives on the active backend only — host memory for
 * the reference path, one cl_mem for OpenCL. Host copies are made explicitly (output,
 * diff tests, checkpoints) with lq_field_download/upload; solvers never touch
 * storage directly, they call operations.
 */
#ifndef LQ_FIELD_H
#define LQ_FIELD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cl.h"

typedef enum lq_backend { LQ_BACKEND_REF, LQ_BACKEND_CL } lq_backend;

typedef struct lq_ctx {
    lq_backend backend;
    lq_cl cl;         /* open when backend == LQ_BACKEND_CL */
    bool plan_only;   /* `run --plan`: lq_ctx_reserve_plan prints the plan and stops */
    bool plan_stop;   /* `check`: lq_ctx_reserve_plan stops there, printing nothing */
    size_t planned;   /* bytes of the plan lq_ctx_reserve_plan printed (plan_only) */
    size_t allocated; /* bytes lq_field_alloc allocated on this context, all told */
    /* Blocking host waits since the context opened: lq_ctx_finish and every blocking
     * read or write of a field (lq_field_upload/write/read/download), and the bytes those
     * moved. Counted the same on both backends, so the count is the code's, not the
     * device's: each is a point where a GPU's queue drains while the host waits
     * (docs/PERFORMANCE.md, "Host waits"). The profile's and the bench's own syncs
     * (lq_ctx_sync) are not counted. */
    long long waits, wait_bytes;
} lq_ctx;

/* Opens the backend --device names; announces the choice on stderr when `announce`. */
int lq_ctx_open(lq_ctx *ctx, const char *device_spec, bool announce);
void lq_ctx_close(lq_ctx *ctx);
/* "liquidcl: device NAME (auto: why)" on stderr. */
void lq_ctx_announce(const lq_ctx *ctx, const char *device_spec);
/* "reference C" or "OpenCL P.D: NAME (PLATFORM)". */
void lq_ctx_describe(const lq_ctx *ctx, char *buf, size_t n);
/* Checks that `count` buffers of these sizes fit before any is allocated (the device's
 * memory, the host's on the reference path, or LIQUIDCL_DEVICE_MEMORY when set: see
 * lq_cl_memory_cap). With ctx->plan_only it refuses: only a whole plan can be shown. */
int lq_ctx_reserve(lq_ctx *ctx, const char *what, int count, const size_t *bytes);
/* Gives back `bytes` reserved before (buffers about to be released for larger ones). */
void lq_ctx_unreserve(lq_ctx *ctx, size_t bytes);
/* A solver's whole device memory at once, every part named (names[i] for bytes[i]),
 * before it allocates anything: lq_ctx_reserve, and with ctx->plan_only the plan on
 * stdout (one line per part, then "device_bytes N") and LQ_EINPUT with
 * ctx->planned set, so that the solver stops there (`liquidcl run --plan`); with
 * ctx->plan_stop the same without the printing (`liquidcl check`). */
int lq_ctx_reserve_plan(lq_ctx *ctx, const char *what, int count, const size_t *bytes,
                        const char *const *names);
/* Waits for queued work (no-op on the reference path); one of ctx->waits. */
int lq_ctx_finish(lq_ctx *ctx);
/* The same wait, not counted: for timers (the profile, the bench), which must not change
 * the figures they report. */
int lq_ctx_sync(lq_ctx *ctx);

typedef struct lq_field {
    lq_ctx *ctx;
    char name[32];
    int nx, ny, nz; /* extent in elements, x fastest */
    size_t count;   /* nx * ny * nz */
    size_t elem;    /* bytes per element */
    void *host;     /* reference backend storage */
    cl_mem mem;     /* OpenCL storage */
    void *backing;  /* host memory behind `mem` on CPU devices (CL_MEM_USE_HOST_PTR) */
} lq_field;

int lq_field_alloc(lq_ctx *ctx, lq_field *f, const char *name, int nx, int ny, int nz, size_t elem);
void lq_field_release(lq_field *f);
/* Another shape (nx × ny × nz elements of `elem` bytes, no more bytes than `of` holds) of
 * the storage of `of`, which keeps owning it: a view is never released, and is good while
 * `of` lives. For scratch a solver lends to operations that never run at the same time
 * (host/solvers/pls.c, its scratch pool). */
lq_field lq_field_alias(const lq_field *of, const char *name, int nx, int ny, int nz, size_t elem);
size_t lq_field_bytes(const lq_field *f);
int lq_field_upload(lq_field *f, const void *src);
int lq_field_download(const lq_field *f, void *dst);
/* Part of a field: `bytes` bytes at byte offset `off` (within the field). */
int lq_field_write(lq_field *f, size_t off, size_t bytes, const void *src);
/* The same without waiting (no host wait counted): the queue copies src when it reaches
 * the write, so src must hold still until a later blocking wait on the queue. */
int lq_field_write_async(lq_field *f, size_t off, size_t bytes, const void *src);
/* A small write that needs neither a wait nor src to outlive the call (the queue fills
 * the bytes from a copy of src taken now): bytes a power of two up to 128, off a multiple
 * of it. For counters and flags. */
int lq_field_put(lq_field *f, size_t off, size_t bytes, const void *src);
int lq_field_read(const lq_field *f, size_t off, size_t bytes, void *dst);
/* Sets every byte of the first `bytes` bytes to zero (bytes == 0: the whole field). */
int lq_field_zero(lq_field *f, size_t bytes);

#endif
