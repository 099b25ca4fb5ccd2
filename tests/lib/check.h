/*
 * check.h — the test harness every test file uses: CHECK macros that report
 * file:line and the values involved, and a failure count that becomes the exit code.
 */
#ifndef LQ_CHECK_H
#define LQ_CHECK_H

#include <math.h>
#include <stdio.h>

static int lq_check_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            lq_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            lq_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* |a - b| <= tol, reporting both values. */
#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double lq_a_ = (double)(a), lq_b_ = (double)(b), lq_t_ = (double)(tol);                    \
        if (!(fabs(lq_a_ - lq_b_) <= lq_t_)) {                                                     \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g, tol %.3g\n",          \
                    __FILE__, __LINE__, #a, lq_a_, #b, lq_b_, lq_t_);                              \
            lq_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        int lq_rc_ = (expr);                                                                       \
        if (lq_rc_ != 0) {                                                                         \
            fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #expr, lq_rc_,      \
                    lq_error_message());                                                           \
            lq_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* Ends main(): prints a summary line and returns the exit code. */
#define CHECK_DONE()                                                                               \
    do {                                                                                           \
        if (lq_check_failures)                                                                     \
            fprintf(stderr, "%d check(s) failed\n", lq_check_failures);                            \
        else                                                                                       \
            fprintf(stderr, "all checks passed\n");                                                \
        return lq_check_failures ? 1 : 0;                                                          \
    } while (0)

#endif
