/*
 * body.h — rigid and scripted objects of the splash solver (O'Brien & Hodgins 1995 §4):
 * spheres, ellipsoids and boxes that fall, hit the water and float, and scripted
 * objects that follow a keyframed path (path.h). The solver computes the water's force
 * and torque on each body; this module integrates the motion, answers geometric
 * queries and resolves collisions with the domain and between bodies.
 *
 * World axes: y is up. SI units. Orientation q (w, x, y, z) is unit, body → world;
 * rot = R(q) row-major, world = pos + rot · body.
 *
 * Invariants: mass > 0 and inertia > 0 for a free body; q unit after every call; a
 * sphere has half = (r, r, r); a scripted body (path != NULL) is placed by its path and
 * behaves as infinitely heavy (kinematic) in collisions.
 */
#ifndef LQ_BODY_H
#define LQ_BODY_H

#include "scene/path.h"
#include "core/shape.h"

typedef struct lq_body {
    int shape;                  /* LQ_SHAPE_* */
    double half[3];             /* m, body frame (sphere: r r r) */
    double mass;                /* kg */
    double inertia[3];          /* kg m², principal moments about the body axes */
    double pos[3], vel[3];      /* centre (m) and its velocity (m/s), world */
    double q[4];                /* orientation quaternion (w, x, y, z), body → world, unit */
    double omega[3];            /* angular velocity, rad/s, world */
    double restitution;         /* for collisions, [0, 1]; lq_body_init sets 0.5 */
    double friction;            /* Coulomb coefficient for wall contacts; init sets 0.3 */
    const struct lq_path *path; /* non-NULL: scripted, follows the path (forces ignored) */
    double offset[3];           /* scripted: the body's centre in the path's frame, m */
    double q_local[4];          /* scripted: the body's orientation in the path's frame */
} lq_body;

/* A free body of the given shape and density (kg/m³): mass = density · volume and the
 * principal moments of the solid shape (ellipsoid m/5 (b² + c²), ..., box m/3 (b² + c²),
 * ... with half extents a, b, c). A sphere takes r = half[0]. vel and q may be NULL
 * (rest, identity); q is normalised. omega = 0. */
void lq_body_init(lq_body *b, int shape, const double half[3], double density, const double pos[3],
                  const double vel[3], const double q[4]);

/* Makes b scripted: it follows path p with its centre at `offset` and orientation
 * `q_local` (NULL: identity) in the path's frame, and is placed at time t. */
void lq_body_attach(lq_body *b, const struct lq_path *p, const double offset[3],
                    const double q_local[4], double t);

/* Scripted body: pos, q, vel, omega from the path at time t (vel = v_path + ω × r with
 * r = R_path · offset). No-op for a free body. */
void lq_body_follow(lq_body *b, double t);

double lq_body_volume(const lq_body *b);                /* m³: 4/3 π abc, box 8 abc */
void lq_body_rotation(const lq_body *b, double rot[9]); /* body → world, row-major */
void lq_body_view(const lq_body *b, float r, float g, float bl, lq_view_object *v);
/* m: the radius of the smallest sphere about the centre that holds the body. */
double lq_body_bounding_radius(const lq_body *b);

/* The vertical line at world (x, z) meets the body for y in [*y_bottom, *y_top];
 * both NAN when it misses. Formulation (the kernel's copy must match):
 *
 *   R = rot (row-major), c = pos. In the body frame the line is o + s u, y = c_y + s:
 *     u_j = R[3 + j]                                  (Rᵀ e_y: row 1 of R)
 *     o_j = R[j] (x − c_x) + R[6 + j] (z − c_z)       (Rᵀ (x − c_x, 0, z − c_z))
 *   Sphere/ellipsoid, radii a_j:
 *     A = Σ u_j²/a_j², B = Σ o_j u_j/a_j², C = Σ o_j²/a_j² − 1, D = B² − A C;
 *     miss if D < 0, else s = (−B ∓ √D)/A (bottom, top).
 *   Box, half extents a_j (slab test): s_lo = −∞, s_hi = +∞; for each j:
 *     if |u_j| < 1e-12: miss if |o_j| > a_j (the line is parallel to that slab);
 *     else s1 = (−a_j − o_j)/u_j, s2 = (a_j − o_j)/u_j, s_lo = max(s_lo, min(s1, s2)),
 *          s_hi = min(s_hi, max(s1, s2));
 *     miss if s_lo > s_hi.
 *   y_bottom = c_y + s_lo, y_top = c_y + s_hi (tangent lines give a zero length). */
void lq_body_column(const lq_body *b, double x, double z, double *y_bottom, double *y_top);

/* Advances the body by dt to time t_new. force and torque (N, N m; world frame, torque
 * about the centre of mass; NULL for none) and gravity (m/s², world; NULL for none).
 *
 * Free body, semi-implicit (symplectic) Euler:
 *   v += dt (g + F/m);  x += dt v;
 *   L = I_w ω + dt τ, with I_w = R diag(I) Rᵀ at the start of the step: the angular
 *   momentum, not ω, is the state that τ changes, which carries the gyroscopic term
 *   −ω × (I_w ω) of Euler's equations exactly (torque free, L is constant to rounding);
 *   q ← exp(½ ω_m dt) ⊗ q with ω_m = I_w⁻¹ L at the orientation half a step ahead
 *   (midpoint rule: second order in the rotation), renormalised;
 *   ω = I_w⁻¹ L at the new orientation.
 * Scripted body: lq_body_follow(b, t_new); force, torque and gravity are ignored. */
void lq_body_step(lq_body *b, double dt, double t_new, const double force[3],
                  const double torque[3], const double gravity[3]);

/* Eq. 17 of the paper: the largest upward force the water may put on a body of mass m
 * in a step of length t (> 0), f_max = m (2 (z − s0 − ṡ t)/t² − g): the force that would
 * bring the body from height s0 (m) with vertical velocity ṡ (m/s) exactly to the
 * surface height z (m) at the end of the step, under eq. 16
 * s = s0 + ṡ t + ½ (g + f/m) t².
 * Sign convention: every quantity is a signed component along +y (up): ṡ < 0 while
 * falling, g is gravity's y component (−9.81 for the default gravity), and the result
 * is the upward force (N). The caller clamps the water's force to [0, max(0, f_max)]
 * (f_max < 0 means the body would not reach the surface in this step). */
double lq_body_fmax(double m, double z_surface, double s0, double sdot, double g, double t);

/* Half extent (m) of the body along world axis k (0, 1, 2): the exact support
 * function, a sphere r, an ellipsoid sqrt(Σ_j (R_kj a_j)²), a box Σ_j |R_kj| a_j. */
double lq_body_extent(const lq_body *b, int k);

/* Keeps a free body inside the world box [lo, hi] (walls and the floor at lo[1]): along
 * each axis where the body's extent (lq_body_extent) crosses a wall, the centre is moved
 * back to touch it and, if the body moves into the wall, the normal velocity is
 * reflected with the body's restitution and the tangential velocity of the centre is
 * reduced by Coulomb friction, at most friction · (1 + e) |v_n| and never past zero.
 * The contact acts on the centre only (no spin is exchanged). Scripted bodies are left
 * alone. */
void lq_body_collide_box(lq_body *b, const double lo[3], const double hi[3]);

/* Keeps a free body above a height-field ground (issue 18: bodies passed through the
 * splash solver's terrain): `ground` holds nx × nz heights (m, x fastest) at the
 * centres of cells dx wide from (ox, oz), read as a bilinear surface. The body's bottom
 * (lq_body_column) is compared with the ground at 3 × 3 points of every cell under its
 * bounding sphere (its centre and quarter points), refined between them; where it lies
 * deepest below the ground the centre is moved out (straight up on ground gentler than
 * 45°, along the normal on steeper ground; three passes), and if it moves into the ground
 * the normal velocity is reflected
 * with the body's restitution (none when it is slower than `rest`, m/s: a body resting
 * on a slope does not chatter) and the tangential velocity reduced by Coulomb friction as
 * in lq_body_collide_box, so a body stays put on slopes up to atan(friction). No spin is
 * exchanged. Returns 1 if it touched. Scripted bodies are left alone. */
int lq_body_collide_ground(lq_body *b, const float *ground, int nx, int nz, double dx, double ox,
                           double oz, double rest);

/* The ground of lq_body_collide_ground, indexed for bodies that cover many cells: a max
 * pyramid (level 0: the highest ground a cell's samples read, the cell and its eight
 * neighbours; each level up the largest of 2 × 2), built once for a ground that does not
 * change (it keeps the pointer; about 4/3 nx nz floats). lq_body_collide_ground_indexed
 * gives lq_body_collide_ground's result bit for bit, visiting only the cells where the
 * body may reach the deepest point. Build returns 0, or −1 when out of memory. */
#define LQ_BODY_GROUND_LEVELS 32
typedef struct lq_body_ground_index {
    const float *ground;
    int nx, nz, levels;
    int w[LQ_BODY_GROUND_LEVELS];      /* blocks per row at each level */
    float *max[LQ_BODY_GROUND_LEVELS]; /* m: the highest ground each block's samples read */
} lq_body_ground_index;
int lq_body_ground_index_build(lq_body_ground_index *gi, const float *ground, int nx, int nz);
void lq_body_ground_index_free(lq_body_ground_index *gi);
int lq_body_collide_ground_indexed(lq_body *b, const lq_body_ground_index *gi, double dx, double ox,
                                   double oz, double rest);

/* Collides two bodies approximated by their bounding spheres (lq_body_bounding_radius):
 * conservative for ellipsoids and boxes, which are pushed apart when the spheres
 * overlap even if the shapes do not touch. On overlap the centres are moved apart along
 * the line of centres, the penetration split by inverse mass, and if they approach, an
 * impulse along that line with e = min of the two restitutions conserves momentum.
 * Contact acts through both centres, so no spin is exchanged. A scripted body has
 * inverse mass 0 (kinematic); two scripted bodies are left alone. */
void lq_body_collide_pair(lq_body *a, lq_body *b);

#endif
