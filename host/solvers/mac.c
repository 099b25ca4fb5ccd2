/*
 * mac.c — the `mac` solver: 3D (or 2D, nz = 1) liquid after N. Foster and D. Metaxas,
 * "Realistic Animation of Liquids" (1996), with the free-surface velocity conditions of
 * W. F. Gates (2001). Steps 1 and 2 of the paper's algorithm list (§6) are
 * lq_mac_create's (obstacles, liquid, objects; a hydrostatic initial pressure); one step
 * of dt (lq_mac_step, one stage per line) is steps 3–8:
 *
 *      inlets open, close and emit markers (§3.2.2, §7.1); two-way bodies (§5) make
 *      their cells SOLID;
 *   3. cell contents from the surface tracker (§4: markers, the eq. 11–12 height field
 *      or 2D particle chains), and each SURFACE cell's configuration of empty neighbours;
 *   4. boundary conditions: the surface pressure (the atmosphere's plus §7.2's forcing,
 *      eq. 17–19; placed at the marker fill, or with mac.surface_solve, the default, held
 *      in the EMPTY cells for step 6: kernels/mac/pressure_cell.h), Gates' surface
 *      velocities, inflow and outflow faces, then the obstacle mirrors (§3.2.1; in this
 *      order, so walls mirror the surface's velocities), two-way bodies' faces last;
 *   5. ũ, ṽ, w̃ by eq. 2 (explicit; convection by donor-cell upwinding, mac.upwind, or
 *      the limited second-order scheme, mac.advection: limited);
 *   6. the pressure iteration of eq. 5–9 (red-black or Jacobi) to ε;
 *   7. the surface conditions again, the air band, free-slip ghosts for the tracker;
 *   8. the surface tracker moves (second-order Runge–Kutta through the staggered
 *      field), buoyant bodies by eq. 13–16 (§5), spray and foam (§4.3).
 *
 * Invariants. The grid's outermost layer of cells is the domain wall (SOLID, `walls`
 * says free- or no-slip), as in the paper's examples (§3.2.2 footnote); obstacles (boxes,
 * balls, cylinders, terrain, PNG mask stacks, closed OBJ meshes) are voxelised by cell
 * centre (host/world/voxel.c). Δt follows eq. 3's CFL and the viscous limit, at most a
 * quarter frame, and the frame's rest is cut into equal steps up to 5 % over Δt
 * (core/framesplit.h): p carries the 1/Δt of the step that made it. The liquid's volume
 * is reported from the surface tracker (markers: cell volume / markers per cell each).
 * How the solver departs from the paper, and why: docs/VALIDATION.md, `mac`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/checkpoint.h"
#include "common/mac_grid.h"
#include "ops/mac/chains.h"
#include "ops/mac/machf.h"
#include "ops/mac/macbc.h"
#include "ops/mac/macbody.h"
#include "ops/mac/macpocket.h"
#include "ops/mac/macspray.h"
#include "ops/mac/macsurface.h"
#include "ops/mac/markers.h"
#include "ops/mac/momentum.h"
#include "ops/mac/pressure.h"
#include "core/budget.h"
#include "core/framesplit.h"
#include "core/profile.h"
#include "core/solver_api.h"
#include "scene/config.h"
#include "scene/timefn.h"
#include "world/voxel.h"

/* An inlet (§3.2.2, §7.1): its cells, its velocity over time and its markers. */
typedef struct lq_mac_inlet {
    double dir[3];        /* unit direction of u0 */
    lq_timefn speed;      /* |u| over τ = t − start */
    double start, stop;   /* s */
    bool then_outflow;    /* at stop: OUTFLOW cells instead of wall */
    double particles;     /* markers per second; < 0: from the flux */
    double open_faces[6]; /* faces toward a non-SOLID, non-inlet cell, per −x … +z */
    int ncells, *cells;   /* the inlet's cells */
    int state;            /* 0 before start, 1 open, 2 closed */
    double carry;         /* fractional markers owed */
} lq_mac_inlet;

/* §4's three ways to track the surface. */
enum { LQ_MAC_MARKERS, LQ_MAC_HEIGHTFIELD, LQ_MAC_CHAINS };

typedef struct lq_mac {
    lq_ctx *ctx;
    int nx, ny, nz, per_cell;
    double dx, origin[3], g[3], cfl, fps, nu, gamma;
    int advection; /* mac.advection: LQ_MOMENTUM_DONOR (γ = mac.upwind) or LQ_MOMENTUM_LIMITED */
    lq_field u, v, w, p, flags, bnd, mask, pos, count, region, vel;
    lq_field slip; /* all free-slip (zeros): the markers' ghosts, step 7 (lq_mac_boundaries) */
    lq_momentum_ops momentum;
    lq_momentum_state momentum_state;
    lq_pressure_ops pressure;
    lq_pressure_state pressure_state;
    lq_pressure_params pressure_params;
    lq_macsurface_ops macsurface;
    lq_markers_ops markers;
    lq_macbc_ops macbc;
    lq_macsurface_forcing forcing;
    int ninlets;
    lq_mac_inlet inlets[LQ_MACBC_MAX_INLETS];
    bool sinks;      /* outlets or inlets that close: markers are removed each frame */
    double removed;  /* markers removed this frame */
    double injected; /* markers injected this frame */
    double dropped;  /* markers the capacity had no room for, this frame */
    bool spray_on, write_markers;
    bool fill_pressure; /* mac.surface_pressure: fill */
    bool surface_solve; /* mac.surface_solve: SURFACE cells relaxed in step 6 */
    bool fill_cavities; /* mac.fill_cavities: marker-less cells closed in by liquid FULL */
    bool air_gas;       /* mac.air_pockets: gas (lq_mac_pockets) */
    lq_macpocket_ops pk;
    int pk_up;                      /* the face direction toward the top (macpocket_cell.h) */
    int *pk_lab, *pk_vol;           /* host copies of the last find's labels and tallies */
    int *pk_prev;                   /* per cell: the pocket it was in last step, −1 */
    int *pk_idx;                    /* per root: its pocket this step, −1 */
    float *pk_gauge;                /* per root: its gauge pressure (m²/s²), uploaded */
    double *pk_P, *pk_V;            /* last step's pockets: absolute p (m²/s²), volume (m³) */
    int pk_n, pk_cap;               /* their number and room */
    int pk_cells;                   /* this step's pocket cells (EMPTY) */
    double pk_max_gauge, pk_volume; /* frame stats: the largest gauge, the last step's volume */
    int pk_count;                   /* the last step's pockets */
    lq_field pflags;                /* the flags step 6 reads then (lq_pressure_surface_prep) */
    lq_field ghost;                 /* its table per marker count (lq_pressure_surface_table) */
    lq_field sw;                    /* its surface weights (2 floats per cell) */
    lq_field ratio;                 /* its ratio per marker count m (lq_macsurface_fill_ratio) */
    lq_macspray_ops macspray;
    lq_macspray_state macspray_state;
    lq_macspray_params macspray_params;
    int surface; /* LQ_MAC_MARKERS, LQ_MAC_HEIGHTFIELD or LQ_MAC_CHAINS (§4) */
    lq_machf_ops machf;
    lq_machf_state machf_state;
    lq_chains_ops chains;
    lq_chains_state chains_state;
    float *hcol; /* host copy of the height field */
    bool bodies_on;
    lq_macbody_ops macbody;
    lq_macbody_set macbody_set;
    bool twoway;          /* a body pushes the liquid back (objects[].coupling) */
    lq_field owner, fl0f; /* int per cell: body + 1 in cells a two-way body holds; the
                             static kinds on the backend */
    lq_macspray_counts sp_last;
    long long spray_emitted, spray_foamed, spray_dropped; /* this frame */
    float *pcols[LQ_MACSPRAY_NCOLS];                      /* host columns of the points view */
    int pcap;
    int npart, cap, step, sweeps;
    int max_steps;   /* time.max_steps */
    int unconverged; /* steps this frame whose pressure iteration stopped at max_sweeps */
    int rb_after;    /* mac.pressure: mgpcg: red-black sweeps after CG this frame */
    float maxdiv;
    double t, dt_prev;
    unsigned char *fl;  /* host copy of the flags */
    unsigned char *fl0; /* the static kinds: walls, terrain, obstacles, sources */
    int *cnt;
    float *fv, *gv; /* host scratch for views */
} lq_mac;

static const char *const lq_mac_fields[] = {"p", "u", "v", "w", "phi", "flags", NULL};

static void lq_mac_destroy(void *state)
{
    lq_mac *s = state;
    if (!s) return;
    lq_momentum_state_release(&s->momentum_state);
    lq_momentum_ops_release(&s->momentum);
    lq_pressure_state_release(&s->pressure_state);
    lq_pressure_ops_release(&s->pressure);
    lq_macsurface_ops_release(&s->macsurface);
    lq_markers_ops_release(&s->markers);
    lq_macbc_ops_release(&s->macbc);
    lq_machf_state_release(&s->machf_state);
    lq_machf_ops_release(&s->machf);
    lq_chains_state_release(&s->chains_state);
    lq_chains_ops_release(&s->chains);
    free(s->hcol);
    lq_macpocket_ops_release(&s->pk);
    free(s->pk_lab);
    free(s->pk_vol);
    free(s->pk_prev);
    free(s->pk_idx);
    free(s->pk_gauge);
    free(s->pk_P);
    free(s->pk_V);
    lq_field_release(&s->owner);
    lq_field_release(&s->ratio);
    lq_field_release(&s->fl0f);
    lq_field_release(&s->pflags);
    lq_field_release(&s->ghost);
    lq_field_release(&s->sw);
    lq_macbody_release(&s->macbody_set);
    lq_macbody_ops_release(&s->macbody);
    lq_macspray_state_release(&s->macspray_state);
    lq_macspray_ops_release(&s->macspray);
    for (int i = 0; i < LQ_MACSPRAY_NCOLS; i++) free(s->pcols[i]);
    for (int i = 0; i < s->ninlets; i++) free(s->inlets[i].cells);
    lq_field *fs[] = {&s->u,    &s->v,   &s->w,     &s->p,      &s->flags, &s->bnd,
                      &s->mask, &s->pos, &s->count, &s->region, &s->vel,   &s->slip};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(s->fl);
    free(s->fl0);
    free(s->cnt);
    free(s->fv);
    free(s->gv);
    free(s);
}

/* Walls (the outer layer), terrain and obstacles (host/world/voxel.c). */
static int lq_mac_solids(lq_mac *s, const lq_config *cfg, unsigned char *fl, unsigned char *bn)
{
    int nx = s->nx, ny = s->ny, nz = s->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny);
                int f = i == 0 ? 0 : i == nx - 1 ? 1 : j == 0 ? 2 : j == ny - 1 ? 3 : -1;
                if (f < 0 && nz > 1) f = k == 0 ? 4 : k == nz - 1 ? 5 : -1;
                fl[c] = f >= 0 ? LQ_MAC_SOLID : LQ_MAC_EMPTY;
                bn[c] = f >= 0 ? (unsigned char)cfg->wall_noslip[f] : 0;
            }
    /* terrain, then obstacles: cell centres inside a shape, mask stack or closed mesh */
    size_t cells = (size_t)nx * ny * nz;
    unsigned char *solid = lq_calloc(cells, 1), *ns = lq_calloc(cells, 1);
    int rc =
        solid && ns ? lq_voxel_obstacles(cfg, nx, ny, nz, s->dx, s->origin, solid, ns) : LQ_ESIM;
    for (size_t c = 0; c < cells && !rc; c++)
        if (solid[c]) {
            fl[c] = LQ_MAC_SOLID;
            bn[c] = ns[c];
        }
    free(solid);
    free(ns);
    return rc;
}

/* Marks the cells whose centre lies in the box [a, b] (x and y only in 2D) as INFLOW
 * (inlet: number s->ninlets, its cells listed in in->cells) or OUTFLOW (in NULL);
 * returns how many. */
static int lq_mac_source_cells(lq_mac *s, const double a[3], const double b[3], lq_mac_inlet *in,
                               unsigned char *fl, unsigned char *bn, unsigned char *rg)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, count = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double x[3] = {s->origin[0] + (i + 0.5) * s->dx, s->origin[1] + (j + 0.5) * s->dx,
                               s->origin[2] + (k + 0.5) * s->dx};
                bool ok = true;
                for (int q = 0; q < (nz == 1 ? 2 : 3); q++) ok = ok && x[q] >= a[q] && x[q] <= b[q];
                if (!ok) continue;
                int c = LQ_MAC_CELL(i, j, k, nx, ny);
                fl[c] = in ? LQ_MAC_INFLOW : LQ_MAC_OUTFLOW;
                bn[c] = 0;
                rg[c] = in ? (unsigned char)s->ninlets : 0;
                if (in) in->cells[count] = c;
                count++;
            }
    return count;
}

/* An inlet's velocity over time and its markers (§3.2.2, §7.1). */
static int lq_mac_inlet_flow(lq_mac *s, const lq_config *cfg, const lq_config_source *q,
                             lq_mac_inlet *in)
{
    const double *u0 = q->inlet.velocity;
    double m = 0;
    for (int a = 0; a < 3; a++) m += u0[a] * u0[a];
    m = sqrt(m);
    for (int a = 0; a < 3; a++) in->dir[a] = m > 0 ? u0[a] / m : 0;
    int rc = lq_timefn_init(cfg, &q->inlet.speed, m, &in->speed);
    if (rc) return rc;
    if (m == 0 && in->speed.kind == LQ_TIMEFN_WAVE)
        return lq_config_error(cfg, q->inlet.at_velocity,
                               "a wave inlet needs a nonzero velocity (its direction)");
    in->start = q->inlet.start;
    in->stop = q->inlet.stop;
    in->then_outflow = q->inlet.then_outflow;
    in->particles = q->inlet.has_particles ? q->inlet.particles : -1;
    if (in->then_outflow || in->stop < 1e29) s->sinks = true;
    return LQ_OK;
}

/* Inlets and outlets (sources[]): cells whose centre lies in the box become INFLOW (or,
 * for an inlet that opens later, free-slip wall until then) or OUTFLOW; rg gets the
 * inlet number + 1. */
static int lq_mac_sources(lq_mac *s, const lq_config *cfg, unsigned char *fl, unsigned char *bn,
                          unsigned char *rg)
{
    int nx = s->nx, ny = s->ny, nz = s->nz;
    for (int it = 0; it < cfg->nsources; it++) {
        const lq_config_source *q = &cfg->sources[it];
        const char *kind = q->kind_word;
        bool inlet = q->kind == LQ_CONFIG_SOURCE_INLET;
        if (!inlet && q->kind != LQ_CONFIG_SOURCE_OUTLET)
            return lq_config_error(cfg, q->at, "source '%s' is not supported by solver 'mac'",
                                   kind);
        if (inlet && s->ninlets == LQ_MACBC_MAX_INLETS)
            return lq_config_error(cfg, q->at, "solver 'mac' takes at most %d inlets",
                                   LQ_MACBC_MAX_INLETS);
        const lq_config_region *box = inlet ? &q->inlet.region : &q->outlet.region;
        if (!box->has_min || !box->has_max)
            return lq_config_error(cfg, q->at_kind,
                                   "solver 'mac' takes a box %s: it needs `min` and `max`", kind);
        lq_mac_inlet *in = inlet ? &s->inlets[s->ninlets] : NULL;
        if (inlet) {
            in->cells = lq_alloc((size_t)nx * ny * nz * sizeof(int));
            if (!in->cells) return LQ_ESIM;
            s->ninlets++;
        }
        int count = inlet ? lq_mac_source_cells(s, q->inlet.min, q->inlet.max, in, fl, bn, rg)
                          : lq_mac_source_cells(s, q->outlet.min, q->outlet.max, NULL, fl, bn, rg);
        if (count == 0)
            return lq_config_error(cfg, q->at_kind, "the %s's box holds no cell centre", kind);
        if (!inlet) {
            s->sinks = true;
            continue;
        }
        in->ncells = count;
        int rc = lq_mac_inlet_flow(s, cfg, q, in);
        if (rc) return rc;
    }
    /* each inlet's open faces (toward a cell that is neither SOLID nor an inlet), once
     * every source is marked */
    for (int r = 0; r < s->ninlets; r++) {
        lq_mac_inlet *in = &s->inlets[r];
        for (int q = 0; q < in->ncells; q++) {
            int c = in->cells[q], i = c % nx, j = (c / nx) % ny, k = c / (nx * ny);
            for (int d = 0; d < (nz == 1 ? 4 : 6); d++) {
                int ii = i + (d == 0 ? -1 : d == 1), jj = j + (d == 2 ? -1 : d == 3),
                    kk = k + (d == 4 ? -1 : d == 5);
                if (ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= ny || kk >= nz) continue;
                int cn = LQ_MAC_CELL(ii, jj, kk, nx, ny);
                if (fl[cn] != LQ_MAC_SOLID && fl[cn] != LQ_MAC_INFLOW) in->open_faces[d] += 1;
            }
            if (in->start > 0) fl[c] = LQ_MAC_SOLID; /* a wall until it opens */
        }
        in->state = in->start > 0 ? 0 : 1;
    }
    return LQ_OK;
}

static int lq_mac_measure(void *state, lq_frame_stats *st);

/* §6 step 2, the initial pressure: hydrostatic down each column from its surface cell
 * (p = |g| times the depth of the cell centre below the surface cell's centre; gravity
 * along −y), so the first steps do not build the pressure up from 0 by relaxation (a
 * transient that leaks through outflow cells and sloshes the tank). */
static int lq_mac_initial_pressure(lq_mac *s)
{
    if (!(s->g[1] < 0) || s->g[0] != 0 || s->g[2] != 0) return LQ_OK;
    int nx = s->nx, ny = s->ny, nz = s->nz;
    int rc = lq_field_download(&s->flags, s->fl);
    if (!rc && s->fill_pressure) rc = lq_field_download(&s->count, s->cnt);
    for (size_t c = 0; c < (size_t)nx * ny * nz; c++) s->gv[c] = 0;
    for (int k = 0; k < nz && !rc; k++)
        for (int i = 0; i < nx; i++) {
            /* runs of liquid cells from a surface cell down: hydrostatic when the run
             * rests on a SOLID (or fixed) cell or the floor; a run with air below is in
             * free fall and starts at 0 */
            int j = ny - 1;
            while (j >= 0) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny);
                unsigned char f = s->fl[c];
                if (f != LQ_MAC_FULL && f != LQ_MAC_SURFACE) {
                    j--;
                    continue;
                }
                int top = j;
                while (j >= 0) {
                    unsigned char g = s->fl[LQ_MAC_CELL(i, j, k, nx, ny)];
                    if (g != LQ_MAC_FULL && g != LQ_MAC_SURFACE) break;
                    j--;
                }
                /* j: the cell under the run (−1: the floor) */
                bool rests = j < 0 || s->fl[LQ_MAC_CELL(i, j, k, nx, ny)] != LQ_MAC_EMPTY;
                if (!rests) continue;
                /* the surface cell: p = 0 at its centre, or at the height its marker
                 * fill puts the surface */
                int ct = LQ_MAC_CELL(i, top, k, nx, ny);
                double fill = s->fill_pressure ? (double)s->cnt[ct] / s->per_cell : 0.5;
                double depth = (fmax(0.1, fmin(fill, 1.0)) - 0.5) * s->dx;
                for (int jj = top; jj > j; jj--, depth += s->dx)
                    s->gv[LQ_MAC_CELL(i, jj, k, nx, ny)] = (float)(-s->g[1] * depth);
            }
        }
    if (!rc) rc = lq_field_upload(&s->p, s->gv);
    return rc;
}

/* Faces whose midpoint lies within a cell of a liquid item with a `velocity` take its
 * component (the last such item wins). */
static int lq_mac_initial_velocity(lq_mac *s, int ns, const lq_markers_shape *shapes,
                                   const double (*vel0)[3])
{
    bool any = false;
    for (int q = 0; q < ns; q++) any = any || vel0[q][0] || vel0[q][1] || vel0[q][2];
    if (!any) return LQ_OK;
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    lq_field *f[3] = {&s->u, &s->v, &s->w};
    double h = s->dx;
    for (int a = 0; a < 3 && !rc; a++) {
        int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
        rc = lq_field_download(f[a], s->fv);
        for (int k = 0; k < fz && !rc; k++)
            for (int j = 0; j < fy; j++)
                for (int i = 0; i < fx; i++) {
                    double x = (i + (a == 0 ? 0 : 0.5)) * h, y = (j + (a == 1 ? 0 : 0.5)) * h,
                           z = (k + (a == 2 ? 0 : 0.5)) * h;
                    for (int q = 0; q < ns; q++) {
                        /* the shape grown (a box by half a cell, a ball's radius by 1.5
                         * cells, its centre kept): every face of the cells it fills,
                         * and the first faces outside, which the air band would take */
                        lq_markers_shape g = shapes[q];
                        float hh = (float)(0.5 * h);
                        if (g.kind == LQ_MARKERS_SPHERE) {
                            g.r += 3 * hh;
                        } else {
                            for (int b = 0; b < 3; b++) {
                                g.a[b] -= hh;
                                g.b[b] += hh;
                            }
                            g.level += hh;
                        }
                        if ((vel0[q][0] || vel0[q][1] || vel0[q][2]) &&
                            lq_markers_shape_inside(&g, x, y, z))
                            s->fv[i + (size_t)fx * (j + (size_t)fy * k)] = (float)vel0[q][a];
                    }
                }
        if (!rc) rc = lq_field_upload(f[a], s->fv);
    }
    return rc;
}
static int lq_mac_classify(lq_mac *s, double dt);

/* --- set-up ---------------------------------------------------------------------- */

/* Grid, time and eq. 2's constants from the scene, and the grid checks. */
static int lq_mac_config(lq_mac *s, const lq_config *cfg)
{
    const lq_config_grid *g = &cfg->grid;
    if (g->nsize != 3)
        return lq_config_error(cfg, g->at_size, "solver 'mac' needs [nx, ny, nz] (nz = 1 for 2D)");
    s->nx = g->size[0];
    s->ny = g->size[1];
    s->nz = g->size[2];
    if (s->nx < 3 || s->ny < 3 || (s->nz != 1 && s->nz < 3))
        return lq_config_error(cfg, g->at_size,
                               "solver 'mac' needs at least 3 cells per axis (the outer layer is "
                               "the wall), or nz = 1 for 2D");
    s->dx = g->cell;
    memcpy(s->origin, g->origin, sizeof s->origin);
    memcpy(s->g, cfg->gravity, sizeof s->g);
    s->cfl = fmin(cfg->time.cfl, 0.9);
    s->fps = cfg->time.fps;
    s->max_steps = cfg->time.max_steps;
    s->nu = cfg->mac.viscosity;
    s->gamma = cfg->mac.upwind;
    s->advection = cfg->mac.advection == 1 ? LQ_MOMENTUM_LIMITED : LQ_MOMENTUM_DONOR;
    if (s->advection == LQ_MOMENTUM_LIMITED && cfg->mac.has_upwind)
        return lq_config_error(cfg, cfg->mac.at_advection,
                               "mac.upwind is the donor scheme's share of upwinding and does "
                               "nothing with mac.advection: limited; remove one of the two");
    s->per_cell = cfg->mac.particles;
    if (s->per_cell == 0) s->per_cell = s->nz == 1 ? 4 : 8;
    return LQ_OK;
}

/* The cells' static kinds on the host: walls, terrain and obstacles (fl, bn), then the
 * sources (rg: inlet number + 1); fl0 keeps them. */
static int lq_mac_setup_cells(lq_mac *s, const lq_config *cfg, unsigned char *bn, unsigned char *rg)
{
    size_t n = (size_t)s->nx * s->ny * s->nz;
    int rc = lq_mac_solids(s, cfg, s->fl, bn);
    if (!rc) rc = lq_mac_sources(s, cfg, s->fl, bn, rg);
    if (rc) return rc;
    s->fl0 = lq_alloc(n);
    if (!s->fl0) return LQ_ESIM;
    memcpy(s->fl0, s->fl, n);
    return LQ_OK;
}

/* The liquid items as marker shapes (grid-relative): boxes, balls, and levels with the
 * standing wave of a `wave` item just after them; vel0 gets each shape's initial
 * velocity, *ns their number. */
static int lq_mac_shapes(const lq_mac *s, const lq_config *cfg, lq_markers_shape *shapes,
                         double (*vel0)[3], int *ns)
{
    int nx = s->nx, ny = s->ny, nz = s->nz;
    *ns = 0;
    for (int it = 0; it < cfg->nliquid; it++) {
        const lq_config_liquid *q = &cfg->liquid[it];
        double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
        lq_markers_shape *sh = &shapes[*ns];
        if (q->kind == LQ_CONFIG_LIQUID_BOX) {
            memcpy(a, q->box.min, sizeof a);
            memcpy(b, q->box.max, sizeof b);
            sh->kind = LQ_MARKERS_BOX;
            memcpy(vel0[*ns], q->box.velocity, sizeof vel0[*ns]);
        } else if (q->kind == LQ_CONFIG_LIQUID_SPHERE) {
            memcpy(a, q->sphere.center, sizeof a);
            sh->r = (float)q->sphere.radius;
            sh->kind = LQ_MARKERS_SPHERE;
            memcpy(vel0[*ns], q->sphere.velocity, sizeof vel0[*ns]);
        } else if (q->kind == LQ_CONFIG_LIQUID_LEVEL) {
            for (int d = 0; d < 3; d++) {
                a[d] = s->origin[d];
                b[d] = s->origin[d] + (d == 0 ? nx : d == 1 ? ny : nz) * s->dx;
            }
            b[1] = q->level;
            sh->kind = LQ_MARKERS_WAVE; /* amplitude 0 until a `wave` item follows */
            sh->level = (float)(b[1] - s->origin[1]);
        } else if (q->kind == LQ_CONFIG_LIQUID_WAVE) {
            /* a standing mode of the basin inside the wall layer, on the last `level` */
            lq_markers_shape *lv = *ns > 0 ? &shapes[*ns - 1] : NULL;
            if (!lv || lv->kind != LQ_MARKERS_WAVE || lv->amp != 0)
                return lq_config_error(cfg, q->at,
                                       "solver 'mac' adds a wave to the `level` item just before "
                                       "it (one wave per level)");
            lv->amp = (float)q->wave.amplitude;
            int mode = q->wave.mode;
            lv->axis = q->wave.axis;
            int cells = lv->axis == 2 ? nz : nx;
            if (cells < 3)
                return lq_config_error(cfg, q->wave.at_axis, "a wave along z needs nz > 1");
            lv->x0 = (float)s->dx;
            lv->k = (float)(mode * LQ_PI / ((cells - 2) * s->dx));
            continue;
        } else {
            return lq_config_error(cfg, q->at, "liquid '%s' is not supported by solver 'mac' yet",
                                   q->kind_word);
        }
        for (int d = 0; d < 3; d++) {
            sh->a[d] = (float)(a[d] - s->origin[d]);
            sh->b[d] = (float)(b[d] - s->origin[d]);
        }
        (*ns)++;
    }
    return LQ_OK;
}

/* §4: the surface tracker, seeded from the shapes: marker particles (pos[cap], *need of
 * them), a height field, or 2D particle chains. */
static int lq_mac_track(lq_mac *s, lq_ctx *ctx, const lq_config *cfg, int ns,
                        const lq_markers_shape *shapes, float *pos, size_t cap, size_t *need)
{
    int nx = s->nx, ny = s->ny, nz = s->nz;
    float h = (float)s->dx;
    int surf = cfg->mac.surface;
    s->surface = surf == LQ_CONFIG_SURFACE_HEIGHTFIELD ? LQ_MAC_HEIGHTFIELD
                 : surf == LQ_CONFIG_SURFACE_CHAINS    ? LQ_MAC_CHAINS
                                                       : LQ_MAC_MARKERS;
    if (s->surface != LQ_MAC_MARKERS && cfg->nsources > 0)
        return lq_config_error(cfg, cfg->at_sources,
                               "inlets and outlets need mac.surface: markers (they add and remove "
                               "marker particles)");
    if (s->surface == LQ_MAC_CHAINS && nz != 1)
        return lq_config_error(cfg, cfg->mac.at_surface,
                               "particle chains are 2D only (§4.2): nz must be 1");
    if (s->surface == LQ_MAC_MARKERS)
        return lq_markers_seed(nx, ny, nz, h, h, h, s->fl, ns, shapes, s->per_cell, 1, pos, cap,
                               need);
    if (s->surface == LQ_MAC_HEIGHTFIELD) {
        s->hcol = lq_alloc((size_t)nx * nz * sizeof(float));
        if (!s->hcol) return LQ_ESIM;
        lq_machf_from_shapes(nx, ny, nz, h, h, h, s->fl, ns, shapes, s->hcol);
        return LQ_OK;
    }
    int rc = lq_chains_state_init(&s->chains_state, ctx, nx, ny, nz, h);
    if (!rc) rc = lq_chains_from_shapes(&s->chains_state, h, h, ns, shapes);
    if (!rc) rc = lq_chains_sync(&s->chains_state);
    return rc;
}

/* Room for the markers: the seeded ones, and with inlets the grid's open cells full and a
 * quarter more. */
static int lq_mac_capacity(lq_mac *s, const lq_config *cfg, size_t need)
{
    size_t n = (size_t)s->nx * s->ny * s->nz;
    s->npart = (int)need;
    s->cap = s->npart;
    if (s->ninlets > 0) {
        size_t open = 0;
        for (size_t c = 0; c < n; c++) open += s->fl[c] != LQ_MAC_SOLID;
        double want = 1.25 * (double)open * s->per_cell;
        if (want > 2e9)
            return lq_config_error(cfg, cfg->grid.at_size,
                                   "too many marker particles (%.3g) for one array", want);
        s->cap = LQ_MAX(s->npart, (int)want);
    }
    return LQ_OK;
}

/* The fields on the backend (the host's cells, sources and markers uploaded) and the
 * operations of the step. */
static int lq_mac_device(lq_mac *s, lq_ctx *ctx, const unsigned char *bn, const unsigned char *rg,
                         const float *pos)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    struct {
        lq_field *f;
        const char *name;
        int a, b, c;
        size_t elem;
    } fs[] = {{&s->u, "u", nx + 1, ny, nz, 4},
              {&s->v, "v", nx, ny + 1, nz, 4},
              {&s->w, "w", nx, ny, nz + 1, 4},
              {&s->p, "p", nx, ny, nz, 4},
              {&s->flags, "flags", nx, ny, nz, 1},
              {&s->bnd, "bnd", nx, ny, nz, 1},
              {&s->slip, "bnd_free_slip", nx, ny, nz, 1},
              {&s->mask, "mask", nx, ny, nz, 1},
              {&s->count, "count", nx, ny, nz, 4},
              {&s->region, "region", nx, ny, nz, 1},
              {&s->vel, "inlet_velocity", 3, LQ_MACBC_MAX_INLETS, 1, 4},
              {&s->pos, "markers", 3, LQ_MAX(s->cap, 1), 1, 4}};
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, fs[i].c, fs[i].elem);
        if (!rc) rc = lq_field_zero(fs[i].f, 0);
    }
    if (!rc) rc = lq_field_upload(&s->flags, s->fl);
    if (!rc) rc = lq_field_upload(&s->bnd, bn);
    if (!rc) rc = lq_field_upload(&s->region, rg);
    if (!rc && s->npart > 0)
        rc = lq_field_write(&s->pos, 0, (size_t)s->npart * 3 * sizeof(float), pos);
    if (!rc) rc = lq_momentum_ops_init(&s->momentum, ctx, nx, ny, nz);
    if (!rc)
        rc = lq_momentum_state_init(&s->momentum_state, ctx, nx, ny, nz, &s->u, &s->v, &s->w, &s->p,
                                    &s->flags, &s->bnd);
    if (!rc) rc = lq_pressure_ops_init(&s->pressure, ctx, nx, ny, nz);
    if (!rc)
        rc = lq_pressure_state_init(&s->pressure_state, ctx, nx, ny, nz, &s->u, &s->v, &s->w, &s->p,
                                    &s->flags);
    if (!rc) rc = lq_macsurface_ops_init(&s->macsurface, ctx, nx, ny, nz);
    if (!rc) rc = lq_markers_ops_init(&s->markers, ctx, nx, ny, nz);
    if (!rc) rc = lq_macbc_ops_init(&s->macbc, ctx, nx, ny, nz);
    return rc;
}

/* §5: buoyant bodies (one-way: the liquid moves them; two-way: they push back). */
static int lq_mac_bodies(lq_mac *s, lq_ctx *ctx, const lq_config *cfg)
{
    int nx = s->nx, ny = s->ny, nz = s->nz;
    s->bodies_on = cfg->nobjects > 0;
    if (!s->bodies_on) return LQ_OK;
    int rc = lq_macbody_ops_init(&s->macbody, ctx, nx, ny, nz);
    if (!rc)
        rc = lq_macbody_from_scene(&s->macbody_set, ctx, cfg, nx, ny, nz, s->dx, s->origin, 1000.0,
                                   s->fl0);
    s->twoway = !rc && s->macbody_set.ntwo_way > 0;
    if (!rc && s->twoway && s->surface != LQ_MAC_MARKERS)
        rc = lq_config_error(cfg, cfg->at_objects,
                             "two-way bodies need mac.surface: markers (they move the "
                             "markers they displace)");
    if (!rc && s->twoway) {
        rc = lq_field_alloc(ctx, &s->owner, "owner", nx, ny, nz, 4);
        if (!rc) rc = lq_field_zero(&s->owner, 0);
        if (!rc) rc = lq_field_alloc(ctx, &s->fl0f, "static_flags", nx, ny, nz, 1);
        if (!rc) rc = lq_field_upload(&s->fl0f, s->fl0);
    }
    return rc;
}

/* §4.3: spray and foam, when the scene has a `spray` map; and the marker fill's ratio
 * table for mac.surface_pressure: fill. */
static int lq_mac_setup_spray(lq_mac *s, lq_ctx *ctx, const lq_config *cfg)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    float h = (float)s->dx;
    s->spray_on = cfg->spray.present;
    s->write_markers = cfg->output.markers;
    s->fill_pressure = s->surface == LQ_MAC_MARKERS && cfg->mac.surface_pressure_fill;
    if (s->fill_pressure) {
        float ratio[130];
        lq_macsurface_fill_ratio(s->per_cell, (float)fabs(s->g[1]), (float)s->dx, ratio);
        rc = lq_field_alloc(ctx, &s->ratio, "fill_ratio", 2 * (s->per_cell + 1), 1, 1, 4);
        if (!rc) rc = lq_field_upload(&s->ratio, ratio);
        if (rc) return rc;
    }
    if (!s->spray_on) return LQ_OK;
    const lq_config_spray *sp = &cfg->spray;
    s->macspray_params =
        (lq_macspray_params){.dx = h,
                             .dy = h,
                             .dz = h,
                             .g = {(float)s->g[0], (float)s->g[1], (float)s->g[2]},
                             .wind = {(float)sp->wind[0], (float)sp->wind[1], (float)sp->wind[2]},
                             .threshold = (float)sp->threshold,
                             .rate = (float)sp->rate,
                             .radius = (float)sp->radius,
                             .spread = (float)sp->spread,
                             .separation = (float)sp->separation,
                             .drag = (float)sp->drag,
                             .foam = cfg->foam.enabled,
                             .foam_life = (float)cfg->foam.life,
                             .foam_rise = (float)cfg->foam.rise,
                             .seed = (uint32_t)sp->seed};
    rc = lq_macspray_ops_init(&s->macspray, ctx, nx, ny, nz);
    if (!rc) rc = lq_macspray_state_init(&s->macspray_state, ctx, nx, ny, nz, sp->max_particles);
    return rc;
}

/* §7.2's surface pressure history and mac.surface_solve, and what they cannot go
 * with. */
static int lq_mac_surface_setup(lq_mac *s, const lq_config *cfg)
{
    const lq_config_mac *m = &cfg->mac;
    /* zero amplitude and mean: the atmosphere only */
    s->forcing = (lq_macsurface_forcing){.p_atm = 0,
                                         .A = (float)m->forcing.mean,
                                         .a = (float)m->forcing.amplitude,
                                         .depth = (float)m->forcing.depth,
                                         .L = (float)m->forcing.half_wavelength,
                                         .omega = (float)m->forcing.omega,
                                         .g = (float)s->g[1],
                                         .axis = m->forcing.axis};
    if (s->forcing.a != 0 && !(s->g[1] < 0))
        return lq_config_error(cfg, m->forcing.at_amplitude,
                               "the forcing's B = a·sqrt(-g·D/C) needs gravity pointing down (-y)");
    s->surface_solve = m->surface_solve;
    s->fill_cavities = m->fill_cavities;
    if (!m->has_surface_solve &&
        (s->forcing.a != 0 || s->forcing.A != 0 || s->surface != LQ_MAC_MARKERS))
        s->surface_solve = false; /* the default gives way to what it cannot go with */
    if (s->surface_solve && (s->forcing.a != 0 || s->forcing.A != 0))
        return lq_config_error(cfg, m->at_surface_solve,
                               "the surface forcing (mac.forcing) needs mac.surface_solve: false "
                               "(with it the atmosphere is p = 0 in the empty cells)");
    if (s->surface_solve && s->surface != LQ_MAC_MARKERS)
        return lq_config_error(cfg, m->at_surface_solve, "needs mac.surface: markers");
    s->air_gas = m->air_pockets_gas;
    if (s->air_gas && (!s->surface_solve || s->surface != LQ_MAC_MARKERS))
        return lq_config_error(cfg, m->at_air_pockets,
                               "mac.air_pockets: gas holds a pocket's pressure in its empty cells: "
                               "it needs mac.surface: markers and mac.surface_solve: true");
    return LQ_OK;
}

/* mac.air_pockets: gas — the device's labels and the host's pockets (lq_mac_pockets). */
static int lq_mac_pockets_setup(lq_mac *s, lq_ctx *ctx)
{
    if (!s->air_gas) return LQ_OK;
    int nx = s->nx, ny = s->ny, nz = s->nz;
    size_t n = (size_t)nx * ny * nz;
    /* up: opposite gravity's largest component (+y without gravity) */
    int ax = 1;
    for (int a = 0; a < 3; a++)
        if (fabs(s->g[a]) > fabs(s->g[ax])) ax = a;
    s->pk_up = 2 * ax + (s->g[ax] <= 0 ? 1 : 0);
    s->pk_lab = lq_alloc(n * sizeof(int));
    s->pk_vol = lq_alloc(n * sizeof(int));
    s->pk_prev = lq_alloc(n * sizeof(int));
    s->pk_idx = lq_alloc(n * sizeof(int));
    s->pk_gauge = lq_calloc(n, sizeof(float));
    if (!s->pk_lab || !s->pk_vol || !s->pk_prev || !s->pk_idx || !s->pk_gauge) return LQ_ESIM;
    for (size_t c = 0; c < n; c++) s->pk_prev[c] = s->pk_idx[c] = -1;
    return lq_macpocket_ops_init(&s->pk, ctx, nx, ny, nz);
}

/* Eq. 5–9's iteration: method, β0, ε and the sweep cap from the scene; with
 * mac.surface_solve, its surface table on the backend. */
static int lq_mac_pressure_setup(lq_mac *s, lq_ctx *ctx, const lq_config *cfg)
{
    const lq_config_mac *m = &cfg->mac;
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    float h = (float)s->dx;
    static const lq_pressure_method methods[] = {LQ_PRESSURE_RED_BLACK, LQ_PRESSURE_JACOBI,
                                                 LQ_PRESSURE_MGPCG};
    s->pressure_params = lq_pressure_params_of(methods[m->pressure], 0.01f, h, h, h,
                                               (float)m->epsilon, m->max_sweeps);
    if (m->pressure == 2) rc = lq_pressure_mg_init(&s->pressure);
    if (rc) return rc;
    if (m->has_beta0) {
        s->pressure_params.beta0 = (float)m->beta0;
    } else if (s->pressure_params.method != LQ_PRESSURE_JACOBI) { /* mgpcg's red-black too */
        /* β0 is SOR's ω: near 2/(1 + sin(π/N)) the sweeps grow like N, not N² (at 1.7 a
         * 2D dam break 320 cells long never reached ε within 1000 sweeps and blew up) */
        int mm = LQ_MAX(LQ_MAX(nx, ny), nz) - 2;
        s->pressure_params.beta0 = (float)fmin(1.9, 2.0 / (1.0 + sin(LQ_PI / LQ_MAX(mm, 2))));
        s->pressure_params.beta0 = fmaxf(s->pressure_params.beta0, 1.7f);
    } else {
        s->pressure_params.beta0 = LQ_PRESSURE_BETA0_JACOBI; /* mac.beta0's doc: Jacobi 1 */
    }
    if (!s->surface_solve) return LQ_OK;
    int tn = LQ_PRESSURE_ST * (s->per_cell + 1);
    float *table = lq_calloc((size_t)tn, sizeof(float));
    rc = table ? LQ_OK : LQ_ESIM;
    if (!rc)
        lq_pressure_surface_table(s->per_cell, (float)fabs(s->g[1]), &s->pressure_params, nx, ny,
                                  nz, m->surface_solve_ghost_fill, table);
    if (!rc) rc = lq_field_alloc(ctx, &s->pflags, "pressure_flags", nx, ny, nz, 1);
    if (!rc) rc = lq_field_alloc(ctx, &s->sw, "surface_weights", nx, ny, 2 * nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->ghost, "surface_table", tn, 1, 1, 4);
    if (!rc) rc = lq_field_upload(&s->ghost, table);
    free(table);
    return rc;
}

/* Step 3 once, so frame 0 shows the cells the liquid fills; then the initial velocity
 * and pressure. */
static int lq_mac_start(lq_mac *s, lq_ctx *ctx, int ns, const lq_markers_shape *shapes,
                        const double (*vel0)[3])
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    if (s->surface == LQ_MAC_HEIGHTFIELD) {
        rc = lq_machf_ops_init(&s->machf, ctx, nx, ny, nz);
        if (!rc) rc = lq_machf_state_init(&s->machf_state, ctx, nx, ny, nz);
        if (!rc) rc = lq_machf_set(&s->machf_state, s->hcol);
    } else if (s->surface == LQ_MAC_CHAINS) {
        rc = lq_chains_ops_init(&s->chains, ctx, nx, ny, nz);
    }
    if (!rc) rc = lq_mac_classify(s, 0);
    if (!rc) rc = lq_mac_initial_velocity(s, ns, shapes, vel0);
    if (!rc) rc = lq_mac_initial_pressure(s);
    return rc;
}

static int lq_mac_create(lq_ctx *ctx, const lq_config *cfg, void **state)
{
    unsigned char *bn = NULL, *rg = NULL;
    double(*vel0)[3] = NULL; /* the liquid items' initial velocities */
    lq_markers_shape *shapes = NULL;
    int ns = 0;
    float *pos = NULL;
    lq_mac *s = lq_calloc(1, sizeof *s);
    if (!s) return LQ_ESIM;
    s->ctx = ctx;
    int rc = lq_mac_config(s, cfg);
    size_t n = (size_t)s->nx * s->ny * s->nz;
    if (!rc) { /* what is allocated below for certain, before anything is (core/budget.h) */
        double c = (double)n, f = (double)(s->nx + 1) * (s->ny + 1) * (s->nz + 1);
        double markers = c * s->per_cell * 12.0; /* the initial markers' room, x y z */
        rc = lq_budget_check(ctx, "solver 'mac'", c * 14 + f * 4 + markers, c * 17 + 12.0 * f,
                             4 * f);
    }
    if (!rc) {
        s->fl = lq_alloc(n);
        s->cnt = lq_alloc(n * sizeof(int));
        s->fv = lq_alloc((size_t)(s->nx + 1) * (s->ny + 1) * (s->nz + 1) * sizeof(float));
        s->gv = lq_alloc(n * sizeof(float));
        bn = lq_alloc(n);
        rg = lq_calloc(n, 1);
        if (!s->fl || !s->cnt || !s->fv || !s->gv || !bn || !rg) rc = LQ_ESIM;
    }
    if (!rc) rc = lq_mac_setup_cells(s, cfg, bn, rg);
    if (!rc) {
        shapes = lq_calloc((size_t)cfg->nliquid + 1, sizeof *shapes);
        vel0 = lq_calloc((size_t)cfg->nliquid + 1, sizeof *vel0);
        rc = shapes && vel0 ? lq_mac_shapes(s, cfg, shapes, vel0, &ns) : LQ_ESIM;
    }
    size_t need = 0, cap = n * (size_t)s->per_cell + 1;
    if (!rc) {
        pos = lq_alloc(cap * 3 * sizeof(float) + 12);
        rc = pos ? lq_mac_track(s, ctx, cfg, ns, shapes, pos, cap, &need) : LQ_ESIM;
    }
    if (!rc) rc = lq_mac_capacity(s, cfg, need);
    if (!rc) rc = lq_mac_device(s, ctx, bn, rg, pos);
    if (!rc) rc = lq_mac_bodies(s, ctx, cfg);
    if (!rc) rc = lq_mac_setup_spray(s, ctx, cfg);
    if (!rc) rc = lq_mac_surface_setup(s, cfg);
    if (!rc) rc = lq_mac_pressure_setup(s, ctx, cfg);
    if (!rc) rc = lq_mac_pockets_setup(s, ctx);
    if (!rc) rc = lq_mac_start(s, ctx, ns, shapes, (const double(*)[3])vel0);
    free(bn);
    free(rg);
    free(pos);
    free(shapes);
    free(vel0);
    if (rc) {
        lq_mac_destroy(s);
        return rc;
    }
    *state = s;
    return LQ_OK;
}

/* §6 step 3: the cells' contents from the surface tracker. */
static int lq_mac_classify(lq_mac *s, double dt)
{
    float h = (float)s->dx;
    if (s->surface == LQ_MAC_HEIGHTFIELD) {
        lq_machf_params hp = {.dt = (float)dt, .dx = h, .dy = h, .dz = h};
        return lq_machf_classify(&s->machf, &s->machf_state, &s->flags, &hp);
    }
    if (s->surface == LQ_MAC_CHAINS) {
        lq_chains_params cp = {.dt = (float)dt, .dx = h, .dy = h, .dz = h};
        return lq_chains_classify(&s->chains, &s->chains_state, &s->flags, &cp);
    }
    lq_markers_params kp = {
        .dt = (float)dt, .dx = h, .dy = h, .dz = h, .cavities_air = !s->fill_cavities};
    return lq_markers_classify(&s->markers, &s->pos, s->npart, &s->flags, &s->count, &kp);
}

/* §6 step 8: the surface tracker moves with the new velocities. */
static int lq_mac_move_surface(lq_mac *s, double dt)
{
    float h = (float)s->dx;
    if (s->surface == LQ_MAC_HEIGHTFIELD) {
        lq_machf_params hp = {.dt = (float)dt, .dx = h, .dy = h, .dz = h};
        return lq_machf_advance(&s->machf, &s->machf_state, &s->u, &s->v, &s->w, &s->flags, &hp);
    }
    if (s->surface == LQ_MAC_CHAINS) {
        lq_chains_params cp = {.dt = (float)dt, .dx = h, .dy = h, .dz = h};
        return lq_chains_advance(&s->chains_state, &s->markers, &s->u, &s->v, &s->w, &s->flags,
                                 &cp);
    }
    lq_markers_params kp = {.dt = (float)dt, .dx = h, .dy = h, .dz = h};
    return lq_markers_advect(&s->markers, &s->pos, s->npart, &s->u, &s->v, &s->w, &s->flags, &kp);
}

static void lq_mac_swap(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

/* Inlets at time t (§3.2.2, §7.1): open or close them (their cells' kind), set their
 * velocities and add the markers they emit over dt. */
static int lq_mac_inlets(lq_mac *s, double dt)
{
    if (s->ninlets == 0) return LQ_OK;
    int rc = LQ_OK;
    bool changed = false;
    for (int r = 0; r < s->ninlets; r++) {
        lq_mac_inlet *in = &s->inlets[r];
        int state = s->t < in->start - 1e-12 ? 0 : s->t < in->stop - 1e-12 ? 1 : 2;
        if (state != in->state) {
            if (!changed) rc = lq_field_download(&s->flags, s->fl);
            if (rc) return rc;
            changed = true;
            unsigned char kind = state == 1         ? LQ_MAC_INFLOW
                                 : in->then_outflow ? LQ_MAC_OUTFLOW
                                                    : LQ_MAC_SOLID;
            for (int q = 0; q < in->ncells; q++) s->fl[in->cells[q]] = kind;
            in->state = state;
        }
    }
    if (changed) rc = lq_field_upload(&s->flags, s->fl);
    if (rc) return rc;
    float vel[3 * LQ_MACBC_MAX_INLETS] = {0};
    double h = s->dx, area = s->nz == 1 ? h : h * h, cellv = area * h;
    for (int r = 0; r < s->ninlets; r++) {
        lq_mac_inlet *in = &s->inlets[r];
        if (in->state != 1) continue;
        double sp = lq_timefn_eval(&in->speed, s->t - in->start), u[3];
        for (int q = 0; q < 3; q++) {
            u[q] = sp * in->dir[q];
            vel[3 * r + q] = (float)u[q];
        }
        /* the markers it emits: the scene's rate, or the flux at the particle density */
        double rate = in->particles;
        if (rate < 0) {
            double flux = 0;
            for (int d = 0; d < 6; d++)
                flux += in->open_faces[d] * area * fmax(0, (d & 1 ? 1 : -1) * u[d / 2]);
            rate = flux * s->per_cell / cellv;
        }
        double want = rate * dt + in->carry;
        int m = (int)floor(want);
        in->carry = want - m;
        if (m <= 0) continue;
        int room = LQ_MIN(m, s->cap - s->npart);
        s->dropped += m - room;
        if (room <= 0) continue;
        float *pos = lq_alloc((size_t)room * 3 * sizeof(float));
        if (!pos) return LQ_ESIM;
        lq_rng g;
        lq_rng_seed(&g, 0x9e3779b97f4a7c15ull * (uint64_t)(s->step + 1) + (uint64_t)r);
        int nx = s->nx, ny = s->ny;
        for (int q = 0; q < room; q++) {
            int c = in->cells[lq_rng_u32(&g) % (uint32_t)in->ncells];
            int ijk[3] = {c % nx, (c / nx) % ny, c / (nx * ny)};
            for (int a = 0; a < 3; a++) {
                double f = a == 2 && s->nz == 1 ? 0.5 : lq_rng_uniform(&g);
                pos[3 * q + a] = (float)((ijk[a] + f) * h);
            }
        }
        rc = lq_field_write(&s->pos, (size_t)s->npart * 3 * sizeof(float),
                            (size_t)room * 3 * sizeof(float), pos);
        free(pos);
        if (rc) return rc;
        s->npart += room;
        s->injected += room;
    }
    return lq_field_write(&s->vel, 0, sizeof vel, vel);
}

/* Removes the markers that sit in OUTFLOW cells (they have left) or in SOLID cells (an
 * inlet that closed as a wall), keeping the others' order. */
static int lq_mac_compact(lq_mac *s)
{
    if (!s->sinks || s->npart == 0) return LQ_OK;
    size_t bytes = (size_t)s->npart * 3 * sizeof(float);
    float *pos = lq_alloc(bytes);
    if (!pos) return LQ_ESIM;
    int rc = lq_field_read(&s->pos, 0, bytes, pos);
    if (!rc) rc = lq_field_download(&s->flags, s->fl);
    int nx = s->nx, ny = s->ny, nz = s->nz, kept = 0;
    double inv = 1.0 / s->dx;
    for (int q = 0; q < s->npart && !rc; q++) {
        int ijk[3], dims[3] = {nx, ny, nz};
        for (int a = 0; a < 3; a++) {
            double g = pos[3 * q + a] * inv;
            ijk[a] = g < 0 ? 0 : g >= dims[a] ? dims[a] - 1 : (int)g;
        }
        unsigned char kind = s->fl[LQ_MAC_CELL(ijk[0], ijk[1], ijk[2], nx, ny)];
        if (kind == LQ_MAC_OUTFLOW || kind == LQ_MAC_SOLID) continue;
        memmove(&pos[3 * kept], &pos[3 * q], 3 * sizeof(float));
        kept++;
    }
    if (!rc && kept != s->npart) {
        s->removed += s->npart - kept;
        s->npart = kept;
        rc = lq_field_write(&s->pos, 0, (size_t)kept * 3 * sizeof(float), pos);
    }
    free(pos);
    return rc;
}

/* The boundary conditions of steps 4 and 7: Gates' surface conditions, the inlets' and
 * outlets' faces, the air band (step 7 only), then the obstacle mirrors; two-way bodies'
 * faces (§5) last, their own velocity. */
static int lq_mac_boundaries(lq_mac *s, double dt, bool air)
{
    /* Gates' rules with no body force: eq. 2 (step 5) already moved every face of a
     * SURFACE cell, its faces toward the air included, by g δt (an open pair's faces by
     * that only: kernels/mac/momentum_cell.h); the rules' "body force only" faces keep that
     * value instead of gaining g δt twice more (a lone drop fell at 3 g) */
    float h = (float)s->dx, g0[3] = {0, 0, 0};
    float hh[3] = {h, h, h};
    int rc = lq_macsurface_apply(&s->macsurface, &s->flags, &s->mask, &s->u, &s->v, &s->w, hh,
                                 (float)dt, g0);
    if (!rc && s->ninlets)
        rc = lq_macbc_inflow(&s->macbc, &s->u, &s->v, &s->w, &s->flags, &s->region, &s->vel);
    if (!rc && s->sinks) rc = lq_macbc_outflow(&s->macbc, &s->u, &s->v, &s->w, &s->flags);
    if (!rc && s->sinks) rc = lq_macbc_outflow_pressure(&s->macbc, &s->p, &s->flags);
    if (!rc && air) rc = lq_macbc_extrapolate(&s->macbc, &s->u, &s->v, &s->w, &s->flags);
    /* step 7's ghosts are for the markers (step 8): free-slip ones, so that a marker by a
     * no-slip wall moves with the liquid's face next to it. Mirrored (−q), its velocity
     * fell to ~0 at the wall: markers pressed onto a rock froze there, their cell stayed
     * SURFACE while the liquid in it sped up by g δt every step (Moonlight Cove: 17 m/s
     * by frame 75). Step 4 mirrors again before eq. 2, whose viscous term is the wall's. */
    if (!rc && air) {
        lq_field *bnd = s->momentum_state.bnd;
        s->momentum_state.bnd = &s->slip;
        rc = lq_momentum_boundary(&s->momentum, &s->momentum_state);
        s->momentum_state.bnd = bnd;
    } else if (!rc) {
        rc = lq_momentum_boundary(&s->momentum, &s->momentum_state);
    }
    if (!rc && s->twoway)
        rc = lq_macbody_face_velocity(&s->macbody, &s->macbody_set, &s->u, &s->v, &s->w, &s->flags,
                                      &s->owner);
    return rc;
}

/* --- the stages of a step (§6's list) ----------------------------------------------- */

/* §5, two-way bodies: their cells are SOLID this step, and the markers their front runs
 * over are given back to their wake (host/ops/mac/macbody.h). */
static int lq_mac_mark_bodies(lq_mac *s)
{
    int rc = lq_macbody_mark(&s->macbody, &s->macbody_set, &s->flags, &s->fl0f, &s->owner);
    if (!rc) rc = lq_macbody_markers(&s->macbody, &s->macbody_set, &s->pos, s->npart, &s->owner);
    return rc;
}

/* 3. The cells' contents from the surface tracker, then each SURFACE cell's
 * configuration of empty neighbours (which of Gates' 63 conditions it takes). */
static int lq_mac_cells(lq_mac *s, double dt)
{
    int rc = lq_mac_classify(s, dt);
    if (!rc) rc = lq_macsurface_classify(&s->macsurface, &s->flags, &s->mask);
    return rc;
}

/* The sealed air pockets' gas (mac.air_pockets: gas; the model: docs/VALIDATION.md, `mac`
 * air pockets). Air at the atmosphere's absolute pressure p0 sealed in a pocket keeps
 * P V^γ: each step a pocket's absolute pressure is P = P_ref (V_ref / V)^γ from the gas it
 * holds, V its volume now (the tally: its EMPTY cells and the air of the surface cells at
 * its wall). Its gas comes from last step's pockets its cells overlap, each shared out by
 * the overlapping cells (a pocket that splits gives each part its pressure; pockets that
 * merge pool their P V, the isothermal amount, at their volumes' sum); a pocket that
 * overlaps none was open air last step and is sealed at p0. The gauge P − p0 is held in its
 * cells (lq_macpocket_apply). The coupling is explicit (the pressure is last step's volume's),
 * so a pocket rings at about ω = sqrt(γ P / ρ) / a (a its size: the cell, or
 * LQ_MAC_AIR_RING of the cube (2D: square) root of its cells, times δ): where ω δt > 1 the exponent
 * is lowered to γ/(ω δt)² for the step, a softer gas with the same pressure at the same volume,
 * which the step can follow. Volume units: a marker's share of a cell. */
#define LQ_MAC_AIR_P0    101.325 /* the atmosphere's absolute pressure over ρ: 101325 Pa / 1000 */
#define LQ_MAC_AIR_GAMMA 1.4     /* air's adiabatic exponent */
/* a in the ringing estimate: this share of the extent of the pocket's cells (the flow
 * through a narrow mouth rings faster than the pocket's size says; measured on the bell of
 * tests/solvers/test_mac_pockets.c: 0.3 rings about its volume within ±8 %, 0.6 blew up) */
#define LQ_MAC_AIR_RING 0.3

static int lq_mac_pockets_grow(lq_mac *s, int need)
{
    if (need <= s->pk_cap) return LQ_OK;
    int cap = LQ_MAX(need, 2 * s->pk_cap);
    double *P = realloc(s->pk_P, (size_t)cap * sizeof *P);
    if (!P) return LQ_ESIM;
    s->pk_P = P;
    double *V = realloc(s->pk_V, (size_t)cap * sizeof *V);
    if (!V) return LQ_ESIM;
    s->pk_V = V;
    s->pk_cap = cap;
    return LQ_OK;
}

static int lq_mac_pockets(lq_mac *s, double dt)
{
    int rc = lq_macpocket_find(&s->pk, &s->flags, &s->count, s->per_cell, s->pk_up);
    if (rc) return rc;
    int nc = s->nx * s->ny * s->nz, np = 0, old = s->pk_n;
    s->pk_cells = s->pk.sealed;
    if (s->pk.sealed == 0) { /* no pocket: nothing to carry */
        if (old > 0)
            for (int c = 0; c < nc; c++) s->pk_prev[c] = -1;
        s->pk_n = 0;
        s->pk_count = 0;
        s->pk_volume = 0;
        return LQ_OK;
    }
    rc = lq_field_download(&s->pk.lab, s->pk_lab);
    if (!rc) rc = lq_field_download(&s->pk.vol, s->pk_vol);
    if (rc) return rc;
    const int *lab = s->pk_lab;
    /* this step's pockets (by root), the cells each shares with last step's */
    int *roots = lq_alloc((size_t)s->pk.pockets * sizeof(int));
    double *share = lq_calloc((size_t)s->pk.pockets * (old + 1), sizeof(double));
    double *otot = lq_calloc((size_t)old + 1, sizeof(double));
    if (!roots || !share || !otot) rc = LQ_ESIM;
    for (int c = 0; c < nc && !rc; c++) {
        int l = lab[c];
        if (l < 0) continue;
        int r = l & LQ_PLSPOCKET_MASK;
        if (lab[r] != r) continue; /* open air */
        if (s->pk_idx[r] < 0) {
            if (np == s->pk.pockets) {
                rc = lq_error(LQ_ESIM, "air pockets: more roots than counted");
                break;
            }
            s->pk_idx[r] = np;
            roots[np++] = r;
        }
        int o = s->pk_prev[c];
        if (o >= 0) {
            share[(size_t)s->pk_idx[r] * (old + 1) + o] += 1;
            otot[o] += 1;
        }
    }
    if (!rc) rc = lq_mac_pockets_grow(s, np);
    double cellv = s->dx * s->dx * (s->nz == 1 ? 1.0 : s->dx), unit = cellv / s->per_cell;
    double *P = lq_alloc((size_t)LQ_MAX(np, 1) * sizeof *P),
           *V = lq_alloc((size_t)LQ_MAX(np, 1) * sizeof *V);
    if (!P || !V) rc = LQ_ESIM;
    int *cells = lq_calloc((size_t)LQ_MAX(np, 1), sizeof(int));
    if (!cells) rc = LQ_ESIM;
    for (int c = 0; c < nc && !rc; c++)
        if (lab[c] >= 0 && lab[lab[c] & LQ_PLSPOCKET_MASK] == (lab[c] & LQ_PLSPOCKET_MASK))
            cells[s->pk_idx[lab[c] & LQ_PLSPOCKET_MASK]]++;
    s->pk_max_gauge = fmax(s->pk_max_gauge, 0);
    s->pk_volume = 0;
    for (int q = 0; q < np && !rc; q++) {
        int r = roots[q];
        double v = fmax(s->pk_vol[r], 1) * unit, amount = 0, vref = 0;
        for (int o = 0; o < old; o++) {
            double f = share[(size_t)q * (old + 1) + o];
            if (f <= 0) continue;
            f /= otot[o];
            amount += f * s->pk_P[o] * s->pk_V[o];
            vref += f * s->pk_V[o];
        }
        double pref = vref > 0 ? amount / vref : LQ_MAC_AIR_P0;
        if (!(vref > 0)) vref = v;
        /* the ringing the step can follow (the header's ω) */
        double dim = s->nz == 1 ? 2.0 : 3.0,
               a = s->dx * fmax(1.0, LQ_MAC_AIR_RING * pow(cells[q], 1.0 / dim));
        double gam = LQ_MAC_AIR_GAMMA, w2 = gam * pref / (a * a);
        if (w2 * dt * dt > 1) gam /= w2 * dt * dt;
        P[q] = pref * pow(vref / v, gam);
        V[q] = v;
        float gauge = (float)(P[q] - LQ_MAC_AIR_P0);
        s->pk_gauge[r] = gauge;
        s->pk_max_gauge = fmax(s->pk_max_gauge, fabs(gauge));
        s->pk_volume += v;
    }
    /* carry: this step's pockets become last step's */
    for (int c = 0; c < nc && !rc; c++) {
        int l = lab[c];
        int r = l >= 0 ? l & LQ_PLSPOCKET_MASK : -1;
        s->pk_prev[c] = r >= 0 && lab[r] == r ? s->pk_idx[r] : -1;
    }
    if (!rc) rc = lq_field_upload(&s->pk.gauge, s->pk_gauge);
    for (int q = 0; q < np; q++) {
        s->pk_idx[roots[q]] = -1;
        if (!rc) {
            s->pk_P[q] = P[q];
            s->pk_V[q] = V[q];
        }
    }
    if (!rc) {
        s->pk_n = np;
        s->pk_count = np;
    }
    free(roots);
    free(share);
    free(otot);
    free(P);
    free(V);
    free(cells);
    return rc;
}

/* 4, the pressure at the surface: SURFACE cells hold the atmosphere's pressure plus the
 * forcing of §7.2 (eq. 17–19), with mac.surface_pressure: fill placed at the markers'
 * height; with mac.surface_solve (the default) the atmosphere's side is held in the EMPTY
 * cells instead (step 6 relaxes the SURFACE cells, kernels/mac/pressure_cell.h). */
static int lq_mac_surface_pressure(lq_mac *s, double dt)
{
    float h = (float)s->dx, hh[3] = {h, h, h};
    float org[3] = {(float)s->origin[0], (float)s->origin[1], (float)s->origin[2]};
    lq_macsurface_forcing fo = s->forcing;
    fo.t = s->t;
    fo.dt = (float)dt;
    if (s->surface_solve) {
        int rc = lq_pressure_surface_prep(&s->pressure, &s->flags, &s->pflags, &s->p, &s->sw,
                                          &s->count, &s->ghost, s->per_cell);
        if (!rc && s->air_gas)
            rc = lq_macpocket_apply(&s->pk, &s->flags, &s->pflags, &s->count, &s->ghost,
                                    s->per_cell, &s->p);
        return rc;
    }
    int rc = lq_macsurface_pressure(&s->macsurface, &s->flags, &s->p, hh, org, &fo);
    if (!rc && s->fill_pressure)
        rc = lq_macsurface_fill_pressure(&s->macsurface, &s->flags, &s->mask, &s->p, &s->count,
                                         &s->ratio, s->per_cell);
    return rc;
}

/* 5. ũ, ṽ, w̃ by eq. 2 (explicit: convection by mac.advection, viscosity, g). */
static int lq_mac_momentum(lq_mac *s, double dt)
{
    float h = (float)s->dx, g3[3] = {(float)s->g[0], (float)s->g[1], (float)s->g[2]};
    lq_momentum_params mp = {.dt = (float)dt,
                             .dx = h,
                             .dy = h,
                             .dz = h,
                             .nu = (float)s->nu,
                             .gamma = (float)s->gamma,
                             .advection = s->advection};
    memcpy(mp.g, g3, sizeof g3);
    int rc = lq_momentum_step(&s->momentum, &s->momentum_state, &mp);
    if (rc) return rc;
    lq_mac_swap(&s->u, &s->momentum_state.un);
    lq_mac_swap(&s->v, &s->momentum_state.vn);
    lq_mac_swap(&s->w, &s->momentum_state.wn);
    return LQ_OK;
}

/* 6. The pressure iteration of eq. 5–9 to ε; with mac.surface_solve over the SURFACE
 * cells too, the surface's faces weighted. */
static int lq_mac_pressure(lq_mac *s, int *sweeps, float *maxdiv)
{
    if (s->surface_solve) {
        s->pressure_state.flags = &s->pflags;
        s->pressure_state.sw = &s->sw;
    }
    int rc =
        lq_pressure_solve(&s->pressure, &s->pressure_state, &s->pressure_params, sweeps, maxdiv);
    s->pressure_state.flags = &s->flags;
    s->pressure_state.sw = NULL;
    return rc;
}

/* 8, §5: the bodies move by eq. 13–16 from this step's p and u (two-way: p inside them
 * first, from the liquid around them). */
static int lq_mac_move_bodies(lq_mac *s, double dt)
{
    int rc = LQ_OK;
    if (s->twoway)
        rc =
            lq_macbody_body_pressure(&s->macbody, &s->macbody_set, &s->p, &s->flags, &s->owner, 16);
    if (!rc)
        rc = lq_macbody_forces_owned(&s->macbody, &s->macbody_set, &s->p, &s->u, &s->v, &s->w,
                                     &s->flags, s->twoway ? &s->owner : NULL);
    if (!rc) lq_macbody_integrate(&s->macbody_set, dt, s->t + dt, s->g);
    return rc;
}

/* 8, §4.3: spray leaves fast surface cells, flies, lands or turns to foam. */
static int lq_mac_spray(lq_mac *s, double dt)
{
    lq_macspray_counts sc;
    s->macspray_params.dt = (float)dt;
    s->macspray_params.step = (uint32_t)s->step;
    int rc = lq_macspray_step(&s->macspray, &s->macspray_state, &s->u, &s->v, &s->w, &s->flags,
                              &s->macspray_params, &sc);
    s->sp_last = sc;
    s->spray_emitted += sc.emitted;
    s->spray_foamed += sc.foamed;
    s->spray_dropped += sc.dropped;
    return rc;
}

/* One step of §6 (steps 3–8; 1 and 2 are lq_mac_create's). */
static int lq_mac_step(lq_mac *s, double dt)
{
    lq_ctx *c = s->ctx;
    int sweeps = 0, rc = LQ_OK;
    float maxdiv = 0;
    s->pressure_params.dt = (float)dt;
    /* inlets open, close and emit (§3.2.2, §7.1); two-way bodies take their cells (§5) */
    LQ_STAGE(rc, c, "inlets", lq_mac_inlets(s, dt));
    if (s->twoway) LQ_STAGE(rc, c, "bodies take their cells", lq_mac_mark_bodies(s));
    /* 3. cell contents from the surface tracker (§4) */
    LQ_STAGE(rc, c, "cells classified", lq_mac_cells(s, dt));
    if (s->air_gas) LQ_STAGE(rc, c, "air pockets", lq_mac_pockets(s, dt));
    /* 4. boundary conditions: surface pressure (eq. 17-19), Gates' surface velocities,
     * inflow and outflow (§3.2.2), obstacle mirrors (§3.2.1) */
    LQ_STAGE(rc, c, "surface pressure", lq_mac_surface_pressure(s, dt));
    LQ_STAGE(rc, c, "boundary conditions", lq_mac_boundaries(s, dt, false));
    /* 5. ũ, ṽ, w̃ (eq. 2) */
    LQ_STAGE(rc, c, "momentum", lq_mac_momentum(s, dt));
    /* 6. the pressure iteration (eq. 5-9) */
    LQ_STAGE(rc, c, "pressure iteration", lq_mac_pressure(s, &sweeps, &maxdiv));
    /* 7. the surface's velocities again (Gates), the air band, free-slip ghosts */
    LQ_STAGE(rc, c, "boundary conditions again", lq_mac_boundaries(s, dt, true));
    /* 8. the surface and the objects move: tracker (§4), bodies (§5), spray and foam (§4.3) */
    LQ_STAGE(rc, c, "surface moves", lq_mac_move_surface(s, dt));
    if (s->bodies_on) LQ_STAGE(rc, c, "bodies move", lq_mac_move_bodies(s, dt));
    if (s->spray_on) LQ_STAGE(rc, c, "spray and foam", lq_mac_spray(s, dt));
    if (rc) return rc;
    s->sweeps += sweeps;
    if (s->pressure_params.method == LQ_PRESSURE_MGPCG) s->rb_after += s->pressure.mg_sweeps;
    s->maxdiv = fmaxf(s->maxdiv, maxdiv);
    s->unconverged += !(maxdiv < s->pressure_params.eps);
    s->t += dt;
    s->dt_prev = dt;
    s->step++;
    return LQ_OK;
}

static int lq_mac_measure(void *state, lq_frame_stats *st)
{
    lq_mac *s = state;
    memset(st, 0, sizeof *st);
    float smax[3] = {0, 0, 0};
    int rc = lq_momentum_max_speed(&s->momentum, &s->momentum_state, smax);
    if (rc) return rc;
    if (!isfinite(smax[0]) || !isfinite(smax[1]) || !isfinite(smax[2]))
        return lq_error(LQ_ESIM,
                        "simulation blew up at step %d (t = %.6g s): field u/v/w is not finite",
                        s->step, s->t);
    double cellv = s->dx * s->dx * (s->nz == 1 ? 1.0 : s->dx);
    /* the liquid's volume (2D: its area, m²) from the surface tracker */
    if (s->surface == LQ_MAC_HEIGHTFIELD) {
        lq_machf_measure m;
        rc = lq_machf_get(&s->machf_state, s->hcol);
        if (!rc) rc = lq_field_download(&s->flags, s->fl);
        if (rc) return rc;
        lq_machf_measure_host(s->nx, s->ny, s->nz, (float)s->dx, (float)s->dx,
                              s->nz == 1 ? 1.0f : (float)s->dx, s->fl, s->hcol, &m);
        st->liquid_volume = m.volume;
        lq_stats_extra(st, "steep_columns", m.steep);
        lq_stats_extra(st, "max_slope", m.max_slope);
    } else if (s->surface == LQ_MAC_CHAINS) {
        double lo[2] = {s->dx, s->dx}, hi[2] = {(s->nx - 1) * s->dx, (s->ny - 1) * s->dx};
        st->liquid_volume = lq_chains_area(&s->chains_state, lo, hi);
        lq_stats_extra(st, "chain_points", s->chains_state.n);
        lq_stats_extra(st, "chains", s->chains_state.nchains);
    } else {
        st->liquid_volume = s->npart * cellv / s->per_cell;
        lq_stats_extra(st, "markers", s->npart);
    }
    st->max_speed = fmax(smax[0], fmax(smax[1], smax[2]));
    st->pressure_iterations = s->sweeps;
    st->pressure_residual = s->maxdiv;
    st->dt_min = st->dt_max = s->dt_prev;
    lq_stats_extra(st, "pressure_unconverged", s->unconverged);
    if (s->air_gas) {
        lq_stats_extra(st, "air_pockets", s->pk_count);
        lq_stats_extra(st, "air_pocket_cells", s->pk_cells);
        lq_stats_extra(st, "air_pocket_volume", s->pk_volume);
        lq_stats_extra(st, "air_pocket_max_pressure", s->pk_max_gauge);
    }
    if (s->pressure_params.method == LQ_PRESSURE_MGPCG) /* of pressure_iterations */
        lq_stats_extra(st, "pressure_sweeps_after_pcg", s->rb_after);
    if (s->spray_on) {
        lq_stats_extra(st, "spray", s->sp_last.spray);
        lq_stats_extra(st, "foam", s->sp_last.foam);
        lq_stats_extra(st, "spray_emitted", (double)s->spray_emitted);
        lq_stats_extra(st, "spray_foamed", (double)s->spray_foamed);
        lq_stats_extra(st, "spray_dropped", (double)s->spray_dropped);
    }
    if (s->ninlets || s->sinks) {
        double mv = cellv / s->per_cell;
        lq_stats_extra(st, "inflow_volume", s->injected * mv);
        lq_stats_extra(st, "outflow_volume", s->removed * mv);
        lq_stats_extra(st, "markers_dropped", s->dropped);
    }
    /* the liquid's centroid (m, world), from the markers */
    if (s->npart > 0) {
        float *pos = lq_alloc((size_t)s->npart * 3 * sizeof(float));
        if (!pos) return LQ_ESIM;
        rc = lq_field_read(&s->pos, 0, (size_t)s->npart * 3 * sizeof(float), pos);
        double c[3] = {0, 0, 0};
        for (int n = 0; n < s->npart && !rc; n++)
            for (int q = 0; q < 3; q++) c[q] += pos[3 * n + q];
        free(pos);
        if (rc) return rc;
        const char *names[3] = {"centroid_x", "centroid_y", "centroid_z"};
        for (int q = 0; q < 3; q++) lq_stats_extra(st, names[q], s->origin[q] + c[q] / s->npart);
    }
    return LQ_OK;
}

/* The longest step allowed now: eq. 3's CFL (at most LQ_MOMENTUM_LIMITED_CFL with
 * mac.advection: limited) and the viscous limit (lq_momentum_dt, at most a quarter frame), the fall
 * of a resting fluid under gravity through cfl·dx, and the bodies' own limit. */
static int lq_mac_dt(lq_mac *s, float *dt)
{
    float h = (float)s->dx;
    lq_momentum_params mp = {.dt = 0, .dx = h, .dy = h, .dz = h, .nu = (float)s->nu};
    /* mac.advection: limited is its full second-order self up to a Courant number of ½ */
    float cfl = (float)s->cfl;
    if (s->advection == LQ_MOMENTUM_LIMITED) cfl = fminf(cfl, LQ_MOMENTUM_LIMITED_CFL);
    int rc = lq_momentum_dt(&s->momentum, &s->momentum_state, &mp, cfl, (float)(0.25 / s->fps), dt);
    if (rc) return rc;
    double gmag = sqrt(s->g[0] * s->g[0] + s->g[1] * s->g[1] + s->g[2] * s->g[2]);
    if (gmag > 0) *dt = (float)fmin(*dt, sqrt(2 * s->cfl * s->dx / gmag));
    if (s->bodies_on) *dt = (float)fmin(*dt, lq_macbody_dt_limit(&s->macbody_set, gmag));
    return LQ_OK;
}

/* The fields each stage of the step computes, for a blow-up's message. */
static const char *const lq_mac_stage_fields[][2] = {{"time step (CFL)", "u, v, w"},
                                                     {"inlets", "markers"},
                                                     {"bodies take their cells", "flags"},
                                                     {"cells classified", "flags"},
                                                     {"air pockets", "p"},
                                                     {"surface pressure", "p"},
                                                     {"boundary conditions", "u, v, w"},
                                                     {"momentum", "u, v, w"},
                                                     {"pressure iteration", "p"},
                                                     {"boundary conditions again", "u, v, w"},
                                                     {"surface moves", "markers"},
                                                     {"bodies move", "bodies"},
                                                     {"spray and foam", "spray"},
                                                     {NULL, NULL}};

/* What sets the step, for a blow-up's message (framesplit.h): the fastest velocity
 * component and gravity. */
static void lq_mac_why(void *state, char *buf, size_t cap)
{
    lq_mac *s = state;
    float sm[3] = {0, 0, 0};
    (void)lq_momentum_max_speed(&s->momentum, &s->momentum_state, sm);
    double gmag = sqrt(s->g[0] * s->g[0] + s->g[1] * s->g[1] + s->g[2] * s->g[2]);
    snprintf(buf, cap, "%s", lq_framesplit_speeds(sm, s->g, gmag));
}

static int lq_mac_advance(void *state, int frame, double t_end, lq_frame_stats *st)
{
    lq_mac *s = state;
    (void)frame;
    s->sweeps = 0;
    s->maxdiv = 0;
    s->removed = s->injected = s->dropped = 0;
    s->unconverged = 0;
    s->rb_after = 0;
    s->spray_emitted = s->spray_foamed = s->spray_dropped = 0;
    s->pk_max_gauge = 0;
    lq_framesplit fr = lq_framesplit_start(s->t, t_end);
    int rc = LQ_OK;
    while (!rc && lq_framesplit_more(&fr, s->t)) {
        float dt = 0;
        lq_profile_failed_clear();
        LQ_STAGE(rc, s->ctx, "time step (CFL)", lq_mac_dt(s, &dt));
        if (rc) break;
        /* the frame's rest in equal steps of at most dt (up to 5 % over it), not full steps
         * and a sliver: p carries the 1/δt of the step that made it (eq. 6–7), and the next
         * step's eq. 2 applied a sliver's p over a whole δt, kicking the faces next to
         * SURFACE cells, which the iteration does not correct, to several m/s */
        double step = lq_framesplit_next(&fr, s->t, dt, LQ_FRAMESPLIT_STRETCH, true);
        rc = lq_framesplit_guard(&fr, s->step, s->t, step, s->max_steps, lq_mac_why, s);
        LQ_STAGE(rc, s->ctx, "step", lq_mac_step(s, step));
        if (!rc) lq_framesplit_took(&fr, step);
    }
    if (rc) return lq_framesplit_failed(rc, s->step, s->t, lq_mac_stage_fields);
    LQ_STAGE(rc, s->ctx, "markers leave (outflow)", lq_mac_compact(s));
    LQ_STAGE(rc, s->ctx, "frame stats", lq_mac_measure(s, st));
    lq_framesplit_report(&fr, st);
    return rc;
}

/* phi at the cell centres for meshes and previews (liquid < 0, the surface at 0), with
 * s->fl holding the flags:
 * - markers: 0.5 − the marker density, each marker spread trilinearly over the eight
 *   nearest cell centres (its weight renormalised over those not SOLID, so the liquid
 *   does not thin at walls): smoother than counting markers per cell;
 * - height field: (y − h) / δ of the column, clamped to ±1 (the surface exactly at h);
 * - chains: −0.5 in FULL, −0.1 in SURFACE cells, 0.5 elsewhere. */
static int lq_mac_phi(lq_mac *s, float *phi)
{
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    size_t n = (size_t)nx * ny * nz;
    double h = s->dx;
    if (s->surface == LQ_MAC_HEIGHTFIELD) {
        rc = lq_machf_get(&s->machf_state, s->hcol);
        for (int k = 0; k < nz && !rc; k++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    double d = ((j + 0.5) * h - s->hcol[i + (size_t)nx * k]) / h;
                    phi[LQ_MAC_CELL(i, j, k, nx, ny)] = (float)fmax(-1, fmin(1, d));
                }
        return rc;
    }
    if (s->surface == LQ_MAC_CHAINS) {
        for (size_t c = 0; c < n; c++)
            phi[c] = s->fl[c] == LQ_MAC_FULL ? -0.5f : s->fl[c] == LQ_MAC_SURFACE ? -0.1f : 0.5f;
        return LQ_OK;
    }
    float *pos = s->npart ? lq_alloc((size_t)s->npart * 3 * sizeof(float)) : NULL;
    if (s->npart && !pos) return LQ_ESIM;
    rc = lq_field_read(&s->pos, 0, (size_t)s->npart * 3 * sizeof(float), pos);
    for (size_t c = 0; c < n; c++) phi[c] = 0;
    int dims[3] = {nx, ny, nz};
    for (int q = 0; q < s->npart && !rc; q++) {
        int i0[3];
        double f[3];
        for (int a = 0; a < 3; a++) {
            double g = pos[3 * q + a] / h - 0.5;
            if (dims[a] == 1) g = 0;
            g = fmax(0, fmin(g, dims[a] - 1.0));
            i0[a] = LQ_MIN((int)g, dims[a] - 2 < 0 ? 0 : dims[a] - 2);
            f[a] = dims[a] == 1 ? 0 : g - i0[a];
        }
        int idx[8];
        double wt[8], sum = 0;
        for (int m = 0; m < 8; m++) {
            int ii = i0[0] + (m & 1), jj = i0[1] + ((m >> 1) & 1), kk = i0[2] + ((m >> 2) & 1);
            double w = ((m & 1) ? f[0] : 1 - f[0]) * ((m & 2) ? f[1] : 1 - f[1]) *
                       ((m & 4) ? f[2] : 1 - f[2]);
            idx[m] = -1;
            wt[m] = 0;
            if (ii >= nx || jj >= ny || kk >= nz || w <= 0) continue;
            int c = LQ_MAC_CELL(ii, jj, kk, nx, ny);
            if (s->fl[c] == LQ_MAC_SOLID) continue;
            idx[m] = c;
            wt[m] = w;
            sum += w;
        }
        for (int m = 0; m < 8 && sum > 0; m++)
            if (idx[m] >= 0) phi[idx[m]] += (float)(wt[m] / sum);
    }
    free(pos);
    for (size_t c = 0; c < n; c++) phi[c] = 0.5f - fminf(phi[c] / s->per_cell, 1.0f);
    return rc;
}

static int lq_mac_view(void *state, const char *name, lq_field_view *v)
{
    lq_mac *s = state;
    int nx = s->nx, ny = s->ny, nz = s->nz, rc = LQ_OK;
    double dx = s->dx;
    v->name = name;
    v->spacing[0] = v->spacing[1] = v->spacing[2] = dx;
    for (int q = 0; q < 3; q++) v->origin[q] = s->origin[q] + 0.5 * dx;
    v->dims[0] = nx;
    v->dims[1] = ny;
    v->dims[2] = nz;
    if (strcmp(name, "p") == 0) {
        rc = lq_field_download(&s->p, s->gv);
        v->data = s->gv;
    } else if (strcmp(name, "u") == 0 || strcmp(name, "v") == 0 || strcmp(name, "w") == 0) {
        int a = name[0] - 'u';
        lq_field *f = a == 0 ? &s->u : a == 1 ? &s->v : &s->w;
        rc = lq_field_download(f, s->fv);
        v->dims[a]++;
        v->origin[a] -= 0.5 * dx;
        v->data = s->fv;
    } else if (strcmp(name, "flags") == 0) {
        /* the cell kinds (LQ_MAC_*: 0 empty, 1 full, 2 surface, 3 solid, 4 inflow,
         * 5 outflow) as numbers */
        rc = lq_field_download(&s->flags, s->fl);
        for (size_t c = 0; c < (size_t)nx * ny * nz && !rc; c++) s->gv[c] = s->fl[c];
        v->data = s->gv;
    } else if (strcmp(name, "phi") == 0 || strcmp(name, "solid") == 0) {
        /* solid: 1 in obstacle cells, leaving out the domain's wall layer (it would hide
         * the inside); phi: liquid < 0, from the surface tracker (lq_mac_phi) */
        rc = lq_field_download(&s->flags, s->fl);
        if (!rc && name[0] == 's') {
            for (int k = 0; k < nz; k++)
                for (int j = 0; j < ny; j++)
                    for (int i = 0; i < nx; i++) {
                        size_t c = LQ_MAC_CELL(i, j, k, nx, ny);
                        bool wall = i == 0 || j == 0 || i == nx - 1 || j == ny - 1 ||
                                    (nz > 1 && (k == 0 || k == nz - 1));
                        s->gv[c] = (float)(s->fl[c] == LQ_MAC_SOLID && !wall);
                    }
        } else if (!rc) {
            rc = lq_mac_phi(s, s->gv);
        }
        v->data = s->gv;
    } else {
        return lq_error(LQ_EINPUT, "solver 'mac' has no field '%s'", name);
    }
    return rc;
}

/* Spray and foam (kind 0, 1) and, with output.markers, the markers (kind 2) as points. */
static int lq_mac_points(void *state, lq_points_view *pv)
{
    lq_mac *s = state;
    int nsp = s->spray_on ? s->macspray_state.live : 0, nmk = s->write_markers ? s->npart : 0;
    int n = LQ_MAX(nsp + nmk, 1);
    if (n > s->pcap) {
        for (int i = 0; i < LQ_MACSPRAY_NCOLS; i++) {
            free(s->pcols[i]);
            s->pcols[i] = lq_alloc((size_t)n * sizeof(float));
            if (!s->pcols[i]) {
                s->pcap = 0;
                return LQ_ESIM;
            }
        }
        s->pcap = n;
    }
    int rc = LQ_OK, got = 0;
    if (nsp > 0) rc = lq_macspray_download(&s->macspray_state, s->pcols, &got);
    if (rc) return rc;
    if (nmk > 0) {
        float *pos = lq_alloc((size_t)nmk * 3 * sizeof(float));
        if (!pos) return LQ_ESIM;
        rc = lq_field_read(&s->pos, 0, (size_t)nmk * 3 * sizeof(float), pos);
        for (int q = 0; q < nmk && !rc; q++) {
            for (int a = 0; a < 3; a++) {
                s->pcols[a][got + q] = pos[3 * q + a];
                s->pcols[3 + a][got + q] = 0;
            }
            s->pcols[6][got + q] = 0;
            s->pcols[7][got + q] = 2;
        }
        free(pos);
        got += nmk;
    }
    for (int q = 0; q < got; q++)
        for (int a = 0; a < 3; a++) s->pcols[a][q] += (float)s->origin[a];
    pv->n = got;
    pv->nprops = LQ_MACSPRAY_NCOLS;
    pv->names = lq_macspray_column_names;
    for (int i = 0; i < LQ_MACSPRAY_NCOLS; i++) pv->columns[i] = s->pcols[i];
    return rc;
}

static int lq_mac_objects(void *state, const lq_object_record **rec, int *n)
{
    lq_mac *s = state;
    if (!s->bodies_on) {
        *rec = NULL;
        *n = 0;
        return LQ_OK;
    }
    return lq_macbody_records(&s->macbody_set, rec, n);
}

/* --- checkpoints: scalars, then u v w p flags and the markers. */
typedef struct lq_mac_scalars {
    double t, dt_prev;
    int32_t step, npart, nx, ny, nz, cap;
    double carry[LQ_MACBC_MAX_INLETS];
    int32_t state[LQ_MACBC_MAX_INLETS];
} lq_mac_scalars;

/* The chains: their count, then per chain its point count, closed flag and x y pairs
 * (each chain's points are contiguous after every refinement). */
static int lq_mac_ckpt_chains(lq_mac *s, FILE *f, bool save)
{
    lq_chains_state *c = &s->chains_state;
    int32_t nch = c->nchains;
    int rc = save ? lq_checkpoint_put(f, &nch, sizeof nch) : lq_checkpoint_get(f, &nch, sizeof nch);
    if (!save && !rc) rc = lq_checkpoint_count(f, "chain count", nch, 0, INT32_MAX, 8);
    if (!save && !rc) c->n = c->nchains = 0;
    for (int ch = 0; ch < nch && !rc; ch++) {
        int32_t hdr[2] = {save ? c->count[ch] : 0, save ? c->closed[ch] : 0};
        rc = save ? lq_checkpoint_put(f, hdr, sizeof hdr) : lq_checkpoint_get(f, hdr, sizeof hdr);
        if (rc) break;
        if (!save && (rc = lq_checkpoint_count(f, "chain's point count", hdr[0], 0, 1 << 28, 8)))
            return rc;
        float *xy = lq_alloc((size_t)LQ_MAX(hdr[0], 1) * 2 * sizeof(float));
        if (!xy) return LQ_ESIM;
        if (save) {
            for (int q = 0; q < hdr[0]; q++) {
                xy[2 * q] = c->hp[3 * (size_t)(c->first[ch] + q)];
                xy[2 * q + 1] = c->hp[3 * (size_t)(c->first[ch] + q) + 1];
            }
            rc = lq_checkpoint_put(f, xy, (size_t)hdr[0] * 2 * sizeof(float));
        } else {
            rc = lq_checkpoint_get(f, xy, (size_t)hdr[0] * 2 * sizeof(float));
            if (!rc) rc = lq_chains_add(c, hdr[0], xy, hdr[1]);
        }
        free(xy);
    }
    if (!rc && !save) rc = lq_chains_sync(c);
    return rc;
}

/* mac.air_pockets: gas — the last step's pockets (their number, each one's absolute
 * pressure and volume, the pocket of every cell): the gas a resumed step takes its
 * pockets' pressure from, so that a resume continues bit for bit. */
static int lq_mac_ckpt_pockets(lq_mac *s, FILE *f, bool save)
{
    const size_t n = (size_t)s->nx * (size_t)s->ny * (size_t)s->nz;
    int32_t hdr[2] = {save ? s->pk_n : 0, save ? s->pk_count : 0};
    int rc = save ? lq_checkpoint_put(f, hdr, sizeof hdr) : lq_checkpoint_get(f, hdr, sizeof hdr);
    if (!save && !rc)
        rc = lq_checkpoint_count(f, "air pocket count", hdr[0], 0, (int)n, 2 * sizeof(double));
    if (!save && !rc) rc = lq_checkpoint_count(f, "air pockets", hdr[1], 0, (int)n, 0);
    if (!save && !rc) rc = lq_mac_pockets_grow(s, hdr[0]);
    if (rc) return rc;
    const size_t np = (size_t)hdr[0];
    if (np) {
        rc = save ? lq_checkpoint_put(f, s->pk_P, np * sizeof *s->pk_P)
                  : lq_checkpoint_get(f, s->pk_P, np * sizeof *s->pk_P);
        if (!rc)
            rc = save ? lq_checkpoint_put(f, s->pk_V, np * sizeof *s->pk_V)
                      : lq_checkpoint_get(f, s->pk_V, np * sizeof *s->pk_V);
    }
    if (!rc)
        rc = save ? lq_checkpoint_put(f, s->pk_prev, n * sizeof *s->pk_prev)
                  : lq_checkpoint_get(f, s->pk_prev, n * sizeof *s->pk_prev);
    for (size_t c = 0; c < n && !save && !rc; c++)
        if (s->pk_prev[c] < -1 || s->pk_prev[c] >= hdr[0])
            rc = lq_error(LQ_EINPUT, "the checkpoint's air pocket of cell %zu is out of range", c);
    for (size_t q = 0; q < np && !save && !rc; q++)
        if (!(isfinite(s->pk_P[q]) && isfinite(s->pk_V[q]) && s->pk_V[q] >= 0))
            rc = lq_error(LQ_EINPUT, "the checkpoint's air pocket %zu is out of range", q);
    if (!save && !rc) {
        s->pk_n = hdr[0];
        s->pk_count = hdr[1];
    }
    return rc;
}

static int lq_mac_ckpt(lq_mac *s, FILE *f, bool save)
{
    lq_mac_scalars sc = {s->t,  s->dt_prev, s->step, s->npart, s->nx,
                         s->ny, s->nz,      s->cap,  {0},      {0}};
    for (int r = 0; r < s->ninlets; r++) {
        sc.carry[r] = s->inlets[r].carry;
        sc.state[r] = s->inlets[r].state;
    }
    int rc = save ? lq_checkpoint_put(f, &sc, sizeof sc) : lq_checkpoint_get(f, &sc, sizeof sc);
    if (rc) return rc;
    if (!save && (sc.nx != s->nx || sc.ny != s->ny || sc.nz != s->nz || sc.cap != s->cap))
        return lq_error(LQ_EINPUT,
                        "the checkpoint is for a %d x %d x %d grid with room for %d markers", sc.nx,
                        sc.ny, sc.nz, sc.cap);
    if (!save) rc = lq_checkpoint_count(f, "marker count", sc.npart, 0, s->cap, 0);
    for (int r = 0; r < s->ninlets && !save && !rc; r++)
        rc = lq_checkpoint_count(f, "inlet state", sc.state[r], 0, 2, 0);
    if (!save && !rc && !(sc.t >= 0 && isfinite(sc.t) && sc.dt_prev >= 0 && isfinite(sc.dt_prev)))
        rc = lq_error(LQ_EINPUT, "the checkpoint's time %g or last step %g is out of range", sc.t,
                      sc.dt_prev);
    if (rc) return rc;
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->p, &s->flags, &s->pos, &s->owner, &s->machf_state.h};
    size_t nf = 6;
    if (s->twoway) nf++;
    if (s->surface == LQ_MAC_HEIGHTFIELD) fs[nf++] = &s->machf_state.h;
    if (!rc) rc = lq_checkpoint_fields(f, fs, (int)nf, save);
    if (!rc && s->surface == LQ_MAC_CHAINS) rc = lq_mac_ckpt_chains(s, f, save);
    if (!rc && s->spray_on)
        rc = save ? lq_macspray_save(&s->macspray_state, f)
                  : lq_macspray_load(&s->macspray_state, f);
    if (!rc && s->bodies_on)
        rc = save ? lq_macbody_save(&s->macbody_set, f) : lq_macbody_load(&s->macbody_set, f);
    if (!rc && s->air_gas) rc = lq_mac_ckpt_pockets(s, f, save);
    if (!rc && !save) {
        s->t = sc.t;
        s->dt_prev = sc.dt_prev;
        s->step = sc.step;
        s->npart = sc.npart;
        for (int r = 0; r < s->ninlets; r++) {
            s->inlets[r].carry = sc.carry[r];
            s->inlets[r].state = sc.state[r];
        }
    }
    return rc;
}

static int lq_mac_save(void *state, FILE *f)
{
    return lq_mac_ckpt(state, f, true);
}

static int lq_mac_load(void *state, FILE *f)
{
    return lq_mac_ckpt(state, f, false);
}

const lq_solver_vt lq_mac_solver = {
    .name = "mac",
    .fields = lq_mac_fields,
    .height_field = false,
    .create = lq_mac_create,
    .destroy = lq_mac_destroy,
    .advance = lq_mac_advance,
    .measure = lq_mac_measure,
    .view = lq_mac_view,
    .save = lq_mac_save,
    .load = lq_mac_load,
    .points = lq_mac_points,
    .objects = lq_mac_objects,
};
