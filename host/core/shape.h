/*
 * shape.h — the rigid shapes the height-field solvers' objects are made of (splash:
 * O'Brien & Hodgins §4), as the outputs see them: a shape word, half extents in the
 * body frame, and a placement (centre and body → world rotation) in the world.
 *
 * Body frame: the shape is centred at the origin; a sphere has half = (r, r, r), an
 * ellipsoid its three radii along the body axes, a box its half edge lengths. The
 * numeric values of LQ_SHAPE_* are also used by the kernels (kernels/hf/columns_cell.h).
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

/* 1 when the object has a finite placement and a positive finite size (drawable). */
int lq_shape_ok(const lq_view_object *ob);
/* Grows lo..hi by the world box of a drawable object (others leave it alone). */
void lq_shape_grow(const lq_view_object *ob, double lo[3], double hi[3]);
/* Where the ray o + t d (d unit) enters the object with tmin < t < tmax, or -1; the
 * outward unit normal there into n. A ray that starts inside sees nothing. */
double lq_shape_hit(const lq_view_object *ob, const double o[3], const double d[3], double tmin,
                    double tmax, double n[3]);

#endif
