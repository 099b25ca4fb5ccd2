/*
 * pls.c — the `pls` solver: 3D liquid (2D with nz = 1) after N. Rasmussen, D. Enright,
 * D. Nguyen, S. Marino, N. Sumner, W. Geiger, S. Hoon and R. Fedkiw, "Directable
 * photorealistic liquids" (SCA 2004), §3 and §5. The liquid is the φ ≤ 0 region of a
 * level set carried with the particle level set of Enright, Fedkiw, Ferziger & Mitchell
 * (2002, [EMF02]); velocity by the "stable fluids" semi-Lagrangian step of eq. 2,
 * pressure by a ghost-fluid Poisson solve with p = 0 in the air (eq. 1). One step of dt
 * (lq_pls_step, one stage per line):
 *
 *   §5.3. with pls.window (host/ops/pls/plswindow.h), before every pls.window.every-th step:
 *      the grid is a window onto a fixed logical grid (pls.window.domain), moved by whole
 *      cells so nothing is interpolated (eq. 2 unchanged: no moving frame). The bounding
 *      box of the φ < 0 cells (a device reduction, one 32-byte read: the step's one added
 *      host wait) within pls.window.margin cells of a face moves the window to centre it on
 *      that axis, clamped to the domain; with pls.window.follow: path the window's origin
 *      goes instead to the keyframed path (host/scene/path.h) at t + dt, rounded to whole
 *      cells from grid.origin, clamped to the domain (the box still read: what is cut off is
 *      counted). φ, u v w, p and ν₀ per cell move with it (the
 *      uncovered cells air at the reinitialisation's cap, their faces the nearest kept
 *      face's velocity, the window's edge faces walls), the particles by −d h (those left
 *      outside deleted, counted), the moving objects' centres and the control particles'
 *      origin with the window's origin (their sdf and bins rebuilt); the static obstacles,
 *      terrain and sources[] (world-placed) rebuilt for the new placement on the host by
 *      start-up's own rasterisers (lq_pls_window_statics: exactly a fixed grid's fields
 *      there, every kind pls takes, no new kernel; the sources keep their state), then φ
 *      and §5.5.1's velocity into the solids. The open inlets join the box (the window
 *      holds them); a box longer than the window less its margins puts its growing end
 *      (the front) at the margin. The liquid it leaves behind is the zero set's volume
 *      lost (stats: window_out_volume). Outputs take the window's origin, so they stay in
 *      world coordinates; checkpoints hold its offset and last box;
 *   0. with `control:` (§4, host/ops/pls/controls.h, plscontrol.h) the control particles
 *      are placed at t + dt and binned on the device (once, when nothing in them moves);
 *   1. the particles move (RK2 through the extrapolated u); with objects and
 *      pls.object_stratify the liquid particles within a cell of an object (0 ≤ sdf < h,
 *      on the liquid side φ ≤ 0) are labelled with their sdf first (§5.5.3);
 *   2. φ is advected (eq. 3, semi-Lagrangian; with liquid[].viscosity the ν₀ per cell
 *      with it). With objects, the objects at t + dt: sdf and their velocity on the faces
 *      (host/ops/pls/plsobject.h), φ extrapolated into them (§5.5.2), the labelled liquid
 *      particles moved off them (their approach along the object normal relative to the
 *      object's motion removed, then projected out to their labelled sdf: §5.5.3), air
 *      particles within a cell of them and all particles inside them deleted;
 *   3. escaped particles correct φ; φ is reinitialised to a signed distance (its interface
 *      cells whose |∇φ| is within pls.reinit_keep of 1 keep their φ, so the step does not
 *      move the surface where φ is already a distance; with pls.reinit_threshold only in
 *      steps where the band's mean ||∇φ| − 1| exceeds it); the particles correct it
 *      again; those still escaped by more than 1.5 r (air) or 3 r (liquid) are deleted;
 *      their radii are adjusted; every pls.reseed_every steps they are reseeded
 *      ([EMF02]'s order); then level-set control particles blend φ toward theirs and
 *      erasers cut the liquid away (§4.3, fig. 2), and the particles in the cells that
 *      moved are deleted and the band reseeded (§4.3: "reseeded to the adjusted
 *      interface location");
 *      With pls.volume_correction (opt-in, not the paper's) φ is then shifted by one
 *      constant back to the initial zero-set volume (reported as volume_correction);
 *   §6. with pls.texture, the texture particles (host/ops/pls/texparticles.h: seeded on
 *      the initial surface, each carrying its rest coordinate) move as the level-set
 *      particles did in 1, then (pls.texture.project) onto the reinitialised φ = 0; the
 *      run writes their rest coordinate per mesh vertex (host/views/texmap.h);
 *   4. the velocity is advected by itself (eq. 2's convection);
 *   5. gravity g·dt on the faces beside liquid (eq. 2's g); with objects first
 *      (separation) dry object cells the liquid flows into are closed, then §5.5.1 at
 *      every closed face (an object cell on either side): the object's normal velocity (at
 *      a wall face its own component), the tangential part inside the objects by
 *      pls.object_friction (α), then gravity elsewhere; with pls.object_separation only at
 *      the faces beside object cells still liquid (φ ≤ 0): beside the cells §5.5.2 turned
 *      to air the liquid keeps its own normal velocity where it moves away (§5.5.1's
 *      inequality) and gets gravity. Then viscosity (§5.1, when pls.viscosity or a
 *      liquid[].viscosity is above 0, ν(t) by pls.viscosity_change; viscosity control
 *      particles blend ν per cell first, §4.1): explicit cross terms from uⁿ, implicit per
 *      component on the advected velocity plus g·dt, as the paper orders it. Then
 *      sources[] (host/ops/pls/plssource.h): the outlets remove their liquid (air to the
 *      projection), the inlets open for t + dt fill their cells and hold their velocity on
 *      their faces (a boundary of the projection, as §5.4 holds sourced values while eq. 1
 *      and 2 are solved, so the flux they hold is what the next step's advection carries
 *      out). Then velocity control (eq. 4), hard where α > 0.9: those liquid cells' faces
 *      take the particles' velocity; it sees the open inlets as solids, so it never
 *      overrides a held inlet face, and its solid field holds objects, inlets and hard
 *      cells together. Last (§5.6, pls.enslave_pockets, with objects, inlets or velocity
 *      control) the liquid regions that reach no air on that solid field are found
 *      (connected components, host/ops/pls/plspocket.h), made solid too and their faces
 *      given the diffused velocity of their boundary, so that no region of the solve is
 *      walled in by Neumann faces whose flux it cannot balance;
 *   6. the projection (eq. 1): p = 0 at the φ = 0 surface at sub-cell position (ghost
 *      fluid); the domain edge, objects (sdf ≤ 0), open inlets, hard-controlled cells
 *      (§4.3) and enslaved pockets (§5.6) Neumann: the closed faces keep their velocity, whose flux
 * enters the right-hand side (0 at rest, the wall's when moving, the inlet's); with separation an
 * object cell with φ > 0 is air (p = 0, its faces open), so a face whose normal velocity is not the
 * object's is never a fixed flux; divergence particles add their target ∇·u to the right-hand side;
 *   7. the velocity is extrapolated into the air band (CFL + 2 layers) and into objects;
 *      with separation (§5.5.2) object cells the liquid leaves (urel·N > 0.1 |urel| with
 *      uext just extrapolated, and a tension, p < 0, in the liquid beside them in the
 *      projection just solved) turn to air (φ = |sdf|) for the next step's φ advection;
 *      then (pls.divfree, the default) the band is projected divergence-free (§5.2; in
 *      closed mode the object faces are open there, the object cells p = 0); then §5.5.1
 *      again inside the objects for the next advection.
 *
 * Volume (stats.jsonl): liquid_volume and volume_change are the volume of φ's zero set
 * (the piecewise-linear φ on the dual grid, host/ops/pls/plsforce.h), which only a moving
 * surface changes; volume_heaviside and volume_change_heaviside the per-cell smoothed
 * Heaviside, which also moves with |∇φ| (measured: the dam break's reinitialisations
 * summed to −23 % in it where the zero set moved −6 %).
 *
 * Invariants. dt = cfl·h / max|u|, at most cfl·sqrt(h / |g|), the frame's rest cut into
 * equal steps (core/framesplit.h). Grid: the pls conventions (no wall layer; the domain
 * edge is a closed wall, free-slip or, per wall by `walls`, no-slip: the tangential
 * velocity's ghost beyond it is −u, in the velocity's advection sample (4) and in the
 * viscous step (5); the normal faces are 0 either way, the projection and the
 * extrapolation see only those).  Objects (obstacles box, sphere, cylinder) are an
 * analytic signed distance at cell centres; mesh and mask obstacles and terrain are
 * voxelised (host/world/voxel.c) and reinitialised into one. Boxes, spheres, cylinders
 * and meshes with obstacles[].motion move (keyframed rigid motion,
 * host/ops/pls/plsobject.h); their pose is a function of t, so a checkpoint needs nothing
 * new. Static objects take the moving ones' path with zero velocity ("these boundary
 * conditions are used for both moving and stationary objects", §5.5), so friction α and
 * separation act at them too. Why steps 2, 3, 5 and 7 treat particles and objects as they
 * do, with the measurements: docs/VALIDATION.md, `pls`.
 *
 * Not yet here: moving obstacles together with static mesh, mask or terrain solids (the
 * scene is refused), moving inlets and outlets; a window (pls.window) with texture particles
 * (refused) or resized; the window's static fields rebuilt on the device. A liquid with
 * no air at all is one closed tank: its pockets are not enslaved (the projection removes b's mean),
 * so two closed tanks in one scene only converge when each one's walls bring no net flux.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/band.h"
#include "io/checkpoint.h"
#include "io/io.h"
#include "ops/pls/controls.h"
#include "ops/pls/extrap.h"
#include "common/mac_grid.h"
#include "ops/pls/plscontrol.h"
#include "ops/pls/plsforce.h"
#include "ops/pls/plsobject.h"
#include "ops/pls/plsparticles.h"
#include "ops/pls/plspocket.h"
#include "ops/pls/plssource.h"
#include "ops/pls/plswindow.h"
#include "ops/pls/poisson.h"
#include "ops/pls/reinit.h"
#include "ops/pls/sladvect.h"
#include "ops/pls/texparticles.h"
#include "core/budget.h"
#include "core/framesplit.h"
#include "core/profile.h"
#include "core/solver_api.h"
#include "scene/config.h"
#include "scene/path.h"
#include "scene/timefn.h"
#include "ops/pls/viscosity.h"
#include "world/voxel.h"

enum {
    LQ_PLS_R_SL = 1,
    LQ_PLS_R_REINIT = 2,
    LQ_PLS_R_OPS = 4,
    LQ_PLS_R_STATE = 8,
    LQ_PLS_R_POISSON = 16,
    LQ_PLS_R_EXTRAP = 32,
    LQ_PLS_R_FORCE = 64,
    LQ_PLS_R_VISC = 128,
    LQ_PLS_R_OBJ = 256,
    LQ_PLS_R_TEX = 512,
    LQ_PLS_R_SRC = 1024,
    LQ_PLS_R_CONTROL = 2048,
    LQ_PLS_R_POCKET = 4096,
    LQ_PLS_R_WINDOW = 8192
};

/* The scratch pool's fields: floats (a float per face of the largest face lattice; the
 * last three per cell) and bytes (a byte per face). */
#define LQ_PLS_POOL_FLOATS 6
#define LQ_PLS_POOL_BYTES  4

typedef struct lq_pls {
    lq_ctx *ctx;
    int nx, ny, nz, has_sdf, reseed_every;
    bool divfree;
    double h, origin[3], g[3], cfl, fps, cellv;
    lq_field u, v, w, un, vn, wn, phi, phin, sdf, b, p;
    bool sdf_reinit; /* sdf holds voxelised objects: reinitialise it to a distance */
    bool viscous;    /* pls.viscosity > 0: §5.1's split, implicit per component */
    lq_timefn nu_t;  /* ν over time (pls.viscosity and pls.viscosity_change) */
    lq_viscosity_ops viscosity;
    lq_viscosity_params viscosity_params;
    lq_field nu; /* ν per cell */
    /* liquid[].viscosity: ν₀ per cell, carried by the liquid (advected with φ into nun,
     * then swapped); ν = ν₀ times pls.viscosity_change's factor */
    bool nu_regions;
    lq_field nun;
    float *nu0h;    /* ν₀ on the host until it is uploaded */
    double nu_base; /* pls.viscosity */
    /* §5.5 moving obstacles (host/ops/pls/plsobject.h): sdf is rebuilt every step from the static
     * objects' sdf_static and the moving ones at the step's end time */
    bool moving, has_static, separation;
    bool stratify; /* §5.5.3 stratified liquid particles (pls.object_stratify) */
    bool objects;  /* any object (static or moving): the §5.5 path */
    lq_plsobject_ops plsobject;
    lq_field sdf_static;
    /* sources[]: inlets and outlets (host/ops/pls/plssource.h) */
    bool sources;
    lq_plssource_set *source_set; /* read before the plan, handed to plssource after */
    lq_plssource_ops plssource;
    /* grids[] (§5.4, host/io/band.h): the bands this grid writes for its downstream grids
     * (band_out) and holds from its upstream ones (band_in), through host copies of φ, u,
     * v, w (band_host); band_solid: the projection's solid field with the held cells */
    int nband_out, nband_in; /* nband_out: 1 when this grid stores a shell */
    lq_band_id band_out_id;
    lq_band_shell band_out;
    lq_band_reader *band_in; /* nband_in readers */
    float *band_host[4], *band_vals, *band_solid_host;
    lq_field band_solid;
    const char *bands_dir;
    /* §4 control particles (host/ops/pls/controls.h, plscontrol.h): made at create, placed
     * and binned each step (once when nothing in them moves or changes) */
    bool control, control_binned;
    unsigned control_kinds; /* 1 << LQ_PLSCONTROL_* */
    lq_controls controls;
    lq_plscontrol_ops plscontrol;
    /* §5.6 enslaved pockets (host/ops/pls/plspocket.h): with obstacles, inlets or velocity
     * control and pls.enslave_pockets */
    bool pockets;
    int pocket_passes;
    lq_plspocket_ops plspocket;
    int noslip;           /* walls: bit 2 d + side no-slip (walls:, x_min 0 ... z_max 5) */
    int visc_iters;       /* this frame's CG iterations, all components */
    int visc_unconverged; /* this frame's steps whose viscous solve stopped short */
    double visc_residual; /* this frame's worst final ‖b − Ax‖ / ‖b‖ of the viscous solve */
    lq_viscosity_stats visc_worst; /* the last unconverged step's, for the warning */
    /* The scratch pool (lq_pls_pool): per-cell scratch of the stages that never overlap,
     * lent to sladvect, reinit, poisson and extrap in place of their own */
    lq_field pool_f[LQ_PLS_POOL_FLOATS], pool_b[LQ_PLS_POOL_BYTES];
    lq_sladvect_ops sladvect;
    lq_reinit_ops reinit;
    lq_plsparticles_ops plsparticles;
    lq_plsparticles_state plsparticles_state;
    lq_poisson_ops poisson;
    lq_extrap_ops extrap;
    lq_plsforce_ops plsforce;
    lq_sladvect_params sladvect_params;
    lq_reinit_params reinit_params;
    double reinit_threshold; /* pls.reinit_threshold: 0 every step */
    float departure_width;   /* cells: the band the departure is measured over */
    int reinits;             /* this frame's reinitialisations */
    double departure;        /* the last step's mean ||∇φ| − 1| in the band (-1: none) */
    bool volume_correction;  /* pls.volume_correction (opt-in) */
    double corrected;        /* m³ the correction added this frame */
    lq_plsparticles_params plsparticles_params;
    lq_poisson_params poisson_params;
    lq_extrap_params extrap_params;
    double t, dt_prev, volume0;
    double volume0_cells; /* the per-cell (smoothed Heaviside) measure's, for its stat */
    int step, frame;
    int max_steps;  /* time.max_steps */
    unsigned ready; /* bit per module whose init succeeded (LQ_PLS_R_*) */
    size_t device_bytes;
    /* this frame */
    int iterations, unconverged;
    double residual;
    long long escaped;
    float *fv, *gv, *pcols[5], *pbuf; /* host scratch of the views */
    int pcap;
    /* §6 texture particles (pls.texture, host/ops/pls/texparticles.h): the band cells to
     * seed (host, until seeded), the particles, the view's columns */
    bool texture, tex_project;
    int *tex_cells, tex_ncells;
    lq_texparticles_ops tex;
    lq_texparticles_state texst;
    lq_texparticles_params texprm;
    float *tbuf, *tcols[6];
    /* §5.3 the moving grid window (pls.window, host/ops/pls/plswindow.h): origin is the
     * window's, origin0 + off h; everything grid-relative (φ, u v w, p, ν₀, the particles,
     * the moving objects' centres, the control particles' records) is relative to it */
    bool window;
    int win_every, win_margin;
    int win_off[3];                   /* cells from grid.origin */
    long long win_min[3], win_max[3]; /* the offsets pls.window.domain allows (cells) */
    double origin0[3];                /* grid.origin */
    double win_out_volume;            /* m³ the window left behind, all time */
    long long win_out_particles;      /* particles it left behind, all time */
    lq_path *win_path;                /* pls.window.follow: path, its origin's keys (else NULL) */
    lq_plswindow_ops plswindow;
    /* the static obstacles and terrain (win_static) and sources[] in the window: rebuilt on
     * the host from the scene (cfg: it outlives the solver in every caller) for each
     * placement, with start-up's own rasterisers; win_sdf their host sdf */
    bool win_static;
    const lq_config *cfg;
    float *win_sdf;
    double win_pin[LQ_PLSSOURCE_MAX][6]; /* each inlet's box (world m; +inf: its cells') */
    bool win_seen;                       /* win_seen_box holds the last check's box */
    long long win_seen_box[6];           /* the liquid's box at the last check (cells from
                                            grid.origin): which end grows, the front */
} lq_pls;

#define LQ_PLS_PHI_LAYERS 6 /* §5.5.2: cells of φ extrapolated into objects */
/* Step 3: a particle still escaped after both corrections by more than this many of its
 * radii is deleted (air, liquid; the measurements: docs/VALIDATION.md, `pls` volume). */
#define LQ_PLS_ESCAPED_AIR    1.5f
#define LQ_PLS_ESCAPED_LIQUID 3.0f

static const char *const lq_pls_fields[] = {"phi", "u", "v", "w", "p", "solid", NULL};
static const char *const lq_pls_point_names[] = {"x", "y", "z", "radius", "sign"};

static void lq_pls_destroy(void *state)
{
    lq_pls *s = state;
    if (!s) return;
    /* only what was made: the modules' release functions need an initialised struct */
    if (s->ready & LQ_PLS_R_SL) lq_sladvect_ops_release(&s->sladvect);
    if (s->ready & LQ_PLS_R_REINIT) lq_reinit_ops_release(&s->reinit);
    if (s->ready & LQ_PLS_R_STATE) lq_plsparticles_state_release(&s->plsparticles_state);
    if (s->ready & LQ_PLS_R_OPS) lq_plsparticles_ops_release(&s->plsparticles);
    if (s->ready & LQ_PLS_R_POISSON) lq_poisson_ops_release(&s->poisson);
    if (s->ready & LQ_PLS_R_EXTRAP) lq_extrap_ops_release(&s->extrap);
    if (s->ready & LQ_PLS_R_FORCE) lq_plsforce_ops_release(&s->plsforce);
    if (s->ready & LQ_PLS_R_VISC) lq_viscosity_ops_release(&s->viscosity);
    if (s->ready & LQ_PLS_R_OBJ) lq_plsobject_ops_release(&s->plsobject);
    if (s->ready & LQ_PLS_R_TEX) lq_texparticles_ops_release(&s->tex);
    lq_texparticles_state_release(&s->texst);
    free(s->tex_cells);
    free(s->tbuf);
    for (int i = 0; i < 6; i++) free(s->tcols[i]);
    if (s->ready & LQ_PLS_R_SRC) lq_plssource_ops_release(&s->plssource);
    if (s->source_set) lq_plssource_set_free(s->source_set);
    free(s->source_set);
    if (s->ready & LQ_PLS_R_CONTROL) lq_plscontrol_ops_release(&s->plscontrol);
    if (s->ready & LQ_PLS_R_POCKET) lq_plspocket_ops_release(&s->plspocket);
    if (s->ready & LQ_PLS_R_WINDOW) lq_plswindow_ops_release(&s->plswindow);
    lq_path_free(s->win_path);
    lq_band_shell_free(&s->band_out);
    for (int i = 0; s->band_in && i < s->nband_in; i++) lq_band_reader_close(&s->band_in[i]);
    free(s->band_in);
    for (int i = 0; i < 4; i++) free(s->band_host[i]);
    free(s->band_vals);
    free(s->band_solid_host);
    lq_field_release(&s->band_solid);
    lq_controls_free(&s->controls);
    for (int i = 0; i < LQ_PLS_POOL_FLOATS; i++) lq_field_release(&s->pool_f[i]);
    for (int i = 0; i < LQ_PLS_POOL_BYTES; i++) lq_field_release(&s->pool_b[i]);
    lq_field_release(&s->sdf_static);
    free(s->win_sdf);
    lq_field_release(&s->nu);
    lq_field_release(&s->nun);
    free(s->nu0h);
    lq_field *fs[] = {&s->u,   &s->v,    &s->w,   &s->un, &s->vn, &s->wn,
                      &s->phi, &s->phin, &s->sdf, &s->b,  &s->p};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(s->fv);
    free(s->gv);
    free(s->pbuf);
    for (int i = 0; i < 5; i++) free(s->pcols[i]);
    free(s);
}

/* --- analytic shapes (world coordinates, m) ------------------------------------------ */

static double lq_pls_len3(double a, double b, double c)
{
    return sqrt(a * a + b * b + c * c);
}

static double lq_pls_sdf_box(const double x[3], const double a[3], const double b[3])
{
    double q[3], out = 0, in = -INFINITY;
    for (int k = 0; k < 3; k++) {
        q[k] = fabs(x[k] - 0.5 * (a[k] + b[k])) - 0.5 * (b[k] - a[k]);
        in = fmax(in, q[k]);
    }
    out = lq_pls_len3(fmax(q[0], 0), fmax(q[1], 0), fmax(q[2], 0));
    return out + fmin(in, 0);
}

/* One liquid item or obstacle. */
typedef struct lq_pls_item {
    int kind; /* 0 box, 1 sphere, 2 level (liquid), 3 cylinder (obstacle) */
    double a[3], b[3], r, hgt, vel[3];
    int axis;
    double amp, k, x0; /* a level's wave: η = level + amp cos(k (x_axis − x0)) */
    bool has_nu;       /* liquid[].viscosity set: nu */
    double nu;
} lq_pls_item;

/* In 2D the shapes are cut at their own centre's z (a 2D grid sees their cross-section). */
static double lq_pls_shape_sdf(const lq_pls_item *sh, const double x0[3], bool flat)
{
    double x[3] = {x0[0], x0[1], x0[2]};
    if (sh->kind == 0) {
        if (flat) x[2] = 0.5 * (sh->a[2] + sh->b[2]);
        return lq_pls_sdf_box(x, sh->a, sh->b);
    }
    if (flat) x[2] = sh->a[2];
    if (sh->kind == 1)
        return lq_pls_len3(x[0] - sh->a[0], x[1] - sh->a[1], x[2] - sh->a[2]) - sh->r;
    if (sh->kind == 2) /* the level, with its wave (not a distance: reinit makes it one) */
        return x[1] - sh->a[1] - (sh->amp != 0 ? sh->amp * cos(sh->k * (x[sh->axis] - sh->x0)) : 0);
    /* capped cylinder along axis: radial and axial distances, combined as a 2D box */
    double d[3] = {x[0] - sh->a[0], x[1] - sh->a[1], x[2] - sh->a[2]};
    double ax = fabs(d[sh->axis]) - 0.5 * sh->hgt;
    d[sh->axis] = 0;
    double rad = lq_pls_len3(d[0], d[1], d[2]) - sh->r;
    return sqrt(fmax(ax, 0) * fmax(ax, 0) + fmax(rad, 0) * fmax(rad, 0)) + fmin(fmax(ax, rad), 0);
}

/* liquid[] as items (a `wave` shapes the `level` just before it); *n gets the count. */
static int lq_pls_liquid_items(const lq_config *cfg, lq_pls_item **out, int *n)
{
    lq_pls_item *sh = lq_calloc((size_t)cfg->nliquid + 1, sizeof *sh);
    if (!sh) return LQ_ESIM;
    *out = sh;
    *n = 0;
    for (int it = 0; it < cfg->nliquid; it++) {
        const lq_config_liquid *q = &cfg->liquid[it];
        lq_pls_item *p = &sh[*n];
        bool has_nu = q->has_viscosity;
        double nu = has_nu ? q->viscosity : 0;
        if (q->kind == LQ_CONFIG_LIQUID_BOX) {
            p->kind = 0;
            memcpy(p->a, q->box.min, sizeof p->a);
            memcpy(p->b, q->box.max, sizeof p->b);
            memcpy(p->vel, q->box.velocity, sizeof p->vel);
        } else if (q->kind == LQ_CONFIG_LIQUID_SPHERE) {
            p->kind = 1;
            memcpy(p->a, q->sphere.center, sizeof p->a);
            p->r = q->sphere.radius;
            memcpy(p->vel, q->sphere.velocity, sizeof p->vel);
        } else if (q->kind == LQ_CONFIG_LIQUID_LEVEL) {
            p->kind = 2;
            p->a[1] = q->level;
        } else if (q->kind == LQ_CONFIG_LIQUID_WAVE) {
            /* a standing mode of the closed domain on the `level` item just before it (as
             * host/solvers/mac.c does for its markers, here without a wall layer: the
             * basin is the domain, x from grid.origin to origin + n h) */
            lq_pls_item *lv = *n > 0 ? &sh[*n - 1] : NULL;
            if (!lv || lv->kind != 2 || lv->amp != 0)
                return lq_config_error(cfg, q->at,
                                       "solver 'pls' adds a wave to the `level` item just before "
                                       "it (one wave per level)");
            lv->amp = q->wave.amplitude;
            int mode = q->wave.mode;
            lv->axis = q->wave.axis;
            const int *size = cfg->grid.size;
            if (size[lv->axis] < 2)
                return lq_config_error(cfg, q->wave.at_axis, "a wave along z needs nz > 1");
            lv->x0 = cfg->grid.origin[lv->axis];
            lv->k = mode * LQ_PI / (size[lv->axis] * cfg->grid.cell);
            if (has_nu) lv->has_nu = true, lv->nu = nu; /* the wave's liquid is the level's */
            continue;
        } else {
            return lq_config_error(cfg, q->at, "liquid '%s' is not supported by solver 'pls' yet",
                                   q->kind_word);
        }
        p->has_nu = has_nu;
        p->nu = nu;
        (*n)++;
    }
    return LQ_OK;
}

/* The static obstacles[] with an analytic distance (box, sphere, cylinder); moving ones
 * are host/ops/pls/plsobject.c's, mesh and mask ones voxelised. *n gets the count. */
static int lq_pls_obstacle_items(const lq_config *cfg, lq_pls_item **out, int *n)
{
    lq_pls_item *sh = lq_calloc((size_t)cfg->nobstacles + 1, sizeof *sh);
    if (!sh) return LQ_ESIM;
    *out = sh;
    *n = 0;
    for (int it = 0; it < cfg->nobstacles; it++) {
        const lq_config_obstacle *q = &cfg->obstacles[it];
        lq_pls_item *p = &sh[*n];
        if (q->has_motion) continue; /* moving: host/ops/pls/plsobject.c */
        if (q->kind == LQ_CONFIG_OBSTACLE_BOX) {
            p->kind = 0;
            memcpy(p->a, q->box.min, sizeof p->a);
            memcpy(p->b, q->box.max, sizeof p->b);
        } else if (q->kind == LQ_CONFIG_OBSTACLE_SPHERE) {
            p->kind = 1;
            memcpy(p->a, q->sphere.center, sizeof p->a);
            p->r = q->sphere.radius;
        } else if (q->kind == LQ_CONFIG_OBSTACLE_CYLINDER) {
            p->kind = 3;
            memcpy(p->a, q->cylinder.center, sizeof p->a);
            p->r = q->cylinder.radius;
            p->hgt = q->cylinder.height;
            p->axis = q->cylinder.axis;
        } else if (q->kind == LQ_CONFIG_OBSTACLE_MESH || q->kind == LQ_CONFIG_OBSTACLE_MASK) {
            continue; /* voxelised (host/world/voxel.c), then a distance by reinitialisation */
        } else {
            return lq_config_error(cfg, q->at, "obstacle '%s' is not supported by solver 'pls' yet",
                                   q->kind_word);
        }
        (*n)++;
    }
    return LQ_OK;
}

/* World position of cell (i, j, k)'s centre, or of a face (axis 0–2) at (i, j, k). */
static void lq_pls_world(const lq_pls *s, int axis, int i, int j, int k, double x[3])
{
    x[0] = s->origin[0] + (i + (axis == 0 ? 0.0 : 0.5)) * s->h;
    x[1] = s->origin[1] + (j + (axis == 1 ? 0.0 : 0.5)) * s->h;
    x[2] = s->origin[2] + (k + (axis == 2 ? 0.0 : 0.5)) * s->h;
}

/* The static obstacles' sdf at the cell centres of the grid at s->origin (world
 * coordinates, the union clamped to ±10 h): boxes, spheres and cylinders by their
 * analytic distance, mesh and mask obstacles and terrain by their cells (∓½ h, merged;
 * the solver then reinitialises sdf to a distance). *any: some static solid; *voxels: the
 * second kind among them. At start-up and, with pls.window, for each placement. */
static int lq_pls_static_sdf(const lq_pls *s, const lq_config *cfg, float *sdf, bool *any,
                             bool *voxels)
{
    lq_pls_item *obs = NULL;
    int no = 0, nx = s->nx, ny = s->ny, nz = s->nz;
    int rc = lq_pls_obstacle_items(cfg, &obs, &no);
    bool flat = nz == 1;
    double far = 5.0 * s->h * 2;
    for (int k = 0; k < nz && !rc; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double x[3], e = far;
                lq_pls_world(s, -1, i, j, k, x);
                for (int q = 0; q < no; q++) e = fmin(e, lq_pls_shape_sdf(&obs[q], x, flat));
                sdf[LQ_MAC_CELL(i, j, k, nx, ny)] = (float)fmax(-far, fmin(far, e));
            }
    free(obs);
    *any = no > 0;
    *voxels = cfg->nterrain > 0;
    for (int it = 0; it < cfg->nobstacles; it++) {
        const lq_config_obstacle *q = &cfg->obstacles[it];
        if (q->has_motion) continue;
        *voxels =
            *voxels || q->kind == LQ_CONFIG_OBSTACLE_MESH || q->kind == LQ_CONFIG_OBSTACLE_MASK;
    }
    *any = *any || *voxels;
    if (rc || !*voxels) return rc;
    size_t n = (size_t)nx * ny * nz;
    unsigned char *solid = lq_calloc(n, 1), *ns = lq_calloc(n, 1);
    rc = solid && ns ? lq_voxel_obstacles(cfg, nx, ny, nz, s->h, s->origin, solid, ns) : LQ_ESIM;
    for (size_t c = 0; c < n && !rc; c++)
        sdf[c] = fminf(sdf[c], (float)((solid[c] ? -0.5 : 0.5) * s->h));
    free(solid);
    free(ns);
    return rc;
}

/* φ (the union of the liquid items, clamped to ±10 h) and sdf (the union of the static
 * obstacles, lq_pls_static_sdf) at the cell centres on the host; *band gets the cells
 * within the particle band. */
static int lq_pls_initial_phi(lq_pls *s, const lq_config *cfg, float *phi, float *sdf, size_t *band)
{
    lq_pls_item *liq = NULL;
    int nl = 0, nx = s->nx, ny = s->ny, nz = s->nz;
    int rc = lq_pls_liquid_items(cfg, &liq, &nl);
    bool flat = nz == 1;
    double far = 5.0 * s->h * 2;
    *band = 0;
    for (int q = 0; q < nl; q++) s->nu_regions = s->nu_regions || liq[q].has_nu;
    if (!rc && s->nu_regions) {
        s->nu0h = lq_calloc((size_t)nx * ny * nz, sizeof *s->nu0h);
        if (!s->nu0h) rc = LQ_ESIM;
    }
    for (int k = 0; k < nz && !rc; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double x[3], d = far;
                lq_pls_world(s, -1, i, j, k, x);
                for (int q = 0; q < nl; q++) d = fmin(d, lq_pls_shape_sdf(&liq[q], x, flat));
                size_t c = LQ_MAC_CELL(i, j, k, nx, ny);
                phi[c] = (float)fmax(-far, fmin(far, d));
                if (s->nu_regions) { /* ν₀: the last item with a viscosity holding the centre */
                    double nu = s->nu_base;
                    for (int q = 0; q < nl; q++)
                        if (liq[q].has_nu && lq_pls_shape_sdf(&liq[q], x, flat) <= 0)
                            nu = liq[q].nu;
                    s->nu0h[c] = (float)nu;
                }
                *band += fabs(d) < s->plsparticles_params.band;
            }
    free(liq);
    bool any = false, voxels = false, moving = false;
    for (int it = 0; it < cfg->nobstacles; it++) moving = moving || cfg->obstacles[it].has_motion;
    if (!rc) rc = lq_pls_static_sdf(s, cfg, sdf, &any, &voxels);
    if (!rc && voxels && moving) /* host/world/voxel.c would fill the moving shapes too */
        rc = lq_config_error(cfg, cfg->at_obstacles,
                             "solver 'pls' cannot yet move obstacles in a scene with static mesh "
                             "or mask obstacles or terrain");
    s->has_sdf = any;
    s->sdf_reinit = voxels;
    return rc;
}

/* Faces whose midpoint lies within half a cell of a moving liquid item take its velocity
 * (the last such item wins). */
static int lq_pls_initial_velocity(lq_pls *s, const lq_config *cfg)
{
    lq_pls_item *liq = NULL;
    int nl = 0, nx = s->nx, ny = s->ny, nz = s->nz;
    int rc = lq_pls_liquid_items(cfg, &liq, &nl);
    bool flat = nz == 1;
    lq_field *f[3] = {&s->u, &s->v, &s->w};
    for (int a = 0; a < 3 && !rc; a++) {
        bool any = false;
        for (int q = 0; q < nl; q++) any = any || liq[q].vel[a] != 0;
        if (!any || (flat && a == 2)) continue;
        int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
        memset(s->fv, 0, (size_t)fx * fy * fz * sizeof(float));
        for (int k = 0; k < fz; k++)
            for (int j = 0; j < fy; j++)
                for (int i = 0; i < fx; i++) {
                    double x[3];
                    lq_pls_world(s, a, i, j, k, x);
                    for (int q = 0; q < nl; q++)
                        if (liq[q].kind != 2 && lq_pls_shape_sdf(&liq[q], x, flat) <= 0.5 * s->h)
                            s->fv[i + (size_t)fx * (j + (size_t)fy * k)] = (float)liq[q].vel[a];
                }
        rc = lq_field_upload(f[a], s->fv);
    }
    free(liq);
    return rc;
}

/* --- the scratch pool ------------------------------------------------------------------
 *
 * Four modules keep per-cell scratch that is live only inside their own stages of a step
 * (lq_pls_step): sladvect (q~ and the departure points: "phi advected", "velocity
 * advected"), reinit (φ0, the FIM's stamps and lists: "phi reinitialised"), poisson (the
 * system's mask and diagonal, CG's r z d q, multigrid level 0's state and unknown list:
 * "projection") and extrap (the layer masks, object_bc's output, the fronts' lists, §5.2's
 * band system: "gravity and object faces", "velocity extrapolated", "divergence-free
 * band"). No two of those stages overlap, and each module writes every buffer before it
 * reads it within a call (extrap.h, poisson.h, reinit.h, sladvect.h say how), so one
 * pool serves them all, each taking views of the same fields. The only spans that cross
 * a call are extrap's own, and no other module runs inside them: object_bc's output kept
 * for object_restore around the body force (both in "gravity and object faces"), and the
 * layer masks lq_extrap_velocity leaves for lq_extrap_divfree ("velocity extrapolated",
 * then plsobject_separate, which uses its own buffers, then "divergence-free band").
 * Nothing in the pool carries from one step to the next, or to the output.
 *
 *   pool    sladvect   reinit   poisson           extrap
 *   f0      q~         φ0       diag              object_bc u / fronts
 *   f1                 stamps   r                 object_bc v / fronts
 *   f2                 list 0   z                 object_bc w / fronts
 *   f3                 list 1   d                 §5.2 rhs / fronts
 *   f4                          q                 §5.2 p / fronts
 *   f5      departure           level 0's list    §5.2 colour lists / fronts
 *   b0                          mask              u's layer mask
 *   b1                          level 0's state   v's layer mask
 *   b2                                            w's layer mask
 *   b3                                            §5.2 band
 *
 * f0..f4 hold a float per face of the largest face lattice, f5 three floats per cell
 * (sladvect's departure points; a face lattice fits), b0..b3 a byte per face. */

/* The largest of the u, v, w lattices: its shape into d, its faces returned. */
static size_t lq_pls_pool_faces(const lq_pls *s, int d[3])
{
    size_t best = 0;
    for (int a = 0; a < 3; a++) {
        int e[3] = {s->nx + (a == 0), s->ny + (a == 1), s->nz + (a == 2)};
        size_t f = (size_t)e[0] * e[1] * e[2];
        if (f > best) {
            best = f;
            memcpy(d, e, sizeof e);
        }
    }
    return best;
}

/* The pool's bytes (lq_pls_plan) and the pool itself. */
static size_t lq_pls_pool_bytes(const lq_pls *s)
{
    int d[3];
    size_t fm = lq_pls_pool_faces(s, d), c = (size_t)s->nx * s->ny * s->nz;
    return (LQ_PLS_POOL_FLOATS - 1) * fm * 4 + 3 * c * 4 + LQ_PLS_POOL_BYTES * fm;
}

static int lq_pls_pool(lq_pls *s, lq_ctx *ctx)
{
    int d[3], rc = LQ_OK;
    lq_pls_pool_faces(s, d);
    for (int i = 0; i < LQ_PLS_POOL_FLOATS - 1 && !rc; i++)
        rc = lq_field_alloc(ctx, &s->pool_f[i], "pls.pool.float", d[0], d[1], d[2], 4);
    if (!rc)
        rc = lq_field_alloc(ctx, &s->pool_f[LQ_PLS_POOL_FLOATS - 1], "pls.pool.float3", s->nx,
                            s->ny, 3 * s->nz, 4);
    for (int i = 0; i < LQ_PLS_POOL_BYTES && !rc; i++)
        rc = lq_field_alloc(ctx, &s->pool_b[i], "pls.pool.byte", d[0], d[1], d[2], 1);
    return rc;
}

/* The modules that borrow the pool (the table above). */
static int lq_pls_pool_lend(lq_pls *s, lq_ctx *ctx)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    const lq_field *f[LQ_PLS_POOL_FLOATS], *b[LQ_PLS_POOL_BYTES];
    for (int i = 0; i < LQ_PLS_POOL_FLOATS; i++) f[i] = &s->pool_f[i];
    for (int i = 0; i < LQ_PLS_POOL_BYTES; i++) b[i] = &s->pool_b[i];
    const lq_field *re[4] = {f[0], f[1], f[2], f[3]};
    const lq_field *pf[6] = {f[0], f[1], f[2], f[3], f[4], f[5]};
#define LQ_PLS_LEND(bit, call)                                                                     \
    if (!rc) {                                                                                     \
        rc = (call);                                                                               \
        if (!rc) s->ready |= (bit);                                                                \
    }
    LQ_PLS_LEND(LQ_PLS_R_SL, lq_sladvect_ops_init_lent(&s->sladvect, ctx, nx, ny, nz, f[0], f[5]));
    LQ_PLS_LEND(LQ_PLS_R_REINIT, lq_reinit_ops_init_lent(&s->reinit, ctx, nx, ny, nz, re));
    LQ_PLS_LEND(LQ_PLS_R_POISSON, lq_poisson_ops_init_lent(&s->poisson, ctx, nx, ny, nz, b, pf));
    LQ_PLS_LEND(LQ_PLS_R_EXTRAP, lq_extrap_ops_init_lent(&s->extrap, ctx, nx, ny, nz, b, pf));
#undef LQ_PLS_LEND
    return rc;
}

/* Device bytes of every buffer the solver and its modules allocate (their ops_init and
 * state_init layouts), for lq_ctx_reserve_plan and the stats; names[i] says what
 * plan[i] holds (`liquidcl run --plan`). */
static int lq_pls_plan(const lq_pls *s, int capacity, size_t *plan, const char **names)
{
    size_t nx = s->nx, ny = s->ny, nz = s->nz, C = nx * ny * nz;
    size_t F = (nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1);
    int n = 0;
#define LQ_PLS_PART(bytes, name)                                                                   \
    do {                                                                                           \
        names[n] = (name);                                                                         \
        plan[n++] = (bytes);                                                                       \
    } while (0)
    LQ_PLS_PART(2 * F * 4, "velocity u v w and un vn wn");
    LQ_PLS_PART((size_t)(4 + s->has_sdf) * C * 4, s->has_sdf ? "phi phin b p sdf" : "phi phin b p");
    LQ_PLS_PART(lq_pls_pool_bytes(s), "scratch pool: semi-Lagrangian, reinitialisation, "
                                      "pressure system, CG, extrapolation (one at a time)");
    LQ_PLS_PART(28, "reinitialisation counters and departure");
    LQ_PLS_PART(lq_plsparticles_state_bytes(s->nx, s->ny, s->nz, capacity),
                "particles (two buffers), keys, counts, scans");
    LQ_PLS_PART(LQ_POISSON_GROUPS * 4 + 5 * LQ_POISSON_TAIL * 4 + 4 * LQ_POISSON_MAX_LEVELS * 4 +
                    LQ_CG_N * 8,
                "pressure reductions and CG scalars");
    size_t lx = nx, ly = ny, lz = nz, mg = 0; /* multigrid levels */
    for (int l = 0; l < LQ_POISSON_MAX_LEVELS; l++) {
        size_t lc = lx * ly * lz;
        /* state, unknown list (level 0's from the pool), its scan (3 ints per block of
         * cells, twice); res, coarse system */
        mg += 2 * 3 * (size_t)lq_scan_blocks_of((long long)lc) * 4 + (l > 0 ? lc * (5 + 17) : 0);
        if (LQ_MAX(LQ_MAX(lx, ly), lz) <= 4) break;
        lx = (lx + 1) / 2;
        ly = (ly + 1) / 2;
        if (lz > 1) lz = (lz + 1) / 2;
    }
    LQ_PLS_PART(mg, "multigrid levels");
    LQ_PLS_PART(32, "extrapolation counters");
    LQ_PLS_PART(lq_plsforce_ops_bytes(), "forces and reductions");
    if (s->viscous)
        LQ_PLS_PART(lq_viscosity_ops_bytes(s->nx, s->ny, s->nz) + C * (s->nu_regions ? 8 : 4),
                    s->nu_regions ? "viscosity solve, nu and nun" : "viscosity solve and nu");
    if (s->viscous && s->viscosity_params.precond == LQ_VISCOSITY_PRECOND_MG)
        LQ_PLS_PART(lq_viscosity_mg_bytes(s->nx, s->ny, s->nz), "viscosity multigrid levels");
    if (s->texture)
        LQ_PLS_PART(lq_texparticles_state_bytes(s->texst.capacity), "texture particles (§6)");
    if (s->sources)
        LQ_PLS_PART(lq_plssource_ops_bytes(s->nx, s->ny, s->nz, s->source_set->inlets),
                    "sources: regions, table, sums, solid field");
    if (s->control)
        LQ_PLS_PART(
            lq_plscontrol_ops_bytes(s->nx, s->ny, s->nz, s->controls.total, s->control_kinds),
            "control particles, their bins, per-cell control");
    if (s->pockets)
        LQ_PLS_PART(lq_plspocket_ops_bytes(), "pockets: counters (their fields are lent)");
    if (s->window) LQ_PLS_PART(lq_plswindow_ops_bytes(), "window: bounding box, counters");
#undef LQ_PLS_PART
    return n;
}

/* §5.5: the moving objects at time t (sdf and their face velocities), φ extrapolated
 * into them (§5.5.2, after φ's advection). */
static int lq_pls_objects_at(lq_pls *s, double t)
{
    int rc = s->moving ? lq_plsobject_update(&s->plsobject, t,
                                             s->has_static ? &s->sdf_static : NULL, &s->sdf)
                       : LQ_OK;
    if (!rc) rc = lq_plsobject_extrap_phi(&s->plsobject, &s->phi, &s->sdf, LQ_PLS_PHI_LAYERS);
    return rc;
}

/* --- set-up ---------------------------------------------------------------------- */

/* The grid and the modules' parameters from the scene, and the grid checks. */
static int lq_pls_config(lq_pls *s, const lq_config *cfg)
{
    const lq_config_grid *g = &cfg->grid;
    const lq_config_pls *c = &cfg->pls;
    if (g->nsize != 3)
        return lq_config_error(cfg, g->at_size, "solver 'pls' needs [nx, ny, nz] (nz = 1 for 2D)");
    s->nx = g->size[0];
    s->ny = g->size[1];
    s->nz = g->size[2];
    if (s->nx < 4 || s->ny < 4 || (s->nz != 1 && s->nz < 4))
        return lq_config_error(cfg, g->at_size,
                               "solver 'pls' needs at least 4 cells per axis, or nz = 1 for 2D");
    int nz = s->nz;
    s->h = g->cell;
    memcpy(s->origin, g->origin, sizeof s->origin);
    memcpy(s->g, cfg->gravity, sizeof s->g);
    if (nz == 1) s->g[2] = 0;
    s->cfl = c->cfl;
    s->fps = cfg->time.fps;
    s->max_steps = cfg->time.max_steps;
    s->cellv = s->h * s->h * (nz == 1 ? 1.0 : s->h);
    s->reseed_every = c->reseed_every;
    s->divfree = c->divfree;
    float h = (float)s->h;
    for (int f = 0; f < (nz == 1 ? 4 : 6); f++) s->noslip |= cfg->wall_noslip[f] << f;
    static const int velocity_scheme[] = {[LQ_CONFIG_ADVECT_PLAIN] = LQ_SLADVECT_PLAIN,
                                          [LQ_CONFIG_ADVECT_MACCORMACK] = LQ_SLADVECT_MACCORMACK,
                                          [LQ_CONFIG_ADVECT_BFECC] = LQ_SLADVECT_BFECC};
    s->sladvect_params =
        (lq_sladvect_params){.dt = 0,
                             .h = h,
                             .noslip = s->noslip,
                             .velocity_scheme = velocity_scheme[c->velocity_advection]};
    s->reinit_params = lq_reinit_params_default(h);
    s->reinit_params.method = c->reinit_pde ? LQ_REINIT_PDE : LQ_REINIT_FIM;
    s->reinit_params.keep = (float)c->reinit_keep;
    s->reinit_threshold = c->reinit_threshold;
    s->volume_correction = c->volume_correction;
    s->departure_width = (float)c->band;
    int per_cell = c->particles_per_cell;
    if (per_cell == 0) per_cell = nz == 1 ? 16 : 64;
    s->plsparticles_params = (lq_plsparticles_params){
        .h = h, .band = (float)(c->band * s->h), .per_cell = per_cell, .seed = 0x5eed};
    /* the reinitialised band must reach past the particles' deletion distance */
    s->reinit_params.band = fmaxf(s->reinit_params.band, (float)c->band + 2.0f);
    s->poisson_params =
        (lq_poisson_params){.h = h,
                            .solver = c->pressure == LQ_CONFIG_PLS_SOR      ? LQ_POISSON_SOR
                                      : c->pressure == LQ_CONFIG_PLS_JACOBI ? LQ_POISSON_JACOBI
                                                                            : LQ_POISSON_PCG,
                            .precond = LQ_POISSON_PRECOND_MG,
                            .tol = (float)c->tolerance,
                            .max_iter = c->max_iterations};
    s->extrap_params = lq_extrap_params_default();
    s->extrap_params.layers = (int)ceil(s->cfl) + 2;
    return LQ_OK;
}

/* follow: path's keys (rows t x y z) checked against the domain and made into s->win_path
 * (host/scene/path.h's Catmull-Rom; the z of a 2D window ignored). */
static int lq_pls_window_path(lq_pls *s, const lq_config *cfg)
{
    const lq_config_window *w = &cfg->pls.window;
    const lq_scene_node *at = w->at_path;
    bool path = w->follow == LQ_CONFIG_WINDOW_PATH;
    if (!path && w->npath > 0)
        return lq_config_error(cfg, at, "pls.window.path is for follow: path (follow is liquid)");
    if (!path) return LQ_OK;
    if (w->npath < 8 || w->npath % 4)
        return lq_config_error(cfg, at ? at : w->at_follow,
                               "follow: path needs pls.window.path, rows [t, x, y, z]: 4 numbers "
                               "each, at least two rows (%d numbers given)",
                               w->npath);
    int n = w->npath / 4, dims[3] = {s->nx, s->ny, s->nz};
    double *t = lq_alloc((size_t)n * sizeof *t), *p = lq_alloc((size_t)n * 3 * sizeof *p);
    int rc = t && p ? LQ_OK : LQ_ESIM;
    for (int k = 0; k < n && !rc; k++) {
        const double *r = w->path + 4 * k;
        t[k] = r[0];
        if (k > 0 && !(r[0] > t[k - 1])) {
            rc = lq_config_error(cfg, at,
                                 "pls.window.path row %d: time %g s is not after the row "
                                 "before's %g s (times must increase strictly)",
                                 k + 1, r[0], t[k - 1]);
            break;
        }
        for (int a = 0; a < 3 && !rc; a++) {
            p[3 * k + a] = a == 2 && s->nz == 1 ? s->origin0[2] : r[1 + a];
            double lo = w->domain_min[a], hi = w->domain_max[a], ext = dims[a] * s->h;
            double tol = 1e-6 * s->h;
            if (w->has_domain && !(a == 2 && s->nz == 1) &&
                (r[1 + a] < lo - tol || r[1 + a] + ext > hi + tol))
                rc = lq_config_error(cfg, at,
                                     "pls.window.path row %d: the window at t = %g s (%g .. %g m "
                                     "along %c) is not inside pls.window.domain (%g .. %g m)",
                                     k + 1, r[0], r[1 + a], r[1 + a] + ext, "xyz"[a], lo, hi);
        }
    }
    if (!rc) rc = lq_path_from_keys(&s->win_path, n, t, p, NULL);
    if (rc == LQ_EINPUT) { /* a number not finite: the message copied (the error overwrites it) */
        char why[256];
        snprintf(why, sizeof why, "%s", lq_error_message());
        rc = lq_config_error(cfg, at, "pls.window.path: %s", why);
    }
    free(t);
    free(p);
    return rc;
}

/* §5.3: pls.window read and checked (what it cannot carry yet refused): the offsets the
 * domain allows, the margin against the window's size (follow: liquid), the path. */
static int lq_pls_window_config(lq_pls *s, const lq_config *cfg)
{
    const lq_config_window *w = &cfg->pls.window;
    memcpy(s->origin0, s->origin, sizeof s->origin0);
    s->window = w->on;
    if (!w->on) return LQ_OK;
    int rc = lq_pls_window_path(s, cfg);
    if (rc) return rc;
    s->win_every = w->every;
    s->win_margin = w->margin;
    /* static obstacles, terrain and sources are world-placed: rebuilt for each placement
     * (lq_pls_window_statics); the texture particles' rest frame is not carried yet */
    bool statics = cfg->nterrain > 0;
    for (int it = 0; it < cfg->nobstacles; it++)
        statics = statics || !cfg->obstacles[it].has_motion;
    s->win_static = statics;
    if (statics || cfg->nsources > 0) s->cfg = cfg;
    if (cfg->pls.texture.on)
        return lq_config_error(cfg, w->at,
                               "pls.window cannot yet carry pls.texture (the texture particles "
                               "do not follow the window)");
    for (int i = 0; i < cfg->nsources && i < LQ_PLSSOURCE_MAX; i++) { /* the inlets' boxes */
        const lq_config_obstacle *q = &cfg->sources[i].inlet.region.shape;
        double *b = s->win_pin[i], r = q->sphere.radius;
        b[0] = INFINITY; /* a mesh: its cells' box in the window */
        if (cfg->sources[i].kind != LQ_CONFIG_SOURCE_INLET) continue;
        for (int a = 0; a < 3; a++) {
            if (q->kind == LQ_CONFIG_OBSTACLE_BOX) {
                b[a] = q->box.min[a];
                b[a + 3] = q->box.max[a];
            } else if (q->kind == LQ_CONFIG_OBSTACLE_SPHERE) {
                b[a] = q->sphere.center[a] - r;
                b[a + 3] = q->sphere.center[a] + r;
            } else if (q->kind == LQ_CONFIG_OBSTACLE_CYLINDER) {
                double e = a == q->cylinder.axis ? 0.5 * q->cylinder.height : q->cylinder.radius;
                b[a] = q->cylinder.center[a] - e;
                b[a + 3] = q->cylinder.center[a] + e;
            }
        }
    }
    int n[3] = {s->nx, s->ny, s->nz};
    for (int a = 0; a < 3; a++) {
        double ext = n[a] * s->h;
        s->win_min[a] = -1000000000LL;
        s->win_max[a] = 1000000000LL;
        if (w->has_domain) {
            double lo = w->domain_min[a], hi = w->domain_max[a];
            if (!(hi - lo >= ext - 1e-9 * fmax(1.0, ext)))
                return lq_config_error(cfg, w->at_domain,
                                       "the window (%g m along %c: grid.size x grid.cell) is "
                                       "larger than pls.window.domain (%g m)",
                                       ext, "xyz"[a], hi - lo);
            s->win_min[a] = (long long)ceil((lo - s->origin0[a]) / s->h - 1e-6);
            s->win_max[a] = (long long)floor((hi - s->origin0[a]) / s->h + 1e-6) - n[a];
            if (s->win_min[a] > 0 || s->win_max[a] < 0)
                return lq_config_error(cfg, w->at_domain,
                                       "the window at the start (grid.origin %g .. %g m along %c) "
                                       "is not inside pls.window.domain (%g .. %g m)",
                                       s->origin0[a], s->origin0[a] + ext, "xyz"[a], lo, hi);
        }
        if (a == 2 && s->nz == 1) s->win_min[a] = s->win_max[a] = 0; /* 2D: the plane stays */
        if (!s->win_path && s->win_min[a] < s->win_max[a] && 2 * w->margin >= n[a])
            return lq_config_error(cfg, w->at_margin,
                                   "pls.window.margin (%d cells) must be less than half the "
                                   "window (%d cells along %c)",
                                   w->margin, n[a], "xyz"[a]);
    }
    return LQ_OK;
}

/* Room for particles (32 bytes each, host/ops/pls/plsparticles.h). They live only in the
 * band |φ| < pls.band (Enright §3.1), so the room is per_cell times band cells: four
 * times the first seeding's band (the surface may grow that much), and at least twice
 * the band of a flat surface across the domain's largest section (a pool's). A seeding
 * that needs more grows it while the device has memory (the plan is the start); beyond
 * that particles are not made (stats' particles_dropped). pls.max_particles sets a
 * fixed room instead. */
static int lq_pls_capacity(lq_pls *s, const lq_config *cfg, size_t band, long long *room)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, per_cell = s->plsparticles_params.per_cell;
    long long cap = cfg->pls.max_particles;
    s->plsparticles_params.grow = cap == 0;
    if (cap == 0) {
        long long layers = 2 * (long long)ceil(cfg->pls.band);
        long long section =
            nz == 1 ? LQ_MAX(nx, ny)
                    : LQ_MAX(LQ_MAX((long long)nx * ny, (long long)ny * nz), (long long)nx * nz);
        cap = (long long)per_cell * LQ_MAX(LQ_MAX(4LL * (long long)band, 2 * layers * section), 64);
    }
    *room = cap;
    if (cap > 400000000LL)
        return lq_config_error(cfg, cfg->pls.at_particles_per_cell,
                               "room for %.3g particles is more than one array holds (400e6); "
                               "lower pls.particles_per_cell or set pls.max_particles",
                               (double)cap);
    return LQ_OK;
}

/* §5.1: viscosity, constant or a function of time (pls.viscosity_change). */
static int lq_pls_viscous(lq_pls *s, const lq_config *cfg)
{
    size_t n = (size_t)s->nx * s->ny * s->nz;
    double nu0 = s->nu_base;
    s->viscous = nu0 > 0 || (s->control_kinds >> LQ_PLSCONTROL_VISCOSITY & 1u);
    if (s->nu_regions) /* per liquid region: viscous when any ν₀ > 0 */
        for (size_t c = 0; c < n && !s->viscous; c++) s->viscous = s->nu0h[c] > 0;
    if (!s->viscous) return LQ_OK;
    int rc = lq_timefn_init(cfg, &cfg->pls.viscosity_change, nu0, &s->nu_t);
    if (rc) return rc;
    s->viscosity_params = (lq_viscosity_params){.h = (float)s->h,
                                                .noslip = s->noslip,
                                                .cross = LQ_VISCOSITY_CROSS_MASKED,
                                                .precond = cfg->pls.viscosity_precond == 1
                                                               ? LQ_VISCOSITY_PRECOND_MG
                                                               : LQ_VISCOSITY_PRECOND_JACOBI};
    return LQ_OK;
}

/* §4: the scene's control particles, made once (host/ops/pls/controls.h). */
static int lq_pls_control_make(lq_pls *s, const lq_config *cfg)
{
    if (cfg->ncontrol == 0) return LQ_OK;
    int rc = lq_controls_make(&s->controls, cfg, s->nz, s->h, s->origin);
    s->control = !rc;
    s->control_kinds = s->controls.kinds;
    return rc;
}

/* §5.5: the moving obstacles (the static ones are in sdf0 already) into mob[*nmob];
 * freed here on failure. */
static int lq_pls_moving(lq_pls *s, const lq_config *cfg, lq_plsobject_object *mob, int *nmob)
{
    int rc = LQ_OK;
    *nmob = 0;
    for (int it = 0; it < cfg->nobstacles && !rc; it++) {
        const lq_config_obstacle *q = &cfg->obstacles[it];
        if (!q->has_motion) continue;
        if (*nmob == LQ_PLSOBJECT_MAX) {
            rc = lq_config_error(cfg, q->motion.at, "solver 'pls' moves at most %d obstacles",
                                 LQ_PLSOBJECT_MAX);
            break;
        }
        rc = lq_plsobject_read(cfg, q, s->origin, s->nz == 1, s->h, &mob[*nmob]);
        if (!rc) (*nmob)++;
    }
    if (rc)
        for (int q = 0; q < *nmob; q++) lq_plsobject_object_free(&mob[q]);
    s->moving = *nmob > 0;
    s->has_static = s->has_sdf;
    s->has_sdf = s->has_sdf || s->moving;
    s->objects = s->has_sdf; /* static and moving: one §5.5 path (static: zero velocity) */
    s->separation = cfg->pls.object_separation;
    s->stratify = s->objects && cfg->pls.object_stratify;
    s->extrap_params.friction = (float)cfg->pls.object_friction;
    s->extrap_params.hold_normal = !s->separation;
    s->poisson_params.object_air =
        s->objects && s->separation;      /* §5.5.2: object cells left are air */
    s->extrap_params.closed = s->objects; /* uext of §5.5.1: the liquid's alone */
    return rc;
}

/* The device memory plan (lq_pls_plan and the objects'), reserved before anything is
 * allocated: a grid too large is refused with the memory it needs. */
static int lq_pls_reserve(lq_pls *s, lq_ctx *ctx, long long cap, const lq_plsobject_object *mob,
                          int nmob)
{
    size_t plan[16], n = (size_t)s->nx * s->ny * s->nz;
    const char *names[16];
    int np = lq_pls_plan(s, (int)cap, plan, names);
    if (s->objects) {
        size_t grids = 0; /* the moving meshes' sdf grids */
        for (int q = 0; q < nmob; q++)
            grids +=
                mob[q].kind == 4 ? (size_t)mob[q].gdim[0] * mob[q].gdim[1] * mob[q].gdim[2] : 0;
        names[np] = "objects (sdf, velocities, masks, mesh grids)";
        plan[np++] = lq_plsobject_ops_bytes(s->nx, s->ny, s->nz) +
                     (s->moving && s->has_static ? n * 4 : 0) + grids * 4;
    }
    for (int i = 0; i < np; i++) s->device_bytes += plan[i];
    return lq_ctx_reserve_plan(ctx, "solver 'pls'", np, plan, names);
}

/* The fields (the velocity first: the initial state writes into u, v, w), the initial
 * φ and sdf uploaded, and every module; the moving objects handed to plsobject (or
 * freed). */
static int lq_pls_device(lq_pls *s, lq_ctx *ctx, const lq_config *cfg, long long cap,
                         const float *phi0, const float *sdf0, lq_plsobject_object *mob, int nmob)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    struct {
        lq_field *f;
        const char *name;
        int a, b, c;
    } fs[] = {{&s->u, "u", nx + 1, ny, nz},   {&s->v, "v", nx, ny + 1, nz},
              {&s->w, "w", nx, ny, nz + 1},   {&s->un, "un", nx + 1, ny, nz},
              {&s->vn, "vn", nx, ny + 1, nz}, {&s->wn, "wn", nx, ny, nz + 1},
              {&s->phi, "phi", nx, ny, nz},   {&s->phin, "phin", nx, ny, nz},
              {&s->b, "b", nx, ny, nz},       {&s->p, "p", nx, ny, nz}};
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, fs[i].c, 4);
        if (!rc) rc = lq_field_zero(fs[i].f, 0);
    }
    if (!rc) rc = lq_pls_initial_velocity(s, cfg);
    if (!rc && s->has_sdf) {
        rc = lq_field_alloc(ctx, &s->sdf, "sdf", nx, ny, nz, 4);
        if (!rc) rc = lq_field_upload(&s->sdf, sdf0);
    }
    if (!rc) rc = lq_field_upload(&s->phi, phi0);
#define LQ_PLS_INIT(bit, call)                                                                     \
    if (!rc) {                                                                                     \
        rc = (call);                                                                               \
        if (!rc) s->ready |= (bit);                                                                \
    }
    float h = (float)s->h;
    if (!rc) rc = lq_pls_pool(s, ctx);
    if (!rc) rc = lq_pls_pool_lend(s, ctx);
    LQ_PLS_INIT(LQ_PLS_R_OPS, lq_plsparticles_ops_init(&s->plsparticles, ctx, nx, ny, nz));
    LQ_PLS_INIT(LQ_PLS_R_STATE,
                lq_plsparticles_state_init(&s->plsparticles_state, ctx, nx, ny, nz, (int)cap));
    /* the live count stays on the device: the particle launches stride over it, the host
     * reads it only to grow the buffers at a seeding, to move the window, for the frame's
     * stats and for output (issue 14: no host wait per compaction) */
    bool held = ctx->backend == LQ_BACKEND_CL;
    s->plsparticles_state.deferred = held;
    const lq_field *pcount = held ? &s->plsparticles_state.counters : NULL;
    LQ_PLS_INIT(LQ_PLS_R_FORCE, lq_plsforce_ops_init(&s->plsforce, ctx, nx, ny, nz));
    if (s->objects) {
        LQ_PLS_INIT(LQ_PLS_R_OBJ,
                    lq_plsobject_ops_init(&s->plsobject, ctx, nx, ny, nz, h, (float)(10.0 * s->h)));
        s->plsobject.count = pcount;
        for (int q = 0; q < nmob; q++) {
            if (!rc) rc = lq_plsobject_add(&s->plsobject, &mob[q]);
            if (rc) lq_plsobject_object_free(&mob[q]);
        }
    } else {
        for (int q = 0; q < nmob; q++) lq_plsobject_object_free(&mob[q]);
    }
    if (s->texture) {
        LQ_PLS_INIT(LQ_PLS_R_TEX, lq_texparticles_ops_init(&s->tex, ctx, nx, ny, nz));
        if (!rc) rc = lq_texparticles_state_init(&s->texst, ctx, nx, ny, nz, s->texst.capacity);
    }
    if (s->sources) {
        LQ_PLS_INIT(LQ_PLS_R_SRC, lq_plssource_ops_init(&s->plssource, ctx, nx, ny, nz, h,
                                                        s->source_set->inlets));
        s->plssource.count = pcount;
        if (!rc) rc = lq_plssource_add(&s->plssource, s->source_set);
        lq_plssource_set_free(s->source_set); /* the arrays; the struct stays for the plan */
    }
    if (s->control)
        LQ_PLS_INIT(LQ_PLS_R_CONTROL, lq_plscontrol_ops_init(&s->plscontrol, ctx, nx, ny, nz,
                                                             s->controls.total, s->control_kinds));
    if (s->pockets)
        LQ_PLS_INIT(LQ_PLS_R_POCKET, lq_plspocket_ops_init(&s->plspocket, ctx, nx, ny, nz));
    if (s->window)
        LQ_PLS_INIT(LQ_PLS_R_WINDOW, lq_plswindow_ops_init(&s->plswindow, ctx, nx, ny, nz));
    if (s->viscous) {
        LQ_PLS_INIT(LQ_PLS_R_VISC, lq_viscosity_ops_init(&s->viscosity, ctx, nx, ny, nz));
        if (!rc) rc = lq_field_alloc(ctx, &s->nu, "nu", nx, ny, nz, 4);
        if (!rc && s->nu_regions) {
            rc = lq_field_alloc(ctx, &s->nun, "nun", nx, ny, nz, 4);
            if (!rc) rc = lq_field_upload(&s->nu, s->nu0h);
        }
    }
#undef LQ_PLS_INIT
    return rc;
}

/* §6: the texture particles on the initial surface, φ now a signed distance: in the band
 * cells of the initial φ that the reinitialised φ keeps in its band (a box's face on the
 * domain's edge or the floor is no surface: particles there would sit inside the liquid
 * and surface in a thin film with the floor's rest coordinate). */
static int lq_pls_texture_seed(lq_pls *s)
{
    int rc = lq_field_download(&s->phi, s->gv), m = 0;
    for (int i = 0; i < s->tex_ncells && !rc; i++)
        if (fabsf(s->gv[s->tex_cells[i]]) < s->texprm.band) s->tex_cells[m++] = s->tex_cells[i];
    if (!rc) rc = lq_texparticles_seed(&s->tex, &s->texst, &s->phi, s->tex_cells, m, &s->texprm);
    free(s->tex_cells);
    s->tex_cells = NULL;
    return rc;
}

/* sdf and φ signed distances, the particles seeded, the velocity extrapolated, the
 * volume measured. */
static int lq_pls_start(lq_pls *s, lq_ctx *ctx, float *sdf0)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    const lq_field *sdf = s->has_sdf ? &s->sdf : NULL;
    if (s->sdf_reinit) rc = lq_reinit(&s->reinit, &s->sdf, &s->phin, &s->reinit_params, NULL);
    if (!rc && s->objects) { /* the static part kept, the objects at t = 0, φ inside them */
        if (s->moving && s->has_static) {
            rc = lq_field_alloc(ctx, &s->sdf_static, "sdf_static", nx, ny, nz, 4);
            if (!rc) rc = lq_field_download(&s->sdf, sdf0);
            if (!rc) rc = lq_field_upload(&s->sdf_static, sdf0);
        }
        if (!rc) rc = lq_pls_objects_at(s, 0.0);
    }
    if (!rc) rc = lq_reinit(&s->reinit, &s->phi, &s->phin, &s->reinit_params, NULL);
    if (!rc)
        rc = lq_plsparticles_seed(&s->plsparticles, &s->plsparticles_state, &s->phi, sdf,
                                  &s->plsparticles_params);
    if (!rc && s->texture) rc = lq_pls_texture_seed(s);
    if (!rc)
        rc = lq_extrap_velocity(&s->extrap, &s->u, &s->v, &s->w, &s->phi, sdf, &s->extrap_params);
    int bad = 0;
    double cells = 0;
    if (!rc) rc = lq_plsforce_volume(&s->plsforce, &s->phi, sdf, (float)s->h, &cells, &bad);
    if (!rc) s->volume0_cells = cells * s->cellv;
    if (!rc) rc = lq_plsforce_volume_pl(&s->plsforce, &s->phi, sdf, (float)s->h, &cells, &bad);
    if (!rc) s->volume0 = cells * s->cellv;
    return rc;
}

/* The plan without the particles and objects (decided only once φ is known), and the
 * host arrays below, checked before anything is allocated (core/budget.h): a grid too
 * large is refused in no time, not after minutes of set-up (1024 x 1024 x 512: 41 s and
 * 4.3 GB before). */
static int lq_pls_budget(const lq_pls *s, lq_ctx *ctx)
{
    size_t plan[16];
    const char *names[16];
    int np = lq_pls_plan(s, 0, plan, names);
    double device = 0, largest = 0;
    for (int i = 0; i < np; i++) {
        device += (double)plan[i];
        largest = fmax(largest, (double)plan[i] / 2); /* parts hold two or more buffers */
    }
    double c = (double)s->nx * s->ny * s->nz, f = (double)(s->nx + 1) * (s->ny + 1) * (s->nz + 1);
    /* below 2^26 cells (seconds of set-up) LIQUIDCL_DEVICE_MEMORY is left to the exact plan,
     * which names every part */
    return (c < 67108864.0 ? lq_budget_check_nocap : lq_budget_check)(
        ctx, "solver 'pls'", 12 * c + 4 * f, device, fmin(largest, 4 * f));
}

/* §6, pls.texture: the band cells of the initial φ (the liquid shapes' distance, on the
 * host) to seed, and the room, per_cell particles in each. */
static int lq_pls_texture_setup(lq_pls *s, const lq_config *cfg, const float *phi0)
{
    const lq_config_texture *t = &cfg->pls.texture;
    s->texture = t->on;
    if (!s->texture) return LQ_OK;
    s->tex_project = t->project;
    if (t->image) { /* read now: a file that is no PNG stops the run before any output */
        int iw = 0, ih = 0;
        uint8_t *rgb = NULL;
        int rc = lq_png_read_rgb(t->image, &iw, &ih, &rgb);
        free(rgb);
        if (rc) return rc;
    }
    int per_cell = t->per_cell > 0 ? t->per_cell : s->nz == 1 ? 4 : 8;
    s->texprm = (lq_texparticles_params){
        .h = (float)s->h, .band = (float)(t->band * s->h), .per_cell = per_cell, .seed = 0x7e47};
    int n = lq_texparticles_band_cells(phi0, s->nx, s->ny, s->nz, s->texprm.band, NULL);
    if ((long long)n * per_cell > LQ_PLSPARTICLES_MAX_CAPACITY)
        return lq_config_error(cfg, NULL, "pls.texture: %lld texture particles are too many",
                               (long long)n * per_cell);
    s->tex_cells = lq_alloc((size_t)LQ_MAX(n, 1) * sizeof *s->tex_cells);
    if (!s->tex_cells) return LQ_ESIM;
    s->tex_ncells =
        lq_texparticles_band_cells(phi0, s->nx, s->ny, s->nz, s->texprm.band, s->tex_cells);
    s->texst.capacity = n * per_cell;
    return LQ_OK;
}

static int lq_pls_sources_start(lq_pls *s);
static int lq_pls_bands_start(lq_pls *s, const lq_config *cfg);

static int lq_pls_create(lq_ctx *ctx, const lq_config *cfg, void **state)
{
    float *phi0 = NULL, *sdf0 = NULL;
    lq_plsobject_object mob[LQ_PLSOBJECT_MAX];
    int nmob = 0;
    long long cap = 0;
    lq_pls *s = lq_calloc(1, sizeof *s);
    if (!s) return LQ_ESIM;
    s->ctx = ctx;
    int rc = lq_pls_config(s, cfg);
    if (!rc) rc = lq_pls_window_config(s, cfg);
    size_t n = (size_t)s->nx * s->ny * s->nz;
    if (!rc) rc = lq_pls_budget(s, ctx);
    if (!rc) {
        s->fv = lq_alloc((size_t)(s->nx + 1) * (s->ny + 1) * (s->nz + 1) * sizeof(float));
        s->gv = lq_alloc(n * sizeof(float));
        phi0 = lq_alloc(n * sizeof(float));
        sdf0 = lq_alloc(n * sizeof(float));
        if (!s->fv || !s->gv || !phi0 || !sdf0) rc = LQ_ESIM;
    }
    /* the liquid and the objects on the host, then the plan before anything sits on the
     * device */
    size_t band = 0;
    s->nu_base = cfg->pls.viscosity;
    if (!rc) rc = lq_pls_initial_phi(s, cfg, phi0, sdf0, &band);
    if (!rc) rc = lq_pls_texture_setup(s, cfg, phi0);
    if (!rc) rc = lq_pls_capacity(s, cfg, band, &cap);
    if (!rc) rc = lq_pls_control_make(s, cfg);
    if (!rc) rc = lq_pls_viscous(s, cfg);
    s->sources = cfg->nsources > 0; /* read here (checks before the plan), uploaded later */
    if (!rc && s->sources && !(s->source_set = lq_calloc(1, sizeof *s->source_set))) rc = LQ_ESIM;
    if (!rc && s->sources)
        rc = lq_plssource_read(cfg, s->nx, s->ny, s->nz, (float)s->h, s->origin, sdf0,
                               s->source_set);
    if (!rc && s->volume_correction && (s->sources || s->control))
        rc = lq_config_error(cfg, cfg->at_solver,
                             "pls.volume_correction cannot be used with sources or control "
                             "particles yet (the volume they add or remove is not its target)");
    if (!rc) rc = lq_pls_moving(s, cfg, mob, &nmob);
    /* §5.6: pockets need a Neumann boundary inside the liquid to wall them in */
    s->pockets = !rc && cfg->pls.enslave_pockets &&
                 (s->objects || (s->sources && s->source_set->inlets) ||
                  (s->control && ((s->control_kinds >> LQ_PLSCONTROL_VELOCITY) & 1u)));
    s->pocket_passes = cfg->pls.pocket_passes;
    if (!rc) {
        rc = lq_pls_reserve(s, ctx, cap, mob, nmob);
        if (!rc)
            rc = lq_pls_device(s, ctx, cfg, cap, phi0, sdf0, mob, nmob); /* takes mob */
        else
            for (int q = 0; q < nmob; q++) lq_plsobject_object_free(&mob[q]);
    }
    if (!rc) rc = lq_pls_start(s, ctx, sdf0);
    if (!rc && s->sources) rc = lq_pls_sources_start(s); /* after volume0 */
    if (!rc && cfg->ngrids > 0 && cfg->grid_self >= 0) rc = lq_pls_bands_start(s, cfg); /* §5.4 */
    free(phi0);
    free(sdf0);
    if (rc) {
        lq_pls_destroy(s);
        return rc;
    }
    *state = s;
    return LQ_OK;
}

static void lq_pls_swap(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

/* --- the stages of a step (the header's list) ---------------------------------------- */

static const lq_field *lq_pls_sdf(const lq_pls *s)
{
    return s->has_sdf ? &s->sdf : NULL;
}

/* The step's Δt into the modules' parameters. */
static void lq_pls_set_dt(lq_pls *s, double dt)
{
    s->sladvect_params.dt = (float)dt;
    s->plsparticles_params.dt = (float)dt;
    s->plsparticles_params.step = (uint32_t)s->step;
    s->poisson_params.dt = (float)dt;
}

/* 1. The particles move (RK2); first, with objects, §5.5.3 labels the liquid particles
 * within a cell of one in lab. */
static int lq_pls_move_particles(lq_pls *s, lq_field *lab, double dt)
{
    lq_plsparticles_state *ps = &s->plsparticles_state;
    int rc = LQ_OK;
    if (s->stratify)
        rc = lq_plsobject_strat_label(&s->plsobject, &ps->part[ps->cur], lab,
                                      lq_plsparticles_bound(ps), lq_pls_sdf(s), &s->phi,
                                      (float)s->h, (float)dt);
    if (!rc)
        rc = lq_plsparticles_advect(&s->plsparticles, ps, &s->u, &s->v, &s->w,
                                    &s->plsparticles_params);
    return rc;
}

/* 2. φ advected (eq. 3); with liquid[].viscosity ν₀ goes with it (same velocity, Δt). */
static int lq_pls_advect_phi(lq_pls *s)
{
    int rc = lq_sladvect_advect_scalar(&s->sladvect, &s->phi, &s->phin, &s->u, &s->v, &s->w,
                                       &s->sladvect_params);
    if (rc) return rc;
    lq_pls_swap(&s->phi, &s->phin);
    if (s->viscous && s->nu_regions) {
        rc = lq_sladvect_advect_scalar(&s->sladvect, &s->nu, &s->nun, &s->u, &s->v, &s->w,
                                       &s->sladvect_params);
        if (rc) return rc;
        lq_pls_swap(&s->nu, &s->nun);
    }
    return LQ_OK;
}

/* 2, objects (§5.5.2–3): the objects at t + dt, φ into them; the labelled liquid
 * particles kept no closer to them than labelled; the air particles within a cell of
 * them killed, then every particle inside them deleted (liquid particles beside an
 * object keep a film on it). */
static int lq_pls_move_objects(lq_pls *s, lq_field *lab, double dt)
{
    lq_plsparticles_state *ps = &s->plsparticles_state;
    const lq_field *sdf = lq_pls_sdf(s);
    int rc = lq_pls_objects_at(s, s->t + dt);
    if (!rc && s->stratify)
        rc = lq_plsobject_strat_apply(&s->plsobject, &ps->part[ps->cur], lab,
                                      lq_plsparticles_bound(ps), sdf, (float)dt);
    if (!rc)
        rc = lq_plsobject_kill_air(&s->plsobject, &ps->part[ps->cur], lq_plsparticles_bound(ps),
                                   sdf, (float)s->h);
    if (!rc)
        rc = lq_plsparticles_delete(&s->plsparticles, ps, &s->phi, sdf, &s->plsparticles_params);
    return rc;
}

/* 3. φ reinitialised (lq_reinit, with pls.reinit_keep's interface cells kept); with
 * pls.reinit_threshold only when the band's mean ||∇φ| − 1| exceeds it. */
static int lq_pls_reinit(lq_pls *s)
{
    if (s->reinit_threshold > 0) {
        long long cells = 0;
        int rc = lq_reinit_departure(&s->reinit, &s->phi, (float)s->h, s->departure_width,
                                     &s->departure, &cells);
        if (rc || s->departure <= s->reinit_threshold) return rc;
    }
    s->reinits++;
    return lq_reinit(&s->reinit, &s->phi, &s->phin, &s->reinit_params, NULL);
}

/* 3, after the reinitialisation: the particles correct φ again; those still escaped by
 * more than LQ_PLS_ESCAPED_AIR / _LIQUID radii are deleted; radii adjusted; every
 * pls.reseed_every steps the band reseeded (Enright's order). */
static int lq_pls_tidy_particles(lq_pls *s)
{
    lq_plsparticles_state *ps = &s->plsparticles_state;
    const lq_field *sdf = lq_pls_sdf(s);
    int rc = lq_plsparticles_correct(&s->plsparticles, ps, &s->phi, &s->plsparticles_params, NULL);
    if (!rc) {
        lq_plsparticles_params ke = s->plsparticles_params;
        ke.esc_air = LQ_PLS_ESCAPED_AIR;
        ke.esc_liq = LQ_PLS_ESCAPED_LIQUID;
        rc = lq_plsparticles_delete(&s->plsparticles, ps, &s->phi, sdf, &ke);
    }
    if (!rc)
        rc = lq_plsparticles_adjust_radii(&s->plsparticles, ps, &s->phi, &s->plsparticles_params);
    if (!rc && s->reseed_every > 0 && (s->step + 1) % s->reseed_every == 0)
        rc = lq_plsparticles_reseed(&s->plsparticles, ps, &s->phi, sdf, &s->plsparticles_params);
    return rc;
}

/* Opt-in (pls.volume_correction; not the paper's): φ shifted by one constant so that the
 * zero set's volume is the initial one again. The shift is a Newton step: the volume V,
 * then V₁ with φ shifted by ε = 0.01 h gives the surface's area A = (V − V₁)/ε, and φ
 * moves by (V − V₀)/A in all (less the ε already applied). What it adds is reported
 * (volume_correction). */
static int lq_pls_correct_volume(lq_pls *s)
{
    const lq_field *sdf = lq_pls_sdf(s);
    float h = (float)s->h, eps = 0.01f * h;
    double v, v1, target = s->volume0 / s->cellv;
    int bad = 0;
    int rc = lq_plsforce_volume_pl(&s->plsforce, &s->phi, sdf, h, &v, &bad);
    if (rc || bad || fabs(v - target) <= 1e-7 * target) return rc;
    rc = lq_plsforce_shift(&s->plsforce, &s->phi, sdf, eps);
    if (!rc) rc = lq_plsforce_volume_pl(&s->plsforce, &s->phi, sdf, h, &v1, &bad);
    if (rc) return rc;
    double area = (v - v1) / eps; /* cells per metre of shift */
    float delta = area > 0 ? (float)((v - target) / area) : 0.0f;
    rc = lq_plsforce_shift(&s->plsforce, &s->phi, sdf, delta - eps);
    if (!rc && area > 0) s->corrected += (target - v) * s->cellv;
    return rc;
}

/* §6: the texture particles move as the level-set particles did in 1 (RK2 through uⁿ,
 * which 2 and 3 leave as it was); with pls.texture.project, then onto the reinitialised
 * φ = 0. */
static int lq_pls_texture_move(lq_pls *s, double dt)
{
    s->texprm.dt = (float)dt;
    int rc = lq_texparticles_advect(&s->tex, &s->texst, &s->u, &s->v, &s->w, &s->texprm);
    if (!rc && s->tex_project)
        rc = lq_texparticles_project(&s->tex, &s->texst, &s->phi, &s->texprm);
    return rc;
}

/* --- §4 control particles: the stages (host/ops/pls/plscontrol.h) --- */

#define LQ_PLS_HAS(s, kind) (((s)->control_kinds >> (kind)) & 1u)

/* The particles at the step's end time, binned on the device (once when none of them
 * moves or changes). */
static int lq_pls_control_bin(lq_pls *s, double dt)
{
    if (s->control_binned && !s->controls.animated) return LQ_OK;
    lq_controls_eval(&s->controls, s->t + dt);
    s->control_binned = true;
    return lq_plscontrol_bin(&s->plscontrol, s->controls.rec, s->controls.total, (float)s->h);
}

/* §4.3: φ blended toward the level-set particles' and cut by the erasers; the particle
 * level set's particles in the cells it moved deleted, the band reseeded ("any particles
 * associated with the particle level set representation of the interface in this region
 * are reseeded to the adjusted interface location"). */
static int lq_pls_control_phi(lq_pls *s)
{
    lq_plsparticles_state *ps = &s->plsparticles_state;
    int moved = 0,
        rc = lq_plscontrol_phi(&s->plscontrol, &s->phi, lq_pls_sdf(s), (float)s->h, &moved);
    if (!rc && moved > 0)
        rc = lq_plsparticles_delete(&s->plsparticles, ps, &s->phi, &s->plscontrol.kill,
                                    &s->plsparticles_params);
    if (!rc && moved > 0)
        rc = lq_plsparticles_reseed(&s->plsparticles, ps, &s->phi, lq_pls_sdf(s),
                                    &s->plsparticles_params);
    return rc;
}

/* §4.1, §5.1: ν per cell blended toward the viscosity particles' (into plscontrol.nu,
 * which the viscous step then reads): the liquid's ν is ν(t), or ν₀ × ν(t)/pls.viscosity
 * with liquid[].viscosity. */
static int lq_pls_control_nu(lq_pls *s)
{
    double nut = lq_timefn_eval(&s->nu_t, s->t);
    if (s->nu_regions)
        return lq_plscontrol_viscosity(
            &s->plscontrol, &s->nu, (float)(s->nu_base > 0 ? nut / s->nu_base : 1.0), (float)s->h);
    return lq_plscontrol_viscosity(&s->plscontrol, NULL, (float)nut, (float)s->h);
}

/* eq. 4 on the faces; hard control where α > 0.9 (the projection then takes those cells
 * as solid: lq_pls_project). The open inlets count as objects here: their held faces are
 * left alone, and the solid field written (objects, inlets, hard cells) is the one the
 * projection needs, both boundaries at once. */
static int lq_pls_control_velocity(lq_pls *s)
{
    const lq_field *sdf = lq_pls_sdf(s);
    if (s->sources) sdf = lq_plssource_solid(&s->plssource, sdf);
    if (s->nband_in) sdf = &s->band_solid;
    return lq_plscontrol_velocity(&s->plscontrol, &s->u, &s->v, &s->w, &s->phi, sdf, (float)s->h,
                                  NULL);
}

/* 4. The velocity advected by itself (eq. 2's convection); uⁿ stays in un, vn, wn. */
static int lq_pls_advect_velocity(lq_pls *s)
{
    int rc = lq_sladvect_advect_velocity(&s->sladvect, &s->u, &s->v, &s->w, &s->un, &s->vn, &s->wn,
                                         &s->sladvect_params);
    if (rc) return rc;
    lq_pls_swap(&s->u, &s->un);
    lq_pls_swap(&s->v, &s->vn);
    lq_pls_swap(&s->w, &s->wn);
    return LQ_OK;
}

/* 5. Gravity on the faces beside liquid (eq. 2's g). With objects §5.5.1 sets every
 * closed face first (hard control) from the advected velocity extrapolated into them
 * (uext), gravity goes to the other faces (the body force without the objects, then the
 * closed faces put back): the projection keeps the closed faces and takes their flux into
 * its right-hand side. With separation, dry object cells the liquid flows into are closed
 * first (no inflow into cells the projection would open). */
static int lq_pls_gravity(lq_pls *s, double dt)
{
    const lq_field *sdf = lq_pls_sdf(s);
    const lq_field *sep = s->objects && s->separation ? &s->phi : NULL;
    int rc = LQ_OK;
    if (s->objects) {
        rc = lq_extrap_velocity(&s->extrap, &s->u, &s->v, &s->w, &s->phi, sdf, &s->extrap_params);
        if (!rc && sep) rc = lq_plsobject_close(&s->plsobject, &s->phi, &s->u, &s->v, &s->w, sdf);
        if (!rc)
            rc = lq_extrap_object_bc(&s->extrap, &s->u, &s->v, &s->w, sep, sdf, s->plsobject.vel,
                                     &s->extrap_params);
    }
    if (!rc)
        rc = lq_plsforce_body_force(&s->plsforce, &s->u, &s->v, &s->w, &s->phi,
                                    s->objects ? NULL : sdf, s->g, dt);
    if (!rc && s->objects) rc = lq_extrap_object_restore(&s->extrap, &s->u, &s->v, &s->w, sep, sdf);
    return rc;
}

/* 5, §5.1, after the convective and body forcing terms ("we first add in the
 * contributions from the convective and body forcing terms to uⁿ, obtaining u*"):
 * explicit cross terms from uⁿ (in un, vn, wn), implicit per component on u* in place.
 * Before gravity, each step's g Δt reached the projection undamped and a ν = 50 m²/s
 * block slumped at 1 m/s (tests/cli/cli_pls_viscous.sh). */
static int lq_pls_viscosity(lq_pls *s, double dt)
{
    lq_viscosity_stats vst;
    int rc = LQ_OK;
    const lq_field *nu = &s->nu;
    s->viscosity_params.dt = (float)dt;
    if (s->control && LQ_PLS_HAS(s, LQ_PLSCONTROL_VISCOSITY)) {
        nu = &s->plscontrol.nu; /* the viscosity control's ν (lq_pls_control_nu) */
    } else if (s->nu_regions) {
        /* ν = ν₀ f, f = ν(t) / pls.viscosity: the viscous step depends on ν and Δt only
         * through ν Δt / h² (host/ops/pls/viscosity.c's kk), so it runs on ν₀ with Δt f */
        double f = s->nu_base > 0 ? lq_timefn_eval(&s->nu_t, s->t) / s->nu_base : 1.0;
        s->viscosity_params.dt = (float)(dt * f);
    } else
        rc = lq_viscosity_fill(&s->viscosity, &s->nu, (float)lq_timefn_eval(&s->nu_t, s->t), NULL,
                               0, (float)s->h);
    if (!rc)
        rc = lq_viscosity_step(&s->viscosity, &s->un, &s->vn, &s->wn, &s->u, &s->v, &s->w, nu,
                               &s->phi, lq_pls_sdf(s), &s->viscosity_params, &vst);
    for (int a = 0; a < 3 && !rc; a++) {
        s->visc_iters += vst.iterations[a];
        s->visc_residual = fmax(s->visc_residual, vst.residual[a]);
    }
    if (!rc && !vst.converged) {
        s->visc_unconverged++;
        s->visc_worst = vst;
    }
    return rc;
}

/* 5, sources[] (host/ops/pls/plssource.h): the step [t, t + dt] done, the outlets drain
 * and the inlets fill and hold their faces for t + dt, before the projection takes them. */
static int lq_pls_sources(lq_pls *s, double dt)
{
    lq_plsparticles_state *ps = &s->plsparticles_state;
    return lq_plssource_step(&s->plssource, s->t, dt, &s->phi, &s->u, &s->v, &s->w,
                             &ps->part[ps->cur], lq_plsparticles_bound(ps), lq_pls_sdf(s));
}

/* The solid field the projection takes: the objects' sdf, with the open inlets, with the
 * hard-controlled cells (written by the velocity control, which took the first two as
 * its base), with the enslaved pockets (§5.6). NULL: none. */
static const lq_field *lq_pls_solid(const lq_pls *s)
{
    const lq_field *solid = lq_pls_sdf(s);
    if (s->sources) solid = lq_plssource_solid(&s->plssource, solid);
    if (s->nband_in) solid = &s->band_solid; /* §5.4: built on the two above */
    if (s->control) solid = lq_plscontrol_solid(&s->plscontrol, solid);
    if (s->pockets) solid = lq_plspocket_solid(&s->plspocket, solid);
    return solid;
}

/* §5.6: the liquid regions that reach no air on the projection's solid field (before the
 * pockets: they are found anew each step) leave the solve and take the diffused velocity
 * of their boundary. */
static int lq_pls_pockets(lq_pls *s)
{
    s->plspocket.cells = 0; /* lq_pls_solid without the last step's pockets */
    const lq_field *solid = lq_pls_solid(s);
    int mode = !solid ? 0 : s->poisson_params.object_air ? LQ_POISSON_OBJECT_AIR : 1;
    /* lent until the projection: b (its right-hand side, written there) holds the labels,
     * phin (φ's scratch until the next step) the solid field, un vn wn (uⁿ, done with after
     * the viscosity) the enslaving's other buffers */
    int rc = lq_plspocket_find(&s->plspocket, &s->phi, solid, mode,
                               s->poisson_params.wall_dirichlet, (float)s->h, &s->b, &s->phin);
    if (!rc && s->plspocket.cells > 0)
        rc = lq_plspocket_enslave(&s->plspocket, &s->u, &s->v, &s->w, &s->un, &s->vn, &s->wn,
                                  s->pocket_passes);
    return rc;
}

/* 6. The projection (eq. 1), ghost fluid at the surface (host/ops/pls/poisson.h); objects,
 * open inlets, hard cells and pockets are solids there (lq_pls_solid), the faces of the
 * first three keep their flux in the right-hand side. */
static int lq_pls_project(lq_pls *s, lq_poisson_stats *pst)
{
    const lq_field *solid = lq_pls_solid(s);
    /* §4.3: divergence targets in the right-hand side */
    if (s->control)
        return lq_plscontrol_project(&s->plscontrol, &s->poisson, &s->phi, solid, &s->u, &s->v,
                                     &s->w, &s->b, &s->p, &s->poisson_params, pst);
    return lq_poisson_step(&s->poisson, &s->phi, solid, &s->u, &s->v, &s->w, &s->b, &s->p,
                           &s->poisson_params, pst);
}

/* 7. The velocity extrapolated into the air band and the objects; with separation
 * (§5.5.2, before the next φ advection) object cells the liquid leaves (urel from uext,
 * just extrapolated; the pressure just solved a tension beside them) turn to air. */
static int lq_pls_extrapolate(lq_pls *s)
{
    int rc = lq_extrap_velocity(&s->extrap, &s->u, &s->v, &s->w, &s->phi, lq_pls_sdf(s),
                                &s->extrap_params);
    if (!rc && s->objects && s->separation)
        rc = lq_plsobject_separate(&s->plsobject, &s->phi, &s->u, &s->v, &s->w, &s->sdf, &s->p);
    return rc;
}

/* 7. The band projected divergence-free (§5.2, pls.divfree), then §5.5.1 inside the
 * objects for the next advection. */
static int lq_pls_divfree(lq_pls *s)
{
    const lq_field *sdf = lq_pls_sdf(s);
    const lq_field *sep = s->objects && s->separation ? &s->phi : NULL;
    int rc = LQ_OK;
    if (s->divfree)
        rc = lq_extrap_divfree(&s->extrap, &s->u, &s->v, &s->w, &s->phi, sdf, &s->extrap_params);
    if (!rc && s->objects)
        rc = lq_extrap_object_bc(&s->extrap, &s->u, &s->v, &s->w, sep, sdf, s->plsobject.vel,
                                 &s->extrap_params);
    return rc;
}

/* The sources for the first step, and the velocity projected and extrapolated with the
 * inlets' faces held: without, the first step would move the liquid by a field the
 * inlets' flux has not been projected into (a submerged inlet then lost its first step).
 * The projected velocity does not depend on the Δt the projection is given. */
static int lq_pls_sources_start(lq_pls *s)
{
    lq_poisson_stats pst;
    s->poisson_params.dt = (float)(1.0 / s->fps);
    int rc = lq_pls_sources(s, 0.0);
    if (!rc) rc = lq_pls_project(s, &pst);
    if (!rc) rc = lq_pls_extrapolate(s);
    if (!rc) rc = lq_pls_divfree(s);
    return rc;
}

/* The step's counts into the frame's, and the clock on by dt. */
static int lq_pls_step_done(lq_pls *s, double dt, const lq_poisson_stats *pst)
{
    s->iterations += pst->iterations;
    s->unconverged += !pst->converged;
    if (!isfinite(pst->residual))
        return lq_error(LQ_ESIM,
                        "simulation blew up at step %d (t = %.6g s): field p is not finite",
                        s->step, s->t);
    s->residual = fmax(s->residual, pst->residual);
    s->t += dt;
    s->dt_prev = dt;
    s->step++;
    return LQ_OK;
}

/* --- §5.4 grid sourcing (host/io/band.h) --------------------------------------------- */

/* φ, u, v, w to the host copies (band_host). */
static int lq_pls_bands_download(lq_pls *s)
{
    lq_field *f[4] = {&s->phi, &s->u, &s->v, &s->w};
    int rc = LQ_OK;
    for (int q = 0; q < 4 && !rc; q++) rc = lq_field_download(f[q], s->band_host[q]);
    return rc;
}

/* This grid's bands for each downstream grid, as step s->step at s->t. */
static int lq_pls_bands_out(lq_pls *s)
{
    int rc = lq_pls_bands_download(s);
    if (!rc)
        rc = lq_band_write(s->bands_dir, &s->band_out_id, &s->band_out, s->step, s->t,
                           s->band_host[0], s->band_host[1], s->band_host[2], s->band_host[3],
                           s->band_vals);
    return rc;
}

/* The bands of every upstream grid at time t into φ, u, v, w (held: the step's
 * advection has moved them, the projection keeps their faces), and the projection's solid
 * field: the objects' and open inlets' (as it would be without bands) with the band cells
 * solid. Host round trips, no kernel: a first version (docs/ARCHITECTURE.md). */
static int lq_pls_bands_in(lq_pls *s, double t)
{
    int rc = lq_pls_bands_download(s);
    for (int i = 0; i < s->nband_in && !rc; i++) {
        rc = lq_band_reader_at(&s->band_in[i], t, s->band_vals);
        if (!rc)
            lq_band_scatter(&s->band_in[i].g, s->band_vals, s->band_host[0], s->band_host[1],
                            s->band_host[2], s->band_host[3]);
    }
    lq_field *f[4] = {&s->phi, &s->u, &s->v, &s->w};
    for (int q = 0; q < 4 && !rc; q++) rc = lq_field_upload(f[q], s->band_host[q]);
    const lq_field *base = lq_pls_sdf(s);
    if (s->sources) base = lq_plssource_solid(&s->plssource, base);
    size_t n = (size_t)s->nx * s->ny * s->nz;
    if (!rc && base) rc = lq_field_download(base, s->band_solid_host);
    if (!rc && !base)
        for (size_t c = 0; c < n; c++) s->band_solid_host[c] = LQ_PLSSOURCE_FAR;
    for (int i = 0; i < s->nband_in && !rc; i++) {
        const lq_band_geom *g = &s->band_in[i].g;
        for (int e = 0; e < g->n[0]; e++) s->band_solid_host[g->dst[0][e]] = -(float)s->h;
    }
    if (!rc) rc = lq_field_upload(&s->band_solid, s->band_solid_host);
    return rc;
}

/* The bands set up: this grid's shell (when it has outflow faces: its old band files
 * removed, step 0 written, for any downstream grid, named now or added later) and a reader
 * per upstream grid (the bands at t = 0 held and the velocity projected with them, as
 * lq_pls_sources_start does for inlets). */
static int lq_pls_bands_start(lq_pls *s, const lq_config *cfg)
{
    const lq_config_gridspec *me = &cfg->grids[cfg->grid_self];
    s->bands_dir = cfg->bands_dir;
    if (s->window)
        return lq_config_error(cfg, me->at, "grids: not yet with pls.window (a grid that moves)");
    if (s->moving) return lq_config_error(cfg, me->at, "grids: not yet with moving obstacles");
    size_t n = (size_t)s->nx * s->ny * s->nz;
    size_t fn[4] = {n, (size_t)(s->nx + 1) * s->ny * s->nz, (size_t)s->nx * (s->ny + 1) * s->nz,
                    (size_t)s->nx * s->ny * (s->nz + 1)};
    int rc = LQ_OK, most = 0;
    for (int q = 0; q < 4 && !rc; q++)
        if (!(s->band_host[q] = lq_alloc(fn[q] * sizeof(float)))) rc = LQ_ESIM;
    if (!rc && me->geom.outflow) { /* the shell, for any downstream grid, now or later */
        s->band_out_id.ident = me->ident;
        snprintf(s->band_out_id.up, sizeof s->band_out_id.up, "%s", me->name);
        rc = lq_band_shell_make(&s->band_out, &me->geom);
        if (!rc) {
            s->nband_out = 1;
            most = s->band_out.total;
        }
    }
    if (!rc && me->nup > 0) {
        if (!(s->band_in = lq_calloc((size_t)me->nup, sizeof *s->band_in))) rc = LQ_ESIM;
        for (int k = 0; k < me->nup && !rc; k++) {
            const lq_config_gridspec *up = &cfg->grids[me->up[k]];
            lq_band_id id = {up->ident, ""};
            snprintf(id.up, sizeof id.up, "%s", up->name);
            rc = lq_band_reader_open(&s->band_in[k], s->bands_dir, &id, &up->geom, &me->geom,
                                     me->name);
            if (!rc) {
                s->nband_in++;
                most = LQ_MAX(most, s->band_in[k].g.total);
            }
        }
        if (!rc && !(s->band_solid_host = lq_alloc(n * sizeof(float)))) rc = LQ_ESIM;
        if (!rc)
            rc = lq_field_alloc(s->ctx, &s->band_solid, "band_solid", s->nx, s->ny, s->nz,
                                sizeof(float));
    }
    if (!rc && !(s->band_vals = lq_alloc(((size_t)most + 1) * sizeof(float)))) rc = LQ_ESIM;
    /* --resume: the stored files stay and the checkpoint's load (lq_pls_bands_resume) takes
     * it from there; the start's held bands and projection would be replaced by it */
    if (rc || cfg->grid_resume) return rc;
    lq_band_clear(s->bands_dir, me->name); /* this grid's old files, and its mark */
    if (s->nband_in) { /* the held bands at t, then the velocity projected with them */
        lq_poisson_stats pst;
        s->poisson_params.dt = (float)(1.0 / s->fps);
        rc = lq_pls_bands_in(s, s->t);
        if (!rc) rc = lq_pls_project(s, &pst);
        if (!rc) rc = lq_pls_extrapolate(s);
        if (!rc) rc = lq_pls_divfree(s);
    }
    if (!rc && s->nband_out) rc = lq_pls_bands_out(s);
    return rc;
}

/* A checkpoint loaded (--resume, §5.4): this grid's files after the checkpoint's step go
 * (and its done mark: it runs on), the step's own file is written again (the state it
 * holds is the one that wrote it), so the files continue without a gap from there, each
 * as the uninterrupted run writes it; the files before it stay, for the downstream grids
 * reading them. Each reader starts again at this grid's own time. */
static int lq_pls_bands_resume(lq_pls *s)
{
    for (int i = 0; i < s->nband_in; i++) lq_band_reader_seek(&s->band_in[i], s->t);
    if (!s->nband_out) return LQ_OK;
    lq_band_clear_after(s->bands_dir, s->band_out_id.up, s->step);
    return lq_pls_bands_out(s);
}

/* --- §5.3 the moving grid window ------------------------------------------------------- */

/* The window's origin from its offset; the grid-relative state outside the fields (the
 * moving objects' rest centres, the control particles' origin) moved by d cells with it. */
static void lq_pls_window_place(lq_pls *s, const int d[3])
{
    for (int a = 0; a < 3; a++) {
        s->win_off[a] += d[a];
        s->origin[a] = s->origin0[a] + s->win_off[a] * s->h;
    }
    if (s->objects)
        for (int q = 0; q < s->plsobject.n; q++)
            for (int a = 0; a < 3; a++) s->plsobject.obj[q].c0[a] -= d[a] * s->h;
    if (s->control) {
        memcpy(s->controls.origin, s->origin, sizeof s->origin);
        s->control_binned = false; /* binned in the old window's cells */
    }
}

/* §5.3: the world-placed static solids and sources[] for the window's placement, rebuilt
 * (not shifted: what enters the window was never in it) on the host with start-up's own
 * rasterisers (lq_pls_static_sdf, lq_plssource_place), so the window's fields are those a
 * fixed grid at its placement has; uploaded (into sdf_static with moving objects, which
 * lq_plsobject_update then merges) and, for voxelised solids, reinitialised to a distance
 * as at start-up. phin is free (the window's scratch). */
static int lq_pls_window_statics(lq_pls *s)
{
    if (!s->win_static && !s->sources) return LQ_OK;
    size_t n = (size_t)s->nx * s->ny * s->nz;
    if (!s->win_sdf && !(s->win_sdf = lq_alloc(n * sizeof *s->win_sdf))) return LQ_ESIM;
    bool any = false, voxels = false;
    int rc = s->win_static ? lq_pls_static_sdf(s, s->cfg, s->win_sdf, &any, &voxels) : LQ_OK;
    if (!rc && s->sources)
        rc =
            lq_plssource_place(&s->plssource, s->cfg, s->origin, s->win_static ? s->win_sdf : NULL);
    if (rc || !s->win_static) return rc;
    rc = lq_field_upload(s->moving ? &s->sdf_static : &s->sdf, s->win_sdf);
    if (!rc && s->sdf_reinit)
        rc = lq_reinit(&s->reinit, &s->sdf, &s->phin, &s->reinit_params, NULL);
    return rc;
}

/* One field moved by d into its scratch twin, then swapped. */
static int lq_pls_window_field(lq_pls *s, lq_field *f, lq_field *scratch, const int d[3], int mode,
                               float fill, int wall)
{
    int rc = lq_plswindow_shift(&s->plswindow, f, scratch, d, mode, fill, wall);
    if (!rc) lq_pls_swap(f, scratch);
    return rc;
}

/* The window moved by d cells (plswindow_cell.h): φ (uncovered cells air at the
 * reinitialisation's cap), u v w (the nearest kept face, the window's edge faces walls),
 * p (0), ν₀ per cell (pls.viscosity); the particles moved, those left behind deleted; the
 * moving objects at t in the new window. At the start of a step un vn wn, phin, b and nun
 * are free (each step writes them before reading). The liquid left behind (only when the
 * box reaches the cells that leave): the zero set's volume before less after. */
static int lq_pls_window_move(lq_pls *s, const int d[3], const int box[6])
{
    lq_plsparticles_state *ps = &s->plsparticles_state;
    int n[3] = {s->nx, s->ny, s->nz}, rc = LQ_OK, bad = 0;
    bool cut = false;
    for (int a = 0; a < 3; a++)
        cut = cut || (d[a] > 0 && box[a] < d[a]) || (d[a] < 0 && box[a + 3] >= n[a] + d[a]);
    double before = 0, after = 0;
    if (cut)
        rc =
            lq_plsforce_volume_pl(&s->plsforce, &s->phi, lq_pls_sdf(s), (float)s->h, &before, &bad);
    float air = s->reinit_params.band * (float)s->h;
    if (!rc) rc = lq_pls_window_field(s, &s->phi, &s->phin, d, LQ_PLSWINDOW_FILL, air, -1);
    if (!rc) rc = lq_pls_window_field(s, &s->u, &s->un, d, LQ_PLSWINDOW_CLAMP, 0, 0);
    if (!rc) rc = lq_pls_window_field(s, &s->v, &s->vn, d, LQ_PLSWINDOW_CLAMP, 0, 1);
    if (!rc && s->nz > 1) rc = lq_pls_window_field(s, &s->w, &s->wn, d, LQ_PLSWINDOW_CLAMP, 0, 2);
    if (!rc) rc = lq_pls_window_field(s, &s->p, &s->b, d, LQ_PLSWINDOW_FILL, 0, -1);
    if (!rc && s->viscous && s->nu_regions)
        rc = lq_pls_window_field(s, &s->nu, &s->nun, d, LQ_PLSWINDOW_FILL, (float)s->nu_base, -1);
    if (!rc) rc = lq_plsparticles_sync(ps); /* the window's move reads the count: rare */
    if (!rc)
        rc = lq_plswindow_particles(&s->plswindow, &ps->part[ps->cur], ps->live,
                                    LQ_PLSPARTICLES_STRIDE, LQ_PLSPARTICLES_R, d, (float)s->h);
    if (rc) return rc;
    lq_pls_window_place(s, d);
    rc = lq_pls_window_statics(s);
    if (!rc && s->moving)
        rc = lq_plsobject_update(&s->plsobject, s->t, s->has_static ? &s->sdf_static : NULL,
                                 &s->sdf);
    /* φ into the solids the window uncovered (§5.5.2, as each step leaves it) */
    if (!rc && s->objects)
        rc = lq_plsobject_extrap_phi(&s->plsobject, &s->phi, &s->sdf, LQ_PLS_PHI_LAYERS);
    if (!rc && s->objects && (s->win_static || s->moving)) /* §5.5.1 inside them, as step 7 */
        rc = lq_extrap_object_bc(&s->extrap, &s->u, &s->v, &s->w, s->separation ? &s->phi : NULL,
                                 &s->sdf, s->plsobject.vel, &s->extrap_params);
    if (!rc) /* the dead ones dropped (and those now inside an object) */
        rc = lq_plsparticles_delete(&s->plsparticles, ps, &s->phi, lq_pls_sdf(s),
                                    &s->plsparticles_params);
    if (!rc && cut) {
        rc = lq_plsforce_volume_pl(&s->plsforce, &s->phi, lq_pls_sdf(s), (float)s->h, &after, &bad);
        s->win_out_volume += (before - after) * s->cellv;
    }
    return rc;
}

/* §5.3: the inlets open now or within the next pls.window.every steps, their box into pin
 * (window cells, [0..2] low, [3..5] high; pin[0] > pin[3]: none): the window holds them
 * while they pour (an inlet outside it would deliver nothing). Their boxes: the shape's
 * (win_pin, world m), a mesh's its cells' in the window. */
static void lq_pls_window_pin(const lq_pls *s, double dt, int pin[6])
{
    const lq_plssource_ops *o = &s->plssource;
    double until = s->t + dt * s->win_every;
    pin[0] = 1, pin[3] = 0;
    for (int e = 0; e < o->n; e++) {
        const lq_plssource_item *it = &o->item[e];
        if (it->kind != LQ_PLSSOURCE_ITEM_INLET || it->state == LQ_PLSSOURCE_CLOSED ||
            it->start > until || it->stop <= s->t)
            continue;
        int lo[3], hi[3];
        bool shape = isfinite(s->win_pin[e][0]);
        for (int a = 0; a < 3; a++) {
            lo[a] = shape ? (int)floor((s->win_pin[e][a] - s->origin[a]) / s->h) : it->lo[a];
            hi[a] = shape ? (int)ceil((s->win_pin[e][a + 3] - s->origin[a]) / s->h) - 1 : it->hi[a];
        }
        if (lo[0] > hi[0] || lo[1] > hi[1]) continue; /* a mesh outside the window */
        if (s->nz == 1) lo[2] = hi[2] = 0;
        bool none = pin[0] > pin[3];
        for (int a = 0; a < 3; a++) {
            pin[a] = none ? lo[a] : LQ_MIN(pin[a], lo[a]);
            pin[a + 3] = none ? hi[a] : LQ_MAX(pin[a + 3], hi[a]);
        }
    }
}

/* §5.3: where the liquid's box (its φ < 0 cells, one small read; with the pinned inlets'
 * boxes) comes within the margin of a face, the window moves by whole cells along that
 * axis, within the domain: to centre the box when it fits between the margins, else (a
 * stream longer than the window) to put the end that grew more since the last check (the
 * front) at its margin, leaving the other end behind (window_out_volume), but never an
 * open inlet. */
static int lq_pls_window(lq_pls *s, double dt)
{
    int box[LQ_PLSWINDOW_BOX], pin[6] = {1, 0, 0, 0, 0, 0}, n[3] = {s->nx, s->ny, s->nz};
    int d[3] = {0, 0, 0};
    int rc = lq_plswindow_box(&s->plswindow, &s->phi, box);
    if (!rc && s->win_path) { /* follow: path, the origin at t + dt to the nearest cell */
        double at[3];
        bool move = false;
        lq_path_eval(s->win_path, s->t + dt, at, NULL, NULL, NULL);
        for (int a = 0; a < 3; a++) {
            long long off = llround((at[a] - s->origin0[a]) / s->h);
            off = LQ_MAX(s->win_min[a], LQ_MIN(s->win_max[a], off));
            d[a] = (int)(off - s->win_off[a]);
            move = move || d[a] != 0;
        }
        if (box[0] > box[3]) /* no liquid: none cut */
            for (int a = 0; a < 3; a++) {
                box[a] = n[a];
                box[a + 3] = -1;
            }
        return move ? lq_pls_window_move(s, d, box) : LQ_OK;
    }
    if (!rc && s->sources) lq_pls_window_pin(s, dt, pin);
    bool pinned = pin[0] <= pin[3], liquid = box[0] <= box[3];
    for (int a = 0; a < 6 && pinned; a++) /* the box with the pinned inlets */
        box[a] = !liquid ? pin[a] : a < 3 ? LQ_MIN(box[a], pin[a]) : LQ_MAX(box[a], pin[a]);
    if (rc || (!liquid && !pinned)) return rc; /* no liquid: the window stays */
    bool move = false;
    for (int a = 0; a < 3; a++) {
        int lo = box[a], hi = box[a + 3], m = s->win_margin;
        long long wlo = s->win_off[a] + lo, whi = s->win_off[a] + hi, off;
        bool had = s->win_seen, fits = hi - lo + 1 <= n[a] - 2 * m;
        long long glo = had ? s->win_seen_box[a] - wlo : 0,
                  ghi = had ? whi - s->win_seen_box[a + 3] : 0;
        s->win_seen_box[a] = wlo;
        s->win_seen_box[a + 3] = whi;
        if (lo >= m && hi <= n[a] - 1 - m) continue;
        if (fits)
            off = s->win_off[a] + (long long)((lo + hi + 1) / 2 - n[a] / 2);
        else /* the front at its margin */
            off = ghi >= glo ? whi - (n[a] - 1 - m) : wlo - m;
        if (pinned) /* the open inlets stay inside */
            off = LQ_MAX(s->win_off[a] + pin[a + 3] - (n[a] - 1),
                         LQ_MIN(s->win_off[a] + pin[a], off));
        off = LQ_MAX(s->win_min[a], LQ_MIN(s->win_max[a], off));
        d[a] = (int)(off - s->win_off[a]);
        move = move || d[a] != 0;
    }
    s->win_seen = true;
    return move ? lq_pls_window_move(s, d, box) : LQ_OK;
}

/* One step of dt: Rasmussen et al. §3, the header's list. */
static int lq_pls_step(lq_pls *s, double dt)
{
    lq_ctx *c = s->ctx;
    lq_plsparticles_state *ps = &s->plsparticles_state;
    lq_poisson_stats pst;
    int rc = LQ_OK;
    lq_pls_set_dt(s, dt);
    /* §5.3: the window follows the liquid, by whole cells (before `lab` is taken: its
     * compaction of the particles swaps their buffers) */
    if (s->window && s->step % s->win_every == 0)
        LQ_STAGE(rc, c, "window moved (§5.3)", lq_pls_window(s, dt));
    lq_field *lab = &ps->part[1 - ps->cur]; /* §5.5.3's labels: the unused particle buffer */
    /* §4.1: the control particles at t + dt, binned */
    if (s->control) LQ_STAGE(rc, c, "control particles binned", lq_pls_control_bin(s, dt));
    /* 1. the particles move, RK2 (§3, [EMF02]; objects: §5.5.3's labels first) */
    LQ_STAGE(rc, c, "particles move", lq_pls_move_particles(s, lab, dt));
    /* 2. φ advected, semi-Lagrangian (eq. 3); the objects at t + dt (§5.5.2, §5.5.3) */
    LQ_STAGE(rc, c, "phi advected", lq_pls_advect_phi(s));
    if (s->objects) LQ_STAGE(rc, c, "objects move", lq_pls_move_objects(s, lab, dt));
    /* 3. the particle level set's corrections around the reinitialisation ([EMF02]) */
    /* the escaped ones tallied on the device, read with the frame's stats */
    LQ_STAGE(rc, c, "particles correct phi",
             lq_plsparticles_correct_tally(&s->plsparticles, ps, &s->phi, &s->plsparticles_params));
    LQ_STAGE(rc, c, "phi reinitialised", lq_pls_reinit(s));
    LQ_STAGE(rc, c, "particles corrected, deleted, reseeded", lq_pls_tidy_particles(s));
    /* §4.3: level-set control and erasers (fig. 2), their region's particles reseeded */
    if (s->control && (LQ_PLS_HAS(s, LQ_PLSCONTROL_PHI) || LQ_PLS_HAS(s, LQ_PLSCONTROL_ERASER)))
        LQ_STAGE(rc, c, "level-set control", lq_pls_control_phi(s));
    if (s->volume_correction) /* opt-in, not the paper's */
        LQ_STAGE(rc, c, "volume corrected (opt-in)", lq_pls_correct_volume(s));
    if (s->texture) LQ_STAGE(rc, c, "texture particles move (§6)", lq_pls_texture_move(s, dt));
    /* 4. eq. 2's convection, semi-Lagrangian */
    LQ_STAGE(rc, c, "velocity advected", lq_pls_advect_velocity(s));
    /* 5. eq. 2's g, with §5.5.1 at the object faces; then ∇·τ (§5.1) */
    LQ_STAGE(rc, c, "gravity and object faces", lq_pls_gravity(s, dt));
    if (s->control && LQ_PLS_HAS(s, LQ_PLSCONTROL_VISCOSITY))
        LQ_STAGE(rc, c, "viscosity control", lq_pls_control_nu(s)); /* §4.1, §5.1 */
    if (s->viscous) LQ_STAGE(rc, c, "viscosity", lq_pls_viscosity(s, dt));
    /* sources: §5.4's sourced values, held while eq. 1 is solved; sinks: CSG subtraction */
    if (s->sources) LQ_STAGE(rc, c, "sources and sinks", lq_pls_sources(s, dt));
    /* §5.4: the bands sourced from upstream grids at t + dt, held while eq. 1 is solved */
    if (s->nband_in) LQ_STAGE(rc, c, "bands sourced (§5.4)", lq_pls_bands_in(s, s->t + dt));
    /* §4.3, eq. 4: velocity control, hard where α > 0.9 */
    if (s->control && LQ_PLS_HAS(s, LQ_PLSCONTROL_VELOCITY))
        LQ_STAGE(rc, c, "velocity control", lq_pls_control_velocity(s));
    /* §5.6: pockets walled in by hard control, objects, inlets: out of the solve, enslaved */
    if (s->pockets) LQ_STAGE(rc, c, "pockets enslaved", lq_pls_pockets(s));
    /* 6. the projection: ∇p from eq. 1, p = 0 in the air (ghost fluid) */
    LQ_STAGE(rc, c, "projection", lq_pls_project(s, &pst));
    /* 7. the velocity into the air band (§5.2) and the objects (§5.5.1); §5.5.2 */
    LQ_STAGE(rc, c, "velocity extrapolated", lq_pls_extrapolate(s));
    LQ_STAGE(rc, c, "divergence-free band", lq_pls_divfree(s));
    if (rc) return rc;
    rc = lq_pls_step_done(s, dt, &pst);
    /* §5.4: this grid's bands for its downstream grids, at the step's end */
    if (!rc && s->nband_out) LQ_STAGE(rc, c, "bands written (§5.4)", lq_pls_bands_out(s));
    return rc;
}

static int lq_pls_max_speed(lq_pls *s, double *umax)
{
    float sm[3];
    int rc = lq_plsforce_max_speed(&s->plsforce, &s->u, &s->v, &s->w, sm);
    if (rc) return rc;
    for (int a = 0; a < 3; a++)
        if (!isfinite(sm[a]))
            return lq_error(LQ_ESIM,
                            "simulation blew up at step %d (t = %.6g s): field %c is not finite",
                            s->step, s->t, "uvw"[a]);
    *umax = fmax(sm[0], fmax(sm[1], sm[2]));
    return LQ_OK;
}

/* The sources' stats (as shallow's): what the inlets delivered, what the outlets removed,
 * and the volume drift without them, relative to the initial volume plus the delivered.
 * The sources count their cells' liquid with the per-cell measure (plssource_ref.h), so
 * volume_drift is of that measure (vcells: the frame's); volume_drift_zero_set puts
 * the zero set's volume (liquid_volume) in its place. */
static int lq_pls_measure_sources(lq_pls *s, lq_frame_stats *st, double vcells)
{
    double src = 0, snk = 0;
    int rc = lq_plssource_totals(&s->plssource, &s->phi, &src, &snk);
    lq_stats_extra(st, "source_volume", src);
    lq_stats_extra(st, "sink_volume", snk);
    lq_stats_extra(st, "volume_drift",
                   (vcells - (s->volume0_cells + src - snk)) / fmax(s->volume0_cells + src, 1e-30));
    lq_stats_extra(st, "volume_drift_zero_set",
                   (st->liquid_volume - (s->volume0 + src - snk)) / fmax(s->volume0 + src, 1e-30));
    return rc;
}

static int lq_pls_measure_frame(lq_pls *s, lq_frame_stats *st)
{
    memset(st, 0, sizeof *st);
    double umax = 0, cells = 0, hcells = 0;
    int bad = 0, hbad = 0;
    int rc = lq_plsparticles_sync(&s->plsparticles_state); /* "particles" (none after a take) */
    if (!rc) rc = lq_pls_max_speed(s, &umax);
    if (!rc)
        rc = lq_plsforce_volume(&s->plsforce, &s->phi, lq_pls_sdf(s), (float)s->h, &hcells, &hbad);
    if (!rc)
        rc = lq_plsforce_volume_pl(&s->plsforce, &s->phi, lq_pls_sdf(s), (float)s->h, &cells, &bad);
    if (rc) return rc;
    if (bad || hbad)
        return lq_error(LQ_ESIM,
                        "simulation blew up at step %d (t = %.6g s): field phi is not finite",
                        s->step, s->t);
    st->liquid_volume = cells * s->cellv;
    st->max_speed = umax;
    st->pressure_iterations = s->iterations;
    st->pressure_residual = s->residual;
    st->dt_min = st->dt_max = s->dt_prev;
    lq_stats_extra(st, "volume_change",
                   s->volume0 > 0 ? (st->liquid_volume - s->volume0) / s->volume0 : 0);
    /* the per-cell measure (plsforce_cell.h: it moves with |∇φ|, not only with φ = 0) */
    lq_stats_extra(st, "volume_heaviside", hcells * s->cellv);
    lq_stats_extra(st, "volume_change_heaviside",
                   s->volume0_cells > 0 ? (hcells * s->cellv - s->volume0_cells) / s->volume0_cells
                                        : 0);
    if (s->sources && (rc = lq_pls_measure_sources(s, st, hcells * s->cellv)) != LQ_OK) return rc;
    lq_stats_extra(st, "reinitialisations", s->reinits);
    if (s->volume_correction) lq_stats_extra(st, "volume_correction", s->corrected);
    s->corrected = 0;
    if (s->reinit_threshold > 0) lq_stats_extra(st, "phi_departure", s->departure);
    s->reinits = 0;
    lq_stats_extra(st, "particles", s->plsparticles_state.live);
    lq_stats_extra(st, "escaped", (double)s->escaped);
    if (s->viscous) {
        lq_stats_extra(st, "viscosity", lq_timefn_eval(&s->nu_t, s->t));
        lq_stats_extra(st, "viscosity_iterations", s->visc_iters);
        lq_stats_extra(st, "viscosity_residual", s->visc_residual);
        lq_stats_extra(st, "viscosity_unconverged", s->visc_unconverged);
    }
    if (s->control) {
        lq_stats_extra(st, "control_particles", s->plscontrol.binned);
        lq_stats_extra(st, "control_hard_cells", s->plscontrol.hard);
        lq_stats_extra(st, "control_moved_cells", s->plscontrol.moved);
    }
    if (s->pockets) {
        lq_stats_extra(st, "pocket_cells", s->plspocket.cells);
        lq_stats_extra(st, "pockets", s->plspocket.pockets);
    }
    lq_stats_extra(st, "particles_dropped", (double)s->plsparticles_state.dropped);
    if (s->nband_in) { /* §5.4: seconds this grid waited for its upstream grids, all time */
        double wait = 0;
        for (int i = 0; i < s->nband_in; i++) wait += s->band_in[i].wait_s;
        lq_stats_extra(st, "band_wait_s", wait);
    }
    if (s->window) { /* §5.3: where the window is, what it left behind (all time) */
        long long out = 0;
        if ((rc = lq_plswindow_take_out(&s->plswindow, &out)) != LQ_OK) return rc;
        s->win_out_particles += out;
        lq_stats_extra(st, "window_origin_x", s->origin[0]);
        lq_stats_extra(st, "window_origin_y", s->origin[1]);
        lq_stats_extra(st, "window_origin_z", s->origin[2]);
        lq_stats_extra(st, "window_out_volume", s->win_out_volume);
        lq_stats_extra(st, "window_particles_out", (double)s->win_out_particles);
    }
    if (s->texture) lq_stats_extra(st, "texture_particles", s->texst.n);
    lq_stats_extra(st, "pressure_unconverged", s->unconverged);
    lq_stats_extra(st, "device_bytes", (double)s->device_bytes);
    return LQ_OK;
}

/* The frame's stats after its steps: the escaped particles the device tallied (one read,
 * which brings the live count with it), then the measures. */
static int lq_pls_frame_stats(lq_pls *s, lq_frame_stats *st)
{
    long long esc = 0;
    int rc = lq_plsparticles_take_tally(&s->plsparticles_state, &esc);
    s->escaped = esc;
    return rc ? rc : lq_pls_measure_frame(s, st);
}

static int lq_pls_measure(void *state, lq_frame_stats *st)
{
    return lq_pls_measure_frame(state, st);
}

/* The longest step allowed now: cfl·h / max|u|, at most cfl·sqrt(h / |g|) and rest. */
static int lq_pls_dt(lq_pls *s, double rest, double *dt)
{
    double umax = 0, gmag = sqrt(s->g[0] * s->g[0] + s->g[1] * s->g[1] + s->g[2] * s->g[2]);
    int rc = lq_pls_max_speed(s, &umax);
    *dt = rest;
    if (umax > 0) *dt = fmin(*dt, s->cfl * s->h / umax);
    if (gmag > 0) *dt = fmin(*dt, s->cfl * sqrt(s->h / gmag));
    return rc;
}

/* The fields each stage of the step computes, for a blow-up's message (inner stages of
 * the projection, host/ops/pls/poisson.c, included). */
static const char *const lq_pls_stage_fields[][2] = {
    {"time step (CFL)", "u, v, w"},
    {"window moved (§5.3)", "phi, u, v, w"},
    {"particles move", "particles"},
    {"phi advected", "phi"},
    {"objects move", "sdf"},
    {"particles correct phi", "phi"},
    {"phi reinitialised", "phi"},
    {"particles corrected, deleted, reseeded", "particles"},
    {"velocity advected", "u, v, w"},
    {"gravity and object faces", "u, v, w"},
    {"viscosity", "u, v, w"},
    {"system built", "p"},
    {"right-hand side", "p"},
    {"solved", "p"},
    {"velocity updated", "u, v, w"},
    {"projection", "p"},
    {"velocity extrapolated", "u, v, w"},
    {"divergence-free band", "u, v, w"},
    {NULL, NULL}};

/* What sets the step, for a blow-up's message (framesplit.h). */
static void lq_pls_why(void *state, char *buf, size_t cap)
{
    lq_pls *s = state;
    float sm[3] = {0, 0, 0};
    (void)lq_plsforce_max_speed(&s->plsforce, &s->u, &s->v, &s->w, sm);
    double gmag = sqrt(s->g[0] * s->g[0] + s->g[1] * s->g[1] + s->g[2] * s->g[2]);
    snprintf(buf, cap, "%s", lq_framesplit_speeds(sm, s->g, gmag));
}

static int lq_pls_advance(void *state, int frame, double t_end, lq_frame_stats *st)
{
    lq_pls *s = state;
    s->frame = frame;
    s->iterations = s->unconverged = s->visc_iters = s->visc_unconverged = 0;
    s->residual = s->visc_residual = 0;
    s->escaped = 0;
    lq_framesplit fr = lq_framesplit_start(s->t, t_end);
    int rc = LQ_OK;
    while (!rc && lq_framesplit_more(&fr, s->t)) {
        double dt = 0;
        lq_profile_failed_clear();
        LQ_STAGE(rc, s->ctx, "time step (CFL)", lq_pls_dt(s, t_end - s->t, &dt));
        if (rc) break;
        dt = lq_framesplit_next(&fr, s->t, dt, LQ_FRAMESPLIT_ROUNDOFF, false);
        rc = lq_framesplit_guard(&fr, s->step, s->t, dt, s->max_steps, lq_pls_why, s);
        LQ_STAGE(rc, s->ctx, "step", lq_pls_step(s, dt));
        if (!rc) lq_framesplit_took(&fr, dt);
    }
    if (rc) return lq_framesplit_failed(rc, s->step, s->t, lq_pls_stage_fields);
    if (s->visc_unconverged > 0) /* stats: viscosity_unconverged */
        fprintf(stderr,
                "liquidcl: warning: frame %d: the viscosity solve stopped unconverged in %d "
                "step(s) (last: %s; tolerance %.2g, at most %d iterations a component)\n",
                frame, s->visc_unconverged, s->visc_worst.message,
                s->viscosity_params.tol > 0 ? s->viscosity_params.tol : 1e-6,
                s->viscosity_params.max_iter > 0 ? s->viscosity_params.max_iter : 500);
    LQ_STAGE(rc, s->ctx, "frame stats", lq_pls_frame_stats(s, st));
    lq_framesplit_report(&fr, st);
    return rc;
}

static int lq_pls_view(void *state, const char *name, lq_field_view *v)
{
    lq_pls *s = state;
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    v->name = name;
    v->spacing[0] = v->spacing[1] = v->spacing[2] = s->h;
    for (int q = 0; q < 3; q++) v->origin[q] = s->origin[q] + 0.5 * s->h;
    v->dims[0] = nx;
    v->dims[1] = ny;
    v->dims[2] = nz;
    if (strcmp(name, "phi") == 0 || strcmp(name, "p") == 0) {
        rc = lq_field_download(name[1] == 'h' ? &s->phi : &s->p, s->gv);
        v->data = s->gv;
    } else if (strcmp(name, "u") == 0 || strcmp(name, "v") == 0 || strcmp(name, "w") == 0) {
        int a = name[0] - 'u';
        lq_field *f = a == 0 ? &s->u : a == 1 ? &s->v : &s->w;
        rc = lq_field_download(f, s->fv);
        v->dims[a]++;
        v->origin[a] -= 0.5 * s->h;
        v->data = s->fv;
    } else if (strcmp(name, "solid") == 0) {
        /* 1 in object cells (sdf ≤ 0), 0 elsewhere */
        size_t n = (size_t)nx * ny * nz;
        if (s->has_sdf) rc = lq_field_download(&s->sdf, s->gv);
        for (size_t c = 0; c < n && !rc; c++) s->gv[c] = s->has_sdf ? (float)(s->gv[c] <= 0) : 0;
        v->data = s->gv;
    } else {
        return lq_error(LQ_EINPUT, "solver 'pls' has no field '%s'", name);
    }
    return rc;
}

/* The level-set particles: x, y, z (world, m), radius (m) and sign (−1 liquid, +1 air). */
static int lq_pls_points(void *state, lq_points_view *pv)
{
    lq_pls *s = state;
    int rc0 = lq_plsparticles_sync(&s->plsparticles_state);
    if (rc0) return rc0;
    int n = LQ_MAX(s->plsparticles_state.live, 1);
    if (n > s->pcap) {
        free(s->pbuf);
        s->pbuf = lq_alloc((size_t)n * LQ_PLSPARTICLES_STRIDE * sizeof(float));
        for (int i = 0; i < 5; i++) {
            free(s->pcols[i]);
            s->pcols[i] = lq_alloc((size_t)n * sizeof(float));
        }
        s->pcap = n;
        for (int i = 0; i < 5; i++)
            if (!s->pcols[i]) s->pcap = 0;
        if (!s->pbuf || !s->pcap) {
            s->pcap = 0;
            return LQ_ESIM;
        }
    }
    int got = 0;
    int rc = lq_plsparticles_download(&s->plsparticles_state, s->pbuf, s->pcap, &got);
    got = LQ_MIN(got, s->pcap);
    for (int q = 0; q < got && !rc; q++) {
        const float *pq = s->pbuf + (size_t)q * LQ_PLSPARTICLES_STRIDE;
        for (int a = 0; a < 3; a++) s->pcols[a][q] = (float)(pq[a] + s->origin[a]);
        s->pcols[3][q] = fabsf(pq[LQ_PLSPARTICLES_R]); /* the record holds s r */
        s->pcols[4][q] = pq[LQ_PLSPARTICLES_R] < 0 ? -1.0f : 1.0f;
    }
    pv->n = rc ? 0 : got;
    pv->nprops = 5;
    pv->names = lq_pls_point_names;
    for (int i = 0; i < 5; i++) pv->columns[i] = s->pcols[i];
    return rc;
}

/* §6: the texture particles, x y z and rest_x rest_y rest_z (world, m). */
static const char *const lq_pls_texture_names[] = {"x", "y", "z", "rest_x", "rest_y", "rest_z"};
static int lq_pls_texture_points(void *state, lq_points_view *pv)
{
    lq_pls *s = state;
    int n = s->texture ? s->texst.n : 0, rc = LQ_OK;
    memset(pv, 0, sizeof *pv);
    pv->nprops = 6;
    pv->names = lq_pls_texture_names;
    if (n == 0) return LQ_OK;
    bool ok = s->tbuf != NULL; /* made once: the count is fixed for the run */
    for (int i = 0; i < 6; i++) ok = ok && s->tcols[i];
    if (!ok) {
        free(s->tbuf);
        s->tbuf = lq_alloc((size_t)n * LQ_TEXPARTICLES_STRIDE * sizeof(float));
        ok = s->tbuf != NULL;
        for (int i = 0; i < 6; i++) {
            free(s->tcols[i]);
            s->tcols[i] = lq_alloc((size_t)n * sizeof(float));
            ok = ok && s->tcols[i];
        }
        if (!ok) return LQ_ESIM;
    }
    rc = lq_texparticles_download(&s->texst, s->tbuf);
    for (int q = 0; q < n && !rc; q++)
        for (int c = 0; c < 6; c++)
            s->tcols[c][q] =
                (float)(s->tbuf[(size_t)q * LQ_TEXPARTICLES_STRIDE + c] + s->origin[c % 3]);
    pv->n = rc ? 0 : n;
    for (int i = 0; i < 6; i++) pv->columns[i] = s->tcols[i];
    return rc;
}

/* --- checkpoints: scalars, u v w p phi, the particles ---------------------------------- */

/* §6: the texture particles' count and their buffer whole (its room is the same in every
 * run of the scene: the initial φ's band). */
static int lq_pls_texture_ckpt(lq_pls *s, FILE *f, bool save)
{
    int32_t n = s->texst.n;
    int rc = save ? lq_checkpoint_put(f, &n, sizeof n) : lq_checkpoint_get(f, &n, sizeof n);
    /* checked before use: n bounds every texture kernel's range and the lookups */
    if (!rc && !save)
        rc = lq_checkpoint_count(f, "texture particle count", n, 0, s->texst.capacity, 0);
    if (rc) return rc;
    s->texst.n = n;
    return lq_checkpoint_fields(f, (lq_field *[]){&s->texst.part}, 1, save);
}

/* §5.3: the window's offset and what it left behind (only with pls.window: a scene without
 * one writes what it wrote before). Loaded into a solver just made (offset 0), the offset
 * is applied as one move of the grid-relative state outside the fields (the fields and
 * particles are saved as they are in the window). */
typedef struct lq_pls_window_rec {
    int32_t off[3], seen;
    double out_volume;
    int64_t out_particles;
    int64_t seen_box[6];
} lq_pls_window_rec;

static int lq_pls_window_ckpt(lq_pls *s, FILE *f, bool save)
{
    long long out = 0;
    int rc = save ? lq_plswindow_take_out(&s->plswindow, &out) : LQ_OK;
    s->win_out_particles += out;
    lq_pls_window_rec r = {{s->win_off[0], s->win_off[1], s->win_off[2]},
                           s->win_seen,
                           s->win_out_volume,
                           s->win_out_particles,
                           {0}};
    memcpy(r.seen_box, s->win_seen_box, sizeof r.seen_box);
    if (!rc) rc = save ? lq_checkpoint_put(f, &r, sizeof r) : lq_checkpoint_get(f, &r, sizeof r);
    if (rc || save) return rc;
    int d[3];
    for (int a = 0; a < 3; a++) {
        if (r.off[a] < s->win_min[a] || r.off[a] > s->win_max[a])
            return lq_error(LQ_EINPUT, "the checkpoint's window lies outside pls.window.domain");
        d[a] = r.off[a] - s->win_off[a];
    }
    lq_pls_window_place(s, d);
    s->win_out_volume = r.out_volume;
    s->win_out_particles = r.out_particles;
    s->win_seen = r.seen != 0;
    memcpy(s->win_seen_box, r.seen_box, sizeof r.seen_box);
    /* the static solids and sources of that placement (the sources' state loaded before) */
    return d[0] || d[1] || d[2] ? lq_pls_window_statics(s) : LQ_OK;
}

typedef struct lq_pls_scalars {
    double t, dt_prev, volume0, volume0_cells;
    int64_t dropped;
    int32_t step, nx, ny, nz, capacity, live;
} lq_pls_scalars;

static int lq_pls_ckpt(lq_pls *s, FILE *f, bool save)
{
    int rc0 = lq_plsparticles_sync(&s->plsparticles_state); /* the live count, on the host */
    if (rc0) return rc0;
    lq_pls_scalars sc = {s->t,
                         s->dt_prev,
                         s->volume0,
                         s->volume0_cells,
                         s->plsparticles_state.dropped,
                         s->step,
                         s->nx,
                         s->ny,
                         s->nz,
                         s->plsparticles_state.capacity,
                         s->plsparticles_state.live};
    int rc = save ? lq_checkpoint_put(f, &sc, sizeof sc) : lq_checkpoint_get(f, &sc, sizeof sc);
    if (rc) return rc;
    /* the room may have grown since the start (prm.grow): the same room again */
    if (!save && s->plsparticles_params.grow && sc.capacity > s->plsparticles_state.capacity &&
        sc.capacity <= LQ_PLSPARTICLES_MAX_CAPACITY)
        rc = lq_plsparticles_state_grow(&s->plsparticles_state, sc.capacity);
    if (rc) return rc;
    if (!save &&
        (sc.nx != s->nx || sc.ny != s->ny || sc.nz != s->nz ||
         sc.capacity != s->plsparticles_state.capacity || sc.live < 0 || sc.live > sc.capacity))
        return lq_error(LQ_EINPUT,
                        "the checkpoint is for a %d x %d x %d grid with room for %d particles",
                        sc.nx, sc.ny, sc.nz, sc.capacity);
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->p, &s->phi};
    if (!rc) rc = lq_checkpoint_fields(f, fs, (int)LQ_COUNT(fs), save);
    size_t pb = (size_t)LQ_MAX(sc.live, 1) * LQ_PLSPARTICLES_STRIDE * sizeof(float);
    float *buf = rc ? NULL : lq_alloc(pb);
    if (!rc && !buf) return LQ_ESIM;
    if (!rc && save) {
        int got = 0;
        rc = lq_plsparticles_download(&s->plsparticles_state, buf, sc.live, &got);
        if (!rc)
            rc =
                lq_checkpoint_put(f, buf, (size_t)sc.live * LQ_PLSPARTICLES_STRIDE * sizeof(float));
    } else if (!rc) {
        rc = lq_checkpoint_get(f, buf, (size_t)sc.live * LQ_PLSPARTICLES_STRIDE * sizeof(float));
        if (!rc) rc = lq_plsparticles_upload(&s->plsparticles_state, buf, sc.live);
    }
    free(buf);
    if (!rc && s->texture) rc = lq_pls_texture_ckpt(s, f, save);
    if (!rc && s->sources) rc = lq_plssource_checkpoint(&s->plssource, f, save);
    if (!rc && s->window) rc = lq_pls_window_ckpt(s, f, save);
    if (!rc && !save) {
        s->t = sc.t;
        s->dt_prev = sc.dt_prev;
        s->volume0 = sc.volume0;
        s->volume0_cells = sc.volume0_cells;
        s->plsparticles_state.dropped = sc.dropped;
        s->step = sc.step;
        /* the objects are a function of t: rebuilt, not saved (φ inside them is saved) */
        if (s->moving)
            rc = lq_plsobject_update(&s->plsobject, s->t, s->has_static ? &s->sdf_static : NULL,
                                     &s->sdf);
        if (!rc && (s->nband_in || s->nband_out)) rc = lq_pls_bands_resume(s);
    }
    return rc;
}

static int lq_pls_save(void *state, FILE *f)
{
    return lq_pls_ckpt(state, f, true);
}

static int lq_pls_load(void *state, FILE *f)
{
    return lq_pls_ckpt(state, f, false);
}

const lq_solver_vt lq_pls_solver = {
    .name = "pls",
    .fields = lq_pls_fields,
    .height_field = false,
    .phi_distance = true,
    .create = lq_pls_create,
    .destroy = lq_pls_destroy,
    .advance = lq_pls_advance,
    .measure = lq_pls_measure,
    .view = lq_pls_view,
    .save = lq_pls_save,
    .load = lq_pls_load,
    .points = lq_pls_points,
    .objects = NULL,
    .texture = lq_pls_texture_points,
};
