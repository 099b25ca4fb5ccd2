/*
 * bandgeom.h — grid sourcing's band rule (Rasmussen et al. 2004 §5.4) in whole cells,
 * shared by the scene's checks (host/scene/config.c) and the band files (host/io/band.c).
 *
 * A downstream grid D (nd cells per axis) and an upstream grid U (nu) on one lattice: D's
 * cell (i, j, k) is U's cell (i + off[0], j + off[1], k + off[2]). D's face f (2a: the
 * min face of axis a, 2a + 1: its max face) faces U when U holds D's cells next to that
 * face and reaches past it, and the two grids overlap on the other axes; an axis of one
 * cell (a 2D scene's z) has no faces. The band is D's cells that U holds and that lie
 * within LQ_BAND_CELLS cells of a face of D facing U: the cells D takes from U.
 */
#ifndef LQ_CORE_BANDGEOM_H
#define LQ_CORE_BANDGEOM_H

#include <stdbool.h>

#define LQ_BAND_CELLS 3 /* the band's depth (§5.4: "three grid cell deep bands") */

/* Whether the grids overlap on every axis but `skip` (-1: every axis). */
static inline bool lq_bandgeom_overlap(const int nu[3], const int nd[3], const int off[3], int skip)
{
    for (int b = 0; b < 3; b++)
        if (b != skip && !(off[b] < nu[b] && off[b] + nd[b] > 0)) return false;
    return true;
}

/* How many cells deep U holds D across D's face f when it faces U (else 0). */
static inline int lq_bandgeom_depth(const int nu[3], const int nd[3], const int off[3], int f)
{
    int a = f / 2;
    if (nd[a] < 2 || nu[a] < 2 || !lq_bandgeom_overlap(nu, nd, off, a)) return 0;
    int depth;
    if (f % 2 == 0) /* D's min face: U starts below it and holds D's cell 0 */
        depth = off[a] > 0 && off[a] < nu[a] ? nu[a] - off[a] : 0;
    else /* D's max face: U holds D's last cell and goes on past it */
        depth = off[a] + nd[a] < nu[a] && off[a] + nd[a] > 0 ? off[a] + nd[a] : 0;
    return depth < nd[a] ? depth : nd[a];
}

/* Whether D's cell (i, j, k) is in the band U sources. */
static inline bool lq_bandgeom_cell(const int nu[3], const int nd[3], const int off[3], int i,
                                    int j, int k)
{
    int c[3] = {i, j, k};
    for (int a = 0; a < 3; a++)
        if (c[a] + off[a] < 0 || c[a] + off[a] >= nu[a]) return false;
    for (int f = 0; f < 6; f++) {
        int a = f / 2;
        if (lq_bandgeom_depth(nu, nd, off, f) == 0) continue;
        if (f % 2 == 0 ? c[a] < LQ_BAND_CELLS : c[a] >= nd[a] - LQ_BAND_CELLS) return true;
    }
    return false;
}

#endif
