/*
 * tolerance.c — the one table of twin tolerances (STYLE.md, "Making twins agree").
 *
 * Both sides run the same per-cell functions (the kernels/ *_cell.h headers) with contraction off,
 * correctly rounded division where the device offers it, and fixed-point sums, so on
 * a conforming device most operations agree bit for bit. The bounds below leave a few
 * ulp for devices whose division is not correctly rounded (OpenCL allows 2.5 ulp) and
 * say why where a looser bound is needed.
 */
#include "tolerance.h"

#include <assert.h>
#include <math.h>
#include <string.h>

const lq_tolerance lq_tolerances[] = {
    {"hf_residual", 0, 1e-6, 1e-6, "four products and sums per cell, same order"},
    {"hf_adi_x", 0, 1e-5, 1e-3,
     "same Thomas code; a divide off by 2.5 ulp per cell compounds along a row"},
    {"hf_adi_z", 0, 1e-5, 1e-3, "as hf_adi_x, along columns"},
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
    {"shallow.b", 0, 0, 1, "the ground is input, uploaded once: exact"},
    {"shallow.depth", 1e-5, 0, 1, "max(h - b, 0): as shallow.h"},
    {"shallow.u", 1e-4, 0, 1, "face velocity (m/s), derived from differences of h"},
    {"shallow.w", 1e-4, 0, 1, "face velocity (m/s), derived from differences of h"},
    {"shallow.volume", 0, 1e-6, 1e-9, "fixed-point sums of the same heights"},
    {0, 0, 0, 0, 0}};

const lq_tolerance *lq_tolerance_get(const char *name)
{
    for (const lq_tolerance *t = lq_tolerances; t->name; t++)
        if (strcmp(t->name, name) == 0) return t;
    assert(!"unknown tolerance entry");
    return &lq_tolerances[0];
}

int lq_tolerance_ok(const lq_tolerance *t, double max_abs, double max_rel)
{
    if (!(max_abs == max_abs) || !(max_rel == max_rel)) return 0; /* NaN */
    return max_abs <= t->abs || max_rel <= t->rel;
}
