/*
 * interrupt.c — the run's signal handling (interrupt.h).
 */
#include "core/interrupt.h"

#include <signal.h>
#include <string.h>
#include <time.h>

#include "core/common.h"

static volatile sig_atomic_t lq_interrupt_sig, lq_interrupt_count;
static volatile sig_atomic_t lq_interrupt_at; /* s of CLOCK_MONOTONIC at the first signal */
static bool lq_interrupt_gave_up;
static struct sigaction lq_interrupt_old_int, lq_interrupt_old_term;

static void lq_interrupt_on_signal(int sig)
{
    if (!lq_interrupt_count) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        lq_interrupt_at = (sig_atomic_t)ts.tv_sec;
        lq_interrupt_sig = sig;
    }
    if (lq_interrupt_count < 2) lq_interrupt_count++;
}

void lq_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = lq_interrupt_on_signal;
    sigemptyset(&sa.sa_mask);
    lq_interrupt_sig = lq_interrupt_count = 0;
    lq_interrupt_gave_up = false;
    sigaction(SIGINT, &sa, &lq_interrupt_old_int);
    sigaction(SIGTERM, &sa, &lq_interrupt_old_term);
}

void lq_interrupt_restore(void)
{
    sigaction(SIGINT, &lq_interrupt_old_int, NULL);
    sigaction(SIGTERM, &lq_interrupt_old_term, NULL);
}

int lq_interrupt_requested(void)
{
    return lq_interrupt_count ? (int)lq_interrupt_sig : 0;
}

bool lq_interrupt_due(void)
{
    if (!lq_interrupt_count) return false;
    if (lq_interrupt_count >= 2) return true;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec - (double)lq_interrupt_at >= LQ_INTERRUPT_GRACE;
}

void lq_interrupt_abandon(void)
{
    lq_interrupt_gave_up = true;
}

bool lq_interrupt_abandoned(void)
{
    return lq_interrupt_gave_up;
}

const char *lq_interrupt_name(void)
{
    return lq_interrupt_sig == SIGINT    ? "SIGINT"
           : lq_interrupt_sig == SIGTERM ? "SIGTERM"
                                         : "a signal";
}

void lq_interrupt_fake(int sig, double age)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lq_interrupt_sig = sig;
    lq_interrupt_count = sig ? 1 : 0;
    lq_interrupt_gave_up = false;
    lq_interrupt_at = (sig_atomic_t)((double)ts.tv_sec - age);
}
