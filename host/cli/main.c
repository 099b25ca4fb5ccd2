/*
 * main.c — the command line (DESIGN.md, "Command line"): run, check, info, bench,
 * diff, and `docs` (prints docs/SCENE.md). Exit codes: 0 success, 1 simulation or
 * device failure, 2 bad input. Errors are one line on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cl.h"
#include "core/common.h"
#include "core/version.h"
#include "io/vdb.h"
#include "cli/run.h"
#include "scene/scene.h"

static const char *const lq_main_usage =
    "usage:\n"
    "  liquidcl run   SCENE.yaml [--out DIR] [--device auto|ref|opencl[:P.D]] [--frames N]\n"
    "                 [--set KEY=VALUE]... [--quiet] [--resume | --resume-from FRAME] [--plan]\n"
    "                 [--grid NAME]   (a scene with grids: one grid; without: every grid)\n"
    "                 --plan: print the device-memory plan and stop before allocating\n"
    "  liquidcl check SCENE.yaml [--set KEY=VALUE]...   validate only, exit 0/2\n"
    "  liquidcl info                                     OpenCL platforms and devices\n"
    "  liquidcl bench [--device D] [--size N] [--reps N] [--json]\n"
    "                                                    per-kernel throughput table\n"
    "  liquidcl diff  SCENE.yaml [--frames N] [--device opencl[:P.D]] [--set KEY=VALUE]...\n"
    "                                                    reference vs OpenCL, per field\n"
    "  liquidcl docs                                     the scene key reference (Markdown)\n"
    "  liquidcl --version                                the version and the git commit\n";

typedef struct lq_main_args {
    const char *cmd, *scene, *out, *device, *grid;
    int frames, size, reps;
    bool json, quiet, resume, plan;
    bool resume_pick; /* --resume-from FRAME */
    int resume_frame;
    int nsets;
    const char **sets; /* argc entries: any number of --set flags */
} lq_main_args;

static int lq_main_parse_int(const char *flag, const char *v, int lo, int *out)
{
    char *end = NULL;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || x < lo || x > 1000000000)
        return lq_error(LQ_EINPUT, "%s %s: expected an integer >= %d", flag, v ? v : "", lo);
    *out = (int)x;
    return LQ_OK;
}

/* Flags may be written "--flag VALUE" or "--flag=VALUE". */
static int lq_main_parse(int argc, char **argv, lq_main_args *a)
{
    memset(a, 0, sizeof *a);
    if (argc < 2) return lq_error(LQ_EINPUT, "missing command (run, check, info, bench, diff)");
    a->sets = lq_calloc((size_t)argc, sizeof *a->sets);
    if (!a->sets) return LQ_ESIM;
    a->cmd = argv[1];
    for (int i = 2; i < argc; i++) {
        char *arg = argv[i], *val = NULL;
        char name[64];
        if (strncmp(arg, "--", 2) != 0) {
            if (a->scene)
                return lq_error(LQ_EINPUT, "unexpected argument '%s' (one scene per run)", arg);
            a->scene = arg;
            continue;
        }
        char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(name, sizeof name, "%.*s", (int)LQ_MIN(len, sizeof name - 1), arg);
        static const char *const known[] = {
            "--out",   "--device", "--frames", "--size", "--reps",        "--set", "--json",
            "--quiet", "--help",   "--resume", "--plan", "--resume-from", "--grid"};
        bool is_known = false;
        for (size_t q = 0; q < LQ_COUNT(known); q++) is_known |= strcmp(name, known[q]) == 0;
        if (!is_known) return lq_error(LQ_EINPUT, "unknown flag %s (see liquidcl --help)", name);
        bool takes = strcmp(name, "--json") && strcmp(name, "--quiet") && strcmp(name, "--help") &&
                     strcmp(name, "--resume") && strcmp(name, "--plan");
        if (takes) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                return lq_error(LQ_EINPUT, "%s needs a value", name);
        }
        int rc = LQ_OK;
        if (strcmp(name, "--out") == 0)
            a->out = val;
        else if (strcmp(name, "--device") == 0)
            a->device = val;
        else if (strcmp(name, "--grid") == 0)
            a->grid = val;
        else if (strcmp(name, "--frames") == 0)
            rc = lq_main_parse_int(name, val, 1, &a->frames);
        else if (strcmp(name, "--size") == 0)
            rc = lq_main_parse_int(name, val, 16, &a->size);
        else if (strcmp(name, "--reps") == 0)
            rc = lq_main_parse_int(name, val, 1, &a->reps);
        else if (strcmp(name, "--set") == 0) {
            if (!strchr(val, '=')) return lq_error(LQ_EINPUT, "--set %s: expected KEY=VALUE", val);
            a->sets[a->nsets++] = val;
        } else if (strcmp(name, "--json") == 0)
            a->json = true;
        else if (strcmp(name, "--quiet") == 0)
            a->quiet = true;
        else if (strcmp(name, "--resume") == 0)
            a->resume = true;
        else if (strcmp(name, "--resume-from") == 0) {
            rc = lq_main_parse_int(name, val, 0, &a->resume_frame);
            a->resume = a->resume_pick = true;
        } else if (strcmp(name, "--plan") == 0)
            a->plan = true;
        else if (strcmp(name, "--help") == 0)
            a->cmd = "help";
        if (rc) return rc;
    }
    return LQ_OK;
}

static int lq_main_cmd_info(void)
{
    lq_cl_device *devs = NULL;
    int n = 0;
    int rc = lq_cl_devices(&devs, &n);
    if (rc) return rc;
    if (n == 0)
        printf("no OpenCL platform or device found: liquidcl will use the reference C path\n");
    int last_p = -1;
    for (int i = 0; i < n; i++) {
        lq_cl_device *d = &devs[i];
        if (d->platform_index != last_p) {
            printf("platform %d: %s\n", d->platform_index, d->platform_name);
            last_p = d->platform_index;
        }
        const char *type = d->type & CL_DEVICE_TYPE_GPU   ? "GPU"
                           : d->type & CL_DEVICE_TYPE_CPU ? "CPU"
                                                          : "other";
        printf("  device opencl:%d.%d  %s  (%s)\n", d->platform_index, d->device_index, d->name,
               type);
        printf("    %s; %s; driver %s\n", d->version, d->c_version, d->driver);
        printf(
            "    compute units %u, global memory %.1f MiB, max buffer %.1f MiB, local %.0f KiB\n",
            d->compute_units, (double)d->global_mem / 1048576.0, (double)d->max_alloc / 1048576.0,
            (double)d->local_mem / 1024.0);
        printf("    int64 atomics %s, fp64 %s, correctly rounded divide %s\n",
               d->int64_atomics ? "yes" : "no", d->fp64 ? "yes" : "no",
               d->correct_divide ? "yes" : "no");
    }
    lq_cl_device pick;
    bool use_ref = false;
    rc = lq_cl_choose("auto", &pick, &use_ref);
    if (!rc) {
        if (use_ref)
            printf("--device auto picks: the reference C path\n");
        else
            printf("--device auto picks: opencl:%d.%d (%s)\n", pick.platform_index,
                   pick.device_index, pick.name);
    }
    free(devs);
    return rc;
}

int main(int argc, char **argv)
{
    lq_main_args a;
    int rc = lq_main_parse(argc, argv, &a);
    if (!rc &&
        (strcmp(a.cmd, "help") == 0 || strcmp(a.cmd, "--help") == 0 || strcmp(a.cmd, "-h") == 0)) {
        fputs(lq_main_usage, stdout);
        free(a.sets);
        return 0;
    }
    if (!rc && (strcmp(a.cmd, "--version") == 0 || strcmp(a.cmd, "version") == 0)) {
        printf("liquidcl %s (OpenVDB output: %s)\n", lq_version(),
               lq_vdb_available() ? "yes" : "no, built without libopenvdb-dev");
        free(a.sets);
        return 0;
    }
    if (!rc) {
        static const char *const commands[] = {"run", "check", "info", "bench", "diff", "docs"};
        bool known = false;
        for (size_t q = 0; q < LQ_COUNT(commands); q++) known |= strcmp(a.cmd, commands[q]) == 0;
        if (!known)
            rc = lq_error(LQ_EINPUT, "unknown command '%s' (run, check, info, bench, diff, docs)",
                          a.cmd);
    }
    if (!rc) {
        bool needs_scene =
            strcmp(a.cmd, "run") == 0 || strcmp(a.cmd, "check") == 0 || strcmp(a.cmd, "diff") == 0;
        if (needs_scene && !a.scene)
            rc = lq_error(LQ_EINPUT, "%s needs a SCENE.yaml", a.cmd);
        else if (!needs_scene && a.scene)
            rc = lq_error(LQ_EINPUT, "%s takes no scene (got '%s')", a.cmd, a.scene);
    }
    if (!rc) {
        lq_run_opts ro = {a.scene,       a.out,          a.device ? a.device : "auto",
                          a.frames,      a.nsets,        a.sets,
                          a.quiet,       a.resume,       a.plan,
                          a.resume_pick, a.resume_frame, a.grid};
        if (strcmp(a.cmd, "run") == 0) {
            rc = lq_run(&ro);
        } else if (strcmp(a.cmd, "check") == 0) {
            rc = lq_run_check(&ro);
        } else if (strcmp(a.cmd, "info") == 0) {
            rc = lq_main_cmd_info();
        } else if (strcmp(a.cmd, "diff") == 0) {
            ro.device = a.device ? a.device : "opencl";
            ro.frames = a.frames ? a.frames : 5;
            rc = lq_diff(&ro);
        } else if (strcmp(a.cmd, "bench") == 0) {
            lq_bench_opts bo = {a.device, a.size, a.json, a.reps};
            rc = lq_bench(&bo);
        } else if (strcmp(a.cmd, "docs") == 0) {
            lq_scene_write_docs(stdout);
        } else {
            rc = lq_error(LQ_EINPUT, "unknown command '%s' (run, check, info, bench, diff)", a.cmd);
        }
    }
    if (rc) {
        fprintf(stderr, "%s\n", lq_error_message());
        if (rc == LQ_EINPUT && argc < 2) fputs(lq_main_usage, stderr);
    }
    free(a.sets);
    return rc;
}
