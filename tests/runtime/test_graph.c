/*
 * test_graph.c: unit tests of libfalcon's graph runtime (falcon/graph.h).
 *
 *   test_graph GRAPHS_DIR      (GRAPHS_DIR: tests/graphs)
 *
 * The same small graph ("tiny": 7 points, 11 weighted edges, point 6
 * without out-edges) is stored under GRAPHS_DIR in every input format of
 * §9; each load is compared with the CSR written out below.  Malformed
 * files under GRAPHS_DIR/bad must fail with a `path:` message.  Then
 * round trips through the writers, sources, in-edges, the generators
 * and, when FALGRAPH names the falgraph binary, its command line.
 *
 * Prints `[PASS] name` or `[FAIL] name` per test (the reason indented
 * below a failure); exits 1 when any test failed.
 */
#include "falcon/graph.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *graphs;  /* GRAPHS_DIR */
static char tmpdir[256];    /* scratch files, removed at exit */
static char why[1024];      /* why the current test failed */
static int passed, failed;

/* Records why a test fails and makes it return 0. */
#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      snprintf(why, sizeof why, __VA_ARGS__);     \
      return 0;                                   \
    }                                             \
  } while (0)

/* Puts `context: ` before the reason already recorded; returns 0. */
static int fail_in(const char *context)
{
  char detail[sizeof why + 256];
  snprintf(detail, sizeof detail, "%s: %s", context, why[0] ? why : "failed");
  detail[sizeof why - 1] = '\0';
  strcpy(why, detail);
  return 0;
}

static void run(const char *name, int (*test)(void))
{
  why[0] = '\0';
  if (test()) {
    passed++;
    printf("[PASS] runtime: %s\n", name);
  } else {
    failed++;
    printf("[FAIL] runtime: %s\n    %s\n", name, why);
  }
  fflush(stdout);
}

/* A path under GRAPHS_DIR or the scratch directory (one of a few
 * rotating buffers, so that several may be alive at once). */
static const char *path_in(const char *dir, const char *name)
{
  static char bufs[8][512];
  static int next;
  char *b = bufs[next++ % 8];
  snprintf(b, sizeof bufs[0], "%s/%s", dir, name);
  return b;
}

static const char *graph_path(const char *name) { return path_in(graphs, name); }
static const char *tmp_path(const char *name) { return path_in(tmpdir, name); }

static int write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return 0;
  fputs(text, f);
  return fclose(f) == 0;
}

/* ---- capturing stderr -------------------------------------------------------- */

static int saved_stderr = -1;

static void capture_begin(void)
{
  fflush(stderr);
  int fd = open(tmp_path("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  saved_stderr = dup(2);
  dup2(fd, 2);
  close(fd);
}

/* Restores stderr and returns what was written to it. */
static const char *capture_end(void)
{
  static char text[4096];
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  FILE *f = fopen(tmp_path("stderr.txt"), "r");
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[n] = '\0';
  if (f)
    fclose(f);
  return text;
}

/* ---- the expected graphs ----------------------------------------------------------- */

typedef struct expected {
  int64_t npoints, nedges;
  int directed;
  const int64_t *offsets;
  const fal_point *dst;
  const fal_weight *weight; /* NULL: every weight is 1 */
} expected;

/* tiny, directed: 0->1 4, 0->2 1, 1->2 2, 1->3 5, 2->3 8, 2->4 10,
 * 3->5 2, 3->6 7, 4->3 3, 4->5 6, 5->6 1. */
static const int64_t dir_off[] = {0, 2, 4, 6, 8, 10, 11, 11};
static const fal_point dir_dst[] = {1, 2, 2, 3, 3, 4, 5, 6, 3, 5, 6};
static const fal_weight dir_w[] = {4, 1, 2, 5, 8, 10, 2, 7, 3, 6, 1};
static const expected tiny = {7, 11, 1, dir_off, dir_dst, dir_w};

/* tiny, undirected: every edge both ways, lists sorted by destination. */
static const int64_t und_off[] = {0, 2, 5, 9, 14, 17, 20, 22};
static const fal_point und_dst[] = {1, 2,  0, 2, 3,  0, 1, 3, 4,
                                    1, 2, 4, 5, 6,  2, 3, 5,  3, 4, 6,  3, 5};
static const fal_weight und_w[] = {4, 1,  4, 2, 5,  1, 2, 8, 10,
                                   5, 8, 3, 2, 7,  10, 3, 6,  2, 6, 1,  7, 1};
static const expected tiny_und = {7, 22, 0, und_off, und_dst, und_w};
static const expected tiny_und_unweighted = {7, 22, 0, und_off, und_dst, NULL};
static const expected tiny_unweighted = {7, 11, 1, dir_off, dir_dst, NULL};

/* dups.snap.txt: 0->1 twice, the self loop 1->1, 2->0. */
static const int64_t dups_off[] = {0, 2, 3, 4};
static const fal_point dups_dst[] = {1, 1, 1, 0};
static const expected dups = {3, 4, 1, dups_off, dups_dst, NULL};

/* Compares g with e; on a difference sets `why` and returns 0. */
static int same_graph(const fal_graph *g, const expected *e)
{
  CHECK(g->npoints == e->npoints, "npoints %lld, expected %lld",
        (long long)g->npoints, (long long)e->npoints);
  CHECK(g->nedges == e->nedges, "nedges %lld, expected %lld",
        (long long)g->nedges, (long long)e->nedges);
  CHECK(g->directed == e->directed, "directed %d, expected %d", g->directed,
        e->directed);
  for (int64_t p = 0; p <= e->npoints; p++)
    CHECK(g->offsets[p] == e->offsets[p], "offsets[%lld] = %lld, expected %lld",
          (long long)p, (long long)g->offsets[p], (long long)e->offsets[p]);
  for (int64_t i = 0; i < e->nedges; i++) {
    fal_weight w = e->weight ? e->weight[i] : 1;
    CHECK(g->dst[i] == e->dst[i] && g->weight[i] == w,
          "edge %lld: dst %d weight %d, expected dst %d weight %d",
          (long long)i, g->dst[i], g->weight[i], e->dst[i], w);
  }
  return 1;
}

/* The CSR of g as an `expected` (pointing into g). */
static expected as_expected(const fal_graph *g)
{
  expected e = {g->npoints, g->nedges, g->directed, g->offsets, g->dst,
                g->weight};
  return e;
}

/* ---- good files ----------------------------------------------------------------------- */

typedef struct good_file {
  const char *name;
  fal_format format; /* the format it is written in */
  const expected *want;
} good_file;

static const good_file good_files[] = {
  {"tiny.txt", FAL_FORMAT_FALCON_TEXT, &tiny},
  {"tiny.snap.txt", FAL_FORMAT_SNAP, &tiny},
  {"tiny.gr", FAL_FORMAT_DIMACS, &tiny},
  {"tiny.mtx", FAL_FORMAT_MTX, &tiny},
  {"tiny.galois.gr", FAL_FORMAT_GALOIS_GR, &tiny},
  {"tiny.bin", FAL_FORMAT_FALCON_BIN, &tiny},
  {"tiny.txt.gz", FAL_FORMAT_FALCON_TEXT, &tiny},
  {"tiny.gr.xz", FAL_FORMAT_DIMACS, &tiny},
  {"tiny.galois.gr.gz", FAL_FORMAT_GALOIS_GR, &tiny},
  {"tiny.bin.xz", FAL_FORMAT_FALCON_BIN, &tiny},
  {"tiny-pattern.mtx", FAL_FORMAT_MTX, &tiny_unweighted},
  {"tiny-sym.mtx", FAL_FORMAT_MTX, &tiny_und},
  {"tiny.pace.gr", FAL_FORMAT_PACE, &tiny_und_unweighted},
  {"dups.snap.txt", FAL_FORMAT_SNAP, &dups},
};
enum { NGOOD = sizeof good_files / sizeof good_files[0] };

static int read_good(const good_file *f, fal_format format)
{
  fal_graph g = {0};
  const char *path = graph_path(f->name);
  CHECK(fal_graph_read(&g, path, format) == 0, "%s did not load", path);
  int ok = same_graph(&g, f->want);
  fal_graph_free(&g);
  return ok ? 1 : fail_in(f->name);
}

static int test_good_auto(void)
{
  for (int i = 0; i < NGOOD; i++)
    if (!read_good(&good_files[i], FAL_FORMAT_AUTO))
      return 0;
  return 1;
}

static int test_good_explicit(void)
{
  for (int i = 0; i < NGOOD; i++)
    if (!read_good(&good_files[i], good_files[i].format))
      return 0;
  return 1;
}

/* Every directed file gives the very same CSR as tiny.txt. */
static int test_formats_agree(void)
{
  fal_graph first = {0};
  CHECK(fal_graph_read(&first, graph_path("tiny.txt"), FAL_FORMAT_AUTO) == 0,
        "tiny.txt did not load");
  expected e = as_expected(&first);
  int ok = 1;
  for (int i = 0; i < NGOOD && ok; i++) {
    if (good_files[i].want != &tiny)
      continue;
    fal_graph g = {0};
    ok = fal_graph_read(&g, graph_path(good_files[i].name), FAL_FORMAT_AUTO) == 0 &&
         same_graph(&g, &e);
    fal_graph_free(&g);
  }
  fal_graph_free(&first);
  return ok;
}

/* Reads path (format detected) and compares it with e. */
static int read_as(const char *path, const expected *e)
{
  fal_graph g = {0};
  CHECK(fal_graph_read(&g, path, FAL_FORMAT_AUTO) == 0, "did not load");
  int ok = same_graph(&g, e);
  fal_graph_free(&g);
  return ok;
}

/* A Falcon header `n m` counts only when exactly m edge lines follow. */
static int test_header_rule(void)
{
  static const int64_t off1[] = {0, 1, 2, 2};
  static const fal_point dst1[] = {1, 2};
  static const expected falcon = {3, 2, 1, off1, dst1, NULL};
  static const int64_t off2[] = {0, 1, 1, 1, 2};
  static const fal_point dst2[] = {1, 2};
  static const expected snap = {4, 2, 1, off2, dst2, NULL};
  static const int64_t off3[] = {0, 0, 0, 0, 0, 0};
  static const expected isolated = {5, 0, 1, off3, NULL, NULL};
  fal_graph g = {0};
  write_file(tmp_path("falcon.txt"), "3 2\n0 1\n1 2\n");
  write_file(tmp_path("snap.txt"), "3 2\n0 1\n");
  write_file(tmp_path("isolated.txt"), "# five points, no edges\n5 0\n");
  if (!read_as(tmp_path("falcon.txt"), &falcon))
    return fail_in("'3 2' and 2 edge lines is Falcon text");
  if (!read_as(tmp_path("snap.txt"), &snap))
    return fail_in("'3 2' and 1 edge line is SNAP");
  if (!read_as(tmp_path("isolated.txt"), &isolated))
    return fail_in("'5 0' alone");
  capture_begin();
  int r = fal_graph_read(&g, tmp_path("snap.txt"), FAL_FORMAT_FALCON_TEXT);
  const char *err = capture_end();
  CHECK(r == -1 && strstr(err, "announces 2 edges, the file has 1"),
        "Falcon text forced on a short file: %d '%s'", r, err);
  return 1;
}

/* ---- malformed files ---------------------------------------------------------------------- */

typedef struct bad_file {
  const char *name;
  const char *message; /* what the diagnostic must contain */
} bad_file;

static const bad_file bad_files[] = {
  {"empty.txt", ": error: empty file"},
  {"comments-only.txt", ":2: error: no graph in the file"},
  {"non-numeric.txt", ":3: error: expected an integer, found 'x'"},
  {"negative-id.txt", ":2: error: negative point id -1"},
  {"too-large.txt", ":2: error: expected a number that fits 64 bits"},
  {"weight-range.txt", ":2: error: weight 3000000000 out of range"},
  {"nul-byte.txt", ":201: error: unexpected NUL byte"},
  {"falcon-out-of-range.txt", ":3: error: point id 5 out of range (0..2)"},
  {"id-out-of-range.gr", ":3: error: point id 9 out of range (1..7)"},
  {"wrong-count.gr", ":5: error: the 'p sp' line announces 4 edges, the file has 3"},
  {"too-many-arcs.gr", ":4: error: more edges than the 2"},
  {"bad-problem.gr", ":2: error: expected 'p sp n m'"},
  {"pace-zero-id.gr", ":3: error: point id 0 out of range (1..7)"},
  {"pace-bad-header.gr", ":1: error: expected 'p tw n m'"},
  {"array.mtx", ":1: error: unsupported Matrix Market format 'array'"},
  {"wrong-count.mtx", ":4: error: the size line announces 3 edges, the file has 2"},
  {"no-size.mtx", ": error: missing the size line"},
  {"truncated.galois.gr", ": error: truncated file"},
  {"truncated.bin", ": error: truncated file"},
  {"bad-magic.bin", ": error: bad magic"},
  {"bad-offsets.bin", ": error: bad edge offset"},
  {"huge-header.bin", ": error: the header announces 1099511627776 points"},
  {"huge-header.galois.gr", ": error: the header announces 1152921504606846976 edges"},
  {"galois-version.gr", ": error: unsupported Galois .gr version 2"},
  {"dst-out-of-range.galois.gr", ": error: edge 0 goes to point 99"},
  {"binary-garbage.dat", ": error: unrecognised binary data"},
  {"corrupt.txt.gz", ": error: corrupt gzip data"},
  {"truncated.gr.xz", ": error: truncated xz data"},
  {"does-not-exist.txt", ": error: cannot open: No such file"},
};

static int read_bad(const bad_file *b)
{
  char path[512];
  fal_graph g = {0}, zero = {0};
  snprintf(path, sizeof path, "%s/bad/%s", graphs, b->name);
  capture_begin();
  int r = fal_graph_read(&g, path, FAL_FORMAT_AUTO);
  const char *err = capture_end();
  CHECK(r == -1, "%s: returned %d, expected -1", b->name, r);
  CHECK(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':',
        "%s: the message does not start with 'path:': %s", b->name, err);
  CHECK(strstr(err, b->message), "%s: expected '%s' in: %s", b->name,
        b->message, err);
  CHECK(strchr(err, '\n') == err + strlen(err) - 1,
        "%s: expected one line, got: %s", b->name, err);
  CHECK(memcmp(&g, &zero, sizeof g) == 0, "%s: the graph is not zeroed", b->name);
  return 1;
}

static int test_bad_files(void)
{
  for (size_t i = 0; i < sizeof bad_files / sizeof bad_files[0]; i++)
    if (!read_bad(&bad_files[i]))
      return 0;
  return 1;
}

/* Every file under bad/ is listed above (and so is checked). */
static int test_bad_files_listed(void)
{
  char cmd[600];
  snprintf(cmd, sizeof cmd, "ls '%s/bad'", graphs);
  FILE *ls = popen(cmd, "r");
  char name[256];
  int n = 0;
  CHECK(ls, "cannot list %s/bad", graphs);
  while (fgets(name, sizeof name, ls)) {
    name[strcspn(name, "\n")] = '\0';
    size_t i = 0;
    while (i < sizeof bad_files / sizeof bad_files[0] &&
           strcmp(bad_files[i].name, name) != 0)
      i++;
    if (i == sizeof bad_files / sizeof bad_files[0]) {
      pclose(ls);
      CHECK(0, "bad/%s has no expected message in test_graph.c", name);
    }
    n++;
  }
  pclose(ls);
  CHECK(n >= 8, "only %d malformed files", n);
  return 1;
}

/* ---- writers ---------------------------------------------------------------------------------- */

typedef int (*writer)(const fal_graph *, const char *);

/* Writes `from` with w, reads it back and compares.  Text keeps the CSR
 * but not the undirected flag. */
static int round_trip(const char *from, writer w, const char *to,
                      int keeps_directed)
{
  fal_graph g = {0}, back = {0};
  CHECK(fal_graph_read(&g, graph_path(from), FAL_FORMAT_AUTO) == 0,
        "%s did not load", from);
  CHECK(w(&g, tmp_path(to)) == 0, "writing %s failed", to);
  CHECK(fal_graph_read(&back, tmp_path(to), FAL_FORMAT_AUTO) == 0,
        "%s did not load back", to);
  expected e = as_expected(&g);
  if (!keeps_directed)
    e.directed = 1;
  int ok = same_graph(&back, &e);
  fal_graph_free(&g);
  fal_graph_free(&back);
  return ok;
}

static int test_bin_round_trip(void)
{
  struct stat st;
  if (!round_trip("tiny.txt", fal_graph_write_bin, "rt.bin", 1) ||
      !round_trip("tiny-sym.mtx", fal_graph_write_bin, "rt-sym.bin", 1) ||
      !round_trip("tiny.pace.gr", fal_graph_write_bin, "rt-pace.bin", 1))
    return 0;
  /* Unit weights are not stored: header, 8 offsets, 22 destinations. */
  CHECK(stat(tmp_path("rt-pace.bin"), &st) == 0 && st.st_size == 32 + 8 * 8 + 4 * 22,
        "an unweighted binary CSR has %lld bytes", (long long)st.st_size);
  return 1;
}

static int test_text_round_trip(void)
{
  return round_trip("tiny.snap.txt", fal_graph_write_text, "rt.txt", 0) &&
         round_trip("tiny-sym.mtx", fal_graph_write_text, "rt-sym.txt", 0) &&
         round_trip("tiny.mtx", fal_graph_write_dimacs, "rt.gr", 0) &&
         round_trip("tiny.pace.gr", fal_graph_write_dimacs, "rt-pace.gr", 0);
}

static int test_unwritable(void)
{
  fal_graph g = {0};
  CHECK(fal_graph_read(&g, graph_path("tiny.txt"), FAL_FORMAT_AUTO) == 0,
        "tiny.txt did not load");
  capture_begin();
  int r1 = fal_graph_write_bin(&g, tmp_path("no/such/dir.bin"));
  int r2 = fal_graph_write_text(&g, tmp_path("no/such/dir.txt"));
  const char *err = capture_end();
  fal_graph_free(&g);
  CHECK(r1 == -1 && r2 == -1, "writing into a missing directory succeeded");
  CHECK(strstr(err, "dir.bin: error: cannot create"), "message: %s", err);
  return 1;
}

/* ---- sources and in-edges ------------------------------------------------------------------------ */

static int test_sources(void)
{
  static const fal_point want[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  fal_graph g = {0};
  CHECK(fal_graph_read(&g, graph_path("tiny.txt"), FAL_FORMAT_AUTO) == 0,
        "tiny.txt did not load");
  fal_graph_build_sources(&g);
  fal_point *first = g.src;
  fal_graph_build_sources(&g);
  int ok = g.src == first;
  for (int e = 0; e < 11 && ok; e++)
    ok = g.src[e] == want[e];
  fal_graph_free(&g);
  CHECK(ok, "wrong sources, or rebuilt on a second call");
  return 1;
}

/* Every in-edge slot of q names an out-edge that goes to q from in_src. */
static int in_edges_consistent(const fal_graph *g)
{
  CHECK(g->in_offsets[0] == 0 && g->in_offsets[g->npoints] == g->nedges,
        "in_offsets do not span the edges");
  for (fal_point q = 0; q < g->npoints; q++)
    for (int64_t s = g->in_offsets[q]; s < g->in_offsets[q + 1]; s++) {
      fal_edge e = g->in_edge[s];
      fal_point p = g->in_src[s];
      CHECK(g->dst[e] == q && g->offsets[p] <= e && e < g->offsets[p + 1],
            "in-edge slot %lld of point %d is wrong", (long long)s, q);
    }
  return 1;
}

static int test_in_edges_directed(void)
{
  static const int64_t want_off[] = {0, 0, 1, 3, 6, 7, 9, 11};
  static const fal_point want_src[] = {0, 0, 1, 1, 2, 4, 2, 3, 4, 3, 5};
  fal_graph g = {0};
  CHECK(fal_graph_read(&g, graph_path("tiny.gr"), FAL_FORMAT_AUTO) == 0,
        "tiny.gr did not load");
  fal_graph_build_in_edges(&g);
  int64_t *first = g.in_offsets;
  fal_graph_build_in_edges(&g);
  int ok = g.in_offsets == first && in_edges_consistent(&g);
  for (int i = 0; i < 8 && ok; i++)
    ok = g.in_offsets[i] == want_off[i];
  for (int i = 0; i < 11 && ok; i++)
    ok = g.in_src[i] == want_src[i];
  fal_graph_free(&g);
  return ok ? 1 : fail_in("in_offsets or in_src");
}

static int test_in_edges_undirected(void)
{
  fal_graph g = {0};
  CHECK(fal_graph_read(&g, graph_path("tiny-sym.mtx"), FAL_FORMAT_AUTO) == 0,
        "tiny-sym.mtx did not load");
  fal_graph_build_in_edges(&g);
  int ok = in_edges_consistent(&g);
  for (int64_t i = 0; i <= g.npoints && ok; i++)
    ok = g.in_offsets[i] == g.offsets[i];
  for (int64_t e = 0; e < g.nedges && ok; e++)
    ok = g.in_src[e] == g.dst[e];
  fal_graph_free(&g);
  return ok ? 1 : fail_in("in-edges differ from out-edges");
}

/* ---- generators and weights --------------------------------------------------------------------------- */

/* Every edge u->v has a v->u, no self loops, no repeated edge. */
static int simple_and_symmetric(const fal_graph *g)
{
  for (fal_point p = 0; p < g->npoints; p++)
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++) {
      fal_point q = g->dst[e];
      CHECK(q != p, "self loop at %d", p);
      CHECK(e == g->offsets[p] || g->dst[e - 1] < q, "unsorted or repeated edge %d->%d", p, q);
      int64_t f = g->offsets[q];
      while (f < g->offsets[q + 1] && g->dst[f] != p)
        f++;
      CHECK(f < g->offsets[q + 1], "%d->%d without %d->%d", p, q, q, p);
    }
  return 1;
}

static int same_arrays(const fal_graph *a, const fal_graph *b)
{
  return a->npoints == b->npoints && a->nedges == b->nedges &&
         memcmp(a->offsets, b->offsets, (size_t)(a->npoints + 1) * 8) == 0 &&
         memcmp(a->dst, b->dst, (size_t)a->nedges * 4) == 0 &&
         memcmp(a->weight, b->weight, (size_t)a->nedges * 4) == 0;
}

static int test_gen_grid(void)
{
  fal_graph g = {0};
  int count[5] = {0};
  CHECK(fal_graph_gen_grid(&g, 3, 4) == 0, "gen grid 3 4 failed");
  CHECK(g.npoints == 12 && g.nedges == 2 * (3 * 3 + 2 * 4) && !g.directed,
        "grid 3x4: %lld points, %lld edges", (long long)g.npoints,
        (long long)g.nedges);
  for (int p = 0; p < 12; p++) {
    int64_t d = g.offsets[p + 1] - g.offsets[p];
    if (d >= 2 && d <= 4)
      count[d]++;
  }
  int ok = simple_and_symmetric(&g);
  fal_graph_free(&g);
  if (!ok)
    return 0;
  CHECK(count[2] == 4 && count[3] == 6 && count[4] == 2,
        "degrees: %d of 2, %d of 3, %d of 4", count[2], count[3], count[4]);
  return 1;
}

static int test_gen_kron(void)
{
  fal_graph a = {0}, b = {0}, c = {0};
  CHECK(fal_graph_gen_kron(&a, 10, 8, 42) == 0 && fal_graph_gen_kron(&b, 10, 8, 42) == 0 &&
        fal_graph_gen_kron(&c, 10, 8, 43) == 0, "gen kron failed");
  int ok = simple_and_symmetric(&a);
  int det = same_arrays(&a, &b), differs = !same_arrays(&a, &c);
  int64_t n = a.npoints, m = a.nedges;
  int directed = a.directed;
  fal_graph_free(&a);
  fal_graph_free(&b);
  fal_graph_free(&c);
  if (!ok)
    return 0;
  CHECK(n == 1024 && !directed, "kron 10: %lld points", (long long)n);
  /* 8192 generated edges, fewer after removing loops and repeats. */
  CHECK(m > 8192 && m <= 2 * 8192, "kron 10 8: %lld stored edges", (long long)m);
  CHECK(det, "the same seed gave different graphs");
  CHECK(differs, "different seeds gave the same graph");
  return 1;
}

static int test_gen_uniform(void)
{
  fal_graph a = {0}, b = {0};
  CHECK(fal_graph_gen_uniform(&a, 100, 1000, 7) == 0 &&
        fal_graph_gen_uniform(&b, 100, 1000, 7) == 0, "gen uniform failed");
  int ok = a.npoints == 100 && a.nedges == 1000 && a.directed && same_arrays(&a, &b);
  for (int64_t e = 0; e < a.nedges && ok; e++)
    ok = a.dst[e] >= 0 && a.dst[e] < 100;
  fal_graph_free(&a);
  fal_graph_free(&b);
  CHECK(ok, "wrong size, ids out of range or not deterministic");
  return 1;
}

static int test_gen_bad_arguments(void)
{
  fal_graph g = {0};
  capture_begin();
  int r = fal_graph_gen_kron(&g, 40, 8, 1) + fal_graph_gen_grid(&g, 0, 5) +
          fal_graph_gen_uniform(&g, 0, 5, 1);
  const char *err = capture_end();
  CHECK(r == -3, "bad generator arguments were accepted");
  CHECK(strstr(err, "falcon: error: kron generator:"), "message: %s", err);
  return 1;
}

/* Weight of edge p->q, or 0 when there is none. */
static fal_weight weight_of(const fal_graph *g, fal_point p, fal_point q)
{
  for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++)
    if (g->dst[e] == q)
      return g->weight[e];
  return 0;
}

static int test_random_weights(void)
{
  fal_graph g = {0}, h = {0};
  CHECK(fal_graph_gen_grid(&g, 20, 20) == 0 && fal_graph_gen_grid(&h, 20, 20) == 0,
        "gen grid failed");
  fal_graph_random_weights(&g, 5, 3, 9);
  fal_graph_random_weights(&h, 5, 3, 9);
  int ok = same_arrays(&g, &h), seen[10] = {0};
  for (fal_point p = 0; p < g.npoints && ok; p++)
    for (int64_t e = g.offsets[p]; e < g.offsets[p + 1] && ok; e++) {
      fal_weight w = g.weight[e];
      ok = w >= 3 && w <= 9 && weight_of(&g, g.dst[e], p) == w;
      if (ok)
        seen[w] = 1;
    }
  fal_graph_free(&g);
  fal_graph_free(&h);
  CHECK(ok, "weights out of [3, 9], asymmetric or not deterministic");
  for (int w = 3; w <= 9; w++)
    CHECK(seen[w], "weight %d never drawn", w);
  return 1;
}

static int test_free_zeroes(void)
{
  fal_graph g = {0}, zero = {0};
  CHECK(fal_graph_gen_grid(&g, 2, 2) == 0, "gen grid failed");
  fal_graph_build_sources(&g);
  fal_graph_build_in_edges(&g);
  fal_graph_free(&g);
  CHECK(memcmp(&g, &zero, sizeof g) == 0, "fal_graph_free left fields set");
  fal_graph_free(&g); /* twice is harmless */
  return 1;
}

static int test_rtclock(void)
{
  double a = fal_rtclock(), b = fal_rtclock();
  CHECK(a > 0 && b >= a, "rtclock went backwards: %f then %f", a, b);
  return 1;
}

/* ---- falgraph ------------------------------------------------------------------------------------- */

static const char *falgraph;

/* Runs `falgraph ARGS` (stdout and stderr to files) and returns its exit
 * status. */
static int falgraph_run(const char *args)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", falgraph, args,
           tmp_path("fg.out"), tmp_path("fg.err"));
  int r = system(cmd);
  return WIFEXITED(r) ? WEXITSTATUS(r) : -1;
}

static int file_contains(const char *path, const char *text)
{
  static char buf[8192];
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return strstr(buf, text) != NULL;
}

static int test_falgraph_info(void)
{
  char args[700];
  snprintf(args, sizeof args, "info '%s'", graph_path("tiny-sym.mtx"));
  CHECK(falgraph_run(args) == 0, "falgraph info failed");
  const char *out = tmp_path("fg.out");
  CHECK(file_contains(out, "points: 7\n") && file_contains(out, "edges: 22\n") &&
        file_contains(out, "directed: no") && file_contains(out, "min degree: 2\n") &&
        file_contains(out, "max degree: 5 (point 3)\n"), "unexpected falgraph info output");
  return 1;
}

static int test_falgraph_convert(void)
{
  char args[1400];
  fal_graph g = {0};
  snprintf(args, sizeof args, "convert '%s' '%s'", graph_path("tiny.gr.xz"),
           tmp_path("fg.bin"));
  CHECK(falgraph_run(args) == 0, "falgraph convert failed");
  CHECK(fal_graph_read(&g, tmp_path("fg.bin"), FAL_FORMAT_FALCON_BIN) == 0,
        "the converted file did not load");
  int ok = same_graph(&g, &tiny);
  fal_graph_free(&g);
  return ok;
}

static int test_falgraph_gen_weights(void)
{
  char args[700];
  fal_graph g = {0};
  snprintf(args, sizeof args, "--weights 1 100 3 gen kron 8 4 1 '%s'",
           tmp_path("fg-kron.bin"));
  CHECK(falgraph_run(args) == 0, "falgraph gen kron failed");
  CHECK(fal_graph_read(&g, tmp_path("fg-kron.bin"), FAL_FORMAT_AUTO) == 0,
        "the generated file did not load");
  int ok = g.npoints == 256 && !g.directed && simple_and_symmetric(&g);
  int in_range = 1;
  for (int64_t e = 0; e < g.nedges; e++)
    in_range &= g.weight[e] >= 1 && g.weight[e] <= 100;
  fal_graph_free(&g);
  if (!ok || !in_range)
    return fail_in("wrong size or weights");
  snprintf(args, sizeof args, "gen grid 2 3 '%s'", tmp_path("fg-grid.txt"));
  CHECK(falgraph_run(args) == 0 && file_contains(tmp_path("fg-grid.txt"), "6 14\n"),
        "falgraph gen grid 2 3 did not write a 6-point, 14-edge text file");
  return 1;
}

static int test_falgraph_exit_codes(void)
{
  char args[700];
  CHECK(falgraph_run("") == 2, "no command: expected status 2");
  CHECK(falgraph_run("frobnicate") == 2, "unknown command: expected status 2");
  CHECK(falgraph_run("--bogus info x") == 2, "unknown option: expected status 2");
  CHECK(falgraph_run("gen kron 8 4") == 2, "missing arguments: expected status 2");
  CHECK(falgraph_run("--help") == 0 && file_contains(tmp_path("fg.out"), "usage: falgraph"),
        "--help");
  snprintf(args, sizeof args, "convert '%s' out.xyz", graph_path("tiny.txt"));
  CHECK(falgraph_run(args) == 2 && file_contains(tmp_path("fg.err"), "out.xyz"),
        "unknown output extension: expected status 2");
  snprintf(args, sizeof args, "info '%s/bad/wrong-count.gr'", graphs);
  CHECK(falgraph_run(args) == 1 && file_contains(tmp_path("fg.err"), "wrong-count.gr:5: error:"),
        "malformed input: expected status 1 and the diagnostic");
  return 1;
}

/* ---- main ------------------------------------------------------------------------------------------- */

static void remove_tmpdir(void)
{
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "test_graph: could not remove %s\n", tmpdir);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_graph GRAPHS_DIR\n");
    return 2;
  }
  graphs = argv[1];
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/test_graph.XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("test_graph: mkdtemp");
    return 2;
  }
  run("every format loads the tiny graph (detected)", test_good_auto);
  run("every format loads the tiny graph (format given)", test_good_explicit);
  run("all directed formats give the same CSR", test_formats_agree);
  run("Falcon header rule: 'n m' and exactly m edge lines", test_header_rule);
  run("malformed files fail with 'path:line: error:'", test_bad_files);
  run("every file in bad/ is checked", test_bad_files_listed);
  run("binary CSR round trip", test_bin_round_trip);
  run("Falcon text and DIMACS round trips", test_text_round_trip);
  run("unwritable output fails cleanly", test_unwritable);
  run("build_sources", test_sources);
  run("build_in_edges, directed", test_in_edges_directed);
  run("build_in_edges, undirected equals out-edges", test_in_edges_undirected);
  run("gen grid: degree counts", test_gen_grid);
  run("gen kron: symmetric, no self loops, deterministic", test_gen_kron);
  run("gen uniform: size and determinism", test_gen_uniform);
  run("generators reject bad arguments", test_gen_bad_arguments);
  run("random weights: range, symmetry, determinism", test_random_weights);
  run("fal_graph_free zeroes the graph", test_free_zeroes);
  run("rtclock", test_rtclock);
  falgraph = getenv("FALGRAPH");
  if (falgraph && *falgraph) {
    run("falgraph info", test_falgraph_info);
    run("falgraph convert", test_falgraph_convert);
    run("falgraph gen with --weights", test_falgraph_gen_weights);
    run("falgraph exit codes", test_falgraph_exit_codes);
  }
  remove_tmpdir();
  return failed ? 1 : 0;
}
