/*
 * profile.c — the stage timer of profile.h: a table of rows, one per stage name and
 * parent, filled while stages open and close, printed once at exit (atexit, registered
 * when LIQUIDCL_PROFILE is first read as on).
 *
 * Invariant: with the profile off nothing here reads a clock or touches a queue; every
 * entry point returns after testing lq_profile_state.on.
 */
#include "core/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LQ_PROFILE_ROWS  96
#define LQ_PROFILE_DEPTH 8

typedef struct lq_profile_row {
    const char *name;
    int parent; /* row index, -1 at the top */
    long long calls;
    double total;           /* s */
    long long waits, bytes; /* blocking host waits inside the stage, and what they moved */
} lq_profile_row;

static struct {
    int on; /* -1 until LIQUIDCL_PROFILE is read */
    int nrows, depth, lost;
    lq_profile_row rows[LQ_PROFILE_ROWS];
    int open[LQ_PROFILE_DEPTH]; /* row of each open stage, -1 when the table was full */
    double t0[LQ_PROFILE_DEPTH];
    long long w0[LQ_PROFILE_DEPTH], b0[LQ_PROFILE_DEPTH];
} lq_profile_state = {.on = -1};

static void lq_profile_report(void);

bool lq_profile_on(void)
{
    if (lq_profile_state.on < 0) {
        const char *e = getenv("LIQUIDCL_PROFILE");
        lq_profile_state.on = e && *e && strcmp(e, "0") != 0;
        if (lq_profile_state.on) atexit(lq_profile_report);
    }
    return lq_profile_state.on;
}

/* The row of `name` under `parent`, made on first use; -1 when the table is full. */
static int lq_profile_row_of(const char *name, int parent)
{
    for (int r = 0; r < lq_profile_state.nrows; r++)
        if (lq_profile_state.rows[r].parent == parent &&
            strcmp(lq_profile_state.rows[r].name, name) == 0)
            return r;
    if (lq_profile_state.nrows == LQ_PROFILE_ROWS) return -1;
    lq_profile_row *row = &lq_profile_state.rows[lq_profile_state.nrows];
    row->name = name;
    row->parent = parent;
    return lq_profile_state.nrows++;
}

void lq_profile_begin(lq_ctx *ctx, const char *name)
{
    if (!lq_profile_on()) return;
    int d = lq_profile_state.depth++;
    if (d >= LQ_PROFILE_DEPTH) {
        lq_profile_state.lost++;
        return;
    }
    int parent = d > 0 ? lq_profile_state.open[d - 1] : -1;
    lq_profile_state.open[d] = d > 0 && parent < 0 ? -1 : lq_profile_row_of(name, parent);
    if (lq_profile_state.open[d] < 0) lq_profile_state.lost++;
    (void)lq_ctx_sync(ctx);
    lq_profile_state.w0[d] = ctx->waits;
    lq_profile_state.b0[d] = ctx->wait_bytes;
    lq_profile_state.t0[d] = lq_now();
}

void lq_profile_end(lq_ctx *ctx)
{
    if (!lq_profile_on() || lq_profile_state.depth == 0) return;
    int d = --lq_profile_state.depth;
    if (d >= LQ_PROFILE_DEPTH || lq_profile_state.open[d] < 0) return;
    (void)lq_ctx_sync(ctx);
    lq_profile_row *row = &lq_profile_state.rows[lq_profile_state.open[d]];
    row->total += lq_now() - lq_profile_state.t0[d];
    row->waits += ctx->waits - lq_profile_state.w0[d];
    row->bytes += ctx->wait_bytes - lq_profile_state.b0[d];
    row->calls++;
}

/* Prints row r and, below it, its children in the order they first ran. */
static void lq_profile_print(int r, int indent, double steps, double all)
{
    const lq_profile_row *row = &lq_profile_state.rows[r];
    double kids = 0, per = steps > 0 ? 1 / steps : 0;
    long long kid_waits = 0, kid_bytes = 0;
    bool any = false;
    fprintf(stderr, "%*s%-*s %8lld %11.1f %9.2f %6.1f %% %8.2f %9.1f\n", indent, "", 44 - indent,
            row->name, row->calls, 1e3 * row->total, 1e3 * row->total * per,
            all > 0 ? 100 * row->total / all : 0.0, (double)row->waits * per,
            (double)row->bytes * per / 1024);
    for (int c = 0; c < lq_profile_state.nrows; c++)
        if (lq_profile_state.rows[c].parent == r) {
            lq_profile_print(c, indent + 2, steps, all);
            kids += lq_profile_state.rows[c].total;
            kid_waits += lq_profile_state.rows[c].waits;
            kid_bytes += lq_profile_state.rows[c].bytes;
            any = true;
        }
    if (any) {
        double rest = row->total - kids;
        fprintf(stderr, "%*s%-*s %8s %11.1f %9.2f %6.1f %% %8.2f %9.1f\n", indent + 2, "",
                42 - indent, "(between stages)", "", 1e3 * rest, 1e3 * rest * per,
                all > 0 ? 100 * rest / all : 0.0, (double)(row->waits - kid_waits) * per,
                (double)(row->bytes - kid_bytes) * per / 1024);
    }
}

static void lq_profile_report(void)
{
    double steps = 0, all = 0;
    for (int r = 0; r < lq_profile_state.nrows; r++) {
        const lq_profile_row *row = &lq_profile_state.rows[r];
        if (row->parent >= 0) continue;
        all += row->total;
        if (strcmp(row->name, "step") == 0) steps += (double)row->calls;
    }
    if (lq_profile_state.nrows == 0) return;
    fprintf(stderr,
            "\nLIQUIDCL_PROFILE: %.0f steps; each stage timed with the queue finished before and "
            "after it; waits: the stage's own blocking host waits (finishes, reads, writes) per "
            "step, and the KiB they moved\n%-44s %8s %11s %9s %8s %8s %9s\n",
            steps, "stage", "calls", "total ms", "ms/step", "share", "waits", "KiB/step");
    for (int r = 0; r < lq_profile_state.nrows; r++)
        if (lq_profile_state.rows[r].parent < 0) lq_profile_print(r, 0, steps, all);
    if (lq_profile_state.lost)
        fprintf(stderr, "(%d stage calls not timed: more than %d rows or %d levels)\n",
                lq_profile_state.lost, LQ_PROFILE_ROWS, LQ_PROFILE_DEPTH);
}

/* --- failed stages --------------------------------------------------------------------- */

static const char *lq_profile_fails[LQ_PROFILE_DEPTH];
static int lq_profile_nfails;

void lq_profile_failed(const char *name)
{
    if (lq_profile_nfails < LQ_PROFILE_DEPTH) lq_profile_fails[lq_profile_nfails++] = name;
}

void lq_profile_failed_clear(void)
{
    lq_profile_nfails = 0;
}

const char *lq_profile_failed_stage(int i)
{
    return i >= 0 && i < lq_profile_nfails ? lq_profile_fails[i] : NULL;
}
