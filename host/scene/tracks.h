/*
 * tracks.h — keyframed control particles (Rasmussen et al. 2004 §4.1: "spline-based
 * interpolation of keyframed position and velocity values is used to determine particle
 * positions during the entire animation"), read from a CSV file an animation package can
 * write, and scalar channels keyed over time.
 *
 * The file (`control[].tracks.file`): '#' starts a comment; blank lines are skipped; the
 * first other line names the columns in any order: id, t, x, y, z (required: an integer,
 * s, m) and optionally vx, vy, vz (all three, m/s), value, strength, radius (m). Every
 * later line is one key of track `id`; a track's keys come in strictly increasing t (its
 * lines may interleave with other tracks'); the tracks are ordered by increasing id.
 *
 * Interpolation. Positions and velocities: the Catmull–Rom spline of scene/path.h (the
 * cubic Hermite through the keys whose tangent at a key is the slope of the parabola
 * through it and its neighbours, the key times as knots), whose analytic derivative is the
 * track's own velocity. Scalars (value, strength, radius, and the `*_keys` of the scene):
 * the monotone cubic Hermite of Fritsch & Carlson (tangents by the weighted harmonic mean
 * of the neighbouring secants, 0 at a local extremum; the ends take their one secant), so
 * a channel never leaves the range of its two neighbouring keys: a fade from 1 to 0 does
 * not overshoot, a viscosity falling from 100 to 0.01 never goes negative. Outside its
 * keys a track or channel holds its first or last key (velocity of motion 0); a track with
 * one key stands still.
 *
 * Errors: one line "FILE:LINE:COL: message" (LQ_EINPUT), COL the byte where the field
 * starts; an unopenable file "FILE: cannot open: strerror".
 */
#ifndef LQ_TRACKS_H
#define LQ_TRACKS_H

#include <stdbool.h>

#include "scene/path.h"

/* A scalar keyed over time (monotone cubic Hermite); n = 0: none. */
typedef struct lq_curve {
    int n;
    double *t, *v, *m; /* s, value, slope at each key */
} lq_curve;

/* Makes a curve from n ≥ 1 keys t[i], v[i] (copied; times strictly increasing, finite).
 * LQ_OK, LQ_ESIM, or LQ_EINPUT with "key K: ..." (the caller adds the place). */
int lq_curve_make(lq_curve *c, int n, const double *t, const double *v);
/* From pairs [t0, v0, t1, v1, ...] (npairs numbers, even). */
int lq_curve_from_pairs(lq_curve *c, int nnumbers, const double *pairs);
double lq_curve_eval(const lq_curve *c, double t);
void lq_curve_free(lq_curve *c);

typedef struct lq_track {
    long id;
    int n;            /* keys */
    double t0, p0[3]; /* the first key (a one-key track is there always) */
    lq_path *path;    /* positions, n ≥ 2 (else NULL) */
    lq_path *vel;     /* keyed velocity as a "path" of velocities, n ≥ 2 and vx, vy, vz */
    double v0[3];     /* the first key's velocity (vx, vy, vz) */
    lq_curve value, strength, radius; /* n = 0 when the file has no such column */
} lq_track;

typedef struct lq_tracks {
    int n; /* tracks, by increasing id */
    lq_track *track;
    bool has_vel, has_value, has_strength, has_radius; /* the file's columns */
} lq_tracks;

/* A track at time t: position (m), the velocity of its motion (m/s: the spline's
 * derivative), and its keyed velocity, value, strength, radius (those the file has). */
typedef struct lq_track_at {
    double pos[3], motion[3], vel[3];
    double value, strength, radius;
} lq_track_at;

int lq_tracks_read_csv(lq_tracks **out, const char *file);
void lq_tracks_free(lq_tracks *t);
void lq_tracks_eval(const lq_tracks *t, int i, double time, lq_track_at *at);

#endif
