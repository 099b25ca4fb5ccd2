/*
 * tolerance.c — the one table of twin tolerances (STYLE.md, "Making twins agree").
 *
 * Both sides run the same per-cell functions (the kernels/ *_cell.h headers) with contraction off,
 * correctly rounded division where the device offers it, and fixed-point sums, so on
 * a conforming device most operations agree bit for bit. The bounds below leave a few
 * ulp for devices whose division is not correctly rounded (OpenCL allows 2.5 ulp) and
 * say why where a looser bound is needed.
 */
#include "core/tolerance.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

const lq_tolerance lq_tolerances[] = {
    {"hf_residual", 0, 1e-6, 1e-6, "four products and sums per cell, same order"},
    {"hf_adi_x", 0, 1e-5, 1e-3,
     "same Thomas code; a divide off by 2.5 ulp per cell compounds along a row"},
    {"hf_adi_z", 0, 1e-5, 1e-3, "as hf_adi_x, along columns"},
    {"hf_pcr_x", 0, 1e-5, 1e-3,
     "the parallel line solve, same reductions in the same order on both sides (local memory "
     "vs plain arrays); two divides per cell and step, off by 2.5 ulp where division is not "
     "correctly rounded"},
    {"hf_pcr_z", 0, 1e-5, 1e-3, "as hf_pcr_x, along columns"},
    {"hf_defect", 0, 1e-6, 1e-6, "the residual's products and sums plus five more, same order"},
    {"hf_open", 0, 0, 1, "fixed-point sums of the same per-cell products: exact"},
    {"hf_advect", 0, 1e-6, 1e-3, "bilinear interpolation, same order on both sides"},
    {"hf_source", 0, 1e-6, 1e-3, "products and one compare per cell"},
    {"hf_label", 0, 0, 1, "integer union-find: the root is the smallest index, exactly"},
    {"hf_volume_reduce", 0, 0, 1, "fixed-point sums are order independent: exact"},
    {"hf_volume_apply", 0, 1e-6, 1e-3, "one divide per cell"},
    {"hf_finish", 0, 1e-5, 1e-3, "velocity update: a difference of nearly equal heights"},
    {"hf_stats", 0, 1e-6, 1e-3, "fixed-point volume exact; max of a sqrt (correctly rounded)"},
    {"shallow.h", 1e-5, 0, 1,
     "whole-scene surface height (m) after N frames; float round-off only where "
     "division differs, but a cell can cross its wet/dry threshold one step earlier"},
    {"line_solve.h", 1e-5, 0, 1,
     "whole-scene surface (m) after a few frames, Thomas vs the parallel line solve on one "
     "backend: different elimination orders, a few ulp of h per solve, and a cell may cross "
     "its wet/dry threshold a step earlier"},
    {"line_solve.u", 1e-4, 0, 1, "face velocity (m/s) from differences of h: as line_solve.h"},
    {"line_solve.w", 1e-4, 0, 1, "as line_solve.u"},
    {"line_solve.volume", 0, 1e-6, 1e-9, "fixed-point sums of heights that differ by round-off"},
    {"shallow.b", 0, 0, 1, "the ground is input, uploaded once: exact"},
    {"shallow.depth", 1e-5, 0, 1, "max(h - b, 0): as shallow.h"},
    {"shallow.u", 1e-4, 0, 1, "face velocity (m/s), derived from differences of h"},
    {"shallow.w", 1e-4, 0, 1, "face velocity (m/s), derived from differences of h"},
    {"shallow.volume", 0, 1e-6, 1e-9, "fixed-point sums of the same heights"},
    {"splash.flow", 0, 0, 1, "eq. 5-6: products and sums of the same floats, same order: exact"},
    {"splash.limit", 0, 0, 1,
     "eq. 9: one correctly rounded divide per column (-cl-fp32-correctly-rounded-divide-sqrt), "
     "an integer count: exact"},
    {"splash.volume", 0, 0, 1, "eq. 7, 12: fixed-order sums per column, fixed-point totals: exact"},
    {"splash.boundary", 0, 0, 1, "stores a given value: exact"},
    {"splash.spray", 0, 0, 1,
     "integer hash, sequential blocks, correctly rounded divides: exact, particles included"},
    {"splash.particles", 0, 0, 1,
     "ballistic step in a fixed order, a correctly rounded divide for the column, fixed-point "
     "volumes: exact"},
    {"splash.compact", 0, 0, 1, "copies in block order after an integer scan: exact"},
    {"splash.contact", 0, 0, 1,
     "chords with correctly rounded divide and sqrt, fixed-point sums: exact"},
    {"splash.h", 1e-5, 0, 1,
     "whole-scene surface (m) after N frames: the operations agree bit for bit on a device "
     "with correctly rounded divide and sqrt; elsewhere a few ulp per step, kept small by "
     "the damping of the dynamics"},
    {"splash.b", 0, 0, 1, "the ground is input, uploaded once: exact"},
    {"splash.depth", 1e-5, 0, 1, "as splash.h"},
    {"splash.u", 1e-4, 0, 1, "face velocity (m/s) from pipe flows over depths: as splash.h"},
    {"splash.w", 1e-4, 0, 1, "as splash.u"},
    {"splash.volume", 0, 1e-6, 1e-9, "fixed-point bookkeeping of the same columns"},
    {"splash.objects", 1e-4, 0, 1,
     "body centres (m): integrated on the host in double from device force sums (fixed "
     "point, exact); as splash.h where division differs"},
    {"mac.p", 0, 0, 1,
     "whole-scene fields after N frames: every mac operation is bit for bit on both backends "
     "(with mac.forcing, OpenCL's cos may differ by ulps and the runs then drift apart)"},
    {"mac.u", 0, 0, 1, "as mac.p"},
    {"mac.v", 0, 0, 1, "as mac.p"},
    {"mac.w", 0, 0, 1, "as mac.p"},
    {"mac.phi", 0, 0, 1, "the marker density from the same markers: as mac.p"},
    {"mac.flags", 0, 0, 1, "as mac.p"},
    {"mac.volume", 0, 0, 1, "marker counts, or the same height field or chains: exact"},
    {"mac.objects", 0, 0, 1,
     "body centres (m): integrated on the host in double from fixed-tree force sums: exact"},
    {"mac.particles", 0, 0, 1, "spray and foam from deterministic scans and hashes: exact"},
    {"plsforce.body", 0, 0, 1, "one add of a host-rounded g dt per face, or a stored 0: exact"},
    {"plssource.cells", 0, 0, 1,
     "min, max and compares of stored values; the removal an integer sum of the same "
     "fixed-point fractions: exact"},
    {"plssource.faces", 0, 0, 1, "a table value, 0 or the face kept: exact"},
    {"plssource.kill", 0, 0, 1, "a compare per particle, its cell from one host reciprocal: exact"},
    {"pls.phi", 0, 0, 1,
     "whole pls run: every operation (advection, particles, reinit, ghost-fluid MG-PCG with "
     "fixed-order sums, extrapolation, fixed-point volume) is bit for bit on a device with "
     "correctly rounded divide and sqrt (PoCL): exact"},
    {"pls.solid", 0, 0, 1, "the object sdf is computed once on the host: exact"},
    {"pls.u", 0, 0, 1, "as pls.phi"},
    {"pls.v", 0, 0, 1, "as pls.phi"},
    {"pls.w", 0, 0, 1, "as pls.phi"},
    {"pls.p", 0, 0, 1, "as pls.phi"},
    {"pls.volume", 0, 0, 1, "fixed-point sum of the same phi: exact"},
    {"pls.particles", 0, 0, 1, "the same particle operations in the same order: exact"},
    {"sl.velocity", 0, 0, 1,
     "RK2 backtrace and trilinear sampling, same code, host reciprocals, no contraction or "
     "divide: exact"},
    {"sl.scalar", 0, 0, 1, "as sl.velocity"},
    {"reinit.pde", 0, 0, 1,
     "same per-cell code in the same pass order; sqrt and the sub-cell divide are correctly "
     "rounded on both sides (PoCL -cl-fp32-correctly-rounded-divide-sqrt); max change an "
     "order-free atomic max: exact"},
    {"reinit.fim", 0, 0, 1, "as reinit.pde (min-updates, divide by 3 correctly rounded)"},
    {"extrap.velocity", 0, 0, 1,
     "layer means in a fixed neighbour order times literal reciprocals, ping-pong masks: exact"},
    {"extrap.object_bc", 0, 0, 1,
     "fixed-order dot products, one correctly rounded sqrt and divide per solid face: exact"},
    {"viscosity.fill", 0, 0, 1, "a constant or a box value per cell, compares only: exact"},
    {"viscosity.explicit", 0, 0, 1,
     "eq. 8-10: the same products and sums per face in a fixed order, no contraction: exact"},
    {"viscosity.setup", 0, 0, 1, "kinds from compares, the diagonal a fixed-order sum: exact"},
    {"viscosity.rhs", 0, 0, 1, "as viscosity.setup"},
    {"viscosity.apply", 0, 0, 1, "as viscosity.setup"},
    {"viscosity.residual", 0, 0, 1, "as viscosity.setup"},
    {"viscosity.cg", 0, 0, 1,
     "axpy without contraction; one correctly rounded divide per face (Jacobi): exact"},
    {"viscosity.step", 0, 0, 1,
     "whole PCG (Jacobi or multigrid): fixed-tree group sums added in order in double, the "
     "same CG scalars on both sides, so the same iterations: exact"},
    {"viscosity.mg", 0, 0, 1,
     "multigrid levels (fixed-order child sums), red-black sweeps reading only the other "
     "colour, one correctly rounded divide per cell, no contraction: exact"},
    {"extrap.divfree", 0, 0, 1,
     "red-black SOR (a colour's cells share no face), literal reciprocals, no contraction: exact"},
    {"pressure.divergence", 0, 0, 1,
     "eq. 5: products by host reciprocals, fixed order; the max of |D| is order-free: exact"},
    {"pressure.rb_sweep", 0, 0, 1,
     "eq. 6-9: one colour's cells share no face, same code, no contraction: exact"},
    {"pressure.jacobi_sweep", 0, 0, 1,
     "stored δp, then each face from its two cells in a fixed order: exact"},
    {"pressure.solve", 0, 0, 1, "a sequence of the exact operations above: exact"},
    {"pressure.mgpcg", 0, 0, 1,
     "the Poisson module's exact system, lists and PCG (poisson.solve), then Jacobi's exact "
     "face pass with the solution and exact red-black sweeps: exact"},
    {"pressure.surface_prep", 0, 0, 1,
     "mac.surface_solve: kinds, weights copied from the host's table, one product per held "
     "p: exact"},
    {"mac_surface.classify", 0, 0, 1, "integer masks from the same neighbour tests: exact"},
    {"mac_surface.apply", 0, 0, 1,
     "table-driven sums and products in one order, host reciprocals, one writer per face: exact"},
    {"mac_surface.pressure", 0, 1e-5, 1e-3,
     "eq. 17: OpenCL's cos may be 4 ulp from libm's cosf; the rest is the same float code"},
    {"plsparticles.advect", 0, 0, 1,
     "RK2 through the markers' trilinear code, host reciprocals, no contraction: exact"},
    {"plsparticles.correct", 0, 0, 1,
     "sphere values with a correctly rounded sqrt, order-free integer max/min keys: exact"},
    {"plsparticles.radii", 0, 0, 1, "a trilinear sample and a clamp: exact"},
    {"plsparticles.delete", 0, 0, 1,
     "the same keep test, copies in block order after an integer scan: exact"},
    {"plsparticles.seed", 0, 0, 1,
     "integer hash, counts and scan; attraction with correctly rounded sqrt and divide: exact"},
    {"plspocket.find", 0, 0, 1,
     "integer labels whose final value (the least index of the component) does not depend on "
     "the order of the atomic hooks: exact"},
    {"plspocket.enslave", 0, 0, 1,
     "means of up to six neighbours in one fixed order times lq_recip6's literals, no "
     "contraction: exact"},
    {"macpocket.find", 0, 0, 1,
     "air labels whose final value (the least index of the component) does not depend on the "
     "order of the atomic hooks, integer tallies: exact"},
    {"macpocket.apply", 0, 0, 1,
     "the prep's ghost-fluid lines with the gauge, the same float code, no contraction: exact"},
    {"plscontrol.bin", 0, 0, 1,
     "integer keys and counts, the shared scan, each tile's slice sorted by index: exact"},
    {"plscontrol.apply", 0, 0, 1,
     "per-cell gathers over the tiles in one fixed order, correctly rounded sqrt and divide, "
     "no contraction: exact"},
    {"texparticles.settle", 0, 0, 1,
     "Newton steps on the trilinear phi, correctly rounded sqrt and divide, host reciprocals: "
     "exact"},
    {"texparticles.advect", 0, 0, 1,
     "RK2 through the markers' trilinear code, as plsparticles: exact"},
    {"texparticles.project", 0, 0, 1, "as texparticles.settle: exact"},
    {"markers.advect", 0, 0, 1,
     "RK2 through the same trilinear code, host reciprocals, no contraction or divide: exact"},
    {"markers.classify", 0, 0, 1, "integer counts (order-free atomics) and neighbour tests: exact"},
    {"poisson.setup", 0, 0, 1,
     "pls ghost-fluid system: one correctly rounded divide per air face, face order: exact"},
    {"poisson.apply", 0, 0, 1, "7-point operator, neighbours summed in face order: exact"},
    {"poisson.sor", 0, 0, 1, "one colour's cells share no face; correctly rounded divide: exact"},
    {"poisson.jacobi", 0, 0, 1, "reads pin, writes pout, same code: exact"},
    {"poisson.vector", 0, 0, 1, "CG axpy, direction and diagonal preconditioner per cell: exact"},
    {"poisson.reduce", 0, 0, 1,
     "fixed layout: items sum in index order, a fixed group tree, groups added in order: exact"},
    {"poisson.rhs", 0, 0, 1, "face differences in axis order times one host-rounded scale: exact"},
    {"poisson.project", 0, 0, 1, "ghost value from the same theta; one product per face: exact"},
    {"poisson.mg", 0, 0, 1,
     "multigrid levels, V-cycle: integer states, fixed-order gathers with power-of-two weights, "
     "the same red-black passes: exact"},
    {"poisson.solve", 0, 0, 1,
     "SOR, Jacobi and PCG loops of the exact operations above with the same host scalars: exact"},
    {"machf.advance", 0, 0, 1,
     "eq. 12: same per-column code, host reciprocals, no division or contraction: exact"},
    {"machf.classify", 0, 0, 1, "compares of the same floats, integer neighbour tests: exact"},
    {"chains.classify", 0, 0, 1,
     "integer labels (atomic min to a unique fixed point), winding numbers from sign tests of "
     "the same products: exact"},
    {"momentum.step", 0, 0, 1,
     "eq. 2: same per-face code, host reciprocals, no division or contraction: exact"},
    {"momentum.boundary", 0, 0, 1, "copies and negations of fluid values, one writer: exact"},
    {"momentum.max_speed", 0, 0, 1, "a max of |q| bits is order-free: exact"},
    {0, 0, 0, 0, 0}};

const lq_tolerance *lq_tolerance_get(const char *name)
{
    for (const lq_tolerance *t = lq_tolerances; t->name; t++)
        if (strcmp(t->name, name) == 0) return t;
    /* a programmer error, but never silently the first entry (NDEBUG builds) */
    fprintf(stderr, "liquidcl: no tolerance entry '%s' in host/core/tolerance.c\n", name);
    abort();
}

int lq_tolerance_ok(const lq_tolerance *t, double max_abs, double max_rel)
{
    if (!(max_abs == max_abs) || !(max_rel == max_rel)) return 0; /* NaN */
    return max_abs <= t->abs || max_rel <= t->rel;
}
