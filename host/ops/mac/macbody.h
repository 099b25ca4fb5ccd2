/*
 * macbody.h — the launchers of the operation: each dispatches to the reference twin
 * (macbody_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/macbody.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in macbody_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MACBODY_H
#define LQ_HOST_MACBODY_H

#include "ops/mac/macbody_ref.h"
#include "scene/config.h"

int lq_macbody_ops_init(lq_macbody_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macbody_ops_release(lq_macbody_ops *o);
/* Builds the nodes of n bodies for an nx × ny × nz grid of cell dx whose lower corner is
 * at `origin` (world), liquid density rho (kg/m³; the `mac` solver's p is kinematic).
 * flags: the static cell kinds (LQ_MAC_*, host memory, nx ny nz) whose SOLID cells the
 * bodies collide with; NULL: the wall layer only. n may be 0. */
int lq_macbody_init(lq_macbody_set *s, lq_ctx *ctx, int n, const lq_macbody_desc *d, int nx, int ny,
                    int nz, double dx, const double origin[3], double rho,
                    const unsigned char *flags);
/* The same from the scene's `objects` list (shapes sphere, ellipsoid, box, cylinder;
 * keys density, velocity, rotation, spin, drag, restitution, coupling, name, color).
 * LQ_EINPUT at objects.N.path_file (no scripted bodies in `mac` yet; `release` is a
 * splash-only key the loader refuses). */
int lq_macbody_from_scene(lq_macbody_set *s, lq_ctx *ctx, const lq_config *cfg, int nx, int ny,
                          int nz, double dx, const double origin[3], double rho,
                          const unsigned char *flags);
void lq_macbody_release(lq_macbody_set *s);
/* §5, eq. 13–16 without gravity: the liquid's force and torque on every body from p
 * (kinematic, m²/s², cells), u, v, w (m/s, faces) and flags (uchar per cell), into
 * s->b[i].force, torque, vsub. All fields on the ops' backend and grid. */
int lq_macbody_forces(lq_macbody_ops *o, lq_macbody_set *s, const lq_field *p, const lq_field *u,
                      const lq_field *v, const lq_field *w, const lq_field *flags);
/* The same with the two-way bodies' cells: owner (int per cell, lq_macbody_mark) makes
 * owned cells liquid for ∇p (their p from lq_macbody_body_pressure), and a node in an
 * owned cell with p > 0 counts as submerged (vsub; it gets no damping: the liquid there
 * moves with the body). owner NULL: lq_macbody_forces. */
int lq_macbody_forces_owned(lq_macbody_ops *o, lq_macbody_set *s, const lq_field *p,
                            const lq_field *u, const lq_field *v, const lq_field *w,
                            const lq_field *flags, const lq_field *owner);
/* Two-way, before the marker classification (§6 step 3): per cell, a static fixed kind
 * (static_flags: walls, obstacles, sources — SOLID, INFLOW, OUTFLOW; uchar per cell) is
 * kept (owner 0); a cell whose centre is inside a two-way body (pose of the bodies now)
 * becomes SOLID with owner = body + 1; a cell a body has left (owner ≠ 0) becomes EMPTY
 * with owner 0, for the classification to refill. flags: uchar, owner: int per cell. */
int lq_macbody_mark(lq_macbody_ops *o, lq_macbody_set *s, lq_field *flags,
                    const lq_field *static_flags, lq_field *owner);
/* Two-way, right after lq_macbody_mark (marker tracker only): every marker (pos: x y z
 * per particle, m, grid-relative; the first n) in the front half of the body owning its
 * cell (relative to the body's velocity) is mirrored to the back half: the liquid the
 * body's front runs over is given back to its wake (the advection leaves markers in
 * SOLID cells where they are; left there, they would come back as liquid where the
 * body was — the swept volume gained — and retired, the vacated cells would be air
 * bubbles inside the liquid). No marker is created or lost. See lq_macbody_marker_one. */
int lq_macbody_markers(lq_macbody_ops *o, lq_macbody_set *s, lq_field *pos, int n,
                       const lq_field *owner);
/* Two-way: every face between an owned cell and a cell that is not SOLID (and between
 * two cells of one body) gets the normal part of that body's rigid velocity
 * v + ω × (x_face − x_cm) at the face centre. After the boundary op (which zeroes the
 * normal faces of SOLID cells), before the pressure solve and again at step 7. */
int lq_macbody_face_velocity(lq_macbody_ops *o, lq_macbody_set *s, lq_field *u, lq_field *v,
                             lq_field *w, const lq_field *flags, const lq_field *owner);
/* Two-way: p (kinematic) of every owned cell = the mean of p over its neighbours that are
 * FULL/SURFACE or owned cells reached in an earlier pass (Jacobi passes, ping-pong
 * through s->pscratch; `passes` rounded up to even, at least 2; cells never reached get
 * 0). Other cells keep p. After the pressure solve, before lq_macbody_forces_owned. */
int lq_macbody_body_pressure(lq_macbody_ops *o, lq_macbody_set *s, lq_field *p,
                             const lq_field *flags, const lq_field *owner, int passes);
/* Eq. 16: every body by dt under the last forces and gravity g (m/s², world), then the
 * collisions (walls, static SOLID cells, pairs). t_new: the time at the step's end. */
void lq_macbody_integrate(lq_macbody_set *s, double dt, double t_new, const double g[3]);
/* A step (s) the explicit body update stays stable at: ≤ 0.5 / the fastest rate of the
 * damping (c ρ_l / ρ_b) and of the heave (√(g / draft), with draft ≥ δx/2); INFINITY
 * without bodies. */
double lq_macbody_dt_limit(const lq_macbody_set *s, double g);
/* For the solver's `objects` callback: one record per body (force: the liquid's mean
 * vertical force since the previous call, N). Valid until the next call. */
int lq_macbody_records(lq_macbody_set *s, const lq_object_record **rec, int *n);
/* Checkpoints: the bodies' motion state (pos, q, vel, omega, frame sums). */
int lq_macbody_save(const lq_macbody_set *s, FILE *f);
int lq_macbody_load(lq_macbody_set *s, FILE *f);

#endif
