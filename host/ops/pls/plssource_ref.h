/*
 * plssource_ref.h — liquid sources and sinks of the `pls` solver: the scene's
 * sources[].inlet (emitters: box, sphere, cylinder or OBJ mesh, a velocity, a flow over
 * time, a window) and sources[].outlet (sinks: the same shapes, or a level). The math is
 * kernels/pls/plssource_cell.h; each operation has an OpenCL launcher
 * (host/ops/pls/plssource.c, kernels/pls/plssource.cl) and a reference twin with the same
 * arguments (host/ops/pls/plssource_ref.c).
 *
 * What `flow` means. An inlet delivers `flow` m³/s (2D: m²/s per metre of depth): the
 * volume that crosses, per second, the faces of its cells that its velocity points out
 * of (faces toward the domain edge or a static obstacle excluded). Its speed along the
 * velocity's direction is flow / A, A that area; the profile (scene/timefn.h) scales the
 * flow over τ = t − start. Without `flow` the speed is |velocity| times the profile, and
 * the flow speed·A. Because the projection holds those faces (plssource_cell.h), the
 * liquid around takes the flow up wherever the inlet sits, in air or under the surface.
 *
 * Where it sits in a step (the pls solver's stage "sources and sinks"), after the forces
 * and before the projection:
 *   lq_plssource_step(o, t, dt, phi, u, v, w, part, np, sdf)
 * (the step's start t and its dt): the flux the faces held since the last call is added to
 * what each inlet delivered (it moved the liquid in this step's advection); then the
 * items for the time t + dt: the outlets remove their liquid, inlets open (their cells'
 * liquid measured first), fill their cells and hold their faces, or close (their cells'
 * liquid measured and left as it is: the last of it falls out of an inlet in the air);
 * particles on the wrong side killed. The projection then takes
 * lq_plssource_solid(o, sdf): the objects' sdf with the open inlets' cells solid. The
 * faces held move the liquid out during the next step's advection, so an inlet open for
 * the steps that start in [start, stop) delivers flow × (stop − start) when both are step
 * (frame) times. lq_plssource_step(o, 0, 0, ...) once at the start, followed by a projection, sets
 * up the first step.
 *
 * Accounting (lq_plssource_totals, the stats' source_volume and sink_volume): an inlet's
 * source volume is what its faces delivered (Σ flux·dt) plus the change of the liquid in
 * its cells since just before it opened (while open, its filled cells; after, what they
 * held as it closed), so liquid volume − source + sink − initial is what the level set
 * itself gained or lost. An inlet in the air thus adds its own cells' liquid to
 * flow × (stop − start) (a nozzle's last plug); one under the surface adds nothing more. The sink
 * volume is the outlets' removal, summed in the volume measure's fixed-point cell fractions: exact.
 *
 * Regions are static (an inlet or outlet does not move); the open faces are counted
 * against the static obstacles, not moving ones. A grid that moves (pls.window) places the
 * regions again for its new origin (lq_plssource_place): the items keep their state, and
 * a region the grid no longer holds has no cell (it acts on none; an inlet's flux is then
 * 0, which is why the window keeps open inlets inside it).
 */
#ifndef LQ_HOST_PLSSOURCE_REF_H
#define LQ_HOST_PLSSOURCE_REF_H

#include <stdbool.h>

#include "core/kernel.h"
#include "pls/plssource_cell.h"
#include "scene/timefn.h"

enum { LQ_PLSSOURCE_ITEM_INLET, LQ_PLSSOURCE_ITEM_OUTLET, LQ_PLSSOURCE_ITEM_LEVEL };
enum { LQ_PLSSOURCE_WAITING, LQ_PLSSOURCE_OPEN, LQ_PLSSOURCE_CLOSED };

typedef struct lq_plssource_item {
    int kind;           /* LQ_PLSSOURCE_ITEM_* */
    double start, stop; /* s */
    double level;       /* m from the grid's origin (a level outlet) */
    int cells;          /* the region's cells */
    /* inlets */
    double dir[3];     /* the velocity's direction (unit; 2D: no z) */
    bool by_flow;      /* the profile is the flow (m³/s), not the speed */
    lq_timefn profile; /* over τ = t − start */
    double open[6]; /* open faces' area on the region's −x, +x, −y, +y, −z, +z sides (m²) */
    double area;    /* the area dir leaves through (m²) */
    int lo[3], hi[3]; /* its cells' box in the grid (lo > hi: none) */
    /* the state a checkpoint keeps */
    int state;          /* LQ_PLSSOURCE_WAITING, _OPEN, _CLOSED */
    double c_on, c_off; /* m³: the liquid in its cells before it opened, as it closed (−1
                           before) */
    double flux;        /* m³/s its faces hold now (delivered in the next step) */
    double delivered;   /* m³: Σ flux·dt */
} lq_plssource_item;

/* The scene's sources read and rasterised on the host (lq_plssource_read), before the
 * solver's memory plan; lq_plssource_add hands them to the ops. */
typedef struct lq_plssource_set {
    int nx, ny, nz;
    float h;
    double facea; /* m² a face (2D: m) */
    int n;
    bool inlets;
    lq_plssource_item item[LQ_PLSSOURCE_MAX];
    int *rid;       /* per cell (plssource_cell.h) */
    float *ed, *sd; /* per cell (m) */
} lq_plssource_set;

typedef struct lq_plssource_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    /* OpenCL, set by the solver: the particles' live count the device holds (element 0);
     * lq_plssource_kill then stops there too, its np being a bound. NULL: np exact */
    const lq_field *count;
    float h;
    double cellv, facea; /* m³ a cell, m² a face (2D: m², m, per metre of depth) */
    int n;
    bool inlets;    /* any inlet: the solid field exists */
    bool acting;    /* the last step's table did something */
    bool holding;   /* an inlet is open: the projection takes the solid field */
    int modes_open; /* open inlets in the table */
    lq_plssource_item item[LQ_PLSSOURCE_MAX];
    float tab_host[LQ_PLSSOURCE_MAX * LQ_PLSSOURCE_STRIDE];
    lq_field rid, ed, sd; /* per cell (plssource_cell.h) */
    lq_field tab;         /* the item table */
    lq_field sink;        /* 1 long: the volume the outlets removed, all time (fixed point) */
    lq_field red;         /* long per slot: the content sums */
    lq_field solid;       /* float per cell, with inlets: the projection's solid field */
    cl_program program;
    lq_kernel cells, faces, kill, content;
} lq_plssource_ops;

/* Reference twins (host/ops/pls/plssource_ref.c): same arguments, host storage; the item
 * table in o->tab. */
void lq_plssource_ref_cells(lq_plssource_ops *o, lq_field *phi, const lq_field *sdf);
void lq_plssource_ref_faces(lq_plssource_ops *o, lq_field *u, lq_field *v, lq_field *w);
void lq_plssource_ref_kill(lq_plssource_ops *o, lq_field *part, int np);
void lq_plssource_ref_content(lq_plssource_ops *o, const lq_field *phi);

#endif
