/*
 * extrap.h — the launchers of the operation: each dispatches to the reference twin
 * (extrap_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/extrap.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in extrap_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_EXTRAP_H
#define LQ_HOST_EXTRAP_H

#include "ops/pls/extrap_ref.h"

/* layers 4, 60 SOR sweeps at ω 1.7 (div ≤ 1e-5 of the velocity scale in the tests'
 * bands of 4 layers), object at rest, α 0. */
lq_extrap_params lq_extrap_params_default(void);
int lq_extrap_ops_init(lq_extrap_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
/* The same with the scratch lent (views of the caller's fields, which it keeps): bytes[0..3]
 * at least a byte per face of the largest face lattice each (the layer masks of u, v, w and
 * §5.2's band), floats[0..5] a float per face each (object_bc's output and the fronts'
 * lists, §5.2's right-hand side, pressure and colour lists). Each call writes what it reads
 * but for two spans the caller keeps them for: lq_extrap_object_bc's output until
 * lq_extrap_object_restore, and lq_extrap_velocity's layer masks until lq_extrap_divfree. */
int lq_extrap_ops_init_lent(lq_extrap_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                            const lq_field *const bytes[4], const lq_field *const floats[6]);
void lq_extrap_ops_release(lq_extrap_ops *o);
/* The valid mask starts at the liquid faces (not solid, φ ≤ 0 beside them); prm->layers
 * times, each face not yet valid with valid same-component neighbours becomes their
 * mean. Liquid faces are never changed. The kernels visit only each layer's front
 * (extrap_cell.h), listed in the object_bc output (tmp) and §5.2's scratch: call
 * lq_extrap_object_restore before the next lq_extrap_velocity. */
int lq_extrap_velocity(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *phi,
                       const lq_field *sdf, const lq_extrap_params *prm);
/* §5.5.1 at every closed face (an object cell, sdf ≤ 0, on either side): the
 * extrapolated velocity blended with the object's by α, its normal part set to the
 * object's where the liquid would flow into the object (always with prm->hold_normal).
 * The object's velocity: ob[0..2] per face in the u, v, w layouts (a moving object,
 * host/ops/pls/plsobject.h), or prm->obj_vel when ob is NULL. Call after lq_extrap_velocity;
 * host/ops/pls/poisson.c keeps these faces fixed (hard control) and takes their flux into its
 * right-hand side. phi (may be NULL) is for §5.5.2 separation with moving objects (pair
 * it with lq_poisson_params.object_air): the normal part is then the object's at every
 * face with an object cell still liquid (φ ≤ 0) on either side, the inequality only at
 * faces beside object cells the liquid left (φ > 0), which the projection treats as air
 * (kernels/pls/extrap_cell.h lq_extrap_held). */
int lq_extrap_object_bc(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                        const lq_field *phi, const lq_field *sdf, const lq_field *ob,
                        const lq_extrap_params *prm);
/* Puts the last lq_extrap_object_bc's values back at the held faces (every closed face;
 * with phi only those lq_extrap_held names: the others are open in the projection) after a
 * pass such as the body force that changed them; the other faces are left as they are. */
int lq_extrap_object_restore(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                             const lq_field *phi, const lq_field *sdf);
/* §5.2: projects the extrapolated band onto zero discrete divergence; band cells with no
 * path of open faces to a p = 0 cell (air sealed by liquid and walls) keep the plain
 * extrapolated velocity (extrap_cell.h). */
int lq_extrap_divfree(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *phi,
                      const lq_field *sdf, const lq_extrap_params *prm);

#endif
