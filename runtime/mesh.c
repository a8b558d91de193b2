/*
 * mesh.c: Triangle's .node / .ele / .neigh files (falcon/mesh.h), the
 * input of mesh programs (samples/dmr.fal, §3.6).
 *
 * Every number is checked (ids consecutive from the file's base, vertex
 * and neighbour ids in range, coordinates finite); the triangles must be
 * counterclockwise and not degenerate, and no edge may have more than two
 * of them.  The neighbours are always computed from the triangles (half
 * edges sorted by their ends); a .neigh file, when present, must agree.
 * Errors are `path:line: error: ...` and a -1 return.
 */
#include "internal.h"
#include "falcon/mesh.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MESH_MAX ((int64_t)INT32_MAX / 3)

/* ---- lines and numbers ------------------------------------------------------ */

/* The next line with something on it, '#' comments removed. */
static char *data_line(fal_input *in)
{
  char *end, *l;
  while ((l = fal_input_line(in, &end)) != NULL) {
    char *hash = strchr(l, '#');
    if (hash)
      *hash = '\0';
    const char *p = l;
    while (*p == ' ' || *p == '\t' || *p == '\r')
      p++;
    if (*p)
      return l;
  }
  return NULL;
}

static int is_sep(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == ',';
}

/* The next field of *pp as an integer; -1 after an error. */
static int field_int(fal_input *in, char **pp, int64_t *v, const char *what)
{
  char *p = *pp;
  while (is_sep(*p))
    p++;
  if (!*p)
    return fal_input_error(in, "missing %s", what);
  errno = 0;
  char *e;
  long long x = strtoll(p, &e, 10);
  if (e == p || (*e && !is_sep(*e)) || errno == ERANGE) {
    int n = 0;
    while (p[n] && !is_sep(p[n]) && n < 24)
      n++;
    return fal_input_error(in, "expected %s (an integer), found '%.*s'", what, n, p);
  }
  *v = x;
  *pp = e;
  return 0;
}

static int field_real(fal_input *in, char **pp, double *v, const char *what)
{
  char *p = *pp;
  while (is_sep(*p))
    p++;
  if (!*p)
    return fal_input_error(in, "missing %s", what);
  char *e;
  double x = strtod(p, &e);
  if (e == p || (*e && !is_sep(*e)) || !isfinite(x)) {
    int n = 0;
    while (p[n] && !is_sep(p[n]) && n < 24)
      n++;
    return fal_input_error(in, "expected %s (a finite number), found '%.*s'", what, n, p);
  }
  *v = x;
  *pp = e;
  return 0;
}

/* The header line: `count` and up to nmore more integers (missing ones 0). */
static int header(fal_input *in, int64_t *v, int nmin, int nmax, const char *what)
{
  char *l = data_line(in);
  if (!l)
    return in->failed ? -1 : fal_input_error(in, "empty file: no %s header", what);
  for (int i = 0; i < nmax; i++) {
    v[i] = 0;
    char *p = l;
    while (is_sep(*p))
      p++;
    if (!*p && i >= nmin)
      continue;
    if (field_int(in, &l, &v[i], "a header number") < 0)
      return -1;
  }
  while (is_sep(*l))
    l++;
  if (*l)
    return fal_input_error(in, "unexpected text after the %s header", what);
  return 0;
}

/* A line's leading id: `want` (the base plus the row number). */
static int row_id(fal_input *in, char **l, int64_t want, const char *what)
{
  int64_t id;
  if (field_int(in, l, &id, what) < 0)
    return -1;
  if (id != want)
    return fal_input_error(in, "%s %lld where %lld was expected (ids are consecutive)",
                           what, (long long)id, (long long)want);
  return 0;
}

static int end_of_rows(fal_input *in, const char *what, int64_t n)
{
  if (data_line(in))
    return fal_input_error(in, "more %s than the %lld the header announced", what,
                           (long long)n);
  return in->failed ? -1 : 0;
}

/* Nothing may follow a row's last field. */
static int row_end(fal_input *in, const char *l, const char *what)
{
  while (is_sep(*l))
    l++;
  if (*l)
    return fal_input_error(in, "unexpected text after the %s: '%.24s'", what, l);
  return 0;
}

static char *path_of(const char *base, const char *ext)
{
  size_t n = strlen(base);
  char *p = fal_alloc(n + strlen(ext) + 1);
  memcpy(p, base, n);
  strcpy(p + n, ext);
  return p;
}

/* ---- the three files -------------------------------------------------------- */

static int read_node(fal_mesh *m, const char *path)
{
  fal_input in;
  if (fal_input_open(&in, path) < 0)
    return -1;
  int64_t h[4];
  int st = header(&in, h, 2, 4, ".node");
  if (st == 0 && (h[0] < 3 || h[0] > MESH_MAX))
    st = fal_input_error(&in, "a mesh has 3 to %lld vertices, not %lld", (long long)MESH_MAX,
                         (long long)h[0]);
  else if (st == 0 && h[1] != 2)
    st = fal_input_error(&in, "vertices have 2 dimensions, not %lld", (long long)h[1]);
  else if (st == 0 && (h[2] < 0 || h[2] > 1000 || h[3] < 0 || h[3] > 1))
    st = fal_input_error(&in, "bad attribute or marker count (%lld, %lld)", (long long)h[2],
                         (long long)h[3]);
  if (st == 0) {
    m->npoints = h[0];
    m->x = fal_alloc_array((size_t)h[0], sizeof *m->x);
    m->y = fal_alloc_array((size_t)h[0], sizeof *m->y);
  }
  for (int64_t i = 0; st == 0 && i < h[0]; i++) {
    char *l = data_line(&in);
    if (!l) {
      st = in.failed ? -1 : fal_input_error(&in, "%lld vertices announced, %lld found",
                                            (long long)h[0], (long long)i);
      break;
    }
    if (i == 0) { /* the first id sets the numbering */
      int64_t id;
      char *q = l;
      if (field_int(&in, &q, &id, "a vertex id") < 0) {
        st = -1;
        break;
      }
      if (id != 0 && id != 1) {
        st = fal_input_error(&in, "the first vertex is numbered 0 or 1, not %lld",
                             (long long)id);
        break;
      }
      m->base = (int)id;
    }
    double v;
    if (row_id(&in, &l, i + m->base, "vertex") < 0 ||
        field_real(&in, &l, &m->x[i], "an x coordinate") < 0 ||
        field_real(&in, &l, &m->y[i], "a y coordinate") < 0) {
      st = -1;
      break;
    }
    for (int64_t k = 0; st == 0 && k < h[2] + h[3]; k++)
      if (field_real(&in, &l, &v, k < h[2] ? "an attribute" : "a boundary marker") < 0)
        st = -1;
    if (st == 0 && row_end(&in, l, "vertex's fields") < 0)
      st = -1;
  }
  if (st == 0)
    st = end_of_rows(&in, "vertices", h[0]);
  fal_input_close(&in);
  return st;
}

static int read_ele(fal_mesh *m, const char *path)
{
  fal_input in;
  if (fal_input_open(&in, path) < 0)
    return -1;
  int64_t h[3];
  int st = header(&in, h, 1, 3, ".ele");
  if (st == 0 && (h[0] < 1 || h[0] > MESH_MAX))
    st = fal_input_error(&in, "a mesh has 1 to %lld triangles, not %lld", (long long)MESH_MAX,
                         (long long)h[0]);
  else if (st == 0 && h[1] == 0)
    h[1] = 3;
  if (st == 0 && h[1] != 3 && h[1] != 6)
    st = fal_input_error(&in, "triangles have 3 or 6 nodes, not %lld", (long long)h[1]);
  else if (st == 0 && (h[2] < 0 || h[2] > 1000))
    st = fal_input_error(&in, "bad attribute count %lld", (long long)h[2]);
  if (st == 0) {
    m->ntri = h[0];
    m->tri = fal_alloc_array((size_t)h[0] * 3, sizeof *m->tri);
  }
  for (int64_t t = 0; st == 0 && t < h[0]; t++) {
    char *l = data_line(&in);
    if (!l) {
      st = in.failed ? -1 : fal_input_error(&in, "%lld triangles announced, %lld found",
                                            (long long)h[0], (long long)t);
      break;
    }
    if (row_id(&in, &l, t + m->base, "triangle") < 0) {
      st = -1;
      break;
    }
    for (int k = 0; st == 0 && k < h[1]; k++) {
      int64_t v;
      if (field_int(&in, &l, &v, "a vertex id") < 0) {
        st = -1;
      } else if (v < m->base || v >= m->npoints + m->base) {
        st = fal_input_error(&in, "vertex %lld is not in the .node file (%lld..%lld)",
                             (long long)v, (long long)m->base,
                             (long long)(m->npoints + m->base - 1));
      } else if (k < 3) {
        m->tri[3 * t + k] = (int32_t)(v - m->base);
      }
    }
    double a;
    for (int64_t k = 0; st == 0 && k < h[2]; k++)
      if (field_real(&in, &l, &a, "an attribute") < 0)
        st = -1;
    if (st == 0 && row_end(&in, l, "triangle's fields") < 0)
      st = -1;
    if (st)
      break;
    const int32_t *v = &m->tri[3 * t];
    double o = (m->x[v[1]] - m->x[v[0]]) * (m->y[v[2]] - m->y[v[0]]) -
               (m->y[v[1]] - m->y[v[0]]) * (m->x[v[2]] - m->x[v[0]]);
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2] || o == 0)
      st = fal_input_error(&in, "triangle %lld is degenerate", (long long)(t + m->base));
    else if (o < 0)
      st = fal_input_error(&in, "triangle %lld is not counterclockwise",
                           (long long)(t + m->base));
  }
  if (st == 0)
    st = end_of_rows(&in, "triangles", h[0]);
  fal_input_close(&in);
  return st;
}

/* Half edge a -> b of triangle t, opposite its vertex k. */
typedef struct half {
  int32_t lo, hi, t, k;
} half;

static int half_cmp(const void *pa, const void *pb)
{
  const half *a = pa, *b = pb;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi)
    return a->hi < b->hi ? -1 : 1;
  return a->t < b->t ? -1 : a->t > b->t;
}

/* The neighbours from the triangles: the two half edges of an interior
 * edge sort next to each other.  -1 if an edge has three triangles or
 * two with the same orientation (a fold). */
static int compute_neighbours(fal_mesh *m, const char *path)
{
  int64_t n = m->ntri * 3;
  half *h = fal_alloc_array((size_t)n, sizeof *h);
  m->nbr = fal_alloc_array((size_t)n, sizeof *m->nbr);
  for (int64_t t = 0; t < m->ntri; t++)
    for (int k = 0; k < 3; k++) {
      int32_t a = m->tri[3 * t + (k + 1) % 3], b = m->tri[3 * t + (k + 2) % 3];
      h[3 * t + k] = (half){a < b ? a : b, a < b ? b : a, (int32_t)t, k};
      m->nbr[3 * t + k] = -1;
    }
  qsort(h, (size_t)n, sizeof *h, half_cmp);
  int st = 0;
  for (int64_t i = 0; i < n && st == 0;) {
    int64_t j = i + 1;
    while (j < n && h[j].lo == h[i].lo && h[j].hi == h[i].hi)
      j++;
    if (j - i > 2) {
      fprintf(stderr, "%s: error: edge %lld-%lld belongs to %lld triangles\n", path,
              (long long)(h[i].lo + m->base), (long long)(h[i].hi + m->base),
              (long long)(j - i));
      st = -1;
    } else if (j - i == 2) {
      const half *a = &h[i], *b = &h[i + 1];
      /* the shared edge runs opposite ways in the two triangles */
      if (m->tri[3 * a->t + (a->k + 1) % 3] == m->tri[3 * b->t + (b->k + 1) % 3]) {
        fprintf(stderr, "%s: error: triangles %lld and %lld overlap on edge %lld-%lld\n",
                path, (long long)(a->t + m->base), (long long)(b->t + m->base),
                (long long)(a->lo + m->base), (long long)(a->hi + m->base));
        st = -1;
      }
      m->nbr[3 * a->t + a->k] = b->t;
      m->nbr[3 * b->t + b->k] = a->t;
    }
    i = j;
  }
  fal_free(h);
  return st;
}

static int read_neigh(fal_mesh *m, const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return errno == ENOENT ? 0 : (fprintf(stderr, "%s: error: cannot open: %s\n", path,
                                          strerror(errno)), -1);
  fclose(f);
  fal_input in;
  if (fal_input_open(&in, path) < 0)
    return -1;
  int64_t h[2];
  int st = header(&in, h, 1, 2, ".neigh");
  if (st == 0 && h[0] != m->ntri)
    st = fal_input_error(&in, "%lld triangles, the .ele file has %lld", (long long)h[0],
                         (long long)m->ntri);
  else if (st == 0 && h[1] != 3 && h[1] != 0)
    st = fal_input_error(&in, "3 neighbours per triangle, not %lld", (long long)h[1]);
  for (int64_t t = 0; st == 0 && t < m->ntri; t++) {
    char *l = data_line(&in);
    if (!l) {
      st = in.failed ? -1 : fal_input_error(&in, "%lld triangles announced, %lld found",
                                            (long long)m->ntri, (long long)t);
      break;
    }
    if (row_id(&in, &l, t + m->base, "triangle") < 0) {
      st = -1;
      break;
    }
    for (int k = 0; st == 0 && k < 3; k++) {
      int64_t v;
      if (field_int(&in, &l, &v, "a neighbour") < 0) {
        st = -1;
        break;
      }
      int64_t want = m->nbr[3 * t + k];
      int64_t got = v < 0 ? -1 : v - m->base;
      if (got != want)
        st = fal_input_error(&in, "neighbour %d of triangle %lld is %lld, but the "
                             "triangle across that edge is %lld", k,
                             (long long)(t + m->base), (long long)v,
                             (long long)(want < 0 ? -1 : want + m->base));
    }
    if (st == 0 && row_end(&in, l, "neighbours") < 0)
      st = -1;
  }
  if (st == 0)
    st = end_of_rows(&in, "triangles", m->ntri);
  fal_input_close(&in);
  return st;
}

int fal_mesh_read(fal_mesh *m, const char *base)
{
  memset(m, 0, sizeof *m);
  size_t n = strlen(base);
  char *b = path_of(base, "");
  if (n > 5 && strcmp(b + n - 5, ".node") == 0)
    b[n - 5] = '\0';
  char *pn = path_of(b, ".node"), *pe = path_of(b, ".ele"), *pg = path_of(b, ".neigh");
  int st = read_node(m, pn);
  if (st == 0)
    st = read_ele(m, pe);
  if (st == 0)
    st = compute_neighbours(m, pe);
  if (st == 0)
    st = read_neigh(m, pg);
  fal_free(b);
  fal_free(pn);
  fal_free(pe);
  fal_free(pg);
  if (st)
    fal_mesh_free(m);
  return st;
}

void fal_mesh_alloc(fal_mesh *m, int64_t npoints, int64_t ntri)
{
  m->npoints = npoints;
  m->ntri = ntri;
  m->x = fal_calloc((size_t)npoints + 1, sizeof *m->x);
  m->y = fal_calloc((size_t)npoints + 1, sizeof *m->y);
  m->tri = fal_calloc((size_t)ntri * 3 + 1, sizeof *m->tri);
  m->nbr = fal_calloc((size_t)ntri * 3 + 1, sizeof *m->nbr);
}

void fal_mesh_free(fal_mesh *m)
{
  fal_free(m->x);
  fal_free(m->y);
  fal_free(m->tri);
  fal_free(m->nbr);
  memset(m, 0, sizeof *m);
}

static int write_close(FILE *f, const char *path)
{
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

int fal_mesh_write(const fal_mesh *m, const char *base)
{
  char *p[3] = {path_of(base, ".node"), path_of(base, ".ele"), path_of(base, ".neigh")};
  int st = 0;
  for (int k = 0; k < 3 && st == 0; k++) {
    FILE *f = fopen(p[k], "w");
    if (!f) {
      fprintf(stderr, "%s: error: cannot create: %s\n", p[k], strerror(errno));
      st = -1;
      break;
    }
    int b = m->base;
    if (k == 0) {
      fprintf(f, "%lld 2 0 0\n", (long long)m->npoints);
      for (int64_t i = 0; i < m->npoints; i++)
        fprintf(f, "%lld %.17g %.17g\n", (long long)(i + b), m->x[i], m->y[i]);
    } else {
      fprintf(f, k == 1 ? "%lld 3 0\n" : "%lld 3\n", (long long)m->ntri);
      const int32_t *a = k == 1 ? m->tri : m->nbr;
      for (int64_t t = 0; t < m->ntri; t++) {
        fprintf(f, "%lld", (long long)(t + b));
        for (int i = 0; i < 3; i++)
          fprintf(f, " %lld", (long long)(a[3 * t + i] < 0 ? -1 : a[3 * t + i] + b));
        fputc('\n', f);
      }
    }
    st = write_close(f, p[k]);
  }
  for (int k = 0; k < 3; k++)
    fal_free(p[k]);
  return st;
}
