/*
 * cl.c — OpenCL runtime (see cl.h for the invariants).
 *
 * Discovery uses clGetPlatformIDs/clGetDeviceIDs only, and the context is created
 * for the one chosen device: clCreateContextFromType is avoided because PoCL 3.1
 * returns a context handle together with CL_DEVICE_NOT_FOUND on GPU-less machines.
 */
#include "core/cl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lq_embedded_source {
    const char *name;
    const char *text;
};
extern const struct lq_embedded_source lq_embedded_sources[];

const char *lq_cl_error_name(cl_int err)
{
    switch (err) {
#define N(x)                                                                                       \
    case x:                                                                                        \
        return #x;
        N(CL_SUCCESS)
        N(CL_DEVICE_NOT_FOUND)
        N(CL_DEVICE_NOT_AVAILABLE)
        N(CL_COMPILER_NOT_AVAILABLE)
        N(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        N(CL_OUT_OF_RESOURCES)
        N(CL_OUT_OF_HOST_MEMORY)
        N(CL_PROFILING_INFO_NOT_AVAILABLE)
        N(CL_MEM_COPY_OVERLAP)
        N(CL_IMAGE_FORMAT_MISMATCH)
        N(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        N(CL_BUILD_PROGRAM_FAILURE)
        N(CL_MAP_FAILURE)
        N(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        N(CL_COMPILE_PROGRAM_FAILURE)
        N(CL_LINKER_NOT_AVAILABLE)
        N(CL_LINK_PROGRAM_FAILURE)
        N(CL_DEVICE_PARTITION_FAILED)
        N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        N(CL_INVALID_VALUE)
        N(CL_INVALID_DEVICE_TYPE)
        N(CL_INVALID_PLATFORM)
        N(CL_INVALID_DEVICE)
        N(CL_INVALID_CONTEXT)
        N(CL_INVALID_QUEUE_PROPERTIES)
        N(CL_INVALID_COMMAND_QUEUE)
        N(CL_INVALID_HOST_PTR)
        N(CL_INVALID_MEM_OBJECT)
        N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        N(CL_INVALID_IMAGE_SIZE)
        N(CL_INVALID_SAMPLER)
        N(CL_INVALID_BINARY)
        N(CL_INVALID_BUILD_OPTIONS)
        N(CL_INVALID_PROGRAM)
        N(CL_INVALID_PROGRAM_EXECUTABLE)
        N(CL_INVALID_KERNEL_NAME)
        N(CL_INVALID_KERNEL_DEFINITION)
        N(CL_INVALID_KERNEL)
        N(CL_INVALID_ARG_INDEX)
        N(CL_INVALID_ARG_VALUE)
        N(CL_INVALID_ARG_SIZE)
        N(CL_INVALID_KERNEL_ARGS)
        N(CL_INVALID_WORK_DIMENSION)
        N(CL_INVALID_WORK_GROUP_SIZE)
        N(CL_INVALID_WORK_ITEM_SIZE)
        N(CL_INVALID_GLOBAL_OFFSET)
        N(CL_INVALID_EVENT_WAIT_LIST)
        N(CL_INVALID_EVENT)
        N(CL_INVALID_OPERATION)
        N(CL_INVALID_GL_OBJECT)
        N(CL_INVALID_BUFFER_SIZE)
        N(CL_INVALID_MIP_LEVEL)
        N(CL_INVALID_GLOBAL_WORK_SIZE)
        N(CL_INVALID_PROPERTY)
        N(CL_INVALID_IMAGE_DESCRIPTOR)
        N(CL_INVALID_COMPILER_OPTIONS)
        N(CL_INVALID_LINKER_OPTIONS)
        N(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef N
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)";
    default:
        return "unknown OpenCL error";
    }
}

int lq_cl_fail(const char *file, int line, const char *call, const char *what, cl_int err)
{
    /* Keep only the function name of the call expression. */
    char fn[64];
    size_t k = 0;
    while (call[k] && call[k] != '(' && k + 1 < sizeof fn) {
        fn[k] = call[k];
        k++;
    }
    fn[k] = '\0';
    return lq_error(LQ_ESIM, "%s:%d: %s(%s) failed: %s (%d)", file, line, fn, what ? what : "",
                    lq_cl_error_name(err), (int)err);
}

static void lq_cl_str(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, n, buf, NULL) != CL_SUCCESS) buf[0] = '\0';
    buf[n - 1] = '\0';
}

static void lq_cl_describe(lq_cl_device *dv)
{
    cl_device_id d = dv->device;
    lq_cl_str(d, CL_DEVICE_NAME, dv->name, sizeof dv->name);
    lq_cl_str(d, CL_DEVICE_VERSION, dv->version, sizeof dv->version);
    lq_cl_str(d, CL_DEVICE_OPENCL_C_VERSION, dv->c_version, sizeof dv->c_version);
    lq_cl_str(d, CL_DRIVER_VERSION, dv->driver, sizeof dv->driver);
    if (clGetPlatformInfo(dv->platform, CL_PLATFORM_NAME, sizeof dv->platform_name,
                          dv->platform_name, NULL) != CL_SUCCESS)
        dv->platform_name[0] = '\0';
    dv->platform_name[sizeof dv->platform_name - 1] = '\0';
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof dv->type, &dv->type, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof dv->global_mem, &dv->global_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof dv->max_alloc, &dv->max_alloc, NULL);
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dv->local_mem, &dv->local_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof dv->compute_units, &dv->compute_units,
                    NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dv->max_work_group,
                    &dv->max_work_group, NULL);
    size_t len = 0;
    char *ext = NULL;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &len) == CL_SUCCESS && len > 0 &&
        (ext = malloc(len + 1)) != NULL &&
        clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS) {
        ext[len] = '\0';
        dv->int64_atomics = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
        dv->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    }
    free(ext);
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(d, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
    dv->correct_divide = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
}

int lq_cl_devices(lq_cl_device **devs, int *n)
{
    int rc = LQ_OK;
    cl_uint np = 0;
    cl_platform_id *plats = NULL;
    lq_cl_device *out = NULL;
    int count = 0, cap = 0;
    *devs = NULL;
    *n = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &np);
    if (e == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || np == 0) return LQ_OK;
    LQ_CL_CHECK(e, "count platforms");
    plats = lq_calloc(np, sizeof *plats);
    if (!plats) return LQ_ESIM;
    LQ_CL_CHECK(clGetPlatformIDs(np, plats, NULL), "list platforms");
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        e = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (e != CL_SUCCESS || nd == 0) continue;
        cl_device_id *ids = lq_calloc(nd, sizeof *ids);
        if (!ids) {
            rc = LQ_ESIM;
            goto fail;
        }
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL) == CL_SUCCESS) {
            for (cl_uint d = 0; d < nd; d++) {
                if (count == cap) {
                    cap = cap ? 2 * cap : 8;
                    lq_cl_device *grown = realloc(out, (size_t)cap * sizeof *out);
                    if (!grown) {
                        free(ids);
                        rc = lq_error(LQ_ESIM, "out of host memory listing devices");
                        goto fail;
                    }
                    out = grown;
                }
                lq_cl_device *dv = &out[count++];
                memset(dv, 0, sizeof *dv);
                dv->platform_index = (int)p;
                dv->device_index = (int)d;
                dv->platform = plats[p];
                dv->device = ids[d];
                lq_cl_describe(dv);
            }
        }
        free(ids);
    }
    free(plats);
    *devs = out;
    *n = count;
    return LQ_OK;
fail:
    free(plats);
    free(out);
    return rc;
}

int lq_cl_choose(const char *spec, lq_cl_device *dev, bool *use_ref)
{
    lq_cl_device *devs = NULL;
    int n = 0, rc;
    *use_ref = false;
    if (strcmp(spec, "ref") == 0) {
        *use_ref = true;
        return LQ_OK;
    }
    bool is_auto = strcmp(spec, "auto") == 0;
    int want_p = -1, want_d = -1;
    if (!is_auto) {
        if (strcmp(spec, "opencl") == 0) {
            want_p = want_d = -2; /* first OpenCL device */
        } else {
            char tail;
            if (sscanf(spec, "opencl:%d.%d%c", &want_p, &want_d, &tail) != 2 || want_p < 0 ||
                want_d < 0)
                return lq_error(LQ_EINPUT,
                                "--device %s: expected auto, ref, opencl or opencl:P.D "
                                "(P.D as listed by `liquidcl info`)",
                                spec);
        }
    }
    rc = lq_cl_devices(&devs, &n);
    if (rc) return rc;
    int pick = -1;
    if (is_auto) {
        for (int i = 0; i < n && pick < 0; i++)
            if (devs[i].type & CL_DEVICE_TYPE_GPU) pick = i;
        if (pick < 0 && n > 0) pick = 0;
        if (pick < 0) *use_ref = true;
    } else if (want_p == -2) {
        if (n > 0) pick = 0;
    } else {
        for (int i = 0; i < n; i++)
            if (devs[i].platform_index == want_p && devs[i].device_index == want_d) pick = i;
    }
    if (pick < 0 && !*use_ref) {
        free(devs);
        if (n == 0)
            return lq_error(LQ_EINPUT,
                            "--device %s: no OpenCL device found (install pocl-opencl-icd for "
                            "the CPU, or a GPU driver; --device ref runs without OpenCL)",
                            spec);
        return lq_error(LQ_EINPUT, "--device %s: no such device (`liquidcl info` lists them)",
                        spec);
    }
    if (pick >= 0) *dev = devs[pick];
    free(devs);
    return LQ_OK;
}

int lq_cl_open(lq_cl *cl, const lq_cl_device *dev)
{
    int rc = LQ_OK;
    cl_int e = CL_SUCCESS;
    memset(cl, 0, sizeof *cl);
    cl->dev = *dev;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    cl_context ctx = clCreateContext(props, 1, &dev->device, NULL, NULL, &e);
    LQ_CL_CHECK(e, dev->name);
    cl->context = ctx;
    cl_command_queue q =
        clCreateCommandQueue(cl->context, dev->device, CL_QUEUE_PROFILING_ENABLE, &e);
    LQ_CL_CHECK(e, dev->name);
    cl->queue = q;
    return LQ_OK;
fail:
    lq_cl_close(cl);
    return rc;
}

void lq_cl_close(lq_cl *cl)
{
    if (cl->queue) {
        clFinish(cl->queue);
        clReleaseCommandQueue(cl->queue);
    }
    if (cl->context) clReleaseContext(cl->context);
    cl->queue = NULL;
    cl->context = NULL;
}

static void lq_cl_mib(char *buf, size_t n, double bytes)
{
    snprintf(buf, n, "%.1f MiB", bytes / (1024.0 * 1024.0));
}

int lq_cl_memory_cap(size_t *cap)
{
    *cap = 0;
    const char *e = getenv("LIQUIDCL_DEVICE_MEMORY");
    if (!e || !*e) return LQ_OK;
    char *end = NULL;
    double v = strtod(e, &end);
    double unit = 1;
    if (end && (*end == 'K' || *end == 'k')) unit = 1024.0;
    if (end && (*end == 'M' || *end == 'm')) unit = 1024.0 * 1024.0;
    if (end && (*end == 'G' || *end == 'g')) unit = 1024.0 * 1024.0 * 1024.0;
    if (end && unit > 1) end++;
    if (end && (*end == 'i' || *end == 'I') && end[1] == 'B') end += 2; /* "3GiB" */
    if (end == e || !end || *end || !(v > 0) || v * unit > 1e18)
        return lq_error(LQ_EINPUT,
                        "LIQUIDCL_DEVICE_MEMORY=%s: expected bytes, or a number with K, M or G "
                        "(\"3G\")",
                        e);
    *cap = (size_t)(v * unit);
    return LQ_OK;
}

int lq_cl_reserve(lq_cl *cl, const char *what, int count, const size_t *bytes)
{
    size_t total = 0, largest = 0, cap = 0;
    char a[32], b[32], c[32];
    int rc = lq_cl_memory_cap(&cap);
    if (rc) return rc;
    for (int i = 0; i < count; i++) {
        total += bytes[i];
        largest = LQ_MAX(largest, bytes[i]);
    }
    if (largest > cl->dev.max_alloc) {
        lq_cl_mib(a, sizeof a, (double)largest);
        lq_cl_mib(b, sizeof b, (double)cl->dev.max_alloc);
        return lq_error(LQ_EINPUT,
                        "%s needs a %s buffer but %s allows at most %s per buffer "
                        "(CL_DEVICE_MAX_MEM_ALLOC_SIZE); use a smaller grid or --device ref",
                        what, a, cl->dev.name, b);
    }
    if (cap > 0 && cl->reserved + total > cap) {
        lq_cl_mib(a, sizeof a, (double)(cl->reserved + total));
        lq_cl_mib(b, sizeof b, (double)cap);
        lq_cl_mib(c, sizeof c, (double)cl->dev.global_mem);
        return lq_error(LQ_EINPUT,
                        "%s needs %s (%zu bytes) of device memory but LIQUIDCL_DEVICE_MEMORY "
                        "allows %s (%s has %s); use a smaller grid",
                        what, a, cl->reserved + total, b, cl->dev.name, c);
    }
    if (cl->reserved + total > cl->dev.global_mem) {
        lq_cl_mib(a, sizeof a, (double)(cl->reserved + total));
        lq_cl_mib(b, sizeof b, (double)cl->dev.global_mem);
        return lq_error(LQ_EINPUT,
                        "%s needs %s (%zu bytes) of device memory but %s has %s; use a smaller "
                        "grid or --device ref",
                        what, a, cl->reserved + total, cl->dev.name, b);
    }
    cl->reserved += total;
    return LQ_OK;
}

const char *lq_cl_source(const char *name)
{
    for (const struct lq_embedded_source *s = lq_embedded_sources; s->name; s++)
        if (strcmp(s->name, name) == 0) return s->text;
    return NULL;
}

/* Reads the source `name` ("kernels/pls/reinit.cl") from LIQUIDCL_KERNEL_DIR: the
 * folder that stands for kernels/ ("DIR/pls/reinit.cl"), or a flat folder of copies
 * ("DIR/reinit.cl"); NULL when neither is there. */
static char *lq_cl_source_from_dir(const char *dir, const char *name)
{
    const char *base = strrchr(name, '/'), *rel = name;
    base = base ? base + 1 : name;
    if (strncmp(rel, "kernels/", 8) == 0) rel += 8;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(path, sizeof path, "%s/%s", dir, base);
        f = fopen(path, "rb");
    }
    if (!f) return NULL;
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1))) {
            if (fread(text, 1, (size_t)len, f) != (size_t)len) {
                free(text);
                text = NULL;
            } else {
                text[len] = '\0';
            }
        }
    }
    fclose(f);
    return text;
}

/* clBuildProgram with the process's stderr held: PoCL's compiler writes its warnings
 * there ("30 warnings generated."), which put a stray line before a later one-line error
 * (issue 19). They are passed on only with LIQUIDCL_BUILD_LOG=1; a failed build's log
 * goes into the error message (lq_cl_build). */
static cl_int lq_cl_build_quietly(cl_program prog, cl_device_id dev, const char *opts)
{
    const char *show = getenv("LIQUIDCL_BUILD_LOG");
    FILE *hold = show && *show && strcmp(show, "0") != 0 ? NULL : tmpfile();
    int saved = -1;
    fflush(stderr);
    if (hold) saved = dup(2);
    if (saved >= 0 && dup2(fileno(hold), 2) < 0) {
        close(saved);
        saved = -1;
    }
    cl_int e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
    if (saved >= 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
    }
    if (hold) fclose(hold);
    return e;
}

int lq_cl_build(lq_cl *cl, int nsources, const char *const *sources, const char *defines,
                cl_program *program)
{
    int rc = LQ_OK;
    cl_int e = CL_SUCCESS;
    char *text = NULL, *log = NULL;
    cl_program prog = NULL;
    const char *dir = getenv("LIQUIDCL_KERNEL_DIR");
    size_t cap = 1, len = 0;
    char *parts[16] = {0};
    if (nsources > 16) return lq_error(LQ_ESIM, "lq_cl_build: too many sources");
    for (int i = 0; i < nsources; i++) {
        const char *src = NULL;
        if (dir && *dir) parts[i] = lq_cl_source_from_dir(dir, sources[i]);
        src = parts[i] ? parts[i] : lq_cl_source(sources[i]);
        if (!src) {
            rc = lq_error(LQ_ESIM, "kernel source %s is not embedded in this binary", sources[i]);
            goto fail;
        }
        cap += strlen(src) + strlen(sources[i]) + 32;
    }
    text = lq_alloc(cap);
    if (!text) {
        rc = LQ_ESIM;
        goto fail;
    }
    text[0] = '\0';
    for (int i = 0; i < nsources; i++) {
        const char *src = parts[i] ? parts[i] : lq_cl_source(sources[i]);
        size_t start =
            len + (size_t)snprintf(text + len, cap - len, "#line 1 \"%s\"\n", sources[i]);
        len = start + (size_t)snprintf(text + start, cap - start, "%s\n", src);
        /* The sources are concatenated in dependency order, so local #include lines
         * become comments (same line count, #line stays right). */
        for (char *c = text + start; (c = strstr(c, "#include \"")) != NULL; c++)
            if (c == text + start || c[-1] == '\n') memcpy(c, "//", 2);
    }
    const char *srcs[1] = {text};
    prog = clCreateProgramWithSource(cl->context, 1, srcs, NULL, &e);
    if (e != CL_SUCCESS) {
        prog = NULL;
        LQ_CL_CHECK(e, sources[nsources - 1]);
    }
    char opts[1024];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s %s",
             cl->dev.correct_divide ? "-cl-fp32-correctly-rounded-divide-sqrt" : "",
             defines ? defines : "");
    e = lq_cl_build_quietly(prog, cl->dev.device, opts);
    if (e != CL_SUCCESS) {
        size_t loglen = 0;
        clGetProgramBuildInfo(prog, cl->dev.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
        log = lq_alloc(loglen + 1);
        if (log) {
            log[0] = '\0';
            clGetProgramBuildInfo(prog, cl->dev.device, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
            log[loglen] = '\0';
            /* One line: the build log's lines joined with " | ". */
            for (char *c = log; *c; c++)
                if (*c == '\n') *c = ' ';
        }
        rc = lq_error(LQ_ESIM, "%s:%d: clBuildProgram(%s) failed: %s: %s", __FILE__, __LINE__,
                      sources[nsources - 1], lq_cl_error_name(e), log ? log : "(no log)");
        goto fail;
    }
    *program = prog;
    free(text);
    for (int i = 0; i < nsources; i++) free(parts[i]);
    return LQ_OK;
fail:
    if (prog) clReleaseProgram(prog);
    free(text);
    free(log);
    for (int i = 0; i < nsources; i++) free(parts[i]);
    return rc;
}
