/*
 * scene.h — the scene format: one table of keys drives parsing, validation,
 * `--set KEY=VALUE` overrides, error messages and the generated docs/SCENE.md.
 *
 * A scene is a YAML file (libyaml). After lq_scene_load() returns, every key in the
 * file is known to the table, has the right type, lies in range, names a valid enum
 * word, and every file it names exists and is readable. The rest of the program reads
 * it typed: host/scene/config.h decodes every key once into C structs (lq_config), and
 * solver-side checks report at the positions the structs keep (lq_scene_error_at).
 *
 * The getters by dotted path below ("grid.size", "liquid.0.box.max", "walls.x_min")
 * serve that decoder (host/scene/config.c) and the scene tests only: they are declared
 * for a file that defines LQ_SCENE_GETTERS before including this header, and poisoned
 * (a compile error on any use) everywhere else. A path the table does not declare, or
 * the wrong getter for its type, stops the program with a message (abort) in every
 * build type; tests/scene/test_config.c runs the decoder over every scene, so a
 * misspelt path in it fails the tests.
 */
#ifndef LQ_SCENE_H
#define LQ_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct lq_scene lq_scene;

/* A value's place in a loaded scene (its node: the file's line and column, or the
 * --set that made it); opaque, valid while the scene lives. */
typedef struct lq_node lq_scene_node;

/* Value types of the key table. */
typedef enum lq_key_type {
    LQ_KEY_MAP,    /* a mapping of sub-keys ("grid", "liquid[].box") */
    LQ_KEY_LIST,   /* a sequence of items, each with exactly one kind key ("liquid") */
    LQ_KEY_FLOAT,  /* a number */
    LQ_KEY_INT,    /* an integer */
    LQ_KEY_BOOL,   /* true | false */
    LQ_KEY_ENUM,   /* one word of `enums` ("a|b|c") */
    LQ_KEY_STRING, /* any scalar text */
    LQ_KEY_FILE,   /* a file path, relative to the scene's folder; must exist */
    LQ_KEY_FLOATS, /* a sequence of numbers, length in [len_min, len_max] */
    LQ_KEY_INTS,   /* a sequence of integers, length in [len_min, len_max] */
    LQ_KEY_ENUMS   /* a sequence of enum words */
} lq_key_type;

/* Solver masks: which solvers read a key. */
#define LQ_SOLVER_SHALLOW 1u
#define LQ_SOLVER_SPLASH  2u
#define LQ_SOLVER_MAC     4u
#define LQ_SOLVER_PLS     8u
#define LQ_SOLVER_ALL     15u
#define LQ_SOLVER_HF      (LQ_SOLVER_SHALLOW | LQ_SOLVER_SPLASH)

/* Key flags. */
#define LQ_KEY_REQUIRED 1u /* must be present when its parent is */
#define LQ_KEY_KIND     2u /* a list item's kind word ("liquid[].box") */
#define LQ_KEY_MIN_OPEN 4u /* the range excludes `min`: (min, max] */
#define LQ_KEY_MAX_OPEN 8u /* the range excludes `max`: [min, max) */
/* An ENUM that may instead be a mapping of its sub-rows ("walls": one word for all
 * six faces, or {x_min: no-slip, ...}). Reading a sub-row ("walls.x_min") returns the
 * scalar word when the key is a scalar, the face's value (or its row default) when it
 * is a mapping. lq_scene_enum() on the key itself returns the word all sub-rows share,
 * or NULL when they differ. */
#define LQ_KEY_FACES 16u

/* One row of the table. List items are written "list[].kind.key". */
typedef struct lq_key {
    const char *path;     /* "grid.size", "liquid[].box.min", "walls.x_min" */
    lq_key_type type;     /* value type */
    unsigned flags;       /* LQ_KEY_REQUIRED, LQ_KEY_KIND */
    unsigned solvers;     /* LQ_SOLVER_* mask of the solvers that read it */
    double min, max;      /* numeric range (inclusive) for FLOAT/INT/FLOATS/INTS */
    int len_min, len_max; /* sequence length for FLOATS/INTS/ENUMS */
    const char *enums;    /* "free-slip|no-slip" for ENUM/ENUMS */
    const char *def;      /* default as YAML text, NULL when none */
    const char *units;    /* "m", "m/s", "s", "" */
    const char *doc;      /* one or two sentences for docs/SCENE.md */
} lq_key;

/* The table (host/scene/scene_keys.c), terminated by a row with path == NULL. */
extern const lq_key lq_scene_keys[];

/* Loads SCENE, applies the overrides (each "KEY=VALUE", VALUE in YAML flow syntax)
 * and validates. Returns NULL on failure with the error recorded (LQ_EINPUT):
 * "FILE:LINE:COL: message" for problems in the file, "--set KEY=VALUE: message"
 * for a bad override. */
lq_scene *lq_scene_load(const char *path, int nsets, const char *const *sets);
void lq_scene_free(lq_scene *s);

const char *lq_scene_file(const lq_scene *s);   /* the path given to lq_scene_load */
const char *lq_scene_name(const lq_scene *s);   /* `name:` or the file name without .yaml */
const char *lq_scene_solver(const lq_scene *s); /* "shallow", "splash", "mac", "pls" */

/* The scene after its overrides as text, one line "dotted.path: value" per value in
 * document order (lists of values as "[a, b]", quoted text in quotes), without
 * time.frames (a resumed run may ask for more): what a checkpoint records of its run.
 * *text is malloc'd (the caller frees it). LQ_OK, or LQ_ESIM when out of memory. */
int lq_scene_text_of(const lq_scene *s, char **text, size_t *len);

/* For checks only a solver can make (e.g. a box outside the grid): records
 * "FILE:LINE:COL: message" at node `at` (NULL: the file, as for an absent key; a node an
 * override made: "--set KEY=VALUE: message") and returns LQ_EINPUT. */
int lq_scene_error_at(const lq_scene *s, const lq_scene_node *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* True when a getter (or lq_scene_at) has read table row `row` of this scene: the
 * decoder's coverage, for tests/scene/test_config.c. */
bool lq_scene_row_read(const lq_scene *s, int row);

/* ---------------------------------------------------------------------------------
 * Getters by dotted path: for the decoder (host/scene/config.c) and tests only.
 */
#ifdef LQ_SCENE_GETTERS

/* Typed getters: the scene's value, else the table default. */
/* An optional key with no default reads as 0, false, NULL or 0 items when absent
 * (e.g. liquid.N.tilt.center: then the grid centre); use lq_scene_has() to tell. */
double lq_scene_float(const lq_scene *s, const char *path);
int lq_scene_int(const lq_scene *s, const char *path);
bool lq_scene_bool(const lq_scene *s, const char *path);
const char *lq_scene_enum(const lq_scene *s, const char *path); /* ENUM or STRING */
/* FILE: the path resolved against the scene's folder (valid while s lives). */
const char *lq_scene_file_path(const lq_scene *s, const char *path);
/* FLOATS/INTS/ENUMS: copies up to cap values, returns how many the value has. */
int lq_scene_floats(const lq_scene *s, const char *path, double *out, int cap);
int lq_scene_ints(const lq_scene *s, const char *path, int *out, int cap);
int lq_scene_enums(const lq_scene *s, const char *path, const char **out, int cap);

/* ENUM/ENUMS: the row's words as the table writes them ("free-slip|no-slip"). */
const char *lq_scene_words(const lq_scene *s, const char *path);

/* True when the key is present in the file or set by --set (not a default). */
bool lq_scene_has(const lq_scene *s, const char *path);
/* Items in a LIST ("liquid"), and the kind word of item i ("box"). */
int lq_scene_count(const lq_scene *s, const char *list);
const char *lq_scene_kind(const lq_scene *s, const char *list, int i);

/* The node of `path` as lq_scene_error reports at (a face of a FACES key written as one
 * word: that word), NULL when the key is absent. */
const lq_scene_node *lq_scene_at(const lq_scene *s, const char *path);
/* lq_scene_error_at at the node of `path` (the file when the key is absent). */
int lq_scene_error(const lq_scene *s, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#else
/* Code outside the decoder reads lq_config's fields (host/scene/config.h). */
#pragma GCC poison lq_scene_float lq_scene_int lq_scene_bool lq_scene_enum lq_scene_file_path
#pragma GCC poison lq_scene_floats lq_scene_ints lq_scene_enums lq_scene_words lq_scene_has
#pragma GCC poison lq_scene_count lq_scene_kind lq_scene_at lq_scene_error
#endif

/* Checks that a key table is well formed (parents before children, kinds under
 * lists, defaults of the right type and in range, enums non-empty, ...). Returns
 * LQ_OK, or LQ_EINPUT with one line naming the first bad row recorded. */
int lq_scene_check_keys(const lq_key *keys);

/* Writes docs/SCENE.md's text (Markdown, generated from the table) to `f`. */
void lq_scene_write_docs(FILE *f);

#endif
