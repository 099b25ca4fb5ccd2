/*
 * scene_keys.c — the scene key table: every key a scene may hold, with its type,
 * range, default, units, the solvers that read it and a one-line doc.
 *
 * The loader (host/scene/scene.c), its error messages, the decoder into C structs with
 * its defaults (host/scene/config.c) and the generated docs/SCENE.md all read this one
 * table; adding a key means adding a row here, decoding it in config.c (the test
 * tests/scene/test_config.c fails until every row is decoded) and regenerating the
 * docs with LQ_REGENERATE=1 build/test_scene.
 *
 * Invariants (checked by lq_scene_check_keys() in tests/scene/test_scene.c):
 * - a row's parent ("grid" for "grid.size", "liquid" for "liquid[].box") comes
 *   earlier in the table; list items are written "list[].kind.key";
 * - rows flagged LQ_KEY_KIND sit directly under "list[]" and every LIST has one;
 *   other rows directly under "list[]" are per-item attributes (e.g. "boundary");
 * - a child is read by no solver its parent is not read by;
 * - defaults are YAML text of the row's type and lie in its range; required rows
 *   have no default; ranges are inclusive unless LQ_KEY_MIN_OPEN/LQ_KEY_MAX_OPEN;
 * - `walls` carries LQ_KEY_FACES: one word for all six faces, or a mapping of the
 *   per-face rows below it.
 */
#include "scene/scene.h"

#include <math.h>

/* Row builders: positional lq_key fields are easy to misorder, so rows are written
 * through these, one per type. */
#define INF INFINITY
#define K_MAP(p_, fl_, sv_, doc_)                                                                  \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_MAP, .flags = (fl_), .solvers = (sv_), .min = -INF,           \
        .max = INF, .units = "", .doc = (doc_)                                                     \
    }
#define K_LIST(p_, sv_, doc_)                                                                      \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_LIST, .flags = 0, .solvers = (sv_), .min = -INF, .max = INF,  \
        .units = "", .doc = (doc_)                                                                 \
    }
#define K_FLOAT(p_, fl_, sv_, lo_, hi_, def_, un_, doc_)                                           \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_FLOAT, .flags = (fl_), .solvers = (sv_), .min = (lo_),        \
        .max = (hi_), .def = (def_), .units = (un_), .doc = (doc_)                                 \
    }
#define K_INT(p_, fl_, sv_, lo_, hi_, def_, un_, doc_)                                             \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_INT, .flags = (fl_), .solvers = (sv_), .min = (lo_),          \
        .max = (hi_), .def = (def_), .units = (un_), .doc = (doc_)                                 \
    }
#define K_BOOL(p_, sv_, def_, doc_)                                                                \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_BOOL, .flags = 0, .solvers = (sv_), .min = -INF, .max = INF,  \
        .def = (def_), .units = "", .doc = (doc_)                                                  \
    }
#define K_ENUM(p_, fl_, sv_, words_, def_, doc_)                                                   \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_ENUM, .flags = (fl_), .solvers = (sv_), .min = -INF,          \
        .max = INF, .enums = (words_), .def = (def_), .units = "", .doc = (doc_)                   \
    }
#define K_STRING(p_, fl_, sv_, def_, doc_)                                                         \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_STRING, .flags = (fl_), .solvers = (sv_), .min = -INF,        \
        .max = INF, .def = (def_), .units = "", .doc = (doc_)                                      \
    }
#define K_FILE(p_, fl_, sv_, doc_)                                                                 \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_FILE, .flags = (fl_), .solvers = (sv_), .min = -INF,          \
        .max = INF, .units = "", .doc = (doc_)                                                     \
    }
#define K_FLOATS(p_, fl_, sv_, n0_, n1_, lo_, hi_, def_, un_, doc_)                                \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_FLOATS, .flags = (fl_), .solvers = (sv_), .min = (lo_),       \
        .max = (hi_), .len_min = (n0_), .len_max = (n1_), .def = (def_), .units = (un_),           \
        .doc = (doc_)                                                                              \
    }
#define K_INTS(p_, fl_, sv_, n0_, n1_, lo_, hi_, def_, un_, doc_)                                  \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_INTS, .flags = (fl_), .solvers = (sv_), .min = (lo_),         \
        .max = (hi_), .len_min = (n0_), .len_max = (n1_), .def = (def_), .units = (un_),           \
        .doc = (doc_)                                                                              \
    }
#define K_ENUMS(p_, fl_, sv_, n0_, n1_, words_, def_, doc_)                                        \
    {                                                                                              \
        .path = (p_), .type = LQ_KEY_ENUMS, .flags = (fl_), .solvers = (sv_), .min = -INF,         \
        .max = INF, .len_min = (n0_), .len_max = (n1_), .enums = (words_), .def = (def_),          \
        .units = "", .doc = (doc_)                                                                 \
    }

#define REQ  LQ_KEY_REQUIRED
#define KIND LQ_KEY_KIND
#define GT   LQ_KEY_MIN_OPEN /* value > min */
#define ALL  LQ_SOLVER_ALL
#define HF   LQ_SOLVER_HF
#define SHAL LQ_SOLVER_SHALLOW
#define NOHF (LQ_SOLVER_SPLASH | LQ_SOLVER_MAC | LQ_SOLVER_PLS)
#define TERR (LQ_SOLVER_SHALLOW | LQ_SOLVER_SPLASH | LQ_SOLVER_MAC)
#define SPL  LQ_SOLVER_SPLASH
#define MAC  LQ_SOLVER_MAC
#define PLS  LQ_SOLVER_PLS

/* The shapes of a `pls` inlet or outlet other than its box (`min`, `max`): the rows of
 * obstacles[].sphere, .cylinder and .mesh under P ("sources[].inlet"); W names the item in
 * the docs ("inlet"). */
#define LQ_KEYS_REGION_SHAPES(P, W)                                                                \
    K_MAP(P ".sphere", 0, PLS, "A ball-shaped " W " (`pls`)."),                                    \
        K_FLOATS(P ".sphere.center", REQ, PLS, 3, 3, -INF, INF, NULL, "m", "Centre."),             \
        K_FLOAT(P ".sphere.radius", REQ | GT, PLS, 0, INF, NULL, "m", "Radius."),                  \
        K_MAP(P ".cylinder", 0, PLS,                                                               \
              "A capped-cylinder " W " (`pls`; a 2D grid sees its cross-section at its "           \
              "centre's z)."),                                                                     \
        K_FLOATS(P ".cylinder.center", REQ, PLS, 3, 3, -INF, INF, NULL, "m",                       \
                 "Centre (the middle of the axis)."),                                              \
        K_FLOAT(P ".cylinder.radius", REQ | GT, PLS, 0, INF, NULL, "m", "Radius."),                \
        K_FLOAT(P ".cylinder.height", REQ | GT, PLS, 0, INF, NULL, "m",                            \
                "Length along the axis, cap to cap."),                                             \
        K_ENUM(P ".cylinder.axis", 0, PLS, "x|y|z", "y", "The axis."),                             \
        K_MAP(P ".mesh", 0, PLS,                                                                   \
              "An " W " bounded by a closed triangle mesh (`pls`; OBJ, read and placed as "        \
              "`obstacles[].mesh`): the cells whose centre it encloses."),                         \
        K_FILE(P ".mesh.file", REQ, PLS, "The OBJ file, relative to the scene file's folder."),    \
        K_FLOATS(P ".mesh.scale", GT, PLS, 1, 3, 0, INF, "[1]", "",                                \
                 "Scale factor: `[s]` for all axes or `[sx, sy, sz]`; applied first."),            \
        K_FLOATS(P ".mesh.rotate", 0, PLS, 3, 3, -INF, INF, "[0, 0, 0]", "degrees",                \
                 "Rotations about x, then y, then z (world axes), after the scale."),              \
        K_FLOATS(P ".mesh.translate", 0, PLS, 3, 3, -INF, INF, "[0, 0, 0]", "m",                   \
                 "Offset added last.")

const lq_key lq_scene_keys[] = {
    /* --- what runs ------------------------------------------------------------- */
    K_ENUM("solver", REQ, ALL, "shallow|splash|mac|pls", NULL,
           "The solver that animates the scene: `shallow` (Kass & Miller height field), "
           "`splash` (O'Brien & Hodgins height field with spray), `mac` (Foster & Metaxas "
           "3D Navier-Stokes), `pls` (particle level set)."),
    K_STRING("name", 0, ALL, NULL,
             "The scene's name, used for the default output folder `out/<name>/`; "
             "default: the file name without `.yaml`/`.yml`."),

    /* --- grid -------------------------------------------------------------------- */
    K_MAP("grid", REQ, ALL, "The simulation grid: a box of uniform cubic cells."),
    K_INTS("grid.size", REQ, ALL, 2, 3, 1, 65536, NULL, "cells",
           "Cells per axis: `[nx, nz]` for the height-field solvers (`shallow`, `splash`), "
           "`[nx, ny, nz]` for the 3D solvers (2D runs use `nz = 1`)."),
    K_FLOAT("grid.cell", REQ, ALL, 1e-6, 1e4, NULL, "m",
            "Cell edge length (a micron to 10 km: the solvers' 32-bit arithmetic holds 1/cell² "
            "and the grid's extent)."),
    K_FLOATS("grid.origin", 0, ALL, 2, 3, -INF, INF, "[0, 0, 0]", "m",
             "World position of the grid's lower corner."),

    /* --- time -------------------------------------------------------------------- */
    K_MAP("time", 0, ALL, "Frames and time stepping."),
    K_INT("time.frames", 0, ALL, 1, INF, "120", "", "Frames to simulate and write."),
    K_FLOAT("time.fps", GT, ALL, 0, 1e6, "30", "1/s", "Frames per second of scene time."),
    K_FLOAT("time.cfl", GT, ALL, 0, 100, "1.0", "",
            "The solver's Courant-number limit per step: a step moves liquid at most this "
            "many cells."),
    K_INT("time.max_steps", 0, ALL, 1, 1e9, "10000", "",
          "The most steps one frame may take. A frame that would need more (its time step "
          "collapsing as the run blows up) stops the run with exit 1, the frame, step, field "
          "and value named; the frames before it stay."),

    /* --- forces and walls ---------------------------------------------------------- */
    K_FLOATS("gravity", 0, ALL, 3, 3, -INF, INF, "[0, -9.81, 0]", "m/s²",
             "Gravitational acceleration `[x, y, z]`; y is up."),
    K_ENUM("walls", LQ_KEY_FACES, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "Boundary condition on the grid's six faces: one word for all faces, or a "
           "mapping of the faces below (faces not named are `free-slip`). `mac`, `pls` and "
           "`splash` walls are closed (free- or no-slip; the height-field solvers reflect at "
           "either; `pls` mirrors the tangential velocity negatively beyond a no-slip wall in "
           "its advection and its viscous step, so no-slip matters there with "
           "`pls.viscosity`). `shallow` also takes `open`: waves and water leave (or come in) as "
           "if the "
           "water went on, by the radiation condition u = √(g/d) (h − h0) at the wall (h0 the "
           "surface there at the start); and `absorbing`: a layer `shallow.absorbing_width` "
           "wide along the wall damps the water's motion so waves die in it, and the water "
           "stays."),
    K_ENUM("walls.x_min", 0, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "The face at x = min."),
    K_ENUM("walls.x_max", 0, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "The face at x = max."),
    K_ENUM("walls.y_min", 0, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "The floor (y = min; 3D solvers)."),
    K_ENUM("walls.y_max", 0, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "The ceiling (y = max; 3D solvers)."),
    K_ENUM("walls.z_min", 0, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "The face at z = min."),
    K_ENUM("walls.z_max", 0, ALL, "free-slip|no-slip|open|absorbing", "free-slip",
           "The face at z = max."),

    /* --- initial liquid ------------------------------------------------------------ */
    K_LIST("liquid", ALL,
           "The initial liquid: the union of the items' shapes, plus the surface offsets "
           "(`hump`, `wave`, `tilt`, `paraboloid`) added to the water surface in order."),
    K_FLOAT("liquid[].viscosity", 0, LQ_SOLVER_PLS, 0, 1e3, NULL, "m²/s",
            "Kinematic viscosity ν of this item's liquid (Rasmussen et al. §5.1 variable "
            "viscosity; later items win where they overlap; the rest of the liquid takes "
            "`pls.viscosity`). The liquid carries it: a per-cell ν advected with φ, times "
            "`pls.viscosity_change`'s factor (its ν(t) / `pls.viscosity` when that is above 0, "
            "else 1)."),
    K_MAP("liquid[].box", KIND, ALL, "An axis-aligned box of liquid."),
    K_FLOATS("liquid[].box.min", REQ, ALL, 3, 3, -INF, INF, NULL, "m", "Lower corner."),
    K_FLOATS("liquid[].box.max", REQ, ALL, 3, 3, -INF, INF, NULL, "m", "Upper corner."),
    K_FLOATS("liquid[].box.velocity", 0, ALL, 3, 3, -INF, INF, "[0, 0, 0]", "m/s",
             "Initial velocity of the liquid in the box."),
    K_MAP("liquid[].sphere", KIND, NOHF, "A ball of liquid."),
    K_FLOATS("liquid[].sphere.center", REQ, NOHF, 3, 3, -INF, INF, NULL, "m", "Centre."),
    K_FLOAT("liquid[].sphere.radius", REQ | GT, NOHF, 0, INF, NULL, "m", "Radius."),
    K_FLOATS("liquid[].sphere.velocity", 0, NOHF, 3, 3, -INF, INF, "[0, 0, 0]", "m/s",
             "Initial velocity of the ball."),
    K_FLOAT("liquid[].level", KIND, ALL, -INF, INF, NULL, "m",
            "Still water up to this height over the whole grid (height fields, tanks)."),
    K_MAP("liquid[].hump", KIND, HF,
          "A Gaussian bump `height·exp(-r²/(2·sigma²))` added to the water surface."),
    K_FLOATS("liquid[].hump.center", REQ, HF, 2, 2, -INF, INF, NULL, "m", "Centre `[x, z]`."),
    K_FLOAT("liquid[].hump.sigma", REQ | GT, HF, 0, INF, NULL, "m", "Standard deviation."),
    K_FLOAT("liquid[].hump.height", REQ, HF, -INF, INF, NULL, "m",
            "Peak height (negative for a dip)."),
    K_MAP("liquid[].wave", KIND, ALL,
          "A standing cosine mode of the closed basin, `amplitude·cos(mode·π·(x - x0)/L)`, "
          "added to the water surface (x0, L: the grid's origin and extent along `axis`; for "
          "`mac`, the basin inside the wall layer). In `mac` and `pls` the wave shapes the "
          "`level` item just before it."),
    K_FLOAT("liquid[].wave.amplitude", REQ, ALL, -INF, INF, NULL, "m", "Amplitude A."),
    K_INT("liquid[].wave.mode", 0, ALL, 1, INF, "1", "", "Mode number m (half wavelengths)."),
    K_ENUM("liquid[].wave.axis", 0, ALL, "x|z", "x", "The axis the wave runs along."),
    K_MAP("liquid[].tilt", KIND, HF, "A planar tilt added to the water surface."),
    K_FLOATS("liquid[].tilt.slope", REQ, HF, 2, 2, -INF, INF, NULL, "", "Slope `[dh/dx, dh/dz]`."),
    K_FLOATS("liquid[].tilt.center", 0, HF, 2, 2, -INF, INF, NULL, "m",
             "Point `[x, z]` where the tilt adds nothing; default: the grid centre."),
    K_MAP("liquid[].paraboloid", KIND, HF,
          "A paraboloid `curvature·r²` added to the water surface."),
    K_FLOATS("liquid[].paraboloid.center", REQ, HF, 2, 2, -INF, INF, NULL, "m", "Centre `[x, z]`."),
    K_FLOAT("liquid[].paraboloid.curvature", REQ, HF, -INF, INF, NULL, "1/m",
            "Curvature (negative for a dome)."),

    /* --- obstacles ------------------------------------------------------------------ */
    K_LIST("obstacles", ALL, "Fixed solids inside the grid."),
    K_MAP("obstacles[].box", KIND, ALL, "An axis-aligned solid box."),
    K_FLOATS("obstacles[].box.min", REQ, ALL, 3, 3, -INF, INF, NULL, "m", "Lower corner."),
    K_FLOATS("obstacles[].box.max", REQ, ALL, 3, 3, -INF, INF, NULL, "m", "Upper corner."),
    K_MAP("obstacles[].sphere", KIND, ALL, "A solid ball."),
    K_FLOATS("obstacles[].sphere.center", REQ, ALL, 3, 3, -INF, INF, NULL, "m", "Centre."),
    K_FLOAT("obstacles[].sphere.radius", REQ | GT, ALL, 0, INF, NULL, "m", "Radius."),
    K_MAP("obstacles[].cylinder", KIND, MAC | LQ_SOLVER_PLS,
          "A solid capped cylinder (3D solvers; a 2D grid sees its cross-section at its "
          "centre's z)."),
    K_FLOATS("obstacles[].cylinder.center", REQ, MAC | LQ_SOLVER_PLS, 3, 3, -INF, INF, NULL, "m",
             "Centre (the middle of the axis)."),
    K_FLOAT("obstacles[].cylinder.radius", REQ | GT, MAC | LQ_SOLVER_PLS, 0, INF, NULL, "m",
            "Radius."),
    K_FLOAT("obstacles[].cylinder.height", REQ | GT, MAC | LQ_SOLVER_PLS, 0, INF, NULL, "m",
            "Length along the axis, cap to cap."),
    K_ENUM("obstacles[].cylinder.axis", 0, MAC | LQ_SOLVER_PLS, "x|y|z", "y", "The axis."),
    K_MAP("obstacles[].mask", KIND, MAC | LQ_SOLVER_PLS,
          "A solid drawn as a stack of gray PNG images, one per z slice, stretched over the "
          "box `[min, max]`: a cell whose centre falls on a texel of 128 or more (of 255) is "
          "solid (nearest texel; colour images are read as their luma). Image row 0 is the "
          "top (max y), slice 0 lies at min z; a 2D grid uses the middle slice."),
    K_STRING("obstacles[].mask.file", REQ, MAC | LQ_SOLVER_PLS, NULL,
             "One PNG file, or a pattern with one integer conversion (`rock_%03d.png`) "
             "numbered from `first`; relative to the scene file's folder."),
    K_INT("obstacles[].mask.count", 0, MAC | LQ_SOLVER_PLS, 1, 65536, NULL, "",
          "Number of slices (required with a pattern; a single file is one slice)."),
    K_INT("obstacles[].mask.first", 0, MAC | LQ_SOLVER_PLS, -1000000000, 1000000000, "0", "",
          "The number of the first slice's file."),
    K_FLOATS("obstacles[].mask.min", REQ, MAC | LQ_SOLVER_PLS, 3, 3, -INF, INF, NULL, "m",
             "Lower corner of the box the stack covers."),
    K_FLOATS("obstacles[].mask.max", REQ, MAC | LQ_SOLVER_PLS, 3, 3, -INF, INF, NULL, "m",
             "Upper corner of the box the stack covers."),
    K_MAP("obstacles[].mesh", KIND, MAC | LQ_SOLVER_PLS,
          "A solid bounded by a closed triangle mesh (Wavefront OBJ: `v` and `f` lines, "
          "polygons allowed, other statements ignored), e.g. a rock. Every edge must be "
          "shared by an even number of faces (vertices at the same position are merged); "
          "face winding does not matter. Cells whose centre the surface encloses are solid."),
    K_FILE("obstacles[].mesh.file", REQ, MAC | LQ_SOLVER_PLS,
           "The OBJ file, relative to the scene file's folder."),
    K_FLOATS("obstacles[].mesh.scale", GT, MAC | LQ_SOLVER_PLS, 1, 3, 0, INF, "[1]", "",
             "Scale factor: `[s]` for all axes or `[sx, sy, sz]`; applied first."),
    K_FLOATS("obstacles[].mesh.rotate", 0, MAC | LQ_SOLVER_PLS, 3, 3, -INF, INF, "[0, 0, 0]",
             "degrees", "Rotations about x, then y, then z (world axes), after the scale."),
    K_FLOATS("obstacles[].mesh.translate", 0, MAC | LQ_SOLVER_PLS, 3, 3, -INF, INF, "[0, 0, 0]",
             "m", "Offset added last."),
    K_ENUM("obstacles[].boundary", 0, ALL, "no-slip|free-slip", "no-slip",
           "Velocity condition on the obstacle's surface."),
    K_MAP("obstacles[].motion", 0, LQ_SOLVER_PLS,
          "Keyframed rigid motion of a box, sphere, cylinder or mesh (`pls`; Rasmussen et al. "
          "2004 §5.5): the object's signed distance and velocity are rebuilt every step (a "
          "mesh's distance is made once on a grid in its own frame, for small meshes). Not "
          "with static mesh or mask obstacles or terrain in the same scene."),
    K_FLOATS("obstacles[].motion.keys", REQ, LQ_SOLVER_PLS, 7, 7 * 256, -INF, INF, NULL, "",
             "Rows `[t, tx, ty, tz, rx, ry, rz, ...]` (s, m, degrees; times increasing): at time "
             "t the shape is turned about its own centre by Rz(rz) Ry(ry) Rx(rx), then moved by "
             "(tx, ty, tz) (a mesh: about the centre of its bounds); held before the first key and "
             "after the last. 2D: rz only."),
    K_ENUM("obstacles[].motion.interpolate", 0, LQ_SOLVER_PLS, "linear|smooth", "linear",
           "Between keys: linear, or smooth (a smoothstep per segment: at rest at every key)."),

    /* --- terrain --------------------------------------------------------------------- */
    K_LIST("terrain", TERR,
           "The ground height b(x, z), built item by item (see `combine`); without items "
           "the ground is flat at the grid's lower corner."),
    K_MAP("terrain[].plane", KIND, TERR, "A plane `height + slope·(x - x0, z - z0)`."),
    K_FLOAT("terrain[].plane.height", 0, TERR, -INF, INF, "0", "m", "Height at the grid origin."),
    K_FLOATS("terrain[].plane.slope", 0, TERR, 2, 2, -INF, INF, "[0, 0]", "",
             "Slope `[db/dx, db/dz]`."),
    K_MAP("terrain[].ramp", KIND, TERR,
          "A beach: linear from `height[0]` at `from` to `height[1]` at `to`, held constant "
          "beyond the ends."),
    K_FLOATS("terrain[].ramp.from", REQ, TERR, 2, 2, -INF, INF, NULL, "m", "Start point `[x, z]`."),
    K_FLOATS("terrain[].ramp.to", REQ, TERR, 2, 2, -INF, INF, NULL, "m", "End point `[x, z]`."),
    K_FLOATS("terrain[].ramp.height", REQ, TERR, 2, 2, -INF, INF, NULL, "m",
             "Heights at `from` and at `to`."),
    K_MAP("terrain[].box", KIND, TERR, "Raises the ground to `max.y` over the box's footprint."),
    K_FLOATS("terrain[].box.min", REQ, TERR, 3, 3, -INF, INF, NULL, "m", "Lower corner."),
    K_FLOATS("terrain[].box.max", REQ, TERR, 3, 3, -INF, INF, NULL, "m", "Upper corner."),
    K_MAP("terrain[].gaussian", KIND, TERR, "A hill `height·exp(-r²/(2·sigma²))`."),
    K_FLOATS("terrain[].gaussian.center", REQ, TERR, 2, 2, -INF, INF, NULL, "m",
             "Centre `[x, z]`."),
    K_FLOAT("terrain[].gaussian.sigma", REQ | GT, TERR, 0, INF, NULL, "m", "Standard deviation."),
    K_FLOAT("terrain[].gaussian.height", REQ, TERR, -INF, INF, NULL, "m",
            "Peak height (negative for a pit)."),
    K_MAP("terrain[].bowl", KIND, TERR, "Thacker's basin `b = -depth·(1 - r²/radius²)`."),
    K_FLOATS("terrain[].bowl.center", REQ, TERR, 2, 2, -INF, INF, NULL, "m", "Centre `[x, z]`."),
    K_FLOAT("terrain[].bowl.radius", REQ | GT, TERR, 0, INF, NULL, "m",
            "Radius where the bowl meets height 0."),
    K_FLOAT("terrain[].bowl.depth", REQ | GT, TERR, 0, INF, NULL, "m", "Depth at the centre."),
    K_ENUM("terrain[].bowl.axis", 0, TERR, "radial|x|z", "radial",
           "`radial`: r is the distance from the centre; `x` or `z`: a parabolic canal, "
           "r measured along that axis only."),
    K_MAP("terrain[].heightmap", KIND, TERR,
          "Ground heights from a gray PNG image (8- or 16-bit), row 0 at z = min."),
    K_FILE("terrain[].heightmap.file", REQ, TERR,
           "The PNG file, relative to the scene file's folder."),
    K_FLOAT("terrain[].heightmap.min", 0, TERR, -INF, INF, "0", "m", "Height of black."),
    K_FLOAT("terrain[].heightmap.max", REQ, TERR, -INF, INF, NULL, "m", "Height of white."),
    K_FLOATS("terrain[].heightmap.origin", 0, TERR, 2, 2, -INF, INF, NULL, "m",
             "World `[x, z]` of the image's corner; default: the grid origin."),
    K_FLOATS("terrain[].heightmap.size", GT, TERR, 2, 2, 0, INF, NULL, "m",
             "World extent `[x, z]` the image covers; default: the grid's extent."),
    K_ENUM("terrain[].combine", 0, TERR, "max|add", "max",
           "How the item joins what the earlier items built: `max` (union of solids) or "
           "`add` (added heights)."),
    K_ENUM("terrain[].boundary", 0, MAC, "free-slip|no-slip", "free-slip",
           "Velocity condition on the ground's surface for the 3D solvers, which make the "
           "cells whose centre lies below b(x, z) solid: the whole ground is `no-slip` when "
           "any item says so."),

    /* --- sources and sinks ----------------------------------------------------------- */
    K_LIST("sources", HF | MAC | PLS,
           "Water added to or taken from the liquid while it runs (height fields: rain, drops, "
           "discs, wavemakers, pipes; `mac` and `pls`: inlets and outlets)."),
    K_MAP("sources[].rain", KIND, SHAL, "Random drops falling on a region."),
    K_FLOAT("sources[].rain.rate", REQ, SHAL, 0, INF, NULL, "drops/s", "Drops per second."),
    K_FLOAT("sources[].rain.radius", REQ | GT, SHAL, 0, INF, NULL, "m", "Drop radius."),
    K_FLOATS("sources[].rain.region_min", 0, SHAL, 2, 2, -INF, INF, NULL, "m",
             "Lower corner `[x, z]` of the rain; default: the grid's."),
    K_FLOATS("sources[].rain.region_max", 0, SHAL, 2, 2, -INF, INF, NULL, "m",
             "Upper corner `[x, z]` of the rain; default: the grid's."),
    K_FLOAT("sources[].rain.start", 0, SHAL, 0, INF, "0", "s", "Time the rain starts."),
    K_FLOAT("sources[].rain.stop", 0, SHAL, 0, INF, "1e30", "s", "Time the rain stops."),
    K_INT("sources[].rain.seed", 0, SHAL, 0, INF, "1", "",
          "Seed of the drop positions (the same on every machine)."),
    K_MAP("sources[].drop", KIND, SHAL, "One drop of water."),
    K_FLOATS("sources[].drop.center", REQ, SHAL, 2, 2, -INF, INF, NULL, "m",
             "Where it lands `[x, z]`."),
    K_FLOAT("sources[].drop.radius", REQ | GT, SHAL, 0, INF, NULL, "m", "Drop radius."),
    K_FLOAT("sources[].drop.time", 0, SHAL, 0, INF, "0", "s", "When it lands."),
    K_MAP("sources[].inflow", KIND, SHAL, "Water added over a disc at a steady rate."),
    K_FLOATS("sources[].inflow.center", REQ, SHAL, 2, 2, -INF, INF, NULL, "m", "Centre `[x, z]`."),
    K_FLOAT("sources[].inflow.radius", REQ | GT, SHAL, 0, INF, NULL, "m", "Disc radius."),
    K_FLOAT("sources[].inflow.rate", REQ, SHAL, 0, INF, NULL, "m³/s", "Volume added per second."),
    K_FLOAT("sources[].inflow.start", 0, SHAL, 0, INF, "0", "s", "Time the inflow starts."),
    K_FLOAT("sources[].inflow.stop", 0, SHAL, 0, INF, "1e30", "s", "Time the inflow stops."),
    K_MAP("sources[].drain", KIND, SHAL,
          "Water removed over a disc at a steady rate (never below the ground)."),
    K_FLOATS("sources[].drain.center", REQ, SHAL, 2, 2, -INF, INF, NULL, "m", "Centre `[x, z]`."),
    K_FLOAT("sources[].drain.radius", REQ | GT, SHAL, 0, INF, NULL, "m", "Disc radius."),
    K_FLOAT("sources[].drain.rate", REQ, SHAL, 0, INF, NULL, "m³/s", "Volume removed per second."),
    K_FLOAT("sources[].drain.start", 0, SHAL, 0, INF, "0", "s", "Time the drain opens."),
    K_FLOAT("sources[].drain.stop", 0, SHAL, 0, INF, "1e30", "s", "Time the drain closes."),
    K_MAP("sources[].wavemaker", KIND, SHAL,
          "A strip along one wall whose surface is raised and lowered as "
          "`amplitude·sin(2πt/period)` by adding and removing water: it sends waves away "
          "from the wall, and its volume returns to zero over each period."),
    K_ENUM("sources[].wavemaker.wall", 0, SHAL, "x_min|x_max|z_min|z_max", "x_min",
           "The wall the strip lies along."),
    K_FLOAT("sources[].wavemaker.width", REQ | GT, SHAL, 0, INF, NULL, "m",
            "Width of the strip, measured from the wall."),
    K_FLOAT("sources[].wavemaker.amplitude", REQ, SHAL, 0, INF, NULL, "m",
            "Amplitude of the strip's surface motion."),
    K_FLOAT("sources[].wavemaker.period", REQ | GT, SHAL, 0, INF, NULL, "s", "Wave period."),
    K_FLOAT("sources[].wavemaker.start", 0, SHAL, 0, INF, "0", "s", "Time it starts."),
    K_FLOAT("sources[].wavemaker.stop", 0, SHAL, 0, INF, "1e30", "s", "Time it stops."),

    K_MAP("sources[].pipe", KIND, SPL,
          "A stretch of one wall whose boundary pipes (§3.1) carry a set flow into the grid "
          "(negative: out of it), `rate + amplitude·sin(2π(t - start)/period)` between "
          "`start` and `stop`, shared evenly by the columns along the stretch."),
    K_ENUM("sources[].pipe.wall", 0, SPL, "x_min|x_max|z_min|z_max", "x_min",
           "The wall the pipes go through."),
    K_FLOATS("sources[].pipe.span", 0, SPL, 2, 2, -INF, INF, NULL, "m",
             "World coordinates `[from, to]` along the wall (z for x walls, x for z walls); "
             "default: the whole wall."),
    K_FLOAT("sources[].pipe.rate", REQ, SPL, -INF, INF, NULL, "m³/s",
            "Mean flow into the grid (negative for a sink; a sink never takes water that is "
            "not there: eq. 9 scales it back)."),
    K_FLOAT("sources[].pipe.amplitude", 0, SPL, -INF, INF, "0", "m³/s",
            "Amplitude of the flow's sinusoidal part."),
    K_FLOAT("sources[].pipe.period", GT, SPL, 0, INF, "1", "s", "Period of the sinusoidal part."),
    K_FLOAT("sources[].pipe.start", 0, SPL, 0, INF, "0", "s", "Time the flow starts."),
    K_FLOAT("sources[].pipe.stop", 0, SPL, 0, INF, "1e30", "s", "Time the flow stops."),
    /* mac: Foster & Metaxas §3.2.2, §7.1; pls: Rasmussen et al. §5.4 (host/ops/pls/plssource.h) */
    K_MAP("sources[].inlet", KIND, MAC | PLS,
          "Inflow cells: the cells whose centres lie in the inlet's shape hold its velocity on "
          "their faces and make liquid. `mac` (§3.2.2): they emit marker particles; usually a "
          "slab of the wall layer or a few cells inside the tank. `pls` (an emitter: §5.4's "
          "sourced values, held while eq. 1 and 2 are solved): they are filled with liquid "
          "every step and are a boundary of the projection that liquid leaves through the "
          "faces the velocity points out of (the others are closed), so it delivers `flow` "
          "whether it pours into air or under the surface; at `stop` the liquid in its cells "
          "is left as it is (an inlet in the air lets that last plug fall: the stats' "
          "source_volume counts it). The shape: `min` and `max` (a box, the only shape of "
          "`mac`), or one of `sphere`, `cylinder`, `mesh` (`pls`)."),
    K_FLOATS("sources[].inlet.min", 0, MAC | PLS, 3, 3, -INF, INF, NULL, "m",
             "Lower corner of a box inlet (with `max`)."),
    K_FLOATS("sources[].inlet.max", 0, MAC | PLS, 3, 3, -INF, INF, NULL, "m",
             "Upper corner of a box inlet (with `min`)."),
    LQ_KEYS_REGION_SHAPES("sources[].inlet", "inlet"),
    K_FLOATS("sources[].inlet.velocity", REQ, MAC | PLS, 3, 3, -INF, INF, NULL, "m/s",
             "Inflow velocity u0 (its direction is kept; the profile scales its speed; `pls` "
             "with `flow`: its direction only)."),
    K_FLOAT("sources[].inlet.flow", 0, PLS, 0, INF, NULL, "m³/s",
            "Volume delivered per second (`pls`; 2D: m²/s per metre of depth): the speed along "
            "`velocity`'s direction is flow divided by the area of the inlet's faces that "
            "direction leaves through (faces toward the domain edge or a static obstacle "
            "excluded); the profile then scales the flow. Default: `velocity`'s speed times "
            "that area."),
    K_ENUM("sources[].inlet.profile", 0, MAC | PLS, "constant|decay|wave|table", "constant",
           "The speed over time τ since `start` (§7.1): constant; decay: u0·exp(-rate·τ) (a "
           "broken dam); wave: u0 + amplitude·omega·sin(omega·τ), eq. 20 read as the face's "
           "acceleration a·ω²·cos ωτ; table: u0 times the keyframed factor (`pls` with "
           "`flow`: the flow in place of u0)."),
    K_FLOAT("sources[].inlet.rate", 0, MAC | PLS, 0, INF, "1", "1/s", "Decay rate of `decay`."),
    K_FLOAT("sources[].inlet.amplitude", 0, MAC | PLS, -INF, INF, "0", "m",
            "Wave amplitude a of `wave` (eq. 20)."),
    K_FLOAT("sources[].inlet.omega", 0, MAC | PLS, 0, INF, "1", "rad/s",
            "Wave frequency ω of `wave` (eq. 20)."),
    K_FLOATS("sources[].inlet.table", 0, MAC | PLS, 2, 512, -INF, INF, NULL, "",
             "Keyframes `[t0, f0, t1, f1, ...]` of `table` (times from `start`, increasing; "
             "linear between keys, held outside)."),
    K_FLOAT("sources[].inlet.particles", 0, MAC, 0, INF, NULL, "1/s",
            "Markers emitted per second (the paper's jet: 500). Default: the flux through the "
            "inlet's open faces at the scene's particles per cell."),
    K_FLOAT("sources[].inlet.start", 0, MAC | PLS, 0, INF, "0", "s",
            "Time the inlet opens (`mac`: before it, its cells are free-slip wall). `pls`: it "
            "delivers during the steps that start in [start, stop): put both on frame times "
            "for exactly flow × (stop - start)."),
    K_FLOAT("sources[].inlet.stop", 0, MAC | PLS, 0, INF, "1e30", "s", "Time the inlet closes."),
    K_ENUM("sources[].inlet.then", 0, MAC, "wall|outflow", "wall",
           "What the inlet's cells become at `stop`: free-slip wall, or outflow cells that let "
           "the added liquid leave at its own rate (Moonlight Cove, §8)."),
    K_MAP("sources[].outlet", KIND, MAC | PLS,
          "Outflow cells: liquid leaves through them at its own rate. `mac` (§3.2.2): their "
          "faces follow the adjacent liquid; markers entering them are removed. `pls` (a "
          "sink): the liquid in them is removed every step, so they are air to the "
          "projection and liquid falls or flows into them freely (not in the cells of an open "
          "inlet). The shape: `min` and `max` (a box, the only shape of `mac`), or one of "
          "`sphere`, `cylinder`, `mesh`, `level` (`pls`)."),
    K_FLOATS("sources[].outlet.min", 0, MAC | PLS, 3, 3, -INF, INF, NULL, "m",
             "Lower corner of a box outlet (with `max`)."),
    K_FLOATS("sources[].outlet.max", 0, MAC | PLS, 3, 3, -INF, INF, NULL, "m",
             "Upper corner of a box outlet (with `min`)."),
    LQ_KEYS_REGION_SHAPES("sources[].outlet", "outlet"),
    K_FLOAT("sources[].outlet.level", 0, PLS, -INF, INF, NULL, "m",
            "The liquid above this height is removed everywhere (`pls`), falling streams and "
            "splashes too: an overflow that holds the level of a pool fed from below or from "
            "the side (a stream poured from above it is removed as it passes)."),
    K_FLOAT("sources[].outlet.start", 0, PLS, 0, INF, "0", "s",
            "Time the outlet opens (`pls`; it acts in the steps that start in [start, stop))."),
    K_FLOAT("sources[].outlet.stop", 0, PLS, 0, INF, "1e30", "s",
            "Time the outlet closes (`pls`)."),

    /* --- objects: O'Brien & Hodgins §4 (splash), Foster & Metaxas §5 (mac) ------------ */
    K_LIST("objects", SPL | MAC,
           "Rigid bodies that fall into, float on and are carried by the water, or follow a "
           "scripted path (`splash`). `mac` moves them by the liquid's pressure gradient and "
           "velocity sampled at nodes inside them (§5)."),
    K_MAP("objects[].sphere", KIND, SPL | MAC, "A ball."),
    K_FLOATS("objects[].sphere.center", REQ, SPL | MAC, 3, 3, -INF, INF, NULL, "m",
             "Centre (with `path_file`: its place in the path's frame)."),
    K_FLOAT("objects[].sphere.radius", REQ | GT, SPL | MAC, 0, INF, NULL, "m", "Radius."),
    K_MAP("objects[].ellipsoid", KIND, SPL | MAC, "An ellipsoid."),
    K_FLOATS("objects[].ellipsoid.center", REQ, SPL | MAC, 3, 3, -INF, INF, NULL, "m",
             "Centre (with `path_file`: its place in the path's frame)."),
    K_FLOATS("objects[].ellipsoid.radii", REQ | GT, SPL | MAC, 3, 3, 0, INF, NULL, "m",
             "Radii along the body's x, y, z axes."),
    K_MAP("objects[].box", KIND, SPL | MAC, "A box."),
    K_FLOATS("objects[].box.center", REQ, SPL | MAC, 3, 3, -INF, INF, NULL, "m",
             "Centre (with `path_file`: its place in the path's frame)."),
    K_FLOATS("objects[].box.size", REQ | GT, SPL | MAC, 3, 3, 0, INF, NULL, "m",
             "Edge lengths along the body's x, y, z axes."),
    K_MAP("objects[].cylinder", KIND, MAC,
          "A solid can (`mac` only): its axis is the body's y axis. Previews draw its box; "
          "two cans collide as capsules (exact side to side and end to end), a can and "
          "another shape by its box's bounding sphere."),
    K_FLOATS("objects[].cylinder.center", REQ, MAC, 3, 3, -INF, INF, NULL, "m", "Centre."),
    K_FLOAT("objects[].cylinder.radius", REQ | GT, MAC, 0, INF, NULL, "m", "Radius."),
    K_FLOAT("objects[].cylinder.height", REQ | GT, MAC, 0, INF, NULL, "m",
            "Length along the axis."),
    K_STRING("objects[].name", 0, SPL | MAC, NULL,
             "Name in `objects.csv`; default: the shape word and its index."),
    K_FLOAT("objects[].density", GT, SPL | MAC, 0, INF, "500", "kg/m³",
            "Density; the body floats when it is below the liquid's (`splash.density`; "
            "`mac`: 1000)."),
    K_FLOATS("objects[].velocity", 0, SPL | MAC, 3, 3, -INF, INF, "[0, 0, 0]", "m/s",
             "Initial velocity."),
    K_FLOATS("objects[].rotation", 0, SPL | MAC, 3, 3, -INF, INF, "[0, 0, 0]", "degrees",
             "Initial orientation as rotations about x, then y, then z (world axes)."),
    K_FLOATS("objects[].spin", 0, SPL | MAC, 3, 3, -INF, INF, "[0, 0, 0]", "rad/s",
             "Initial angular velocity (world axes)."),
    K_FLOAT("objects[].release", 0, SPL, 0, INF, "0", "s",
            "The body is held still (and out of the water's way) until this time, then "
            "falls."),
    K_FLOAT("objects[].drag", 0, SPL | MAC, 0, INF, "1", "1/s",
            "Damping of the body's motion relative to the water, per second: it is pulled "
            "toward the water's velocity with the force drag times the mass of water it "
            "displaces times the relative velocity (`mac`: eq. 16, node by node; `splash`: "
            "horizontally toward the water around it, which takes the opposite force, and "
            "vertically its bobbing, in proportion to the fraction submerged)."),
    K_FLOAT("objects[].restitution", 0, SPL | MAC, 0, 1, "0.3", "",
            "Bounce of collisions with the pool's walls and floor (`mac`: and obstacles) and "
            "with other bodies."),
    K_ENUM("objects[].coupling", 0, MAC, "one-way|two-way", "one-way",
           "`one-way`: the liquid moves the body and the body does not change the liquid "
           "(the paper's §5). `two-way`: the body's cells are also solid to the liquid and "
           "move with it, so it pushes the liquid (mac.surface: markers only; the body's "
           "drag is not applied)."),
    K_FILE("objects[].path_file", 0, SPL,
           "A CSV trajectory (`t,x,y,z` and optionally `qw,qx,qy,qz`) the body follows "
           "instead of falling freely; bodies sharing one file move as one rigid set "
           "(the paper's diver). Relative to the scene file's folder."),
    K_FLOATS("objects[].color", 0, SPL | MAC, 3, 3, 0, 1, "[0.8, 0.3, 0.2]", "",
             "Linear RGB colour in previews."),

    /* --- spray: O'Brien & Hodgins §3.3 (splash), Foster & Metaxas §4.3 (mac) ------------- */
    K_MAP("spray", 0, SPL | MAC,
          "Droplets thrown up where the surface rises fast (O'Brien & Hodgins §3.3; Foster & "
          "Metaxas §4.3)."),
    K_FLOAT("spray.threshold", GT, SPL | MAC, 0, INF, "2.0", "m/s",
            "Upward surface speed above which a control point (`splash`) or a surface cell "
            "with empty space above it (`mac`: the mean of its two vertical faces) emits spray "
            "(the paper used 2.0-2.5 m/s)."),
    K_FLOAT("spray.rate", 0, SPL | MAC, 0, INF, "200000", "1/(m² s)",
            "Particles emitted per second per square metre of (horizontal) surface above the "
            "threshold (0: no spray)."),
    K_FLOAT("spray.volume", GT, SPL, 0, 1, "2e-7", "m³",
            "Water volume each particle carries away from its columns and returns where it "
            "lands."),
    K_FLOAT("spray.drag", 0, SPL | MAC, 0, INF, "0", "1/s",
            "Air resistance: velocity relative to the air (`spray.wind`, `mac`; still air for "
            "`splash`) lost per second (0: exact ballistic flight)."),
    K_INT("spray.max_particles", 0, SPL | MAC, 0, 100000000, "1000000", "",
          "Room for particles in flight (and foam, `mac`); emission beyond it is skipped and "
          "counted."),
    K_INT("spray.seed", 0, SPL | MAC, 0, 2147483647, "1", "",
          "Seed of the particles' random numbers (the same on every device)."),
    K_FLOATS("spray.wind", 0, MAC, 3, 3, -INF, INF, "[0, 0, 0]", "m/s",
             "The air's velocity `[x, y, z]`, which drag pulls the spray toward (no effect "
             "while `spray.drag` is 0)."),
    K_FLOAT("spray.radius", GT, MAC, 0, 1, "0.002", "m",
            "Mean radius of an emitted droplet (radii are uniform within 25% of it); it sets "
            "the foam's life and is written with the particles. The spray is decorative: it "
            "takes no liquid from the grid."),
    K_FLOAT("spray.spread", 0, MAC, 0, INF, "0.5", "m/s",
            "Random separation velocity: each emitted droplet, and each half of a separating "
            "one, gets up to this much added along each axis."),
    K_FLOAT("spray.separation", 0, MAC, 0, INF, "1", "1/s",
            "Chance per second that an airborne droplet separates into two of half its volume "
            "(dispersing spray, §4.3)."),

    /* --- foam: Foster & Metaxas §4.3 (mac) ----------------------------------------------- */
    K_MAP("foam", 0, MAC, "Foam where spray falls back onto the liquid (Foster & Metaxas §4.3)."),
    K_BOOL("foam.enabled", MAC, "true",
           "Spray that falls back onto the liquid becomes foam; false: it disappears."),
    K_FLOAT("foam.life", 0, MAC, 0, INF, "3", "s",
            "Life span of foam from a droplet of `spray.radius`: random within 50% of this, in "
            "proportion to the parent droplet's radius."),
    K_FLOAT("foam.rise", 0, MAC, 0, INF, "0.1", "m/s",
            "Speed at which foam carried under the surface floats back up; at the surface foam "
            "moves with the liquid."),

    /* --- splash: O'Brien & Hodgins 1995 -------------------------------------------------- */
    K_MAP("splash", 0, SPL, "Settings of the `splash` solver."),
    K_FLOAT("splash.density", GT, SPL, 0, INF, "1000", "kg/m³", "The water's density ρ."),
    K_FLOAT("splash.conductance", GT, SPL, 0, 100, "1", "",
            "Pipe constant k: every pipe's c/l is k times its share times the mean depth of "
            "its columns, which makes waves travel at √(k·g·h); 1 gives shallow-water speed."),
    K_FLOAT("splash.diagonal", 0, SPL, 0, 0.99, "0.333333", "",
            "Share of the conductance given to the four diagonal pipes (1/3 makes waves "
            "travel the same speed in every direction)."),
    K_FLOAT("splash.damping", 0, SPL, 0, INF, "0", "1/s",
            "Damping of the pipe flows during integration, per second."),
    K_FLOAT("splash.viscosity", 0, SPL, 0, INF, "0", "m²/s",
            "Diffusion of the pipe flows between neighbouring parallel pipes (an eddy "
            "viscosity, not in the paper): damps the shortest waves, at a rate growing as "
            "the square of the wavenumber, and leaves long ones alone. Fine grids need it: "
            "the pipe model carries every wavelength at the same speed, so a steep front "
            "stays steep and its fast-rising surface throws spray all the way out. Stable "
            "while viscosity·Δt/Δx² stays below 1/8 (the step is shortened to keep it so)."),
    K_FLOAT("splash.contact_stiffness", GT, SPL, 0, 1000, "64", "",
            "κ: the pressure head an object puts on a column is κ times how far the water "
            "would rise into it (capped at the object's thickness there). Larger is closer "
            "to Archimedes at equilibrium (draft error about 1/(1+κ) of the draft) and "
            "needs smaller steps (by √(1+κ) while an object touches the water)."),
    K_ENUM("splash.impact", 0, SPL, "heuristic|surface", "heuristic",
           "The force an object takes on impact (§4, eq. 17): `heuristic` is the contact "
           "pressure, which grows with the size of the impact face, bounded by f_max; "
           "`surface` is the force that stops the object on the surface in one step (an "
           "inelastic impact: it then sinks only as fast as it pushes the water away), "
           "bounded by f_max."),
    K_INT("splash.volume_passes", 0, SPL, 1, 64, "3", "",
          "Passes of the non-negative-volume rule (eq. 9) per step; the last one always "
          "guarantees it."),
    K_INT("splash.substeps", 0, SPL, 0, 100000, "0", "",
          "Steps per frame; 0 chooses them from `time.cfl`. The pipes are explicit: fewer "
          "steps than the stability bound (Courant number √(k g d) Δt/Δx below 0.866 at the "
          "default `splash.diagonal`, √(1 + κ) lower while a body presses on the water) is "
          "an error, and a frame whose water deepens past it or whose body reaches the water "
          "takes the bound."),

    /* --- mac: Foster & Metaxas 1996 ---------------------------------------------------- */
    K_MAP("mac", 0, MAC, "Settings of the `mac` solver."),
    K_FLOAT("mac.viscosity", 0, MAC, 0, 10, "1e-6", "m²/s",
            "Kinematic viscosity ν of eq. 2 (water: 1e-6; thick soup: 3e-3)."),
    K_ENUM("mac.preset", 0, MAC, "liquidcl|paper", "liquidcl",
           "The five switches where liquidcl departs from Foster & Metaxas (1996) in one key, "
           "as defaults that a switch written in the scene (or by `--set`) still overrides. "
           "`liquidcl`: the improved choices, each switch's own default (`mac.upwind` 1, "
           "`mac.surface_pressure` fill, `mac.surface_solve` true, `mac.fill_cavities` true, "
           "`mac.pressure` mgpcg). `paper`: the paper's (`mac.upwind` 0: centred differences; "
           "`mac.surface_pressure` centre; `mac.surface_solve` false: Gates' rules close the "
           "surface cells' divergence; `mac.fill_cavities` false: a cell without markers is "
           "air, §4.1; `mac.pressure` red-black, §3.1). The measured effect of each: "
           "docs/VALIDATION.md, `mac` presets; of the pressure methods docs/PERFORMANCE.md."),
    K_FLOAT("mac.upwind", 0, MAC, 0, 1, "1", "",
            "Donor-cell share γ of eq. 2's convective terms: 0 is the paper's centred "
            "differences (unstable for nearly inviscid flow: a dam break blew up), 1 fully "
            "upwinded (stable, first order)."),
    K_ENUM("mac.advection", 0, MAC, "donor|limited", "donor",
           "How eq. 2's convective terms are differenced. `donor`: centred, plus `mac.upwind` "
           "of the donor-cell diffusion (at 1, first-order upwinding: a numerical viscosity of "
           "about speed × δx/2, which swamps `mac.viscosity`). `limited`: second-order upwind "
           "fluxes with the monotonized-central limiter (donor cell only at extrema and "
           "jumps), the step's Courant number held at 0.5 (more steps where speed sets it); "
           "`mac.upwind` does not apply and may not be written with it. On a Taylor-Green "
           "vortex ν_eff is 0.33 × U·δx/2 with donor, 0.002 with limited at 32 cells "
           "(docs/VALIDATION.md, `mac` advection); less damping also leaves more late motion "
           "after a splash (drop splash: 0.097 J against 0.060 J). Unchanged by `mac.preset`."),
    K_ENUM("mac.pressure", 0, MAC, "red-black|jacobi|mgpcg", "mgpcg",
           "The pressure iteration of eq. 5-9: red-black ordered sweeps, weighted Jacobi, or "
           "mgpcg: the same equations (their fixed point, with the surface conditions and "
           "Gates' boundary velocities as boundary data) solved by the multigrid-preconditioned "
           "CG of the pls solver, then red-black sweeps until the same test holds (usually "
           "none). 3-10 iterations a step in every paper scene against red-black's 24-224 "
           "sweeps, 17-23 at 4x in 3D (not flat, but growing far slower than the sweeps; the "
           "soda cans' 18 and the sluice gate's 19 became 12 and 16 with the coarse levels' "
           "surface and wall fix of 2026-11-29, 2 frames each), and "
           "a faster run in all but the smallest (docs/PERFORMANCE.md); the default "
           "(`mac.preset: paper`: red-black). stats: pressure_iterations counts CG's "
           "iterations and the sweeps, pressure_sweeps_after_pcg the sweeps."),
    K_FLOAT("mac.beta0", GT, MAC, 0, 2, NULL, "",
            "β0 of eq. 7, SOR's over-relaxation (the paper used 1.7 with red-black sweeps; "
            "Jacobi converges only up to 1). Default: red-black 2/(1 + sin(π/N)) for the "
            "longest side N, held within [1.7, 1.9]; Jacobi 1."),
    K_INT("mac.max_sweeps", 0, MAC, 1, 1000000, "2000", "",
          "The most sweeps a step's pressure iteration may take (a step that stops here is "
          "counted in stats as pressure_unconverged)."),
    K_FLOAT("mac.epsilon", GT, MAC, 0, 1, "1e-4", "1/s",
            "The iteration stops when every FULL cell's divergence is below this in size, "
            "beyond what float32 resolves there (4·2^-23 of the sum of its face speeds over "
            "the cell size: the sweeps stall at about half that)."),
    K_MAP("mac.forcing", 0, MAC,
          "A pressure history on the free surface (§7.2, eq. 17-19): p = (A + B·cos(C·s - "
          "omega·t))/δt in SURFACE cells, B = a·sqrt(g·D/C), C = π/L, s along `axis`."),
    K_FLOAT("mac.forcing.mean", 0, MAC, -INF, INF, "0", "m²/s", "A: δt times the mean pressure."),
    K_FLOAT("mac.forcing.amplitude", 0, MAC, -INF, INF, "0", "m", "a: the wave amplitude."),
    K_FLOAT("mac.forcing.depth", GT, MAC, 0, INF, "1", "m", "D: the mean depth of the liquid."),
    K_FLOAT("mac.forcing.half_wavelength", GT, MAC, 0, INF, "1", "m",
            "L: half the wavelength (C = π/L)."),
    K_FLOAT("mac.forcing.omega", 0, MAC, -INF, INF, "0", "rad/s", "ω: the wave frequency."),
    K_ENUM("mac.forcing.axis", 0, MAC, "x|z", "x", "The axis the forced wave runs along."),
    K_ENUM("mac.surface", 0, MAC, "markers|heightfield|chains", "markers",
           "How the surface is tracked (§4): marker particles filling the liquid (§4.1); a "
           "height field h(x, z) moved by eq. 11-12, for scenes that do not overturn; or 2D "
           "particle chains with region growing (§4.2, nz = 1)."),
    K_ENUM("mac.surface_pressure", 0, MAC, "fill|centre", "fill",
           "Where a SURFACE cell's atmospheric pressure sits: `centre`, the paper's (the "
           "pressure jumps by a whole g·δy when the surface crosses a row of faces); `fill`, at "
           "the height its marker fill puts an up-facing surface, by a ghost-fluid line from the "
           "full cell below (markers only)."),
    K_BOOL(
        "mac.surface_solve", MAC, "true",
        "Relax the SURFACE cells in the pressure iteration too (Foster & Fedkiw 2001), the "
        "EMPTY cells holding the air side of the pressure line through the surface (0, or "
        "the ghost-fluid value from the marker fill above an up-facing surface cell; "
        "mac.surface_solve_ghost says where the relaxation puts the air), so a surface cell "
        "leaves it divergence-free and Gates' conditions keep its faces (drops and jets or films "
        "one cell thick are held at 0 the paper's way). Off (the paper's): "
        "a surface cell keeps its applied pressure and Gates' rules close its divergence, "
        "which keeps a flat surface stirring. Markers only, not with mac.forcing: left "
        "unset, it is off for those."),
    K_BOOL("mac.fill_cavities", MAC, "true",
           "A cell inside the liquid left without markers (they spread out in a stretching "
           "flow) counts as liquid (FULL) when liquid or solid closes it in on every side; "
           "false: it is air (EMPTY) at the atmosphere's pressure, the paper's rule (§4.1), "
           "and pulls its neighbours in. Filling is the default; it makes the pressure "
           "iteration slower (the water jet 224 sweeps a step against 147) and at 4x the jet's "
           "stalls at mac.max_sweeps in 525 of 3023 steps, which false avoids. Markers only."),
    K_ENUM("mac.air_pockets", 0, MAC, "atmospheric|gas", "atmospheric",
           "The pressure of air sealed under liquid (a connected region of empty cells that "
           "does not reach the inside's top layer, the one opposite gravity, or an outlet). "
           "`atmospheric`: every empty cell is at the atmosphere's pressure, the paper's "
           "(§3.2.3), so a sealed pocket closes as a void. `gas`: each pocket is an ideal gas "
           "(γ 1.4, sealed at 101325 Pa, ρ 1000 kg/m³), p = p0 (V0/V)^γ, its volume from its "
           "empty cells and the air in the surface cells at its wall; pockets that merge pool "
           "their gas, one that reaches the open air is atmospheric again; a pocket too small "
           "for the step to follow its ringing (ω·δt > 1) is made softer until it can. Found "
           "on the device every step. Needs mac.surface_solve and mac.surface: markers. "
           "stats: air_pockets, air_pocket_cells, air_pocket_max_pressure "
           "(docs/VALIDATION.md, `mac` air pockets)."),
    K_ENUM("mac.surface_solve_ghost", 0, MAC, "fill|empty", "fill",
           "With mac.surface_solve, where the relaxation puts the air: `fill`, at the height the "
           "marker fill puts an up-facing surface (ghost fluid: the surface cell's +y face moves "
           "by 1/θ, θ its centre's distance to the surface in cells; a surface cell under half "
           "full is held on the line from the full cell below and closed by Gates' rules); "
           "`empty`, at the EMPTY cells' centres, every surface cell relaxed: calmer (about "
           "half the stirring of `fill`), but the air between the surface and those centres "
           "moves as liquid and a wave lower than a cell runs up to 7 % slow."),
    K_INT("mac.particles", 0, MAC, 0, 64, "0", "",
          "Marker particles per cell (a square in 2D, a cube in 3D; 0: 4 in 2D, 8 in 3D; the "
          "paper's drop used 25)."),

    /* --- pls: Rasmussen et al. 2004 §3, Enright et al. 2002 ------------------------------ */
    K_MAP("pls", 0, LQ_SOLVER_PLS, "Settings of the `pls` solver (particle level set)."),
    K_FLOAT("pls.cfl", GT, LQ_SOLVER_PLS, 0, 10, "3", "",
            "Courant number of the semi-Lagrangian step: dt = cfl·h / max speed, also at most "
            "cfl·sqrt(h / g) (g: the magnitude of gravity) and the frame end (`time.cfl` is "
            "not read)."),
    K_ENUM("pls.pressure", 0, LQ_SOLVER_PLS, "pcg|sor|jacobi", "pcg",
           "Pressure solver of the ghost-fluid projection: `pcg` (conjugate gradients with a "
           "multigrid V-cycle preconditioner), `sor` (red-black SOR) or `jacobi`."),
    K_ENUM("pls.velocity_advection", 0, LQ_SOLVER_PLS, "plain|maccormack|bfecc", "plain",
           "How the face velocity is carried along itself: `plain` (one RK2 backtrace and a "
           "trilinear sample, Stam 1999: first order, it damps small vortices), or the limited "
           "second-order `maccormack` (Selle et al. 2008) or `bfecc` (Dupont & Liu 2003), three "
           "passes each. The level set always takes BFECC. docs/VALIDATION.md (Advection "
           "schemes) and docs/PERFORMANCE.md (pls) measure what each keeps and costs."),
    K_FLOAT("pls.tolerance", GT, LQ_SOLVER_PLS, 0, 1, "1e-4", "",
            "The pressure solve stops when the residual is this fraction of the right-hand "
            "side (2-norms)."),
    K_INT("pls.max_iterations", 0, LQ_SOLVER_PLS, 1, 1000000, "1000", "",
          "Most pressure iterations per step."),
    K_INT("pls.particles_per_cell", 0, LQ_SOLVER_PLS, 0, 256, "0", "",
          "Particles seeded per cell of the band (each side of the surface); 0: 16 in 2D, 64 "
          "in 3D (Enright et al.)."),
    K_FLOAT("pls.band", GT, LQ_SOLVER_PLS, 0, 10, "3", "cells",
            "Half-width of the band around the surface where particles are seeded."),
    K_INT("pls.reseed_every", 0, LQ_SOLVER_PLS, 0, 1000000, "20", "steps",
          "Reseed the particles every this many steps (0: never)."),
    K_INT("pls.max_particles", 0, LQ_SOLVER_PLS, 0, 2000000000, "0", "",
          "Room for particles (32 bytes each), fixed; 0: particles_per_cell times four times "
          "the first seeding's band cells (at least twice a flat surface's band), grown while "
          "the device has memory. Particles beyond the room are dropped and counted."),
    K_BOOL("pls.divfree", LQ_SOLVER_PLS, "true",
           "Project the velocity extrapolated into the air divergence-free (Rasmussen et al. "
           "§5.2). Measured on the dam break at 64 x 40 x 28 over 30 frames (the zero set's "
           "volume): -0.77 % to +0.34 % with it, -4.6 % to +2.2 % without; the pour over the "
           "rock ends at +2.6 % with it, -42 % without."),
    K_BOOL("pls.volume_correction", LQ_SOLVER_PLS, "false",
           "Opt-in global volume correction, not the paper's: after the particle level set's "
           "corrections each step φ is shifted by one constant (a Newton step on the zero "
           "set's volume) back to the initial volume. It hides the drift rather than fixes it; "
           "stats.jsonl reports what it added per frame (volume_correction, m³). Not with "
           "sources or control particles."),
    K_FLOAT("pls.viscosity", 0, LQ_SOLVER_PLS, 0, 1e3, "0", "m²/s",
            "Kinematic viscosity ν (0: inviscid). Above 0, §5.1's split: the cross terms "
            "explicit, one implicit CG solve per velocity component (stable at any ν)."),
    K_ENUM("pls.viscosity_precond", 0, LQ_SOLVER_PLS, "jacobi|mg", "jacobi",
           "Preconditioner of the viscous CG solves: `jacobi` (the diagonal) or `mg` (one "
           "multigrid V-cycle per iteration on each velocity component's face lattice, "
           "Galerkin-coarsened: far fewer iterations at large ν Δt / h², same stopping "
           "test). docs/PERFORMANCE.md (pls viscosity) measures both."),
    K_MAP("pls.viscosity_change", 0, LQ_SOLVER_PLS,
          "ν over time: `pls.viscosity` times or decaying like the profile (a melting block: "
          "decay or a table of factors)."),
    K_ENUM("pls.viscosity_change.profile", 0, LQ_SOLVER_PLS, "constant|decay|wave|table",
           "constant",
           "constant; decay: ν·exp(-rate·t); wave: ν + amplitude·omega·sin(omega·t); "
           "table: ν times the keyframed factor."),
    K_FLOAT("pls.viscosity_change.rate", 0, LQ_SOLVER_PLS, 0, INF, "1", "1/s", "Decay rate."),
    K_FLOAT("pls.viscosity_change.amplitude", 0, LQ_SOLVER_PLS, -INF, INF, "0", "m²",
            "Amplitude of `wave`."),
    K_FLOAT("pls.viscosity_change.omega", 0, LQ_SOLVER_PLS, 0, INF, "1", "rad/s",
            "Frequency of `wave`."),
    K_FLOATS("pls.viscosity_change.table", 0, LQ_SOLVER_PLS, 2, 512, -INF, INF, NULL, "",
             "Keyframes `[t0, f0, t1, f1, ...]` (s, factor on ν; linear between keys)."),
    K_ENUM("pls.reinit", 0, LQ_SOLVER_PLS, "fim|pde", "fim",
           "Reinitialisation of φ to a signed distance: `fim` (fast iterative eikonal solve) or "
           "`pde` (Russo-Smereka pseudo-time steps)."),
    K_FLOAT("pls.reinit_keep", 0, LQ_SOLVER_PLS, 0, 1, "0.2", "",
            "Interface cells (a neighbour across φ = 0) whose gradient length is within this "
            "of 1 keep their φ through the reinitialisation, so it does not move the surface "
            "there; the others get Russo-Smereka's sub-cell distance (0: every one, which "
            "moves the surface a little at every step: a drop at rest lost 4 % in 36 steps)."),
    K_FLOAT("pls.reinit_threshold", 0, LQ_SOLVER_PLS, 0, 100, "0", "",
            "Reinitialise φ only in steps where the mean departure of the gradient length "
            "from 1 over the particles' band (φ within pls.band cells of 0) exceeds this (0: "
            "every step). stats.jsonl: reinitialisations (per frame) and phi_departure (the "
            "last step's mean)."),
    K_FLOAT("pls.object_friction", 0, LQ_SOLVER_PLS, 0, 1, "0", "",
            "The α of §5.5.1 at obstacles (static and moving): 0 the liquid slips along them, "
            "1 it sticks (takes their tangential velocity)."),
    K_BOOL("pls.object_separation", LQ_SOLVER_PLS, "true",
           "The paper's separation at obstacles, static and moving (§5.5.2): object cells the "
           "liquid "
           "moves away from (urel·N > 0.1 urel magnitude) while the pressure beside them is a "
           "tension turn to air; the projection treats them as air (open faces, p = 0) and "
           "the liquid there keeps its own normal velocity (§5.5.1's inequality), elsewhere "
           "the normal velocity is the object's. false: the normal velocity is always the "
           "object's (a rising object pulls a skirt of liquid after it)."),
    K_BOOL("pls.object_stratify", LQ_SOLVER_PLS, "true",
           "The paper's stratified liquid particles near obstacles (§5.5.3): liquid particles "
           "within a cell of an obstacle (and on the liquid side) at the start of a step end "
           "it no closer to it than they were (their approach along its normal, relative to "
           "its motion, removed; then projected out along the normal), so they do not pile "
           "up on it and a film on it stays resolved. false: they move freely and are deleted "
           "once inside."),
    K_BOOL("pls.enslave_pockets", LQ_SOLVER_PLS, "true",
           "Enslaved pockets (§5.6): every step, liquid regions that reach no air — walled in "
           "by hard control, obstacles, open inlets or the domain walls — are found "
           "(connected components on the device), left out of the pressure solve and given "
           "the diffused velocity of their boundary, so a pocket never makes the solve fail "
           "or stall. Runs when the scene has obstacles, inlets or velocity control; a liquid "
           "with no air at all is a closed tank, left to the solve. false: the pockets stay "
           "in the solve (squeezed by hard control, it stalls at pls.max_iterations)."),
    K_INT("pls.pocket_passes", 0, LQ_SOLVER_PLS, 1, 64, "4", "",
          "Averaging passes over an enslaved pocket's faces (§5.6: \"a couple of times\"): "
          "each face takes the mean of its neighbours, starting from the boundary's "
          "velocity; more run while a face deep inside has no value yet."),

    /* --- control particles: Rasmussen et al. 2004 §4 (pls) ------------------------------ */
    K_LIST("control", PLS,
           "Control particles (Rasmussen et al. 2004 §4): what an animator uses to direct the "
           "liquid. Each item is a set of particles — made by a generator (`box`, `sphere`, "
           "`mesh`: one particle per cell, as the paper recommends, or `point`) or read from "
           "keyframed `tracks` — that all control one `property` with one `shape` and "
           "`falloff`. In each cell the particles of a property give α (the strongest "
           "particle's strength × falloff) and the α-weighted mean of their values V_p; the "
           "liquid's value becomes (1 - α) V + α V_p (eq. 4). Velocity control is hard where "
           "α > 0.9: the liquid cells there move exactly at V_p and the pressure solve sees "
           "them as a moving wall, so the liquid around follows smoothly. Positions are "
           "evaluated at the end of each step; values and strengths may change over time "
           "(`value_keys`, `strength_keys`), generated particles may move (`path_file`)."),
    K_ENUM("control[].property", 0, PLS, "velocity|viscosity|phi|divergence|eraser", "velocity",
           "What the particles control: `velocity` (faces; hard where α > 0.9), `viscosity` "
           "(ν per cell: `value` in m²/s; turns viscosity on), `phi` (the level set: soft "
           "only; a cylinder's φ is the signed distance to the plane through the particle "
           "across its axis, moved `value` m along it, for a sphere the distance to it minus "
           "`value`; the "
           "level-set particles where φ moved are reseeded), `divergence` (a target ∇·u of "
           "`value` 1/s in the pressure solve: > 0 expands, < 0 contracts) or `eraser` (CSG: "
           "the shape's inside becomes air, φ = max(φ, -distance); `strength` 0 turns it off)."),
    K_ENUM("control[].shape", 0, PLS, "sphere|cylinder", "sphere",
           "The region each particle controls (§4.2): a ball of `radius`, or a cylinder of "
           "`radius` and `length` along `axis` (falloff by the distance to the axis)."),
    K_ENUM("control[].falloff", 0, PLS, "smooth|hat|box", "smooth",
           "α against s, the distance to the centre (sphere) or axis (cylinder) over `radius`: "
           "`smooth` 1 - 3s² + 2s³ (zero slope at both ends), `hat` 1 - s, `box` 1; times "
           "`strength`, 0 beyond the radius."),
    K_FLOAT("control[].radius", GT, PLS, 0, INF, NULL, "m",
            "Radius of each particle's region (the paper uses ½ to 1 cell); default: one cell "
            "(a track's `radius` column overrides it)."),
    K_FLOAT("control[].length", GT, PLS, 0, INF, NULL, "m",
            "A cylinder's length, cap to cap; default: twice the radius."),
    K_FLOATS("control[].axis", 0, PLS, 3, 3, -INF, INF, "[0, 1, 0]", "",
             "A cylinder's axis; for `phi` the surface normal the animator wants (pointing out "
             "of the liquid). Normalised. Particles on a `mesh` surface take their triangle's "
             "normal instead (outward for faces wound counter-clockwise seen from outside; "
             "turned with `mesh.rotate`)."),
    K_FLOATS("control[].velocity", 0, PLS, 3, 3, -INF, INF, "[0, 0, 0]", "m/s",
             "Velocity particles' target velocity (a track's vx, vy, vz columns replace it); "
             "with `follow` the particles' own motion is added."),
    K_BOOL("control[].follow", PLS, "true",
           "Velocity particles add their own velocity along their track or `path_file` to "
           "`velocity`, so liquid is carried along with them."),
    K_FLOAT("control[].value", 0, PLS, -INF, INF, "0", "",
            "The controlled value: ν (m²/s, at least 0) for `viscosity`, the divergence (1/s) "
            "for `divergence`, the offset (m) of the surface along the axis (cylinder) or "
            "its radius (sphere) for `phi`; a track's `value` column overrides it."),
    K_FLOATS("control[].value_keys", 0, PLS, 2, 2048, -INF, INF, NULL, "",
             "`value` over time: pairs `[t0, v0, t1, v1, ...]` (s; times increasing), a "
             "monotone cubic between keys (Fritsch-Carlson: never beyond its neighbouring "
             "keys), held before the first and after the last."),
    K_FLOAT("control[].strength", 0, PLS, 0, 1, "1", "",
            "A factor on every particle's α: 1 gives the falloff's full control (hard "
            "velocity control inside α > 0.9), 0 releases the liquid."),
    K_FLOATS("control[].strength_keys", 0, PLS, 2, 2048, -INF, INF, NULL, "",
             "`strength` over time: pairs `[t0, s0, t1, s1, ...]` as `value_keys`, clamped to "
             "[0, 1] (e.g. `[0, 1, 1.5, 1, 1.6, 0]`: held, then released at 1.5 s)."),
    K_FILE("control[].path_file", 0, PLS,
           "A keyframed rigid motion of a generated set (the CSV of `objects[].path_file`: "
           "columns t, x, y, z and optionally qw, qx, qy, qz; Catmull-Rom in position, slerp in "
           "orientation): at time t each particle is at P(t) + R(t) R(t0)⁻¹ (x - P(t0)), t0 "
           "the first key."),
    K_FLOAT("control[].spacing", GT, PLS, 0, INF, NULL, "m",
            "Distance between generated particles (`box`, `sphere`, `mesh`); default: one "
            "cell. Box and sphere particles sit on the lattice of cell centres scaled by it."),
    K_MAP("control[].box", KIND, PLS,
          "Particles filling an axis-aligned box, one per `spacing` (lattice points inside)."),
    K_FLOATS("control[].box.min", REQ, PLS, 3, 3, -INF, INF, NULL, "m", "Lower corner."),
    K_FLOATS("control[].box.max", REQ, PLS, 3, 3, -INF, INF, NULL, "m", "Upper corner."),
    K_MAP("control[].sphere", KIND, PLS, "Particles filling a ball, one per `spacing`."),
    K_FLOATS("control[].sphere.center", REQ, PLS, 3, 3, -INF, INF, NULL, "m", "Centre."),
    K_FLOAT("control[].sphere.radius", REQ | GT, PLS, 0, INF, NULL, "m", "Radius."),
    K_MAP("control[].mesh", KIND, PLS,
          "Particles on the surface of a closed OBJ mesh (one per cell the surface crosses, at "
          "the surface point nearest the cell's centre, with the triangle's normal as axis) "
          "or filling it (one per cell centre inside)."),
    K_FILE("control[].mesh.file", REQ, PLS, "The OBJ file, relative to the scene file's folder."),
    K_ENUM("control[].mesh.fill", 0, PLS, "surface|inside", "surface",
           "On the surface, or inside it."),
    K_FLOATS("control[].mesh.scale", GT, PLS, 1, 3, 0, INF, "[1]", "",
             "Scale factor: `[s]` or `[sx, sy, sz]`; applied first."),
    K_FLOATS("control[].mesh.rotate", 0, PLS, 3, 3, -INF, INF, "[0, 0, 0]", "degrees",
             "Rotations about x, then y, then z (world axes), after the scale."),
    K_FLOATS("control[].mesh.translate", 0, PLS, 3, 3, -INF, INF, "[0, 0, 0]", "m",
             "Offset added last."),
    K_MAP("control[].point", KIND, PLS, "One particle."),
    K_FLOATS("control[].point.position", REQ, PLS, 3, 3, -INF, INF, NULL, "m", "Where it is."),
    K_MAP("control[].tracks", KIND, PLS,
          "Keyframed particles from a CSV file an animation package can write, one particle "
          "per track."),
    K_FILE("control[].tracks.file", REQ, PLS,
           "The CSV file, relative to the scene file's folder. `#` starts a comment; blank "
           "lines are skipped; the first other line names the columns, in any order: `id`, "
           "`t`, `x`, `y`, `z` (required; s, m) and optionally `vx`, `vy`, `vz` (all three; "
           "m/s), `value`, `strength`, `radius` (m). Each later line is one key of track `id` "
           "(an integer); a track's keys come in increasing t, tracks may interleave, and "
           "the particles are the tracks in increasing id. Positions and velocities are "
           "Catmull-Rom splines through the keys with the key times as knots (the cubic "
           "Hermite whose tangent at a key is the slope of the parabola through it and its "
           "neighbours), `value`, `strength` and `radius` monotone cubics; a track holds its "
           "first key before it and its last key after it; a one-key track stands still. "
           "Columns a file does not have take the item's keys (`velocity`, `value`, "
           "`radius`); a `strength` column multiplies the item's `strength`."),
    K_MAP("control[].curve", KIND, PLS,
          "Particles along a keyframed curve, one per `spacing` of its length, each moving "
          "(with `follow`) at the curve's own velocity there: the speed the keys give it. A "
          "stream steered along a path: the liquid is carried along the curve at the speed "
          "its animator keyed."),
    K_FILE("control[].curve.file", REQ, PLS,
           "The curve: a CSV of keys `t, x, y, z` (the format of `objects[].path_file`; the "
           "quaternion columns are read and ignored), Catmull-Rom between keys with the key "
           "times as knots."),
    /* grids: Rasmussen et al. 2004 §5.4 grid sourcing (host/io/band.h, host/cli/run.c) */
    K_LIST("grids", PLS,
           "Grid sourcing (§5.4): the scene split into named grids joined in a directed acyclic "
           "graph by `upstream`. Every grid shares the scene's liquid, obstacles, sources and "
           "settings; `grid.size`, `grid.origin` and (with `cell`) `grid.cell` are replaced by "
           "the grid's own. Each step a grid with outflow faces stores its shell (every cell "
           "within `shell` cells of each outflow face, φ and the face velocities) to "
           "`OUT/bands/NAME/NNNNNNNN.band` and drains (an automatic outlet) its last 2 cells "
           "there, the whole face. A downstream grid takes its band (its cells within 3 of its "
           "own cells of each face that faces an upstream grid, inside that grid) from the "
           "upstream shell, resampled trilinearly (copies on one lattice) and interpolated "
           "linearly in time between the two files that bracket its time; it holds φ and the "
           "face velocities there (solid to the projection, like an inlet) and waits (polling "
           "with backoff) when it catches up. The files carry the upstream grid's identity: "
           "the scene without `grids`, `grid.size`, `output` and `name`, the grid's own block "
           "and its upstream grids' identities, so a grid added downstream later runs from the "
           "stored files (`--grid NAME`) as long as the upstream grids' blocks, `outflow` "
           "included, are unchanged. `liquidcl run SCENE` runs one process per grid (outputs "
           "in `OUT/NAME/`). `--resume` continues each grid from its own checkpoint, whose "
           "identity is the grid's (adding a grid keeps the others' checkpoints valid); a "
           "resumed upstream grid rewrites its files from the checkpoint's step on. Not yet: "
           "a moving window, moving obstacles."),
    K_MAP("grids[].grid", KIND, PLS, "One grid of the graph."),
    K_STRING("grids[].grid.name", REQ, PLS, NULL,
             "The grid's name (letters, digits, `_`, `-`; unique): its output folder "
             "`OUT/NAME/` and `--grid NAME`."),
    K_INTS("grids[].grid.size", REQ, PLS, 3, 3, 1, 65536, NULL, "cells",
           "Cells per axis `[nx, ny, nz]`, of this grid's own cell (a 2D scene: nz = 1)."),
    K_FLOATS("grids[].grid.origin", REQ, PLS, 3, 3, -INF, INF, NULL, "m",
             "World position of the grid's lower corner: a whole number of cells of "
             "`grid.cell` from `grid.origin`."),
    K_FLOAT("grids[].grid.cell", 0, PLS, 1e-6, 1e4, NULL, "m",
            "The grid's cell: `grid.cell` divided by a whole number from 1 to 8 (2: twice as "
            "fine). Default: `grid.cell`. Bands between grids of different cells are resampled "
            "trilinearly."),
    K_STRING("grids[].grid.upstream", 0, PLS, NULL,
             "The grids it takes its bands from: names separated by spaces or commas (none: a "
             "grid at the top of the graph). Each must overlap this grid by at least 3 of this "
             "grid's cells across a face of this grid, and the band (with its interpolation "
             "stencil) must lie in the upstream grid's shell, outside its 2 drained cells."),
    K_STRING("grids[].grid.outflow", 0, PLS, NULL,
             "The faces (`x_min`, `x_max`, `y_min`, `y_max`, `z_min`, `z_max`, separated by "
             "spaces or commas) where liquid leaves this grid toward downstream grids: drained "
             "2 cells deep and stored each step (the shell). Default: the faces that face a "
             "downstream grid named in the scene. Name them to add downstream grids later: the "
             "files a grid stored stay valid while its `outflow` is unchanged."),
    K_INT("grids[].grid.shell", 0, PLS, 2, 64, "10", "cells",
          "How deep, in this grid's cells, the stored shell reaches in from each outflow face: "
          "a downstream grid's band must lie within it."),
    /* pls.window: Rasmussen et al. 2004 §5.3 (host/ops/pls/plswindow.h) */
    K_MAP("pls.window", 0, LQ_SOLVER_PLS,
          "A moving grid window (§5.3), on when this map is present: `grid.origin` and "
          "`grid.size` place the window at the start, and before every `every`-th step it moves "
          "by whole cells (no interpolation: moved left by 3 cells, φ_i ← φ_(i+3)) so that the "
          "liquid's bounding box (its φ < 0 cells, found on the device, with the inlets open "
          "then) is centred in it again once it comes within `margin` cells of a face, or, "
          "when the box is longer than the window less its margins, its end that grew more "
          "since the last check (the front) is put at the margin and the other end left "
          "behind (never an open inlet); never out of `domain`. The liquid, "
          "velocity, pressure, ν per cell, the moving obstacles and control particles follow; "
          "eq. 2 is unchanged (a window onto a fixed grid, no moving frame). Cells the window "
          "uncovers are air (φ = the reinitialisation's cap), their faces the nearest kept "
          "face's velocity; liquid and particles it leaves behind are removed "
          "(stats: `window_out_volume`, `window_particles_out`; `window_origin_x` .. `_z`). "
          "Static obstacles (any kind), terrain and `sources` are world-placed: rebuilt for "
          "each placement with the start-up's rasterisers (on the host; inlets and outlets "
          "keep their state, an outlet outside the window acts on nothing). Outputs stay in "
          "world coordinates. Not yet with `pls.texture` (refused)."),
    K_ENUM("pls.window.follow", 0, LQ_SOLVER_PLS, "liquid|path", "liquid",
           "What the window follows: `liquid`, the bounding box of the liquid's cells (`margin`); "
           "`path`, the keyframed origin `pls.window.path` (`margin` unused): before a step to "
           "t + dt the window's origin moves to the path at t + dt, rounded to whole cells from "
           "`grid.origin` and kept inside `domain`."),
    K_FLOATS(
        "pls.window.path", 0, LQ_SOLVER_PLS, 8, 4 * 256, -INF, INF, NULL, "",
        "With `follow: path`: rows `[t, x, y, z, ...]` (s, m; at least two, times "
        "strictly increasing, e.g. `[0, 0, 1, 0, 0.5, 0, 0.2, 0]`): the window's origin (its low "
        "corner, as `grid.origin`) at time t, every key's window inside `domain`. Between "
        "keys a Catmull-Rom curve in time (host/scene/path.h: keys sampled from a parabola, "
        "such as a free fall, are followed exactly); held before the first key and after "
        "the last. The window starts at `grid.origin` and jumps to the path at the first "
        "step. 2D: z is ignored."),
    K_INT("pls.window.margin", 0, LQ_SOLVER_PLS, 0, 1000000, "4", "cells",
          "The window moves when the liquid comes within this many cells of one of its faces "
          "(a face inside the domain is still the solver's closed wall: the margin keeps the "
          "liquid off it); less than half the window on every axis it may move along."),
    K_INT("pls.window.every", 0, LQ_SOLVER_PLS, 1, 1000000, "1", "steps",
          "Check the liquid's bounding box before every this many steps (one small read each)."),
    K_MAP("pls.window.domain", 0, LQ_SOLVER_PLS,
          "The logical domain: a world box the window never leaves (it must hold the window at "
          "the start); unset: unbounded. An axis whose domain is the window's own extent does "
          "not move."),
    K_FLOATS("pls.window.domain.min", REQ, LQ_SOLVER_PLS, 3, 3, -INF, INF, NULL, "m",
             "Lower corner."),
    K_FLOATS("pls.window.domain.max", REQ, LQ_SOLVER_PLS, 3, 3, -INF, INF, NULL, "m",
             "Upper corner."),
    /* pls.texture: Rasmussen et al. 2004 §6 (host/ops/pls/texparticles.h, views/texmap.h) */
    K_MAP("pls.texture", 0, LQ_SOLVER_PLS,
          "Texture particles (§6), on when this map is present: particles placed on the initial "
          "surface carry their initial position (the rest coordinate) with the flow; every mesh "
          "vertex gets the rest coordinate interpolated from the nearest of them (`rest_x "
          "rest_y rest_z` and `s t` in mesh/NNNN.ply) and the preview paints the liquid with a "
          "checker or an image through it."),
    K_INT("pls.texture.per_cell", 0, LQ_SOLVER_PLS, 0, 64, "0", "",
          "Particles per cell of the seeding band, settled on the surface; 0: 8 in 3D, 4 in 2D "
          "(a flat surface then holds 16, or 8 per cell edge in 2D, per cell face)."),
    K_FLOAT("pls.texture.band", GT, LQ_SOLVER_PLS, 0, 4, "1", "cells",
            "Cells within this of the initial surface are seeded: φ within it of 0 both for the "
            "liquid shapes' distance and once φ is reinitialised (a shape's face on the "
            "domain's edge is no surface)."),
    K_BOOL("pls.texture.project", LQ_SOLVER_PLS, "true",
           "Pull the particles within band + 1 cells of the surface back onto it after every "
           "step (one Newton step on φ), so the texture stays on the surface where the advected "
           "φ and the particles part; false is the paper's (advected only): particles then "
           "drift off a moving surface into the liquid or the air, and the lookup mixes their "
           "rest coordinates (a drop into a pool's surface marbled by frame 15)."),
    K_INT("pls.texture.neighbours", 0, LQ_SOLVER_PLS, 0, 256, "0", "",
          "Particles a mesh vertex or a preview sample interpolates from (the nearest); 0: 64 "
          "in 3D (the paper's), 16 in 2D."),
    K_FLOAT("pls.texture.checker", 0, LQ_SOLVER_PLS, 0, INF, "0", "m",
            "Edge of the preview's checker squares in rest space; 0: 1/16 of the domain's "
            "longest edge."),
    K_FILE("pls.texture.image", 0, LQ_SOLVER_PLS,
           "A PNG the preview paints instead of the checker, at (s, t), relative to the scene "
           "file's folder."),
    K_ENUM("pls.texture.plane", 0, LQ_SOLVER_PLS, "xy|xz|yz", "xy",
           "The rest-coordinate axes of the mesh's `s t` (and the image's): s along the first, "
           "t along the second, each 0 to 1 across the domain (t = 1 the image's top row)."),

    /* --- shallow: Kass & Miller 1990 --------------------------------------------------- */
    K_MAP("shallow", 0, SHAL, "Settings of the `shallow` solver."),
    K_FLOAT("shallow.damping", 0, SHAL, 0, 1, "0", "",
            "The τ of eq. 17: damps the extrapolation so waves die out (0: none)."),
    K_FLOAT("shallow.friction", 0, SHAL, 0, 1, "0", "s/m^(1/3)",
            "Manning's n of the bed (0: frictionless, as in the paper; 0.02-0.04 for "
            "natural channels): slows shallow water, bounds thin sheets on dry slopes."),
    K_FLOAT("shallow.thin_film", 0, SHAL, 0, 1, "0.01", "m",
            "Thin-film limiter: water shallower than this runs no faster than the critical "
            "speed √(g d), and deeper water no faster than √(g d)·(d/thin_film)², which joins "
            "it and stops binding a few thin_film deep (0: off, the paper's). Without it "
            "sheets micrometres thin ran at metres per second on the beach."),
    K_FLOAT("shallow.absorbing_width", 0, SHAL, 0, INF, "0", "m",
            "Width of the layer along each `absorbing` wall in which the water's motion is "
            "damped (rising as the square of the depth into it); 0: 32 cells. It should span "
            "about a wavelength of the waves it must take: a wave 0.3 m long left 23 % of "
            "itself after 0.08 m, 3.6 % after 0.2 m, 2.5 % after 0.5 m."),
    K_INT("shallow.substeps", 0, SHAL, 0, 100000, "0", "",
          "Steps per frame; 0 chooses them from `time.cfl`."),
    K_FLOAT("shallow.theta", 0, SHAL, 0.5, 1, NULL, "",
            "Time centring θ of the implicit step (eq. 9-10 at θ h(n) + (1-θ) h(n-1)): 0.5 is "
            "Crank-Nicolson (second order, no numerical damping); 1 is the paper's first-order "
            "scheme, which damps each wave by (1 + μ)^-1/2 per step, more the larger the step "
            "(a pulse keeps 47 % of its crest after 0.8 s at Courant number 4.4, 85 % at θ = "
            "0.55). Unset: 0.55 with `shallow.advection` (grid-scale noise damped, long waves "
            "nearly not), 1 without it (the paper's model: without the advection term a "
            "time-accurate step lets noise grow until the run blows up)."),
    K_INT("shallow.adi_iterations", 0, SHAL, 0, 64, "0", "",
          "Row-and-column solves per step (eq. 19-20), each on what the last left of the "
          "unsplit 2D system; 1 is the paper's single split solve, whose error grows with the "
          "step and depends on the direction (at Courant number 11 a drop's ring stood 39 % "
          "further out along the diagonal than along the axis); 0 chooses ceil(C²/30), at most "
          "64, from the step's Courant number C (1 up to C = 5.4; 5 at 11: the ring round to 0.1 "
          "%)."),
    K_ENUM("shallow.line_solve", 0, SHAL, "auto|thomas|pcr", "auto",
           "How the rows' and columns' tridiagonal systems (eq. 19-20) are solved: `thomas`, "
           "the serial Thomas algorithm, one line per work-item (or per SIMD lane on CPUs); "
           "`pcr`, a parallel hybrid (one level of cyclic reduction, parallel cyclic reduction "
           "in local memory, Thomas on the small systems it leaves), one work-group per line, "
           "for GPUs, which a 2048-cell grid's 2048 lines cannot fill; `auto`, `pcr` on GPUs "
           "and accelerators where half a line fits their local memory, `thomas` on CPUs and "
           "the reference backend. The two agree to float round-off, not bit for bit."),
    K_FLOAT("shallow.dry_epsilon", GT, SHAL, 0, 1, "1e-5", "m",
            "The ε of the `h = b - ε` rule for dry cells."),
    K_BOOL("shallow.advection", SHAL, "true",
           "Carry the water's velocity along with it (the u ∂u/∂x term the paper drops, "
           "semi-Lagrangian): fronts and bores keep their speed, and the flow's energy stays "
           "bounded; false is the paper's model (then `shallow.theta` defaults to 1)."),
    K_BOOL("shallow.volume_correction", SHAL, "true",
           "Restores each connected body of water's volume after every step."),

    /* --- output -------------------------------------------------------------------------- */
    K_MAP("output", 0, ALL, "What is written to the output folder."),
    K_INT("output.every", 0, ALL, 1, INF, "1", "",
          "Write every Nth frame: the default of each kind's own rate below."),
    K_INT("output.mesh_every", 0, ALL, 1, INF, NULL, "frames",
          "Write the meshes (`mesh/NNNN.ply`, `objects_NNNN.ply`) every this many frames "
          "(frame 0 included; `mesh.ply.series` lists those written). Unset: `output.every`."),
    K_INT("output.fields_every", 0, ALL, 1, INF, NULL, "frames",
          "Write `output.fields` every this many frames (their `.vtk.series` / `.pvd` list those "
          "written). Unset: `output.every`."),
    K_INT("output.particles_every", 0, ALL, 1, INF, NULL, "frames",
          "Write the particles (`particles/NNNN.ply`, `texture_NNNN.ply`) every this many frames. "
          "Unset: `output.every`."),
    K_INT("output.vdb_every", 0, MAC | PLS, 1, INF, NULL, "frames",
          "Write `output.vdb` every this many frames. Unset: `output.every`."),
    K_ENUMS("output.fields", 0, ALL, 0, 8, "h|b|depth|u|v|w|p|phi|flags|solid", "[]",
            "Fields written as VTK files (names the solver knows; `solid`: pls, 1 in object "
            "cells)."),
    K_ENUM("output.fields_format", 0, ALL, "vtk|vti", "vtk",
           "Format of `output.fields`: `vtk` legacy binary (`fields/NAME_NNNN.vtk`, with "
           "`NAME.vtk.series` giving ParaView each frame's time), `vti` VTK XML ImageData, "
           "zlib-compressed (`fields/NAME_NNNN.vti`, with `NAME.pvd`)."),
    K_ENUMS("output.vdb", 0, MAC | PLS, 0, 8, "surface|vel|p|phi|flags|solid", "[]",
            "Grids written to `vdb/NNNN.vdb` (OpenVDB; needs a build with libopenvdb-dev): "
            "`surface` the liquid's narrow-band level set (m, negative inside), `vel` the "
            "velocity at cell centres (m/s) in the liquid and a band of air, any other name "
            "that field of the solver as a fog volume in the liquid."),
    K_ENUM("output.up", 0, ALL, "y|z", "y",
           "The up axis of the files: `y` as liquidcl computes (y up); `z` turns every mesh, "
           "particle, object (PLYs, `objects.csv`), field and VDB file +90° about x, (x, y, z) "
           "→ (x, −z, y) (right-handed; Blender's glTF/OBJ convention), so they import upright "
           "in Blender and other z-up applications. Fields are transposed to the turned axes "
           "(a `.vtk`/`.vti` grid is axis-aligned), `u v w` then the velocity along the file's "
           "x, y, z (`v` = −w, `w` = v of the y-up run); VDB grids get the turned transform. "
           "The preview is a picture and stays as it is; stats.jsonl's first line says "
           "`\"up\": \"z\"`."),
    K_BOOL("output.mesh", ALL, "true", "Write the liquid surface as a PLY mesh."),
    K_BOOL("output.particles", ALL, "false", "Write particles as PLY points."),
    K_BOOL("output.markers", MAC, "false",
           "With `output.particles`, add the marker particles (kind 2) to the spray and foam."),
    K_BOOL("output.preview", ALL, "true", "Write a PNG preview of each frame."),
    K_INT("output.preview_width", 0, ALL, 64, 8192, "960", "px", "Width of the previews."),
    K_INT("output.preview_every", 0, ALL, 1, INF, NULL, "frames",
          "Write a preview (`preview/NNNN.png`) every this many frames (frame 0 included), "
          "on its own rate like the other kinds. Unset: `output.every`."),
    K_ENUM("output.preview_framing", 0, HF, "liquid|all", "liquid",
           "What the height-field preview's camera frames on the first frame: `liquid` the "
           "domain's block of ground and water, with an object only where it is near the "
           "block (within a tenth of the block's size: a ball dropped from high enters the "
           "picture as it falls, and the pool fills it); `all` every object wholly too."),
    K_BOOL("output.preview_stamp", ALL, "true",
           "Burn the frame number and its simulated time into each preview's corner."),
    K_FLOAT("output.preview_azimuth", 0, ALL, -360, 360, "32", "degrees",
            "Preview camera direction about the vertical y axis: 0 looks along -z from the +z "
            "side, 90 along +x from the -x side (the default sees the front and left side)."),
    K_FLOAT("output.preview_elevation", 0, ALL, 0, 89, "33", "degrees",
            "Preview camera height: degrees above the horizontal that it looks down from."),
    K_FLOAT("output.preview_distance", 0, ALL, 0.5, 10, "1", "",
            "Preview camera distance as a factor on the automatic one; the frame still fits "
            "the domain, so only the perspective changes (smaller: stronger)."),
    K_INT("output.checkpoint", 0, ALL, 0, INF, "10", "frames",
          "Write `checkpoint.lqc` every this many frames (0: never), so that "
          "`liquidcl run --resume` can continue an interrupted run."),
    K_INT("output.checkpoint_keep", 0, ALL, 1, 1000, "1", "",
          "Checkpoints kept: above 1, the last this many also as `checkpoints/NNNN.lqc`, so "
          "that `liquidcl run --resume-from NNNN` re-bakes from an earlier frame."),

    {.path = NULL},
};
