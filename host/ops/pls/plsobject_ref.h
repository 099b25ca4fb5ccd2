/*
 * plsobject_ref.h — moving rigid objects of the `pls` solver (Rasmussen et al. 2004 §5.5):
 * analytic shapes (box, sphere, cylinder) and meshes (a signed-distance grid in their own
 * frame, made once at load and sampled trilinearly) whose pose is keyframed, turned into
 * the solver's object signed distance `sdf` at the cell centres and the object velocity
 * on the faces every step, and the level-set boundary conditions of §5.5.2. The math is
 * kernels/pls/plsobject_cell.h; each operation has an OpenCL launcher (host/ops/pls/plsobject.c,
 * kernels/pls/plsobject.cl) and a reference twin with the same arguments
 * (host/ops/pls/plsobject_ref.c).
 *
 * Motion (scene key obstacles[].motion.keys): rows [t, tx, ty, tz, rx, ry, rz] (s, m,
 * degrees), times increasing. At time t the object is its rest shape rotated about its
 * rest centre c0 by R = Rz(rz) Ry(ry) Rx(rx) (x first), then translated by (tx, ty, tz):
 * x = c0 + T + R (x0 − c0). Between keys the seven numbers are interpolated linearly
 * (`linear`) or with a smoothstep in each segment (`smooth`: zero velocity at every
 * key); before the first key and after the last the pose is held. The velocity is the
 * exact time derivative of that pose: v = dT/dt at the centre, ω = ṙz e_z + ṙy Rz e_y +
 * ṙx Rz Ry e_x (rad/s); at a key the segment after it counts. In 2D (nz = 1) only rz may
 * be non-zero.
 *
 * Where each operation sits in a step (the pls solver's stages, docs/ARCHITECTURE.md):
 * - lq_plsobject_strat_label (§5.5.3, pls.object_stratify) before the particles and φ
 *   are advected;
 * - lq_plsobject_update: the objects at the step's end, sdf and o->vel[] (object velocity
 *   per face); lq_plsobject_extrap_phi: §5.5.2, φ extrapolated into the objects;
 * - lq_plsobject_strat_apply: §5.5.3, the liquid particles labelled before the advection
 *   (with the step's start sdf) kept no closer to the objects than they were;
 *   lq_plsobject_kill_air and lq_plsparticles_delete(..., phi, sdf, ...): air particles
 *   within a cell of an object, and all inside one, deleted;
 * - after φ is corrected and reinitialised and the velocity advected: lq_extrap_velocity
 *   (prm.closed = 1), lq_plsobject_close (with separation), lq_extrap_object_bc: §5.5.1 at
 *   the closed faces (uext from the liquid alone); lq_plsforce_body_force and
 *   lq_extrap_object_restore: gravity elsewhere; lq_poisson_step(..., sdf, ...): the
 *   closed faces' flux in its right-hand side; lq_extrap_velocity;
 * - lq_plsobject_separate: §5.5.2, uext and the pressure just solved, before the next φ
 *   advection; then lq_extrap_divfree (prm.closed: object faces open, object cells p = 0)
 *   and lq_extrap_object_bc(..., sep, sdf, ...) for the next advection;
 * with pls.object_separation (the default): sep = phi, prm.hold_normal = 0 and
 * lq_poisson_params.object_air = 1 (object cells with φ > 0 are air in the projection);
 * without: sep = NULL, hold_normal = 1, no lq_plsobject_separate.
 */
#ifndef LQ_HOST_PLSOBJECT_REF_H
#define LQ_HOST_PLSOBJECT_REF_H

#include <stdbool.h>

#include "core/kernel.h"
#include "pls/plsobject_cell.h"

typedef struct lq_plsobject_object {
    int kind;       /* 0 box, 1 sphere, 3 cylinder, 4 mesh (plsobject_cell.h) */
    int axis;       /* cylinder axis */
    double size[3]; /* box half sizes; sphere r; cylinder r, height (m) */
    double c0[3];   /* rest centre (m, grid-relative) */
    int nkeys;      /* rows of keys */
    double *keys;   /* nkeys × 7: t, tx, ty, tz, rx, ry, rz (s, m, degrees) */
    bool smooth;    /* smoothstep between keys */
    /* kind 4: the mesh's signed distance on a grid in its local frame (cell size h,
     * cell-centred samples, x fastest), lower corner glo relative to c0 */
    float *grid;
    int gdim[3];
    double glo[3];
    size_t goff; /* its first float in the ops' grids buffer (lq_plsobject_add) */
} lq_plsobject_object;

typedef struct lq_plsobject_ops {
    lq_ctx *ctx;
    int nx, ny, nz, n;
    float h, far, band; /* cell size; sdf clamp (m); object velocity written within band */
    /* OpenCL, set by the solver: the particles' live count the device holds (element 0);
     * the particle launches then stop there too, their n being a bound. NULL: n exact */
    const lq_field *count;
    lq_plsobject_object obj[LQ_PLSOBJECT_MAX];
    float desc_host[LQ_PLSOBJECT_MAX * LQ_PLSOBJECT_STRIDE];
    lq_field desc;  /* the descriptors at the last lq_plsobject_update's time */
    lq_field grids; /* the meshes' sdf grids, one after another (at the first update) */
    size_t grid_floats;
    lq_field vel[3];   /* object velocity per face: u, v, w layouts (m/s) */
    lq_field valid[2]; /* uchar per cell: §5.5.2 extrapolation masks */
    cl_program program;
    lq_kernel sdf, velk, separate, pinit, player, close, shift, kill, slabel, sapply;
} lq_plsobject_ops;

/* Reference twins (host/ops/pls/plsobject_ref.c); the descriptors are already in o->desc. */
void lq_plsobject_ref_update(lq_plsobject_ops *o, const lq_field *sdf_static, lq_field *sdf);
void lq_plsobject_ref_separate(lq_plsobject_ops *o, lq_field *phi, const lq_field *u,
                               const lq_field *v, const lq_field *w, const lq_field *sdf,
                               const lq_field *p);
void lq_plsobject_ref_extrap_phi(lq_plsobject_ops *o, lq_field *phi, const lq_field *sdf,
                                 int layers);
void lq_plsobject_ref_kill_air(lq_plsobject_ops *o, lq_field *part, int n, const lq_field *sdf,
                               float d);
void lq_plsobject_ref_strat_label(lq_plsobject_ops *o, const lq_field *part, lq_field *lab, int n,
                                  const lq_field *sdf, const lq_field *phi, float band, float dt);
void lq_plsobject_ref_strat_apply(lq_plsobject_ops *o, lq_field *part, const lq_field *lab, int n,
                                  const lq_field *sdf, float dt);
void lq_plsobject_ref_shift(lq_plsobject_ops *o, lq_field *out, const lq_field *sdf, float d);
void lq_plsobject_ref_close(lq_plsobject_ops *o, lq_field *phi, const lq_field *u,
                            const lq_field *v, const lq_field *w, const lq_field *sdf);

#endif
