/*
 * plssource.h — the launchers of the operation: each dispatches to the reference twin
 * (plssource_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plssource.cl otherwise. The operation's data (its object, its items, what
 * `flow` means, where it sits in a step, the accounting) and the twin are declared in
 * plssource_ref.h, which the twin includes alone, so the launcher depends on its twin and
 * never the other way round.
 */
#ifndef LQ_HOST_PLSSOURCE_H
#define LQ_HOST_PLSSOURCE_H

#include <stdio.h>

#include "ops/pls/plssource_ref.h"
#include "scene/config.h"

/* The scene's sources[] read into *set (its regions as host arrays): the cells whose
 * centres each shape holds (host/world/voxel.c), less the static obstacles' cells
 * (solid0[c] ≤ 0; NULL: none), with their distances. origin: the grid's (m); h: the cell.
 * LQ_EINPUT with FILE:LINE:COL on a kind `pls` does not take, a region with no shape or
 * two, no cell, no open face in the velocity's direction, a zero velocity or stop ≤ start
 * (nothing to free then). */
int lq_plssource_read(const lq_config *cfg, int nx, int ny, int nz, float h, const double origin[3],
                      const float *solid0, lq_plssource_set *set);
void lq_plssource_set_free(lq_plssource_set *set);
/* The regions placed again on the grid at `origin` (the moving window, §5.3), as
 * lq_plssource_read places them (solid0 as there), and uploaded; each item keeps its state
 * (open, closed, what it delivered), its cells, open faces and area are the new grid's. A
 * region outside the grid is no error here: it has no cell and acts on none. */
int lq_plssource_place(lq_plssource_ops *o, const lq_config *cfg, const double origin[3],
                       const float *solid0);
/* Device bytes lq_plssource_ops_init allocates (with_solid: the set has inlets). */
size_t lq_plssource_ops_bytes(int nx, int ny, int nz, bool with_solid);
/* The fields (with_solid: the projection's solid field, for inlets) and the kernels; no
 * items (lq_plssource_add). */
int lq_plssource_ops_init(lq_plssource_ops *o, lq_ctx *ctx, int nx, int ny, int nz, float h,
                          bool with_solid);
void lq_plssource_ops_release(lq_plssource_ops *o);
/* The set's items copied and its regions uploaded (the set keeps its arrays). */
int lq_plssource_add(lq_plssource_ops *o, const lq_plssource_set *set);

/* The single operations (tests diff them), with the item table in o->tab_host uploaded
 * by lq_plssource_table. */
int lq_plssource_table(lq_plssource_ops *o);
/* The cells pass into φ (the outlets' removal added to o->sink), o->solid from sdf (may
 * be NULL) with inlets. */
int lq_plssource_cells(lq_plssource_ops *o, lq_field *phi, const lq_field *sdf);
int lq_plssource_faces(lq_plssource_ops *o, lq_field *u, lq_field *v, lq_field *w);
/* The first np particles of part (LQ_PLSSOURCE_PSTRIDE floats each). */
int lq_plssource_kill(lq_plssource_ops *o, lq_field *part, int np);
/* m³ of liquid in each inlet's cells into vol[0 … o->n − 1] (0 for the others). */
int lq_plssource_content(lq_plssource_ops *o, const lq_field *phi, double *vol);
/* m³ the outlets removed, all time. */
int lq_plssource_sunk(lq_plssource_ops *o, double *vol);

/* The stage (plssource_ref.h): the step [t, t + dt] done, the items for t + dt. */
int lq_plssource_step(lq_plssource_ops *o, double t, double dt, lq_field *phi, lq_field *u,
                      lq_field *v, lq_field *w, lq_field *part, int np, const lq_field *sdf);
/* What the projection takes for solids: o->solid while an inlet is open, else sdf. */
const lq_field *lq_plssource_solid(const lq_plssource_ops *o, const lq_field *sdf);
/* The stats' source and sink volumes (m³) now. */
int lq_plssource_totals(lq_plssource_ops *o, const lq_field *phi, double *source, double *sink);
/* The items' state and the sink sum into a checkpoint or back (save: write; else read). */
int lq_plssource_checkpoint(lq_plssource_ops *o, FILE *f, bool save);

#endif
