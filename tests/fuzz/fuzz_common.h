/*
 * fuzz_common.h — shared by the libFuzzer targets (tests/fuzz/fuzz_*.c, built by
 * tools/fuzz with clang): the readers take paths, so each input is written to one
 * temporary file per process first.
 */
#ifndef LQ_FUZZ_COMMON_H
#define LQ_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/common.h"

/* The path of this process's scratch file named NAME (its suffix matters to no reader),
 * holding the n bytes of data. */
static inline const char *lq_fuzz_file(const char *name, const uint8_t *data, size_t n)
{
    static char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/lq_fuzz_%ld_%s", dir && *dir ? dir : "/tmp", (long)getpid(),
             name);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (n && fwrite(data, 1, n, f) != n) abort();
    fclose(f);
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
