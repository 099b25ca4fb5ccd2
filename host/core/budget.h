/*
 * budget.h — a solver's memory, estimated from the scene before it allocates anything,
 * against what the machine has: so that a grid too large is refused (exit 2) at once, in
 * `check`, `run` and `run --plan` alike, rather than after minutes of set-up or with
 * "out of host memory" (issue 19).
 *
 * The estimate is a lower bound: the arrays the solver allocates for certain, before its
 * own exact plan (pls: lq_ctx_reserve_plan) or its part-by-part reservations check the
 * rest. A grid that passes here can still be refused by those, later but still before
 * anything is written.
 */
#ifndef LQ_BUDGET_H
#define LQ_BUDGET_H

#include "core/field.h"

/* host: bytes of host memory; device: bytes of device memory (on the reference path the
 * device is the host: both count against its memory); largest: the largest one buffer.
 * Checked against 90 % of the machine's memory, LIQUIDCL_DEVICE_MEMORY when set, and the
 * OpenCL device's global memory and largest allocation. LQ_OK, or LQ_EINPUT naming
 * `what`, the bytes and the limit. Doubles: a 65536³ estimate does not overflow. */
int lq_budget_check(const lq_ctx *ctx, const char *what, double host, double device,
                    double largest);
/* The same without LIQUIDCL_DEVICE_MEMORY: for a solver whose exact plan, made soon after,
 * names every part against it (pls on a grid quick to set up). */
int lq_budget_check_nocap(const lq_ctx *ctx, const char *what, double host, double device,
                          double largest);

#endif
