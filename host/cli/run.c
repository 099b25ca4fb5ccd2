/*
 * run.c — `liquidcl run`: load and check everything first, then create the output
 * folder and step frame by frame, writing stats.jsonl, meshes, fields and previews
 * (DESIGN.md, "Outputs"). Every file is written whole or not at all (io.h); a bad
 * scene, flag or file stops before anything is written (exit 2); a blow-up stops
 * after the last good frame with the frame, step and field named (exit 1).
 */
#include "cli/run.h"
#include "cli/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/band.h"
#include "io/checkpoint.h"
#include "core/common.h"
#include "core/field.h"
#include "core/input.h"
#include "core/interrupt.h"
#include "core/version.h"
#include "core/worker.h"
#include "views/hfview.h"
#include "io/io.h"
#include "views/meshout.h"
#include "views/objview.h"
#include "io/vdb.h"
#include "io/vtkxml.h"
#include "views/texmap.h"
#include "views/vdbframe.h"
#include "views/volview.h"
#include "scene/config.h"
#include "solvers/registry.h"

/* The solver's field that the file of field NAME holds, and whether negated: itself, or
 * with output.up z (io.h) the velocity along the file's turned axes, v the y-up run's −w
 * and w its v (a swap: the same call maps a solver's name to its file's). */
static const char *lq_run_field_source(const lq_config_output *out, const char *name, bool *negate)
{
    *negate = out->up_z && strcmp(name, "v") == 0;
    if (!out->up_z) return name;
    if (strcmp(name, "v") == 0) return "w";
    if (strcmp(name, "w") == 0) return "v";
    return name;
}

/* Checks output.fields against the solver's names (before anything is written). */
static int lq_run_check_output_fields(const lq_config *cfg, const lq_solver_vt *vt)
{
    const char *const *names = cfg->output.fields;
    bool neg;
    for (int i = 0; i < cfg->output.nfields; i++) {
        const char *src = lq_run_field_source(&cfg->output, names[i], &neg);
        bool known = false;
        for (const char *const *f = vt->fields; *f; f++) known |= strcmp(*f, src) == 0;
        if (!known) {
            char list[256] = "";
            for (const char *const *f = vt->fields; *f; f++) {
                strncat(list, list[0] ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, lq_run_field_source(&cfg->output, *f, &neg),
                        sizeof list - strlen(list) - 1);
            }
            return lq_config_error(cfg, cfg->output.at_fields,
                                   "solver '%s' has no field '%s' (it writes %s%s)", vt->name,
                                   names[i], list,
                                   cfg->output.up_z ? " with output.up z: u v w along the "
                                                      "z-up file's axes"
                                                    : "");
        }
    }
    /* output.vdb: a build with OpenVDB, and fields the solver has */
    if (cfg->output.nvdb > 0 && !lq_vdb_available())
        return lq_config_error(cfg, cfg->output.at_vdb,
                               "output.vdb: this liquidcl was built without OpenVDB (install "
                               "libopenvdb-dev, tools/packages.txt, and rebuild)");
    for (int i = 0; i < cfg->output.nvdb; i++) {
        const char *g = cfg->output.vdb[i];
        bool known = strcmp(g, "surface") == 0 || strcmp(g, "vel") == 0;
        for (const char *const *f = vt->fields; *f && !known; f++) known = strcmp(*f, g) == 0;
        if (!known || vt->height_field)
            return lq_config_error(cfg, cfg->output.at_vdb,
                                   "output.vdb: solver '%s' has no "
                                   "volume '%s'",
                                   vt->name, g);
    }
    return LQ_OK;
}

/* Removes frame files a previous run left in DIR/sub ("0123.ply", "h_0123.vtk") past
 * frame `keep` (-1: all of them, and the series files too), so the folder holds one run
 * only. */
static void lq_run_clear_frames(const char *dir, const char *sub, int keep)
{
    char path[4096 + 64];
    snprintf(path, sizeof path, "%.4000s/%s", dir, sub);
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name, *dot = strrchr(name, '.');
        if (!dot || strcmp(name, "terrain.ply") == 0) continue;
        /* the time series (vtkxml.h) are rewritten each frame: a new run drops the old */
        bool series = strcmp(dot, ".series") == 0 || strcmp(dot, ".pvd") == 0;
        if (series && keep >= 0) continue;
        if (!series && strcmp(dot, ".ply") && strcmp(dot, ".png") && strcmp(dot, ".vtk") &&
            strcmp(dot, ".vti") && strcmp(dot, ".vdb") && strcmp(dot, ".lqc"))
            continue;
        const char *digits = dot;
        while (digits > name && digits[-1] >= '0' && digits[-1] <= '9') digits--;
        if (!series && dot - digits < 4) continue;
        if (!series && atoi(digits) <= keep) continue;
        char full[4096 + 64 + 256];
        snprintf(full, sizeof full, "%s/%s", path, name);
        remove(full);
    }
    closedir(d);
}

/* A resumed run's PATH cut back to its first line (when `header`) and the lines whose
 * leading number (a frame) is at most `keep`: the kept text goes to a temporary file
 * that is renamed over PATH (io.h), so a kill at any moment leaves the old file or the
 * new one, never an empty one (a truncate-then-write left stats.jsonl empty beside a
 * good checkpoint, and the folder could not be resumed). */
static int lq_run_cut_lines(const char *path, bool header, const char *pattern, int keep)
{
    FILE *old = fopen(path, "rb");
    lq_file out;
    int rc = lq_file_open(&out, path);
    if (rc) {
        if (old) fclose(old);
        return rc;
    }
    if (old) {
        char line[8192];
        bool first = true;
        while (fgets(line, sizeof line, old)) {
            int frame = -1;
            bool keep_line = header && first;
            first = false;
            if (!keep_line && (sscanf(line, pattern, &frame) != 1 || frame > keep)) continue;
            if (fputs(line, out.f) == EOF) break;
        }
        fclose(old);
    }
    return lq_file_commit(&out);
}

/* Opens stats.jsonl for a resumed run: the lines of frames 0..keep stay, the rest go. */
static int lq_run_stats_reopen(lq_jsonl *j, const char *path, int keep)
{
    int rc = lq_run_cut_lines(path, false, "{\"frame\":%d", keep);
    return rc ? rc : lq_jsonl_append(j, path);
}

typedef struct lq_run_job lq_run_job;

/* The kinds of file a frame writes: each kind at its own rate (output.mesh_every, ...,
 * output.preview_every; output.every where unset); stats.jsonl and objects.csv every
 * frame. */
typedef struct lq_run_due {
    bool mesh, fields, particles, vdb, preview;
} lq_run_due;

static lq_run_due lq_run_due_of(const lq_config_output *out, int f)
{
    lq_run_due d = {
        .mesh = out->mesh && f % out->mesh_every == 0,
        .fields = out->nfields > 0 && f % out->fields_every == 0,
        .particles = out->particles && f % out->particles_every == 0,
        .vdb = out->nvdb > 0 && f % out->vdb_every == 0,
        .preview = out->preview && f % out->preview_every == 0,
    };
    return d;
}

static bool lq_run_due_any(const lq_run_due *d)
{
    return d->mesh || d->fields || d->particles || d->vdb || d->preview;
}

typedef struct lq_run_writer {
    const char *dir;
    const lq_config *cfg;
    const lq_solver_vt *vt; /* the solver (main thread: stepping, capture, checkpoints) */
    void *state;
    /* what the outputs read (the writer thread): a frame's host copies through the
     * solver's interface (lq_run_job_vt); ev = vt, es = state when written in place */
    lq_solver_vt job_vt;
    const lq_solver_vt *ev;
    void *es;
    lq_worker worker;
    lq_run_job *jobs; /* 3 in rotation (worker.h: one runs, one waits, one is filled) */
    int next_job;
    int werr; /* the writer's first failure, its message in wmsg */
    char wmsg[1024];
    pthread_mutex_t werr_lock;
    lq_jsonl stats;
    FILE *objects; /* objects.csv, when the solver has objects */
    bool preview_ready, vol_ready;
    lq_hfview_preview preview;
    lq_volview vol; /* previews of the 3D solvers */
    bool tex_ready; /* texture particles (pls.texture): their style, this frame's lookup */
    lq_texmap_style tex_style;
    lq_texmap tex;
} lq_run_writer;

static int lq_run_write_stats(lq_run_writer *w, int frame, double t, const lq_frame_stats *st,
                              double wall_ms, double output_ms)
{
    lq_jsonl *j = &w->stats;
    lq_jsonl_begin(j);
    lq_jsonl_int(j, "frame", frame);
    if (frame == 0) lq_jsonl_str(j, "version", lq_version());          /* the first line */
    if (frame == 0 && w->cfg->output.up_z) lq_jsonl_str(j, "up", "z"); /* io.h */
    lq_jsonl_num(j, "time", t);
    lq_jsonl_int(j, "steps", st->steps);
    lq_jsonl_num(j, "dt_min", st->steps ? st->dt_min : NAN);
    lq_jsonl_num(j, "liquid_volume", st->liquid_volume);
    lq_jsonl_num(j, "max_speed", st->max_speed);
    if (st->pressure_iterations < 0)
        lq_jsonl_null(j, "pressure_iterations");
    else
        lq_jsonl_int(j, "pressure_iterations", st->pressure_iterations);
    lq_jsonl_num(j, "pressure_residual", st->pressure_residual);
    lq_jsonl_num(j, "wall_ms", wall_ms);
    lq_jsonl_num(j, "output_ms", output_ms);
    for (int i = 0; i < st->nextra; i++) lq_jsonl_num(j, st->extra[i].key, st->extra[i].value);
    return lq_jsonl_end(j);
}

/* One line per object per frame: objects.csv (header written when the file opens). */
static int lq_run_write_objects(lq_run_writer *w, int frame, double t)
{
    if (!w->objects) return LQ_OK;
    const lq_object_record *r;
    int n = 0;
    int rc = w->ev->objects(w->es, &r, &n);
    for (int i = 0; i < n && !rc; i++) {
        double pos[3], q[4], vel[3], om[3];
        for (int a = 0; a < 3; a++) {
            pos[a] = r[i].pos[a];
            vel[a] = r[i].vel[a];
            om[a] = r[i].omega[a];
        }
        for (int a = 0; a < 4; a++) q[a] = r[i].q[a];
        if (w->cfg->output.up_z) { /* io.h: turned +90° about x */
            lq_io_to_z_up(pos);
            lq_io_to_z_up(vel);
            lq_io_to_z_up(om);
            /* the orientation (body → world) followed by the turn: (c, c, 0, 0) ⊗ q, c = √½ */
            const double c = sqrt(0.5), q0[4] = {q[0], q[1], q[2], q[3]};
            q[0] = c * (q0[0] - q0[1]);
            q[1] = c * (q0[1] + q0[0]);
            q[2] = c * (q0[2] - q0[3]);
            q[3] = c * (q0[3] + q0[2]);
        }
        fprintf(
            w->objects,
            "%d,%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
            frame, t, r[i].name, pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3], vel[0], vel[1],
            vel[2], om[0], om[1], om[2], r[i].force);
    }
    if (!rc && fflush(w->objects) != 0)
        rc = lq_error(LQ_ESIM, "%s/objects.csv: cannot write", w->dir);
    return rc;
}

/* Opens objects.csv: fresh with its header, or (resuming) keeping frames 0..keep. */
static int lq_run_objects_open(lq_run_writer *w, bool resume, int keep)
{
    char path[4096 + 32];
    snprintf(path, sizeof path, "%s/objects.csv", w->dir);
    struct stat st;
    if (resume && stat(path, &st) == 0) {
        int rc = lq_run_cut_lines(path, true, "%d,", keep);
        if (rc) return rc;
        w->objects = fopen(path, "ab");
        return w->objects ? LQ_OK : lq_error(LQ_ESIM, "%s: cannot write", path);
    }
    w->objects = fopen(path, "wb");
    if (!w->objects) return lq_error(LQ_ESIM, "%s: cannot write", path);
    fputs("frame,time,object,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,force\n", w->objects);
    return fflush(w->objects) == 0 ? LQ_OK : lq_error(LQ_ESIM, "%s: cannot write", path);
}

/* Texture particles (pls.texture, Rasmussen et al. §6; none: *tex = NULL): with
 * output.particles (when due) written as particles/texture_NNNN.ply (x y z rest_x rest_y rest_z);
 * when `bin`, binned over the domain for the mesh's rest coordinates and the preview's
 * texture (views/texmap.h). */
static int lq_run_texture(lq_run_writer *w, int frame, bool particles, bool bin, lq_texmap **tex)
{
    const lq_config_grid *g = &w->cfg->grid;
    lq_points_view tp;
    *tex = NULL;
    int rc = w->ev->texture ? w->ev->texture(w->es, &tp) : LQ_OK;
    if (rc || !w->ev->texture || tp.n == 0) return rc;
    char path[4096 + 128];
    snprintf(path, sizeof path, "%s/particles/texture_%04d.ply", w->dir, frame);
    if (particles) rc = lq_ply_write(path, tp.n, tp.nprops, tp.names, tp.columns, 0, NULL);
    double hi[3];
    for (int a = 0; a < 3; a++) hi[a] = g->origin[a] + g->size[a] * g->cell;
    if (!rc && bin && !w->tex_ready) {
        rc = lq_texmap_style_init(&w->tex_style, w->cfg, g->origin, hi);
        w->tex_ready = rc == LQ_OK;
    }
    int k = w->cfg->pls.texture.neighbours;
    if (k == 0) k = g->size[2] == 1 ? 16 : 64;
    if (!rc && bin)
        rc = lq_texmap_build(&w->tex, tp.n, tp.columns, g->origin, hi, g->cell, k, 4 * g->cell);
    if (!rc && bin) *tex = &w->tex;
    return rc;
}

/* The preview's stamp (views/stamp.h): the frame and its simulated time, unless
 * output.preview_stamp is false. */
static void lq_run_stamp(const lq_run_writer *w, int frame, char *stamp, size_t n)
{
    stamp[0] = 0;
    if (w->cfg->output.preview_stamp)
        snprintf(stamp, n, "frame %d  t %.3f s", frame, frame / w->cfg->time.fps);
}

/* The 3D solvers: the surface of phi < 0 (their "phi" field) as a mesh, and a
 * ray-marched preview with obstacle cells ("solid") and objects. */
static int lq_run_write_frame_3d(lq_run_writer *w, int frame, const lq_run_due *d,
                                 const lq_view_object *views, int nobj, const lq_points_view *pts)
{
    const bool mesh = d->mesh, preview = d->preview;
    char path[4096 + 128];
    lq_field_view vp, vs;
    lq_texmap *tex = NULL;
    int rc = lq_run_texture(w, frame, d->particles, mesh || preview, &tex);
    if (!rc && !mesh && !preview) return LQ_OK;
    if (!rc) rc = w->ev->view(w->es, "phi", &vp);
    if (rc) {
        lq_texmap_free(&w->tex);
        return rc;
    }
    size_t n = (size_t)vp.dims[0] * vp.dims[1] * vp.dims[2];
    float *phi = lq_alloc(n * sizeof *phi);
    uint8_t *solid = lq_alloc(n);
    if (!phi || !solid) rc = LQ_ESIM;
    if (!rc) memcpy(phi, vp.data, n * sizeof *phi);
    if (!rc) rc = w->ev->view(w->es, "solid", &vs);
    for (size_t c = 0; c < n && !rc; c++) solid[c] = vs.data[c] > 0.5f;
    /* the grid's lower corner, as mcubes.h and volview take it (a view's origin is its
     * first sample, the first cell centre: passed as is, every mesh sat ½ h high on each
     * axis, tests/cli/cli_mesh_position.sh) */
    double origin[3];
    for (int a = 0; a < 3; a++) origin[a] = vp.origin[a] - 0.5 * vp.spacing[a];
    if (!rc && mesh) {
        /* the velocity per vertex (motion blur): the face grids, copied (a view lasts until
         * the next) */
        float *uvw[3] = {NULL, NULL, NULL};
        for (int a = 0; a < 3 && !rc; a++) {
            lq_field_view vf;
            const char nm[2] = {(char)('u' + a), 0};
            rc = w->ev->view(w->es, nm, &vf);
            size_t nf = (size_t)vf.dims[0] * vf.dims[1] * vf.dims[2];
            if (!rc && !(uvw[a] = lq_alloc(nf * sizeof(float)))) rc = LQ_ESIM;
            if (!rc) memcpy(uvw[a], vf.data, nf * sizeof(float));
        }
        lq_meshout_vel vel = {uvw[0], uvw[1], uvw[2]};
        snprintf(path, sizeof path, "%s/mesh/%04d.ply", w->dir, frame);
        if (!rc)
            rc = lq_meshout_write(path, vp.dims[0], vp.dims[1], vp.dims[2], origin, vp.spacing, phi,
                                  &vel, tex, tex ? &w->tex_style : NULL);
        for (int a = 0; a < 3; a++) free(uvw[a]);
    }
    if (!rc && preview) {
        if (!w->vol_ready) {
            const lq_config_output *out = &w->cfg->output;
            rc = lq_volview_init(&w->vol, vp.dims[0], vp.dims[1], vp.dims[2], origin, vp.spacing,
                                 out->preview_width);
            w->vol_ready = rc == LQ_OK;
            w->vol.azimuth = out->preview_azimuth;
            w->vol.elevation = out->preview_elevation;
            w->vol.distance = out->preview_distance;
        }
        snprintf(path, sizeof path, "%s/preview/%04d.png", w->dir, frame);
        /* spray and foam over the liquid (columns x y z ... kind, as the solver names them) */
        int kind = -1;
        for (int i = 0; pts && i < pts->nprops; i++)
            if (strcmp(pts->names[i], "kind") == 0) kind = i;
        if (!rc && kind >= 0 && pts->n > 0)
            lq_volview_points(&w->vol, pts->n, pts->columns[0], pts->columns[1], pts->columns[2],
                              pts->columns[kind]);
        if (!rc && tex) rc = lq_volview_texture(&w->vol, tex, &w->tex_style);
        lq_run_stamp(w, frame, w->vol.stamp, sizeof w->vol.stamp);
        if (!rc) rc = lq_volview_render(&w->vol, path, phi, solid, views, nobj);
    }
    lq_texmap_free(&w->tex);
    free(phi);
    free(solid);
    return rc;
}

/* output.up z (io.h): the field view v turned to z up, its data a new grid (*data, for
 * the caller to free) on the turned axes: axis x stays, y is the old −z (its order
 * reversed), z the old y; the values negated when `negate`, the view named `name`. */
static int lq_run_field_z_up(lq_field_view *v, const char *name, bool negate, float **data)
{
    const int n0 = v->dims[0], n1 = v->dims[1], n2 = v->dims[2];
    const size_t n = (size_t)n0 * n1 * n2;
    float *t = lq_alloc(LQ_MAX(n, 1) * sizeof *t);
    if (!(*data = t)) return LQ_ESIM;
    for (int k = 0; k < n2; k++)
        for (int j = 0; j < n1; j++) {
            const float *row = v->data + (size_t)n0 * (j + (size_t)n1 * k);
            float *dst = t + (size_t)n0 * ((size_t)(n2 - 1 - k) + (size_t)n2 * j);
            for (int i = 0; i < n0; i++) dst[i] = negate ? -row[i] : row[i];
        }
    const double o[3] = {v->origin[0], v->origin[1], v->origin[2]};
    const double s[3] = {v->spacing[0], v->spacing[1], v->spacing[2]};
    v->dims[1] = n2;
    v->dims[2] = n1;
    v->origin[1] = -(o[2] + (n2 - 1) * s[2]);
    v->origin[2] = o[1];
    v->spacing[1] = s[2];
    v->spacing[2] = s[1];
    v->name = name;
    v->data = t;
    return LQ_OK;
}

static int lq_run_write_frame(lq_run_writer *w, int frame, double t, const lq_run_due *d)
{
    char path[4096 + 128];
    int rc = LQ_OK;
    const lq_config_output *out = &w->cfg->output;
    const char *const *names = out->fields;
    const bool vti = out->fields_vti;
    const double fps = w->cfg->time.fps;
    for (int i = 0; i < out->nfields && d->fields && !rc; i++) {
        lq_field_view v;
        char pattern[128];
        bool neg;
        rc = w->ev->view(w->es, lq_run_field_source(out, names[i], &neg), &v);
        float *turned = NULL;
        if (!rc && out->up_z) rc = lq_run_field_z_up(&v, names[i], neg, &turned);
        snprintf(path, sizeof path, "%s/fields/%s_%04d.%s", w->dir, names[i], frame,
                 vti ? "vti" : "vtk");
        if (!rc)
            rc = vti ? lq_vti_write(path, v.name, v.dims, v.origin, v.spacing, v.data)
                     : lq_vtk_write(path, v.name, v.dims[0], v.dims[1], v.dims[2], v.origin,
                                    v.spacing, v.data);
        free(turned);
        /* the series with each frame's simulated time, for ParaView */
        snprintf(pattern, sizeof pattern, "%s_%%04d.%s", names[i], vti ? "vti" : "vtk");
        snprintf(path, sizeof path, "%s/fields/%s.%s", w->dir, names[i],
                 vti ? "pvd" : "vtk.series");
        if (!rc)
            rc = lq_series_write(path, vti ? LQ_SERIES_PVD : LQ_SERIES_JSON, pattern, frame,
                                 out->fields_every, fps);
    }
    if (!rc && d->mesh) {
        snprintf(path, sizeof path, "%s/mesh/mesh.ply.series", w->dir);
        rc = lq_series_write(path, LQ_SERIES_JSON, "%04d.ply", frame, out->mesh_every, fps);
    }
    if (rc) return rc;

    /* Particles and objects (solvers that have them). */
    const bool mesh = d->mesh, preview = d->preview;
    lq_points_view pts;
    memset(&pts, 0, sizeof pts);
    const lq_object_record *objs = NULL;
    int nobj = 0;
    if (w->ev->points && (preview || d->particles)) rc = w->ev->points(w->es, &pts);
    if (!rc && w->ev->objects) rc = w->ev->objects(w->es, &objs, &nobj);
    if (!rc && w->ev->points && d->particles) {
        snprintf(path, sizeof path, "%s/particles/%04d.ply", w->dir, frame);
        rc = lq_ply_write(path, pts.n, pts.nprops, pts.names, pts.columns, 0, NULL);
    }
    lq_view_object views[64];
    nobj = LQ_MIN(nobj, 64);
    for (int i = 0; i < nobj; i++) views[i] = objs[i].view;
    if (!rc && mesh && nobj > 0) {
        snprintf(path, sizeof path, "%s/mesh/objects_%04d.ply", w->dir, frame);
        rc = lq_objview_write_mesh(path, views, nobj);
    }
    if (rc) return rc;
    if (!w->ev->height_field && d->vdb) {
        snprintf(path, sizeof path, "%s/vdb/%04d.vdb", w->dir, frame);
        rc = lq_vdbframe_write(path, w->ev, w->es, w->ev->phi_distance, out->vdb, out->nvdb);
        if (rc) return rc;
    }
    if (!w->ev->height_field) return lq_run_write_frame_3d(w, frame, d, views, nobj, &pts);

    /* Height fields: surface mesh and preview from host copies of h, b, u, w. */
    if (!mesh && !preview) return LQ_OK;
    lq_field_view vh, vb, vu, vw;
    rc = w->ev->view(w->es, "h", &vh);
    if (!rc) rc = w->ev->view(w->es, "b", &vb);
    if (rc) return rc;
    int nx = vh.dims[0], nz = vh.dims[2];
    double dx = vh.spacing[0];
    double origin[3] = {vh.origin[0] - 0.5 * dx, vh.origin[1], vh.origin[2] - 0.5 * dx};
    size_t n = (size_t)nx * (size_t)nz;
    float *uc = NULL, *wc = NULL;
    if (mesh) {
        uc = lq_alloc(n * sizeof *uc);
        wc = lq_alloc(n * sizeof *wc);
        if (!uc || !wc) rc = LQ_ESIM;
        if (!rc) rc = w->ev->view(w->es, "uc", &vu);
        if (!rc) memcpy(uc, vu.data, n * sizeof *uc);
        if (!rc) rc = w->ev->view(w->es, "wc", &vw);
        if (!rc) memcpy(wc, vw.data, n * sizeof *wc);
        snprintf(path, sizeof path, "%s/mesh/%04d.ply", w->dir, frame);
        if (!rc)
            rc = lq_hfview_write_surface(path, nx, nz, dx, origin, vh.data, vb.data, 0.0f, uc, wc);
    }
    if (!rc && preview) {
        if (!w->preview_ready) {
            rc = lq_hfview_preview_init(&w->preview, nx, nz, dx, origin, out->preview_width, 0);
            w->preview_ready = rc == LQ_OK;
            w->preview.azimuth = out->preview_azimuth;
            w->preview.elevation = out->preview_elevation;
            w->preview.distance = out->preview_distance;
            w->preview.frame_all = out->preview_frame_all;
        }
        snprintf(path, sizeof path, "%s/preview/%04d.png", w->dir, frame);
        lq_run_stamp(w, frame, w->preview.stamp, sizeof w->preview.stamp);
        if (!rc)
            rc = lq_hfview_preview_render_scene(
                &w->preview, path, t, vh.data, vb.data, 0.0f, views, nobj,
                pts.n ? pts.columns[0] : NULL, pts.n ? pts.columns[1] : NULL,
                pts.n ? pts.columns[2] : NULL, pts.n, (float)(0.3 * dx));
    }
    free(uc);
    free(wc);
    return rc;
}

/* --- the writer: a frame's outputs written while the next frame steps ---------------------- */

/* One frame for the writer: its stats, and (when the frame is written) host copies of
 * every field, point set, object and texture particle the outputs read, taken through the
 * solver's interface on the main thread (lq_run_capture) and handed to the outputs through
 * the same interface (lq_run_job_vt), so the output code is the same either way. */
#define LQ_RUN_JOB_VIEWS 24
struct lq_run_job {
    int frame;
    double t, wall_ms, capture_ms;
    lq_run_due due; /* the frame's files; stats and objects.csv always */
    lq_frame_stats st;
    int nviews;
    struct lq_run_job_view {
        char name[16];
        lq_field_view v;
        float *data; /* owned */
        size_t cap;
    } views[LQ_RUN_JOB_VIEWS];
    struct lq_run_job_points {
        bool has;
        lq_points_view v;
        char names[LQ_POINTS_MAX_PROPS][16];
        const char *namep[LQ_POINTS_MAX_PROPS];
        float *cols[LQ_POINTS_MAX_PROPS]; /* owned */
        size_t cap;
    } pts, tex;
    bool has_objs;
    int nobj;
    lq_object_record objs[64];
};

static void lq_run_job_free(lq_run_job *j)
{
    for (int i = 0; i < LQ_RUN_JOB_VIEWS; i++) free(j->views[i].data);
    for (int c = 0; c < LQ_POINTS_MAX_PROPS; c++) {
        free(j->pts.cols[c]);
        free(j->tex.cols[c]);
    }
}

static int lq_run_job_view(void *state, const char *name, lq_field_view *v)
{
    lq_run_job *j = state;
    for (int i = 0; i < j->nviews; i++)
        if (strcmp(j->views[i].name, name) == 0) {
            *v = j->views[i].v;
            return LQ_OK;
        }
    return lq_error(LQ_ESIM, "frame %d: the writer has no copy of field '%s'", j->frame, name);
}

static int lq_run_job_points(void *state, lq_points_view *pv)
{
    *pv = ((lq_run_job *)state)->pts.v;
    return LQ_OK;
}

static int lq_run_job_texture(void *state, lq_points_view *pv)
{
    *pv = ((lq_run_job *)state)->tex.v;
    return LQ_OK;
}

static int lq_run_job_objects(void *state, const lq_object_record **rec, int *n)
{
    lq_run_job *j = state;
    *rec = j->objs;
    *n = j->nobj;
    return LQ_OK;
}

/* Copies the solver's view `name` into the job (once). */
static int lq_run_capture_view(lq_run_writer *w, lq_run_job *j, const char *name)
{
    for (int i = 0; i < j->nviews; i++)
        if (strcmp(j->views[i].name, name) == 0) return LQ_OK;
    if (j->nviews == LQ_RUN_JOB_VIEWS)
        return lq_error(LQ_ESIM, "frame %d: more than %d fields to write", j->frame,
                        LQ_RUN_JOB_VIEWS);
    lq_field_view v;
    int rc = w->vt->view(w->state, name, &v);
    if (rc) return rc;
    size_t n = (size_t)v.dims[0] * v.dims[1] * v.dims[2];
    struct lq_run_job_view *slot = &j->views[j->nviews];
    if (n > slot->cap) {
        free(slot->data);
        slot->cap = 0;
        if (!(slot->data = lq_alloc(n * sizeof(float)))) return LQ_ESIM;
        slot->cap = n;
    }
    memcpy(slot->data, v.data, n * sizeof(float));
    snprintf(slot->name, sizeof slot->name, "%s", name);
    slot->v = v;
    slot->v.name = slot->name;
    slot->v.data = slot->data;
    j->nviews++;
    return LQ_OK;
}

static int lq_run_capture_points(struct lq_run_job_points *p, const lq_points_view *v)
{
    size_t n = (size_t)LQ_MAX(v->n, 0);
    p->has = true;
    p->v = *v;
    for (int c = 0; c < v->nprops && c < LQ_POINTS_MAX_PROPS; c++) {
        if (n > p->cap || !p->cols[0]) { /* (room for one at least: a column, even empty) */
            for (int q = 0; q < LQ_POINTS_MAX_PROPS; q++) {
                free(p->cols[q]);
                p->cols[q] = NULL;
            }
            p->cap = 0;
            for (int q = 0; q < LQ_POINTS_MAX_PROPS; q++)
                if (!(p->cols[q] = lq_alloc(LQ_MAX(n, 1) * sizeof(float)))) return LQ_ESIM;
            p->cap = LQ_MAX(n, 1);
        }
        if (n) memcpy(p->cols[c], v->columns[c], n * sizeof(float));
        snprintf(p->names[c], sizeof p->names[c], "%s", v->names[c]);
        p->namep[c] = p->names[c];
        p->v.columns[c] = p->cols[c];
    }
    p->v.names = p->namep;
    return LQ_OK;
}

/* The host copies frame j->frame's outputs will read (the names lq_run_write_frame asks
 * for, which this list must follow). */
static int lq_run_capture(lq_run_writer *w, lq_run_job *j)
{
    const lq_config_output *out = &w->cfg->output;
    const lq_solver_vt *vt = w->vt;
    const lq_run_due *d = &j->due;
    const bool mesh = d->mesh, hf = vt->height_field, preview = d->preview;
    int rc = LQ_OK;
    j->nviews = 0;
    j->pts.has = j->tex.has = j->has_objs = false;
    j->nobj = 0;
    if (vt->objects) { /* objects.csv every frame */
        const lq_object_record *r = NULL;
        rc = vt->objects(w->state, &r, &j->nobj);
        j->nobj = LQ_MIN(j->nobj, 64);
        if (!rc && j->nobj > 0) memcpy(j->objs, r, (size_t)j->nobj * sizeof *r);
        j->has_objs = true;
    }
    if (rc || !lq_run_due_any(d)) return rc;
    bool neg;
    for (int i = 0; i < out->nfields && d->fields && !rc; i++)
        rc = lq_run_capture_view(w, j, lq_run_field_source(out, out->fields[i], &neg));
    lq_points_view pv;
    if (!rc && vt->points && (preview || d->particles)) {
        rc = vt->points(w->state, &pv);
        if (!rc) rc = lq_run_capture_points(&j->pts, &pv);
    }
    if (hf) {
        const char *need[] = {"h", "b", "uc", "wc"};
        for (int i = 0; i < (mesh ? 4 : 2) && !rc && (mesh || preview); i++)
            rc = lq_run_capture_view(w, j, need[i]);
        return rc;
    }
    if (!rc && d->vdb) {
        const char *need[] = {"phi", "u", "v", "w"};
        for (int i = 0; i < 4 && !rc; i++) rc = lq_run_capture_view(w, j, need[i]);
        for (int i = 0; i < out->nvdb && !rc; i++)
            if (strcmp(out->vdb[i], "surface") && strcmp(out->vdb[i], "vel"))
                rc = lq_run_capture_view(w, j, out->vdb[i]);
    }
    if (!rc && vt->texture && (mesh || preview || d->particles)) {
        rc = vt->texture(w->state, &pv);
        if (!rc) rc = lq_run_capture_points(&j->tex, &pv);
    }
    if (!rc && (mesh || preview)) {
        const char *need[] = {"phi", "solid", "u", "v", "w"};
        for (int i = 0; i < (mesh ? 5 : 2) && !rc; i++) rc = lq_run_capture_view(w, j, need[i]);
    }
    return rc;
}

/* The writer's job: stats, objects.csv and, when written, the frame's files; the first
 * failure is kept (its message too: each thread has its own, core/common.h) for the main
 * thread, and later jobs do nothing. */
static void lq_run_emit(void *ctx, void *job)
{
    lq_run_writer *w = ctx;
    lq_run_job *j = job;
    w->es = j;
    pthread_mutex_lock(&w->werr_lock);
    int failed = w->werr;
    pthread_mutex_unlock(&w->werr_lock);
    if (failed) return;
    double t0 = lq_now();
    int rc = LQ_OK;
    if (lq_run_due_any(&j->due)) rc = lq_run_write_frame(w, j->frame, j->t, &j->due);
    double out_ms = j->capture_ms + (lq_now() - t0) * 1e3;
    if (!rc) rc = lq_run_write_stats(w, j->frame, j->t, &j->st, j->wall_ms, out_ms);
    if (!rc) rc = lq_run_write_objects(w, j->frame, j->t);
    if (rc) {
        pthread_mutex_lock(&w->werr_lock);
        w->werr = rc;
        snprintf(w->wmsg, sizeof w->wmsg, "%s", lq_error_message());
        pthread_mutex_unlock(&w->werr_lock);
        lq_error_clear();
    }
}

/* The writer's failure, if any, as this thread's error (LQ_OK when none). */
static int lq_run_writer_failed(lq_run_writer *w)
{
    pthread_mutex_lock(&w->werr_lock);
    int rc = w->werr ? lq_error_replace(w->werr, "%s", w->wmsg) : LQ_OK;
    pthread_mutex_unlock(&w->werr_lock);
    return rc;
}

/* Frame f to the writer: captured here, written there (in place when LIQUIDCL_WRITER=0). */
static int lq_run_submit(lq_run_writer *w, int f, double t, const lq_frame_stats *st,
                         double wall_ms)
{
    int rc = lq_run_writer_failed(w);
    if (rc) return rc;
    lq_run_job *j = &w->jobs[w->next_job];
    w->next_job = (w->next_job + 1) % 3;
    double t0 = lq_now();
    j->frame = f;
    j->t = t;
    j->st = *st;
    j->wall_ms = wall_ms;
    j->due = lq_run_due_of(&w->cfg->output, f);
    rc = lq_run_capture(w, j);
    j->capture_ms = (lq_now() - t0) * 1e3;
    if (rc) return rc;
    lq_worker_submit(&w->worker, j);
    return lq_run_writer_failed(w);
}

/* Waits for the writer to finish every frame handed to it: before a checkpoint (which
 * then never runs ahead of the files), and at the end. */
static int lq_run_drain(lq_run_writer *w)
{
    lq_worker_drain(&w->worker);
    return lq_run_writer_failed(w);
}

static int lq_run_writer_start(lq_run_writer *w)
{
    const lq_solver_vt *vt = w->vt;
    w->job_vt = *vt;
    w->job_vt.view = lq_run_job_view;
    w->job_vt.points = vt->points ? lq_run_job_points : NULL;
    w->job_vt.texture = vt->texture ? lq_run_job_texture : NULL;
    w->job_vt.objects = vt->objects ? lq_run_job_objects : NULL;
    w->ev = &w->job_vt;
    if (!(w->jobs = lq_calloc(3, sizeof *w->jobs))) return LQ_ESIM;
    pthread_mutex_init(&w->werr_lock, NULL);
    const char *e = getenv("LIQUIDCL_WRITER");
    lq_worker_start(&w->worker, lq_run_emit, w, !(e && strcmp(e, "0") == 0));
    return LQ_OK;
}

static void lq_run_writer_stop(lq_run_writer *w)
{
    if (!w->jobs) return;
    lq_worker_stop(&w->worker);
    for (int i = 0; i < 3; i++) lq_run_job_free(&w->jobs[i]);
    free(w->jobs);
    w->jobs = NULL;
    pthread_mutex_destroy(&w->werr_lock);
}

static void lq_run_format_eta(double s, char *buf, size_t n)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, n, "--:--");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

/* The initial state measured (frame 0's stats, st): a scene with no liquid in the grid
 * at the start (covered by obstacles or terrain, or placed outside) and no source to add
 * any is refused, as scene/config.c refuses the cases it can see from the scene alone. */
static int lq_run_has_liquid(const lq_config *cfg, const lq_solver_vt *vt, void *state,
                             lq_frame_stats *st)
{
    int rc = vt->measure(state, st);
    bool sourced = cfg->ngrids > 0 && cfg->grid_self >= 0 && cfg->grids[cfg->grid_self].nup > 0;
    if (rc || st->liquid_volume > 0 || cfg->nsources > 0 || sourced) return rc;
    return lq_config_error(cfg, cfg->nliquid ? cfg->liquid[0].at : NULL,
                           "no liquid in the grid at the start (the liquid lies outside it, or "
                           "obstacles or terrain fill its place) and the scene has no source: "
                           "nothing would move");
}

int lq_run_check(const lq_run_opts *o)
{
    lq_ctx ctx;
    void *state = NULL;
    lq_config *cfg = lq_config_load(o->scene, o->nsets, o->sets);
    if (!cfg) return LQ_EINPUT;
    const lq_solver_vt *vt = lq_registry_find(cfg);
    int rc = vt ? lq_run_check_output_fields(cfg, vt) : LQ_EINPUT;
    if (!rc) rc = lq_config_check_run(cfg);
    if (!rc) rc = lq_ctx_open(&ctx, "ref", false);
    size_t planned = 0;
    if (!rc) {
        /* a solver that plans its memory whole (pls) stops after the plan: every input
         * it reads is read by then, and nothing large is allocated */
        ctx.plan_stop = true;
        rc = vt->create(&ctx, cfg, &state);
        planned = ctx.planned;
        if (planned > 0 && rc == LQ_EINPUT) {
            lq_error_clear();
            rc = LQ_OK;
        }
        if (!rc && state) {
            lq_frame_stats st;
            rc = lq_run_has_liquid(cfg, vt, state, &st);
        }
        if (state) vt->destroy(state);
        lq_ctx_close(&ctx);
    }
    if (!rc && planned > 0)
        printf("%s: ok (solver %s, %.1f MiB of device memory planned)\n", o->scene, vt->name,
               (double)planned / 1048576.0);
    else if (!rc)
        printf("%s: ok (solver %s)\n", o->scene, vt->name);
    lq_config_free(cfg);
    return rc;
}

/* Makes DIR's subfolders, cleared of frame files past start_frame (-1: all); vdb/ only
 * when output.vdb asks for it (cleared in any case). A new run (start_frame -1) also
 * removes the checkpoint and objects.csv of the run before it, so that --resume never
 * continues a run whose frames are gone. */
static int lq_run_folders(const char *dir, int start_frame, const lq_config_output *out)
{
    const char *subs[] = {"mesh", "fields", "preview", "particles", "vdb", "checkpoints"};
    const bool made[] = {true, true, true, true, out->nvdb > 0, out->checkpoint_keep > 1};
    int rc = LQ_OK;
    if (start_frame < 0) {
        const char *stale[] = {"checkpoint.lqc", "objects.csv"};
        for (size_t i = 0; i < LQ_COUNT(stale); i++) {
            char p[4096 + 32];
            snprintf(p, sizeof p, "%s/%s", dir, stale[i]);
            remove(p);
        }
    }
    for (size_t i = 0; i < LQ_COUNT(subs) && !rc; i++) {
        char p[4096 + 16];
        snprintf(p, sizeof p, "%s/%s", dir, subs[i]);
        if (made[i] && lq_mkdirs(p))
            rc = lq_error_replace(LQ_EINPUT, "--out %s: %s", dir, lq_error_message());
        if (!rc) lq_run_clear_frames(dir, subs[i], start_frame);
    }
    return rc;
}

/* stats.jsonl and objects.csv opened (resuming: keeping frames 0..start_frame), and a
 * height field's terrain mesh written. */
static int lq_run_open_files(lq_run_writer *w, bool resume, int start_frame)
{
    char path[4096 + 32];
    snprintf(path, sizeof path, "%s/stats.jsonl", w->dir);
    int rc =
        resume ? lq_run_stats_reopen(&w->stats, path, start_frame) : lq_jsonl_open(&w->stats, path);
    if (!rc && w->vt->objects) rc = lq_run_objects_open(w, resume, start_frame);
    if (rc || !w->vt->height_field || !w->cfg->output.mesh) return rc;
    lq_field_view vb;
    rc = w->vt->view(w->state, "b", &vb);
    double dx = vb.spacing[0];
    double origin[3] = {vb.origin[0] - 0.5 * dx, vb.origin[1], vb.origin[2] - 0.5 * dx};
    snprintf(path, sizeof path, "%s/mesh/terrain.ply", w->dir);
    if (!rc) rc = lq_hfview_write_terrain(path, vb.dims[0], vb.dims[2], dx, origin, vb.data);
    return rc;
}

/* A grid's checkpoint (§5.4) records the scene without its grids[] lines and, in their
 * place, the grid's own identity (lq_config_gridspec.ident: the physics, its block as
 * resolved, outflow included, and its upstream grids' identities): a grid added to the
 * scene, or another grid's block changed, leaves the checkpoints of the grids it does not
 * move valid; a change that moves this grid (its block, its outflow, an upstream grid)
 * refuses them. */
static int lq_run_grid_identity_text(const lq_config *cfg, char **text, size_t *len)
{
    const lq_config_gridspec *me = &cfg->grids[cfg->grid_self];
    char tail[128];
    int nt = snprintf(tail, sizeof tail, "grid: %.32s %016llx\n", me->name,
                      (unsigned long long)me->ident);
    char *out = lq_alloc(*len + (size_t)nt + 1);
    if (!out) return LQ_ESIM;
    size_t m = 0;
    for (char *line = *text; line < *text + *len;) {
        char *end = memchr(line, '\n', (size_t)(*text + *len - line));
        size_t n = end ? (size_t)(end - line) + 1 : (size_t)(*text + *len - line);
        if (strncmp(line, "grids.", 6) != 0) {
            memcpy(out + m, line, n);
            m += n;
        }
        line += n;
    }
    memcpy(out + m, tail, (size_t)nt + 1);
    free(*text);
    *text = out;
    *len = m + (size_t)nt;
    return LQ_OK;
}

/* What a checkpoint of this run records of it: the scene after --set as text, and the
 * files the solver read (core/input.h) with their sizes and hashes. */
static int lq_run_identity(const lq_config *cfg, lq_checkpoint_id *cid)
{
    char *text = NULL;
    size_t len = 0;
    int rc = lq_scene_text_of(cfg->scene, &text, &len);
    if (rc) return rc;
    if (cfg->grid_self >= 0) { /* §5.4: the grids[] lines out, this grid's identity in */
        rc = lq_run_grid_identity_text(cfg, &text, &len);
        if (rc) return rc;
    }
    int n = lq_input_count();
    const char **paths = lq_calloc((size_t)LQ_MAX(n, 1), sizeof *paths);
    if (!paths) {
        free(text);
        return LQ_ESIM;
    }
    for (int i = 0; i < n; i++) paths[i] = lq_input_path(i);
    rc = lq_checkpoint_id_make(cid, text, len, n, paths);
    free(paths);
    return rc;
}

/* The frames stats.jsonl holds must be 0..frame, each once and in order, for a checkpoint
 * of `frame` to continue this folder's run (not one of another run left here). */
static int lq_run_stats_match(const char *dir, int frame)
{
    char path[4096 + 32], line[8192];
    snprintf(path, sizeof path, "%s/stats.jsonl", dir);
    FILE *f = fopen(path, "rb");
    int next = 0;
    while (f && next <= frame && fgets(line, sizeof line, f)) {
        int got = -1;
        if (sscanf(line, "{\"frame\":%d", &got) != 1 || got != next) break;
        next++;
    }
    if (f) fclose(f);
    if (next > frame) return LQ_OK;
    return lq_error(LQ_EINPUT,
                    "--resume: %s/checkpoint.lqc is of frame %d, but %s holds frames 0..%d "
                    "only%s: the checkpoint is not of this folder's run; run without --resume "
                    "to start again",
                    dir, frame, f ? "stats.jsonl" : "no stats.jsonl", next - 1,
                    next == 0 ? " (none)" : "");
}

/* output.checkpoint_keep: checkpoint.lqc of frame f also as checkpoints/FFFF.lqc (a hard
 * link: the next checkpoint replaces checkpoint.lqc by rename, the link keeps this one; a
 * copy where links fail), and only the newest `keep` of them stay. */
static int lq_run_keep_checkpoint(const char *dir, const char *ckpt, int f, int keep)
{
    if (keep <= 1) return LQ_OK;
    char path[4096 + 64];
    snprintf(path, sizeof path, "%s/checkpoints/%04d.lqc", dir, f);
    remove(path);
    if (link(ckpt, path) != 0) {
        FILE *in = fopen(ckpt, "rb");
        lq_file out = {0};
        int rc = in ? lq_file_open(&out, path) : lq_error(LQ_ESIM, "%s: cannot read", ckpt);
        char buf[65536];
        size_t n;
        while (!rc && in && (n = fread(buf, 1, sizeof buf, in)) > 0)
            if (fwrite(buf, 1, n, out.f) != n) rc = lq_error(LQ_ESIM, "%s: write failed", path);
        if (in) fclose(in);
        if (!rc)
            rc = lq_file_commit(&out);
        else if (out.f)
            lq_file_abort(&out);
        if (rc) return rc;
    }
    /* the newest `keep`: frames below the keep-th newest go */
    snprintf(path, sizeof path, "%s/checkpoints", dir);
    DIR *d = opendir(path);
    if (!d) return LQ_OK;
    int frames[1024], n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 1024) {
        int fr;
        char tail;
        if (sscanf(e->d_name, "%d.lq%c", &fr, &tail) == 2 && tail == 'c') frames[n++] = fr;
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        int newer = 0;
        for (int j = 0; j < n; j++) newer += frames[j] > frames[i];
        if (newer < keep) continue;
        snprintf(path, sizeof path, "%s/checkpoints/%04d.lqc", dir, frames[i]);
        remove(path);
    }
    return LQ_OK;
}

/* --resume-from FRAME: the kept checkpoint of that frame becomes checkpoint.lqc (so an
 * interrupted re-bake resumes where it stopped), or exit 2 naming the frames kept. */
static int lq_run_pick_checkpoint(const char *dir, const char *ckpt, int frame)
{
    char path[4096 + 64], kept[256] = "";
    snprintf(path, sizeof path, "%s/checkpoints/%04d.lqc", dir, frame);
    if (access(path, R_OK) == 0) {
        remove(ckpt);
        if (link(path, ckpt) == 0) return LQ_OK;
        return lq_error(LQ_EINPUT, "--resume-from %d: cannot make %s from %s: %s", frame, ckpt,
                        path, strerror(errno));
    }
    snprintf(path, sizeof path, "%s/checkpoints", dir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        int fr;
        char tail;
        if (sscanf(e->d_name, "%d.lq%c", &fr, &tail) == 2 && tail == 'c' &&
            strlen(kept) + 16 < sizeof kept)
            snprintf(kept + strlen(kept), sizeof kept - strlen(kept), " %d", fr);
    }
    if (d) closedir(d);
    return lq_error(LQ_EINPUT,
                    "--resume-from %d: %s/checkpoints holds no checkpoint of frame %d (kept:%s); "
                    "output.checkpoint_keep sets how many are kept",
                    frame, dir, frame, kept[0] ? kept : " none");
}

/* --resume: the folder locked (when it exists, so that no other run replaces the
 * checkpoint or the frames while this one reads them), the checkpoint read and checked
 * against this run and the folder's stats, and the frame to continue after. */
static int lq_run_resume_point(const lq_run_opts *o, const char *dir, const char *ckpt,
                               const lq_solver_vt *vt, void *state, const lq_checkpoint_id *cid,
                               lq_outdir *outdir, int frames, int *start_frame)
{
    struct stat st;
    int rc = LQ_OK;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) rc = lq_outdir_open(outdir, dir, o->scene);
    if (!rc && o->resume_pick) rc = lq_run_pick_checkpoint(dir, ckpt, o->resume_frame);
    if (!rc) rc = lq_checkpoint_read(ckpt, vt, state, cid, start_frame);
    if (!rc) rc = lq_run_stats_match(dir, *start_frame);
    if (!rc && *start_frame >= frames && !o->grid) /* a finished grid: nothing to do */
        rc = lq_error(LQ_EINPUT, "--resume: %s holds frame %d already; ask for more --frames", dir,
                      *start_frame);
    return rc;
}

/* The message of frame f's failure: a blow-up's ("frame F: ..."), or, for a frame
 * abandoned on an interrupt (core/interrupt.h), what is complete and where to resume. */
static int lq_run_frame_failed(int rc, int f, int ckpt_frame, const char *dir)
{
    if (!lq_interrupt_abandoned())
        return lq_error_replace(rc, "frame %d: %s", f, lq_error_message());
    char resume[128], at[128];
    if (ckpt_frame > 0)
        snprintf(resume, sizeof resume, "checkpoint.lqc holds frame %d (continue with --resume)",
                 ckpt_frame);
    else
        snprintf(resume, sizeof resume, "there is no checkpoint to resume from");
    const char *step = strstr(lq_error_message(), "at step ");
    snprintf(at, sizeof at, "%s", step ? step : "");
    return lq_error_replace(LQ_ESIM,
                            "interrupted by %s during frame %d %s, the frame abandoned: frames "
                            "0..%d are complete in %s; %s",
                            lq_interrupt_name(), f, at, f - 1, dir, resume);
}

/* Frame 0 (the initial state, unless resuming after start_frame), then frames up to
 * `frames`: each advanced, written (every output.every), checkpointed (every
 * output.checkpoint, and when interrupted) and reported on stderr. */
static int lq_run_frames(lq_run_writer *w, const lq_run_opts *o, int start_frame, int frames,
                         const char *ckpt, const lq_checkpoint_id *cid, lq_frame_stats *st0)
{
    const lq_solver_vt *vt = w->vt;
    double fps = w->cfg->time.fps;
    int every_ckpt = w->cfg->output.checkpoint, rc = LQ_OK;
    int ckpt_frame = o->resume ? start_frame : -1; /* the frame checkpoint.lqc holds */
    lq_interrupt_install();
    bool tty = isatty(2);
    double start = lq_now();
    long total_steps = 0;
    lq_frame_stats st;
    if (!o->resume) {
        st = *st0; /* measured before the folder was made (lq_run_has_liquid) */
        rc = lq_run_submit(w, 0, 0.0, &st, 0.0);
        start_frame = 0;
    }
    int first = start_frame + 1;
    for (int f = first; f <= frames && !rc; f++) {
        double t = f / fps, t0 = lq_now();
        rc = vt->advance(w->state, f, t, &st);
        /* an interrupt due by the frame's end may have cut an iteration short inside it
         * (core/interrupt.h): such a frame is not written */
        if (!rc && lq_interrupt_due()) {
            lq_interrupt_abandon();
            rc = lq_error(LQ_ESIM, "interrupted at its end");
        }
        if (rc) {
            rc = lq_run_frame_failed(rc, f, ckpt_frame, w->dir);
            break;
        }
        double wall = (lq_now() - t0) * 1e3;
        total_steps += st.steps;
        rc = lq_run_submit(w, f, t, &st, wall); /* written while f+1 steps */
        /* A checkpoint every output.checkpoint frames, and of the last frame when
         * interrupted, so --resume continues from there. */
        if (!rc && every_ckpt > 0 && (f % every_ckpt == 0 || lq_interrupt_requested())) {
            rc = lq_run_drain(w); /* a checkpoint never runs ahead of the files */
            if (!rc) rc = lq_checkpoint_write(ckpt, vt, w->state, f, cid);
            if (!rc) rc = lq_run_keep_checkpoint(w->dir, ckpt, f, w->cfg->output.checkpoint_keep);
            if (!rc) ckpt_frame = f;
        }
        if (rc) break;
        if (!o->quiet) {
            double el = lq_now() - start;
            char eta[32];
            double per_frame = el / (f - first + 1); /* stepping and output, overlapped */
            lq_run_format_eta(per_frame * (frames - f), eta, sizeof eta);
            fprintf(stderr,
                    "%sframe %d/%d  t %.3f s  %d steps  %.2f ms/step  %.0f ms/frame  volume %.6g "
                    "m3  ETA %s%s",
                    tty ? "\r" : "", f, frames, t, st.steps, wall / LQ_MAX(st.steps, 1),
                    1e3 * per_frame, st.liquid_volume, eta, tty ? "\033[K" : "\n");
        }
        if (lq_interrupt_requested()) {
            if (tty && !o->quiet) fputc('\n', stderr);
            rc = lq_error(LQ_ESIM,
                          "interrupted by %s after frame %d; frames 0..%d are complete in %s%s",
                          lq_interrupt_name(), f, f, w->dir,
                          every_ckpt > 0 ? " (continue with --resume)" : "");
            break;
        }
    }
    /* the frames handed to the writer are written, whatever stopped the loop */
    int wrc = lq_run_drain(w);
    if (!rc) rc = wrc;
    lq_interrupt_restore();
    if (tty && !o->quiet && !rc) fputc('\n', stderr);
    if (!rc && !o->quiet)
        fprintf(stderr, "liquidcl: done: %d frames, %ld steps in %.1f s\n", frames, total_steps,
                lq_now() - start);
    return rc;
}

/* --- grid sourcing (§5.4): one grid per process -------------------------------------- */

/* The folder of a scene's run: --out, or out/NAME. */
static int lq_run_base_dir(const lq_run_opts *o, const lq_config *cfg, char *dir, size_t n)
{
    const char *name = cfg->name;
    if (!o->out && (strchr(name, '/') || name[0] == '.' || name[0] == '\0'))
        return lq_config_error(cfg, cfg->at_name,
                               "name '%s' cannot be a folder under out/ (no '/', no leading '.'); "
                               "rename it or pass --out",
                               name);
    if (o->out)
        snprintf(dir, n, "%s", o->out);
    else
        snprintf(dir, n, "out/%s", name);
    return LQ_OK;
}

/* `liquidcl run SCENE` with grids[]: this binary again, once per grid with --grid NAME and
 * --out BASE, all started at once (downstream grids wait for their bands); the first that
 * fails stops the others (SIGTERM), and its exit code is the run's. */
static int lq_run_grids(const lq_run_opts *o, const lq_config *cfg)
{
    char base[3072], bands[3072 + 8];
    int rc = lq_run_base_dir(o, cfg, base, sizeof base);
    if (rc) return rc;
    snprintf(bands, sizeof bands, "%s/bands", base);
    if ((rc = lq_mkdirs(bands)) != LQ_OK) return rc;
    for (int g = 0; g < cfg->ngrids && !o->resume; g++) /* the old bands go before any starts */
        lq_band_clear(bands, cfg->grids[g].name);
    /* resumed: the old done marks go before any grid starts, so a downstream grid does not
     * read that its upstream ended where the cut run stopped (each grid writes its mark
     * again when it ends; the band files stay, and a resumed grid writes the same bytes) */
    for (int g = 0; g < cfg->ngrids && o->resume; g++) lq_band_undone(bands, cfg->grids[g].name);
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return lq_error(LQ_ESIM, "grids: cannot find this liquidcl (/proc/self/exe)");
    exe[len] = '\0';
    pid_t pid[LQ_CONFIG_GRIDS_MAX];
    int ng = cfg->ngrids, left = 0;
    char frames[32];
    snprintf(frames, sizeof frames, "%d", o->frames);
    if (!o->quiet)
        fprintf(stderr, "liquidcl: %s: %d grids, one process each, writing %s/GRID/ and %s/\n",
                o->scene, ng, base, bands);
    for (int g = 0; g < ng; g++) {
        const char *argv[32 + 2 * 256];
        int a = 0;
        argv[a++] = exe;
        argv[a++] = "run";
        argv[a++] = o->scene;
        argv[a++] = "--grid";
        argv[a++] = cfg->grids[g].name;
        argv[a++] = "--out";
        argv[a++] = base;
        argv[a++] = "--device";
        argv[a++] = o->device ? o->device : "auto";
        if (o->frames > 0) {
            argv[a++] = "--frames";
            argv[a++] = frames;
        }
        if (o->quiet) argv[a++] = "--quiet";
        if (o->resume) argv[a++] = "--resume"; /* each grid from its own checkpoint */
        for (int i = 0; i < o->nsets && i < 256; i++) {
            argv[a++] = "--set";
            argv[a++] = o->sets[i];
        }
        argv[a] = NULL;
        fflush(NULL);
        pid[g] = fork();
        if (pid[g] == 0) {
            execv(exe, (char *const *)argv);
            _exit(127);
        }
        if (pid[g] < 0) {
            rc = lq_error(LQ_ESIM, "grids: fork: %s", strerror(errno));
            break;
        }
        left++;
    }
    int failed = -1;
    for (int g = 0; g < ng && pid[g] <= 0; g++) pid[g] = 0;
    while (left > 0) {
        int status;
        pid_t p = waitpid(-1, &status, 0);
        if (p < 0) {
            if (errno == EINTR) continue;
            break;
        }
        int g = 0;
        while (g < ng && pid[g] != p) g++;
        if (g == ng) continue;
        pid[g] = 0;
        left--;
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
        if (code != 0 && failed < 0) {
            failed = g;
            rc = lq_error(code == 2 ? LQ_EINPUT : LQ_ESIM, "grids: grid %s failed (%s %d)%s",
                          cfg->grids[g].name, WIFEXITED(status) ? "exit" : "signal",
                          WIFEXITED(status) ? code : WTERMSIG(status),
                          left > 0 ? "; the other grids stopped" : "");
            for (int q = 0; q < ng; q++) /* only the children this run started */
                if (pid[q] > 0) kill(pid[q], SIGTERM);
        }
    }
    if (!rc && !o->quiet) fprintf(stderr, "liquidcl: %s: all %d grids done\n", o->scene, ng);
    return rc;
}

/* --grid NAME: the scene narrowed to that grid, its folder BASE/NAME, the bands in
 * BASE/bands. */
static int lq_run_select_grid(const lq_run_opts *o, lq_config *cfg, char *dir, size_t n,
                              char *bands, size_t nb)
{
    char base[3072];
    int rc = lq_run_base_dir(o, cfg, base, sizeof base);
    if (!rc) rc = lq_config_select_grid(cfg, o->grid);
    if (rc) return rc;
    cfg->grid_resume = o->resume;
    if (snprintf(dir, n, "%s/%.64s", base, o->grid) >= (int)n ||
        snprintf(bands, nb, "%s/bands", base) >= (int)nb)
        return lq_error(LQ_EINPUT, "--out %s: too long", base);
    cfg->bands_dir = bands;
    return lq_mkdirs(bands);
}

/* After the last frame: this grid's done mark (its last band, or -1: it stores none) for
 * the grids downstream of it, now or added later. */
static int lq_run_grid_done(const lq_config *cfg)
{
    const lq_config_gridspec *me = &cfg->grids[cfg->grid_self];
    lq_band_id id = {me->ident, ""};
    snprintf(id.up, sizeof id.up, "%s", me->name);
    long step = -1;
    double t = 0;
    int rc = me->geom.outflow ? lq_band_last(cfg->bands_dir, id.up, &step, &t) : LQ_OK;
    return rc ? rc : lq_band_done(cfg->bands_dir, &id, step, t);
}

int lq_run(const lq_run_opts *o)
{
    int rc = LQ_OK;
    lq_config *cfg = NULL;
    lq_ctx ctx;
    bool ctx_open = false;
    void *state = NULL;
    const lq_solver_vt *vt = NULL;
    lq_run_writer w;
    lq_outdir outdir = {.lock_fd = -1};
    lq_checkpoint_id cid = {0};
    memset(&w, 0, sizeof w);
    memset(&ctx, 0, sizeof ctx);
    char dir[4096], bands[4096 + 8];

    /* 1. Everything that can be wrong with the input is found before writing. */
    lq_input_forget(); /* the assets are the files this run reads from here on */
    cfg = lq_config_load(o->scene, o->nsets, o->sets);
    if (!cfg) return LQ_EINPUT;
    cfg->grid_self = -1;
    if (o->grid)
        rc = lq_run_select_grid(o, cfg, dir, sizeof dir, bands, sizeof bands);
    else if (cfg->ngrids > 0 && !o->plan) { /* §5.4: every grid, one process each */
        rc = lq_run_grids(o, cfg);
        lq_config_free(cfg);
        return rc;
    }
    if (rc) goto fail;
    vt = lq_registry_find(cfg);
    if (!vt) {
        rc = LQ_EINPUT;
        goto fail;
    }
    rc = lq_run_check_output_fields(cfg, vt);
    if (!rc) rc = lq_config_check_run(cfg);
    if (rc) goto fail;
    int frames = o->frames > 0 ? o->frames : cfg->time.frames;
    const char *name = cfg->name;
    if (!o->out && (strchr(name, '/') || name[0] == '.' || name[0] == '\0')) {
        rc = lq_config_error(cfg, cfg->at_name,
                             "name '%s' cannot be a folder under out/ (no '/', no leading '.'); "
                             "rename it or pass --out",
                             name);
        goto fail;
    }
    if (o->grid)
        ; /* BASE/NAME (lq_run_select_grid) */
    else if (o->out)
        snprintf(dir, sizeof dir, "%s", o->out);
    else
        snprintf(dir, sizeof dir, "out/%s", name);
    rc = lq_outdir_check(o->out && !o->grid ? o->out : dir, o->out != NULL);
    if (rc) goto fail;
    rc = lq_ctx_open(&ctx, o->device ? o->device : "auto", false);
    if (rc) goto fail;
    ctx_open = true;
    ctx.plan_only = o->plan;
    rc = vt->create(&ctx, cfg, &state);
    if (o->plan) { /* the solver printed its plan and stopped before allocating */
        if (ctx.planned > 0) lq_error_clear();
        rc = ctx.planned > 0 ? LQ_OK
             : rc            ? rc
                  : lq_error(LQ_EINPUT, "--plan: solver '%s' has no device-memory plan", vt->name);
        goto fail;
    }
    if (rc) goto fail;
    int start_frame = -1;
    char ckpt[4096 + 32];
    snprintf(ckpt, sizeof ckpt, "%s/checkpoint.lqc", dir);
    lq_frame_stats st0;
    memset(&st0, 0, sizeof st0);
    if (!o->resume) rc = lq_run_has_liquid(cfg, vt, state, &st0);
    if (!rc) rc = lq_run_identity(cfg, &cid);
    if (!rc && o->resume)
        rc = lq_run_resume_point(o, dir, ckpt, vt, state, &cid, &outdir, frames, &start_frame);
    if (rc) goto fail;

    /* 2. The output folder, made and locked (one that cannot be made, or that another
     * run holds, is a bad --out: exit 2), and cleared of what killed runs left. */
    if (outdir.lock_fd < 0) rc = lq_outdir_open(&outdir, dir, o->scene);
    if (!rc) rc = lq_run_folders(dir, start_frame, &cfg->output);
    if (!rc && !o->quiet) lq_ctx_announce(&ctx, o->device ? o->device : "auto");
    if (rc) goto fail;
    lq_io_set_z_up(cfg->output.up_z); /* before the first file: terrain.ply */
    w.dir = dir;
    w.cfg = cfg;
    w.vt = vt;
    w.state = state;
    if (o->grid && start_frame >= frames) { /* --resume of a finished grid: its mark again */
        if (!o->quiet)
            fprintf(stderr, "liquidcl: %s: grid %s holds frame %d already, nothing to run\n",
                    o->scene, o->grid, start_frame);
        rc = lq_run_grid_done(cfg);
        goto fail;
    }
    rc = lq_run_open_files(&w, o->resume, start_frame);
    if (!rc) rc = lq_run_writer_start(&w);
    if (rc) goto fail;
    if (!o->quiet && o->resume)
        fprintf(stderr, "liquidcl: %s: resuming after frame %d of %d, writing %s/\n", o->scene,
                start_frame, frames, dir);
    else if (!o->quiet)
        fprintf(stderr, "liquidcl: %s: %d frames at %g fps, writing %s/\n", o->scene, frames,
                cfg->time.fps, dir);

    /* 3. Frame 0 is the initial state; frames 1..N follow. */
    rc = lq_run_frames(&w, o, start_frame, frames, ckpt, &cid, &st0);
    if (!rc && cfg->grid_self >= 0) rc = lq_run_grid_done(cfg);
fail:
    lq_run_writer_stop(&w); /* before the files and views it writes with */
    if (w.stats.f) lq_jsonl_close(&w.stats);
    if (w.objects) fclose(w.objects);
    if (w.preview_ready) lq_hfview_preview_free(&w.preview);
    if (w.vol_ready) lq_volview_free(&w.vol);
    if (w.tex_ready) lq_texmap_style_free(&w.tex_style);
    lq_texmap_free(&w.tex);
    if (state) vt->destroy(state);
    if (ctx_open) lq_ctx_close(&ctx);
    lq_outdir_close(&outdir);
    lq_checkpoint_id_free(&cid);
    lq_config_free(cfg);
    return rc;
}
