/*
 * falcon/mesh.h: triangle meshes in the formats of Shewchuk's Triangle
 * (.node, .ele, .neigh), for mesh programs such as samples/dmr.fal, where
 * the triangles become the elements of a graph view (§3.6).
 *
 *   BASE.node   "n 2 nattr nmarkers", then "id x y [attr...] [marker]"
 *   BASE.ele    "t 3|6 nattr", then "id a b c [...]" (counterclockwise)
 *   BASE.neigh  "t 3", then "id n0 n1 n2": n_i is the triangle across the
 *               edge opposite vertex i, -1 on the boundary (optional: it
 *               is computed from BASE.ele when the file is absent)
 *
 * '#' starts a comment; numbering starts at 0 or 1 (the first vertex's
 * id decides, the other files follow it).  Files may be gzip or xz
 * compressed, like graph files (§9).  A malformed file is reported as
 * `path:line: error: ...` and fal_mesh_read returns -1, never crashes.
 */
#ifndef FALCON_MESH_H
#define FALCON_MESH_H

#include <stdint.h>

typedef struct fal_mesh {
  int64_t npoints;
  double *x, *y;   /* npoints coordinates */
  int64_t ntri;
  int32_t *tri;    /* 3 vertex ids (0-based) per triangle, counterclockwise */
  int32_t *nbr;    /* 3 per triangle: nbr[3t+i] is across the edge opposite
                    * tri[3t+i], -1 on the boundary */
  int base;        /* the files' first index (0 or 1); written back as is */
} fal_mesh;

/* Reads BASE.node, BASE.ele and (if present) BASE.neigh; BASE may also be
 * given as BASE.node.  Returns 0, or -1 after printing an error (m is
 * then empty).  Checks that ids are in range, triangles are
 * counterclockwise and not degenerate, no edge has more than two
 * triangles, and that BASE.neigh agrees with the triangles. */
int fal_mesh_read(fal_mesh *m, const char *base);

/* Writes BASE.node, BASE.ele and BASE.neigh (numbering from m->base).
 * Returns 0, or -1 after printing an error. */
int fal_mesh_write(const fal_mesh *m, const char *base);

/* Allocates the arrays for n points and t triangles (contents zero). */
void fal_mesh_alloc(fal_mesh *m, int64_t npoints, int64_t ntri);
void fal_mesh_free(fal_mesh *m);

#endif /* FALCON_MESH_H */
