/*
 * input.c — input files opened without blocking, and the list of them (input.h).
 *
 * open(2) of a FIFO blocks until a writer appears, so the file is opened O_NONBLOCK
 * (harmless for a regular file), checked with fstat and only then handed to stdio with
 * the flag cleared.
 */
#include "core/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/common.h"

static char **lq_input_list;
static int lq_input_n, lq_input_cap;

static const char *lq_input_kind(mode_t m)
{
    return S_ISDIR(m)    ? strerror(EISDIR)
           : S_ISFIFO(m) ? "a FIFO, not a regular file"
           : S_ISCHR(m)  ? "a character device, not a regular file"
           : S_ISBLK(m)  ? "a block device, not a regular file"
           : S_ISSOCK(m) ? "a socket, not a regular file"
                         : "not a regular file";
}

static void lq_input_note(const char *path)
{
    for (int i = 0; i < lq_input_n; i++)
        if (strcmp(lq_input_list[i], path) == 0) return;
    if (lq_input_n == lq_input_cap) {
        int cap = lq_input_cap ? 2 * lq_input_cap : 16;
        char **grown = realloc(lq_input_list, (size_t)cap * sizeof *grown);
        if (!grown) return; /* the list is for checkpoints; the read itself goes on */
        lq_input_list = grown;
        lq_input_cap = cap;
    }
    char *copy = strdup(path);
    if (copy) lq_input_list[lq_input_n++] = copy;
}

int lq_input_open(const char *path, FILE **f, char *why, size_t cap)
{
    const char *reason = NULL;
    int e = 0;
    *f = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        e = errno;
    else if (!S_ISREG(st.st_mode))
        reason = lq_input_kind(st.st_mode);
    if (!e && !reason) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        *f = fdopen(fd, "rb");
        if (*f) return LQ_OK;
        e = errno;
    }
    if (fd >= 0) close(fd);
    if (!reason) reason = strerror(e);
    if (why) snprintf(why, cap, "%s", reason);
    return lq_error(LQ_EINPUT, "%s: cannot open: %s", path, reason);
}

int lq_input_open_asset(const char *path, FILE **f)
{
    int rc = lq_input_open(path, f, NULL, 0);
    if (!rc) lq_input_note(path);
    return rc;
}

int lq_input_count(void)
{
    return lq_input_n;
}

const char *lq_input_path(int i)
{
    return i >= 0 && i < lq_input_n ? lq_input_list[i] : NULL;
}

void lq_input_forget(void)
{
    for (int i = 0; i < lq_input_n; i++) free(lq_input_list[i]);
    free(lq_input_list);
    lq_input_list = NULL;
    lq_input_n = lq_input_cap = 0;
}
