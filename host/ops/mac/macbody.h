/*
 * macbody.h — buoyant rigid bodies of the `mac` solver (Foster & Metaxas 1996 §5,
 * eq. 13–16): boxes, balls, ellipsoids and cans (cylinders) sampled by nodes, pushed by
 * the liquid's pressure gradient and damped toward its velocity, moved by host/world/body.c.
 *
 * Method. Each body is a fixed lattice of nodes in body coordinates, at about half a
 * cell (δx/2) inside the shape, every node with volume dV = V / N (V the shape's exact
 * volume, N its nodes) and mass ρ_body dV. Per step the kernel (kernels/mac/macbody.cl; math
 * and boundary rules in kernels/mac/macbody_cell.h) gives every node
 *   f = −ρ_l ∇p dV + ρ_l c dV (u_fluid − u_node)   (eq. 13–14; eq. 16's damping, linear)
 * (the damping only in FULL/SURFACE cells) and sums force and torque per body in a fixed
 * order; the host adds m g (eq. 13's gravity term, at the centre of mass) and integrates
 * eq. 16 with lq_body_step (semi-implicit Euler, angular momentum state). One-way
 * coupling as the paper: the bodies do not change the liquid.
 *
 * Two-way coupling (objects[].coupling two-way; beyond the paper). A two-way body owns
 * the cells whose centres it covers: they are SOLID with owner[c] = body + 1 (an int
 * field per cell the solver allocates, zeroed at start), so the momentum step leaves
 * them and the pressure iteration holds their faces fixed; lq_macbody_face_velocity
 * sets those faces to the body's rigid velocity — a moving wall that pushes the liquid
 * (the pressure solve makes it divergence-free around the body). The liquid's pressure
 * is carried into the owned cells (lq_macbody_body_pressure, a harmonic extension) and
 * lq_macbody_forces_owned takes owned cells as liquid for ∇p, so the buoyancy and the
 * pressure drag reach the body through the same node sums as one-way. The solver's step
 * (Foster & Metaxas §6) calls, per step:
 *   lq_macbody_mark                 before the classification of step 3, then
 *   lq_macbody_markers              (marker tracker) moves the markers the bodies ran
 *                                   over to their wakes;
 *   lq_macbody_face_velocity        after step 4's boundaries, before the pressure solve;
 *   lq_macbody_face_velocity        after step 7's boundaries, before step 8 (advection);
 *   lq_macbody_body_pressure        after step 8, then lq_macbody_forces_owned (owner),
 *                                   lq_macbody_integrate.
 * One-way bodies in the same set are untouched by these passes.
 *
 * Collisions (the paper's [9]: here impulses on the centre, host/world/body.c): the domain's
 * wall layer with the shape's exact extents (a can: its bounding box), static SOLID
 * cells inside the domain (a ball exactly; other shapes by their world bounding box,
 * separated along an open face of the cell), two cans as capsules (the axis segment
 * shortened by the radius at each end, swollen by the radius), other pairs by bounding
 * spheres (lq_body_collide_pair; for a can, its box's). No spin is exchanged in contacts.
 *
 * Invariant: the force kernel and its twin (host/ops/mac/macbody_ref.c) agree bit for bit; the
 * per-body sums add the group rows in group order in double on the host for both.
 */
#ifndef LQ_HOST_MACBODY_H
#define LQ_HOST_MACBODY_H

#include <stdio.h>

#include "world/body.h"
#include "core/field.h"
#include "mac/macbody_cell.h"
#include "scene/scene.h"
#include "core/solver_api.h"

/* Shapes: LQ_SHAPE_SPHERE, LQ_SHAPE_ELLIPSOID, LQ_SHAPE_BOX (shape.h) and a can. */
#define LQ_MACBODY_CYLINDER 3 /* axis along body y; half = (r, half height, r) */

/* One body as a scene describes it. */
typedef struct lq_macbody_desc {
    int shape;                             /* LQ_SHAPE_* or LQ_MACBODY_CYLINDER */
    double half[3];                        /* m: radii, half edges; can (r, h/2, r) */
    double density;                        /* kg/m³ */
    double pos[3], vel[3], q[4], omega[3]; /* world; q (w x y z) body → world */
    double damping;                        /* c, 1/s (eq. 16), per unit displaced mass */
    double restitution;                    /* [0, 1] */
    int two_way;                           /* 1: the body should push the liquid back */
    char name[48];
    float rgb[3];
} lq_macbody_desc;

typedef struct lq_macbody_item {
    lq_body body; /* the dynamics (a can is a box there, with a can's mass and inertia) */
    int shape;
    double damping;
    int two_way;
    char name[48];
    float rgb[3];
    int group0, ngroups, nnodes; /* its work-groups in the node array; its real nodes */
    double force[3], torque[3];  /* N, N m: the liquid's, last lq_macbody_forces */
    double vsub;                 /* m³: volume of its nodes in liquid cells */
    double frame_fy, frame_t;    /* ∫ F_y dt, ∫ dt since the last records call */
} lq_macbody_item;

/* All bodies of a run: the node arrays on the backend and the bodies on the host. */
typedef struct lq_macbody_set {
    lq_ctx *ctx;
    int n, nx, ny, nz;
    lq_macbody_item *b;
    int ngroups;          /* node work-groups (nodes padded to LQ_MACBODY_LOCAL per body) */
    double origin[3];     /* m, the grid's lower corner */
    double dx, rho;       /* m cell; kg/m³ liquid density */
    lq_field nodes;       /* float bx by bz dV per node (body frame) */
    lq_field nbody;       /* int body per node, −1 padding */
    lq_field bodies;      /* float LQ_MACBODY_B_STRIDE per body, uploaded per step */
    lq_field out;         /* float LQ_MACBODY_OUT per group */
    float *hb, *hout;     /* host copies of bodies and out */
    unsigned char *solid; /* nx ny nz: 1 in static SOLID cells (walls and obstacles) */
    int ntwo_way;         /* bodies with two-way coupling */
    lq_field pscratch;    /* float per cell: the pressure extension's ping-pong (two-way) */
    lq_object_record *rec;
} lq_macbody_set;

typedef struct lq_macbody_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel forces, mark, face, bpress, markers;
} lq_macbody_ops;

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
int lq_macbody_from_scene(lq_macbody_set *s, lq_ctx *ctx, const lq_scene *sc, int nx, int ny,
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

/* Reference twins (host/ops/mac/macbody_ref.c): the group rows of the force kernel (owner NULL:
 * none) ... */
void lq_macbody_ref_forces(const lq_field *nodes, const lq_field *nbody, const lq_field *bodies,
                           int ngroups, const lq_field *p, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags, const lq_field *owner,
                           float idx, float idy, float idz, lq_field *out);
/* ... and of the two-way passes (bodies: the uploaded rows; h: the cell size, m). */
void lq_macbody_ref_mark(lq_field *flags, const lq_field *static_flags, lq_field *owner,
                         const lq_field *bodies, int nbodies, float h);
void lq_macbody_ref_face(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                         const lq_field *owner, const lq_field *bodies, float h);
void lq_macbody_ref_markers(lq_field *pos, int n, const lq_field *owner, const lq_field *bodies,
                            float idx, float idy, float idz);
void lq_macbody_ref_body_pressure(const lq_field *src, lq_field *dst, const lq_field *flags,
                                  const lq_field *owner, int first, int last);

#endif
