/*
 * main.c — the command line (DESIGN.md): run, check, info, bench, diff.
 */
#include "common.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "liquidcl: not built yet\n");
    return LQ_EINPUT;
}
