/*
 * plsobject.h — the launchers of the operation: each dispatches to the reference twin
 * (plsobject_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plsobject.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in plsobject_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_PLSOBJECT_H
#define LQ_HOST_PLSOBJECT_H

#include "ops/pls/plsobject_ref.h"
#include "scene/config.h"

/* Bytes of device memory lq_plsobject_ops_init allocates. */
size_t lq_plsobject_ops_bytes(int nx, int ny, int nz);
int lq_plsobject_ops_init(lq_plsobject_ops *o, lq_ctx *ctx, int nx, int ny, int nz, float h,
                          float far);
void lq_plsobject_ops_release(lq_plsobject_ops *o);
/* Reads obstacle q of the scene cfg (a box, sphere or cylinder with motion keys) into
 * *ob (keys allocated; free them with free(ob->keys)). origin: the grid's origin (the
 * object is stored grid-relative). LQ_EINPUT with the key's file:line:col on bad keys
 * (row length, times not increasing, rotations about x or y in 2D). A mesh (OBJ, with
 * its scale, rotate and translate) becomes a signed distance on a grid of cell size h
 * around it in its own frame: exact distances to its triangles (brute force, so meant for
 * small meshes), the sign from lq_voxel_mesh_fill; its rest centre is its bounds' centre. */
int lq_plsobject_read(const lq_config *cfg, const lq_config_obstacle *q, const double origin[3],
                      bool flat, double h, lq_plsobject_object *ob);
/* Frees what lq_plsobject_read allocated (keys, grid). */
void lq_plsobject_object_free(lq_plsobject_object *ob);
/* Adds an object (copied; the ops own its keys afterwards). */
int lq_plsobject_add(lq_plsobject_ops *o, const lq_plsobject_object *ob);
/* The pose at time t: centre c, rotation R (row-major, x_world = c + R l), velocity v of
 * the centre and angular velocity w. */
void lq_plsobject_pose(const lq_plsobject_object *ob, double t, double c[3], double R[9],
                       double v[3], double w[3]);
/* The descriptors at time t; sdf = min(sdf_static (may be NULL), the objects), clamped
 * to ±far; o->vel the object velocity on the faces. */
int lq_plsobject_update(lq_plsobject_ops *o, double t, const lq_field *sdf_static, lq_field *sdf);
/* §5.5.2 separation (φ reset to |sdf| in object cells the liquid leaves), in place;
 * uses o->vel of the last update. p (may be NULL: the paper's test alone): the last
 * projection's kinematic pressure; a cell is reset only where the liquid beside it is in
 * tension (plsobject_cell.h lq_plsobject_tension). */
int lq_plsobject_separate(lq_plsobject_ops *o, lq_field *phi, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *sdf, const lq_field *p);
/* §5.5.1 no inflow: object cells with φ > 0 the liquid beside them flows into (u, v, w:
 * uext, before lq_extrap_object_bc) get φ = −φ, closed in the projection
 * (plsobject_cell.h lq_plsobject_close_cell); uses o->vel of the last update. */
int lq_plsobject_close(lq_plsobject_ops *o, lq_field *phi, const lq_field *u, const lq_field *v,
                       const lq_field *w, const lq_field *sdf);
/* out = sdf − d (cells): the surface d (m) outside the objects, for lq_plsparticles_delete (the
 * particles within d of an object deleted, §5.5.3). */
int lq_plsobject_shift(lq_plsobject_ops *o, lq_field *out, const lq_field *sdf, float d);
/* §5.5.3: the air particles (signed radius > 0) among the first n of part (the
 * particle buffer of host/ops/pls/plsparticles.h, LQ_PLSPARTICLES_STRIDE floats each) whose
 * trilinear sdf is below d (m) are killed (radius 0); lq_plsparticles_delete(..., sdf, ...) then
 * drops them with every particle inside an object. Liquid particles beside an object are kept (they
 * keep a film on it). */
int lq_plsobject_kill_air(lq_plsobject_ops *o, lq_field *part, int n, const lq_field *sdf, float d);
/* §5.5.3 stratified liquid particles (the math and how it maps to the paper:
 * plsobject_cell.h lq_plsobject_strat_label_one). lq_plsobject_strat_label, before the particles
 * move (sdf and o->vel of the step's start): for each of the first n particles of part, a record of
 * LQ_PLSPARTICLES_STRIDE floats in lab (capacity ≥ n; the particle state's buffer not in use,
 * part[1 − cur], serves: nothing else touches it before lq_plsparticles_delete) labels the liquid
 * ones on the liquid side (φ ≤ 0 at them) with 0 ≤ sdf < band (m; the solver: h) with their sdf d0.
 * dt: the step. lq_plsparticles_advect and lq_plsobject_update (sdf and o->vel at t + dt) in
 * between; then lq_plsobject_strat_apply moves each labelled particle away from the object: no
 * approach relative to the object along its normal, and sdf ≥ d0 again (within the projection's
 * LQ_PLSOBJECT_STRAT_ITERS Newton steps: 2e-4 h measured; exact at a plane; not reachable where the
 * gap between two objects is narrower than 2 d0). */
int lq_plsobject_strat_label(lq_plsobject_ops *o, const lq_field *part, lq_field *lab, int n,
                             const lq_field *sdf, const lq_field *phi, float band, float dt);
int lq_plsobject_strat_apply(lq_plsobject_ops *o, lq_field *part, const lq_field *lab, int n,
                             const lq_field *sdf, float dt);
/* §5.5.2 φ extrapolated into the object cells, `layers` cells deep. */
int lq_plsobject_extrap_phi(lq_plsobject_ops *o, lq_field *phi, const lq_field *sdf, int layers);

#endif
