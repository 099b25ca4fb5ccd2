/*
 * framesplit.h — how every solver cuts a frame into steps: how many, and which Δt
 * lands on the frame's end.
 *
 * A solver knows the longest step it may take (its CFL or Courant limit, dt). The rest
 * of the frame, rest = t_end − t, is covered by n = max(1, ⌈rest/dt − slack⌉) equal
 * steps, so no step is a sliver and the last one ends exactly at t_end. Two choices
 * differ between the solvers, and are parameters here rather than rounded into one
 * rule (each changes step counts, hence results):
 *
 * - when the split is made: once at the frame's start (LQ_FRAMESPLIT_FIXED: shallow
 *   and splash measure their Courant limit once a frame; the steps are span/n, the last
 *   one t_end − t) or before every step from that step's limit (lq_framesplit_next:
 *   pls and mac, whose limit follows the velocity);
 * - slack: LQ_FRAMESPLIT_ROUNDOFF (1e-9) only absorbs round-off in rest/dt (shallow,
 *   splash, pls: no step is ever longer than dt); LQ_FRAMESPLIT_STRETCH (0.05, mac) lets
 *   the steps run up to 5 % over dt rather than add one more, and with `whole` a split
 *   that comes out at dt or above (to 1e-6) takes whole steps of dt instead.
 *
 * The frame's loop: pls and mac step while lq_framesplit_more; shallow and splash take
 * their n steps of lq_framesplit_fixed. Every step taken is passed to
 * lq_framesplit_took, and lq_framesplit_report writes the frame's steps, dt_min and
 * dt_max into its stats.
 */
#ifndef LQ_FRAMESPLIT_H
#define LQ_FRAMESPLIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/solver_api.h"

#define LQ_FRAMESPLIT_ROUNDOFF 1e-9 /* ⌈rest/dt − 1e-9⌉: never a step over dt */
#define LQ_FRAMESPLIT_STRETCH  0.05 /* ⌈rest/dt − 0.05⌉: steps up to 5 % over dt */

typedef struct lq_framesplit {
    double t_end, span; /* s: the frame's end, and its length from where it started */
    int steps;          /* taken so far */
    double dt_min, dt_max;
} lq_framesplit;

/* A frame from t to t_end. */
lq_framesplit lq_framesplit_start(double t, double t_end);
/* Steps for a span `ratio` times the longest step allowed: max(1, ⌈ratio − slack⌉). */
double lq_framesplit_count(double ratio, double slack);
/* Whether the frame has time left at t (more than 1e-12 s). */
bool lq_framesplit_more(const lq_framesplit *f, double t);
/* The next step from t when the rest of the frame is split again before each step, dt
 * the longest step allowed now: rest/n with n = lq_framesplit_count(rest/dt, slack),
 * the rest itself when n = 1; with `whole`, dt when rest/n ≥ dt (1 − 1e-6). */
double lq_framesplit_next(const lq_framesplit *f, double t, double dt, double slack, bool whole);
/* Step i of n fixed at the frame's start: span/n, the last one t_end − t. */
double lq_framesplit_fixed(const lq_framesplit *f, double t, int i, int n);
/* Why a solver's step is as short as it is, for a blow-up's message: writes e.g.
 * "field v: max speed 4.1e+14 m/s" into buf. Called only when a guard fails. */
typedef void lq_framesplit_why(void *state, char *buf, size_t cap);

/* Before each step of dt from t (the solver's step counter `step`): LQ_OK, or LQ_ESIM
 * with the message recorded when the frame cannot go on: an interrupt is due
 * (core/interrupt.h: "interrupted by SIGINT at step S ..."), dt is not a positive finite
 * number or adds nothing to t (underflow), or the frame would take more than max_steps
 * steps at dt (time.max_steps). The blow-ups name the step, t, dt and `why`'s field and
 * value; the run loop adds the frame. */
int lq_framesplit_guard(const lq_framesplit *f, int step, double t, double dt, int max_steps,
                        lq_framesplit_why *why, void *state);
/* "field v: max speed X m/s, gravity G m/s^2" for the fastest of the three velocity
 * components' speeds sm (the one along gravity when all are 0): the `why` of the 3D
 * solvers. Returns a static buffer. */
const char *lq_framesplit_speeds(const float sm[3], const double g[3], double gmag);
/* A step count n worked out from floats (shallow, splash): LQ_OK with *out = n when
 * 1 <= n <= max_steps, else the blow-up of lq_framesplit_guard. */
int lq_framesplit_count_checked(double n, int step, double t, int max_steps, lq_framesplit_why *why,
                                void *state, int *out);
/* A step that failed with rc in a stage (core/profile.h records which): unless its
 * message names its step already, it becomes "simulation blew up at step S (t = T s) in
 * stage 'NAME' (field F): MESSAGE" for a number gone bad (the message says "not finite"
 * or "diverged"), "at step S (t = T s) in stage 'NAME': MESSAGE" otherwise (a device
 * error). `fields` pairs stage names with the fields they compute, ending {NULL, NULL}.
 * Returns rc. */
int lq_framesplit_failed(int rc, int step, double t, const char *const (*fields)[2]);
/* Records a step taken. */
void lq_framesplit_took(lq_framesplit *f, double dt);
/* The frame's steps, dt_min (0 without steps) and dt_max into st. */
void lq_framesplit_report(const lq_framesplit *f, lq_frame_stats *st);

#endif
