/*
 * binary.c: the two binary formats of §9, both little-endian.
 *
 * Falcon binary CSR (written by fal_graph_write_bin, for fast reloading):
 *
 *   offset  size          field
 *   0       8             magic "FALCSR1\0" (the 1 is the format version)
 *   8       4  uint32     flags: bit 0 directed, bit 1 weights present
 *   12      4  uint32     reserved, 0
 *   16      8  uint64     npoints
 *   24      8  uint64     nedges (stored directed edges)
 *   32      8 (n+1)       int64 offsets[npoints + 1]
 *           4 m           int32 dst[nedges]
 *           4 m           int32 weight[nedges], only with flags bit 1
 *                         (otherwise every weight is 1)
 *
 * The arrays are the fal_graph arrays as they are in memory, so a load is
 * three reads and a validation pass.  Every array starts at a multiple of
 * 4 bytes (offsets at a multiple of 8).
 *
 * Galois/LonestarGPU .gr version 1 (read only): four uint64 version (1),
 * sizeEdgeTy (0 or 4), numNodes, numEdges; numNodes uint64 end offsets;
 * numEdges uint32 destinations; a uint32 pad when numEdges is odd; then
 * numEdges weights of sizeEdgeTy bytes (read as int32).  §10: the
 * published converter forgot the pad; such files fail the size check.
 *
 * Both readers check the sizes a header announces against the size of
 * the file before allocating anything, then check every offset and
 * destination, so a corrupt file is an error message, never a crash.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BIN_MAGIC "FALCSR1" /* with its NUL: 8 bytes */

enum {
  HEADER_SIZE = 32, /* both formats */
  BIN_DIRECTED = 1,
  BIN_WEIGHTED = 2
};

/* ---- little-endian fields ---------------------------------------------------- */

static uint32_t get_u32(const unsigned char *b)
{
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static uint64_t get_u64(const unsigned char *b)
{
  return (uint64_t)get_u32(b) | (uint64_t)get_u32(b + 4) << 32;
}

static void put_u32(unsigned char *b, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    b[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *b, uint64_t v)
{
  put_u32(b, (uint32_t)v);
  put_u32(b + 4, (uint32_t)(v >> 32));
}

/* Reads n little-endian elements of `size` bytes into dst. */
static int read_le(fal_input *in, void *dst, size_t size, size_t n)
{
  size_t bytes = size * n;
  if (fal_input_read(in, dst, bytes) != bytes)
    return in->failed ? -1 : fal_input_error(in, "truncated file");
  if (!fal_little_endian())
    fal_swap_bytes(dst, size, n);
  return 0;
}

/* ---- checks ------------------------------------------------------------------------ */

/* Reads the 32-byte header after checking the file can hold it; *size is
 * the whole file's size. */
static int read_header(fal_input *in, unsigned char *h, int64_t *size,
                       const char *format)
{
  *size = fal_input_total_size(in);
  if (*size < 0)
    return -1;
  if (*size < HEADER_SIZE)
    return fal_input_error(in, "truncated %s header (%lld bytes, %d needed)",
                           format, (long long)*size, HEADER_SIZE);
  return read_le(in, h, 1, HEADER_SIZE);
}

/* Counts from a header, before anything is allocated: n must fit a
 * fal_point and each edge takes at least 4 bytes of the file, which
 * keeps the size arithmetic below far from overflow. */
static int check_counts(fal_input *in, uint64_t n, uint64_t m, int64_t size)
{
  if (n > (uint64_t)INT32_MAX)
    return fal_input_error(in, "the header announces %llu points (at most %d)",
                           (unsigned long long)n, INT32_MAX);
  if (m > (uint64_t)size / 4)
    return fal_input_error(in, "the header announces %llu edges, more than "
                           "a %lld-byte file can hold",
                           (unsigned long long)m, (long long)size);
  return 0;
}

static int check_size(fal_input *in, uint64_t want, int64_t size)
{
  if ((uint64_t)size < want)
    return fal_input_error(in, "truncated file: the header describes %llu "
                           "bytes, the file has %lld",
                           (unsigned long long)want, (long long)size);
  if ((uint64_t)size > want)
    return fal_input_error(in, "%llu unexpected bytes after the graph the "
                           "header describes",
                           (unsigned long long)((uint64_t)size - want));
  return 0;
}

/* offsets[0..n] start at 0, never decrease and end at m. */
static int check_offsets(fal_input *in, const int64_t *off, int64_t n,
                         int64_t m)
{
  if (off[0] != 0)
    return fal_input_error(in, "the first edge offset is %lld, not 0",
                           (long long)off[0]);
  for (int64_t p = 0; p < n; p++)
    if (off[p + 1] < off[p] || off[p + 1] > m)
      return fal_input_error(in, "bad edge offset %lld for point %lld "
                             "(%lld edges)", (long long)off[p + 1],
                             (long long)p, (long long)m);
  if (off[n] != m)
    return fal_input_error(in, "the offsets end at %lld, not at the %lld "
                           "edges", (long long)off[n], (long long)m);
  return 0;
}

/* dst[0..m) are the file's edges e0, e0 + 1, ... (e0 is not 0 when a
 * rank reads only its rows). */
static int check_dst(fal_input *in, const fal_point *dst, int64_t m,
                     int64_t n, int64_t e0)
{
  for (int64_t e = 0; e < m; e++)
    if ((uint32_t)dst[e] >= (uint64_t)n)
      return fal_input_error(in, "edge %lld goes to point %lu, out of range "
                             "(%lld points)", (long long)(e0 + e),
                             (unsigned long)(uint32_t)dst[e], (long long)n);
  return 0;
}

static void fill_weights(fal_graph *g)
{
  for (int64_t e = 0; e < g->nedges; e++)
    g->weight[e] = 1;
}

/* Allocates the three CSR arrays of a graph of n points and m edges. */
static void alloc_csr(fal_graph *g, int64_t n, int64_t m)
{
  g->npoints = n;
  g->nedges = m;
  g->offsets = fal_alloc_array((size_t)n + 1, sizeof *g->offsets);
  g->dst = fal_alloc_array((size_t)m, sizeof *g->dst);
  g->weight = fal_alloc_array((size_t)m, sizeof *g->weight);
}

/* ---- Falcon binary CSR ----------------------------------------------------------------- */

/* A Falcon binary header's flags and counts (its magic checked), and the
 * file's size against them. */
static int bin_counts(fal_input *in, const unsigned char *h, int64_t size, uint64_t *n,
                      uint64_t *m, uint32_t *flags)
{
  *flags = get_u32(h + 8);
  *n = get_u64(h + 16);
  *m = get_u64(h + 24);
  if ((*flags & ~(uint32_t)(BIN_DIRECTED | BIN_WEIGHTED)) || get_u32(h + 12))
    return fal_input_error(in, "unknown flags in the header (%#x)", *flags);
  if (check_counts(in, *n, *m, size))
    return -1;
  return check_size(in, HEADER_SIZE + 8 * (*n + 1) + ((*flags & BIN_WEIGHTED) ? 8 : 4) * *m,
                    size);
}

int fal_graph_read_bin(fal_graph *g, fal_input *in)
{
  unsigned char h[HEADER_SIZE];
  int64_t size;
  if (read_header(in, h, &size, "Falcon binary CSR"))
    return -1;
  if (memcmp(h, BIN_MAGIC, 8) != 0)
    return fal_input_error(in, "bad magic: not a Falcon binary CSR file "
                           "(expected \"FALCSR1\")");
  uint32_t flags;
  uint64_t n, m;
  if (bin_counts(in, h, size, &n, &m, &flags) ||
      fal_check_graph_bytes(in, (int64_t)n, (int64_t)m, 0))
    return -1;
  int weighted = (flags & BIN_WEIGHTED) != 0;
  alloc_csr(g, (int64_t)n, (int64_t)m);
  g->directed = (flags & BIN_DIRECTED) != 0;
  if (read_le(in, g->offsets, 8, n + 1) ||
      check_offsets(in, g->offsets, g->npoints, g->nedges) ||
      read_le(in, g->dst, 4, m) || check_dst(in, g->dst, g->nedges, g->npoints, 0))
    return -1;
  if (!weighted)
    fill_weights(g);
  else if (read_le(in, g->weight, 4, m))
    return -1;
  return 0;
}

/* Rows only (MPI ranks): the header and the offsets are read as above,
 * then the rank's slice of destinations and of weights by seeking, so a
 * rank holds about 1/k of the edges.  Only a plain (uncompressed) file
 * can be read so; anything else answers 1 and is read whole. */
static int read_slice(fal_input *in, void *dst, int64_t at, size_t size, size_t n)
{
  if (n == 0)
    return 0;
  if (fseeko(in->file, (off_t)at, SEEK_SET) != 0)
    return fal_input_error(in, "cannot seek to byte %lld: %s", (long long)at, strerror(errno));
  if (fread(dst, size, n, in->file) != n)
    return fal_input_error(in, "truncated file (reading the edges of the rank's points)");
  return 0;
}

int fal_graph_read_bin_rows(fal_graph *g, const char *path, int k, int me)
{
  fal_input in;
  unsigned char h[HEADER_SIZE];
  int64_t size;
  if (k < 1 || me < 0 || me >= k || !fal_little_endian())
    return 1;
  if (fal_input_open(&in, path) != 0)
    return -1;
  int rc = 1;
  if (in.codec != FAL_CODEC_PLAIN || !in.file)
    goto out;
  /* a file shorter than the header is not this format (a small text
   * graph): the whole-file reader names its format and its faults */
  size = fal_input_total_size(&in);
  if (size >= 0 && size < HEADER_SIZE)
    goto out;
  rc = -1;
  if (read_header(&in, h, &size, "Falcon binary CSR"))
    goto out;
  if (memcmp(h, BIN_MAGIC, 8) != 0) {
    rc = 1; /* another format */
    goto out;
  }
  uint32_t flags;
  uint64_t n, m;
  if (bin_counts(&in, h, size, &n, &m, &flags))
    goto out;
  int weighted = (flags & BIN_WEIGHTED) != 0;
  int64_t *off = fal_alloc_array((size_t)n + 1, sizeof *off);
  if (read_le(&in, off, 8, n + 1) || check_offsets(&in, off, (int64_t)n, (int64_t)m)) {
    free(off);
    goto out;
  }
  int64_t *lo = fal_alloc_array((size_t)k + 1, sizeof *lo);
  fal_graph_cut_ordered(off, 0, (int64_t)n, (int64_t)m, k, lo);
  int64_t a = lo[me], b = lo[me + 1], e0 = off[a], ml = off[b] - e0;
  free(lo);
  if (fal_check_graph_bytes(&in, (int64_t)n, ml, 0)) {
    free(off);
    goto out;
  }
  int64_t at = HEADER_SIZE + 8 * ((int64_t)n + 1);
  fal_point *dst = fal_alloc_array((size_t)ml, sizeof *dst);
  fal_weight *w = fal_alloc_array((size_t)ml, sizeof *w);
  if (read_slice(&in, dst, at + 4 * e0, 4, (size_t)ml) ||
      check_dst(&in, dst, ml, (int64_t)n, e0) ||
      (weighted && read_slice(&in, w, at + 4 * (int64_t)m + 4 * e0, 4, (size_t)ml))) {
    free(off);
    free(dst);
    free(w);
    goto out;
  }
  for (uint64_t p = 0; p <= n; p++) /* held edges from 0 */
    off[p] -= e0;
  memset(g, 0, sizeof *g);
  g->npoints = (int64_t)n;
  g->nedges = ml;
  g->directed = (flags & BIN_DIRECTED) != 0;
  g->offsets = off;
  g->dst = dst;
  g->weight = w;
  if (!weighted)
    fill_weights(g);
  g->rows = 1;
  g->row_lo = a;
  g->row_hi = b;
  g->row_e0 = e0;
  g->all_edges = (int64_t)m;
  rc = 0;
out:
  fal_input_close(&in);
  return rc;
}

/* Writes n elements of `size` bytes little-endian. */
static int write_le(FILE *f, const void *p, size_t size, size_t n)
{
  if (fal_little_endian())
    return fwrite(p, size, n, f) == n;
  unsigned char chunk[1 << 12];
  const unsigned char *b = p;
  size_t per = sizeof chunk / size;
  for (size_t i = 0; i < n; i += per) {
    size_t k = n - i < per ? n - i : per;
    memcpy(chunk, b + i * size, k * size);
    fal_swap_bytes(chunk, size, k);
    if (fwrite(chunk, size, k, f) != k)
      return 0;
  }
  return 1;
}

static int has_weights(const fal_graph *g)
{
  for (int64_t e = 0; e < g->nedges; e++)
    if (g->weight[e] != 1)
      return 1;
  return 0;
}

int fal_graph_write_bin(const fal_graph *g, const char *path)
{
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot create: %s\n", path, strerror(errno));
    return -1;
  }
  unsigned char h[HEADER_SIZE] = {0};
  int weighted = has_weights(g);
  memcpy(h, BIN_MAGIC, 8);
  put_u32(h + 8, (g->directed ? BIN_DIRECTED : 0) | (weighted ? BIN_WEIGHTED : 0));
  put_u64(h + 16, (uint64_t)g->npoints);
  put_u64(h + 24, (uint64_t)g->nedges);
  size_t n = (size_t)g->npoints, m = (size_t)g->nedges;
  int ok = fwrite(h, 1, sizeof h, f) == sizeof h &&
           write_le(f, g->offsets, 8, n + 1) && write_le(f, g->dst, 4, m) &&
           (!weighted || write_le(f, g->weight, 4, m));
  int err = errno;
  if (fclose(f) != 0 && ok) {
    ok = 0;
    err = errno;
  }
  if (!ok) {
    fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(err));
    remove(path);
    return -1;
  }
  return 0;
}

/* ---- Galois .gr version 1 ------------------------------------------------------------------ */

/* The end offsets of the file become offsets[1..n]. */
static int read_galois_arrays(fal_graph *g, fal_input *in, uint64_t esize)
{
  int64_t n = g->npoints, m = g->nedges;
  unsigned char pad[4];
  g->offsets[0] = 0;
  if (read_le(in, g->offsets + 1, 8, (size_t)n) ||
      check_offsets(in, g->offsets, n, m) ||
      read_le(in, g->dst, 4, (size_t)m) || check_dst(in, g->dst, m, n, 0))
    return -1;
  if (m % 2 && read_le(in, pad, 1, 4))
    return -1;
  if (esize == 0)
    fill_weights(g);
  else if (read_le(in, g->weight, 4, (size_t)m))
    return -1;
  return 0;
}

int fal_graph_read_galois(fal_graph *g, fal_input *in)
{
  unsigned char h[HEADER_SIZE];
  int64_t size;
  if (read_header(in, h, &size, "Galois .gr"))
    return -1;
  uint64_t version = get_u64(h), esize = get_u64(h + 8);
  uint64_t n = get_u64(h + 16), m = get_u64(h + 24);
  if (version != 1)
    return fal_input_error(in, "unsupported Galois .gr version %llu (only "
                           "version 1)", (unsigned long long)version);
  if (esize != 0 && esize != 4)
    return fal_input_error(in, "unsupported Galois edge data size %llu "
                           "(0 or 4 bytes)", (unsigned long long)esize);
  if (check_counts(in, n, m, size) ||
      check_size(in, HEADER_SIZE + 8 * n + (4 + esize) * m + (m % 2) * 4, size) ||
      fal_check_graph_bytes(in, (int64_t)n, (int64_t)m, 0))
    return -1;
  alloc_csr(g, (int64_t)n, (int64_t)m);
  g->directed = 1;
  if (read_galois_arrays(g, in, esize))
    return -1;
  fal_graph_sort_adjacency(g);
  return 0;
}
