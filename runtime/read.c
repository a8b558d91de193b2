/*
 * read.c: fal_graph_read, format detection and the text formats of §9
 * (Falcon edge-list text, SNAP, DIMACS 9th challenge, PACE, Matrix
 * Market).  The binary formats are in binary.c.
 *
 * Detection looks at the decoded content, not the file name: "FALCSR" or
 * a Galois version word starts a binary file; "%%MatrixMarket" starts a
 * Matrix Market file; otherwise the first line that is not a comment
 * decides: `p sp` DIMACS, `p tw` PACE, numbers an edge list.  An edge list
 * whose first line is exactly two integers `n m` followed by exactly m
 * edge lines is Falcon text; any other is SNAP (n = largest id + 1).
 *
 * Lines are parsed in place by hand (no scanf): road-FLA's 2.7 million
 * lines take a fraction of a second, most of it in the xz decoder.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest point id: npoints must fit a fal_point. */
#define MAX_POINT_ID ((int64_t)INT32_MAX - 1)

/* ---- fields of a line ------------------------------------------------------ */

static int is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static const char *skip_blanks(const char *p, const char *end)
{
  while (p < end && is_blank(*p))
    p++;
  return p;
}

/* Reports the field at p as not what was expected. */
static int bad_field(fal_input *in, const char *p, const char *end,
                     const char *expected)
{
  int n = 0;
  while (p + n < end && p[n] != '\0' && !is_blank(p[n]) && n < 24)
    n++;
  if (p + n < end && p[n] == '\0')
    return fal_input_error(in, "unexpected NUL byte in a text file");
  return fal_input_error(in, "expected %s, found '%.*s'", expected, n, p);
}

enum { FIELD_OK, FIELD_NONE, FIELD_BAD };

/* Reads a decimal integer at *pp (after blanks) into *v and moves *pp
 * past it.  FIELD_NONE at the end of the line; FIELD_BAD (reported) when
 * the field is not an integer or does not fit 64 bits. */
static int next_int(fal_input *in, const char **pp, const char *end,
                    int64_t *v)
{
  const char *p = skip_blanks(*pp, end), *start = p;
  if (p == end)
    return FIELD_NONE;
  int neg = *p == '-';
  if (*p == '-' || *p == '+')
    p++;
  if (p == end || *p < '0' || *p > '9') {
    bad_field(in, start, end, "an integer");
    return FIELD_BAD;
  }
  int64_t x = 0;
  for (; p < end && *p >= '0' && *p <= '9'; p++) {
    int d = *p - '0';
    if (x > (INT64_MAX - d) / 10) {
      bad_field(in, start, end, "a number that fits 64 bits");
      return FIELD_BAD;
    }
    x = x * 10 + d;
  }
  if (p < end && !is_blank(*p)) {
    bad_field(in, start, end, "an integer");
    return FIELD_BAD;
  }
  *v = neg ? -x : x;
  *pp = p;
  return FIELD_OK;
}

/* Parses up to max integers of [p, end) into v.  Returns how many, or -1
 * after an error (a bad field, or more than max fields: `form` names what
 * the line should look like). */
static int line_ints(fal_input *in, const char *p, const char *end,
                     int64_t *v, int max, const char *form)
{
  int n = 0;
  for (;;) {
    int64_t x;
    int r = next_int(in, &p, end, &x);
    if (r == FIELD_NONE)
      return n;
    if (r == FIELD_BAD)
      return -1;
    if (n == max) {
      fal_input_error(in, "too many fields: expected '%s'", form);
      return -1;
    }
    v[n++] = x;
  }
}

/* Whether a line whose first non-blank character is c is a comment. */
static int is_comment(char c, const char *comments)
{
  return c != '\0' && strchr(comments, c) != NULL;
}

/* The next line that is not blank and does not start with one of the
 * comment characters in `comments`; NULL at the end of the input. */
static char *next_data_line(fal_input *in, char **end, const char *comments)
{
  char *line;
  while ((line = fal_input_line(in, end))) {
    const char *p = skip_blanks(line, *end);
    if (p < *end && !is_comment(*p, comments))
      return line;
  }
  return NULL;
}

/* ---- checking values ------------------------------------------------------------ */

/* Turns a point id of a `base`-based format into a 0-based fal_point.
 * n < 0: no declared count (SNAP), only the fal_point limit applies. */
static int check_id(fal_input *in, int64_t id, int base, int64_t n,
                    fal_point *out)
{
  if (id < 0)
    return fal_input_error(in, "negative point id %lld", (long long)id);
  if (n >= 0 && (id < base || id - base >= n))
    return fal_input_error(in, "point id %lld out of range (%d..%lld)",
                           (long long)id, base, (long long)(n - 1 + base));
  if (id < base)
    return fal_input_error(in, "point id %lld out of range (ids start at %d)",
                           (long long)id, base);
  if (id - base > MAX_POINT_ID)
    return fal_input_error(in, "point id %lld too large (at most %lld points)",
                           (long long)id, (long long)MAX_POINT_ID + 1);
  *out = (fal_point)(id - base);
  return 0;
}

static int check_weight(fal_input *in, int64_t w, fal_weight *out)
{
  if (w < INT32_MIN || w > INT32_MAX)
    return fal_input_error(in, "weight %lld out of range (32-bit)", (long long)w);
  *out = (fal_weight)w;
  return 0;
}

/* Checks the point and edge counts of a header line. */
static int check_counts(fal_input *in, int64_t n, int64_t m)
{
  if (n < 0 || m < 0)
    return fal_input_error(in, "negative count in the header");
  if (n > MAX_POINT_ID + 1)
    return fal_input_error(in, "too many points (%lld; at most %lld)",
                           (long long)n, (long long)MAX_POINT_ID + 1);
  return 0;
}

/* Pushes edge (s, d, w), all checked; base and n as for check_id. */
static int add_edge(fal_input *in, fal_edge_list *l, int64_t s, int64_t d,
                    int64_t w, int base, int64_t n)
{
  fal_point ps = 0, pd = 0;
  fal_weight pw = 0;
  if (check_id(in, s, base, n, &ps) || check_id(in, d, base, n, &pd) ||
      check_weight(in, w, &pw))
    return -1;
  fal_edge_list_push(l, ps, pd, pw);
  return 0;
}

/* A first guess of the edge count, for the first allocation only: a
 * header may lie, so at most 2^20 edges are reserved on its word (the
 * list doubles as needed after that). */
static void reserve_edges(fal_edge_list *l, int64_t m)
{
  while (l->cap < m && l->cap < (1 << 20))
    fal_edge_list_grow(l);
}

static int count_mismatch(fal_input *in, const char *what, int64_t want,
                          int64_t got)
{
  return fal_input_error(in, "%s announces %lld edges, the file has %lld",
                         what, (long long)want, (long long)got);
}

static int too_many_edges(fal_input *in, const char *what, int64_t want)
{
  return fal_input_error(in, "more edges than the %lld that %s announces",
                         (long long)want, what);
}

/* ---- Falcon edge-list text and SNAP -------------------------------------------- */

/* The state of an edge list whose first line may be a Falcon header. */
typedef struct edge_list_text {
  int header;          /* the first line is two non-negative integers */
  int64_t hn, hm;      /* its numbers */
  int64_t header_line;
  int64_t lines;       /* edge lines after the first line */
  int64_t max_id;      /* the largest id seen */
  int64_t over_line;   /* first line with an id >= hn (0: none) */
  int64_t over_id;
} edge_list_text;

/* One edge line `src dst [weight]`, 0-based, ids bounded only by the
 * fal_point range until the format is known. */
static int edge_line(fal_input *in, edge_list_text *t, fal_edge_list *l,
                     const char *p, const char *end)
{
  int64_t v[3] = {0, 0, 1};
  int k = line_ints(in, p, end, v, 3, "src dst [weight]");
  if (k < 0)
    return -1;
  if (k < 2)
    return fal_input_error(in, "expected 'src dst [weight]'");
  if (add_edge(in, l, v[0], v[1], v[2], 0, -1))
    return -1;
  int64_t big = v[0] > v[1] ? v[0] : v[1];
  if (big > t->max_id)
    t->max_id = big;
  if (t->header && big >= t->hn && !t->over_line) {
    t->over_line = in->line;
    t->over_id = big;
  }
  t->lines++;
  return 0;
}

/* The first data line: a Falcon header `n m`, or (SNAP) an edge. */
static int first_line(fal_input *in, edge_list_text *t, fal_edge_list *l,
                      const char *line, const char *end, fal_format format)
{
  int64_t v[3];
  int k = line_ints(in, line, end, v, 3, "src dst [weight]");
  if (k < 0)
    return -1;
  t->header = k == 2 && v[0] >= 0 && v[1] >= 0 && format != FAL_FORMAT_SNAP;
  t->header_line = in->line;
  if (t->header) {
    t->hn = v[0];
    t->hm = v[1];
    reserve_edges(l, t->hm);
    return 0;
  }
  if (format == FAL_FORMAT_FALCON_TEXT)
    return fal_input_error(in, "expected the header 'npoints nedges'");
  t->lines = -1; /* this line is an edge, counted by edge_line */
  return edge_line(in, t, l, line, end);
}

/* Once all lines are read: Falcon text or SNAP, and the checks each
 * needs.  Returns the number of points or -1. */
static int64_t finish_edge_list(fal_input *in, edge_list_text *t,
                                fal_edge_list *l, fal_format format)
{
  int falcon = t->header && (format == FAL_FORMAT_FALCON_TEXT ||
                             t->lines == t->hm);
  if (falcon) {
    if (t->lines != t->hm)
      return count_mismatch(in, "the header", t->hm, t->lines);
    in->line = t->header_line;
    if (check_counts(in, t->hn, t->hm))
      return -1;
    if (t->over_line) {
      in->line = t->over_line;
      return check_id(in, t->over_id, 0, t->hn, &(fal_point){0});
    }
    return t->hn;
  }
  if (t->header) { /* SNAP after all: the first line is an edge */
    in->line = t->header_line;
    if (add_edge(in, l, t->hn, t->hm, 1, 0, -1))
      return -1;
    if (t->hn > t->max_id)
      t->max_id = t->hn;
    if (t->hm > t->max_id)
      t->max_id = t->hm;
  }
  return t->max_id + 1;
}

static int read_edge_list(fal_graph *g, fal_input *in, char *line, char *end,
                          fal_format format)
{
  edge_list_text t = {0};
  fal_edge_list l = {0};
  t.max_id = -1;
  if (first_line(in, &t, &l, line, end, format))
    goto fail;
  while ((line = next_data_line(in, &end, "#%")))
    if (edge_line(in, &t, &l, line, end))
      goto fail;
  if (in->failed)
    goto fail;
  int64_t n = finish_edge_list(in, &t, &l, format);
  if (n < 0 || fal_check_graph_bytes(in, n, l.n, 1))
    goto fail;
  fal_graph_from_edges(g, n, &l, 1);
  return 0;
fail:
  fal_edge_list_free(&l);
  return -1;
}

/* ---- DIMACS (`p sp n m`, `a u v w`) and PACE (`p tw n m`, `u v`) ----------- */

/* Parses the problem line `p KIND n m`. */
static int problem_line(fal_input *in, const char *p, const char *end,
                        const char *kind, int64_t *n, int64_t *m)
{
  size_t klen = strlen(kind);
  const char *line = p;
  p = skip_blanks(p, end);
  if (*p == 'p' && is_blank(p[1]))
    p = skip_blanks(p + 1, end);
  else
    return fal_input_error(in, "expected the problem line 'p %s n m'", kind);
  if (strncmp(p, kind, klen) != 0 || !(is_blank(p[klen]) || p + klen == end))
    return fal_input_error(in, "expected 'p %s n m', found '%.30s'", kind,
                           line);
  int64_t v[2];
  int k = line_ints(in, p + klen, end, v, 2, "p sp n m");
  if (k < 0)
    return -1;
  if (k != 2)
    return fal_input_error(in, "expected 'p %s n m'", kind);
  *n = v[0];
  *m = v[1];
  return check_counts(in, *n, *m);
}

/* One arc `a u v w` (DIMACS) or edge `u v [w]` (PACE), 1-based. */
static int dimacs_line(fal_input *in, fal_edge_list *l, const char *p,
                       const char *end, int pace, int64_t n)
{
  const char *form = pace ? "u v" : "a u v w";
  p = skip_blanks(p, end);
  if (!pace) {
    if (*p != 'a' || !is_blank(p[1])) {
      if (*p == 'p')
        return fal_input_error(in, "a second problem line");
      return bad_field(in, p, end, "an arc 'a u v w'");
    }
    p++;
  }
  int64_t v[3] = {0, 0, 1};
  int k = line_ints(in, p, end, v, 3, form);
  if (k < 0)
    return -1;
  if (k < 2)
    return fal_input_error(in, "expected '%s'", form);
  return add_edge(in, l, v[0], v[1], v[2], 1, n);
}

static int read_dimacs(fal_graph *g, fal_input *in, char *line, char *end,
                       int pace)
{
  int64_t n = 0, m = 0;
  fal_edge_list l = {0};
  const char *what = pace ? "the 'p tw' line" : "the 'p sp' line";
  if (problem_line(in, line, end, pace ? "tw" : "sp", &n, &m))
    return -1;
  reserve_edges(&l, m);
  while ((line = next_data_line(in, &end, "c"))) {
    if (l.n == m) {
      too_many_edges(in, what, m);
      goto fail;
    }
    if (dimacs_line(in, &l, line, end, pace, n))
      goto fail;
  }
  if (in->failed)
    goto fail;
  if (l.n != m) {
    count_mismatch(in, what, m, l.n);
    goto fail;
  }
  if (fal_check_graph_bytes(in, n, pace ? 2 * l.n : l.n, 1))
    goto fail;
  fal_graph_from_edges(g, n, &l, !pace);
  return 0;
fail:
  fal_edge_list_free(&l);
  return -1;
}

/* ---- Matrix Market --------------------------------------------------------------- */

typedef enum mtx_field { MTX_PATTERN, MTX_INTEGER, MTX_REAL } mtx_field;

/* Copies the next blank-separated word, lower-cased, into w. */
static const char *next_word(const char *p, const char *end, char *w,
                             size_t cap)
{
  size_t n = 0;
  p = skip_blanks(p, end);
  for (; p < end && !is_blank(*p); p++)
    if (n + 1 < cap)
      w[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
  w[n] = '\0';
  return p;
}

/* `%%MatrixMarket matrix coordinate FIELD SYMMETRY` */
static int mtx_banner(fal_input *in, const char *p, const char *end,
                      mtx_field *field, int *symmetric)
{
  char w[4][32];
  p = next_word(p + strlen("%%MatrixMarket"), end, w[0], sizeof w[0]);
  for (int i = 1; i < 4; i++)
    p = next_word(p, end, w[i], sizeof w[i]);
  if (strcmp(w[0], "matrix") != 0)
    return fal_input_error(in, "expected '%%%%MatrixMarket matrix ...'");
  if (strcmp(w[1], "coordinate") != 0)
    return fal_input_error(in, "unsupported Matrix Market format '%s' "
                           "(graphs are 'coordinate' matrices)", w[1]);
  if (strcmp(w[2], "pattern") == 0)
    *field = MTX_PATTERN;
  else if (strcmp(w[2], "integer") == 0)
    *field = MTX_INTEGER;
  else if (strcmp(w[2], "real") == 0 || strcmp(w[2], "double") == 0)
    *field = MTX_REAL;
  else
    return fal_input_error(in, "unsupported Matrix Market field '%s' "
                           "(pattern, integer or real)", w[2]);
  *symmetric = strcmp(w[3], "symmetric") == 0;
  if (!*symmetric && strcmp(w[3], "general") != 0)
    return fal_input_error(in, "unsupported Matrix Market symmetry '%s' "
                           "(general or symmetric)", w[3]);
  return 0;
}

/* A real value rounded to the nearest integer weight. */
static int mtx_real(fal_input *in, const char *p, const char *end,
                    int64_t *v)
{
  p = skip_blanks(p, end);
  if (p == end)
    return fal_input_error(in, "expected 'i j value'");
  char *after;
  double x = strtod(p, &after);
  if (after == p || (after < end && !is_blank(*after)))
    return bad_field(in, p, end, "a real value");
  if (!(x > INT32_MIN - 0.5 && x < INT32_MAX + 0.5))
    return fal_input_error(in, "weight %.24s out of range (32-bit)", p);
  *v = (int64_t)llround(x);
  if (skip_blanks(after, end) != end)
    return fal_input_error(in, "too many fields: expected 'i j value'");
  return 0;
}

/* An integer field the line cannot do without. */
static int required_int(fal_input *in, const char **p, const char *end,
                        int64_t *v, const char *form)
{
  int r = next_int(in, p, end, v);
  if (r == FIELD_NONE)
    return fal_input_error(in, "expected '%s'", form);
  return r == FIELD_OK ? 0 : -1;
}

/* One entry `i j [value]`, 1-based. */
static int mtx_entry(fal_input *in, fal_edge_list *l, const char *p,
                     const char *end, mtx_field field, int64_t n)
{
  const char *form = field == MTX_PATTERN ? "i j" : "i j value";
  int64_t i, j, w = 1;
  if (required_int(in, &p, end, &i, form) || required_int(in, &p, end, &j, form))
    return -1;
  if (field == MTX_REAL) {
    if (mtx_real(in, p, end, &w))
      return -1;
  } else {
    if (field == MTX_INTEGER && required_int(in, &p, end, &w, form))
      return -1;
    if (skip_blanks(p, end) != end)
      return fal_input_error(in, "too many fields: expected '%s'", form);
  }
  return add_edge(in, l, i, j, w, 1, n);
}

/* The size line `rows cols entries`; the graph has max(rows, cols)
 * points. */
static int mtx_size(fal_input *in, int64_t *n, int64_t *nnz)
{
  char *line, *end;
  int64_t v[3];
  if (!(line = next_data_line(in, &end, "%")))
    return in->failed ? -1 : fal_input_error(in, "missing the size line 'rows cols entries'");
  int k = line_ints(in, line, end, v, 3, "rows cols entries");
  if (k < 0)
    return -1;
  if (k != 3)
    return fal_input_error(in, "expected the size line 'rows cols entries'");
  *n = v[0] > v[1] ? v[0] : v[1];
  *nnz = v[2];
  if (v[0] < 0 || v[1] < 0)
    return fal_input_error(in, "negative matrix size");
  return check_counts(in, *n, *nnz);
}

static int read_mtx(fal_graph *g, fal_input *in, char *line, char *end)
{
  mtx_field field = MTX_PATTERN;
  int symmetric = 0;
  int64_t n = 0, nnz = 0;
  fal_edge_list l = {0};
  if (mtx_banner(in, line, end, &field, &symmetric) || mtx_size(in, &n, &nnz))
    return -1;
  reserve_edges(&l, nnz);
  while ((line = next_data_line(in, &end, "%"))) {
    if (l.n == nnz) {
      too_many_edges(in, "the size line", nnz);
      goto fail;
    }
    if (mtx_entry(in, &l, line, end, field, n))
      goto fail;
  }
  if (in->failed)
    goto fail;
  if (l.n != nnz) {
    count_mismatch(in, "the size line", nnz, l.n);
    goto fail;
  }
  if (fal_check_graph_bytes(in, n, symmetric ? 2 * l.n : l.n, 1))
    goto fail;
  fal_graph_from_edges(g, n, &l, !symmetric);
  return 0;
fail:
  fal_edge_list_free(&l);
  return -1;
}

/* ---- text: which format ------------------------------------------------------------ */

static int starts_with(const char *s, const char *prefix)
{
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *format_name(fal_format f)
{
  switch (f) {
  case FAL_FORMAT_FALCON_TEXT: return "Falcon edge-list text";
  case FAL_FORMAT_SNAP: return "SNAP text";
  case FAL_FORMAT_DIMACS: return "DIMACS (p sp)";
  case FAL_FORMAT_PACE: return "PACE (p tw)";
  case FAL_FORMAT_MTX: return "Matrix Market";
  case FAL_FORMAT_GALOIS_GR: return "Galois binary .gr";
  case FAL_FORMAT_FALCON_BIN: return "Falcon binary CSR";
  case FAL_FORMAT_AUTO: break;
  }
  return "any format";
}

/* The format a text file's first data line announces. */
static fal_format text_format(const char *line, const char *end)
{
  const char *p = skip_blanks(line, end);
  if (p[0] == 'p' && is_blank(p[1])) {
    p = skip_blanks(p + 1, end);
    if (starts_with(p, "tw") && (is_blank(p[2]) || p + 2 == end))
      return FAL_FORMAT_PACE;
    return FAL_FORMAT_DIMACS;
  }
  return FAL_FORMAT_SNAP; /* or Falcon text: read_edge_list tells */
}

static int read_text(fal_graph *g, fal_input *in, fal_format format)
{
  char *end, *line = fal_input_line(in, &end);
  if (!line)
    return in->failed ? -1 : fal_input_error(in, "empty file");
  if (starts_with(line, "%%MatrixMarket")) {
    if (format != FAL_FORMAT_AUTO && format != FAL_FORMAT_MTX)
      return fal_input_error(in, "a Matrix Market file, not %s", format_name(format));
    return read_mtx(g, in, line, end);
  }
  if (format == FAL_FORMAT_MTX)
    return fal_input_error(in, "expected the '%%%%MatrixMarket' banner");
  const char *p = skip_blanks(line, end);
  if (p == end || is_comment(*p, "#%c"))
    line = next_data_line(in, &end, "#%c");
  if (!line)
    return in->failed ? -1 : fal_input_error(in, "no graph in the file (only comments)");
  fal_format found = text_format(line, end);
  if (format == FAL_FORMAT_AUTO && found != FAL_FORMAT_SNAP)
    format = found;
  if (format == FAL_FORMAT_DIMACS || format == FAL_FORMAT_PACE)
    return read_dimacs(g, in, line, end, format == FAL_FORMAT_PACE);
  if (found != FAL_FORMAT_SNAP)
    return fal_input_error(in, "a %s file, not %s", format_name(found),
                           format_name(format));
  return read_edge_list(g, in, line, end, format); /* AUTO, SNAP or Falcon */
}

/* ---- entry point ---------------------------------------------------------------------- */

/* Binary or text, by the first decoded bytes.  Returns the format
 * (FAL_FORMAT_AUTO: some text format) or -1. */
static int detect(fal_input *in)
{
  size_t n = fal_input_peek(in, 512);
  const unsigned char *b = (const unsigned char *)in->buf + in->pos;
  if (in->failed)
    return -1;
  if (n >= 6 && memcmp(b, "FALCSR", 6) == 0)
    return FAL_FORMAT_FALCON_BIN;
  if (n >= 8 && b[0] != 0 && !b[1] && !b[2] && !b[3] && !b[4] && !b[5] &&
      !b[6] && !b[7])
    return FAL_FORMAT_GALOIS_GR; /* a small little-endian version word */
  if (memchr(b, 0, n))
    return fal_input_error(in, "unrecognised binary data (neither a Falcon "
                           "binary CSR nor a Galois .gr file)");
  return FAL_FORMAT_AUTO;
}

int fal_graph_read(fal_graph *g, const char *path, fal_format format)
{
  fal_input in;
  int r = -1;
  memset(g, 0, sizeof *g);
  if (fal_input_open(&in, path))
    return -1;
  int found = format == FAL_FORMAT_AUTO ? detect(&in) : (int)format;
  if (found == FAL_FORMAT_FALCON_BIN)
    r = fal_graph_read_bin(g, &in);
  else if (found == FAL_FORMAT_GALOIS_GR)
    r = fal_graph_read_galois(g, &in);
  else if (found >= 0)
    r = read_text(g, &in, (fal_format)found);
  fal_input_close(&in);
  if (r != 0)
    fal_graph_free(g);
  return r;
}
