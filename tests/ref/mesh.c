/*
 * mesh.c (falmesh): the input and the checker of Delaunay mesh refinement
 * (samples/dmr.fal), independent of falconc and of the runtime's reader.
 *
 *   falmesh gen K SEED BASE     a Delaunay mesh of the unit square: a K x K
 *                               grid of cells, interior points jittered,
 *                               each cell split along a diagonal, then
 *                               edges flipped until every edge is locally
 *                               Delaunay (Lawson).  Writes BASE.node,
 *                               BASE.ele, BASE.neigh (Triangle's formats,
 *                               numbered from 1).
 *   falmesh check IN OUT ANGLE  OUT (a refined mesh) is valid for IN:
 *                               - IN's vertices come first in OUT, unchanged;
 *                               - every triangle is counterclockwise with
 *                                 positive area, every vertex is used;
 *                               - OUT.neigh equals the neighbours computed
 *                                 from the triangles (each interior edge has
 *                                 exactly two triangles, opposite ways);
 *                               - the area and the boundary length equal IN's
 *                                 and T = 2V - B - 2 (a disk);
 *                               - no triangle has an angle below ANGLE
 *                                 degrees (the quality bound);
 *                               - every interior edge is locally Delaunay.
 *   falmesh stats BASE          vertices, triangles, smallest angle, and the
 *                               triangles below 20, 25, 30 degrees.
 *
 * Exit status: 0 ok, 1 a check failed, 2 usage or unreadable input.
 */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Mesh {
  long n, t;
  double *x, *y;
  long *v;   /* 3 per triangle, 0-based */
  long *nb;  /* 3 per triangle, -1 boundary */
} Mesh;

static _Noreturn void die(const char *fmt, const char *arg)
{
  fprintf(stderr, "falmesh: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(2);
}

static void *xcalloc(size_t n, size_t s)
{
  void *p = calloc(n ? n : 1, s);
  if (!p)
    die("%s", "out of memory");
  return p;
}

/* ---- reading (numbers only; '#' comments) -------------------------------- */

typedef struct In {
  FILE *f;
  const char *path;
} In;

static int next_num(In *in, double *v)
{
  int c;
  for (;;) {
    c = getc(in->f);
    if (c == '#')
      while (c != '\n' && c != EOF)
        c = getc(in->f);
    if (c == EOF)
      return 0;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      break;
  }
  ungetc(c, in->f);
  if (fscanf(in->f, "%lf", v) != 1)
    die("%s: not a number", in->path);
  return 1;
}

/* The rest of the line is skipped (attributes, markers). */
static void skip_line(In *in)
{
  int c;
  while ((c = getc(in->f)) != '\n' && c != EOF)
    ;
}

static double num(In *in)
{
  double v;
  if (!next_num(in, &v))
    die("%s: unexpected end of file", in->path);
  return v;
}

static void open_in(In *in, const char *base, const char *ext, char *buf, size_t n)
{
  snprintf(buf, n, "%s%s", base, ext);
  in->path = buf;
  in->f = fopen(buf, "r");
  if (!in->f)
    die("cannot open %s", buf);
}

static void read_mesh(Mesh *m, const char *base)
{
  char path[4096];
  In in;
  open_in(&in, base, ".node", path, sizeof path);
  m->n = (long)num(&in);
  if (m->n < 3 || m->n > 100000000 || num(&in) != 2)
    die("%s: bad header", path);
  skip_line(&in);
  m->x = xcalloc((size_t)m->n, sizeof *m->x);
  m->y = xcalloc((size_t)m->n, sizeof *m->y);
  long b = -1;
  for (long i = 0; i < m->n; i++) {
    long id = (long)num(&in);
    if (b < 0)
      b = id;
    if (id != i + b)
      die("%s: vertex ids are not consecutive", path);
    m->x[i] = num(&in);
    m->y[i] = num(&in);
    skip_line(&in);
  }
  fclose(in.f);
  open_in(&in, base, ".ele", path, sizeof path);
  m->t = (long)num(&in);
  if (m->t < 1 || m->t > 300000000)
    die("%s: bad header", path);
  skip_line(&in);
  m->v = xcalloc((size_t)m->t * 3, sizeof *m->v);
  m->nb = xcalloc((size_t)m->t * 3, sizeof *m->nb);
  for (long i = 0; i < m->t; i++) {
    if ((long)num(&in) != i + b)
      die("%s: triangle ids are not consecutive", path);
    for (int k = 0; k < 3; k++) {
      m->v[3 * i + k] = (long)num(&in) - b;
      if (m->v[3 * i + k] < 0 || m->v[3 * i + k] >= m->n)
        die("%s: a vertex id is out of range", path);
    }
    skip_line(&in);
  }
  fclose(in.f);
  open_in(&in, base, ".neigh", path, sizeof path);
  if ((long)num(&in) != m->t)
    die("%s: not as many triangles as the .ele file", path);
  skip_line(&in);
  for (long i = 0; i < m->t; i++) {
    if ((long)num(&in) != i + b)
      die("%s: triangle ids are not consecutive", path);
    for (int k = 0; k < 3; k++) {
      long u = (long)num(&in);
      m->nb[3 * i + k] = u < 0 ? -1 : u - b;
      if (m->nb[3 * i + k] >= m->t)
        die("%s: a neighbour is out of range", path);
    }
    skip_line(&in);
  }
  fclose(in.f);
}

static void free_mesh(Mesh *m)
{
  free(m->x);
  free(m->y);
  free(m->v);
  free(m->nb);
}

static void write_mesh(const Mesh *m, const char *base)
{
  char path[4096];
  const char *ext[3] = {".node", ".ele", ".neigh"};
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s%s", base, ext[k]);
    FILE *f = fopen(path, "w");
    if (!f)
      die("cannot create %s", path);
    if (k == 0) {
      fprintf(f, "# falmesh gen: the unit square\n%ld 2 0 0\n", m->n);
      for (long i = 0; i < m->n; i++)
        fprintf(f, "%ld %.17g %.17g\n", i + 1, m->x[i], m->y[i]);
    } else {
      fprintf(f, k == 1 ? "%ld 3 0\n" : "%ld 3\n", m->t);
      const long *a = k == 1 ? m->v : m->nb;
      for (long i = 0; i < m->t; i++)
        fprintf(f, "%ld %ld %ld %ld\n", i + 1, a[3 * i] < 0 ? -1 : a[3 * i] + 1,
                a[3 * i + 1] < 0 ? -1 : a[3 * i + 1] + 1, a[3 * i + 2] < 0 ? -1 : a[3 * i + 2] + 1);
    }
    if (fclose(f) != 0)
      die("cannot write %s", path);
  }
}

/* ---- geometry ------------------------------------------------------------------ */

static double orient(const Mesh *m, long a, long b, long c)
{
  return (m->x[b] - m->x[a]) * (m->y[c] - m->y[a]) - (m->y[b] - m->y[a]) * (m->x[c] - m->x[a]);
}

/* > 0 when d is inside the circle through a, b, c (counterclockwise). */
static double incircle(const Mesh *m, long a, long b, long c, long d)
{
  double ax = m->x[a] - m->x[d], ay = m->y[a] - m->y[d];
  double bx = m->x[b] - m->x[d], by = m->y[b] - m->y[d];
  double cx = m->x[c] - m->x[d], cy = m->y[c] - m->y[d];
  return (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay) +
         (cx * cx + cy * cy) * (ax * by - bx * ay);
}

static double min_angle(const Mesh *m, long t)
{
  double best = 180;
  for (int k = 0; k < 3; k++) {
    long a = m->v[3 * t + k], b = m->v[3 * t + (k + 1) % 3], c = m->v[3 * t + (k + 2) % 3];
    double ux = m->x[b] - m->x[a], uy = m->y[b] - m->y[a];
    double vx = m->x[c] - m->x[a], vy = m->y[c] - m->y[a];
    double ang = atan2(fabs(ux * vy - uy * vx), ux * vx + uy * vy) * 180 / M_PI;
    if (ang < best)
      best = ang;
  }
  return best;
}

/* Neighbours from the triangles (a quadratic-free pass: sort half edges). */
typedef struct Half {
  long lo, hi, t, k;
} Half;

static int half_cmp(const void *pa, const void *pb)
{
  const Half *a = pa, *b = pb;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi)
    return a->hi < b->hi ? -1 : 1;
  return (a->t > b->t) - (a->t < b->t);
}

/* Fills nb; returns the number of edges with more than two triangles or
 * two triangles the same way round. */
static long neighbours(const Mesh *m, long *nb)
{
  long n = m->t * 3, bad = 0;
  Half *h = xcalloc((size_t)n, sizeof *h);
  for (long t = 0; t < m->t; t++)
    for (int k = 0; k < 3; k++) {
      long a = m->v[3 * t + (k + 1) % 3], b = m->v[3 * t + (k + 2) % 3];
      h[3 * t + k] = (Half){a < b ? a : b, a < b ? b : a, t, k};
      nb[3 * t + k] = -1;
    }
  qsort(h, (size_t)n, sizeof *h, half_cmp);
  for (long i = 0; i < n;) {
    long j = i + 1;
    while (j < n && h[j].lo == h[i].lo && h[j].hi == h[i].hi)
      j++;
    if (j - i > 2) {
      bad++;
    } else if (j - i == 2) {
      if (m->v[3 * h[i].t + (h[i].k + 1) % 3] == m->v[3 * h[i + 1].t + (h[i + 1].k + 1) % 3])
        bad++;
      nb[3 * h[i].t + h[i].k] = h[i + 1].t;
      nb[3 * h[i + 1].t + h[i + 1].k] = h[i].t;
    }
    i = j;
  }
  free(h);
  return bad;
}

/* ---- gen ------------------------------------------------------------------------ */

static uint64_t rng_state;
static double rnd(void) /* splitmix64, uniform in [0, 1) */
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* Flips the edge opposite vertex k of triangle t (with its neighbour). */
static void flip(Mesh *m, long t, int k)
{
  long u = m->nb[3 * t + k];
  int j = 0;
  while (m->nb[3 * u + j] != t)
    j++;
  long a = m->v[3 * t + k], b = m->v[3 * t + (k + 1) % 3], c = m->v[3 * t + (k + 2) % 3];
  long d = m->v[3 * u + j];
  /* t = (a, b, c), u = (d, c, b): the edge b-c becomes a-d. */
  long tb = m->nb[3 * t + (k + 2) % 3]; /* across a-b */
  long tc = m->nb[3 * t + (k + 1) % 3]; /* across c-a */
  long uc = m->nb[3 * u + (j + 2) % 3]; /* across d-c */
  long ub = m->nb[3 * u + (j + 1) % 3]; /* across b-d */
  /* new t = (a, b, d), new u = (a, d, c) */
  long *tv = &m->v[3 * t], *uv = &m->v[3 * u], *tn = &m->nb[3 * t], *un = &m->nb[3 * u];
  tv[0] = a, tv[1] = b, tv[2] = d;
  tn[0] = ub, tn[1] = u, tn[2] = tb;
  uv[0] = a, uv[1] = d, uv[2] = c;
  un[0] = uc, un[1] = tc, un[2] = t;
  /* the outer neighbours that changed side */
  for (int i = 0; ub >= 0 && i < 3; i++)
    if (m->nb[3 * ub + i] == u)
      m->nb[3 * ub + i] = t;
  for (int i = 0; tc >= 0 && i < 3; i++)
    if (m->nb[3 * tc + i] == t)
      m->nb[3 * tc + i] = u;
}

static int gen(long k, uint64_t seed, const char *base)
{
  if (k < 1 || k > 2000)
    die("%s", "gen: K must be 1..2000");
  rng_state = seed;
  Mesh m = {0};
  m.n = (k + 1) * (k + 1);
  m.t = 2 * k * k;
  m.x = xcalloc((size_t)m.n, sizeof *m.x);
  m.y = xcalloc((size_t)m.n, sizeof *m.y);
  m.v = xcalloc((size_t)m.t * 3, sizeof *m.v);
  m.nb = xcalloc((size_t)m.t * 3, sizeof *m.nb);
  double h = 1.0 / (double)k;
  /* Jitter can fold a cell (a triangle turned over): draw again. */
  for (int tries = 0;; tries++) {
    if (tries == 100)
      die("%s", "gen: no unfolded grid after 100 draws");
    for (long i = 0; i <= k; i++)
      for (long j = 0; j <= k; j++) {
        long p = i * (k + 1) + j;
        double jx = (j > 0 && j < k) ? (rnd() - 0.5) * 0.6 * h : 0;
        double jy = (i > 0 && i < k) ? (rnd() - 0.5) * 0.6 * h : 0;
        m.x[p] = (double)j * h + jx;
        m.y[p] = (double)i * h + jy;
      }
    long t = 0;
    for (long i = 0; i < k; i++)
      for (long j = 0; j < k; j++) {
        long a = i * (k + 1) + j, b = a + 1, c = a + k + 2, d = a + k + 1;
        long *v = &m.v[3 * t];
        v[0] = a, v[1] = b, v[2] = c, v[3] = a, v[4] = c, v[5] = d;
        t += 2;
      }
    int folded = 0;
    for (long i = 0; i < m.t; i++)
      folded |= orient(&m, m.v[3 * i], m.v[3 * i + 1], m.v[3 * i + 2]) <= 0;
    if (!folded)
      break;
  }
  if (neighbours(&m, m.nb) != 0)
    die("%s", "gen: internal error (bad grid)");
  /* Lawson: flip until every edge is locally Delaunay. */
  long flips = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (long i = 0; i < m.t; i++)
      for (int e = 0; e < 3; e++) {
        long u = m.nb[3 * i + e];
        if (u < 0)
          continue;
        int j = 0;
        while (m.nb[3 * u + j] != i)
          j++;
        if (incircle(&m, m.v[3 * i], m.v[3 * i + 1], m.v[3 * i + 2], m.v[3 * u + j]) > 1e-14) {
          flip(&m, i, e);
          flips++;
          changed = 1;
        }
      }
  }
  write_mesh(&m, base);
  long bad = 0;
  for (long i = 0; i < m.t; i++)
    bad += min_angle(&m, i) < 30;
  printf("falmesh: %ld points, %ld triangles, %ld flips, %ld below 30 degrees\n", m.n, m.t,
         flips, bad);
  free_mesh(&m);
  return 0;
}

/* ---- check --------------------------------------------------------------------- */

static long failures;
static void fail(const char *fmt, long a, double b)
{
  if (failures++ < 10) {
    printf("falmesh: check failed: ");
    printf(fmt, a, b);
    putchar('\n');
  }
}

static void measure(const Mesh *m, double *area, double *perimeter, long *bverts)
{
  *area = *perimeter = 0;
  char *onb = xcalloc((size_t)m->n, 1);
  for (long t = 0; t < m->t; t++) {
    *area += orient(m, m->v[3 * t], m->v[3 * t + 1], m->v[3 * t + 2]) / 2;
    for (int k = 0; k < 3; k++)
      if (m->nb[3 * t + k] < 0) {
        long a = m->v[3 * t + (k + 1) % 3], b = m->v[3 * t + (k + 2) % 3];
        *perimeter += hypot(m->x[b] - m->x[a], m->y[b] - m->y[a]);
        onb[a] = onb[b] = 1;
      }
  }
  *bverts = 0;
  for (long i = 0; i < m->n; i++)
    *bverts += onb[i];
  free(onb);
}

static int check(const char *inb, const char *outb, double bound)
{
  Mesh in, out;
  read_mesh(&in, inb);
  read_mesh(&out, outb);
  if (out.n < in.n)
    fail("the refined mesh has fewer points (%ld) than the input%.0f", out.n, 0);
  for (long i = 0; i < in.n && i < out.n; i++)
    if (in.x[i] != out.x[i] || in.y[i] != out.y[i])
      fail("input point %ld moved%.0f", i, 0);
  char *used = xcalloc((size_t)out.n, 1);
  double minang = 180;
  long below = 0;
  for (long t = 0; t < out.t; t++) {
    const long *v = &out.v[3 * t];
    if (orient(&out, v[0], v[1], v[2]) <= 0)
      fail("triangle %ld is not counterclockwise (signed area %g)", t,
           orient(&out, v[0], v[1], v[2]) / 2);
    used[v[0]] = used[v[1]] = used[v[2]] = 1;
    double a = min_angle(&out, t);
    if (a < minang)
      minang = a;
    if (a < bound - 1e-6) {
      below++;
      fail("triangle %ld is bad: smallest angle %.4f degrees", t, a);
    }
  }
  for (long i = 0; i < out.n; i++)
    if (!used[i])
      fail("point %ld is in no triangle%.0f", i, 0);
  free(used);
  long *nb = xcalloc((size_t)out.t * 3, sizeof *nb);
  long folds = neighbours(&out, nb);
  if (folds)
    fail("%ld edges have more than two triangles or two the same way round%.0f", folds, 0);
  for (long i = 0; i < out.t * 3; i++)
    if (nb[i] != out.nb[i]) {
      fail("triangle %ld: a neighbour disagrees with the triangles (%g)", i / 3,
           (double)out.nb[i]);
      break;
    }
  free(nb);
  double ain, pin, aout, pout;
  long bin, bout;
  measure(&in, &ain, &pin, &bin);
  measure(&out, &aout, &pout, &bout);
  if (fabs(aout - ain) > 1e-9 * fabs(ain))
    fail("the area changed: %ld (1 = yes), now %.15g", 1, aout);
  if (fabs(pout - pin) > 1e-9 * pin)
    fail("the boundary length changed: %ld, now %.15g", 1, pout);
  if (out.t != 2 * out.n - bout - 2)
    fail("%ld triangles, but a disk of these points has %g", out.t,
         (double)(2 * out.n - bout - 2));
  long nd = 0;
  for (long t = 0; t < out.t; t++)
    for (int k = 0; k < 3; k++) {
      long u = out.nb[3 * t + k];
      if (u < 0 || u < t)
        continue;
      for (int j = 0; j < 3; j++)
        if (out.nb[3 * u + j] == t) {
          const long *v = &out.v[3 * t];
          double s = 0;
          for (int q = 0; q < 3; q++)
            s = fmax(s, hypot(out.x[v[q]] - out.x[out.v[3 * u + j]],
                              out.y[v[q]] - out.y[out.v[3 * u + j]]));
          if (incircle(&out, v[0], v[1], v[2], out.v[3 * u + j]) > 1e-9 * s * s * s * s)
            nd++;
        }
    }
  if (nd)
    fail("%ld interior edges are not locally Delaunay%.0f", nd, 0);
  free_mesh(&in);
  free_mesh(&out);
  if (failures) {
    printf("falmesh: %ld checks failed\n", failures);
    return 1;
  }
  printf("falmesh: ok: %ld -> %ld points, %ld -> %ld triangles, area %.12g, smallest angle "
         "%.2f (bound %.2f)\n", in.n, out.n, in.t, out.t, aout, minang, bound);
  return 0;
}

static int stats(const char *base)
{
  Mesh m;
  read_mesh(&m, base);
  double minang = 180;
  long b20 = 0, b25 = 0, b30 = 0;
  for (long t = 0; t < m.t; t++) {
    double a = min_angle(&m, t);
    minang = fmin(minang, a);
    b20 += a < 20, b25 += a < 25, b30 += a < 30;
  }
  printf("%ld points, %ld triangles, smallest angle %.3f; below 20/25/30: %ld %ld %ld\n", m.n,
         m.t, minang, b20, b25, b30);
  free_mesh(&m);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc == 5 && strcmp(argv[1], "gen") == 0)
    return gen(atol(argv[2]), strtoull(argv[3], NULL, 10), argv[4]);
  if (argc == 5 && strcmp(argv[1], "check") == 0)
    return check(argv[2], argv[3], atof(argv[4]));
  if (argc == 3 && strcmp(argv[1], "stats") == 0)
    return stats(argv[2]);
  fprintf(stderr, "usage: falmesh gen K SEED BASE | check IN OUT ANGLE | stats BASE\n");
  return 2;
}
