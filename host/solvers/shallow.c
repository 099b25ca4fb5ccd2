/*
 * shallow.c — the `shallow` solver: height-field water after M. Kass, "Height-Field
 * Fluids for Computer Graphics" (Apple ATG; the method published with G. Miller as
 * "Rapid, Stable Fluid Dynamics for Computer Graphics", SIGGRAPH 1990). The operations
 * are host/ops/hf/heightfield.h's; this file sequences them.
 *
 * State: the water surface h and the ground b at cell centres, and the face velocities
 * u, w of eq. 7 (staggered as in eq. 6–7 and Fig. 1). One step (lq_shallow_step, one
 * stage per line) is the paper's algorithm list (§4), in 3D by alternating directions
 * (§5):
 *
 *   1. sources and sinks change the depth (not the velocities: water arrives at rest);
 *      (not in the paper, shallow.advection) u, w advected by themselves;
 *   2. d from h(n−1), d = 0 where h < b, frozen for the whole step;
 *   3. h(n) from the implicit system of eq. 14–17, rows then columns (eq. 19, 20),
 *      solved in delta form (heightfield_cell.h) for the θ-scheme (shallow.theta: eq.
 *      6–7 at θ of the new level; θ = 1 is the paper's eq. 9–10), and the rows and
 *      columns solved again on what the unsplit 2D system still lacks
 *      (shallow.adi_iterations), so waves travel alike in every direction at large steps;
 *      each line by the Thomas algorithm or, on GPUs, a parallel CR–PCR–Thomas hybrid
 *      (shallow.line_solve; the two agree to float round-off);
 *   4. volume projection (shallow.volume_correction): per connected wet region, spread
 *      the difference between old and new volume over its wet cells;
 *   5. where h < b, h(n) = b − ε; the face velocities follow eq. 7 (then absorbing
 *      walls' layers, bed friction, shallow.friction, and the thin-film limiter,
 *      shallow.thin_film).
 *
 * Walls (issue 18; the paper's reflect): `open` walls radiate, u = √(g/d)(h − h0) on
 * the wall face, in the implicit step (heightfield_cell.h) with the water they let out
 * counted and taken out of the volume projection's target; `absorbing` walls damp the
 * motion in a layer along them.
 *
 * The paper writes step 3's right-hand side as the extrapolation (1−τ)(h(n−1) −
 * h(n−2)); we carry the same quantity as the water the face velocities of eq. 7 move
 * through this step's faces. The two are identical while the depth stays put, and the
 * velocity form keeps a shoreline moving when cells wet and dry (measured on Thacker's
 * planar basin: the extrapolation form lost 35 % of the amplitude per period, and more
 * as Δt shrank; this form loses what the first-order scheme predicts, docs/VALIDATION.md).
 *
 * Invariants. The frame is split once at its start (core/framesplit.h) into steps
 * enough for a Courant number √(g d_max) Δt / Δx at or below time.cfl, d_max from the
 * last frame (or shallow.substeps when set); the implicit scheme is stable at any Δt,
 * the limit only bounds its phase error and damping (|z|² = 1 + (1−2θ)μ/(1+θ²μ), μ =
 * 4C² sin²(kΔx/2): (1+μ)^−1 at θ = 1, 1 at θ = ½). τ (shallow.damping) acts per
 * step. Volumes are sums of fixed-point depths (heightfield_cell.h), so the
 * bookkeeping V(t) = V0 + sources − drains − lost holds to float round-off of the
 * heights.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/checkpoint.h"
#include "ops/hf/heightfield.h"
#include "world/hfinit.h"
#include "core/framesplit.h"
#include "core/profile.h"
#include "core/solver_api.h"
#include "scene/config.h"

/* shallow.theta when unset and the velocities are advected: off-centred Crank–Nicolson.
 * At Courant number 4.4 a pulse keeps 85 % of its crest after 0.8 s and runs 1.8 % slow
 * (θ = ½: 98 %, −2.2 %; the paper's θ = 1: 47 %, −2.2 %), and grid-scale modes are
 * damped (|z| → 0.82 per step at large μ) where θ = ½ leaves them ringing
 * (docs/VALIDATION.md). */
#define LQ_SHALLOW_THETA 0.55

/* The absorbing layer's strength S (σ = S √(g D)/W at the wall, falling as the square of
 * the distance to W). A pair of waves 0.3 m long in water 0.1 m deep (open_walls.yaml)
 * left 3.6 % of itself after a layer 0.2 m wide at S = 20, 6.5 % at 8 and 8.6 % at 40
 * (docs/VALIDATION.md). */
#define LQ_SHALLOW_SPONGE 20.0

typedef struct lq_shallow_source_def {
    int mode;         /* LQ_HF_SOURCE_* */
    double cx, cz, r; /* centre (world x, z) and radius of the footprint, m */
    double rate;      /* inflow/drain: m³/s */
    double start, stop;
    double once;        /* drop: the time it lands (NaN for continuous sources) */
    double volume;      /* drop: m³ */
    bool wavemaker;     /* strip along a wall: */
    int i0, k0, ni, nk; /* its cells */
    double amplitude, period;
} lq_shallow_source_def;

typedef struct lq_shallow_rain {
    double rate, radius, lo[2], hi[2], start, stop, next;
    lq_rng rng;
} lq_shallow_rain;

typedef struct lq_shallow {
    lq_ctx *ctx;
    lq_heightfield_ops heightfield;
    lq_hfinit_grid g;
    double gravity, tau, cfl, fps, manning, theta, thin, absorb_width;
    int open, absorb; /* LQ_HEIGHTFIELD_OPEN_* bits of walls: open, absorbing */
    float eps;
    int substeps, max_steps, adi_iterations;
    int line_solve; /* shallow.line_solve: LQ_HEIGHTFIELD_SOLVE_* */
    int iterations; /* split solves per step, this frame (shallow.adi_iterations) */
    bool correct, advect;
    lq_heightfield_state heightfield_state;
    double scale;
    double t, dt_prev, dmax;
    int step;
    lq_shallow_source_def *src;
    int nsrc;
    lq_shallow_rain *rain;
    int nrain;
    double added, v0;
    /* host copies for views */
    float *hv, *bv, *fv, *uv, *wv;
} lq_shallow;

static const char *const lq_shallow_fields[] = {"h", "b", "depth", "u", "w", NULL};

static int lq_shallow_measure(void *state, lq_frame_stats *st);

/* --- set-up -------------------------------------------------------------------- */

/* Rain (random drops over a region, from a seeded generator). */
static void lq_shallow_rain_init(lq_shallow *s, const lq_config_source *q, lq_shallow_rain *r)
{
    r->rate = q->rain.rate;
    r->radius = q->rain.radius;
    r->lo[0] = s->g.origin[0];
    r->lo[1] = s->g.origin[2];
    r->hi[0] = s->g.origin[0] + s->g.nx * s->g.dx;
    r->hi[1] = s->g.origin[2] + s->g.nz * s->g.dx;
    if (q->rain.has_region_min) memcpy(r->lo, q->rain.region_min, sizeof r->lo);
    if (q->rain.has_region_max) memcpy(r->hi, q->rain.region_max, sizeof r->hi);
    r->start = q->rain.start;
    r->stop = q->rain.stop;
    lq_rng_seed(&r->rng, (uint64_t)q->rain.seed);
    r->next = r->start;
    if (r->rate > 0) r->next += -log(1.0 - lq_rng_uniform(&r->rng)) / r->rate;
}

/* A wavemaker: the strip of cells along its wall. */
static void lq_shallow_wavemaker(lq_shallow *s, const lq_config_source *q, lq_shallow_source_def *d)
{
    int wall = q->wavemaker.wall;
    bool along_x = wall == LQ_CONFIG_WALL_X_MIN || wall == LQ_CONFIG_WALL_X_MAX;
    int cells =
        lq_int_clamp(ceil(q->wavemaker.width / s->g.dx - 1e-9), 1, along_x ? s->g.nx : s->g.nz);
    d->wavemaker = true;
    d->once = NAN;
    d->amplitude = q->wavemaker.amplitude;
    d->period = q->wavemaker.period;
    d->start = q->wavemaker.start;
    d->stop = q->wavemaker.stop;
    d->ni = along_x ? cells : s->g.nx;
    d->nk = along_x ? s->g.nz : cells;
    d->i0 = wall == LQ_CONFIG_WALL_X_MAX ? s->g.nx - cells : 0;
    d->k0 = wall == LQ_CONFIG_WALL_Z_MAX ? s->g.nz - cells : 0;
}

/* A drop, or an inflow or drain over a disc. */
static void lq_shallow_disc_source(lq_shallow *s, const lq_config_source *q,
                                   lq_shallow_source_def *d)
{
    bool drop = q->kind == LQ_CONFIG_SOURCE_DROP;
    const lq_config_disc *disc = q->kind == LQ_CONFIG_SOURCE_DRAIN ? &q->drain : &q->inflow;
    d->cx = drop ? q->drop.center[0] : disc->center[0];
    d->cz = drop ? q->drop.center[1] : disc->center[1];
    d->r = drop ? q->drop.radius : disc->radius;
    d->once = NAN;
    if (drop) {
        d->mode = LQ_HEIGHTFIELD_SOURCE_BUMP;
        d->once = q->drop.time;
        d->volume = 4.0 / 3.0 * LQ_PI * d->r * d->r * d->r;
        d->r = fmax(2.0 * d->r, 2.0 * s->g.dx); /* footprint of the deposited bump */
    } else {
        d->mode = q->kind == LQ_CONFIG_SOURCE_DRAIN ? LQ_HEIGHTFIELD_SOURCE_DRAIN
                                                    : LQ_HEIGHTFIELD_SOURCE_UNIFORM;
        d->rate = disc->rate;
        d->start = disc->start;
        d->stop = disc->stop;
        d->r = fmax(d->r, 0.75 * s->g.dx); /* at least the nearest cell centre */
    }
}

static int lq_shallow_sources(lq_shallow *s, const lq_config *cfg)
{
    int n = cfg->nsources;
    s->src = lq_calloc((size_t)n + 1, sizeof *s->src);
    s->rain = lq_calloc((size_t)n + 1, sizeof *s->rain);
    if (!s->src || !s->rain) return LQ_ESIM;
    for (int i = 0; i < n; i++) {
        const lq_config_source *q = &cfg->sources[i];
        if (q->kind == LQ_CONFIG_SOURCE_RAIN)
            lq_shallow_rain_init(s, q, &s->rain[s->nrain++]);
        else if (q->kind == LQ_CONFIG_SOURCE_WAVEMAKER)
            lq_shallow_wavemaker(s, q, &s->src[s->nsrc++]);
        else
            lq_shallow_disc_source(s, q, &s->src[s->nsrc++]);
    }
    return LQ_OK;
}

/* Footprint of a disc in cells, and Σ of the weights the kernel will use there. */
typedef struct lq_shallow_disc {
    int i0, k0, ni, nk;
    float ci, ck, inv_r2;
    double weight_sum; /* cells */
} lq_shallow_disc;

static lq_shallow_disc lq_shallow_footprint(const lq_shallow *s, int mode, double cx, double cz,
                                            double r)
{
    lq_shallow_disc f;
    double dx = s->g.dx;
    f.ci = (float)((cx - s->g.origin[0]) / dx);
    f.ck = (float)((cz - s->g.origin[2]) / dx);
    float R = (float)(r / dx);
    f.inv_r2 = 1.0f / (R * R);
    /* clamped a cell past the grid (a drop far outside it covers no cell either way) */
    int i0 = lq_int_clamp(floor(f.ci - R), -1, s->g.nx + 3) - 1;
    int k0 = lq_int_clamp(floor(f.ck - R), -1, s->g.nz + 3) - 1;
    int i1 = lq_int_clamp(ceil(f.ci + R), -3, s->g.nx + 1) + 1;
    int k1 = lq_int_clamp(ceil(f.ck + R), -3, s->g.nz + 1) + 1;
    i0 = LQ_MAX(i0, 0);
    k0 = LQ_MAX(k0, 0);
    i1 = LQ_MIN(i1, s->g.nx);
    k1 = LQ_MIN(k1, s->g.nz);
    f.i0 = i0;
    f.k0 = k0;
    f.ni = LQ_MAX(i1 - i0, 0);
    f.nk = LQ_MAX(k1 - k0, 0);
    f.weight_sum = 0;
    for (int k = k0; k < k1; k++)
        for (int i = i0; i < i1; i++) {
            float ddx = (float)i + 0.5f - f.ci, ddz = (float)k + 0.5f - f.ck;
            f.weight_sum += lq_heightfield_source_weight(mode, ddx * ddx + ddz * ddz, f.inv_r2);
        }
    return f;
}

static void lq_shallow_destroy(void *state)
{
    lq_shallow *s = state;
    if (!s) return;
    lq_heightfield_state_release(&s->heightfield_state);
    lq_heightfield_ops_release(&s->heightfield);
    free(s->src);
    free(s->rain);
    free(s->hv);
    free(s->bv);
    free(s->fv);
    free(s->uv);
    free(s->wv);
    free(s);
}

/* The scene's settings, and the checks only this solver makes. */
static int lq_shallow_config(lq_shallow *s, const lq_config *cfg)
{
    int rc = lq_hfinit_grid_from_scene(cfg, &s->g);
    if (rc) return rc;
    const double *grav = cfg->gravity;
    if (grav[0] != 0 || grav[2] != 0 || !(grav[1] < 0))
        return lq_config_error(cfg, cfg->at_gravity,
                               "solver 'shallow' needs gravity along −y, [0, -g, 0] with g > 0");
    s->gravity = -grav[1];
    s->tau = cfg->shallow.damping;
    s->manning = cfg->shallow.friction;
    s->thin = cfg->shallow.thin_film;
    /* walls: x_min, x_max, z_min, z_max are faces 0, 1, 4, 5 of the scene's six */
    static const int face[4] = {0, 1, 4, 5};
    for (int q = 0; q < 4; q++) {
        s->open |= (cfg->wall[face[q]] == LQ_CONFIG_WALL_OPEN) << q;
        s->absorb |= (cfg->wall[face[q]] == LQ_CONFIG_WALL_ABSORBING) << q;
    }
    s->absorb_width =
        cfg->shallow.absorbing_width > 0 ? cfg->shallow.absorbing_width : 32.0 * cfg->grid.cell;
    s->cfl = cfg->time.cfl;
    s->fps = cfg->time.fps;
    s->eps = (float)cfg->shallow.dry_epsilon;
    s->substeps = cfg->shallow.substeps;
    s->max_steps = cfg->time.max_steps;
    /* unset: off-centred Crank–Nicolson with the advection term, the paper's scheme
     * without it (docs/VALIDATION.md: the paper's model under a time-accurate step lets
     * grid-scale noise grow; the beach scene reached 304 m/s at θ = ½) */
    s->theta = cfg->shallow.has_theta ? cfg->shallow.theta
                                      : (cfg->shallow.advection ? LQ_SHALLOW_THETA : 1.0);
    s->adi_iterations = cfg->shallow.adi_iterations;
    s->line_solve = cfg->shallow.line_solve;
    s->iterations = 1;
    s->correct = cfg->shallow.volume_correction;
    s->advect = cfg->shallow.advection;
    if (cfg->nobstacles > 0)
        return lq_config_error(
            cfg, cfg->at_obstacles,
            "solver 'shallow' has no obstacles; shape the ground with `terrain`");
    if (cfg->output.particles)
        return lq_config_error(cfg, cfg->output.at_particles,
                               "solver 'shallow' has no particles to write");
    if ((size_t)s->g.nx * (size_t)s->g.nz > (size_t)INT_MAX / 2)
        return lq_config_error(cfg, cfg->grid.at_size,
                               "%d x %d cells is more than this solver indexes", s->g.nx, s->g.nz);
    return LQ_OK;
}

/* The volume sums' fixed-point scale, from the initial ground b and surface h, and the
 * host copies of the views. */
static int lq_shallow_scale(lq_shallow *s, const float *b, const float *h)
{
    int nx = s->g.nx, nz = s->g.nz;
    size_t n = (size_t)nx * (size_t)nz, f4 = n * 4;
    /* N cells of depth up to D_cap sum below 2^62. D_cap covers 8x the initial water and
     * the terrain's relief; should sources fill the grid deeper than that,
     * lq_shallow_measure coarsens the scale before the sums can overflow. */
    float hmax = -INFINITY, bmin = INFINITY, bmax = -INFINITY, dmax = 0;
    for (size_t c = 0; c < n; c++) {
        hmax = fmaxf(hmax, h[c]);
        bmin = fminf(bmin, b[c]);
        bmax = fmaxf(bmax, b[c]);
        dmax = fmaxf(dmax, lq_heightfield_depth(h[c], b[c]));
    }
    double dcap = exp2(ceil(log2(fmax(8.0 * fmax(hmax - bmin, bmax - bmin), 1.0))));
    int S = lq_int_clamp(floor(62.0 - log2((double)n) - log2(dcap)), -1000, 1000);
    s->scale = ldexp(1.0, LQ_MIN(S, 60));
    s->dmax = dmax;
    s->hv = lq_alloc(f4);
    s->bv = lq_alloc(f4);
    s->fv = lq_alloc(f4);
    s->uv = lq_alloc((size_t)(nx + 1) * (size_t)(nz + 1) * 4);
    s->wv = lq_alloc((size_t)(nx + 1) * (size_t)(nz + 1) * 4);
    return !s->hv || !s->bv || !s->fv || !s->uv || !s->wv ? LQ_ESIM : LQ_OK;
}

static int lq_shallow_create(lq_ctx *ctx, const lq_config *cfg, void **state)
{
    int rc = LQ_OK;
    float *b = NULL, *h = NULL;
    lq_shallow *s = lq_calloc(1, sizeof *s);
    if (!s) return LQ_ESIM;
    s->ctx = ctx;
    rc = lq_shallow_config(s, cfg);
    if (rc) goto fail;
    int nx = s->g.nx, nz = s->g.nz;
    size_t n = (size_t)nx * (size_t)nz;

    /* The device state first: its size check (lq_ctx_reserve) says "too big" before
     * anything large is allocated on either side. */
    rc = lq_heightfield_state_alloc(&s->heightfield_state, ctx, nx, nz);
    if (rc) goto fail;

    /* Ground and initial surface on the host, then uploaded. */
    b = lq_alloc(n * sizeof *b);
    h = lq_alloc(n * sizeof *h);
    if (!b || !h) {
        rc = LQ_ESIM;
        goto fail;
    }
    rc = lq_hfinit_terrain(cfg, &s->g, b);
    if (!rc) rc = lq_hfinit_surface(cfg, &s->g, b, s->eps, h);
    if (rc) goto fail;
    rc = lq_shallow_sources(s, cfg);
    if (rc) goto fail;

    rc = lq_heightfield_ops_init(&s->heightfield, ctx, nx, nz, s->line_solve);
    if (!rc) rc = lq_field_upload(&s->heightfield_state.b, b);
    for (int i = 0; i < 2 && !rc; i++) rc = lq_field_upload(&s->heightfield_state.h[i], h);
    /* open walls radiate about the surface the water starts with */
    if (!rc) rc = lq_field_upload(&s->heightfield_state.href, h);
    if (!rc) rc = lq_shallow_scale(s, b, h);
    if (rc) goto fail;
    lq_frame_stats st;
    free(b);
    free(h);
    b = h = NULL;
    rc = lq_shallow_measure(s, &st);
    if (rc) goto fail;
    s->v0 = st.liquid_volume;
    *state = s;
    return LQ_OK;
fail:
    free(b);
    free(h);
    lq_shallow_destroy(s);
    return rc;
}

/* --- one step (§4, §5) ----------------------------------------------------------- */

static int lq_shallow_apply_source(lq_shallow *s, int mode, double cx, double cz, double r,
                                   double volume)
{
    lq_shallow_disc f = lq_shallow_footprint(s, mode, cx, cz, r);
    if (f.ni == 0 || f.nk == 0 || f.weight_sum <= 0) return LQ_OK;
    double area = s->g.dx * s->g.dx;
    float amount = (float)(volume / (f.weight_sum * area)); /* m of depth at weight 1 */
    if (mode != LQ_HEIGHTFIELD_SOURCE_DRAIN) s->added += (double)amount * f.weight_sum * area;
    lq_heightfield_state *hs = &s->heightfield_state;
    return lq_heightfield_source(&s->heightfield, &hs->h[hs->i1], &hs->b, &hs->acc_l, f.i0, f.k0,
                                 f.ni, f.nk, f.ci, f.ck, f.inv_r2, mode, amount, (float)s->scale);
}

/* Step 1: sources and sinks active during [t, t + dt). */
static int lq_shallow_sources_step(lq_shallow *s, double dt)
{
    int rc = LQ_OK;
    double t0 = s->t, t1 = s->t + dt;
    for (int i = 0; i < s->nsrc && !rc; i++) {
        lq_shallow_source_def *d = &s->src[i];
        if (d->wavemaker) { /* the strip's surface follows A sin(2πt/T) */
            double a = fmax(t0, d->start), e = fmin(t1, d->stop), w = 2 * LQ_PI / d->period;
            if (e <= a) continue;
            double rise = d->amplitude * (sin(w * (e - d->start)) - sin(w * (a - d->start)));
            int mode = rise > 0 ? LQ_HEIGHTFIELD_SOURCE_UNIFORM : LQ_HEIGHTFIELD_SOURCE_DRAIN;
            if (rise > 0) s->added += (double)(float)rise * d->ni * d->nk * s->g.dx * s->g.dx;
            lq_heightfield_state *hs = &s->heightfield_state;
            if (rise != 0)
                rc = lq_heightfield_source(&s->heightfield, &hs->h[hs->i1], &hs->b, &hs->acc_l,
                                           d->i0, d->k0, d->ni, d->nk, 0.0f, 0.0f, 0.0f, mode,
                                           (float)fabs(rise), (float)s->scale);
            continue;
        }
        if (!isnan(d->once)) {
            if (d->once >= t0 && d->once < t1)
                rc = lq_shallow_apply_source(s, d->mode, d->cx, d->cz, d->r, d->volume);
            continue;
        }
        double a = fmax(t0, d->start), e = fmin(t1, d->stop);
        if (e > a && d->rate > 0)
            rc = lq_shallow_apply_source(s, d->mode, d->cx, d->cz, d->r, d->rate * (e - a));
    }
    for (int i = 0; i < s->nrain && !rc; i++) {
        lq_shallow_rain *r = &s->rain[i];
        while (!rc && r->rate > 0 && r->next < t1 && r->next < r->stop) {
            double x = r->lo[0] + (r->hi[0] - r->lo[0]) * lq_rng_uniform(&r->rng);
            double z = r->lo[1] + (r->hi[1] - r->lo[1]) * lq_rng_uniform(&r->rng);
            double vol = 4.0 / 3.0 * LQ_PI * r->radius * r->radius * r->radius;
            if (r->next >= t0)
                rc = lq_shallow_apply_source(s, LQ_HEIGHTFIELD_SOURCE_BUMP, x, z,
                                             fmax(2.0 * r->radius, 2.0 * s->g.dx), vol);
            r->next += -log(1.0 - lq_rng_uniform(&r->rng)) / r->rate;
        }
    }
    return rc;
}

/* The step's coefficients (host/ops/hf/heightfield_ref.h). */
static lq_heightfield_step_params lq_shallow_params(const lq_shallow *s, double dt)
{
    lq_heightfield_step_params p;
    double kappa = s->gravity * dt * dt / (s->g.dx * s->g.dx), th = s->theta;
    p.kappa = (float)(th * kappa);
    p.kappa_s = (float)(th * th * kappa);
    p.keep = (float)(1.0 - s->tau);
    p.cdt = (float)((1.0 - th * s->tau) * dt / s->g.dx);
    p.g_new = (float)(th * s->gravity * dt / s->g.dx);
    p.g_old = (float)((1.0 - th) * s->gravity * dt / s->g.dx);
    p.iterations = s->iterations;
    p.fric = (float)(s->gravity * dt * s->manning * s->manning);
    p.grav = (float)s->gravity;
    p.thin = (float)s->thin;
    /* walls (heightfield_cell.h): open ones radiate at √(g d) (h − h0), absorbing ones
     * damp the motion in a layer, σ = S √(g D)/W (depth into it)² */
    p.walls.open = s->open;
    p.walls.cb = (float)(dt * sqrt(s->gravity) / s->g.dx);
    p.walls.cbt = (float)(th * dt * sqrt(s->gravity) / s->g.dx);
    p.walls.theta = (float)th;
    p.walls.absorb = s->absorb;
    p.walls.aw = (float)(s->absorb_width / s->g.dx);
    p.walls.sponge = (float)(LQ_SHALLOW_SPONGE * dt * sqrt(s->gravity) / s->absorb_width);
    p.eps = s->eps;
    p.scale = (float)s->scale;
    p.correct = s->correct;
    p.advect = s->advect;
    p.dt_dx = (float)(dt / s->g.dx);
    p.step = s->step;
    return p;
}

/* One step of dt: §4's algorithm list, in 3D by §5's alternating directions. */
static int lq_shallow_step(lq_shallow *s, double dt)
{
    lq_ctx *c = s->ctx;
    lq_heightfield_ops *o = &s->heightfield;
    lq_heightfield_state *hs = &s->heightfield_state;
    lq_heightfield_step_params p = lq_shallow_params(s, dt);
    lq_field *h1 = &hs->h[hs->i1], *hn = &hs->h[hs->in]; /* h(n−1), h(n) */
    int rc = LQ_OK;
    /* 1. sources and sinks add or take water (at rest) */
    LQ_STAGE(rc, c, "sources and sinks", lq_shallow_sources_step(s, dt));
    /* not in the paper (shallow.advection): u, w carried along by themselves */
    if (p.advect)
        LQ_STAGE(rc, c, "velocities advected", lq_heightfield_advect_velocity(o, hs, p.dt_dx));
    /* 2-3. d from h(n-1), frozen; h(n) by eq. 14-17 in the θ-scheme's delta form: the
     * right-hand side, then the rows (eq. 19) and the columns (eq. 20), which add h(n-1)
     * back; then the split solve again on what the unsplit system still lacks */
    float xl, xh, zl, zh; /* open walls at the lines' ends (heightfield_cell.h) */
    lq_heightfield_line_ends(&p.walls, 0, &xl, &xh);
    lq_heightfield_line_ends(&p.walls, 1, &zl, &zh);
    LQ_STAGE(rc, c, "right-hand side",
             lq_heightfield_residual(o, h1, &hs->u, &hs->w, &hs->b, &hs->href, hn, p.kappa, p.cdt,
                                     &p.walls));
    LQ_STAGE(rc, c, "rows (eq. 19)",
             lq_heightfield_adi_x(o, h1, &hs->b, hn, &hs->cp, p.kappa_s, xl, xh));
    LQ_STAGE(rc, c, "columns (eq. 20)",
             lq_heightfield_adi_z(o, h1, &hs->b, h1, hn, &hs->cp, p.kappa_s, zl, zh));
    if (p.iterations > 1)
        LQ_STAGE(rc, c, "split solve repeated", lq_heightfield_iterate(o, hs, &p));
    hn = &hs->h[hs->in]; /* the last iterate */
    /* 4. the volume of each connected wet region kept */
    if (p.correct)
        LQ_STAGE(rc, c, "volume projection",
                 lq_heightfield_project_volume(o, hs, p.scale, &p.walls));
    else if (p.walls.open) /* no projection: the open walls' water only counted */
        LQ_STAGE(rc, c, "open walls",
                 lq_heightfield_open(o, h1, hn, &hs->b, &hs->href, &hs->L, &hs->old_sum, &hs->acc_l,
                                     &p.walls, p.scale, 0));
    /* 5. where h < b, h = b - eps; the face velocities of eq. 7 (and bed friction) */
    LQ_STAGE(rc, c, "wet/dry, velocities",
             lq_heightfield_finish(o, hn, h1, &hs->b, &hs->u, &hs->w, &hs->acc_i, p.g_new, p.g_old,
                                   p.keep, p.fric, p.grav, p.thin, p.eps, p.step, &p.walls));
    if (rc) return rc;
    lq_heightfield_rotate(hs); /* h(n) is the next step's h(n-1) */
    s->t += dt;
    s->dt_prev = dt;
    s->step++;
    return LQ_OK;
}

/* --- frames ------------------------------------------------------------------------ */

static int lq_shallow_measure(void *state, lq_frame_stats *st)
{
    lq_shallow *s = state;
    lq_long sl[LQ_HEIGHTFIELD_ACC_L_COUNT] = {0}, al[LQ_HEIGHTFIELD_ACC_L_COUNT];
    int si[LQ_HEIGHTFIELD_ACC_I_COUNT] = {0}, ai[LQ_HEIGHTFIELD_ACC_I_COUNT];
    int rc = lq_field_upload(&s->heightfield_state.st_l, sl);
    if (!rc) rc = lq_field_upload(&s->heightfield_state.st_i, si);
    if (!rc)
        rc = lq_heightfield_stats(&s->heightfield, &s->heightfield_state.h[s->heightfield_state.i1],
                                  &s->heightfield_state.b, &s->heightfield_state.u,
                                  &s->heightfield_state.w, &s->heightfield_state.st_l,
                                  &s->heightfield_state.st_i, (float)s->scale);
    if (!rc) rc = lq_field_download(&s->heightfield_state.st_l, sl);
    if (!rc) rc = lq_field_download(&s->heightfield_state.st_i, si);
    if (!rc) rc = lq_field_download(&s->heightfield_state.acc_l, al);
    if (!rc) rc = lq_field_download(&s->heightfield_state.acc_i, ai);
    if (rc) return rc;
    float fdmax, fsmax;
    memcpy(&fdmax, &si[LQ_HEIGHTFIELD_ACC_MAXDEPTH], 4);
    memcpy(&fsmax, &si[LQ_HEIGHTFIELD_ACC_MAXSPEED], 4);
    double area = s->g.dx * s->g.dx;
    memset(st, 0, sizeof *st);
    st->liquid_volume = (double)sl[LQ_HEIGHTFIELD_ACC_VOLUME] / s->scale * area;
    st->max_speed = fsmax;
    st->pressure_iterations = -1;
    st->pressure_residual = NAN;
    st->dt_min = st->dt_max = s->dt_prev;
    s->dmax = fdmax;
    double drained = (double)al[LQ_HEIGHTFIELD_ACC_DRAINED] / s->scale * area;
    double lost = (double)al[LQ_HEIGHTFIELD_ACC_LOST] / s->scale * area;
    double out = (double)al[LQ_HEIGHTFIELD_ACC_OPEN_OUT] / s->scale * area;
    double in = (double)al[LQ_HEIGHTFIELD_ACC_OPEN_IN] / s->scale * area;
    double expect = s->v0 + s->added - drained - lost - out + in;
    lq_stats_extra(st, "source_volume", s->added);
    lq_stats_extra(st, "sink_volume", drained);
    lq_stats_extra(st, "volume_lost", lost);
    if (s->open) {
        lq_stats_extra(st, "open_out_volume", out);
        lq_stats_extra(st, "open_in_volume", in);
    }
    double basis = fmax(s->v0 + s->added, 1e-30); /* a dry start has v0 = 0 */
    lq_stats_extra(st, "volume_drift", (st->liquid_volume - expect) / basis);
    lq_stats_extra(st, "wet_cells", si[LQ_HEIGHTFIELD_ACC_WET]);
    lq_stats_extra(st, "max_depth", fdmax);
    lq_stats_extra(st, "adi_iterations", s->iterations);
    lq_stats_extra(st, "courant",
                   sqrt(s->gravity * fdmax) * (s->dt_prev > 0 ? s->dt_prev : 1.0 / s->fps) /
                       s->g.dx);
    /* The fixed-point sums stay below 2^62 while the water is under D_cap deep on
     * average; past a quarter of that budget, coarsen the scale 16x (2^-S quanta are
     * far below float precision either way) and rescale the running counters. */
    if (sl[LQ_HEIGHTFIELD_ACC_VOLUME] > ((lq_long)1 << 60) && !rc) {
        s->scale /= 16;
        al[LQ_HEIGHTFIELD_ACC_DRAINED] /= 16;
        al[LQ_HEIGHTFIELD_ACC_LOST] /= 16;
        al[LQ_HEIGHTFIELD_ACC_OPEN_OUT] /= 16;
        al[LQ_HEIGHTFIELD_ACC_OPEN_IN] /= 16;
        rc = lq_field_upload(&s->heightfield_state.acc_l, al);
        if (rc) return rc;
    }
    if (ai[LQ_HEIGHTFIELD_ACC_BADSTEP] != INT_MAX || si[LQ_HEIGHTFIELD_ACC_BAD] > 0)
        return lq_error(
            LQ_ESIM, "simulation blew up at step %d (t = %.6g s): field h is not finite",
            ai[LQ_HEIGHTFIELD_ACC_BADSTEP] != INT_MAX ? ai[LQ_HEIGHTFIELD_ACC_BADSTEP] : s->step,
            s->t);
    return LQ_OK;
}

/* What sets the step count, for a blow-up's message (framesplit.h). */
static void lq_shallow_why(void *state, char *buf, size_t cap)
{
    const lq_shallow *s = state;
    snprintf(buf, cap, "field h: deepest water %.3g m under gravity %.3g m/s^2", s->dmax,
             s->gravity);
}

static int lq_shallow_advance(void *state, int frame, double t_end, lq_frame_stats *st)
{
    lq_shallow *s = state;
    (void)frame;
    lq_framesplit fr = lq_framesplit_start(s->t, t_end);
    if (fr.span <= 0) return lq_shallow_measure(s, st);
    /* steps enough for a Courant number √(g d_max) Δt / Δx ≤ time.cfl, d_max from the
     * last frame (or shallow.substeps) */
    int n = s->substeps, rc = LQ_OK;
    double c = sqrt(s->gravity * fmax(s->dmax, 0.0)) * fr.span / s->g.dx;
    if (n <= 0)
        rc = lq_framesplit_count_checked(lq_framesplit_count(c / s->cfl, LQ_FRAMESPLIT_ROUNDOFF),
                                         s->step, s->t, s->max_steps, lq_shallow_why, s, &n);
    /* split solves per step: the slowest resolved modes converge by about 1 − 2/(θ²μ) per
     * solve, μ ∝ C², so ⌈C²/30⌉ for the steps' Courant number C (docs/VALIDATION.md: a
     * drop's ring round to 0.1 % at C = 11 with 5; at C = 4.4 one solve is within 0.6 %) */
    double cs = rc || !(c / n < 1e6) ? 0 : c / n; /* (NaN and blown-up depths: 0) */
    s->iterations = s->adi_iterations > 0
                        ? s->adi_iterations
                        : (int)LQ_MAX(1.0, LQ_MIN(64.0, ceil(cs * cs / 30.0 - 1e-9)));
    for (int i = 0; i < n && !rc; i++) {
        double dt = lq_framesplit_fixed(&fr, s->t, i, n); /* the last lands on t_end */
        rc = lq_framesplit_guard(&fr, s->step, s->t, dt, s->max_steps, lq_shallow_why, s);
        LQ_STAGE(rc, s->ctx, "step", lq_shallow_step(s, dt));
        if (!rc) lq_framesplit_took(&fr, dt);
    }
    if (rc) return rc;
    LQ_STAGE(rc, s->ctx, "frame stats", lq_shallow_measure(s, st));
    lq_framesplit_report(&fr, st);
    return rc;
}

static int lq_shallow_view(void *state, const char *name, lq_field_view *v)
{
    lq_shallow *s = state;
    int nx = s->g.nx, nz = s->g.nz, rc = LQ_OK;
    double dx = s->g.dx, ox = s->g.origin[0], oy = s->g.origin[1], oz = s->g.origin[2];
    size_t n = (size_t)nx * (size_t)nz;
    if (strcmp(name, "h") == 0) {
        rc = lq_field_download(&s->heightfield_state.h[s->heightfield_state.i1], s->hv);
        lq_view_hf(v, "h", nx, nz, ox + 0.5 * dx, oy, oz + 0.5 * dx, dx, s->hv);
    } else if (strcmp(name, "b") == 0) {
        rc = lq_field_download(&s->heightfield_state.b, s->bv);
        lq_view_hf(v, "b", nx, nz, ox + 0.5 * dx, oy, oz + 0.5 * dx, dx, s->bv);
    } else if (strcmp(name, "depth") == 0) {
        rc = lq_field_download(&s->heightfield_state.h[s->heightfield_state.i1], s->hv);
        if (!rc) rc = lq_field_download(&s->heightfield_state.b, s->bv);
        for (size_t c = 0; c < n && !rc; c++) s->fv[c] = lq_heightfield_depth(s->hv[c], s->bv[c]);
        lq_view_hf(v, "depth", nx, nz, ox + 0.5 * dx, oy, oz + 0.5 * dx, dx, s->fv);
    } else if (strcmp(name, "u") == 0) {
        rc = lq_field_download(&s->heightfield_state.u, s->uv);
        lq_view_hf(v, "u", nx + 1, nz, ox, oy, oz + 0.5 * dx, dx, s->uv);
    } else if (strcmp(name, "w") == 0) {
        rc = lq_field_download(&s->heightfield_state.w, s->wv);
        lq_view_hf(v, "w", nx, nz + 1, ox + 0.5 * dx, oy, oz, dx, s->wv);
    } else if (strcmp(name, "uc") == 0 || strcmp(name, "wc") == 0) {
        bool is_u = name[0] == 'u';
        rc = lq_field_download(is_u ? &s->heightfield_state.u : &s->heightfield_state.w,
                               is_u ? s->uv : s->wv);
        const float *f = is_u ? s->uv : s->wv;
        for (int k = 0; k < nz && !rc; k++)
            for (int i = 0; i < nx; i++)
                s->fv[i + nx * k] = is_u ? 0.5f * (f[i + (nx + 1) * k] + f[i + 1 + (nx + 1) * k])
                                         : 0.5f * (f[i + nx * k] + f[i + nx * (k + 1)]);
        lq_view_hf(v, is_u ? "uc" : "wc", nx, nz, ox + 0.5 * dx, oy, oz + 0.5 * dx, dx, s->fv);
    } else {
        return lq_error(LQ_EINPUT, "solver 'shallow' has no field '%s'", name);
    }
    return rc;
}

/* --- checkpoints: the host scalars, the rain generators, then h, u, w and the running
 * counters. Scratch fields (the other h, Thomas coefficients, labels, sums) are not
 * state: every step rebuilds them. */
typedef struct lq_shallow_scalars {
    double t, dt_prev, dmax, added, v0, scale;
    int32_t step, nx, nz, nrain;
} lq_shallow_scalars;

static int lq_shallow_save(void *state, FILE *f)
{
    lq_shallow *s = state;
    lq_heightfield_state *hs = &s->heightfield_state;
    lq_shallow_scalars sc;
    memset(&sc, 0, sizeof sc);
    sc.t = s->t;
    sc.dt_prev = s->dt_prev;
    sc.dmax = s->dmax;
    sc.added = s->added;
    sc.v0 = s->v0;
    sc.scale = s->scale;
    sc.step = s->step;
    sc.nx = s->g.nx;
    sc.nz = s->g.nz;
    sc.nrain = s->nrain;
    int rc = lq_checkpoint_put(f, &sc, sizeof sc);
    for (int i = 0; i < s->nrain && !rc; i++) {
        rc = lq_checkpoint_put(f, &s->rain[i].rng.s, sizeof s->rain[i].rng.s);
        if (!rc) rc = lq_checkpoint_put(f, &s->rain[i].next, sizeof s->rain[i].next);
    }
    lq_field *fs[] = {&hs->h[hs->i1], &hs->u, &hs->w, &hs->acc_l, &hs->acc_i};
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
        void *buf = lq_alloc(lq_field_bytes(fs[i]));
        if (!buf) return LQ_ESIM;
        rc = lq_field_download(fs[i], buf);
        if (!rc) rc = lq_checkpoint_put(f, buf, lq_field_bytes(fs[i]));
        free(buf);
    }
    return rc;
}

static int lq_shallow_load(void *state, FILE *f)
{
    lq_shallow *s = state;
    lq_heightfield_state *hs = &s->heightfield_state;
    lq_shallow_scalars sc;
    int rc = lq_checkpoint_get(f, &sc, sizeof sc);
    if (rc) return rc;
    if (sc.nx != s->g.nx || sc.nz != s->g.nz || sc.nrain != s->nrain)
        return lq_error(LQ_EINPUT, "the checkpoint is for a %d x %d grid with %d rain sources",
                        sc.nx, sc.nz, sc.nrain);
    for (int i = 0; i < s->nrain && !rc; i++) {
        rc = lq_checkpoint_get(f, &s->rain[i].rng.s, sizeof s->rain[i].rng.s);
        if (!rc) rc = lq_checkpoint_get(f, &s->rain[i].next, sizeof s->rain[i].next);
    }
    lq_field *fs[] = {&hs->h[hs->i1], &hs->u, &hs->w, &hs->acc_l, &hs->acc_i};
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
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
    s->added = sc.added;
    s->v0 = sc.v0;
    s->scale = sc.scale;
    s->step = sc.step;
    return LQ_OK;
}

const lq_solver_vt lq_shallow_solver = {
    .name = "shallow",
    .fields = lq_shallow_fields,
    .height_field = true,
    .create = lq_shallow_create,
    .destroy = lq_shallow_destroy,
    .advance = lq_shallow_advance,
    .measure = lq_shallow_measure,
    .view = lq_shallow_view,
    .save = lq_shallow_save,
    .load = lq_shallow_load,
};
