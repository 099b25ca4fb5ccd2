/*
 * interrupt.h — Ctrl-C (SIGINT) and SIGTERM during a run, honoured within a bounded
 * time.
 *
 * While installed (the run's frame loop), a first signal asks the run to stop after the
 * frame in progress, which is then checkpointed and reported (host/cli/run.c). The
 * solvers test lq_interrupt_due between steps (core/framesplit.h): once a second signal
 * has come, or LQ_INTERRUPT_GRACE seconds have passed since the first without the frame
 * ending, it is true, and the solver abandons the frame, so the run ends within the
 * grace and one step (or one iteration of a long solve) however long the frame would
 * have been. An abandoned frame is not written: the folder keeps the frames before it.
 *
 * The handler only stores into sig_atomic_t variables (and reads the monotonic clock,
 * which is async-signal-safe).
 */
#ifndef LQ_INTERRUPT_H
#define LQ_INTERRUPT_H

#include <stdbool.h>

#define LQ_INTERRUPT_GRACE 5.0 /* s: how long the frame in progress may still take */

/* Installs the handlers for SIGINT and SIGTERM (clearing any earlier request). */
void lq_interrupt_install(void);
/* Puts back the handlers that were there before. */
void lq_interrupt_restore(void);
/* The signal that asked the run to stop (SIGINT or SIGTERM), 0 when none has. */
int lq_interrupt_requested(void);
/* True when the frame in progress must be abandoned now (see above). */
bool lq_interrupt_due(void);
/* Marks the frame in progress abandoned (framesplit's guard), and whether it was. */
void lq_interrupt_abandon(void);
bool lq_interrupt_abandoned(void);
/* "SIGINT", "SIGTERM" or "a signal". */
const char *lq_interrupt_name(void);
/* For tests: as if signal sig had come `age` seconds ago (0: none). */
void lq_interrupt_fake(int sig, double age);

#endif
