/*
 * extrap_ref.h — velocity extrapolation for the `pls` solver (Rasmussen et al. 2004): the MAC
 * face velocity carried from the liquid into an air band and into objects, layer by
 * layer (§3, the simple extrapolation of Enright, Marschner & Fedkiw 2002 [EMF02];
 * §5.5.1, "extrapolate the velocity field nearby the object into the object"), the
 * object velocity condition of §5.5.1, and the divergence-free extrapolation of §5.2.
 * kernels/pls/extrap_cell.h states the face kinds and the discretisation; each operation has
 * an OpenCL launcher (host/ops/pls/extrap.c, kernels/pls/extrap.cl) and a reference twin with the
 * same arguments (host/ops/pls/extrap_ref.c).
 *
 * The paper has no numbered equation for §5.2; it says: after the extrapolation, "project
 * out any non-divergence free component of the extrapolated velocity field" with the same
 * projection as for the liquid (eq. 1, ∇·u = 0, enforced through the pressure of eq. 2),
 * "a constant pressure boundary condition ... in the air outside the extrapolated
 * velocity region and a fixed velocity boundary condition ... applied to the liquid"
 * (after Sussman 2003 [Sus03]). Here: the unknowns are the air cells all of whose faces
 * got a velocity (the band), p = 0 in the air beyond, the liquid, object and wall faces
 * are Neumann (never changed), red-black SOR for m p_c − Σ p_n = −D_c, then u_f −= p_b − p_a.
 * Without it the extrapolated field, though divergence-free under refinement, is not
 * discretely so on the grid (Fig. 5): air between merging drops is not squeezed out.
 *
 * Grid: mac_grid.h indexing, uniform cell size h, no wall layer: u (nx+1)·ny·nz, v
 * nx·(ny+1)·nz, w nx·ny·(nz+1) floats (m/s); φ and sdf nx·ny·nz floats at cell centres (m;
 * liquid φ ≤ 0; sdf < 0 inside objects; sdf may be NULL: no objects). 2D is nz = 1 (w is
 * then untouched). Faces on the domain edge (walls) are never changed or read here.
 *
 * Use in a pls step, after the pressure projection and before advection:
 *   lq_extrap_velocity(o, u, v, w, phi, sdf, &prm);       air band + inside objects
 *   lq_extrap_object_bc(o, u, v, w, phi, sdf, ob, &prm);  only with objects (§5.5.1)
 *   lq_extrap_divfree(o, u, v, w, phi, sdf, &prm);        optional (§5.2)
 * then lq_sladvect_advect_velocity / lq_sladvect_advect_scalar. prm.layers should cover the largest
 * backtrace (CFL + 1 or 2). Faces beyond the layers keep the values they had.
 * lq_extrap_divfree uses the valid mask of the last lq_extrap_velocity call.
 *
 * Invariant: bit for bit on both backends (same code, no contraction, literal
 * reciprocals; one correctly rounded sqrt and divide per solid face in object_bc).
 */
#ifndef LQ_HOST_EXTRAP_REF_H
#define LQ_HOST_EXTRAP_REF_H

#include "pls/extrap_cell.h"
#include "core/kernel.h"

typedef struct lq_extrap_params {
    int layers;       /* face layers filled beyond the liquid (and into objects) */
    int iterations;   /* §5.2: red-black SOR sweeps (each a red and a black pass) */
    float omega;      /* §5.2: SOR factor, 1 = Gauss–Seidel, < 2 */
    float obj_vel[3]; /* §5.5.1: the object's velocity uobj (m/s), one for all objects */
    float friction;   /* §5.5.1: α ∈ [0, 1]: 0 slip (tangential kept), 1 stick */
    int hold_normal;  /* §5.5.1: 1: the normal part is always the object's (no separation) */
    int closed;       /* 1: faces with an object cell (sdf ≤ 0) on either side are solid:
                       * extrapolated from the liquid alone (moving objects, uext of §5.5.1) */
} lq_extrap_params;

typedef struct lq_extrap_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    lq_field valid[2][3]; /* uchar per face: valid[0] the layer masks (lev, extrap_cell.h)
                           * of u, v, w; valid[1] not allocated (the ping-pong of before) */
    int final;            /* which valid[] holds the last extrapolation's mask (0) */
    lq_field band;        /* uchar per cell: §5.2 unknowns (nonzero; extrap_cell.h) */
    lq_field rhs, p;      /* float per cell: −D_c and the pressure (m/s) */
    lq_field tmp[3];      /* float per face: object_bc output (kept for object_restore) */
    lq_field list, cnt;   /* int per cell: §5.2's band cells by colour; int[8]: counts */
    bool lent;            /* valid[0], band, tmp, rhs, p, list are views of the caller's
                           * (lq_extrap_ops_init_lent) */
    int cap_limit;        /* tests: the fronts' lists hold at most this many (0: their size),
                           * to reach the whole-grid redo of a front that overflows */
    cl_program program;
    lq_kernel init, bandk, sor, correct, object, copy, listk, sor_list, restore, reach, layer_lev,
        seed, front, expand;
} lq_extrap_ops;

/* Reference twins (host/ops/pls/extrap_ref.c): same arguments, host storage. */
void lq_extrap_ref_velocity(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                            const lq_field *phi, const lq_field *sdf, const lq_extrap_params *prm);
void lq_extrap_ref_object_bc(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                             const lq_field *phi, const lq_field *sdf, const lq_field *ob,
                             const lq_extrap_params *prm);
void lq_extrap_ref_object_restore(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                  const lq_field *phi, const lq_field *sdf);
void lq_extrap_ref_divfree(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, const lq_extrap_params *prm);

#endif
