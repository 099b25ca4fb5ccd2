/*
 * splash.c — splashing water after J. F. O'Brien and J. K. Hodgins, "Dynamic
 * Simulation of Splashing Fluids", Computer Animation '95: the `splash` solver.
 *
 * Three subsystems (Fig. 2): the volume model (columns joined to their eight
 * neighbours by virtual pipes, §3.1), the surface model (control points between the
 * columns that take forces from objects, §3.2) and the spray model (particles thrown
 * up where the surface rises fast and returned where they land, §3.3), plus rigid
 * objects that fall in and float (§4). The operations are host/ops/hf/columns.h's;
 * this file sequences them. One step (lq_splash_step, one stage per line):
 *
 *   1. boundary pipes take their sources' flows (walls stay 0);
 *   2. objects press on the columns under them: the contact pressure
 *      (kernels/hf/columns_cell.h) bounded by f_max (eq. 17), spread as external
 *      pressure E (eq. 11); the water around each pushes it sideways (its slope's
 *      pressure and a drag toward its velocity, lq_splash_horizontal) and takes the
 *      opposite force into the pipes under it;
 *   3. every pipe accelerates by its pressure difference (eq. 3–6);
 *   4. pipes that would drain a column below zero are scaled back (eq. 9), in passes;
 *   5. columns change by the net flow (eq. 7); ḣ (eq. 12); landed spray returns;
 *   6. control points rising faster than the threshold emit spray (eq. 13–15), whose
 *      volume leaves the four columns around them; spray flies ballistically and lands;
 *   7. objects move under gravity and the water's force, f_o = −f_e (eq. 16).
 *
 * Time integration. Eq. 6 and 7 are taken with the flows at the half steps
 * (leapfrog): the trapezoid of eq. 7 averages the flow over the step, which is the
 * half-step flow Q(n+½) = Q(n−½) + Δt c a(n). Evaluating a at the start of the step
 * with Q at whole steps instead multiplies every mode's energy by 1 + ω²Δt²/2 per step
 * (it grows without damping); the staggered form is neutral for ωΔt < 2, which is
 * Courant number √(k g D) Δt / Δx < 0.87 with the isotropic pipes. The frame is split
 * once at its start (core/framesplit.h) into steps for a Courant number of 0.5 · time.cfl
 * on 1.5 times the deepest water of the last frame and ν Δt / Δx² ≤ 1/8; while a body
 * may press on the water within the frame (lq_splash_may_touch) the contact's spring
 * makes it √(1 + κ) stiffer and bodies move at most Δx/4 per step, and a body in the air
 * flies exactly (eq. 16 with f_o = 0), whatever the step. splash.substeps replaces the
 * split but never goes below the stability bound (lq_splash_stable_steps): fewer at the
 * start is a scene error.
 *
 * Host waits (issue 14): two a step. The objects' sums (lq_splash_drain_acc: the slots in
 * use) are read once in step 2, for the forces; the descriptors go to the device without
 * a wait (lq_splash_send) and the sums are cleared by a fill. The spray's counters are
 * read once in step 6 (the live count sizes the flight and compaction launches). Nothing
 * in a step loops over the grid on the host: the ground's lowest point is taken at
 * set-up and the bodies' ground contact searches a max pyramid of it.
 *
 * Volume bookkeeping: V(columns) + V(spray in flight) = V0 + in − out (boundary pipes)
 * − lost (spray that hit dry ground or an object or left the grid) + clamp (round-off
 * zeroed by eq. 9's last pass), every term summed in fixed point on the device;
 * stats.jsonl reports each and the drift.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world/body.h"
#include "io/checkpoint.h"
#include "world/hfinit.h"
#include "scene/path.h"
#include "core/framesplit.h"
#include "core/profile.h"
#include "core/solver_api.h"
#include "scene/config.h"
#include "ops/hf/columns.h"

typedef struct lq_splash_source {
    int axis, wall, from, n; /* boundary pipes it drives (lq_columns_boundary) */
    double sign;             /* +1 when positive pipe flow enters the grid */
    double rate, amplitude, period, start, stop;
} lq_splash_source;

typedef struct lq_splash_object {
    lq_body body;
    char name[48];
    float rgb[3];
    double release, drag;
    double force[3], torque[3]; /* the water's, last step */
    double submerged;           /* fraction of the volume under water, last step */
    double impulse;             /* N s: the water's vertical push over the frame so far */
    double frame_force;         /* N: its mean over the last frame */
    bool touching;
} lq_splash_object;

typedef struct lq_splash {
    lq_ctx *ctx;
    lq_columns_ops columns;
    lq_columns_state columns_state;
    lq_hfinit_grid g;
    double grav[3], gravity, rho, k, sdiag, damping, viscosity, kappa, cfl, fps;
    int impact_surface, passes, substeps, max_steps;
    bool why_objects; /* the objects' speed set the last step count (else the depth) */
    double vobj;      /* m/s: the fastest object's speed then */
    /* spray */
    double threshold, rate, volume, drag;
    lq_uint seed;
    /* objects and their paths (one per distinct file) */
    lq_splash_object *obj;
    int nobj;
    lq_path **paths;
    int npaths;
    float *obj_desc;
    /* the descriptors as written to the device without a wait (lq_field_write_async):
     * [0] before the forces, [1] after; each copy holds still until the next blocking
     * read (the acc read of the next contact), which the in-order queue puts after it */
    float *obj_sent[2];
    int rect[4], prev_rect[4]; /* columns the contact passes cover: i0, k0, ni, nk */
    lq_splash_source *src;
    int nsrc;
    /* time */
    double t, dt_prev, dmax;
    int step, live;
    /* bookkeeping, m³ */
    double v0, lost, clamped, bin, bout, absorbed;
    long long emitted, dropped, limited;
    /* host copies for views and outputs */
    float *hv, *bv, *dv, *fv, *uv, *wv, *pv[7];
    /* the ground (it never changes): its lowest point, the floor of the bodies' box, and
     * its index for their ground contact (built when there are objects) */
    double ground_min;
    lq_body_ground_index ground;
    int pcap;
    lq_object_record *rec;
} lq_splash;

static const char *const lq_splash_fields[] = {"h", "b", "depth", "u", "w", NULL};
static int lq_splash_measure(void *state, lq_frame_stats *st);
static bool lq_splash_may_touch(const lq_splash *s, double span);
static double lq_splash_stable_steps(const lq_splash *s, double span, bool stiff, double *courant);

/* --- set-up -------------------------------------------------------------------- */

static int lq_splash_sources(lq_splash *s, const lq_config *cfg)
{
    int n = cfg->nsources;
    s->src = lq_calloc((size_t)n + 1, sizeof *s->src);
    if (!s->src) return LQ_ESIM;
    for (int i = 0; i < n; i++) {
        const lq_config_source *q = &cfg->sources[i];
        int wall = q->pipe.wall;
        lq_splash_source *d = &s->src[s->nsrc++];
        bool xwall = wall == LQ_CONFIG_WALL_X_MIN || wall == LQ_CONFIG_WALL_X_MAX;
        bool maxw = wall == LQ_CONFIG_WALL_X_MAX || wall == LQ_CONFIG_WALL_Z_MAX;
        d->axis = xwall ? 0 : 1;
        d->wall = maxw ? (xwall ? s->g.nx : s->g.nz) : 0;
        d->sign = maxw ? -1.0 : 1.0;
        int len = xwall ? s->g.nz : s->g.nx;
        double o = xwall ? s->g.origin[2] : s->g.origin[0];
        double span[2] = {o, o + len * s->g.dx};
        if (q->pipe.has_span) memcpy(span, q->pipe.span, sizeof span);
        int a = lq_int_clamp(floor((fmin(span[0], span[1]) - o) / s->g.dx + 0.5), -1, len + 1);
        int b = lq_int_clamp(floor((fmax(span[0], span[1]) - o) / s->g.dx + 0.5), -1, len + 1);
        a = LQ_MAX(a, 0);
        b = LQ_MIN(b, len);
        if (b <= a)
            return lq_config_error(cfg, q->pipe.at_span,
                                   "the span covers no column along wall %s (%d columns)",
                                   q->pipe.wall_word, len);
        d->from = a;
        d->n = b - a;
        d->rate = q->pipe.rate;
        d->amplitude = q->pipe.amplitude;
        d->period = q->pipe.period;
        d->start = q->pipe.start;
        d->stop = q->pipe.stop;
    }
    return LQ_OK;
}

/* Rotation about x, then y, then z (world axes), degrees → quaternion. */
static void lq_splash_euler_quat(const double deg[3], double q[4])
{
    double out[4] = {1, 0, 0, 0};
    for (int a = 0; a < 3; a++) {
        double h = deg[a] * LQ_PI / 360.0, r[4] = {cos(h), 0, 0, 0};
        r[1 + a] = sin(h);
        lq_quat_mul(r, out, out);
    }
    memcpy(q, out, sizeof out);
}

/* A body on a scripted path: paths read once per distinct file (path_files). */
static int lq_splash_attach(lq_splash *s, lq_splash_object *o, const lq_config_object *q,
                            const double q4[4], const char **path_files)
{
    const char *file = q->path_file;
    int found = -1;
    for (int j = 0; j < s->npaths; j++)
        if (strcmp(path_files[j], file) == 0) found = j;
    if (found < 0) {
        int rc = lq_path_read_csv(&s->paths[s->npaths], file);
        if (rc) return rc;
        path_files[s->npaths] = file;
        found = s->npaths++;
    }
    lq_body_attach(&o->body, s->paths[found], q->center, q4, 0.0);
    return LQ_OK;
}

static int lq_splash_objects(lq_splash *s, const lq_config *cfg)
{
    int n = cfg->nobjects;
    if (n > LQ_COLUMNS_MAX_OBJECTS)
        return lq_config_error(cfg, cfg->at_objects,
                               "%d objects; the splash solver takes at most %d", n,
                               LQ_COLUMNS_MAX_OBJECTS);
    s->obj = lq_calloc((size_t)n + 1, sizeof *s->obj);
    s->paths = lq_calloc((size_t)n + 1, sizeof *s->paths);
    s->rec = lq_calloc((size_t)n + 1, sizeof *s->rec);
    s->obj_desc = lq_calloc(LQ_COLUMNS_MAX_OBJECTS * LQ_COLUMNS_OBJ_STRIDE, sizeof *s->obj_desc);
    for (int i = 0; i < 2; i++)
        s->obj_sent[i] =
            lq_calloc(LQ_COLUMNS_MAX_OBJECTS * LQ_COLUMNS_OBJ_STRIDE, sizeof *s->obj_sent[i]);
    if (!s->obj || !s->paths || !s->rec || !s->obj_desc || !s->obj_sent[0] || !s->obj_sent[1])
        return LQ_ESIM;
    const char *path_files[LQ_COLUMNS_MAX_OBJECTS];
    for (int i = 0; i < n; i++) {
        const lq_config_object *q = &cfg->objects[i];
        lq_splash_object *o = &s->obj[s->nobj++];
        double half[3], q4[4];
        int shape = LQ_SHAPE_SPHERE;
        if (q->kind == LQ_CONFIG_OBJECT_SPHERE) {
            half[0] = half[1] = half[2] = q->radius;
        } else if (q->kind == LQ_CONFIG_OBJECT_ELLIPSOID) {
            shape = LQ_SHAPE_ELLIPSOID;
            memcpy(half, q->radii, sizeof half);
        } else {
            shape = LQ_SHAPE_BOX;
            for (int a = 0; a < 3; a++) half[a] = q->size[a] * 0.5;
        }
        lq_splash_euler_quat(q->rotation, q4);
        lq_body_init(&o->body, shape, half, q->density, q->center, q->velocity, q4);
        memcpy(o->body.omega, q->spin, sizeof o->body.omega);
        o->body.restitution = q->restitution;
        o->release = q->release;
        o->drag = q->drag;
        for (int a = 0; a < 3; a++) o->rgb[a] = (float)q->color[a];
        if (q->name)
            snprintf(o->name, sizeof o->name, "%s", q->name);
        else
            snprintf(o->name, sizeof o->name, "%s%d", q->kind_word, i);
        if (q->path_file) {
            int rc = lq_splash_attach(s, o, q, q4, path_files);
            if (rc) return rc;
        }
    }
    return LQ_OK;
}

static void lq_splash_destroy(void *state)
{
    lq_splash *s = state;
    if (!s) return;
    lq_columns_state_release(&s->columns_state);
    lq_columns_ops_release(&s->columns);
    for (int i = 0; i < s->npaths; i++) lq_path_free(s->paths[i]);
    free(s->paths);
    free(s->obj);
    free(s->rec);
    free(s->obj_desc);
    free(s->obj_sent[0]);
    free(s->obj_sent[1]);
    lq_body_ground_index_free(&s->ground);
    free(s->src);
    free(s->hv);
    free(s->bv);
    free(s->dv);
    free(s->fv);
    free(s->uv);
    free(s->wv);
    for (int i = 0; i < 7; i++) free(s->pv[i]);
    free(s);
}

/* The scene's settings, and the checks only this solver makes. */
static int lq_splash_config(lq_splash *s, const lq_config *cfg)
{
    int rc = lq_hfinit_grid_from_scene(cfg, &s->g);
    if (rc) return rc;
    if (s->g.nx < 2 || s->g.nz < 2)
        return lq_config_error(cfg, cfg->grid.at_size,
                               "solver 'splash' needs at least 2 x 2 columns (its control "
                               "points lie between them)");
    if (cfg->nobstacles > 0)
        return lq_config_error(cfg, cfg->at_obstacles,
                               "solver 'splash' has no fixed obstacles; shape the pool with "
                               "`terrain`, or use a heavy object");
    memcpy(s->grav, cfg->gravity, sizeof s->grav);
    if (s->grav[0] != 0 || s->grav[2] != 0 || !(s->grav[1] < 0))
        return lq_config_error(cfg, cfg->at_gravity,
                               "solver 'splash' needs gravity along −y, [0, -g, 0] with g > 0");
    s->gravity = -s->grav[1];
    s->cfl = cfg->time.cfl;
    if (s->cfl > 1.6)
        return lq_config_error(cfg, cfg->time.at_cfl,
                               "solver 'splash' is explicit: time.cfl above 1.6 (Courant number "
                               "0.8) is past its stability limit of 1.73");
    s->fps = cfg->time.fps;
    const lq_config_splash *sp = &cfg->splash;
    s->rho = sp->density;
    s->k = sp->conductance;
    s->sdiag = sp->diagonal;
    s->damping = sp->damping;
    s->viscosity = sp->viscosity;
    s->kappa = sp->contact_stiffness;
    s->impact_surface = sp->impact_surface;
    s->passes = sp->volume_passes;
    s->substeps = sp->substeps;
    s->max_steps = cfg->time.max_steps;
    s->threshold = cfg->spray.threshold;
    s->rate = cfg->spray.rate;
    /* particle volumes on the fixed-point grid, so what leaves and returns is exact */
    s->volume = nearbyint(cfg->spray.volume * LQ_COLUMNS_VSCALE) / LQ_COLUMNS_VSCALE;
    s->drag = cfg->spray.drag;
    s->seed = (lq_uint)cfg->spray.seed;
    if ((size_t)s->g.nx * (size_t)s->g.nz > (size_t)INT_MAX / 4)
        return lq_config_error(cfg, cfg->grid.at_size,
                               "%d x %d columns is more than this solver indexes", s->g.nx,
                               s->g.nz);
    return LQ_OK;
}

/* The host copies of the views; the ground b kept (it never changes). */
static int lq_splash_views(lq_splash *s, const float *b)
{
    int nx = s->g.nx, nz = s->g.nz;
    size_t f4 = (size_t)nx * (size_t)nz * 4;
    s->hv = lq_alloc(f4);
    s->bv = lq_alloc(f4);
    s->dv = lq_alloc(f4);
    s->fv = lq_alloc(f4);
    s->uv = lq_alloc((size_t)(nx + 1) * (size_t)(nz + 1) * 4);
    s->wv = lq_alloc((size_t)(nx + 1) * (size_t)(nz + 1) * 4);
    if (!s->hv || !s->bv || !s->dv || !s->fv || !s->uv || !s->wv) return LQ_ESIM;
    memcpy(s->bv, b, f4);
    s->ground_min = INFINITY;
    for (size_t c = 0; c < (size_t)nx * nz; c++) s->ground_min = fmin(s->ground_min, s->bv[c]);
    if (s->nobj > 0 && lq_body_ground_index_build(&s->ground, s->bv, nx, nz)) return LQ_ESIM;
    return LQ_OK;
}

static int lq_splash_create(lq_ctx *ctx, const lq_config *cfg, void **state)
{
    int rc = LQ_OK;
    float *b = NULL, *h = NULL;
    lq_splash *s = lq_calloc(1, sizeof *s);
    if (!s) return LQ_ESIM;
    s->ctx = ctx;
    rc = lq_splash_config(s, cfg);
    if (rc) goto fail;
    int capacity = s->rate > 0 ? cfg->spray.max_particles : 0;
    int nx = s->g.nx, nz = s->g.nz;
    size_t n = (size_t)nx * (size_t)nz;
    rc = lq_columns_state_alloc(&s->columns_state, ctx, nx, nz, capacity);
    if (rc) goto fail;
    b = lq_alloc(n * sizeof *b);
    h = lq_alloc(n * sizeof *h);
    if (!b || !h) {
        rc = LQ_ESIM;
        goto fail;
    }
    rc = lq_hfinit_terrain(cfg, &s->g, b);
    if (!rc) rc = lq_hfinit_surface(cfg, &s->g, b, 0.0f, h);
    if (!rc) rc = lq_splash_sources(s, cfg);
    if (!rc) rc = lq_splash_objects(s, cfg);
    if (rc) goto fail;
    for (size_t c = 0; c < n; c++) h[c] = h[c] > b[c] ? h[c] - b[c] : 0.0f; /* depth */
    rc = lq_columns_ops_init(&s->columns, ctx, nx, nz);
    if (!rc) rc = lq_field_upload(&s->columns_state.b, b);
    if (!rc) rc = lq_field_upload(&s->columns_state.d, h);
    if (!rc) rc = lq_splash_views(s, b);
    if (rc) goto fail;
    free(b);
    free(h);
    b = h = NULL;
    lq_frame_stats st;
    rc = lq_splash_measure(s, &st);
    if (rc) goto fail;
    s->v0 = st.liquid_volume;
    if (s->substeps > 0) { /* explicit: too few steps is a scene error, not a blow-up */
        double span = 1.0 / s->fps, c;
        bool stiff = lq_splash_may_touch(s, span);
        double bound = lq_splash_stable_steps(s, span, stiff, &c);
        if (s->substeps < bound) {
            rc = lq_config_error(
                cfg, cfg->splash.at_substeps,
                "splash.substeps %d is below the stability bound of %d steps per frame: the "
                "Courant number √(k g d%s) Δt/Δx must stay below %.3f (%.3g at one step, "
                "on the deepest water, %.3g m)%s",
                s->substeps, (int)fmin(bound, 1e9), stiff ? " (1 + κ)" : "",
                2.0 / sqrt(fmax(8.0 * (1.0 - s->sdiag), 4.0)), c, s->dmax,
                s->viscosity > 0 ? ", and ν Δt/Δx² at most 1/4" : "");
            goto fail;
        }
    }
    *state = s;
    return LQ_OK;
fail:
    free(b);
    free(h);
    lq_splash_destroy(s);
    return rc;
}

/* --- objects (§4) ------------------------------------------------------------------ */

static bool lq_splash_active(const lq_splash *s, const lq_splash_object *o)
{
    return o->body.path != NULL || s->t >= o->release;
}

/* Descriptors for the kernels; factor per object (eq. 17's share). */
static void lq_splash_describe(lq_splash *s, const double *factor)
{
    for (int i = 0; i < s->nobj; i++) {
        const lq_splash_object *o = &s->obj[i];
        float *d = s->obj_desc + i * LQ_COLUMNS_OBJ_STRIDE;
        double rot[9];
        lq_body_rotation(&o->body, rot);
        d[LQ_COLUMNS_O_SHAPE] = (float)o->body.shape;
        for (int a = 0; a < 3; a++) {
            d[LQ_COLUMNS_O_POS + a] = (float)o->body.pos[a];
            d[LQ_COLUMNS_O_HALF + a] = (float)o->body.half[a];
        }
        for (int a = 0; a < 9; a++) d[LQ_COLUMNS_O_ROT + a] = (float)rot[a];
        d[LQ_COLUMNS_O_KAPPA] = lq_splash_active(s, o) ? (float)s->kappa : 0.0f;
        d[LQ_COLUMNS_O_FACTOR] = factor ? (float)factor[i] : 1.0f;
        d[LQ_COLUMNS_O_RING] = (float)(lq_body_bounding_radius(&o->body) + 1.5 * s->g.dx);
    }
}

/* The columns under every object's bounding sphere, and one more. */
static void lq_splash_footprint(const lq_splash *s, int r[4])
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < s->nobj; i++) {
        const lq_body *b = &s->obj[i].body;
        double rad = lq_body_bounding_radius(b) + s->g.dx;
        lo[0] = fmin(lo[0], b->pos[0] - rad);
        hi[0] = fmax(hi[0], b->pos[0] + rad);
        lo[1] = fmin(lo[1], b->pos[2] - rad);
        hi[1] = fmax(hi[1], b->pos[2] + rad);
    }
    int nx = s->g.nx, nz = s->g.nz; /* objects far off the grid cover no column either way */
    int i0 = lq_int_clamp(floor((lo[0] - s->g.origin[0]) / s->g.dx), -1, nx + 1);
    int i1 = lq_int_clamp(ceil((hi[0] - s->g.origin[0]) / s->g.dx), -1, nx + 1);
    int k0 = lq_int_clamp(floor((lo[1] - s->g.origin[2]) / s->g.dx), -1, nz + 1);
    int k1 = lq_int_clamp(ceil((hi[1] - s->g.origin[2]) / s->g.dx), -1, nz + 1);
    i0 = LQ_MAX(i0, 0);
    k0 = LQ_MAX(k0, 0);
    i1 = LQ_MIN(i1, s->g.nx);
    k1 = LQ_MIN(k1, s->g.nz);
    r[0] = i0;
    r[1] = k0;
    r[2] = LQ_MAX(i1 - i0, 0);
    r[3] = LQ_MAX(k1 - k0, 0);
}

/* Adds the device's running sums to the host's and clears them: one read (the slots in
 * use, the objects' included) and a fill the queue does without a wait. */
static int lq_splash_drain_acc(lq_splash *s, lq_long *acc)
{
    size_t used = (size_t)(LQ_COLUMNS_ACC_OBJ + LQ_COLUMNS_OBJ_ACC * s->nobj) * sizeof *acc;
    int rc = lq_field_read(&s->columns_state.acc, 0, used, acc);
    if (rc) return rc;
    double v = 1.0 / LQ_COLUMNS_VSCALE;
    s->lost += (double)acc[LQ_COLUMNS_ACC_LOST] * v;
    s->clamped += (double)acc[LQ_COLUMNS_ACC_CLAMP] * v;
    s->bin += (double)acc[LQ_COLUMNS_ACC_BIN] * v;
    s->bout += (double)acc[LQ_COLUMNS_ACC_BOUT] * v;
    s->absorbed += (double)acc[LQ_COLUMNS_ACC_ABSORBED] * v;
    return lq_field_zero(&s->columns_state.acc, used);
}

/* The descriptors to the device without a wait, from copy `which` (obj_sent). */
static int lq_splash_send(lq_splash *s, int which)
{
    size_t bytes = (size_t)s->nobj * LQ_COLUMNS_OBJ_STRIDE * sizeof *s->obj_desc;
    memcpy(s->obj_sent[which], s->obj_desc, bytes);
    return lq_field_write_async(&s->columns_state.obj, 0, bytes, s->obj_sent[which]);
}

/* The water's horizontal force on object o (issue 18: the paper's objects only press
 * down), from the free water around it (lq_columns_around_object, acc slots a): with
 * (p, q) the slope of its surface across the body, ū its velocity and V = A Σ t the
 * submerged volume (Σ t over the control points under it),
 *   F = −ρ g V (p, q)  +  m c (ū − v) / (1 + c Δt),   c = drag · ρ V / m:
 * the pressure of a sloping surface on the water the body displaces (Froude–Krylov: a
 * body of the water's mass would move as the water does) and a drag toward the water's
 * velocity, `objects[].drag` per second on the mass of water displaced (as `mac` has it;
 * for a floating body ρ V = m), backward Euler in Δt so that any rate is stable. The
 * opposite force goes into the pipes under it (lq_columns_push_corner) through the push
 * coefficients of its descriptor, −F Δt / (ρ Δx Σ t). Forces act at the centre. */
static void lq_splash_horizontal(lq_splash *s, lq_splash_object *o, const lq_long *a, double dt)
{
    double inv = 1.0 / LQ_COLUMNS_FSCALE, area = s->g.dx * s->g.dx;
    double t = (double)a[LQ_COLUMNS_OA_SUB] * inv;
    float *d = s->obj_desc + (o - s->obj) * LQ_COLUMNS_OBJ_STRIDE;
    o->force[0] = o->force[2] = 0;
    d[LQ_COLUMNS_O_PUSHX] = d[LQ_COLUMNS_O_PUSHZ] = 0.0f;
    /* in water all round, not scripted (a path pushes the water by its pressure only) */
    if (!(t > 0) || a[LQ_COLUMNS_OA_WET] == 0 || o->body.path) return;
    double slope[2] = {(double)a[LQ_COLUMNS_OA_SX] * inv, (double)a[LQ_COLUMNS_OA_SZ] * inv};
    double ubar[2] = {(double)a[LQ_COLUMNS_OA_U] * inv, (double)a[LQ_COLUMNS_OA_V] * inv};
    double vol = area * t, m = o->body.mass;
    double c = o->drag * s->rho * vol / m;
    int axis[2] = {0, 2}, push[2] = {LQ_COLUMNS_O_PUSHX, LQ_COLUMNS_O_PUSHZ};
    for (int j = 0; j < 2; j++) {
        double f = -s->rho * s->gravity * vol * slope[j] +
                   m * c * (ubar[j] - o->body.vel[axis[j]]) / (1.0 + c * dt);
        o->force[axis[j]] = f;
        d[push[j]] = (float)(-f * dt / (s->rho * s->g.dx * t));
    }
}

/* Step 2: the water's force on each object and the pressure it puts back (eq. 11, 17). */
static int lq_splash_contact(lq_splash *s, double dt)
{
    double dx = s->g.dx, area = dx * dx;
    float fdx = (float)dx, ox = (float)s->g.origin[0], oz = (float)s->g.origin[2];
    float inv_fa = (float)(1.0 / ((1.0 - s->sdiag) * dx));
    lq_long acc[LQ_COLUMNS_ACC_L_COUNT];
    double factor[LQ_COLUMNS_MAX_OBJECTS];
    lq_splash_describe(s, NULL);
    int r[4];
    lq_splash_footprint(s, r);
    int rc = lq_splash_send(s, 0);
    if (!rc)
        rc = lq_columns_contact(&s->columns, &s->columns_state, s->nobj, fdx, ox, oz, inv_fa, 0,
                                r[0], r[1], r[2], r[3]);
    if (!rc) /* the water around each, for the horizontal forces */
        rc = lq_columns_contact(&s->columns, &s->columns_state, s->nobj, fdx, ox, oz, inv_fa, 3, 0,
                                0, s->nobj, 1);
    if (!rc) rc = lq_splash_drain_acc(s, acc);
    if (rc) return rc;
    double rg = s->rho * s->gravity * area;
    for (int i = 0; i < s->nobj; i++) {
        lq_splash_object *o = &s->obj[i];
        const lq_long *a = acc + LQ_COLUMNS_ACC_OBJ + i * LQ_COLUMNS_OBJ_ACC;
        double inv = 1.0 / LQ_COLUMNS_FSCALE;
        double up = rg * (double)a[LQ_COLUMNS_OA_HEAD] * inv;
        double count = (double)a[LQ_COLUMNS_OA_COUNT] * inv;
        double f = up;
        o->touching = up > 0;
        if (up > 0 && !o->body.path) {
            /* eq. 17: no more than what stops the body at the surface this step */
            double z = (double)a[LQ_COLUMNS_OA_ZSUM] * inv / fmax(count, 1.0);
            double s0 = o->body.pos[1] - lq_body_extent(&o->body, 1);
            double fcap = lq_body_fmax(o->body.mass, z, s0, o->body.vel[1], s->grav[1], dt);
            fcap = fcap > 0 ? fcap : 0;
            /* surface: the object stays on the surface (§4, "does not bounce off"): the
             * force that brings it to rest relative to the (slow) surface this step,
             * within [0, f_max]; heuristic: the contact pressure, within f_max */
            double stop = o->body.mass * (-o->body.vel[1] / dt - s->grav[1]);
            f = s->impact_surface ? fmin(fmax(stop, 0.0), fcap) : fmin(up, fcap);
        }
        factor[i] = up > 0 ? f / up : 0.0;
        o->force[1] = f;
        lq_splash_horizontal(s, o, a, dt);
        o->impulse += f * dt;
        o->torque[0] = -rg * (double)a[LQ_COLUMNS_OA_TX] * inv * factor[i];
        o->torque[1] = 0;
        o->torque[2] = rg * (double)a[LQ_COLUMNS_OA_TZ] * inv * factor[i];
        o->submerged =
            fmin(area * (double)a[LQ_COLUMNS_OA_SUB] * inv / lq_body_volume(&o->body), 1.0);
    }
    lq_splash_describe(s, factor);
    /* the pressure pass also clears the columns the objects left */
    int u[4];
    if (s->prev_rect[2] > 0 && s->prev_rect[3] > 0 && r[2] > 0 && r[3] > 0) {
        u[0] = LQ_MIN(r[0], s->prev_rect[0]);
        u[1] = LQ_MIN(r[1], s->prev_rect[1]);
        u[2] = LQ_MAX(r[0] + r[2], s->prev_rect[0] + s->prev_rect[2]) - u[0];
        u[3] = LQ_MAX(r[1] + r[3], s->prev_rect[1] + s->prev_rect[3]) - u[1];
    } else {
        memcpy(u, r[2] > 0 && r[3] > 0 ? r : s->prev_rect, sizeof u);
    }
    memcpy(s->prev_rect, r, sizeof r);
    rc = lq_splash_send(s, 1);
    if (!rc)
        rc = lq_columns_contact(&s->columns, &s->columns_state, s->nobj, fdx, ox, oz, inv_fa, 1,
                                u[0], u[1], u[2], u[3]);
    /* the horizontal forces' reaction into the axis pipes on the faces of those columns,
     * owned by the corners of the columns and one more each way */
    int i0 = LQ_MAX(r[0] - 1, 0), k0 = LQ_MAX(r[1] - 1, 0);
    if (!rc && r[2] > 0 && r[3] > 0)
        rc = lq_columns_contact(&s->columns, &s->columns_state, s->nobj, fdx, ox, oz, inv_fa, 2, i0,
                                k0, r[0] + r[2] + 1 - i0, r[1] + r[3] + 1 - k0);
    return rc;
}

/* Bodies rest on the terrain, slopes included (issue 18: they fell through it to the
 * pool's lowest ground): slower than two steps of gravity into it, a body stops instead
 * of bouncing. */
static void lq_splash_ground(lq_splash *s, lq_body *b, double dt)
{
    lq_body_collide_ground_indexed(b, &s->ground, s->g.dx, s->g.origin[0], s->g.origin[2],
                                   2.0 * s->gravity * dt);
}

/* Step 7: bodies move (eq. 16) under gravity, the water's force and drag. */
static int lq_splash_move_bodies(lq_splash *s, double dt)
{
    double lo[3] = {s->g.origin[0], s->ground_min, s->g.origin[2]};
    double hi[3] = {s->g.origin[0] + s->g.nx * s->g.dx, INFINITY,
                    s->g.origin[2] + s->g.nz * s->g.dx};
    for (int i = 0; i < s->nobj; i++) {
        lq_splash_object *o = &s->obj[i];
        lq_body *b = &o->body;
        if (!lq_splash_active(s, o)) continue;
        if (b->path) {
            lq_body_step(b, dt, s->t + dt, o->force, o->torque, s->grav);
            continue;
        }
        double f[3], tq[3], c = o->drag * o->submerged;
        if (!o->touching && o->submerged == 0) {
            /* in the air: eq. 16 with f_o = 0 is exact whatever the step, so a falling body
             * needs no short steps before it reaches the water (lq_splash_steps) */
            lq_body_step(b, dt, s->t + dt, NULL, NULL, NULL);
            for (int a = 0; a < 3; a++) {
                b->pos[a] += 0.5 * s->grav[a] * dt * dt;
                b->vel[a] += s->grav[a] * dt;
            }
            lq_body_collide_box(b, lo, hi);
            lq_splash_ground(s, b, dt);
            continue;
        }
        for (int a = 0; a < 3; a++) { /* horizontal drag: in force[0, 2] already */
            f[a] = o->force[a] - (a == 1 ? c * b->mass * b->vel[a] : 0.0);
            double inertia = (b->inertia[0] + b->inertia[1] + b->inertia[2]) / 3.0;
            tq[a] = o->torque[a] - c * inertia * b->omega[a];
        }
        lq_body_step(b, dt, s->t + dt, f, tq, s->grav);
        lq_body_collide_box(b, lo, hi);
        lq_splash_ground(s, b, dt);
    }
    for (int i = 0; i < s->nobj; i++)
        for (int j = i + 1; j < s->nobj; j++)
            if (lq_splash_active(s, &s->obj[i]) && lq_splash_active(s, &s->obj[j]))
                lq_body_collide_pair(&s->obj[i].body, &s->obj[j].body);
    return LQ_OK;
}

/* --- one step ------------------------------------------------------------------------ */

/* Step 1: the boundary pipes take their sources' flows at the half step (walls stay 0). */
static int lq_splash_boundary_flows(lq_splash *s, double dt)
{
    double tm = s->t + 0.5 * dt;
    int rc = LQ_OK;
    for (int i = 0; i < s->nsrc && !rc; i++) {
        const lq_splash_source *d = &s->src[i];
        double q = 0;
        if (tm >= d->start && tm < d->stop)
            q = d->rate + d->amplitude * sin(2 * LQ_PI * (tm - d->start) / d->period);
        rc = lq_columns_boundary(&s->columns, &s->columns_state, d->axis, d->wall, d->from, d->n,
                                 (float)(d->sign * q / d->n));
    }
    return rc;
}

/* Step 3: every pipe accelerates by its pressure difference (eq. 3–6), damped and with
 * the pipes' viscosity. */
static int lq_splash_accelerate(lq_splash *s, double dt)
{
    double kg = dt * s->gravity * s->k * 0.5;
    float keep = (float)fmax(0.0, 1.0 - s->damping * dt);
    return lq_columns_flow(&s->columns, &s->columns_state, keep, (float)(kg * (1.0 - s->sdiag)),
                           (float)(kg * s->sdiag * 0.5), (float)(kg * (1.0 - 0.5 * s->sdiag)),
                           (float)(s->viscosity * dt / (s->g.dx * s->g.dx)));
}

/* Step 4: pipes that would drain a column below zero scaled back (eq. 9), in passes. */
static int lq_splash_limit(lq_splash *s, double dt)
{
    float r = (float)(dt / (s->g.dx * s->g.dx));
    int rc = LQ_OK;
    for (int p = 0; p < s->passes && !rc; p++)
        rc = lq_columns_limit(&s->columns, &s->columns_state, r, p == s->passes - 1);
    return rc;
}

/* Step 5: the columns change by the net flow (eq. 7), ḣ (eq. 12); landed spray returns. */
static int lq_splash_volumes(lq_splash *s, double dt)
{
    double area = s->g.dx * s->g.dx;
    return lq_columns_volume(&s->columns, &s->columns_state, (float)(dt / area),
                             (float)(1.0 / area), (float)dt);
}

/* Step 6: control points rising faster than the threshold emit spray (eq. 13–15), whose
 * volume leaves the four columns around them; the spray flies and lands. */
static int lq_splash_spray(lq_splash *s, double dt)
{
    lq_columns_ops *o = &s->columns;
    lq_columns_state *st = &s->columns_state;
    double dx = s->g.dx, area = dx * dx;
    lq_columns_spray_params sp;
    sp.threshold = (float)s->threshold;
    sp.per_step = (float)(s->rate * area * dt);
    sp.cap_per_depth = (float)(area / (2.0 * s->volume));
    sp.dx = (float)dx;
    sp.ox = (float)s->g.origin[0];
    sp.oz = (float)s->g.origin[2];
    sp.inv_fa = (float)(1.0 / ((1.0 - s->sdiag) * dx));
    sp.volume = (float)s->volume;
    sp.quarter_depth = (float)(s->volume / (4.0 * area));
    sp.seed = s->seed;
    sp.step = (lq_uint)s->step;
    int ctr[LQ_COLUMNS_CNT_COUNT];
    int rc = lq_columns_spray(o, st, &sp);
    if (!rc) rc = lq_field_download(&st->counters, ctr);
    if (!rc && ctr[LQ_COLUMNS_CNT_LIVE] > 0) {
        lq_columns_flight_params fp;
        fp.n = ctr[LQ_COLUMNS_CNT_LIVE];
        fp.nobj = s->nobj;
        fp.dx = sp.dx;
        fp.ox = sp.ox;
        fp.oz = sp.oz;
        fp.dt = (float)dt;
        for (int a = 0; a < 3; a++) fp.g[a] = (float)s->grav[a];
        fp.drag_keep = (float)fmax(0.0, 1.0 - s->drag * dt);
        fp.dry = 1e-6f;
        rc = lq_columns_particles(o, st, &fp);
        if (!rc) rc = lq_columns_compact(o, st, fp.n);
    }
    if (!rc) s->emitted += ctr[LQ_COLUMNS_CNT_EMITTED];
    return rc;
}

/* One step of dt: the header's list (Fig. 2's three subsystems and §4's objects). */
static int lq_splash_step(lq_splash *s, double dt)
{
    lq_ctx *c = s->ctx;
    int rc = LQ_OK;
    /* 1. sources and sinks in the boundary pipes */
    LQ_STAGE(rc, c, "boundary pipes", lq_splash_boundary_flows(s, dt));
    /* 2. objects press on the surface's control points (§3.2, §4: eq. 11, 17) */
    if (s->nobj > 0) LQ_STAGE(rc, c, "objects press", lq_splash_contact(s, dt));
    /* 3-5. the volume model (§3.1): pipes accelerate (eq. 3-6), no column below zero
     * (eq. 9), columns change (eq. 7, 12) */
    LQ_STAGE(rc, c, "pipes accelerate", lq_splash_accelerate(s, dt));
    LQ_STAGE(rc, c, "pipes limited", lq_splash_limit(s, dt));
    LQ_STAGE(rc, c, "columns change", lq_splash_volumes(s, dt));
    /* 6. the spray model (§3.3, eq. 13-15) */
    if (s->columns_state.capacity > 0) LQ_STAGE(rc, c, "spray", lq_splash_spray(s, dt));
    /* 7. objects move (§4, eq. 16) */
    if (s->nobj > 0) LQ_STAGE(rc, c, "objects move", lq_splash_move_bodies(s, dt));
    if (rc) return rc;
    s->t += dt;
    s->dt_prev = dt;
    s->step++;
    return LQ_OK;
}

/* --- frames ------------------------------------------------------------------------ */

static int lq_splash_measure(void *state, lq_frame_stats *st)
{
    lq_splash *s = state;
    int nx = s->g.nx, nz = s->g.nz;
    size_t n = (size_t)nx * nz;
    lq_long acc[LQ_COLUMNS_ACC_L_COUNT];
    int ctr[LQ_COLUMNS_CNT_COUNT];
    int rc = lq_field_download(&s->columns_state.d, s->dv);
    if (!rc) rc = lq_splash_drain_acc(s, acc);
    if (!rc) rc = lq_field_download(&s->columns_state.counters, ctr);
    if (rc) return rc;
    double area = s->g.dx * s->g.dx, vol = 0, dmax = 0;
    long bad = 0, wet = 0;
    for (size_t c = 0; c < n; c++) {
        float d = s->dv[c];
        if (!isfinite(d)) {
            bad++;
            continue;
        }
        vol += (double)d * area;
        dmax = fmax(dmax, d);
        wet += d > 1e-6f;
    }
    if (bad)
        return lq_error(LQ_ESIM,
                        "simulation blew up at step %d (t = %.6g s): field d (depth) is not "
                        "finite in %ld columns",
                        s->step, s->t, bad);
    s->dmax = dmax;
    s->live = ctr[LQ_COLUMNS_CNT_LIVE];
    double flight = s->live * s->volume;
    /* spray that landed this step waits in ret until the next volume update */
    lq_long *ret = lq_alloc(n * sizeof *ret);
    if (!ret) return LQ_ESIM;
    rc = lq_field_download(&s->columns_state.ret, ret);
    lq_long landed = 0;
    for (size_t c = 0; c < n && !rc; c++) landed += ret[c];
    free(ret);
    if (rc) return rc;
    vol += (double)landed / LQ_COLUMNS_VSCALE;
    memset(st, 0, sizeof *st);
    st->liquid_volume = vol + flight;
    st->pressure_iterations = -1;
    st->pressure_residual = NAN;
    st->dt_min = st->dt_max = s->dt_prev;
    /* surface speed from the axis pipes (cell-centred, for max_speed) */
    rc = lq_field_download(&s->columns_state.qx, s->uv);
    if (!rc) rc = lq_field_download(&s->columns_state.qz, s->wv);
    if (rc) return rc;
    double vmax = 0, inv_fa = 1.0 / ((1.0 - s->sdiag) * s->g.dx);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i + 1 < nx; i++) {
            double dm = 0.5 * (s->dv[i + nx * k] + s->dv[i + 1 + nx * k]);
            if (dm > 1e-4) vmax = fmax(vmax, fabs(s->uv[i + 1 + (nx + 1) * k]) * inv_fa / dm);
        }
    for (int k = 0; k + 1 < nz; k++)
        for (int i = 0; i < nx; i++) {
            double dm = 0.5 * (s->dv[i + nx * k] + s->dv[i + nx * (k + 1)]);
            if (dm > 1e-4) vmax = fmax(vmax, fabs(s->wv[i + nx * (k + 1)]) * inv_fa / dm);
        }
    st->max_speed = vmax;
    double expect = s->v0 + s->bin - s->bout - s->lost + s->clamped;
    lq_stats_extra(st, "column_volume", vol);
    lq_stats_extra(st, "spray_volume", flight);
    lq_stats_extra(st, "spray_particles", s->live);
    lq_stats_extra(st, "spray_emitted", (double)s->emitted);
    lq_stats_extra(st, "spray_dropped", ctr[LQ_COLUMNS_CNT_DROPPED]);
    lq_stats_extra(st, "spray_lost_volume", s->lost);
    lq_stats_extra(st, "boundary_in", s->bin);
    lq_stats_extra(st, "boundary_out", s->bout);
    lq_stats_extra(st, "volume_drift",
                   s->v0 > 0 ? (st->liquid_volume - expect) / fmax(s->v0 + s->bin, 1e-30) : 0);
    lq_stats_extra(st, "limited_columns", ctr[LQ_COLUMNS_CNT_LIMITED]);
    lq_stats_extra(st, "wet_columns", (double)wet);
    lq_stats_extra(st, "max_depth", dmax);
    double maxf = 0;
    for (int i = 0; i < s->nobj; i++) maxf = fmax(maxf, s->obj[i].frame_force);
    if (s->nobj) lq_stats_extra(st, "max_object_force", maxf);
    return LQ_OK;
}

/* The fewest steps over `span` s that keep the volume model stable (the header's
 * leapfrog is neutral for ωΔt < 2): the largest eigenvalue of the pipes' 9-point
 * Laplacian is λ = max(8(1 − s), 4) (bilinear in cos kx, cos kz, so a corner: the
 * checkerboard or a stripe), so the Courant number √(k g D) Δt / Δx must stay below
 * 2/√λ (0.866 at s = 1/3), √(1 + κ) lower while a body presses on the water, and the
 * pipes' explicit viscosity ν Δt / Δx² at most 1/4. *courant: the Courant number of
 * one step over the whole span on the deepest water (times √(1 + κ) when stiff). */
static double lq_splash_stable_steps(const lq_splash *s, double span, bool stiff, double *courant)
{
    double lambda = fmax(8.0 * (1.0 - s->sdiag), 4.0), cmax = 2.0 / sqrt(lambda);
    double c = sqrt(s->k * s->gravity * fmax(s->dmax, 1e-6) * (stiff ? 1.0 + s->kappa : 1.0)) *
               span / s->g.dx;
    if (courant) *courant = c;
    /* a count as a double: a blown-up depth would overflow an int (the caller checks it) */
    double n = lq_framesplit_count(c / cmax, LQ_FRAMESPLIT_ROUNDOFF);
    if (s->viscosity > 0)
        n = fmax(n, lq_framesplit_count(4.0 * s->viscosity * span / (s->g.dx * s->g.dx),
                                        LQ_FRAMESPLIT_ROUNDOFF));
    return fmax(n, 1.0);
}

/* Could a body press on the water within the next `span` s? Its lowest point (its
 * bounding sphere's) under gravity alone (the water only pushes up), or along its path
 * sampled at 16 times, against the highest water surface within its horizontal reach,
 * raised by half the deepest water for the waves that may rise meanwhile. Only then
 * does the contact's stiffness set the step (issue 18: before, any active body did). */
static bool lq_splash_may_touch(const lq_splash *s, double span)
{
    int nx = s->g.nx, nz = s->g.nz;
    double dx = s->g.dx;
    for (int i = 0; i < s->nobj; i++) {
        const lq_splash_object *o = &s->obj[i];
        const lq_body *b = &o->body;
        if (o->touching) return true;
        bool active = lq_splash_active(s, o) || o->release < s->t + span;
        if (!active) continue;
        double rad = lq_body_bounding_radius(b), low = INFINITY;
        double xlo = INFINITY, xhi = -INFINITY, zlo = INFINITY, zhi = -INFINITY;
        for (int q = 0; q <= 16; q++) {
            double t = span * q / 16.0, p[3];
            if (b->path) {
                lq_body c = *b;
                lq_body_follow(&c, s->t + t);
                memcpy(p, c.pos, sizeof p);
            } else {
                for (int a = 0; a < 3; a++) p[a] = b->pos[a] + b->vel[a] * t;
                p[1] += 0.5 * s->grav[1] * t * t;
            }
            low = fmin(low, p[1] - rad);
            xlo = fmin(xlo, p[0] - rad);
            xhi = fmax(xhi, p[0] + rad);
            zlo = fmin(zlo, p[2] - rad);
            zhi = fmax(zhi, p[2] + rad);
        }
        /* clamped as doubles before the casts: a body far off the grid (1e38 m) is defined */
        int i0 = (int)fmin(fmax(floor((xlo - s->g.origin[0]) / dx) - 1, 0), nx);
        int i1 = (int)fmin(fmax(ceil((xhi - s->g.origin[0]) / dx) + 1, 0), nx);
        int k0 = (int)fmin(fmax(floor((zlo - s->g.origin[2]) / dx) - 1, 0), nz);
        int k1 = (int)fmin(fmax(ceil((zhi - s->g.origin[2]) / dx) + 1, 0), nz);
        double top = -INFINITY;
        for (int k = k0; k < k1; k++)
            for (int j = i0; j < i1; j++) {
                size_t c = (size_t)j + (size_t)nx * k;
                if (s->dv[c] > 1e-6f) top = fmax(top, (double)s->bv[c] + s->dv[c]);
            }
        if (low <= top + 0.5 * s->dmax) return true;
    }
    return false;
}

/* Steps for a frame of `span` s: splash.substeps when set (never fewer than the
 * stability bound: lq_splash_create refuses fewer at the start, and a frame whose water
 * has deepened or whose bodies reach the water takes the bound); else the Courant
 * number 0.5·cfl on the deepest water (1.5x margin for splashes within the frame),
 * √(1+κ) stiffer and objects moving ≤ dx/4 per step while a body may press on the
 * water in this frame; explicit diffusion ν Δt / Δx² ≤ 1/8. Counts as doubles, cast by
 * the caller once checked (a blown-up speed overflows int). */
static double lq_splash_steps(lq_splash *s, double span)
{
    bool stiff = lq_splash_may_touch(s, span);
    double bound = lq_splash_stable_steps(s, span, stiff, NULL);
    s->why_objects = false;
    if (s->substeps > 0) return fmax(s->substeps, bound);
    double vobj = 0; /* bodies in the air fly exactly (lq_splash_move_bodies) */
    for (int i = 0; i < s->nobj && stiff; i++) {
        const lq_body *b = &s->obj[i].body;
        double v = sqrt(b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1] + b->vel[2] * b->vel[2]);
        if (lq_splash_active(s, &s->obj[i])) vobj = fmax(vobj, v + s->gravity * span);
    }
    double c =
        sqrt(s->k * s->gravity * fmax(1.5 * s->dmax, 1e-6) * (stiff ? 1.0 + s->kappa : 1.0)) *
        span / s->g.dx;
    double n = lq_framesplit_count(c / (0.5 * s->cfl), LQ_FRAMESPLIT_ROUNDOFF);
    double no = lq_framesplit_count(vobj * span / (0.25 * s->g.dx), LQ_FRAMESPLIT_ROUNDOFF);
    s->why_objects = no > n || isnan(no);
    s->vobj = vobj;
    n = fmax(n, no);
    if (s->viscosity > 0)
        n = fmax(n, lq_framesplit_count(8.0 * s->viscosity * span / (s->g.dx * s->g.dx),
                                        LQ_FRAMESPLIT_ROUNDOFF));
    return fmax(n, bound);
}

/* What sets the step count, for a blow-up's message (framesplit.h). */
static void lq_splash_why(void *state, char *buf, size_t cap)
{
    const lq_splash *s = state;
    if (s->why_objects)
        snprintf(buf, cap, "objects: speed %.3g m/s under gravity %.3g m/s^2", s->vobj, s->gravity);
    else
        snprintf(buf, cap, "field d: deepest water %.3g m under gravity %.3g m/s^2", s->dmax,
                 s->gravity);
}

static int lq_splash_advance(void *state, int frame, double t_end, lq_frame_stats *st)
{
    lq_splash *s = state;
    (void)frame;
    lq_framesplit fr = lq_framesplit_start(s->t, t_end);
    if (fr.span <= 0) return lq_splash_measure(s, st);
    int n = 0;
    int rc = lq_framesplit_count_checked(lq_splash_steps(s, fr.span), s->step, s->t, s->max_steps,
                                         lq_splash_why, s, &n);
    for (int i = 0; i < s->nobj; i++) s->obj[i].impulse = 0;
    for (int i = 0; i < n && !rc; i++) {
        double dt = lq_framesplit_fixed(&fr, s->t, i, n);
        rc = lq_framesplit_guard(&fr, s->step, s->t, dt, s->max_steps, lq_splash_why, s);
        LQ_STAGE(rc, s->ctx, "step", lq_splash_step(s, dt));
        if (!rc) lq_framesplit_took(&fr, dt);
    }
    if (rc) return rc;
    for (int i = 0; i < s->nobj; i++) s->obj[i].frame_force = s->obj[i].impulse / fr.span;
    LQ_STAGE(rc, s->ctx, "frame stats", lq_splash_measure(s, st));
    lq_framesplit_report(&fr, st);
    return rc;
}

static int lq_splash_view(void *state, const char *name, lq_field_view *v)
{
    lq_splash *s = state;
    int nx = s->g.nx, nz = s->g.nz, rc = LQ_OK;
    double dx = s->g.dx, ox = s->g.origin[0] + 0.5 * dx, oy = s->g.origin[1],
           oz = s->g.origin[2] + 0.5 * dx;
    size_t n = (size_t)nx * (size_t)nz;
    double inv_fa = 1.0 / ((1.0 - s->sdiag) * dx);
    if (strcmp(name, "b") == 0) {
        lq_view_hf(v, "b", nx, nz, ox, oy, oz, dx, s->bv);
        return LQ_OK;
    }
    rc = lq_field_download(&s->columns_state.d, s->dv);
    if (rc) return rc;
    if (strcmp(name, "h") == 0) {
        /* The water's surface: where objects press on it (e > 0), the level their
         * displacement holds it at (b + d + e), so a submerged body does not show as a
         * pit; dry columns sit just below their ground, as the shallow solver's do. */
        if (s->nobj > 0) rc = lq_field_download(&s->columns_state.e, s->fv);
        if (rc) return rc;
        for (size_t c = 0; c < n; c++) {
            float e = s->nobj > 0 ? s->fv[c] : 0.0f;
            s->hv[c] = s->dv[c] > 1e-6f ? s->bv[c] + s->dv[c] + e : s->bv[c] - 1e-5f;
        }
        lq_view_hf(v, "h", nx, nz, ox, oy, oz, dx, s->hv);
    } else if (strcmp(name, "depth") == 0) {
        lq_view_hf(v, "depth", nx, nz, ox, oy, oz, dx, s->dv);
    } else if (strcmp(name, "u") == 0 || strcmp(name, "w") == 0 || strcmp(name, "uc") == 0 ||
               strcmp(name, "wc") == 0) {
        bool is_u = name[0] == 'u', centred = name[1] == 'c';
        rc = lq_field_download(is_u ? &s->columns_state.qx : &s->columns_state.qz,
                               is_u ? s->uv : s->wv);
        if (rc) return rc;
        float *q = is_u ? s->uv : s->wv;
        /* face velocities from the axis pipes; boundary faces carry their flow over the
         * inside column's depth */
        int fx = is_u ? nx + 1 : nx, fz = is_u ? nz : nz + 1;
        for (int k = 0; k < fz; k++)
            for (int i = 0; i < fx; i++) {
                int a = is_u ? LQ_MAX(i - 1, 0) + nx * k : i + nx * LQ_MAX(k - 1, 0);
                int b = is_u ? LQ_MIN(i, nx - 1) + nx * k : i + nx * LQ_MIN(k, nz - 1);
                double dm = 0.5 * (s->dv[a] + s->dv[b]);
                q[i + fx * k] = dm > 1e-6 ? (float)(q[i + fx * k] * inv_fa / dm) : 0.0f;
            }
        if (!centred) {
            lq_view_hf(v, name, fx, fz, is_u ? ox - 0.5 * dx : ox, oy, is_u ? oz : oz - 0.5 * dx,
                       dx, q);
        } else {
            for (int k = 0; k < nz; k++)
                for (int i = 0; i < nx; i++)
                    s->fv[i + nx * k] = is_u ? 0.5f * (q[i + fx * k] + q[i + 1 + fx * k])
                                             : 0.5f * (q[i + fx * k] + q[i + fx * (k + 1)]);
            lq_view_hf(v, name, nx, nz, ox, oy, oz, dx, s->fv);
        }
    } else {
        return lq_error(LQ_EINPUT, "solver 'splash' has no field '%s'", name);
    }
    return rc;
}

/* Spray particles as PLY columns. */
static int lq_splash_points(void *state, lq_points_view *pv)
{
    static const char *const names[] = {"x", "y", "z", "vx", "vy", "vz", "volume"};
    lq_splash *s = state;
    int n = s->live;
    memset(pv, 0, sizeof *pv);
    pv->nprops = 7;
    pv->names = names;
    if (n <= 0 || s->columns_state.capacity == 0) {
        static const float none[1] = {0};
        pv->n = 0;
        for (int a = 0; a < 7; a++) pv->columns[a] = none;
        return LQ_OK;
    }
    if (n > s->pcap) {
        for (int a = 0; a < 7; a++) {
            free(s->pv[a]);
            s->pv[a] = lq_alloc((size_t)n * sizeof(float));
            if (!s->pv[a]) return LQ_ESIM;
        }
        s->pcap = n;
    }
    float *all = lq_alloc(lq_field_bytes(&s->columns_state.part[s->columns_state.cur]));
    if (!all) return LQ_ESIM;
    int rc = lq_field_download(&s->columns_state.part[s->columns_state.cur], all);
    for (int j = 0; j < n && !rc; j++)
        for (int a = 0; a < 7; a++) s->pv[a][j] = all[(size_t)j * LQ_COLUMNS_PSTRIDE + a];
    free(all);
    pv->n = n;
    for (int a = 0; a < 7; a++) pv->columns[a] = s->pv[a];
    return rc;
}

static int lq_splash_objects_view(void *state, const lq_object_record **rec, int *n)
{
    lq_splash *s = state;
    for (int i = 0; i < s->nobj; i++) {
        const lq_splash_object *o = &s->obj[i];
        lq_object_record *r = &s->rec[i];
        r->name = o->name;
        memcpy(r->pos, o->body.pos, sizeof r->pos);
        memcpy(r->q, o->body.q, sizeof r->q);
        memcpy(r->vel, o->body.vel, sizeof r->vel);
        memcpy(r->omega, o->body.omega, sizeof r->omega);
        r->force = o->frame_force;
        lq_body_view(&o->body, o->rgb[0], o->rgb[1], o->rgb[2], &r->view);
    }
    *rec = s->rec;
    *n = s->nobj;
    return LQ_OK;
}

/* --- checkpoints: the host scalars and bodies, then the device state. Scratch (the
 * eq. 9 factors, block sums, the idle particle buffer) is rebuilt every step. */
typedef struct lq_splash_scalars {
    double t, dt_prev, dmax, v0, lost, clamped, bin, bout, absorbed;
    int64_t emitted, dropped, limited;
    int32_t step, live, nx, nz, nobj, cur, capacity, rect[4];
} lq_splash_scalars;

static lq_field *const *lq_splash_ckpt_fields(lq_splash *s, int *n)
{
    static lq_field *fs[10];
    lq_columns_state *st = &s->columns_state;
    lq_field *list[] = {&st->d,  &st->e,  &st->hd,  &st->qx,       &st->qz,
                        &st->qd, &st->qa, &st->ret, &st->counters, &st->part[st->cur]};
    memcpy(fs, list, sizeof list);
    *n = (int)LQ_COUNT(list);
    return fs;
}

static int lq_splash_save(void *state, FILE *f)
{
    lq_splash *s = state;
    lq_long acc[LQ_COLUMNS_ACC_L_COUNT];
    int rc = lq_splash_drain_acc(s, acc);
    if (rc) return rc;
    lq_splash_scalars sc;
    memset(&sc, 0, sizeof sc);
    sc.t = s->t;
    sc.dt_prev = s->dt_prev;
    sc.dmax = s->dmax;
    sc.v0 = s->v0;
    sc.lost = s->lost;
    sc.clamped = s->clamped;
    sc.bin = s->bin;
    sc.bout = s->bout;
    sc.absorbed = s->absorbed;
    sc.emitted = s->emitted;
    sc.step = s->step;
    sc.live = s->live;
    sc.nx = s->g.nx;
    sc.nz = s->g.nz;
    sc.nobj = s->nobj;
    sc.cur = s->columns_state.cur;
    sc.capacity = s->columns_state.capacity;
    memcpy(sc.rect, s->prev_rect, sizeof sc.rect);
    rc = lq_checkpoint_put(f, &sc, sizeof sc);
    for (int i = 0; i < s->nobj && !rc; i++) {
        const lq_splash_object *o = &s->obj[i];
        double b[19];
        memcpy(b, o->body.pos, 24);
        memcpy(b + 3, o->body.vel, 24);
        memcpy(b + 6, o->body.q, 32);
        memcpy(b + 10, o->body.omega, 24);
        memcpy(b + 13, o->force, 24);
        memcpy(b + 16, o->torque, 24);
        rc = lq_checkpoint_put(f, b, sizeof b);
        double extra[2] = {o->submerged, o->touching ? 1.0 : 0.0};
        if (!rc) rc = lq_checkpoint_put(f, extra, sizeof extra);
    }
    int nf;
    lq_field *const *fs = lq_splash_ckpt_fields(s, &nf);
    for (int i = 0; i < nf && !rc; i++) {
        void *buf = lq_alloc(lq_field_bytes(fs[i]));
        if (!buf) return LQ_ESIM;
        rc = lq_field_download(fs[i], buf);
        if (!rc) rc = lq_checkpoint_put(f, buf, lq_field_bytes(fs[i]));
        free(buf);
    }
    return rc;
}

static int lq_splash_load(void *state, FILE *f)
{
    lq_splash *s = state;
    lq_splash_scalars sc;
    int rc = lq_checkpoint_get(f, &sc, sizeof sc);
    if (rc) return rc;
    if (sc.nx != s->g.nx || sc.nz != s->g.nz || sc.nobj != s->nobj ||
        sc.capacity != s->columns_state.capacity)
        return lq_error(LQ_EINPUT,
                        "the checkpoint is for a %d x %d grid with %d objects and room for %d "
                        "particles",
                        sc.nx, sc.nz, sc.nobj, sc.capacity);
    /* the counts and indices the steps use, checked before they are */
    rc = lq_checkpoint_count(f, "particle buffer", sc.cur, 0, 1, 0);
    if (!rc) rc = lq_checkpoint_count(f, "spray particle count", sc.live, 0, sc.capacity, 0);
    if (!rc) rc = lq_checkpoint_count(f, "contact rectangle's i0", sc.rect[0], 0, sc.nx, 0);
    if (!rc) rc = lq_checkpoint_count(f, "contact rectangle's k0", sc.rect[1], 0, sc.nz, 0);
    if (!rc)
        rc = lq_checkpoint_count(f, "contact rectangle's width", sc.rect[2], 0, sc.nx - sc.rect[0],
                                 0);
    if (!rc)
        rc = lq_checkpoint_count(f, "contact rectangle's depth", sc.rect[3], 0, sc.nz - sc.rect[1],
                                 0);
    if (rc) return rc;
    for (int i = 0; i < s->nobj && !rc; i++) {
        lq_splash_object *o = &s->obj[i];
        double b[19], extra[2];
        rc = lq_checkpoint_get(f, b, sizeof b);
        if (!rc) rc = lq_checkpoint_get(f, extra, sizeof extra);
        if (rc) break;
        memcpy(o->body.pos, b, 24);
        memcpy(o->body.vel, b + 3, 24);
        memcpy(o->body.q, b + 6, 32);
        memcpy(o->body.omega, b + 10, 24);
        memcpy(o->force, b + 13, 24);
        memcpy(o->torque, b + 16, 24);
        o->submerged = extra[0];
        o->touching = extra[1] != 0;
    }
    s->columns_state.cur = sc.cur;
    int nf;
    lq_field *const *fs = lq_splash_ckpt_fields(s, &nf);
    for (int i = 0; i < nf && !rc; i++) {
        void *buf = lq_alloc(lq_field_bytes(fs[i]));
        if (!buf) return LQ_ESIM;
        rc = lq_checkpoint_get(f, buf, lq_field_bytes(fs[i]));
        if (!rc) rc = lq_field_upload(fs[i], buf);
        free(buf);
    }
    if (rc) return rc;
    s->t = sc.t;
    s->dt_prev = sc.dt_prev;
    s->dmax = sc.dmax;
    s->v0 = sc.v0;
    s->lost = sc.lost;
    s->clamped = sc.clamped;
    s->bin = sc.bin;
    s->bout = sc.bout;
    s->absorbed = sc.absorbed;
    s->emitted = sc.emitted;
    s->step = sc.step;
    s->live = sc.live;
    memcpy(s->prev_rect, sc.rect, sizeof sc.rect);
    return LQ_OK;
}

const lq_solver_vt lq_splash_solver = {
    .name = "splash",
    .fields = lq_splash_fields,
    .height_field = true,
    .create = lq_splash_create,
    .destroy = lq_splash_destroy,
    .advance = lq_splash_advance,
    .measure = lq_splash_measure,
    .view = lq_splash_view,
    .save = lq_splash_save,
    .load = lq_splash_load,
    .points = lq_splash_points,
    .objects = lq_splash_objects_view,
};
