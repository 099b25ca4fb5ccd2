/*
 * registry.h — the solvers this build has, by the scene's `solver:` word.
 */
#ifndef LQ_REGISTRY_H
#define LQ_REGISTRY_H

#include "core/solver_api.h"
#include "scene/config.h"

/* The solver named by the scene, or NULL (with the error recorded at `solver`). */
const lq_solver_vt *lq_registry_find(const lq_config *cfg);

extern const lq_solver_vt lq_shallow_solver;
extern const lq_solver_vt lq_splash_solver;
extern const lq_solver_vt lq_mac_solver;
extern const lq_solver_vt lq_pls_solver;

#endif
