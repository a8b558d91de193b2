/*
 * write.c: the text writers, Falcon edge-list text ("n m", then
 * "src dst weight", 0-based) and DIMACS ("p sp n m", then "a u v w",
 * 1-based).  Both write every stored edge, so an undirected graph comes
 * out with both directions and reads back as a directed graph with the
 * same CSR.  Numbers are formatted by hand into a large buffer: printf
 * per edge would dominate the time on graphs of millions of edges.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_SIZE = 1 << 16 };

typedef struct text_out {
  FILE *f;
  char *buf;
  size_t len;
  int failed;
  int err; /* errno of the first failure */
} text_out;

static void out_flush(text_out *o)
{
  if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len) {
    o->failed = 1;
    o->err = errno;
  }
  o->len = 0;
}

static void out_int(text_out *o, int64_t v)
{
  char digits[24];
  int n = 0;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    digits[n++] = '-';
  while (n)
    o->buf[o->len++] = digits[--n];
}

static void out_char(text_out *o, char c) { o->buf[o->len++] = c; }

/* A short string (a keyword). */
static void out_str(text_out *o, const char *s)
{
  size_t n = strlen(s);
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

/* Room for a line of up to four numbers and a keyword. */
static void out_reserve_line(text_out *o)
{
  if (o->len + 4 * 24 > OUT_SIZE)
    out_flush(o);
}

static int out_open(text_out *o, const char *path)
{
  memset(o, 0, sizeof *o);
  o->f = fopen(path, "w");
  if (!o->f) {
    fprintf(stderr, "%s: error: cannot create: %s\n", path, strerror(errno));
    return -1;
  }
  o->buf = fal_alloc(OUT_SIZE);
  return 0;
}

static int out_close(text_out *o, const char *path)
{
  out_flush(o);
  if (fclose(o->f) != 0 && !o->failed) {
    o->failed = 1;
    o->err = errno;
  }
  free(o->buf);
  if (o->failed) {
    fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(o->err));
    remove(path);
    return -1;
  }
  return 0;
}

/* The header `prefix n m`, then one line `edge_prefix src dst weight`
 * per edge, with ids counted from base. */
static int write_edges(const fal_graph *g, const char *path,
                       const char *prefix, const char *edge_prefix, int base)
{
  text_out o;
  if (out_open(&o, path))
    return -1;
  out_str(&o, prefix);
  out_int(&o, g->npoints);
  out_char(&o, ' ');
  out_int(&o, g->nedges);
  out_char(&o, '\n');
  for (int64_t p = 0; p < g->npoints; p++)
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++) {
      out_reserve_line(&o);
      out_str(&o, edge_prefix);
      out_int(&o, p + base);
      out_char(&o, ' ');
      out_int(&o, (int64_t)g->dst[e] + base);
      out_char(&o, ' ');
      out_int(&o, g->weight[e]);
      out_char(&o, '\n');
    }
  return out_close(&o, path);
}

int fal_graph_write_text(const fal_graph *g, const char *path)
{
  return write_edges(g, path, "", "", 0);
}

int fal_graph_write_dimacs(const fal_graph *g, const char *path)
{
  return write_edges(g, path, "p sp ", "a ", 1);
}
