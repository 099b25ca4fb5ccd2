/*
 * macbody_ref.h — buoyant rigid bodies of the `mac` solver (Foster & Metaxas 1996 §5,
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
 *   lq_macbody_mark           before the classification of step 3, then
 *   lq_macbody_markers        (marker tracker) moves the markers the bodies ran
 *                             over to their wakes;
 *   lq_macbody_face_velocity  after step 4's boundaries, before the pressure solve;
 *   lq_macbody_face_velocity  after step 7's boundaries, before step 8 (advection);
 *   lq_macbody_body_pressure  after step 8, then lq_macbody_forces_owned (owner),
 *                             lq_macbody_integrate.
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
#ifndef LQ_HOST_MACBODY_REF_H
#define LQ_HOST_MACBODY_REF_H

#include <stdio.h>

#include "world/body.h"
#include "core/kernel.h"
#include "mac/macbody_cell.h"
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
    lq_kernel forces, mark, face, bpress, markers;
} lq_macbody_ops;

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
