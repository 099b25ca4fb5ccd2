/*
 * io.h — everything liquidcl writes or reads besides scenes: binary PLY meshes and
 * points, legacy VTK fields, PNG previews and heightmaps, stats.jsonl.
 *
 * Invariant: an output file is either complete or absent. Writers fill a temporary
 * file next to the target ("NAME.tmp.PID") and rename it into place on success; on
 * any failure the temporary is removed and the error recorded (LQ_ESIM for a write
 * failure, LQ_EINPUT for a bad input file, which is named with its path).
 */
#ifndef LQ_IO_H
#define LQ_IO_H

#include <stdint.h>
#include <stdio.h>

/* --- atomic files ------------------------------------------------------------- */
typedef struct lq_file {
    FILE *f;
    char *path; /* final name */
    char *tmp;  /* temporary name while open */
} lq_file;

int lq_file_open(lq_file *w, const char *path); /* LQ_OK or LQ_ESIM */
int lq_file_commit(lq_file *w);                 /* flush, close, rename */
void lq_file_abort(lq_file *w);                 /* close, remove the temporary */
/* mkdir -p; LQ_OK or LQ_ESIM. */
int lq_mkdirs(const char *path);

/* --- the frame of the files ---------------------------------------------------------
 * liquidcl computes y up. With output.up z (set once, before any file is written, by the
 * run) every PLY and VDB file this process writes is turned into z up by the rotation
 * +90° about x, (x, y, z) → (x, −z, y): right-handed, Blender's own glTF/OBJ convention,
 * so that files open upright in z-up applications. Default: y up, files as computed. */
void lq_io_set_z_up(int z_up);
int lq_io_z_up(void);
/* The rotation applied to a vector v (m or m/s) in place. */
void lq_io_to_z_up(double v[3]);

/* --- PLY (binary_little_endian 1.0) -------------------------------------------- */
/* Vertex properties are float32 columns; the first three must be "x", "y", "z".
 * tris: 3 indices per triangle (uint32), written as `property list uchar uint
 * vertex_indices`; ntris == 0 writes a point cloud (no face element).
 * z up (lq_io_z_up): every vector triplet of columns NAMEx NAMEy NAMEz (x y z, nx ny nz,
 * vx vy vz, rest_x rest_y rest_z) is rotated, the y column becoming −z and the z column
 * y (exact: a copy and a sign flip); a height field's horizontal velocity u w (no v)
 * becomes u v with v = −w; the header says `comment up z`. The rotation keeps
 * orientation, so triangles keep their winding. */
int lq_ply_write(const char *path, int nverts, int nprops, const char *const *names,
                 const float *const *columns, int ntris, const uint32_t *tris);

/* Reads a PLY written by lq_ply_write (or any binary little-endian/ASCII PLY with float
 * vertex properties and a uchar/uint face list). Caller frees with lq_ply_free. */
typedef struct lq_ply {
    int nverts, nprops, ntris;
    char **names;    /* nprops names */
    float **columns; /* nprops columns of nverts */
    uint32_t *tris;  /* 3 * ntris */
} lq_ply;
int lq_ply_read(const char *path, lq_ply *out); /* LQ_OK or LQ_EINPUT */
void lq_ply_free(lq_ply *p);

/* --- legacy VTK (binary, big-endian float32 STRUCTURED_POINTS) ------------------ */
int lq_vtk_write(const char *path, const char *name, int nx, int ny, int nz, const double origin[3],
                 const double spacing[3], const float *data);
/* Reads one written by lq_vtk_write; caller frees *data. */
int lq_vtk_read(const char *path, int dims[3], double origin[3], double spacing[3], float **data);

/* --- PNG ---------------------------------------------------------------------------- */
/* The most pixels a PNG read may hold (16384 x 16384): larger headers are refused
 * before decoding, the file named. */
#define LQ_PNG_MAX_PIXELS (1ull << 28)
/* 8-bit RGB, row 0 at the top. */
int lq_png_write_rgb(const char *path, int w, int h, const uint8_t *rgb);
/* Reads any PNG (gray, gray+alpha, RGB, RGBA, palette; 8 or 16 bit) as gray in
 * [0, 1] (RGB → luma; 16-bit keeps full precision). Errors name the file (LQ_EINPUT).
 * Row 0 is the top of the image. Caller frees *gray. */
int lq_png_read_gray(const char *path, int *w, int *h, float **gray);
int lq_png_read_rgb(const char *path, int *w, int *h, uint8_t **rgb); /* for tests */

/* --- stats.jsonl ---------------------------------------------------------------- */
/* One JSON object per line, each line written whole and flushed. */
typedef struct lq_jsonl {
    FILE *f;
    char line[4096];
    size_t len;
    int first;
} lq_jsonl;
int lq_jsonl_open(lq_jsonl *j, const char *path);   /* truncates */
int lq_jsonl_append(lq_jsonl *j, const char *path); /* appends to what is there */
void lq_jsonl_begin(lq_jsonl *j);
void lq_jsonl_int(lq_jsonl *j, const char *key, long long v);
void lq_jsonl_num(lq_jsonl *j, const char *key, double v); /* non-finite → null */
void lq_jsonl_null(lq_jsonl *j, const char *key);
void lq_jsonl_str(lq_jsonl *j, const char *key, const char *v);
int lq_jsonl_end(lq_jsonl *j); /* writes the line and flushes */
void lq_jsonl_close(lq_jsonl *j);

#endif
