/*
 * macbody.h — buoyant rigid bodies of the `mac` solver (Foster & Metaxas 1996 §5,
 * eq. 13–16): boxes, balls, ellipsoids and cans (cylinders) sampled by nodes, pushed by
 * the liquid's pressure gradient and damped toward its velocity, moved by host/body.c.
 *
 * Method. Each body is a fixed lattice of nodes in body coordinates, at about half a
 * cell (δx/2) inside the shape, every node with volume dV = V / N (V the shape's exact
 * volume, N its nodes) and mass ρ_body dV. Per step the kernel (kernels/macbody.cl; math
 * and boundary rules in kernels/macbody_cell.h) gives every node
 *   f = −ρ_l ∇p dV + ρ_l c dV (u_fluid − u_node)   (eq. 13–14; eq. 16's damping, linear)
 * (the damping only in FULL/SURFACE cells) and sums force and torque per body in a fixed
 * order; the host adds m g (eq. 13's gravity term, at the centre of mass) and integrates
 * eq. 16 with lq_body_step (semi-implicit Euler, angular momentum state). One-way
 * coupling as the paper: the bodies do not change the liquid.
 *
 * Collisions (the paper's [9]: here impulses on the centre, host/body.c): the domain's
 * wall layer with the shape's exact extents (a can: its bounding box), static SOLID
 * cells inside the domain (a ball exactly; other shapes by their world bounding box,
 * separated along an open face of the cell), other bodies by bounding spheres
 * (lq_body_collide_pair; for a can, its box's). No spin is exchanged in contacts.
 *
 * Invariant: the force kernel and its twin (host/ref/macbody.c) agree bit for bit; the
 * per-body sums add the group rows in group order in double on the host for both.
 */
#ifndef LQ_HOST_MACBODY_H
#define LQ_HOST_MACBODY_H

#include <stdio.h>

#include "body.h"
#include "field.h"
#include "macbody_cell.h"
#include "scene.h"
#include "solver.h"

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
    int ngroups;          /* node work-groups (nodes padded to LQ_MB_LOCAL per body) */
    double origin[3];     /* m, the grid's lower corner */
    double dx, rho;       /* m cell; kg/m³ liquid density */
    lq_field nodes;       /* float bx by bz dV per node (body frame) */
    lq_field nbody;       /* int body per node, −1 padding */
    lq_field bodies;      /* float LQ_MB_B_STRIDE per body, uploaded per step */
    lq_field out;         /* float LQ_MB_OUT per group */
    float *hb, *hout;     /* host copies of bodies and out */
    unsigned char *solid; /* nx ny nz: 1 in static SOLID cells (walls and obstacles) */
    lq_object_record *rec;
} lq_macbody_set;

typedef struct lq_macbody_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel forces;
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

/* Reference twin (host/ref/macbody.c): the group rows of the force kernel. */
void lq_macbody_ref_forces(const lq_field *nodes, const lq_field *nbody, const lq_field *bodies,
                           int ngroups, const lq_field *p, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags, float idx, float idy,
                           float idz, lq_field *out);

#endif
