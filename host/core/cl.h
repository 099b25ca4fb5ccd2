/*
 * cl.h — the OpenCL runtime: device discovery and selection, one context and queue
 * per run, programs built from the embedded kernel sources with grid constants as
 * -D defines, checked buffer allocation, and CL errors as one line.
 *
 * Invariants:
 * - Every CL call goes through LQ_CL_CHECK (or records its own error): a failure
 *   becomes "file:line: clCall(what) failed: CL_ERROR_NAME" and LQ_ESIM.
 * - A handle that came back with an error is never released (PoCL 3.1 aborts when a
 *   context returned with CL_DEVICE_NOT_FOUND is released; STYLE.md).
 * - Buffers are checked against CL_DEVICE_MAX_MEM_ALLOC_SIZE and the device's global
 *   memory before anything is allocated (lq_cl_reserve).
 */
#ifndef LQ_CL_H
#define LQ_CL_H

#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/common.h"

typedef struct lq_cl_device {
    int platform_index, device_index; /* the P.D of --device opencl:P.D */
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char name[256];
    char platform_name[256];
    char version[128];   /* CL_DEVICE_VERSION */
    char c_version[128]; /* CL_DEVICE_OPENCL_C_VERSION */
    char driver[128];
    cl_ulong global_mem, max_alloc, local_mem;
    cl_uint compute_units;
    size_t max_work_group;
    bool int64_atomics;  /* cl_khr_int64_base_atomics */
    bool fp64;           /* cl_khr_fp64 */
    bool correct_divide; /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT */
} lq_cl_device;

typedef struct lq_cl {
    lq_cl_device dev;
    cl_context context;
    cl_command_queue queue; /* in order, profiling enabled */
    size_t reserved;        /* bytes promised by lq_cl_reserve */
} lq_cl;

/* Names a CL error code ("CL_OUT_OF_RESOURCES"). */
const char *lq_cl_error_name(cl_int err);

/* Records "FILE:LINE: CALL(WHAT) failed: NAME" and evaluates to LQ_ESIM. */
int lq_cl_fail(const char *file, int line, const char *call, const char *what, cl_int err);
#define LQ_CL_CHECK(call, what)                                                                    \
    do {                                                                                           \
        cl_int lq_e_ = (call);                                                                     \
        if (lq_e_ != CL_SUCCESS) {                                                                 \
            rc = lq_cl_fail(__FILE__, __LINE__, #call, (what), lq_e_);                             \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

/* All OpenCL devices of all platforms (an empty list when there is no platform).
 * Caller frees *devs. */
int lq_cl_devices(lq_cl_device **devs, int *n);

/* Device choice from --device: "auto" (GPU, else any OpenCL device, else the
 * reference path), "ref", "opencl" (first OpenCL device), "opencl:P.D".
 * On success *use_ref tells whether the reference path was chosen; otherwise *dev is
 * filled. Bad spec or missing device: LQ_EINPUT. */
int lq_cl_choose(const char *spec, lq_cl_device *dev, bool *use_ref);

int lq_cl_open(lq_cl *cl, const lq_cl_device *dev);
void lq_cl_close(lq_cl *cl);

/* Checks a plan of `count` buffers of the given sizes against the device limits and
 * records the total; LQ_EINPUT with a clear message when it cannot fit. The limit is
 * the device's global memory, or LIQUIDCL_DEVICE_MEMORY when that is set and smaller. */
int lq_cl_reserve(lq_cl *cl, const char *what, int count, const size_t *bytes);

/* LIQUIDCL_DEVICE_MEMORY: the device memory the reserves may promise, in bytes, or with
 * a K, M or G suffix (powers of 1024: "3G", "3072M"), to check that a run fits a smaller
 * card than this one. *cap gets 0 when it is unset; a bad value is LQ_EINPUT. */
int lq_cl_memory_cap(size_t *cap);

/* Builds a program from embedded sources (names as "kernels/hf/heightfield.cl"),
 * concatenated in order, each preceded by a #line directive; `defines` are extra
 * build options ("-DNX=512 -DNZ=512"). LIQUIDCL_KERNEL_DIR, when set, is a folder
 * the sources are read from instead (for edit-run loops). The build log is part of
 * the error on failure. */
int lq_cl_build(lq_cl *cl, int nsources, const char *const *sources, const char *defines,
                cl_program *program);

/* The text of an embedded source (NULL when unknown). */
const char *lq_cl_source(const char *name);

#endif
