/*
 * solver_api.h — what the run loop (host/cli/run.c), `liquidcl diff` and the tests need from
 * a solver: create it from a scene on a backend, advance it frame by frame, and hand
 * out host copies of its fields. Solvers never write files; the run loop does.
 */
#ifndef LQ_SOLVER_API_H
#define LQ_SOLVER_API_H

#include <stdio.h>

#include "core/field.h"
#include "core/shape.h"

/* The typed scene a solver is created from (scene/config.h); the interface needs only its
 * name. */
typedef struct lq_config lq_config;

/* Per-frame numbers for stats.jsonl (DESIGN.md) plus solver-specific extras. */
#define LQ_STATS_EXTRA 32
typedef struct lq_frame_stats {
    int steps;
    double dt_min, dt_max;
    double liquid_volume;     /* m³ */
    double max_speed;         /* m/s */
    int pressure_iterations;  /* -1: the solver has no pressure solve (written as null) */
    double pressure_residual; /* NaN: none */
    int nextra;
    struct {
        const char *key;
        double value;
    } extra[LQ_STATS_EXTRA];
} lq_frame_stats;

void lq_stats_extra(lq_frame_stats *st, const char *key, double value);

/* A host copy of one field with its place in the world (legacy VTK conventions:
 * dims x fastest, origin = position of element 0, spacing per axis). */
typedef struct lq_field_view {
    const char *name;
    int dims[3];
    double origin[3], spacing[3];
    const float *data; /* owned by the solver, valid until the next call */
} lq_field_view;

/* Points a solver writes as particles/NNNN.ply: n points, nprops float columns (the
 * first three x, y, z), valid until the next call. */
#define LQ_POINTS_MAX_PROPS 8
typedef struct lq_points_view {
    int n, nprops;
    const char *const *names;
    const float *columns[LQ_POINTS_MAX_PROPS];
} lq_points_view;

/* One rigid object as the outputs see it (objects.csv, meshes, previews). */
typedef struct lq_object_record {
    const char *name;
    double pos[3], q[4], vel[3], omega[3]; /* m, unit (w x y z), m/s, rad/s */
    double force;                          /* N: the water's vertical force, frame mean */
    lq_view_object view;
} lq_object_record;

/* Fills v for an nx × nz height-field array (dims [nx, 1, nz]), its element 0 at
 * (ox, oy, oz), spacing dx on every axis. */
void lq_view_hf(lq_field_view *v, const char *name, int nx, int nz, double ox, double oy, double oz,
                double dx, const float *data);

typedef struct lq_solver_vt {
    const char *name;          /* the scene's `solver:` word */
    const char *const *fields; /* names output.fields may ask for, NULL-terminated */
    bool height_field;         /* surface is h over ground b (fields "h", "b") */
    bool phi_distance;         /* its "phi" is a signed distance in m (output.vdb) */
    int (*create)(lq_ctx *ctx, const lq_config *cfg, void **state);
    void (*destroy)(void *state);
    /* Advances to t_end (the end of `frame`), filling st. */
    int (*advance)(void *state, int frame, double t_end, lq_frame_stats *st);
    /* Statistics of the current state without advancing (frame 0). */
    int (*measure)(void *state, lq_frame_stats *st);
    /* A host copy of a named field (from `fields`, or "h"/"b"/"uc"/"wc" for height
     * fields: uc, wc cell-centred velocities); LQ_EINPUT if unknown. */
    int (*view)(void *state, const char *name, lq_field_view *v);
    /* The whole state needed to continue bit for bit, to / from a checkpoint file
     * (host/io/checkpoint.c frames it). load: LQ_EINPUT when it does not fit this run. */
    int (*save)(void *state, FILE *f);
    int (*load)(void *state, FILE *f);
    /* Optional (NULL: none): particles to write, and rigid objects. */
    int (*points)(void *state, lq_points_view *pv);
    int (*objects)(void *state, const lq_object_record **rec, int *n);
    /* Optional (NULL: none): texture particles (Rasmussen et al. 2004 §6), columns x y z
     * rest_x rest_y rest_z (world, m), valid until the next call; n = 0 when the scene
     * has none. */
    int (*texture)(void *state, lq_points_view *pv);
} lq_solver_vt;

#endif
