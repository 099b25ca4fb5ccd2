/*
 * profile.h — one stage timer for every solver. With LIQUIDCL_PROFILE=1 each named stage
 * of a step is timed, and at the end of the run one table goes to stderr: stage, calls,
 * total ms, ms per step and share of the time profiled (docs/PERFORMANCE.md).
 *
 * Invariants:
 * - Off (LIQUIDCL_PROFILE unset, empty or 0), a stage costs one test of a flag: no queue
 *   sync, no clock, so speed and results are those of a build without the timer.
 * - On, every stage boundary waits for the queue (lq_ctx_sync, not counted), so a stage's time is
 *   its own device work. The syncs change no operation: results stay bit for bit.
 * - Stages nest (a solver's projection around the pressure module's build, solve and
 *   project): a row's time includes its children's, and a parent's time not in any child
 *   is shown as its own row, "(between stages)".
 * - "ms/step" divides by the calls of the top-level stage named "step" (one per solver
 *   step); "share" is of the top-level stages' total.
 */
#ifndef LQ_PROFILE_H
#define LQ_PROFILE_H

#include <stdbool.h>

#include "core/field.h"

/* Whether LIQUIDCL_PROFILE asks for the table (read once, on first use). */
bool lq_profile_on(void);
/* Opens stage `name` inside the stage open now. `name` must outlive the run (a string
 * literal). With the profile on, waits for ctx's queue first. */
void lq_profile_begin(lq_ctx *ctx, const char *name);
/* Closes the stage opened last: waits for ctx's queue, adds the time to its row. */
void lq_profile_end(lq_ctx *ctx);

/* The stages that failed since lq_profile_failed_clear, innermost first (a failing
 * stage fails the stages around it): the solvers name a blow-up's stage and field from
 * them. Kept whether or not the profile is on. */
void lq_profile_failed(const char *name);
void lq_profile_failed_clear(void);
/* The i-th failed stage (0: the innermost), NULL past the last. */
const char *lq_profile_failed_stage(int i);

/* One stage of a step: when rc is still LQ_OK, rc = call, timed as `name`. A step is
 * a list of these in the paper's order. */
#define LQ_STAGE(rc, ctx, name, call)                                                              \
    do {                                                                                           \
        if (!(rc)) {                                                                               \
            lq_profile_begin((ctx), (name));                                                       \
            (rc) = (call);                                                                         \
            lq_profile_end(ctx);                                                                   \
            if (rc) lq_profile_failed(name);                                                       \
        }                                                                                          \
    } while (0)

#endif
