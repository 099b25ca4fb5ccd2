/*
 * scene.c — the scene loader: YAML (libyaml) → a tree of positioned nodes →
 * `--set` overrides → validation against the key table (host/scene/scene_keys.c) →
 * typed getters with table defaults, and the Markdown docs generated from the table.
 *
 * Method. libyaml's document API gives every node a start mark; the loader copies
 * the document into its own tree (lq_node), every node carrying its 1-based line and
 * column and its origin: 0 for the scene file, k > 0 for the k-th override, -1 for a
 * table default. Overrides edit the tree in place; validation then walks the whole
 * tree once, in document order, and stops at the first problem, which is recorded
 * with lq_error(LQ_EINPUT) as one line "FILE:LINE:COL: path: message" (or
 * "--set KEY=VALUE: path: message" for a node an override made).
 *
 * Invariants.
 * - All nodes and strings of a scene live in one arena freed by lq_scene_free();
 *   overrides never free a replaced node, so shared nodes (YAML aliases) are safe.
 * - After lq_scene_load() succeeds, every present key has a table row, is read by
 *   the scene's solver, has the row's type and range; every LIST item has exactly one
 *   kind key; required keys are present; FILE keys name readable files and carry
 *   their resolved path. The getters therefore never fail on input; a path the table
 *   lacks, or the wrong getter for its type, is a programmer error that stops the
 *   program with a message (lq_scene_misuse), in every build type.
 * - A YAML null (`key:`, `~`, `null`) as a MAP or LIST value means an empty mapping
 *   or list; for any other type it is a type error.
 * - Numbers and booleans are plain (unquoted) scalars; a quoted "0.5" is text.
 * - Recursion is bounded (64 levels, 10^6 nodes) so aliases cannot loop or explode.
 */
#define LQ_SCENE_GETTERS /* this file implements them */
#include "scene/scene.h"

#include "core/common.h"
#include "core/input.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#define LQ_SCENE_DEPTH_MAX 64
#define LQ_SCENE_NODES_MAX 1000000
#define LQ_SCENE_PATH_MAX  256
#define LQ_SCENE_FILE_MAX  (4L << 20) /* bytes: larger scene files are refused (parse time) */
#define LQ_SCENE_CLIP      48         /* characters of user text quoted in a message */
#define LQ_SCENE_MSG       768

/* ---------------------------------------------------------------------------------
 * Nodes and the arena that owns them.
 */

typedef enum lq_node_kind {
    LQ_NODE_NULL, /* `~`, `null`, or nothing after `key:` */
    LQ_NODE_SCALAR,
    LQ_NODE_SEQ,
    LQ_NODE_MAP
} lq_node_kind;

typedef struct lq_node lq_node;
struct lq_node {
    lq_node_kind kind;
    int line, col;        /* 1-based position of the node's first character */
    int origin;           /* 0: the scene file; k > 0: the k-th --set; -1: a default */
    bool quoted;          /* a scalar written in quotes: text, never a number */
    const char *text;     /* scalar text ("" for null) */
    const char *resolved; /* FILE keys: the path resolved against the scene folder */
    int n;                /* SEQ: items; MAP: key/value pairs */
    lq_node **kids;       /* SEQ: n items; MAP: 2n nodes, key then value */
};

typedef struct lq_scene_block {
    struct lq_scene_block *next;
    size_t used, cap; /* in max_align_t units */
    max_align_t data[];
} lq_scene_block;

typedef struct lq_scene_arena {
    lq_scene_block *head;
} lq_scene_arena;

/* Zeroed memory from the arena; NULL with LQ_ESIM recorded when out of memory. */
static void *lq_scene_arena_alloc(lq_scene_arena *a, size_t bytes)
{
    size_t units = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t);
    if (units == 0) units = 1;
    if (!a->head || a->head->cap - a->head->used < units) {
        size_t cap = units > 4096 ? units : 4096;
        lq_scene_block *b = lq_alloc(sizeof *b + cap * sizeof(max_align_t));
        if (!b) return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += units;
    memset(p, 0, units * sizeof(max_align_t));
    return p;
}

static char *lq_scene_arena_strndup(lq_scene_arena *a, const char *s, size_t len)
{
    char *p = lq_scene_arena_alloc(a, len + 1);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static char *lq_scene_arena_strdup(lq_scene_arena *a, const char *s)
{
    return lq_scene_arena_strndup(a, s, strlen(s));
}

static void lq_scene_arena_free(lq_scene_arena *a)
{
    while (a->head) {
        lq_scene_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

static lq_node *lq_scene_node_new(lq_scene_arena *a, lq_node_kind kind, int origin)
{
    lq_node *n = lq_scene_arena_alloc(a, sizeof *n);
    if (!n) return NULL;
    n->kind = kind;
    n->origin = origin;
    n->text = "";
    return n;
}

/* Index of key `name` in mapping `m`, or -1. */
static int lq_scene_map_index(const lq_node *m, const char *name)
{
    if (!m || m->kind != LQ_NODE_MAP) return -1;
    for (int i = 0; i < m->n; i++) {
        const lq_node *k = m->kids[2 * i];
        if (k->kind == LQ_NODE_SCALAR && strcmp(k->text, name) == 0) return i;
    }
    return -1;
}

/* ---------------------------------------------------------------------------------
 * Text helpers: user text in messages, numbers, enum word lists, edit distance.
 */

/* Copies at most `keep` characters of user text into buf with control characters
 * escaped, so a message stays one line. */
static const char *lq_scene_clip(const char *text, size_t keep, char *buf, size_t cap)
{
    size_t o = 0, i = 0;
    for (; text[i] && i < keep && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n' || c == '\t' || c == '\r') {
            buf[o++] = '\\';
            buf[o++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        } else if (c < 0x20 || c == 0x7f) {
            buf[o++] = '?';
        } else {
            buf[o++] = (char)c;
        }
    }
    if (text[i] && o + 4 < cap) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

/* Describes a node for "expected X, got Y". */
static const char *lq_scene_got(const lq_node *v, char *buf, size_t cap)
{
    char clip[LQ_SCENE_CLIP * 2 + 8];
    switch (v->kind) {
    case LQ_NODE_NULL:
        snprintf(buf, cap, "nothing");
        break;
    case LQ_NODE_SEQ:
        snprintf(buf, cap, "a sequence");
        break;
    case LQ_NODE_MAP:
        snprintf(buf, cap, "a mapping");
        break;
    case LQ_NODE_SCALAR:
        lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip);
        snprintf(buf, cap, v->quoted ? "quoted text '%s'" : "'%s'", clip);
        break;
    }
    return buf;
}

/* YAML plain-scalar nulls. */
static bool lq_scene_is_null_word(const char *t)
{
    return t[0] == '\0' || strcmp(t, "~") == 0 || strcmp(t, "null") == 0 ||
           strcmp(t, "Null") == 0 || strcmp(t, "NULL") == 0;
}

/* Decimal numbers: [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)? — no inf, nan, hex. */
static bool lq_scene_is_number(const char *t)
{
    const char *p = t;
    int digits = 0;
    if (*p == '+' || *p == '-') p++;
    while (isdigit((unsigned char)*p)) p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) p++, digits++;
    }
    if (digits == 0) return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!isdigit((unsigned char)*p)) return false;
        while (isdigit((unsigned char)*p)) p++;
    }
    return *p == '\0';
}

static bool lq_scene_is_integer(const char *t)
{
    const char *p = t;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return false;
    while (isdigit((unsigned char)*p)) p++;
    return *p == '\0';
}

/* YAML 1.2 core booleans; returns -1 for anything else. */
static int lq_scene_bool_word(const char *t)
{
    if (!strcmp(t, "true") || !strcmp(t, "True") || !strcmp(t, "TRUE")) return 1;
    if (!strcmp(t, "false") || !strcmp(t, "False") || !strcmp(t, "FALSE")) return 0;
    return -1;
}

/* A number for messages and docs: integers in full, others with %g, "inf". */
static const char *lq_scene_fmt_num(double x, char *buf, size_t cap)
{
    if (isinf(x))
        snprintf(buf, cap, x > 0 ? "inf" : "-inf");
    else if (x == floor(x) && fabs(x) < 1e15)
        snprintf(buf, cap, "%.0f", x);
    else
        snprintf(buf, cap, "%g", x);
    return buf;
}

/* "[1, 65536]", "(0, inf)"; "" for any number. */
static const char *lq_scene_fmt_range(const lq_key *k, char *buf, size_t cap)
{
    char lo[32], hi[32];
    if (isinf(k->min) && k->min < 0 && isinf(k->max) && k->max > 0) {
        buf[0] = '\0';
        return buf;
    }
    bool lo_open = (k->flags & LQ_KEY_MIN_OPEN) || isinf(k->min);
    bool hi_open = (k->flags & LQ_KEY_MAX_OPEN) || isinf(k->max);
    snprintf(buf, cap, "%c%s, %s%c", lo_open ? '(' : '[', lq_scene_fmt_num(k->min, lo, sizeof lo),
             lq_scene_fmt_num(k->max, hi, sizeof hi), hi_open ? ')' : ']');
    return buf;
}

static bool lq_scene_in_range(const lq_key *k, double x)
{
    bool lo = (k->flags & LQ_KEY_MIN_OPEN) ? x > k->min : x >= k->min;
    bool hi = (k->flags & LQ_KEY_MAX_OPEN) ? x < k->max : x <= k->max;
    return lo && hi;
}

/* True when `word` is one of the '|'-separated words. */
static bool lq_scene_enum_has(const char *words, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = words; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return true;
        p = bar ? bar + 1 : NULL;
    }
    return false;
}

/* "a|b|c" → "a, b, c" (with each word wrapped in `quote` on both sides). */
static const char *lq_scene_enum_list(const char *words, const char *quote, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (const char *p = words; p && *p && o < cap;) {
        const char *bar = strchr(p, '|');
        int len = bar ? (int)(bar - p) : (int)strlen(p);
        int w = snprintf(buf + o, cap - o, "%s%s%.*s%s", o ? ", " : "", quote, len, p, quote);
        if (w < 0) break;
        o += (size_t)w;
        p = bar ? bar + 1 : NULL;
    }
    return buf;
}

/* Levenshtein distance, case-insensitive, of the first 63 characters. */
static int lq_scene_distance(const char *a, const char *b)
{
    int na = (int)LQ_MIN(strlen(a), 63), nb = (int)LQ_MIN(strlen(b), 63);
    int row[64];
    for (int j = 0; j <= nb; j++) row[j] = j;
    for (int i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= nb; j++) {
            int up = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int best = diag + !same;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* Keeps the closest candidate: within 2 edits and fewer edits than its length. */
static void lq_scene_consider(const char *word, const char *cand, size_t len, char *best,
                              int *best_d)
{
    char c[64];
    if (len >= sizeof c) return;
    memcpy(c, cand, len);
    c[len] = '\0';
    int d = lq_scene_distance(word, c);
    if (d <= 2 && d < (int)len && d < *best_d) {
        *best_d = d;
        memcpy(best, c, len + 1);
    }
}

/* " (did you mean 'no-slip'?)" when an enum word is close, else "". */
static const char *lq_scene_suggest_word(const char *words, const char *word, char *buf, size_t cap)
{
    char best[64] = "";
    int best_d = INT_MAX;
    for (const char *p = words; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        lq_scene_consider(word, p, len, best, &best_d);
        p = bar ? bar + 1 : NULL;
    }
    if (best[0])
        snprintf(buf, cap, " (did you mean '%s'?)", best);
    else
        buf[0] = '\0';
    return buf;
}

/* ---------------------------------------------------------------------------------
 * The table: rows by path, parents, children.
 */

static int lq_scene_key_find(const lq_key *keys, const char *path)
{
    for (int i = 0; keys[i].path; i++)
        if (strcmp(keys[i].path, path) == 0) return i;
    return -1;
}

/* The last component of a row's path: "min" for "liquid[].box.min". */
static const char *lq_scene_key_name(const lq_key *k)
{
    const char *dot = strrchr(k->path, '.');
    return dot ? dot + 1 : k->path;
}

/* True when row k sits directly under table path `parent` ("" for the top level,
 * "liquid[]" for a list's items). */
static bool lq_scene_key_is_child(const lq_key *k, const char *parent)
{
    size_t n = strlen(parent);
    const char *rest = k->path;
    if (n) {
        if (strncmp(k->path, parent, n) != 0 || k->path[n] != '.') return false;
        rest = k->path + n + 1;
    }
    return !strchr(rest, '.') && !strchr(rest, '[');
}

/* Row of `parent`.`name`, or -1. */
static int lq_scene_key_child(const lq_key *keys, const char *parent, const char *name)
{
    char path[LQ_SCENE_PATH_MAX];
    int w = snprintf(path, sizeof path, "%s%s%s", parent, parent[0] ? "." : "", name);
    if (w < 0 || (size_t)w >= sizeof path) return -1;
    return lq_scene_key_find(keys, path);
}

/* Row of a row's parent key, or -1 for top-level keys and list-item keys. */
static int lq_scene_key_parent(const lq_key *keys, int row)
{
    char path[LQ_SCENE_PATH_MAX];
    const char *dot = strrchr(keys[row].path, '.');
    if (!dot || (size_t)(dot - keys[row].path) >= sizeof path) return -1;
    memcpy(path, keys[row].path, (size_t)(dot - keys[row].path));
    path[dot - keys[row].path] = '\0';
    return lq_scene_key_find(keys, path);
}

/* Row of a concrete path ("liquid.0.box.min" → "liquid[].box.min"), or -1. */
static int lq_scene_key_row(const lq_key *keys, const char *cpath)
{
    char tpath[LQ_SCENE_PATH_MAX];
    size_t o = 0;
    int row = -1;
    for (const char *p = cpath; *p;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        bool index = len > 0 && strspn(p, "0123456789") >= len;
        if (index && row >= 0 && keys[row].type == LQ_KEY_LIST) {
            if (o + 3 > sizeof tpath) return -1;
            memcpy(tpath + o, "[]", 3);
            o += 2;
            row = -1; /* "list[]" has no row of its own */
        } else {
            if (o + len + 2 > sizeof tpath) return -1;
            if (o) tpath[o++] = '.';
            memcpy(tpath + o, p, len);
            o += len;
            tpath[o] = '\0';
            row = lq_scene_key_find(keys, tpath);
        }
        p = dot ? dot + 1 : p + len;
    }
    return row;
}

/* "box, sphere, level" — the kind words of a LIST row's items. */
static const char *lq_scene_kind_list(const lq_key *keys, int list, char *buf, size_t cap)
{
    char item[LQ_SCENE_PATH_MAX];
    size_t o = 0;
    snprintf(item, sizeof item, "%s[]", keys[list].path);
    buf[0] = '\0';
    for (int i = 0; keys[i].path && o < cap; i++) {
        if (!(keys[i].flags & LQ_KEY_KIND) || !lq_scene_key_is_child(&keys[i], item)) continue;
        int w = snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", lq_scene_key_name(&keys[i]));
        if (w < 0) break;
        o += (size_t)w;
    }
    return buf;
}

/* " (did you mean 'size'?)" or " (known keys: size, cell, origin)". */
static const char *lq_scene_suggest_key(const lq_key *keys, const char *parent, const char *word,
                                        char *buf, size_t cap)
{
    char best[64] = "", list[512] = "";
    size_t o = 0;
    int best_d = INT_MAX;
    for (int i = 0; keys[i].path; i++) {
        if (!lq_scene_key_is_child(&keys[i], parent)) continue;
        const char *name = lq_scene_key_name(&keys[i]);
        lq_scene_consider(word, name, strlen(name), best, &best_d);
        if (o < sizeof list) {
            int w = snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", name);
            if (w > 0) o += (size_t)w;
        }
    }
    if (best[0])
        snprintf(buf, cap, " (did you mean '%s'?)", best);
    else
        snprintf(buf, cap, " (known keys: %s)", list);
    return buf;
}

/* "shallow, splash" for a solver mask. */
static const struct {
    const char *name;
    unsigned mask;
} lq_scene_solvers[] = {{"shallow", LQ_SOLVER_SHALLOW},
                        {"splash", LQ_SOLVER_SPLASH},
                        {"mac", LQ_SOLVER_MAC},
                        {"pls", LQ_SOLVER_PLS}};

static const char *lq_scene_solver_list(unsigned mask, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    if ((mask & LQ_SOLVER_ALL) == LQ_SOLVER_ALL) {
        snprintf(buf, cap, "all");
        return buf;
    }
    for (size_t i = 0; i < LQ_COUNT(lq_scene_solvers) && o < cap; i++) {
        if (!(mask & lq_scene_solvers[i].mask)) continue;
        int w = snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", lq_scene_solvers[i].name);
        if (w > 0) o += (size_t)w;
    }
    return buf;
}

/* "2 to 3 integers", "3 numbers", "0 to 8 words". */
static const char *lq_scene_seq_phrase(const lq_key *k, char *buf, size_t cap)
{
    const char *what = k->type == LQ_KEY_INTS    ? "integer"
                       : k->type == LQ_KEY_ENUMS ? "word"
                                                 : "number";
    const char *plural = k->len_max == 1 ? "" : "s";
    if (k->len_min == k->len_max)
        snprintf(buf, cap, "%d %s%s", k->len_min, what, plural);
    else
        snprintf(buf, cap, "%d to %d %s%s", k->len_min, k->len_max, what, plural);
    return buf;
}

/* ---------------------------------------------------------------------------------
 * Value checks shared by the loader and the table check: one scalar or sequence node
 * against a row. They return the node at fault and write "path: message", or NULL.
 */

static bool lq_scene_bad_scalar(const lq_key *k, lq_key_type type, const lq_node *v,
                                const char *cpath, char *msg, size_t cap)
{
    char got[LQ_SCENE_CLIP * 2 + 32], clip[LQ_SCENE_CLIP * 2 + 8], range[80], list[512];
    bool scalar = v->kind == LQ_NODE_SCALAR;
    switch (type) {
    case LQ_KEY_FLOAT:
    case LQ_KEY_INT: {
        bool isint = type == LQ_KEY_INT;
        if (!scalar || v->quoted ||
            !(isint ? lq_scene_is_integer(v->text) : lq_scene_is_number(v->text))) {
            snprintf(msg, cap, "%s: expected %s, got %s", cpath, isint ? "an integer" : "a number",
                     lq_scene_got(v, got, sizeof got));
            return true;
        }
        double x;
        errno = 0;
        if (isint) {
            long long i = strtoll(v->text, NULL, 10);
            x = (double)i;
            if (errno == ERANGE || i > INT_MAX || i < INT_MIN) {
                snprintf(msg, cap, "%s: %s is too large for an integer", cpath,
                         lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip));
                return true;
            }
        } else {
            x = strtod(v->text, NULL);
            if (!isfinite(x)) {
                snprintf(msg, cap, "%s: %s is too large", cpath,
                         lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip));
                return true;
            }
            /* the solvers compute in 32-bit floats: a value that becomes inf, 0 or a
             * subnormal there is refused here, not found as inf coordinates later */
            if (fabs(x) > FLT_MAX) {
                snprintf(msg, cap, "%s: %s does not fit a 32-bit float (at most %.3g)", cpath,
                         lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip), FLT_MAX);
                return true;
            }
            if (x != 0 && fabs(x) < FLT_MIN) {
                snprintf(msg, cap,
                         "%s: %s is too small for a 32-bit float (below %.3g it becomes 0 or "
                         "loses its precision); write 0 or a larger value",
                         cpath, lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip), FLT_MIN);
                return true;
            }
        }
        if (!lq_scene_in_range(k, x)) {
            snprintf(msg, cap, "%s: %s is out of range %s%s%s", cpath,
                     lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip),
                     lq_scene_fmt_range(k, range, sizeof range), k->units[0] ? " " : "", k->units);
            return true;
        }
        return false;
    }
    case LQ_KEY_BOOL:
        if (!scalar || v->quoted || lq_scene_bool_word(v->text) < 0) {
            snprintf(msg, cap, "%s: expected true or false, got %s", cpath,
                     lq_scene_got(v, got, sizeof got));
            return true;
        }
        return false;
    case LQ_KEY_ENUM:
        if (!scalar) {
            snprintf(msg, cap, "%s: expected one of %s%s, got %s", cpath,
                     lq_scene_enum_list(k->enums, "", list, sizeof list),
                     (k->flags & LQ_KEY_FACES) ? " or a mapping of faces" : "",
                     lq_scene_got(v, got, sizeof got));
            return true;
        }
        if (!lq_scene_enum_has(k->enums, v->text)) {
            char sug[96];
            snprintf(msg, cap, "%s: '%s' is not one of %s%s", cpath,
                     lq_scene_clip(v->text, LQ_SCENE_CLIP, clip, sizeof clip),
                     lq_scene_enum_list(k->enums, "", list, sizeof list),
                     lq_scene_suggest_word(k->enums, v->text, sug, sizeof sug));
            return true;
        }
        return false;
    case LQ_KEY_STRING:
        if (!scalar) {
            snprintf(msg, cap, "%s: expected text, got %s", cpath,
                     lq_scene_got(v, got, sizeof got));
            return true;
        }
        return false;
    case LQ_KEY_FILE:
        if (!scalar || !v->text[0]) {
            snprintf(msg, cap, "%s: expected a file name, got %s", cpath,
                     lq_scene_got(v, got, sizeof got));
            return true;
        }
        return false;
    default:
        return false;
    }
}

static const lq_node *lq_scene_bad_value(const lq_key *k, const lq_node *v, const char *cpath,
                                         char *msg, size_t cap)
{
    char got[LQ_SCENE_CLIP * 2 + 32], phrase[64], item[LQ_SCENE_PATH_MAX + 16];
    lq_key_type elem;
    switch (k->type) {
    case LQ_KEY_FLOATS:
        elem = LQ_KEY_FLOAT;
        break;
    case LQ_KEY_INTS:
        elem = LQ_KEY_INT;
        break;
    case LQ_KEY_ENUMS:
        elem = LQ_KEY_ENUM;
        break;
    case LQ_KEY_MAP:
    case LQ_KEY_LIST:
        return NULL; /* walked by the loader */
    default:
        return lq_scene_bad_scalar(k, k->type, v, cpath, msg, cap) ? v : NULL;
    }
    if (v->kind != LQ_NODE_SEQ || v->n < k->len_min || v->n > k->len_max) {
        if (v->kind == LQ_NODE_SEQ)
            snprintf(got, sizeof got, "%d item%s", v->n, v->n == 1 ? "" : "s");
        else
            lq_scene_got(v, got, sizeof got);
        snprintf(msg, cap, "%s: expected a sequence of %s, got %s", cpath,
                 lq_scene_seq_phrase(k, phrase, sizeof phrase), got);
        return v;
    }
    for (int i = 0; i < v->n; i++) {
        snprintf(item, sizeof item, "%s.%d", cpath, i);
        if (lq_scene_bad_scalar(k, elem, v->kids[i], item, msg, cap)) return v->kids[i];
    }
    return NULL;
}

/* ---------------------------------------------------------------------------------
 * YAML text → nodes.
 */

typedef struct lq_scene_conv {
    lq_scene_arena *arena;
    yaml_document_t *doc;
    int origin;
    size_t nodes;
    const char *problem; /* why conversion stopped; NULL: out of memory (recorded) */
    yaml_mark_t mark;
} lq_scene_conv;

static lq_node *lq_scene_conv_node(lq_scene_conv *c, yaml_node_t *yn, int depth)
{
    if (depth > LQ_SCENE_DEPTH_MAX || ++c->nodes > LQ_SCENE_NODES_MAX) {
        c->problem = depth > LQ_SCENE_DEPTH_MAX
                         ? "nesting deeper than 64 levels (a recursive alias?)"
                         : "more than 1000000 values (alias expansion?)";
        c->mark = yn->start_mark;
        return NULL;
    }
    lq_node *n = lq_scene_node_new(c->arena, LQ_NODE_NULL, c->origin);
    if (!n) return NULL;
    n->line = (int)yn->start_mark.line + 1;
    n->col = (int)yn->start_mark.column + 1;
    switch (yn->type) {
    case YAML_SCALAR_NODE: {
        bool plain = yn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
                     yn->data.scalar.style == YAML_ANY_SCALAR_STYLE;
        n->text = lq_scene_arena_strndup(c->arena, (const char *)yn->data.scalar.value,
                                         yn->data.scalar.length);
        if (!n->text) return NULL;
        n->quoted = !plain;
        n->kind = plain && lq_scene_is_null_word(n->text) ? LQ_NODE_NULL : LQ_NODE_SCALAR;
        return n;
    }
    case YAML_SEQUENCE_NODE: {
        n->kind = LQ_NODE_SEQ;
        n->n = (int)(yn->data.sequence.items.top - yn->data.sequence.items.start);
        n->kids = lq_scene_arena_alloc(c->arena, (size_t)n->n * sizeof *n->kids);
        if (!n->kids) return NULL;
        for (int i = 0; i < n->n; i++) {
            yaml_node_t *item = yaml_document_get_node(c->doc, yn->data.sequence.items.start[i]);
            if (!item || !(n->kids[i] = lq_scene_conv_node(c, item, depth + 1))) return NULL;
        }
        return n;
    }
    case YAML_MAPPING_NODE: {
        n->kind = LQ_NODE_MAP;
        n->n = (int)(yn->data.mapping.pairs.top - yn->data.mapping.pairs.start);
        n->kids = lq_scene_arena_alloc(c->arena, 2 * (size_t)n->n * sizeof *n->kids);
        if (!n->kids) return NULL;
        for (int i = 0; i < n->n; i++) {
            yaml_node_pair_t *pair = yn->data.mapping.pairs.start + i;
            yaml_node_t *key = yaml_document_get_node(c->doc, pair->key);
            yaml_node_t *value = yaml_document_get_node(c->doc, pair->value);
            if (!key || !value || !(n->kids[2 * i] = lq_scene_conv_node(c, key, depth + 1)) ||
                !(n->kids[2 * i + 1] = lq_scene_conv_node(c, value, depth + 1)))
                return NULL;
        }
        return n;
    }
    default:
        return n;
    }
}

/* The outcome of parsing YAML text: a tree, or a problem at a 1-based position. */
typedef struct lq_scene_parsed {
    lq_node *root; /* NULL for an empty stream */
    char problem[384];
    int line, col;
} lq_scene_parsed;

static void lq_scene_yaml_problem(const yaml_parser_t *p, const char *text, lq_scene_parsed *out)
{
    if (p->error == YAML_READER_ERROR) {
        /* reader errors carry a byte offset, not a mark */
        int line = 1, col = 1;
        for (size_t i = 0; i < p->problem_offset && text[i]; i++) {
            if (text[i] == '\n')
                line++, col = 1;
            else
                col++;
        }
        out->line = line;
        out->col = col;
        snprintf(out->problem, sizeof out->problem, "invalid text: %s",
                 p->problem ? p->problem : "unreadable character");
        return;
    }
    out->line = (int)p->problem_mark.line + 1;
    out->col = (int)p->problem_mark.column + 1;
    if (p->context)
        snprintf(out->problem, sizeof out->problem,
                 "YAML syntax error: %s (%s at line %d, column %d)",
                 p->problem ? p->problem : "bad syntax", p->context, (int)p->context_mark.line + 1,
                 (int)p->context_mark.column + 1);
    else
        snprintf(out->problem, sizeof out->problem, "YAML syntax error: %s",
                 p->problem ? p->problem : "bad syntax");
}

/* The nesting, measured on libyaml's events before its document loader runs: libyaml
 * keeps a possible simple key per open flow level and scans them all for every token,
 * so "[[[[..." costs time quadratic in the depth inside the loader (64 000 levels: 17 s)
 * before the tree's own limit could look. The events come as the text is scanned, so
 * this stops after about LQ_SCENE_DEPTH_MAX levels. Syntax errors are left to the
 * loader, which reports them with its context. Returns LQ_OK, LQ_EINPUT with
 * out->problem set, or LQ_ESIM. */
static int lq_scene_prescan(const char *text, size_t len, lq_scene_parsed *out)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0, rc = LQ_OK;
    if (!yaml_parser_initialize(&p)) return lq_error(LQ_ESIM, "out of memory starting libyaml");
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    while (yaml_parser_parse(&p, &ev)) {
        yaml_event_type_t type = ev.type;
        yaml_mark_t mark = ev.start_mark;
        yaml_event_delete(&ev);
        if (type == YAML_STREAM_END_EVENT) break;
        if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) depth--;
        if (type != YAML_SEQUENCE_START_EVENT && type != YAML_MAPPING_START_EVENT) continue;
        /* the tree's limit counts nodes below the root: collections nest one more */
        if (++depth > LQ_SCENE_DEPTH_MAX + 1) {
            snprintf(out->problem, sizeof out->problem, "nesting deeper than %d levels",
                     LQ_SCENE_DEPTH_MAX);
            out->line = (int)mark.line + 1;
            out->col = (int)mark.column + 1;
            rc = LQ_EINPUT;
            break;
        }
    }
    yaml_parser_delete(&p);
    return rc;
}

/* Parses one YAML document. Returns LQ_OK (out->problem empty, out->root possibly
 * NULL), LQ_EINPUT with out->problem set, or LQ_ESIM with the error recorded. */
static int lq_scene_parse(lq_scene_arena *a, const char *text, size_t len, int origin,
                          lq_scene_parsed *out)
{
    yaml_parser_t parser;
    yaml_document_t doc, next;
    bool have_doc = false, have_next = false;
    int rc = LQ_OK;

    memset(out, 0, sizeof *out);
    rc = lq_scene_prescan(text, len, out);
    if (rc) return rc;
    if (!yaml_parser_initialize(&parser))
        return lq_error(LQ_ESIM, "out of memory starting libyaml");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        rc = parser.error == YAML_MEMORY_ERROR ? lq_error(LQ_ESIM, "out of memory parsing YAML")
                                               : LQ_EINPUT;
        if (rc == LQ_EINPUT) lq_scene_yaml_problem(&parser, text, out);
        goto fail;
    }
    have_doc = true;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) goto fail;
    lq_scene_conv c = {.arena = a, .doc = &doc, .origin = origin};
    out->root = lq_scene_conv_node(&c, root, 0);
    if (!out->root) {
        if (!c.problem) {
            rc = LQ_ESIM;
            goto fail;
        }
        rc = LQ_EINPUT;
        snprintf(out->problem, sizeof out->problem, "%s", c.problem);
        out->line = (int)c.mark.line + 1;
        out->col = (int)c.mark.column + 1;
        goto fail;
    }
    /* a scene is one document: a second one is almost always a stray `---` */
    if (!yaml_parser_load(&parser, &next)) {
        rc = parser.error == YAML_MEMORY_ERROR ? lq_error(LQ_ESIM, "out of memory parsing YAML")
                                               : LQ_EINPUT;
        if (rc == LQ_EINPUT) lq_scene_yaml_problem(&parser, text, out);
        goto fail;
    }
    have_next = true;
    yaml_node_t *extra = yaml_document_get_root_node(&next);
    if (extra) {
        rc = LQ_EINPUT;
        snprintf(out->problem, sizeof out->problem,
                 "a second YAML document (a scene is one document; remove the '---')");
        out->line = (int)extra->start_mark.line + 1;
        out->col = (int)extra->start_mark.column + 1;
    }
fail:
    if (rc != LQ_OK) out->root = NULL;
    if (have_next) yaml_document_delete(&next);
    if (have_doc) yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

/* ---------------------------------------------------------------------------------
 * The scene and its error prefix.
 */

struct lq_scene {
    lq_scene_arena arena;
    const lq_key *keys;
    int nkeys;
    const char *file;   /* as given */
    const char *dir;    /* the scene's folder with a trailing '/', "" when none */
    const char *name;   /* `name:` or the file name without .yaml/.yml */
    const char *solver; /* the `solver:` word */
    unsigned solver_mask;
    lq_node *root;
    lq_node **defs;      /* [nkeys]: parsed defaults, NULL where the row has none */
    unsigned char *read; /* [nkeys]: rows a getter has read (lq_scene_row_read) */
    int nsets;
    const char **sets; /* the overrides as given, for error prefixes */
};

/* "FILE:LINE:COL", "--set KEY=VALUE" or "FILE" for a node (NULL: the file). */
static const char *lq_scene_where(const lq_scene *s, const lq_node *n, char *buf, size_t cap)
{
    char clip[512];
    /* snprintf truncates safely; the length check only quiets -Wformat-truncation */
    if (n && n->origin > 0 && cap > 6)
        snprintf(buf, cap, "--set %.*s", (int)(cap - 7),
                 lq_scene_clip(s->sets[n->origin - 1], 200, clip, sizeof clip));
    else if (n && n->origin == 0 && n->line > 0)
        snprintf(buf, cap, "%s:%d:%d", lq_scene_clip(s->file, 400, clip, sizeof clip), n->line,
                 n->col);
    else
        snprintf(buf, cap, "%s", lq_scene_clip(s->file, 400, clip, sizeof clip));
    return buf;
}

static int lq_scene_vfail(const lq_scene *s, const lq_node *n, const char *fmt, va_list ap)
{
    char msg[LQ_SCENE_MSG], where[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return lq_error(LQ_EINPUT, "%s: %s", lq_scene_where(s, n, where, sizeof where), msg);
}

static int lq_scene_fail(const lq_scene *s, const lq_node *n, const char *fmt, ...) LQ_PRINTF(3, 4);
static int lq_scene_fail(const lq_scene *s, const lq_node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = lq_scene_vfail(s, n, fmt, ap);
    va_end(ap);
    return rc;
}

/* Reads a whole file into arena memory (NUL-terminated). */
static int lq_scene_read_file(lq_scene *s, const char *path, char **text, size_t *len)
{
    char clip[512], why[128];
    FILE *f = NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = LQ_OK;
    if (lq_input_open(path, &f, why, sizeof why)) {
        rc = lq_error_replace(LQ_EINPUT, "%s: cannot read the scene file: %s",
                              lq_scene_clip(path, 400, clip, sizeof clip), why);
        goto fail;
    }
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 16384;
            char *grown = realloc(buf, cap);
            if (!grown) {
                rc = lq_error(LQ_ESIM, "out of host memory reading %s", path);
                goto fail;
            }
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
        if (n > (size_t)LQ_SCENE_FILE_MAX) {
            rc = lq_error(
                LQ_EINPUT,
                "%s: the scene file is larger than 4 MiB (keyframes belong in CSV path files)",
                lq_scene_clip(path, 400, clip, sizeof clip));
            goto fail;
        }
    }
    if (ferror(f)) {
        rc = lq_error(LQ_EINPUT, "%s: cannot read the scene file: %s",
                      lq_scene_clip(path, 400, clip, sizeof clip), strerror(errno));
        goto fail;
    }
    *text = lq_scene_arena_strndup(&s->arena, buf ? buf : "", n);
    *len = n;
    if (!*text) rc = LQ_ESIM;
fail:
    free(buf);
    if (f) fclose(f);
    return rc;
}

/* ---------------------------------------------------------------------------------
 * Overrides: --set KEY=VALUE edits the tree before validation.
 */

/* Appends key `name` (value: a null placeholder) to mapping m; returns the pair index. */
static int lq_scene_map_add(lq_scene *s, lq_node *m, const char *name, int origin)
{
    lq_node **kids = lq_scene_arena_alloc(&s->arena, 2 * ((size_t)m->n + 1) * sizeof *kids);
    lq_node *key = lq_scene_node_new(&s->arena, LQ_NODE_SCALAR, origin);
    lq_node *value = lq_scene_node_new(&s->arena, LQ_NODE_NULL, origin);
    if (!kids || !key || !value || !(key->text = lq_scene_arena_strdup(&s->arena, name))) return -1;
    if (m->n) memcpy(kids, m->kids, 2 * (size_t)m->n * sizeof *kids);
    kids[2 * m->n] = key;
    kids[2 * m->n + 1] = value;
    m->kids = kids;
    return m->n++;
}

/* A mapping to replace scalar `cur` at concrete path `cpath` when an override goes
 * below it: for a FACES key, every face set to the scalar's word; else empty. */
static lq_node *lq_scene_expand(lq_scene *s, lq_node *cur, const char *cpath, int origin)
{
    lq_node *m = lq_scene_node_new(&s->arena, LQ_NODE_MAP, origin);
    if (!m) return NULL;
    int row = lq_scene_key_row(s->keys, cpath);
    if (row < 0 || !(s->keys[row].flags & LQ_KEY_FACES) || cur->kind != LQ_NODE_SCALAR) return m;
    for (int i = 0; s->keys[i].path; i++) {
        if (!lq_scene_key_is_child(&s->keys[i], s->keys[row].path)) continue;
        int at = lq_scene_map_add(s, m, lq_scene_key_name(&s->keys[i]), origin);
        if (at < 0) return NULL;
        m->kids[2 * at + 1] = cur; /* keeps the word's file position for messages */
    }
    return m;
}

static int lq_scene_apply_set(lq_scene *s, int k)
{
    const char *set = s->sets[k - 1];
    const char *eq = strchr(set, '=');
    char cpath[LQ_SCENE_PATH_MAX] = "", clip[LQ_SCENE_CLIP * 2 + 8];
    lq_scene_parsed parsed;
    lq_node dummy = {.origin = k}; /* positions messages at this override */

    if (!eq || eq == set) return lq_scene_fail(s, &dummy, "expected KEY=VALUE");
    if ((size_t)(eq - set) >= sizeof cpath)
        return lq_scene_fail(s, &dummy, "the key is longer than %d characters",
                             LQ_SCENE_PATH_MAX - 1);
    int rc = lq_scene_parse(&s->arena, eq + 1, strlen(eq + 1), k, &parsed);
    if (rc == LQ_EINPUT)
        return lq_scene_fail(s, &dummy, "cannot read the value: %s (column %d)", parsed.problem,
                             parsed.col);
    if (rc) return rc;
    lq_node *value = parsed.root ? parsed.root : lq_scene_node_new(&s->arena, LQ_NODE_NULL, k);
    if (!value) return LQ_ESIM;

    lq_node **slot = &s->root;
    size_t o = 0;
    for (const char *p = set; p < eq;) {
        const char *dot = memchr(p, '.', (size_t)(eq - p));
        size_t len = dot ? (size_t)(dot - p) : (size_t)(eq - p);
        char comp[LQ_SCENE_PATH_MAX];
        memcpy(comp, p, len);
        comp[len] = '\0';
        if (!len) return lq_scene_fail(s, &dummy, "empty key part in '%.*s'", (int)(eq - set), set);
        lq_node *cur = *slot;
        int row = o ? lq_scene_key_row(s->keys, cpath) : -1;
        if (cur->kind == LQ_NODE_NULL && row >= 0 && s->keys[row].type == LQ_KEY_LIST &&
            strspn(comp, "0123456789") == len)
            return lq_scene_fail(s, &dummy, "%s has 0 items", cpath); /* absent or empty */
        if (cur->kind == LQ_NODE_SEQ) {
            if (strspn(comp, "0123456789") != len || len > 9)
                return lq_scene_fail(s, &dummy, "%s is a list: address an item by index (%s.0)",
                                     cpath, cpath);
            int index = atoi(comp);
            if (index >= cur->n)
                return lq_scene_fail(s, &dummy, "%s has %d item%s", cpath, cur->n,
                                     cur->n == 1 ? "" : "s");
            slot = &cur->kids[index];
        } else {
            if (cur->kind != LQ_NODE_MAP) {
                /* going below a scalar or null: it becomes a mapping */
                if (!(cur = lq_scene_expand(s, cur, cpath, k))) return LQ_ESIM;
                *slot = cur;
            }
            int at = lq_scene_map_index(cur, comp);
            if (at < 0 && (at = lq_scene_map_add(s, cur, comp, k)) < 0) return LQ_ESIM;
            slot = &cur->kids[2 * at + 1];
        }
        o += (size_t)snprintf(cpath + o, sizeof cpath - o, "%s%s", o ? "." : "",
                              lq_scene_clip(comp, LQ_SCENE_CLIP, clip, sizeof clip));
        if (o >= sizeof cpath) o = sizeof cpath - 1;
        p = dot ? dot + 1 : eq;
    }
    *slot = value;
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * Validation: one walk over the tree in document order.
 */

static int lq_scene_check_value(lq_scene *s, lq_node *v, int row, const char *cpath);

/* Resolves a FILE value against the scene's folder and checks it can be read. */
static int lq_scene_check_file(lq_scene *s, lq_node *v, const char *cpath)
{
    char clip[512];
    struct stat st;
    size_t dlen = v->text[0] == '/' ? 0 : strlen(s->dir);
    char *path = lq_scene_arena_alloc(&s->arena, dlen + strlen(v->text) + 1);
    if (!path) return LQ_ESIM;
    memcpy(path, s->dir, dlen);
    strcpy(path + dlen, v->text);
    lq_scene_clip(path, 400, clip, sizeof clip);
    if (stat(path, &st) != 0) {
        int e = errno;
        return lq_scene_fail(s, v, "%s: cannot read file '%s': %s", cpath, clip, strerror(e));
    }
    if (S_ISDIR(st.st_mode))
        return lq_scene_fail(s, v, "%s: cannot read file '%s': it is a folder", cpath, clip);
    /* a FIFO or device is refused here, never opened (opening a FIFO blocks) */
    char why[128];
    FILE *f = NULL;
    if (lq_input_open(path, &f, why, sizeof why)) {
        lq_error_clear();
        return lq_scene_fail(s, v, "%s: cannot read file '%s': %s", cpath, clip, why);
    }
    fclose(f);
    v->resolved = path;
    return LQ_OK;
}

/* Checks mapping n (or null: empty) whose table path is `tpath` ("" for the top
 * level, "liquid[]" for a list item; `list` is then the LIST row, else -1). */
static int lq_scene_check_map(lq_scene *s, lq_node *n, const char *tpath, const char *cpath,
                              int list)
{
    char child[LQ_SCENE_PATH_MAX + 64], clip[LQ_SCENE_CLIP * 2 + 8], got[LQ_SCENE_CLIP * 2 + 32];
    char sug[600], kinds[256], solvers[64];
    const lq_node *first_kind = NULL;
    int npairs = n->kind == LQ_NODE_MAP ? n->n : 0;

    if (list >= 0) lq_scene_kind_list(s->keys, list, kinds, sizeof kinds);
    for (int i = 0; i < npairs; i++) {
        lq_node *kn = n->kids[2 * i], *vn = n->kids[2 * i + 1];
        if (kn->kind != LQ_NODE_SCALAR)
            return lq_scene_fail(s, kn, "%s%sexpected a key name, got %s", cpath,
                                 cpath[0] ? ": " : "", lq_scene_got(kn, got, sizeof got));
        lq_scene_clip(kn->text, LQ_SCENE_CLIP, clip, sizeof clip);
        snprintf(child, sizeof child, "%s%s%s", cpath, cpath[0] ? "." : "", clip);
        for (int j = 0; j < i; j++) {
            const lq_node *kj = n->kids[2 * j];
            if (kj->kind != LQ_NODE_SCALAR || strcmp(kj->text, kn->text) != 0) continue;
            if (kj->origin == 0)
                return lq_scene_fail(s, kn, "%s: duplicate key '%s' (first at line %d, column %d)",
                                     child, clip, kj->line, kj->col);
            return lq_scene_fail(s, kn, "%s: duplicate key '%s'", child, clip);
        }
        int row = lq_scene_key_child(s->keys, tpath, kn->text);
        if (row < 0)
            return lq_scene_fail(s, kn, "%s: unknown key '%s'%s", child, clip,
                                 lq_scene_suggest_key(s->keys, tpath, kn->text, sug, sizeof sug));
        const lq_key *k = &s->keys[row];
        if (!(k->solvers & s->solver_mask))
            return lq_scene_fail(s, kn, "%s: not used by solver '%s' (read by %s)", child,
                                 s->solver,
                                 lq_scene_solver_list(k->solvers, solvers, sizeof solvers));
        if (k->flags & LQ_KEY_KIND) {
            if (first_kind)
                return lq_scene_fail(s, kn,
                                     "%s: an item needs exactly one of %s (got '%s' and '%s')",
                                     cpath, kinds, first_kind->text, kn->text);
            first_kind = kn;
        }
        int rc = lq_scene_check_value(s, vn, row, child);
        if (rc) return rc;
    }
    if (list >= 0 && !first_kind)
        return lq_scene_fail(s, n, "%s: an item needs exactly one of %s", cpath, kinds);
    for (int r = 0; s->keys[r].path; r++) {
        const lq_key *k = &s->keys[r];
        if (!(k->flags & LQ_KEY_REQUIRED) || !(k->solvers & s->solver_mask) ||
            !lq_scene_key_is_child(k, tpath) || lq_scene_map_index(n, lq_scene_key_name(k)) >= 0)
            continue;
        return lq_scene_fail(s, n, "%s%smissing required key '%s'", cpath, cpath[0] ? ": " : "",
                             lq_scene_key_name(k));
    }
    return LQ_OK;
}

static int lq_scene_check_value(lq_scene *s, lq_node *v, int row, const char *cpath)
{
    const lq_key *k = &s->keys[row];
    char msg[LQ_SCENE_MSG], got[LQ_SCENE_CLIP * 2 + 32], kinds[256];
    char item[LQ_SCENE_PATH_MAX + 80], tpath[LQ_SCENE_PATH_MAX];

    switch (k->type) {
    case LQ_KEY_MAP:
        if (v->kind != LQ_NODE_MAP && v->kind != LQ_NODE_NULL)
            return lq_scene_fail(s, v, "%s: expected a mapping, got %s", cpath,
                                 lq_scene_got(v, got, sizeof got));
        return lq_scene_check_map(s, v, k->path, cpath, -1);
    case LQ_KEY_LIST:
        lq_scene_kind_list(s->keys, row, kinds, sizeof kinds);
        if (v->kind == LQ_NODE_NULL) return LQ_OK;
        if (v->kind != LQ_NODE_SEQ)
            return lq_scene_fail(s, v, "%s: expected a list of items (each one of %s), got %s",
                                 cpath, kinds, lq_scene_got(v, got, sizeof got));
        snprintf(tpath, sizeof tpath, "%s[]", k->path);
        for (int i = 0; i < v->n; i++) {
            lq_node *it = v->kids[i];
            snprintf(item, sizeof item, "%s.%d", cpath, i);
            if (it->kind != LQ_NODE_MAP)
                return lq_scene_fail(s, it, "%s: expected a mapping with one of %s, got %s", item,
                                     kinds, lq_scene_got(it, got, sizeof got));
            int rc = lq_scene_check_map(s, it, tpath, item, row);
            if (rc) return rc;
        }
        return LQ_OK;
    default:
        break;
    }
    if ((k->flags & LQ_KEY_FACES) && v->kind == LQ_NODE_MAP)
        return lq_scene_check_map(s, v, k->path, cpath, -1);
    const lq_node *bad = lq_scene_bad_value(k, v, cpath, msg, sizeof msg);
    if (bad) return lq_scene_fail(s, bad, "%s", msg);
    if (k->type == LQ_KEY_FILE) return lq_scene_check_file(s, v, cpath);
    return LQ_OK;
}

/* Reads `solver` first: every other key is checked against it. */
static int lq_scene_check_solver(lq_scene *s)
{
    char msg[LQ_SCENE_MSG], list[128];
    int row = lq_scene_key_find(s->keys, "solver");
    int at = lq_scene_map_index(s->root, "solver");
    assert(row >= 0);
    if (at < 0)
        return lq_scene_fail(s, s->root, "missing required key 'solver' (one of %s)",
                             lq_scene_enum_list(s->keys[row].enums, "", list, sizeof list));
    lq_node *v = s->root->kids[2 * at + 1];
    const lq_node *bad = lq_scene_bad_value(&s->keys[row], v, "solver", msg, sizeof msg);
    if (bad) return lq_scene_fail(s, bad, "%s", msg);
    s->solver = v->text;
    for (size_t i = 0; i < LQ_COUNT(lq_scene_solvers); i++)
        if (strcmp(v->text, lq_scene_solvers[i].name) == 0)
            s->solver_mask = lq_scene_solvers[i].mask;
    assert(s->solver_mask);
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * Loading.
 */

/* Parses every row's default in one pass: the defaults joined as one YAML flow
 * sequence, item i going to the i-th row that has a default. */
static int lq_scene_parse_defaults(lq_scene *s)
{
    size_t len = 2, o = 0;
    int ndefs = 0, rc = LQ_OK;
    lq_scene_parsed parsed;
    for (int i = 0; i < s->nkeys; i++)
        if (s->keys[i].def) len += strlen(s->keys[i].def) + 2;
    char *text = lq_scene_arena_alloc(&s->arena, len + 1);
    s->defs = lq_scene_arena_alloc(&s->arena, (size_t)s->nkeys * sizeof *s->defs);
    s->read = lq_scene_arena_alloc(&s->arena, (size_t)s->nkeys);
    if (!text || !s->defs || !s->read) return LQ_ESIM;
    text[o++] = '[';
    for (int i = 0; i < s->nkeys; i++) {
        if (!s->keys[i].def) continue;
        o += (size_t)sprintf(text + o, "%s%s", ndefs++ ? ", " : "", s->keys[i].def);
    }
    text[o++] = ']';
    text[o] = '\0';
    rc = lq_scene_parse(&s->arena, text, o, -1, &parsed);
    if (rc == LQ_ESIM) return rc;
    if (rc || !parsed.root || parsed.root->kind != LQ_NODE_SEQ || parsed.root->n != ndefs)
        return lq_error(LQ_EINPUT, "scene key table: the defaults do not parse as YAML flow "
                                   "values (tests/scene/test_scene.c names the row)");
    for (int i = 0, d = 0; i < s->nkeys; i++)
        if (s->keys[i].def) s->defs[i] = parsed.root->kids[d++];
    return LQ_OK;
}

/* The scene's name: `name:`, else the file name without .yaml/.yml. */
static int lq_scene_names(lq_scene *s)
{
    const char *slash = strrchr(s->file, '/');
    const char *base = slash ? slash + 1 : s->file;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
        len -= 5;
    else if (len > 4 && strcmp(base + len - 4, ".yml") == 0)
        len -= 4;
    s->name = lq_scene_arena_strndup(&s->arena, base, len);
    int at = lq_scene_map_index(s->root, "name");
    if (at >= 0 && s->root->kids[2 * at + 1]->kind == LQ_NODE_SCALAR)
        s->name = s->root->kids[2 * at + 1]->text;
    return s->name ? LQ_OK : LQ_ESIM;
}

lq_scene *lq_scene_load(const char *path, int nsets, const char *const *sets)
{
    lq_scene *s = lq_calloc(1, sizeof *s);
    char *text = NULL, got[LQ_SCENE_CLIP * 2 + 32];
    size_t len = 0;
    lq_scene_parsed parsed;
    int rc = LQ_ESIM;

    if (!s) return NULL;
    s->keys = lq_scene_keys;
    while (s->keys[s->nkeys].path) s->nkeys++;
    s->nsets = nsets;
    if (!(s->file = lq_scene_arena_strdup(&s->arena, path))) goto fail;
    /* FILE keys resolve against the scene's folder: "dir/" or "" */
    const char *slash = strrchr(path, '/');
    s->dir = lq_scene_arena_strndup(&s->arena, path, slash ? (size_t)(slash + 1 - path) : 0);
    if (!s->dir) goto fail;
    if (!(s->sets = lq_scene_arena_alloc(&s->arena, (size_t)nsets * sizeof *s->sets))) goto fail;
    for (int i = 0; i < nsets; i++)
        if (!(s->sets[i] = lq_scene_arena_strdup(&s->arena, sets[i]))) goto fail;
    if ((rc = lq_scene_parse_defaults(s))) goto fail;
    if ((rc = lq_scene_read_file(s, path, &text, &len))) goto fail;

    rc = lq_scene_parse(&s->arena, text, len, 0, &parsed);
    if (rc == LQ_EINPUT) {
        lq_node at = {.line = parsed.line, .col = parsed.col};
        rc = lq_scene_fail(s, &at, "%s", parsed.problem);
    }
    if (rc) goto fail;
    s->root = parsed.root;
    if (!s->root || s->root->kind == LQ_NODE_NULL) {
        lq_node at = {.line = s->root ? s->root->line : 1, .col = s->root ? s->root->col : 1};
        rc = lq_scene_fail(s, &at, "empty scene: expected a mapping with at least solver and grid");
        goto fail;
    }
    if (s->root->kind != LQ_NODE_MAP) {
        rc = lq_scene_fail(s, s->root,
                           "a scene must be a mapping of keys (solver: ..., grid: ...), got %s",
                           lq_scene_got(s->root, got, sizeof got));
        goto fail;
    }
    for (int k = 1; k <= nsets; k++)
        if ((rc = lq_scene_apply_set(s, k))) goto fail;
    if ((rc = lq_scene_check_solver(s))) goto fail;
    if ((rc = lq_scene_check_map(s, s->root, "", "", -1))) goto fail;
    if ((rc = lq_scene_names(s))) goto fail;
    return s;
fail:
    lq_scene_free(s);
    return NULL;
}

void lq_scene_free(lq_scene *s)
{
    if (!s) return;
    lq_scene_arena_free(&s->arena);
    free(s);
}

/* ---------------------------------------------------------------------------------
 * The scene as text: what a checkpoint records of the run it belongs to.
 */

typedef struct lq_scene_text {
    char *buf;
    size_t len, cap;
    bool failed;
} lq_scene_text;

static void lq_scene_text_add(lq_scene_text *t, const char *str, size_t n)
{
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = LQ_MAX(2 * t->cap, t->len + n + 1024);
        char *grown = realloc(t->buf, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->buf = grown;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, str, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void lq_scene_text_scalar(lq_scene_text *t, const lq_node *n)
{
    if (n->kind == LQ_NODE_NULL) {
        lq_scene_text_add(t, "~", 1);
        return;
    }
    if (n->quoted) lq_scene_text_add(t, "\"", 1);
    /* one line per key: a line break in text is written as \n */
    for (const char *c = n->text; *c; c++) {
        if (*c == '\n')
            lq_scene_text_add(t, "\\n", 2);
        else
            lq_scene_text_add(t, c, 1);
    }
    if (n->quoted) lq_scene_text_add(t, "\"", 1);
}

static bool lq_scene_text_flat(const lq_node *n)
{
    for (int i = 0; n->kind == LQ_NODE_SEQ && i < n->n; i++)
        if (n->kids[i]->kind == LQ_NODE_SEQ || n->kids[i]->kind == LQ_NODE_MAP) return false;
    return n->kind == LQ_NODE_SEQ;
}

static void lq_scene_text_node(lq_scene_text *t, const lq_node *n, char *path, size_t plen,
                               int depth)
{
    if (depth > LQ_SCENE_DEPTH_MAX) return; /* bounded as the loader is */
    if (n->kind == LQ_NODE_MAP || (n->kind == LQ_NODE_SEQ && !lq_scene_text_flat(n))) {
        for (int i = 0; i < n->n; i++) {
            char idx[16];
            const char *name = idx;
            if (n->kind == LQ_NODE_MAP)
                name = n->kids[2 * i]->kind == LQ_NODE_SCALAR ? n->kids[2 * i]->text : "?";
            else
                snprintf(idx, sizeof idx, "%d", i);
            const lq_node *kid = n->kind == LQ_NODE_MAP ? n->kids[2 * i + 1] : n->kids[i];
            int w = snprintf(path + plen, LQ_SCENE_PATH_MAX - plen, "%s%s", plen ? "." : "", name);
            size_t next = LQ_MIN(plen + (size_t)LQ_MAX(w, 0), LQ_SCENE_PATH_MAX - 1);
            lq_scene_text_node(t, kid, path, next, depth + 1);
            path[plen] = '\0';
        }
        return;
    }
    /* time.frames is left out: a resumed run may ask for more frames */
    if (strcmp(path, "time.frames") == 0) return;
    lq_scene_text_add(t, path, strlen(path));
    lq_scene_text_add(t, ": ", 2);
    if (n->kind == LQ_NODE_SEQ) {
        lq_scene_text_add(t, "[", 1);
        for (int i = 0; i < n->n; i++) {
            if (i) lq_scene_text_add(t, ", ", 2);
            lq_scene_text_scalar(t, n->kids[i]);
        }
        lq_scene_text_add(t, "]", 1);
    } else {
        lq_scene_text_scalar(t, n);
    }
    lq_scene_text_add(t, "\n", 1);
}

int lq_scene_text_of(const lq_scene *s, char **text, size_t *len)
{
    lq_scene_text t = {0};
    char path[LQ_SCENE_PATH_MAX] = "";
    lq_scene_text_add(&t, "", 0);
    if (s->root) lq_scene_text_node(&t, s->root, path, 0, 0);
    if (t.failed) {
        free(t.buf);
        return lq_error(LQ_ESIM, "out of host memory writing the scene as text");
    }
    *text = t.buf;
    *len = t.len;
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * Getters.
 */

/* The node at a concrete path, or NULL (nulls count as absent). */
static const lq_node *lq_scene_find(const lq_node *n, const char *path)
{
    char comp[LQ_SCENE_PATH_MAX];
    for (const char *p = path; n && *p;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len >= sizeof comp) return NULL;
        memcpy(comp, p, len);
        comp[len] = '\0';
        if (n->kind == LQ_NODE_SEQ) {
            if (len == 0 || len > 9 || strspn(comp, "0123456789") != len) return NULL;
            int i = atoi(comp);
            n = i < n->n ? n->kids[i] : NULL;
        } else {
            int at = lq_scene_map_index(n, comp);
            n = at >= 0 ? n->kids[2 * at + 1] : NULL;
        }
        p = dot ? dot + 1 : p + len;
    }
    return n && n->kind != LQ_NODE_NULL ? n : NULL;
}

/* The present node for `path` (row `row`): the node itself, or for a sub-row of a
 * FACES key written as one word, that word's node. NULL when absent. */
static const lq_node *lq_scene_present(const lq_scene *s, const char *path, int row)
{
    const lq_node *n = lq_scene_find(s->root, path);
    if (n || row < 0) return n;
    int parent = lq_scene_key_parent(s->keys, row);
    const char *dot = strrchr(path, '.');
    if (parent < 0 || !(s->keys[parent].flags & LQ_KEY_FACES) || !dot) return NULL;
    char ppath[LQ_SCENE_PATH_MAX];
    if ((size_t)(dot - path) >= sizeof ppath) return NULL;
    memcpy(ppath, path, (size_t)(dot - path));
    ppath[dot - path] = '\0';
    const lq_node *p = lq_scene_find(s->root, ppath);
    return p && p->kind == LQ_NODE_SCALAR ? p : NULL;
}

/* A getter asked for a path the table does not declare, or with the wrong type: a
 * programmer error (a misspelt path in host/scene/config.c), never an input error.
 * Stops the program in every build type, so tests catch it. */
static _Noreturn void lq_scene_misuse(const char *path, const char *why)
{
    fprintf(stderr,
            "liquidcl: internal error: scene path '%s' %s (host/scene/scene_keys.c declares "
            "the keys)\n",
            path, why);
    fflush(stderr);
    abort();
}

/* The row of a concrete path, marked read; stops on a path the table lacks. */
static int lq_scene_row_of(const lq_scene *s, const char *path)
{
    int row = lq_scene_key_row(s->keys, path);
    if (row < 0) lq_scene_misuse(path, "is not in the key table");
    s->read[row] = 1;
    return row;
}

/* The row of a list item's path ("liquid.3": the LIST row) or of any other declared
 * path, marked read; stops on a path the table lacks. */
static int lq_scene_item_row(const lq_scene *s, const char *path)
{
    const char *dot = strrchr(path, '.');
    size_t len = dot ? strlen(dot + 1) : 0;
    if (dot && len > 0 && strspn(dot + 1, "0123456789") == len &&
        (size_t)(dot - path) < LQ_SCENE_PATH_MAX) {
        char list[LQ_SCENE_PATH_MAX];
        memcpy(list, path, (size_t)(dot - path));
        list[dot - path] = '\0';
        int row = lq_scene_key_row(s->keys, list);
        if (row >= 0 && s->keys[row].type == LQ_KEY_LIST) {
            s->read[row] = 1;
            return row;
        }
    }
    return lq_scene_row_of(s, path);
}

/* Stops unless row `row` (of `path`) has type a or b. */
static void lq_scene_want(const lq_scene *s, const char *path, int row, lq_key_type a,
                          lq_key_type b, const char *getter)
{
    static const char *const names[] = {"a mapping",  "a list",   "a number", "an integer",
                                        "true/false", "a word",   "text",     "a file",
                                        "numbers",    "integers", "words"};
    lq_key_type t = s->keys[row].type;
    if (t == a || t == b) return;
    char why[160];
    snprintf(why, sizeof why, "is %s, not read by %s", names[t], getter);
    lq_scene_misuse(path, why);
}

/* The value of a declared key: present node, else the default, else NULL. */
static const lq_node *lq_scene_value(const lq_scene *s, const char *path, int *row_out)
{
    int row = lq_scene_row_of(s, path);
    *row_out = row;
    const lq_node *n = lq_scene_present(s, path, row);
    return n ? n : s->defs[row];
}

const char *lq_scene_file(const lq_scene *s)
{
    return s->file;
}

const char *lq_scene_name(const lq_scene *s)
{
    return s->name;
}

const char *lq_scene_solver(const lq_scene *s)
{
    return s->solver;
}

double lq_scene_float(const lq_scene *s, const char *path)
{
    int row;
    const lq_node *n = lq_scene_value(s, path, &row);
    lq_scene_want(s, path, row, LQ_KEY_FLOAT, LQ_KEY_INT, "lq_scene_float");
    return n && n->kind == LQ_NODE_SCALAR ? strtod(n->text, NULL) : 0.0;
}

int lq_scene_int(const lq_scene *s, const char *path)
{
    int row;
    const lq_node *n = lq_scene_value(s, path, &row);
    lq_scene_want(s, path, row, LQ_KEY_INT, LQ_KEY_INT, "lq_scene_int");
    return n && n->kind == LQ_NODE_SCALAR ? (int)strtol(n->text, NULL, 10) : 0;
}

bool lq_scene_bool(const lq_scene *s, const char *path)
{
    int row;
    const lq_node *n = lq_scene_value(s, path, &row);
    lq_scene_want(s, path, row, LQ_KEY_BOOL, LQ_KEY_BOOL, "lq_scene_bool");
    return n && n->kind == LQ_NODE_SCALAR && lq_scene_bool_word(n->text) == 1;
}

const char *lq_scene_enum(const lq_scene *s, const char *path)
{
    int row;
    const lq_node *n = lq_scene_value(s, path, &row);
    lq_scene_want(s, path, row, LQ_KEY_ENUM, LQ_KEY_STRING, "lq_scene_enum");
    if ((s->keys[row].flags & LQ_KEY_FACES) && n && n->kind == LQ_NODE_MAP) {
        /* per-face mapping: the word every face shares, else NULL */
        const char *common = NULL;
        char sub[LQ_SCENE_PATH_MAX + 64];
        for (int i = 0; s->keys[i].path; i++) {
            if (!lq_scene_key_is_child(&s->keys[i], s->keys[row].path)) continue;
            snprintf(sub, sizeof sub, "%s.%s", path, lq_scene_key_name(&s->keys[i]));
            const char *w = lq_scene_enum(s, sub);
            if (!w || (common && strcmp(common, w) != 0)) return NULL;
            common = w;
        }
        return common;
    }
    return n && n->kind == LQ_NODE_SCALAR ? n->text : NULL;
}

const char *lq_scene_file_path(const lq_scene *s, const char *path)
{
    int row;
    const lq_node *n = lq_scene_value(s, path, &row);
    lq_scene_want(s, path, row, LQ_KEY_FILE, LQ_KEY_FILE, "lq_scene_file_path");
    return n ? n->resolved : NULL;
}

/* Shared by the sequence getters: the node when it is a sequence, else NULL. */
static const lq_node *lq_scene_seq(const lq_scene *s, const char *path, lq_key_type a,
                                   lq_key_type b, const char *getter)
{
    int row;
    const lq_node *n = lq_scene_value(s, path, &row);
    lq_scene_want(s, path, row, a, b, getter);
    return n && n->kind == LQ_NODE_SEQ ? n : NULL;
}

int lq_scene_floats(const lq_scene *s, const char *path, double *out, int cap)
{
    const lq_node *n = lq_scene_seq(s, path, LQ_KEY_FLOATS, LQ_KEY_INTS, "lq_scene_floats");
    if (!n) return 0;
    for (int i = 0; i < n->n && i < cap; i++) out[i] = strtod(n->kids[i]->text, NULL);
    return n->n;
}

int lq_scene_ints(const lq_scene *s, const char *path, int *out, int cap)
{
    const lq_node *n = lq_scene_seq(s, path, LQ_KEY_INTS, LQ_KEY_INTS, "lq_scene_ints");
    if (!n) return 0;
    for (int i = 0; i < n->n && i < cap; i++) out[i] = (int)strtol(n->kids[i]->text, NULL, 10);
    return n->n;
}

int lq_scene_enums(const lq_scene *s, const char *path, const char **out, int cap)
{
    const lq_node *n = lq_scene_seq(s, path, LQ_KEY_ENUMS, LQ_KEY_ENUMS, "lq_scene_enums");
    if (!n) return 0;
    for (int i = 0; i < n->n && i < cap; i++) out[i] = n->kids[i]->text;
    return n->n;
}

const char *lq_scene_words(const lq_scene *s, const char *path)
{
    int row = lq_scene_row_of(s, path);
    lq_scene_want(s, path, row, LQ_KEY_ENUM, LQ_KEY_ENUMS, "lq_scene_words");
    return s->keys[row].enums;
}

bool lq_scene_has(const lq_scene *s, const char *path)
{
    return lq_scene_present(s, path, lq_scene_row_of(s, path)) != NULL;
}

int lq_scene_count(const lq_scene *s, const char *list)
{
    const lq_node *n = lq_scene_find(s->root, list);
    lq_scene_want(s, list, lq_scene_row_of(s, list), LQ_KEY_LIST, LQ_KEY_LIST, "lq_scene_count");
    return n && n->kind == LQ_NODE_SEQ ? n->n : 0;
}

const char *lq_scene_kind(const lq_scene *s, const char *list, int i)
{
    char path[LQ_SCENE_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s.%d", list, i);
    int row = lq_scene_row_of(s, list);
    lq_scene_want(s, list, row, LQ_KEY_LIST, LQ_KEY_LIST, "lq_scene_kind");
    const lq_node *item = lq_scene_find(s->root, path);
    if (!item || item->kind != LQ_NODE_MAP) return NULL;
    char tpath[LQ_SCENE_PATH_MAX];
    snprintf(tpath, sizeof tpath, "%s[]", s->keys[row].path);
    for (int j = 0; j < item->n; j++) {
        int r = lq_scene_key_child(s->keys, tpath, item->kids[2 * j]->text);
        if (r >= 0 && (s->keys[r].flags & LQ_KEY_KIND)) {
            s->read[r] = 1;
            return item->kids[2 * j]->text;
        }
    }
    return NULL;
}

const lq_scene_node *lq_scene_at(const lq_scene *s, const char *path)
{
    int row = lq_scene_item_row(s, path);
    bool item = s->keys[row].type == LQ_KEY_LIST && strcmp(s->keys[row].path, path) != 0;
    return lq_scene_present(s, path, item ? -1 : row);
}

bool lq_scene_row_read(const lq_scene *s, int row)
{
    return row >= 0 && row < s->nkeys && s->read[row];
}

int lq_scene_error_at(const lq_scene *s, const lq_scene_node *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = lq_scene_vfail(s, at, fmt, ap);
    va_end(ap);
    return rc;
}

int lq_scene_error(const lq_scene *s, const char *path, const char *fmt, ...)
{
    const lq_node *n = path ? lq_scene_at(s, path) : NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = lq_scene_vfail(s, n, fmt, ap);
    va_end(ap);
    return rc;
}

/* ---------------------------------------------------------------------------------
 * The table check.
 */

static bool lq_scene_path_ok(const char *path)
{
    /* words of [a-z0-9_], joined by '.', a word may end in "[]" when more follows */
    const char *p = path;
    for (;;) {
        size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!len) return false;
        p += len;
        if (p[0] == '[' && p[1] == ']') {
            p += 2;
            if (*p != '.') return false;
        }
        if (!*p) return true;
        if (*p != '.') return false;
        p++;
    }
}

static bool lq_scene_enums_ok(const char *words)
{
    if (!words || !words[0]) return false;
    for (const char *p = words; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (!len || strcspn(p, " \t,") < len) return false;
        for (const char *q = bar ? bar + 1 : NULL; q && *q;) {
            const char *b2 = strchr(q, '|');
            size_t l2 = b2 ? (size_t)(b2 - q) : strlen(q);
            if (l2 == len && strncmp(p, q, len) == 0) return false;
            q = b2 ? b2 + 1 : NULL;
        }
        if (!bar) break;
        p = bar + 1;
        if (!*p) return false;
    }
    return true;
}

/* Why row i is malformed, or NULL. */
static const char *lq_scene_row_problem(const lq_key *keys, int i, lq_scene_arena *a, char *msg,
                                        size_t cap)
{
    const lq_key *k = &keys[i];
    bool numeric = k->type == LQ_KEY_FLOAT || k->type == LQ_KEY_INT || k->type == LQ_KEY_FLOATS ||
                   k->type == LQ_KEY_INTS;
    bool seq = k->type == LQ_KEY_FLOATS || k->type == LQ_KEY_INTS || k->type == LQ_KEY_ENUMS;
    bool words = k->type == LQ_KEY_ENUM || k->type == LQ_KEY_ENUMS;
    unsigned known =
        LQ_KEY_REQUIRED | LQ_KEY_KIND | LQ_KEY_MIN_OPEN | LQ_KEY_MAX_OPEN | LQ_KEY_FACES;

    if (!lq_scene_path_ok(k->path)) return "the path is not lower_snake words joined by '.'";
    for (int j = 0; j < i; j++)
        if (strcmp(keys[j].path, k->path) == 0) return "the path is declared twice";
    if ((int)k->type < LQ_KEY_MAP || k->type > LQ_KEY_ENUMS) return "unknown type";
    if (k->flags & ~known) return "unknown flag bits";
    if (!k->solvers || (k->solvers & ~LQ_SOLVER_ALL)) return "the solver mask is empty or invalid";
    if (!k->doc || !k->doc[0] || strchr(k->doc, '\n') || strchr(k->doc, '|'))
        return "the doc is empty or holds a newline or '|'";
    if (!k->units) return "units are NULL (use \"\")";

    /* the parent: an earlier MAP, FACES ENUM or (for "list[].x") LIST row */
    const char *dot = strrchr(k->path, '.');
    if (dot) {
        char parent[LQ_SCENE_PATH_MAX];
        size_t plen = (size_t)(dot - k->path);
        bool item = plen > 2 && k->path[plen - 1] == ']';
        if (plen >= sizeof parent) return "the path is too long";
        memcpy(parent, k->path, plen - (item ? 2 : 0));
        parent[plen - (item ? 2 : 0)] = '\0';
        int p = lq_scene_key_find(keys, parent);
        if (p < 0 || p > i) return "its parent row is missing or comes later";
        const lq_key *pk = &keys[p];
        if (item ? pk->type != LQ_KEY_LIST
                 : !(pk->type == LQ_KEY_MAP || (pk->flags & LQ_KEY_FACES)))
            return "its parent is not a mapping (or a list for 'list[].key')";
        if (k->solvers & ~pk->solvers) return "it is read by a solver its parent is not read by";
        if ((k->flags & LQ_KEY_KIND) && !item) return "a kind row must sit directly under 'list[]'";
        if ((pk->flags & LQ_KEY_FACES) && k->type != LQ_KEY_ENUM)
            return "a face of a FACES key must be an ENUM";
    } else if (k->flags & LQ_KEY_KIND) {
        return "a kind row must sit directly under 'list[]'";
    }
    if ((k->flags & LQ_KEY_FACES) && k->type != LQ_KEY_ENUM) return "only an ENUM can be FACES";
    if ((k->flags & LQ_KEY_KIND) && (k->flags & LQ_KEY_REQUIRED))
        return "a kind cannot be required";
    if ((k->flags & LQ_KEY_REQUIRED) && k->def) return "a required key cannot have a default";
    if (numeric) {
        if (isnan(k->min) || isnan(k->max) || k->min > k->max) return "min > max";
        if ((k->type == LQ_KEY_INT || k->type == LQ_KEY_INTS) &&
            ((!isinf(k->min) && k->min != floor(k->min)) ||
             (!isinf(k->max) && k->max != floor(k->max))))
            return "an integer range needs integer bounds";
    } else if (k->flags & (LQ_KEY_MIN_OPEN | LQ_KEY_MAX_OPEN)) {
        return "open-range flags on a non-numeric row";
    }
    if (seq && (k->len_min < 0 || k->len_max < 1 || k->len_min > k->len_max))
        return "the sequence length range is empty or negative";
    if (words != (k->enums != NULL)) return "enums are set on a non-enum row, or missing";
    if (words && !lq_scene_enums_ok(k->enums))
        return "enums need non-empty, distinct words joined by '|'";
    if (k->type == LQ_KEY_LIST) {
        char kinds[256];
        if (!lq_scene_kind_list(keys, i, kinds, sizeof kinds)[0]) return "a list has no kind rows";
    }
    if (k->def) {
        lq_scene_parsed parsed;
        if (k->type == LQ_KEY_MAP || k->type == LQ_KEY_LIST || k->type == LQ_KEY_FILE)
            return "MAP, LIST and FILE rows take no default";
        int rc = lq_scene_parse(a, k->def, strlen(k->def), -1, &parsed);
        if (rc == LQ_ESIM) return "out of memory";
        if (rc || !parsed.root) {
            snprintf(msg, cap, "its default '%s' is not YAML: %s", k->def, parsed.problem);
            return msg;
        }
        char why[LQ_SCENE_MSG];
        if (lq_scene_bad_value(k, parsed.root, "default", why, sizeof why)) {
            snprintf(msg, cap, "%s", why);
            return msg;
        }
    }
    return NULL;
}

int lq_scene_check_keys(const lq_key *keys)
{
    lq_scene_arena a = {0};
    char msg[LQ_SCENE_MSG + 64];
    int rc = LQ_OK;
    for (int i = 0; keys[i].path; i++) {
        const char *why = lq_scene_row_problem(keys, i, &a, msg, sizeof msg);
        if (why) {
            rc = lq_error(LQ_EINPUT, "scene key table: row %d '%s': %s", i, keys[i].path, why);
            goto fail;
        }
    }
fail:
    lq_scene_arena_free(&a);
    return rc;
}

/* ---------------------------------------------------------------------------------
 * Docs: docs/SCENE.md is exactly this output.
 */

static const char *lq_scene_doc_type(const lq_key *k, char *buf, size_t cap)
{
    const char *kind = (k->flags & LQ_KEY_KIND) ? " (kind)" : "";
    switch (k->type) {
    case LQ_KEY_MAP:
        snprintf(buf, cap, "mapping%s", kind);
        break;
    case LQ_KEY_LIST:
        snprintf(buf, cap, "list");
        break;
    case LQ_KEY_FLOAT:
        snprintf(buf, cap, "number%s", kind);
        break;
    case LQ_KEY_INT:
        snprintf(buf, cap, "integer%s", kind);
        break;
    case LQ_KEY_BOOL:
        snprintf(buf, cap, "true/false%s", kind);
        break;
    case LQ_KEY_ENUM:
        snprintf(buf, cap, "%s%s", (k->flags & LQ_KEY_FACES) ? "word or mapping" : "word", kind);
        break;
    case LQ_KEY_STRING:
        snprintf(buf, cap, "text%s", kind);
        break;
    case LQ_KEY_FILE:
        snprintf(buf, cap, "file%s", kind);
        break;
    default:
        lq_scene_seq_phrase(k, buf, cap);
        break;
    }
    return buf;
}

static void lq_scene_doc_row(FILE *f, const lq_key *k)
{
    char type[64], range[512], solvers[64];
    if (k->type == LQ_KEY_ENUM || k->type == LQ_KEY_ENUMS)
        lq_scene_enum_list(k->enums, "`", range, sizeof range);
    else if (k->type == LQ_KEY_FLOAT || k->type == LQ_KEY_INT || k->type == LQ_KEY_FLOATS ||
             k->type == LQ_KEY_INTS) {
        lq_scene_fmt_range(k, range, sizeof range);
        if (!range[0]) snprintf(range, sizeof range, "any");
    } else
        range[0] = '\0';
    fprintf(f, "| `%s` | %s | %s | ", k->path, lq_scene_doc_type(k, type, sizeof type), range);
    if (k->flags & LQ_KEY_REQUIRED)
        fprintf(f, "required");
    else if (k->def)
        fprintf(f, "`%s`", k->def);
    fprintf(f, " | %s | %s | %s |\n", k->units,
            lq_scene_solver_list(k->solvers, solvers, sizeof solvers), k->doc);
}

void lq_scene_write_docs(FILE *f)
{
    const lq_key *keys = lq_scene_keys;
    fputs("# Scene format\n"
          "\n"
          "<!-- Generated from host/scene/scene_keys.c by lq_scene_write_docs(); do not edit.\n"
          "     Regenerate from the repository root: LQ_REGENERATE=1 build/test_scene -->\n"
          "\n"
          "A scene is one YAML file: which solver runs, on what grid, for how long, with what\n"
          "liquid, solids, ground and sources, and what to write. `liquidcl check SCENE.yaml`\n"
          "validates a scene without running it. Every problem is reported as one line,\n"
          "`FILE:LINE:COL: key.path: message`, and exit code 2: unknown keys (with a\n"
          "suggestion when one is close), wrong types, values out of range, unknown words,\n"
          "missing required keys, missing files, and keys the scene's solver does not read.\n"
          "Keys that are absent take the defaults below. Units are SI; y is up.\n"
          "\n"
          "## Paths\n"
          "\n"
          "Every key has a dotted path: `grid.size`, `time.fps`, `walls.x_min`. List items are\n"
          "addressed by their index from 0, then the item's kind: `liquid.0.box.max`,\n"
          "`terrain.2.heightmap.file`. The tables below write list items as\n"
          "`liquid[].box.max`.\n"
          "\n"
          "## Overrides: `--set KEY=VALUE`\n"
          "\n"
          "`liquidcl run` and `liquidcl check` take any number of `--set KEY=VALUE`, applied in\n"
          "order before validation. KEY is a path; VALUE is YAML flow text:\n"
          "\n"
          "```\n"
          "--set time.frames=10\n"
          "--set grid.size=[256,128]\n"
          "--set walls=no-slip\n"
          "--set walls.y_min=no-slip\n"
          "--set liquid.0.box.max=[0.3,0.6,0.32]\n"
          "--set 'liquid.1.sphere={center: [0.5, 0.5, 0.5], radius: 0.1}'\n"
          "--set 'liquid=[{level: 0.1}]'\n"
          "```\n"
          "\n"
          "Mappings missing on the path are created; a list item must already exist (an index\n"
          "past the end is an error; set the whole list to add items). Setting a face of\n"
          "`walls` when `walls` is one word keeps that word for the other faces. A bad\n"
          "override is reported as `--set KEY=VALUE: key.path: message`.\n"
          "\n"
          "## Values\n"
          "\n"
          "| type | written as |\n"
          "|---|---|\n"
          "| number | `0.5`, `-2`, `1e-5` (unquoted) |\n"
          "| integer | `64` |\n"
          "| true/false | `true`, `false` |\n"
          "| word | one of the words in the range column |\n"
          "| text | any scalar |\n"
          "| file | a path relative to the scene file's folder; it must exist and be readable |\n"
          "| N numbers, integers, words | a sequence: `[0, -9.81, 0]` |\n"
          "| mapping | the sub-keys listed below it; `key:` with nothing is an empty mapping |\n"
          "| list | a sequence of items, each a mapping with exactly one kind key (type marked "
          "*(kind)*) plus the list's other keys |\n"
          "\n"
          "Ranges are inclusive `[a, b]` or exclusive `(a, b)`; `inf` means unbounded. A key\n"
          "that is neither required nor defaulted is optional, and its description says what\n"
          "its absence means. The solvers column names the solvers that read the key\n"
          "(`shallow`, `splash`, `mac`, `pls`); any other solver rejects it.\n",
          f);
    for (int i = 0; keys[i].path; i++) {
        const lq_key *top = &keys[i];
        bool container = top->type == LQ_KEY_MAP || top->type == LQ_KEY_LIST;
        size_t n = strlen(top->path);
        char kinds[256], solvers[64];
        if (strchr(top->path, '.')) continue;
        fprintf(f, "\n## `%s`\n", top->path);
        if (container) {
            /* the section's own row becomes its paragraph; the table lists its keys */
            bool all = (top->solvers & LQ_SOLVER_ALL) == LQ_SOLVER_ALL;
            fprintf(f, "\n%s\n\nA %s%s, read by %s%s.", top->doc,
                    top->type == LQ_KEY_MAP ? "mapping" : "list",
                    (top->flags & LQ_KEY_REQUIRED) ? " (required)" : "",
                    all ? "every solver" : "the solvers ",
                    all ? "" : lq_scene_solver_list(top->solvers, solvers, sizeof solvers));
            if (top->type == LQ_KEY_MAP) fputc('\n', f);
        }
        if (top->type == LQ_KEY_LIST) {
            char item[LQ_SCENE_PATH_MAX], attrs[256] = "";
            size_t o = 0;
            snprintf(item, sizeof item, "%s[]", top->path);
            for (int j = 0; keys[j].path; j++) {
                if ((keys[j].flags & LQ_KEY_KIND) || !lq_scene_key_is_child(&keys[j], item))
                    continue;
                int w = snprintf(attrs + o, sizeof attrs - o, "%s`%s`", o ? ", " : "",
                                 lq_scene_key_name(&keys[j]));
                if (w > 0) o += (size_t)w;
            }
            lq_scene_kind_list(keys, i, kinds, sizeof kinds);
            fprintf(f, " Each item is a mapping with exactly one kind key (");
            for (const char *p = kinds; *p;) {
                size_t len = strcspn(p, ",");
                fprintf(f, "`%.*s`%s", (int)len, p, p[len] ? ", " : "");
                p += len;
                p += strspn(p, ", ");
            }
            fprintf(f, ")%s%s.\n", attrs[0] ? "; any item may also have " : "", attrs);
        }
        fprintf(f, "\n| key | type | range | default | units | solvers | description |\n"
                   "|---|---|---|---|---|---|---|\n");
        for (int j = container ? i + 1 : i; keys[j].path; j++)
            if (j == i || (strncmp(keys[j].path, top->path, n) == 0 &&
                           (keys[j].path[n] == '.' || keys[j].path[n] == '[')))
                lq_scene_doc_row(f, &keys[j]);
    }
}
