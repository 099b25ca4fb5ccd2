/*
 * outdir.c — the output folder's checks, lock and clean-up (outdir.h).
 *
 * Where a folder is. `--out` is resolved without creating anything: the longest prefix
 * that exists through realpath(3) (symbolic links followed), the rest lexically ("a/.."
 * of a folder still to be made is its parent). The root and home checks compare that.
 *
 * The lock. DIR/liquidcl.lock holds one line per fact of the run that holds it (pid,
 * start time, scene) under an fcntl write lock over the whole file. The holder removes
 * the file before it lets go, so a run that opened the old file and then got the lock
 * checks that the name still leads to the file it locked, and starts again if not: two
 * runs never both hold a lock on the name. A lock file found unlocked (with content) was
 * left by a run that died: its facts go into the report of what it left.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/common.h"
#include "io/io.h"

#define LQ_OUTDIR_NAME_MAX 255 /* bytes in one folder name (NAME_MAX of Linux file systems) */

/* Names a liquidcl run writes at the top of its folder. */
static const char *const lq_outdir_names[] = {"mesh",           "fields",       "preview",
                                              "particles",      "stats.jsonl",  "objects.csv",
                                              "checkpoint.lqc", "liquidcl.lock"};

/* "NAME.tmp.PID": a temporary file of io.h's atomic writers. */
static bool lq_outdir_is_tmp(const char *name)
{
    const char *t = NULL;
    for (const char *p = strstr(name, ".tmp."); p; p = strstr(p + 1, ".tmp.")) t = p;
    if (!t || t == name || !t[5]) return false;
    return strspn(t + 5, "0123456789") == strlen(t + 5);
}

/* The path `dir` names, resolved as the header says, into out (PATH_MAX). */
static void lq_outdir_resolve(const char *dir, char *out)
{
    char cwd[PATH_MAX], buf[PATH_MAX + LQ_OUTDIR_NAME_MAX + 2];
    if (dir[0] == '/' || !getcwd(cwd, sizeof cwd)) snprintf(cwd, sizeof cwd, "/");
    if (!realpath(cwd, out)) snprintf(out, PATH_MAX, "%s", cwd);
    bool exists = true;
    const char *p = dir;
    while (*p) {
        while (*p == '/') p++;
        size_t len = strcspn(p, "/");
        if (len == 0) break;
        char comp[LQ_OUTDIR_NAME_MAX + 1];
        snprintf(comp, sizeof comp, "%.*s", (int)LQ_MIN(len, sizeof comp - 1), p);
        p += len;
        if (strcmp(comp, ".") == 0) continue;
        if (exists) {
            snprintf(buf, sizeof buf, "%s/%s", strcmp(out, "/") ? out : "", comp);
            char r[PATH_MAX];
            if (realpath(buf, r)) {
                snprintf(out, PATH_MAX, "%s", r);
                continue;
            }
            exists = false;
        }
        if (strcmp(comp, "..") == 0) {
            char *slash = strrchr(out, '/');
            if (slash && slash != out)
                *slash = '\0';
            else
                snprintf(out, PATH_MAX, "/");
        } else {
            size_t o = strlen(out);
            snprintf(out + o, PATH_MAX - o, "%s%s", strcmp(out, "/") ? "/" : "", comp);
        }
    }
}

/* The home folders: $HOME and the user's entry in the password database. */
static int lq_outdir_homes(char homes[2][PATH_MAX])
{
    int n = 0;
    const char *env = getenv("HOME");
    struct passwd *pw = getpwuid(getuid());
    const char *cand[2] = {env, pw ? pw->pw_dir : NULL};
    for (int i = 0; i < 2; i++)
        if (cand[i] && cand[i][0] && realpath(cand[i], homes[n])) n++;
    return n;
}

/* The first entry of an existing folder that a liquidcl run does not write, or "" when
 * every entry is one of its names or the folder holds a run (stats, checkpoint, lock). */
static void lq_outdir_foreign(const char *path, char *first, size_t cap)
{
    first[0] = '\0';
    DIR *d = opendir(path);
    if (!d) return;
    bool run = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
        bool ours = lq_outdir_is_tmp(name);
        for (size_t i = 0; i < LQ_COUNT(lq_outdir_names) && !ours; i++)
            ours = strcmp(name, lq_outdir_names[i]) == 0;
        run |= strcmp(name, "stats.jsonl") == 0 || strcmp(name, "checkpoint.lqc") == 0 ||
               strcmp(name, "liquidcl.lock") == 0;
        if (!ours && !first[0]) snprintf(first, cap, "%s", name);
    }
    closedir(d);
    if (run) first[0] = '\0';
}

int lq_outdir_check(const char *dir, bool flag)
{
    char who[96];
    if (flag)
        snprintf(who, sizeof who, "--out %.60s%s", dir, strlen(dir) > 60 ? "..." : "");
    else
        snprintf(who, sizeof who, "%.60s%s", dir, strlen(dir) > 60 ? "..." : "");
    if (!dir[0])
        return lq_error(LQ_EINPUT, "--out '': an empty folder name (files would go to the root "
                                   "of the file system); name the folder for this run");
    size_t len = strlen(dir);
    if (len > LQ_OUTDIR_MAX)
        return lq_error(LQ_EINPUT, "%s: the path is %zu characters long; at most %d", who, len,
                        LQ_OUTDIR_MAX);
    for (const char *p = dir; *p;) {
        size_t n = strcspn(p, "/");
        if (n > LQ_OUTDIR_NAME_MAX)
            return lq_error(LQ_EINPUT, "%s: a folder name of %zu characters; at most %d", who, n,
                            LQ_OUTDIR_NAME_MAX);
        p += n;
        while (*p == '/') p++;
    }
    char at[PATH_MAX], homes[2][PATH_MAX];
    lq_outdir_resolve(dir, at);
    if (strcmp(at, "/") == 0)
        return lq_error(LQ_EINPUT,
                        "%s: that is the root of the file system; name a folder for this run", who);
    int nh = lq_outdir_homes(homes);
    for (int i = 0; i < nh; i++) {
        size_t n = strlen(at);
        if (strcmp(at, homes[i]) == 0)
            return lq_error(LQ_EINPUT, "%s: that is your home folder (%s); name a folder in it",
                            who, homes[i]);
        if (strncmp(homes[i], at, n) == 0 && homes[i][n] == '/')
            return lq_error(LQ_EINPUT, "%s: that folder holds your home folder (%s)", who,
                            homes[i]);
    }
    struct stat st;
    if (stat(at, &st) == 0 && S_ISDIR(st.st_mode)) {
        char first[LQ_OUTDIR_NAME_MAX + 1];
        lq_outdir_foreign(at, first, sizeof first);
        if (first[0])
            return lq_error(LQ_EINPUT,
                            "%s: the folder holds other things than a liquidcl run (such as "
                            "'%.60s'); name a new or empty folder",
                            who, first);
    }
    return LQ_OK;
}

/* Removes the temporary files under DIR and its four frame folders; returns how many,
 * the first one's name in `first`. */
static int lq_outdir_sweep(const char *dir, char *first, size_t cap)
{
    static const char *const subs[] = {"", "/mesh", "/fields", "/preview", "/particles"};
    int n = 0;
    first[0] = '\0';
    for (size_t s = 0; s < LQ_COUNT(subs); s++) {
        char path[LQ_OUTDIR_MAX + 16];
        snprintf(path, sizeof path, "%s%s", dir, subs[s]);
        DIR *d = opendir(path);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!lq_outdir_is_tmp(e->d_name)) continue;
            char full[LQ_OUTDIR_MAX + 16 + 2 + 256];
            snprintf(full, sizeof full, "%s/%s", path, e->d_name);
            if (remove(full) != 0) continue;
            if (!n++)
                snprintf(first, cap, "%s%s%s", subs[s][0] ? subs[s] + 1 : "", subs[s][0] ? "/" : "",
                         e->d_name);
        }
        closedir(d);
    }
    return n;
}

/* The lock file's facts, one line: "pid N, started T, scene S" (what it holds). */
static void lq_outdir_facts(int fd, char *out, size_t cap)
{
    char text[1024];
    ssize_t got = pread(fd, text, sizeof text - 1, 0);
    out[0] = '\0';
    if (got <= 0) return;
    text[got] = '\0';
    size_t o = 0;
    for (char *line = strtok(text, "\n"); line && o + 2 < cap; line = strtok(NULL, "\n")) {
        char *sp = strchr(line, ' ');
        if (!sp) continue;
        *sp = '\0';
        o += (size_t)snprintf(out + o, cap - o, "%s%s %s", o ? ", " : "", line, sp + 1);
        if (o >= cap) o = cap - 1;
    }
}

/* Takes DIR's lock: LQ_OK with o->lock_fd held, or LQ_EINPUT naming the holder. The facts
 * a dead run left in the file go to `left`. */
static int lq_outdir_lock(lq_outdir *o, const char *dir, char *left, size_t cap)
{
    left[0] = '\0';
    for (int tries = 0; tries < 16; tries++) {
        int fd = open(o->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return lq_error(LQ_EINPUT, "--out %s: cannot create %s: %s", dir, o->lock_path,
                            strerror(errno));
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        if (fcntl(fd, F_SETLK, &fl) != 0) {
            int e = errno;
            if (e != EACCES && e != EAGAIN) {
                /* a file system without locks: run unlocked rather than not at all */
                fprintf(stderr,
                        "liquidcl: warning: cannot lock %s (%s); make sure no other "
                        "run writes there\n",
                        o->lock_path, strerror(e));
                o->lock_fd = fd;
                return LQ_OK;
            }
            struct flock q = fl;
            char facts[512];
            long pid = fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? (long)q.l_pid : 0;
            lq_outdir_facts(fd, facts, sizeof facts);
            close(fd);
            if (pid == 0 && tries < 15) continue; /* let go of meanwhile: try again */
            return lq_error(LQ_EINPUT,
                            "--out %s: another liquidcl run is writing there (%s%s); wait for "
                            "it or choose another --out",
                            dir, facts[0] ? facts : "pid ", facts[0] ? "" : "unknown");
        }
        struct stat a, b;
        if (fstat(fd, &a) != 0 || stat(o->lock_path, &b) != 0 || a.st_ino != b.st_ino ||
            a.st_dev != b.st_dev) {
            close(fd); /* removed by the run that held it: lock the new file */
            continue;
        }
        lq_outdir_facts(fd, left, cap);
        o->lock_fd = fd;
        return LQ_OK;
    }
    return lq_error(LQ_EINPUT, "--out %s: cannot take the lock %s (it keeps changing)", dir,
                    o->lock_path);
}

int lq_outdir_open(lq_outdir *o, const char *dir, const char *scene)
{
    o->lock_fd = -1;
    snprintf(o->lock_path, sizeof o->lock_path, "%s/liquidcl.lock", dir);
    if (lq_mkdirs(dir)) return lq_error_replace(LQ_EINPUT, "--out %s: %s", dir, lq_error_message());
    char left[512], first[300];
    int rc = lq_outdir_lock(o, dir, left, sizeof left);
    if (rc) return rc;
    char facts[1024], when[64];
    time_t now = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tm));
    int n = snprintf(facts, sizeof facts, "pid %ld\nstarted %s\nscene %.900s\n", (long)getpid(),
                     when, scene);
    if (ftruncate(o->lock_fd, 0) != 0 || pwrite(o->lock_fd, facts, (size_t)n, 0) != n)
        fprintf(stderr, "liquidcl: warning: cannot write %s: %s\n", o->lock_path, strerror(errno));
    int swept = lq_outdir_sweep(dir, first, sizeof first);
    char removed[400] = "";
    if (swept)
        snprintf(removed, sizeof removed, "; removed %d partial file%s such as %s", swept,
                 swept == 1 ? "" : "s", first);
    if (swept || left[0])
        fprintf(stderr, "liquidcl: %s: %s%s%s did not finish%s\n", dir,
                left[0] ? "the last run here (" : "a run here", left, left[0] ? ")" : "", removed);
    return LQ_OK;
}

void lq_outdir_close(lq_outdir *o)
{
    if (o->lock_fd < 0) return;
    unlink(o->lock_path); /* first, while held: see the header */
    close(o->lock_fd);
    o->lock_fd = -1;
}
