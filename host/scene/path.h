/*
 * path.h — keyframed paths for scripted objects (the splash solver's diver, O'Brien &
 * Hodgins 1995 §5: a rigid set of ellipsoids following a trajectory).
 *
 * A path is a list of keys (t, position, orientation) with strictly increasing times,
 * at least two of them, every number finite and every key quaternion unit (keys are
 * normalised when the path is made).
 *
 * Position: Catmull–Rom with the key times as knots, i.e. the cubic Hermite curve
 * through the keys whose tangent at key i is the derivative at t_i of the parabola
 * through keys i−1, i, i+1:
 *
 *     m_i = (h1 d0 + h0 d1) / (h0 + h1),  h0 = t_i − t_{i−1}, h1 = t_{i+1} − t_i,
 *                                          d0 = (p_i − p_{i−1})/h0, d1 = (p_{i+1} − p_i)/h1
 *
 * (the non-uniform Catmull–Rom of Barry & Goldman with knots t_i; the uniform
 * Catmull–Rom when keys are evenly spaced in time; not centripetal — the path is a
 * function of time, so the knots are the times). The end keys take the one-sided
 * derivative of the same parabola (the secant when there are only two keys), so keys
 * sampled from any quadratic trajectory (e.g. ballistic flight) are reproduced exactly.
 * The curve is C1 in time; velocity is its analytic derivative.
 *
 * Orientation: slerp between consecutive keys along the shortest arc, linear in time,
 * so the angular velocity (world frame) is constant within a segment:
 * ω = axis · angle / (t_{i+1} − t_i) of the rotation q_{i+1} ⊗ q_i⁻¹.
 *
 * Outside [t_first, t_last] the path holds the end key: position and orientation
 * clamped, velocity and angular velocity zero.
 */
#ifndef LQ_PATH_H
#define LQ_PATH_H

typedef struct lq_path {
    int n;     /* keys, >= 2 */
    double *t; /* s, n, strictly increasing */
    double *p; /* m, 3n, world positions */
    double *q; /* 4n, unit quaternions (w, x, y, z), path frame → world; signs chosen so
                * that consecutive keys have q_i · q_{i+1} >= 0 (the same rotations) */
    double *m; /* m/s, 3n, Catmull–Rom tangents: the path's velocity at each key */
} lq_path;

/* Makes a path from n keys: t[n], pos[3n], q[4n] (NULL: identity throughout). The
 * arrays are copied and the quaternions normalised. LQ_OK or LQ_EINPUT (fewer than two
 * keys, times not strictly increasing, a non-finite number, a zero quaternion), with
 * the message naming the key. */
int lq_path_from_keys(lq_path **out, int n, const double *t, const double *pos, const double *q);

/* Reads a CSV path: '#' starts a comment that runs to the end of the line; blank lines
 * are skipped; the first other line is the header naming the columns, in any order:
 * t, x, y, z (required) and qw, qx, qy, qz (all four or none; none means identity).
 * Each later line holds one key. Errors are one line "FILE:LINE:COL: message"
 * (LQ_EINPUT), except an unopenable file: "FILE: cannot open: strerror". */
int lq_path_read_csv(lq_path **out, const char *file);

void lq_path_free(lq_path *p);

/* Position (m), orientation (unit, w x y z), velocity (m/s) and angular velocity
 * (rad/s, world) at time t. Any output may be NULL. */
void lq_path_eval(const lq_path *p, double t, double pos[3], double q[4], double vel[3],
                  double omega[3]);

/* --- quaternions (w, x, y, z), shared with body.c -------------------------------- */

/* out = a ⊗ b (apply b, then a); out may alias a or b. */
void lq_quat_mul(const double a[4], const double b[4], double out[4]);
/* Rotation matrix of unit q, row-major: world = rot · body. */
void lq_quat_to_rot(const double q[4], double rot[9]);
/* q ← exp(½ w) ⊗ q: rotates q by the rotation vector w (rad, world frame) and
 * renormalises. */
void lq_quat_rotate_by(double q[4], const double w[3]);

#endif
