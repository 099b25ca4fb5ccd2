/*
 * config.h — the typed scene: a scene file decoded once into plain C structs, which the
 * solvers, the world set-up and the run loop read instead of dotted paths.
 *
 * lq_config_load() loads and validates the scene (host/scene/scene.c: the key table of
 * host/scene/scene_keys.c drives parsing, validation and messages), then decodes every
 * key into the structs below. Every value comes through the table: a key the scene
 * does not hold takes the table's default, so defaults live in the table alone. An
 * optional key with no default reads as 0 (or NULL) with its `has_*` flag false.
 *
 * Enum words become C values; each decoder call names the words it expects in the
 * table's order, and a table that says otherwise stops the decoder (abort) on the first
 * scene it reads, so tests/scene/test_config.c catches it. Number lists keep their
 * length (`n*`), entries past it are 0.
 *
 * Positions. The fields `at_*` are the places in the scene (the file's line and column,
 * or the --set that made the value) that solver-side checks report at with
 * lq_config_error(); NULL when the key is absent (the message then names the file). For
 * list items, `at` is the item itself ("liquid.3") and `at_kind` its kind's value
 * ("liquid.3.box").
 */
#ifndef LQ_CONFIG_H
#define LQ_CONFIG_H

#include <stdbool.h>

#include "core/bandgeom.h"
#include "scene/scene.h"

typedef struct lq_config_grid {
    int size[3], nsize; /* cells: [nx, nz] (height fields) or [nx, ny, nz] */
    double cell;        /* m */
    double origin[3];   /* m: [x, z] or [x, y, z] as written (norigin) */
    int norigin;        /* 2 or 3 */
    const lq_scene_node *at_size;
} lq_config_grid;

typedef struct lq_config_time {
    int frames;
    int max_steps; /* steps one frame may take */
    double fps;    /* 1/s */
    double cfl;
    const lq_scene_node *at_cfl;
} lq_config_time;

/* --- liquid[] ------------------------------------------------------------------------ */

typedef enum lq_config_liquid_kind {
    LQ_CONFIG_LIQUID_BOX,
    LQ_CONFIG_LIQUID_SPHERE,
    LQ_CONFIG_LIQUID_LEVEL,
    LQ_CONFIG_LIQUID_HUMP,
    LQ_CONFIG_LIQUID_WAVE,
    LQ_CONFIG_LIQUID_TILT,
    LQ_CONFIG_LIQUID_PARABOLOID
} lq_config_liquid_kind;

typedef struct lq_config_liquid {
    lq_config_liquid_kind kind;
    const char *kind_word; /* "box", ... */
    bool has_viscosity;
    double viscosity; /* m²/s (pls) */
    struct {
        double min[3], max[3], velocity[3]; /* m, m, m/s */
        const lq_scene_node *at_velocity;
    } box;
    struct {
        double center[3], radius, velocity[3];
    } sphere;
    double level; /* m */
    struct {
        double center[2], sigma, height;
    } hump;
    struct {
        double amplitude;
        int mode;
        int axis; /* 0: x, 2: z */
        const lq_scene_node *at_axis;
    } wave;
    struct {
        double slope[2];
        bool has_center;
        double center[2];
    } tilt;
    struct {
        double center[2], curvature;
    } paraboloid;
    const lq_scene_node *at, *at_kind;
} lq_config_liquid;

/* --- obstacles[] --------------------------------------------------------------------- */

typedef enum lq_config_obstacle_kind {
    LQ_CONFIG_OBSTACLE_BOX,
    LQ_CONFIG_OBSTACLE_SPHERE,
    LQ_CONFIG_OBSTACLE_CYLINDER,
    LQ_CONFIG_OBSTACLE_MASK,
    LQ_CONFIG_OBSTACLE_MESH
} lq_config_obstacle_kind;

typedef struct lq_config_obstacle {
    lq_config_obstacle_kind kind;
    const char *kind_word;
    struct {
        double min[3], max[3];
        const lq_scene_node *at_max;
    } box;
    struct {
        double center[3], radius;
    } sphere;
    struct {
        double center[3], radius, height;
        int axis; /* 0, 1, 2 */
    } cylinder;
    struct {
        const char *file; /* as written: one file or a %d pattern */
        bool has_count;
        int count, first;
        double min[3], max[3];
        const lq_scene_node *at_file, *at_count, *at_max;
    } mask;
    struct {
        const char *file; /* resolved against the scene's folder */
        double scale[3];
        int nscale; /* 1 or 3 */
        double rotate[3], translate[3];
        const lq_scene_node *at_scale;
    } mesh;
    bool noslip; /* boundary: no-slip */
    bool has_motion;
    struct {
        const double *keys; /* nkeys numbers: rows of 7 */
        int nkeys;
        bool smooth; /* interpolate: smooth */
        const lq_scene_node *at, *at_keys;
    } motion;
    const lq_scene_node *at, *at_kind;
} lq_config_obstacle;

/* --- terrain[] ----------------------------------------------------------------------- */

typedef enum lq_config_terrain_kind {
    LQ_CONFIG_TERRAIN_PLANE,
    LQ_CONFIG_TERRAIN_RAMP,
    LQ_CONFIG_TERRAIN_BOX,
    LQ_CONFIG_TERRAIN_GAUSSIAN,
    LQ_CONFIG_TERRAIN_BOWL,
    LQ_CONFIG_TERRAIN_HEIGHTMAP
} lq_config_terrain_kind;

enum { LQ_CONFIG_BOWL_RADIAL, LQ_CONFIG_BOWL_X, LQ_CONFIG_BOWL_Z };

typedef struct lq_config_terrain {
    lq_config_terrain_kind kind;
    const char *kind_word;
    struct {
        double height, slope[2];
    } plane;
    struct {
        double from[2], to[2], height[2];
        const lq_scene_node *at_to;
    } ramp;
    struct {
        double min[3], max[3];
    } box;
    struct {
        double center[2], sigma, height;
    } gaussian;
    struct {
        double center[2], radius, depth;
        int axis; /* LQ_CONFIG_BOWL_* */
    } bowl;
    struct {
        const char *file; /* resolved */
        double min, max;
        bool has_origin, has_size;
        double origin[2], size[2];
        const lq_scene_node *at_file, *at_size;
    } heightmap;
    bool add;    /* combine: add (else max) */
    bool noslip; /* boundary: no-slip */
} lq_config_terrain;

/* --- sources[] ----------------------------------------------------------------------- */

typedef enum lq_config_source_kind {
    LQ_CONFIG_SOURCE_RAIN,
    LQ_CONFIG_SOURCE_DROP,
    LQ_CONFIG_SOURCE_INFLOW,
    LQ_CONFIG_SOURCE_DRAIN,
    LQ_CONFIG_SOURCE_WAVEMAKER,
    LQ_CONFIG_SOURCE_PIPE,
    LQ_CONFIG_SOURCE_INLET,
    LQ_CONFIG_SOURCE_OUTLET
} lq_config_source_kind;

/* The walls of sources[].wavemaker.wall and sources[].pipe.wall. */
enum { LQ_CONFIG_WALL_X_MIN, LQ_CONFIG_WALL_X_MAX, LQ_CONFIG_WALL_Z_MIN, LQ_CONFIG_WALL_Z_MAX };
/* The words of `walls` (lq_config.wall[]). */
enum {
    LQ_CONFIG_WALL_FREE_SLIP,
    LQ_CONFIG_WALL_NO_SLIP,
    LQ_CONFIG_WALL_OPEN,
    LQ_CONFIG_WALL_ABSORBING
};

/* A value over time (sources[].inlet, pls.viscosity_change; scene/timefn.h). */
typedef enum lq_config_profile_kind {
    LQ_CONFIG_PROFILE_CONSTANT,
    LQ_CONFIG_PROFILE_DECAY,
    LQ_CONFIG_PROFILE_WAVE,
    LQ_CONFIG_PROFILE_TABLE
} lq_config_profile_kind;

typedef struct lq_config_profile {
    lq_config_profile_kind profile;
    double rate, amplitude, omega;
    bool has_table;
    const double *table; /* ntable numbers: t, factor pairs */
    int ntable;
    const lq_scene_node *at, *at_table; /* the profile's mapping, its table */
} lq_config_profile;

/* A disc of water added or taken (sources[].inflow, sources[].drain). */
typedef struct lq_config_disc {
    double center[2], radius; /* m */
    double rate;              /* m³/s */
    double start, stop;       /* s */
} lq_config_disc;

/* The place of a sources[].inlet or outlet: its shape written as an obstacle's (kind box
 * from `min` and `max`, sphere, cylinder or mesh; `at_kind` the shape's key), or (`pls`
 * outlets) a level. Every shape key the item holds is decoded; a solver takes exactly one
 * (nshapes counts them: min and max together are one). */
typedef struct lq_config_region {
    lq_config_obstacle shape;
    int nshapes;
    bool has_min, has_max, has_level;
    double level; /* m */
    const lq_scene_node *at_level;
} lq_config_region;

typedef struct lq_config_source {
    lq_config_source_kind kind;
    const char *kind_word;
    struct {
        double rate, radius;
        bool has_region_min, has_region_max;
        double region_min[2], region_max[2];
        double start, stop;
        int seed;
    } rain;
    struct {
        double center[2], radius, time;
    } drop;
    lq_config_disc inflow, drain;
    struct {
        int wall; /* LQ_CONFIG_WALL_* */
        double width, amplitude, period, start, stop;
    } wavemaker;
    struct {
        int wall;              /* LQ_CONFIG_WALL_* */
        const char *wall_word; /* "x_min", ... for messages */
        bool has_span;
        double span[2];
        double rate, amplitude, period, start, stop;
        const lq_scene_node *at_span;
    } pipe;
    struct {
        double min[3], max[3], velocity[3];
        lq_config_region region;
        bool has_flow;
        double flow;             /* m³/s (pls) */
        lq_config_profile speed; /* profile, rate, amplitude, omega, table */
        bool has_particles;
        double particles; /* 1/s */
        double start, stop;
        bool then_outflow; /* then: outflow */
        const lq_scene_node *at_velocity;
    } inlet;
    struct {
        double min[3], max[3];
        lq_config_region region;
        double start, stop; /* s (pls) */
    } outlet;
    const lq_scene_node *at, *at_kind;
} lq_config_source;

/* --- objects[] ----------------------------------------------------------------------- */

typedef enum lq_config_object_kind {
    LQ_CONFIG_OBJECT_SPHERE,
    LQ_CONFIG_OBJECT_ELLIPSOID,
    LQ_CONFIG_OBJECT_BOX,
    LQ_CONFIG_OBJECT_CYLINDER
} lq_config_object_kind;

typedef struct lq_config_object {
    lq_config_object_kind kind;
    const char *kind_word;
    double center[3]; /* every kind has one */
    double radius;    /* sphere, cylinder */
    double radii[3];  /* ellipsoid */
    double size[3];   /* box */
    double height;    /* cylinder */
    const char *name; /* NULL when absent */
    double density, velocity[3], rotation[3], spin[3], release, drag, restitution;
    bool two_way;          /* coupling: two-way */
    const char *path_file; /* resolved; NULL when absent */
    double color[3];
    const lq_scene_node *at_kind, *at_path_file;
} lq_config_object;

/* --- control[] (pls: Rasmussen et al. 2004 §4) ------------------------------------------- */

typedef enum lq_config_control_kind {
    LQ_CONFIG_CONTROL_BOX,
    LQ_CONFIG_CONTROL_SPHERE,
    LQ_CONFIG_CONTROL_MESH,
    LQ_CONFIG_CONTROL_POINT,
    LQ_CONFIG_CONTROL_TRACKS,
    LQ_CONFIG_CONTROL_CURVE
} lq_config_control_kind;

/* control[].property, .shape, .falloff */
enum {
    LQ_CONFIG_CONTROL_VELOCITY,
    LQ_CONFIG_CONTROL_VISCOSITY,
    LQ_CONFIG_CONTROL_PHI,
    LQ_CONFIG_CONTROL_DIVERGENCE,
    LQ_CONFIG_CONTROL_ERASER
};
enum { LQ_CONFIG_CONTROL_SPHERE_SHAPE, LQ_CONFIG_CONTROL_CYLINDER_SHAPE };
enum { LQ_CONFIG_FALLOFF_SMOOTH, LQ_CONFIG_FALLOFF_HAT, LQ_CONFIG_FALLOFF_BOX };

typedef struct lq_config_control {
    lq_config_control_kind kind;
    const char *kind_word;
    struct {
        double min[3], max[3];
        const lq_scene_node *at_max;
    } box;
    struct {
        double center[3], radius;
    } sphere;
    struct {
        const char *file; /* resolved */
        bool inside;      /* fill: inside (else surface) */
        double scale[3];
        int nscale; /* 1 or 3 */
        double rotate[3], translate[3];
    } mesh;
    double position[3]; /* point */
    const char *tracks; /* tracks.file, resolved */
    const char *curve;  /* curve.file, resolved */
    int property;       /* LQ_CONFIG_CONTROL_VELOCITY, ... */
    int shape;          /* LQ_CONFIG_CONTROL_*_SHAPE */
    int falloff;        /* LQ_CONFIG_FALLOFF_* */
    bool has_radius, has_length, has_spacing;
    double radius, length, spacing; /* m */
    double axis[3], velocity[3];    /* -, m/s */
    bool follow;
    double value, strength;
    const double *value_keys, *strength_keys; /* pairs (t, v); NULL when absent */
    int nvalue_keys, nstrength_keys;          /* numbers, not pairs */
    const char *path_file;                    /* resolved; NULL when absent */
    const lq_scene_node *at, *at_kind, *at_axis, *at_value, *at_value_keys, *at_strength_keys;
    const lq_scene_node *at_path_file, *at_tracks, *at_mesh_file;
} lq_config_control;

/* --- the solvers' settings ------------------------------------------------------------ */

typedef struct lq_config_spray {
    bool present; /* the scene has a `spray` mapping */
    double threshold, rate, volume, drag;
    int max_particles, seed;
    double wind[3], radius, spread, separation;
} lq_config_spray;

typedef struct lq_config_foam {
    bool enabled;
    double life, rise;
} lq_config_foam;

typedef struct lq_config_shallow {
    double damping, friction, theta, thin_film, absorbing_width;
    int substeps, adi_iterations;
    int line_solve; /* 0 auto, 1 thomas, 2 pcr (LQ_HEIGHTFIELD_SOLVE_*) */
    double dry_epsilon;
    bool advection, volume_correction, has_theta;
} lq_config_shallow;

typedef struct lq_config_splash {
    double density, conductance, diagonal, damping, viscosity, contact_stiffness;
    bool impact_surface; /* impact: surface (else heuristic) */
    int volume_passes, substeps;
    const lq_scene_node *at_substeps;
} lq_config_splash;

enum { LQ_CONFIG_SURFACE_MARKERS, LQ_CONFIG_SURFACE_HEIGHTFIELD, LQ_CONFIG_SURFACE_CHAINS };

typedef struct lq_config_mac {
    bool preset_paper; /* mac.preset: paper (else liquidcl), already applied below */
    double viscosity, upwind;
    bool has_upwind;                   /* mac.upwind written in the scene */
    int advection;                     /* mac.advection: 0 donor, 1 limited */
    const lq_scene_node *at_advection; /* where mac.advection was written, or NULL */
    int pressure;                      /* mac.pressure: 0 red-black, 1 jacobi, 2 mgpcg */
    bool has_beta0;
    double beta0;
    int max_sweeps;
    double epsilon;
    struct {
        double mean, amplitude, depth, half_wavelength, omega;
        int axis; /* 0: x, 2: z */
        const lq_scene_node *at_amplitude;
    } forcing;
    int surface;                /* LQ_CONFIG_SURFACE_* */
    bool surface_pressure_fill; /* surface_pressure: fill (else centre) */
    bool has_surface_solve;     /* written in the scene */
    bool surface_solve;
    bool fill_cavities;
    bool air_pockets_gas; /* air_pockets: gas (else atmospheric) */
    const lq_scene_node *at_air_pockets;
    bool surface_solve_ghost_fill; /* surface_solve_ghost: fill (else empty) */
    int particles;
    const lq_scene_node *at_surface, *at_surface_solve;
} lq_config_mac;

enum { LQ_CONFIG_PLS_PCG, LQ_CONFIG_PLS_SOR, LQ_CONFIG_PLS_JACOBI };

/* pls.velocity_advection */
enum { LQ_CONFIG_ADVECT_PLAIN, LQ_CONFIG_ADVECT_MACCORMACK, LQ_CONFIG_ADVECT_BFECC };

enum { LQ_CONFIG_TEXTURE_XY, LQ_CONFIG_TEXTURE_XZ, LQ_CONFIG_TEXTURE_YZ };

/* pls.texture: texture particles (Rasmussen et al. §6). */
typedef struct lq_config_texture {
    bool on; /* the map is present */
    int per_cell, neighbours;
    double band; /* cells */
    bool project;
    double checker;    /* m (0: automatic) */
    const char *image; /* a PNG, NULL: the checker */
    int plane;         /* LQ_CONFIG_TEXTURE_* */
} lq_config_texture;

/* pls.window: the moving grid window (Rasmussen et al. §5.3). */
enum { LQ_CONFIG_WINDOW_LIQUID, LQ_CONFIG_WINDOW_PATH };
typedef struct lq_config_window {
    bool on;           /* the map is present */
    int follow;        /* pls.window.follow: LQ_CONFIG_WINDOW_* */
    int margin, every; /* cells, steps */
    bool has_domain;
    double domain_min[3], domain_max[3]; /* m */
    const double *path; /* pls.window.path: npath numbers, rows [t, x, y, z] (NULL: none) */
    int npath;
    const lq_scene_node *at, *at_margin, *at_domain, *at_follow, *at_path;
} lq_config_window;

typedef struct lq_config_pls {
    double cfl;
    int pressure;           /* LQ_CONFIG_PLS_* */
    int velocity_advection; /* LQ_CONFIG_ADVECT_* */
    double tolerance;
    int max_iterations, particles_per_cell;
    double band;
    int reseed_every, max_particles;
    bool divfree;
    bool volume_correction; /* opt-in global volume correction */
    double viscosity;
    int viscosity_precond; /* LQ_VISCOSITY_PRECOND_* order: jacobi, mg */
    lq_config_profile viscosity_change;
    bool reinit_pde;         /* reinit: pde (else fim) */
    double reinit_keep;      /* interface cells with ||∇φ| − 1| ≤ this keep φ */
    double reinit_threshold; /* reinitialise when the band's mean ||∇φ| − 1| exceeds this */
    double object_friction;
    bool object_separation, object_stratify;
    bool enslave_pockets; /* §5.6 */
    int pocket_passes;
    lq_config_texture texture;
    lq_config_window window;
    const lq_scene_node *at_particles_per_cell;
} lq_config_pls;

typedef struct lq_config_output {
    int every;
    /* each kind's rate (frames), output.every where its key is unset */
    int mesh_every, fields_every, particles_every, vdb_every;
    const char *fields[8];
    int nfields;
    bool fields_vti;    /* output.fields_format: vti */
    bool up_z;          /* output.up: z (io.h: the files turned to z up) */
    const char *vdb[8]; /* output.vdb: grid names */
    int nvdb;
    bool mesh, particles, markers, preview, preview_stamp;
    int preview_width, preview_every;
    double preview_azimuth, preview_elevation, preview_distance;
    bool preview_frame_all; /* output.preview_framing: all */
    int checkpoint, checkpoint_keep;
    const lq_scene_node *at_fields, *at_particles, *at_vdb, *at_up;
} lq_config_output;

/* --- the whole scene ------------------------------------------------------------------ */

/* grids[]: grid sourcing (Rasmussen et al. §5.4, host/io/band.h). */
#define LQ_CONFIG_GRIDS_MAX 16
typedef struct lq_config_gridspec {
    const char *name;
    int size[3];                      /* its own cells */
    double origin[3];                 /* m */
    double cell;                      /* m: grid.cell / geom.r */
    int off[3];                       /* scene cells from grid.origin (checked whole) */
    int up[LQ_CONFIG_GRIDS_MAX], nup; /* upstream grids, by index */
    /* size, off, refinement, outflow faces (given, or those facing a downstream grid) and
     * shell depth, as core/bandgeom.h takes them */
    lq_bandgeom_grid geom;
    /* what its band files depend on, and nothing else (so a grid added downstream later
     * reads them): the scene's physics (its text without grids, grid.size, output and
     * name), this grid's block as resolved (name, size, origin, cell, outflow, shell) and
     * its upstream grids' identities */
    unsigned long long ident;
    const lq_scene_node *at, *at_name, *at_origin, *at_upstream, *at_cell, *at_outflow;
} lq_config_gridspec;

typedef struct lq_config {
    lq_scene *scene;    /* the loaded scene, for messages */
    const char *file;   /* the path given to lq_config_load */
    const char *name;   /* `name:` or the file name without .yaml */
    const char *solver; /* "shallow", "splash", "mac", "pls" */
    lq_config_grid grid;
    lq_config_time time;
    double gravity[3];   /* m/s² */
    bool wall_noslip[6]; /* walls: x_min, x_max, y_min, y_max, z_min, z_max */
    int wall[6];         /* LQ_CONFIG_WALL_FREE_SLIP ... ABSORBING, the same faces */
    const lq_scene_node *at_wall[6];
    const lq_config_liquid *liquid;
    const lq_config_obstacle *obstacles;
    const lq_config_terrain *terrain;
    const lq_config_source *sources;
    const lq_config_object *objects;
    const lq_config_control *control;
    int nliquid, nobstacles, nterrain, nsources, nobjects, ncontrol;
    lq_config_spray spray;
    lq_config_foam foam;
    lq_config_shallow shallow;
    lq_config_splash splash;
    lq_config_mac mac;
    lq_config_pls pls;
    lq_config_output output;
    const lq_scene_node *at_solver, *at_name, *at_gravity;
    const lq_scene_node *at_obstacles, *at_sources, *at_objects, *at_control;
    /* grids[] (§5.4): the graph, checked (names, upstream names, no cycle, every edge
     * overlapping by at least 3 cells across a face of the downstream grid); ngrids 0: none */
    const lq_config_gridspec *grids;
    int ngrids;
    const lq_scene_node *at_grids;
    /* Set by the run, not the scene (lq_config_select_grid): the grid this process runs
     * (-1: the scene's own grid) and the band folder. */
    int grid_self;
    const char *bands_dir;
    bool grid_resume; /* --resume: the bands kept, the solver's checkpoint loaded after create */
    int grid_drains;  /* outlets appended to sources[] by lq_config_select_grid */
} lq_config;

/* Loads, validates and decodes SCENE with the overrides (each "KEY=VALUE"); NULL with
 * the error recorded (lq_scene_load's messages, or LQ_ESIM when out of memory). */
lq_config *lq_config_load(const char *path, int nsets, const char *const *sets);
void lq_config_free(lq_config *c);

/* The checks a scene to run must pass besides those of lq_config_load (which tests that
 * build partial scenes rely on not making): no liquid or obstacle box is empty, and a 3D
 * scene has liquid inside its grid or a source. LQ_OK or LQ_EINPUT at the item. */
int lq_config_check_run(const lq_config *c);

/* The process runs grid `name` of grids[]: grid.size and grid.origin become its own,
 * grid_self its index, and an outlet is appended to sources[] for each face of it that faces
 * a downstream grid (its last cells beyond that grid's band, up to 2 deep), so liquid leaves
 * it there as it would flow on. LQ_EINPUT naming the grids when there is none of that name. */
int lq_config_select_grid(lq_config *c, const char *name);

/* For checks only a solver can make: records "FILE:LINE:COL: message" at `at` (one of
 * the `at_*` fields; NULL: the file) and returns LQ_EINPUT. */
int lq_config_error(const lq_config *c, const lq_scene_node *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
