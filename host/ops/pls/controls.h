/*
 * controls.h — a scene's control particles on the host (Rasmussen et al. 2004 §4.1):
 * the `control[]` items made into particle sets once (generators: one particle per
 * lattice point inside a box or ball, per cell on or inside an OBJ mesh, per `spacing`
 * along a keyframed curve (moving at the curve's keyed velocity), one `point`;
 * or the keyframed tracks of a CSV file, scene/tracks.h), and evaluated at any time into
 * the records the device bins (kernels/pls/plscontrol_cell.h): positions (a track's
 * Catmull–Rom spline, or a generated set moved rigidly by its `path_file`), velocities
 * (the item's or the track's, plus the particles' own motion with `follow`), values and
 * strengths (constants, a track's columns, or the item's keys: monotone cubics).
 *
 * "All of the particle attributes are determined prior to animating the liquid" (§4.1):
 * every particle of a run is made here, at the solver's creation; a step evaluates them
 * once on the host (thousands cost microseconds each) and the device does everything per
 * cell. The records' order is the items' order, each item's particles in a fixed order
 * (lattice order; mesh cells by index; tracks by id), so the binning and every sum are
 * the same from run to run.
 *
 * Checked here (one line at the scene position, exit 2): axis not zero, keys in pairs
 * with increasing times, the track and mesh files, a particle count within reason.
 */
#ifndef LQ_HOST_CONTROLS_H
#define LQ_HOST_CONTROLS_H

#include "ops/pls/plscontrol_ref.h"
#include "scene/config.h"
#include "scene/tracks.h"

typedef struct lq_controls_item {
    int kind, shape, falloff; /* LQ_PLSCONTROL_* */
    double radius, half;      /* m */
    double axis[3];           /* unit (world) */
    double velocity[3];       /* m/s */
    bool follow;
    double value, strength;
    lq_curve value_c, strength_c; /* n = 0: the constants */
    lq_path *path;                /* rigid motion of a generated set (NULL: none) */
    double q0inv[4], p0[3];       /* the path's first key, inverted / its position */
    int n;                        /* particles */
    double *x0;                   /* 3n world positions at rest (generators) */
    float *ax0;                   /* 3n axes (mesh surface normals), NULL: `axis` */
    float *mv0;                   /* 3n own velocities at rest (a curve's), NULL: none */
    lq_tracks *tracks;            /* keyframed particles (NULL: a generator) */
} lq_controls_item;

typedef struct lq_controls {
    int nitems, total;
    lq_controls_item *items;
    unsigned kinds; /* 1 << LQ_PLSCONTROL_* of every item */
    bool animated;  /* some record changes with time */
    float *rec;     /* total records of LQ_PLSCONTROL_STRIDE floats */
    double h, origin[3];
    int nz;
} lq_controls;

#define LQ_CONTROLS_MAX 50000000 /* particles in one scene */

/* Makes the particle sets of cfg->control for a grid of cell h whose lower corner is
 * origin (nz = 1: 2D, the particles in its plane). LQ_OK, LQ_EINPUT (one line), LQ_ESIM. */
int lq_controls_make(lq_controls *c, const lq_config *cfg, int nz, double h,
                     const double origin[3]);
/* The records at time t (s) into c->rec. */
void lq_controls_eval(lq_controls *c, double t);
void lq_controls_free(lq_controls *c);

#endif
