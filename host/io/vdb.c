/*
 * vdb.c — what vdb.h promises in a build without OpenVDB (LIQUIDCL_HAVE_OPENVDB unset):
 * no VDB output, said plainly. With the library, host/io/vdb_openvdb.cpp defines both
 * functions instead and this file defines nothing.
 */
#include "io/vdb.h"

#ifndef LIQUIDCL_HAVE_OPENVDB
#include "core/common.h"

bool lq_vdb_available(void)
{
    return false;
}

int lq_vdb_write(const char *path, const lq_vdb_grid *grids, int n, const char *creator)
{
    (void)grids;
    (void)n;
    (void)creator;
    return lq_error(LQ_ESIM,
                    "%s: this liquidcl was built without OpenVDB (install libopenvdb-dev, "
                    "tools/packages.txt, and rebuild)",
                    path);
}
#endif
