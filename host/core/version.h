/*
 * version.h — liquidcl's version: the project's (CMakeLists.txt) and the git commit it was
 * built from, "0.1+g1234abcdef" (".dirty" when tracked files had changes), made at every
 * build by tools/version.cmake.
 */
#ifndef LQ_VERSION_H
#define LQ_VERSION_H

const char *lq_version(void);

#endif
