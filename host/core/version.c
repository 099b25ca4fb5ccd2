/*
 * version.c — lq_version (version.h), from the generated lq_version.h in the build folder.
 */
#include "core/version.h"

#include "lq_version.h"

const char *lq_version(void)
{
    return LQ_VERSION;
}
