/*
 * registry.c — the table of solvers (see registry.h).
 */
#include "solvers/registry.h"

#include <string.h>

static const lq_solver_vt *const lq_registry_solvers[] = {&lq_shallow_solver, &lq_splash_solver,
                                                          &lq_mac_solver, &lq_pls_solver};

const lq_solver_vt *lq_registry_find(const lq_config *cfg)
{
    for (size_t i = 0; i < LQ_COUNT(lq_registry_solvers); i++)
        if (strcmp(lq_registry_solvers[i]->name, cfg->solver) == 0) return lq_registry_solvers[i];
    lq_config_error(cfg, cfg->at_solver,
                    "solver '%s' is not in this build (available: shallow, splash, mac, pls)",
                    cfg->solver);
    return NULL;
}
