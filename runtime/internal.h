/*
 * internal.h: what the files of libfalcon share and do not export (the
 * public API is include/falcon/graph.h).  Sectioned by defining file.
 */
#ifndef FALCON_RUNTIME_INTERNAL_H
#define FALCON_RUNTIME_INTERNAL_H

#include "falcon/graph.h"

#include <stdint.h>
#include <stdio.h>

/* ---- util.c ------------------------------------------------------------- */

void *fal_alloc_array(size_t n, size_t size); /* exits on overflow too */
/* The memory a graph may take: FALCON_MEM_LIMIT or physical memory (0:
 * unknown); *source names which. */
int64_t fal_mem_limit(const char **source);
/* Bytes for a CSR of n points, m stored edges (+ the edge list it is
 * built from). */
int64_t fal_graph_bytes(int64_t n, int64_t m, int from_list);

/* ---- input.c: files, possibly gzip- or xz-compressed -------------------- */

typedef enum fal_codec { FAL_CODEC_PLAIN, FAL_CODEC_GZIP, FAL_CODEC_XZ } fal_codec;

/* A buffered reader over the decoded bytes of a file.  buf[pos, len) holds
 * decoded bytes not consumed yet; buf always has one spare byte so that a
 * line can be NUL-terminated in place. */
typedef struct fal_input {
  const char *path;
  FILE *file;
  fal_codec codec;
  void *stream;          /* the decoder's state (z_stream, lzma_stream) */
  unsigned char *raw;    /* compressed bytes read, not yet decoded */
  size_t raw_pos, raw_len;
  int raw_eof;           /* the file has no more bytes */
  char *buf;
  size_t pos, len, cap;
  size_t scanned;        /* buf[pos, scanned) holds no newline */
  int64_t consumed;      /* decoded bytes dropped before buf[0] */
  int eof;               /* the decoder has no more bytes */
  int failed;            /* an error was reported */
  int64_t line;          /* number of the last line returned; 0 for binary */
  int64_t size;          /* decoded size when known (plain files), else -1 */
} fal_input;

/* Opens `path` and detects gzip or xz by magic bytes.  Returns 0 or -1
 * after printing `path: error: ...`. */
int fal_input_open(fal_input *in, const char *path);
void fal_input_close(fal_input *in);

/* Prints `path:line: error: <message>` (`path: error:` when in->line is
 * 0), marks the input failed and returns -1. */
int fal_input_error(fal_input *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* util.c: -1 after an error naming the sizes when a graph of n points and
 * m stored edges would not fit the memory budget (fal_mem_limit), before
 * anything of that size is allocated. */
int fal_check_graph_bytes(fal_input *in, int64_t n, int64_t m, int from_list);

/* Makes up to n decoded bytes available at in->buf + in->pos and returns
 * how many are (fewer only at the end of the input). */
size_t fal_input_peek(fal_input *in, size_t n);

/* Copies up to n decoded bytes to dst; returns how many were copied. */
size_t fal_input_read(fal_input *in, void *dst, size_t n);

/* The next line, without its newline and NUL-terminated in place; *end
 * points at the NUL.  NULL at the end of the input or after an error. */
char *fal_input_line(fal_input *in, char **end);

/* The total decoded size of the file.  A compressed file is decoded into
 * memory to learn it (bounded by the real data, never by a header).
 * Returns -1 after an error. */
int64_t fal_input_total_size(fal_input *in);

/* ---- binary.c: the binary formats ---------------------------------------- */

/* Read the rest of `in` as each format; 0 or -1 after an error. */
int fal_graph_read_bin(fal_graph *g, fal_input *in);
int fal_graph_read_galois(fal_graph *g, fal_input *in);

/* ---- graph.c: building the CSR ------------------------------------------ */

/* Edges gathered by a parser before the CSR is built. */
typedef struct fal_edge_list {
  int64_t n, cap;
  fal_point *src, *dst;
  fal_weight *w;
} fal_edge_list;

void fal_edge_list_grow(fal_edge_list *l);
void fal_edge_list_free(fal_edge_list *l);

static inline void fal_edge_list_push(fal_edge_list *l, fal_point s,
                                      fal_point d, fal_weight w)
{
  if (l->n == l->cap)
    fal_edge_list_grow(l);
  l->src[l->n] = s;
  l->dst[l->n] = d;
  l->w[l->n] = w;
  l->n++;
}

/* Replaces *g by the CSR of l's edges over npoints points and frees l.
 * When directed is 0 every edge u-v is stored as u->v and v->u (a self
 * loop once).  Adjacency lists come out sorted by (dst, weight). */
void fal_graph_from_edges(fal_graph *g, int64_t npoints, fal_edge_list *l,
                          int directed);

/* Sorts every adjacency list by (dst, weight); lists already sorted are
 * only scanned. */
void fal_graph_sort_adjacency(fal_graph *g);

/* Removes self loops and repeated (src, dst) pairs, keeping the first
 * (lightest) of each; adjacency lists must be sorted. */
void fal_graph_simplify(fal_graph *g);

/* Whether this machine stores integers little-endian (the byte order of
 * both binary formats). */
int fal_little_endian(void);

/* Reverses the bytes of each of n elements of `size` bytes (2, 4 or 8). */
void fal_swap_bytes(void *p, size_t size, size_t n);

/* ---- mutate.c: the mutable layout (graph.h "mutation") ------------------ */

/* fal_graph_make_mutable, telling move (may be NULL) where each edge went
 * (old_slot_cap: nedges, old_point_cap: npoints). */
int fal_graph_make_mutable_with(fal_graph *g, int factor,
                                fal_graph_move_fn move, void *arg);
/* The in-edges of a mutable graph: live edges between live points,
 * in_offsets over point_cap + 1 entries. */
void fal_graph_build_in_edges_mutable(fal_graph *g);
/* Frees what only a mutable graph has (fal_graph_free calls it). */
void fal_graph_free_mutable(fal_graph *g);

#endif /* FALCON_RUNTIME_INTERNAL_H */
