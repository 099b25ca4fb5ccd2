/*
 * hfinit.h — ground height b and initial water surface h of a height-field scene,
 * evaluated at cell centres from the scene's `terrain` and `liquid` items.
 */
#ifndef LQ_HFINIT_H
#define LQ_HFINIT_H

#include "scene/config.h"

/* The (x, z) plane of a height-field grid: cell (i, k) has its centre at
 * (ox + (i + ½) dx, oz + (k + ½) dx); heights are along y. */
typedef struct lq_hfinit_grid {
    int nx, nz;
    double dx;
    double origin[3]; /* world position of the lower corner (x, y, z) */
} lq_hfinit_grid;

/* From grid.size ([nx, nz]), grid.cell and grid.origin ([x, z] or [x, y, z]). */
int lq_hfinit_grid_from_scene(const lq_config *cfg, lq_hfinit_grid *g);

/* Fills b (nx·nz) from `terrain` (scene.h docs): items combine in order by `max` or
 * `add`; where no item reaches, the ground is the grid origin's y. */
int lq_hfinit_terrain(const lq_config *cfg, const lq_hfinit_grid *g, float *b);

/* Fills h (nx·nz) from `liquid`: `level` and `box` raise the surface (max), `hump`,
 * `wave`, `tilt` and `paraboloid` add to it; a cell whose surface is not above its
 * ground is dry and holds b − eps. */
int lq_hfinit_surface(const lq_config *cfg, const lq_hfinit_grid *g, const float *b, float eps,
                      float *h);

#endif
