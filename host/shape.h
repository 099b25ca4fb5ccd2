/*
 * shape.h — the rigid shapes the height-field solvers' objects are made of (splash:
 * O'Brien & Hodgins §4), as the outputs see them: a shape word, half extents in the
 * body frame, and a placement (centre and body → world rotation) in the world.
 *
 * Body frame: the shape is centred at the origin; a sphere has half = (r, r, r), an
 * ellipsoid its three radii along the body axes, a box its half edge lengths. The
 * numeric values of LQ_SHAPE_* are also used by the kernels (kernels/splash_cell.h).
 */
#ifndef LQ_SHAPE_H
#define LQ_SHAPE_H

#define LQ_SHAPE_SPHERE    0
#define LQ_SHAPE_ELLIPSOID 1
#define LQ_SHAPE_BOX       2

typedef struct lq_view_object {
    int shape;      /* LQ_SHAPE_* */
    double half[3]; /* m, body frame */
    double pos[3];  /* m, world position of the centre */
    double rot[9];  /* body → world rotation, row-major: world = rot · body */
    float rgb[3];   /* linear colour in [0, 1] for previews */
} lq_view_object;

#endif
