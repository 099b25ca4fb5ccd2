/*
 * tolerance.h — how far a kernel's result may lie from its reference twin, one table
 * for every operation and every field `liquidcl diff` compares, each with its reason.
 */
#ifndef LQ_TOLERANCE_H
#define LQ_TOLERANCE_H

typedef struct lq_tolerance {
    const char *name; /* operation ("hf_adi_x") or scene field ("shallow.h") */
    double abs;       /* allowed max |a − b| */
    double rel;       /* allowed max |a − b| / max(|b|, floor) */
    double floor;     /* denominator floor for the relative error */
    const char *why;  /* the reason for the entry */
} lq_tolerance;

/* The entry for `name`; an unknown name is a programmer error (assert). */
const lq_tolerance *lq_tolerance_get(const char *name);
/* True when the errors are within the entry (either bound suffices). */
int lq_tolerance_ok(const lq_tolerance *t, double max_abs, double max_rel);
/* The whole table, terminated by name == NULL. */
extern const lq_tolerance lq_tolerances[];

#endif
