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
#include "falcon/falcon.h"

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

/* The direction of a level-synchronous loop's rounds (falcon/frontier.h
 * fal_dstate), the one rule of the CPU region, the GPUs' rounds and
 * kernels and MPI ranks: when a loop may pull, the forced directions,
 * and Beamer's rule with GAPBS's constants (pull when the new points'
 * out-edges pass 1/15 of the edges not yet explored from; back to
 * pushing, and no more counts, when the frontier shrinks below 1/18 of
 * the points). */
static int test_direction_rule(void)
{
  CHECK(!fal_dir_may_pull(1, 100, 10000, -1), "a directed graph may pull");
  CHECK(!fal_dir_may_pull(0, 100, 800, -1), "average degree 8 may pull");
  CHECK(fal_dir_may_pull(0, 100, 801, -1), "average degree above 8 may not pull");
  CHECK(fal_dir_may_pull(0, 100, 10, 1), "FALCON_DIRECTION=pull does not pull");
  CHECK(!fal_dir_may_pull(0, 100, 10000, 0), "FALCON_DIRECTION=push pulls");
  fal_dstate d;
  unsetenv("FALCON_DIRECTION");
  fal_dstate_start(&d, 0, 0, 100, 10000);
  CHECK(!d.on && !d.dir, "a loop that cannot pull (a host part) may pull");
  fal_dstate_start(&d, 1, 0, 100, 801);
  CHECK(d.on && !d.dir && d.counting && d.etc == 801, "chosen start: on %d dir %d counting %d",
        d.on, d.dir, d.counting);
  setenv("FALCON_DIRECTION", "pull", 1);
  fal_dstate_start(&d, 1, 0, 100, 10);
  unsetenv("FALCON_DIRECTION");
  CHECK(d.on && d.dir && !d.counting, "FALCON_DIRECTION=pull: on %d dir %d counting %d", d.on,
        d.dir, d.counting);
  fal_dstate_init(&d, 1, 1, 1000, 100);
  CHECK(d.dir && !fal_dstate_counts(&d), "forced pull: dir %d, counts %d", d.dir,
        fal_dstate_counts(&d));
  fal_dstate_init(&d, 0, 1, 1000, 100);
  CHECK(!d.dir && !fal_dstate_counts(&d), "a loop that may not pull pulls");
  fal_dstate_init(&d, 1, -1, 1500, 180);
  CHECK(!d.dir && fal_dstate_counts(&d) && d.etc == 1500, "chosen: starts pulling or uncounted");
  fal_dstate_decide(&d, 1, 100); /* 100 is not above 1500 / 15 */
  CHECK(!d.dir && d.etc == 1400, "after 100 of 1500 edges: dir %d, etc %lld", d.dir, d.etc);
  fal_dstate_decide(&d, 40, 94); /* 94 is above 1400 / 15 = 93 */
  CHECK(d.dir && d.etc == 1400 && fal_dstate_counts(&d), "94 edges of 1400 do not pull");
  fal_dstate_decide(&d, 60, 500); /* the frontier grew: keeps pulling */
  CHECK(d.dir, "a growing frontier went back to pushing");
  fal_dstate_decide(&d, 11, 50); /* shrank, but 11 > 180 / 18 */
  CHECK(d.dir, "11 points of 180 went back to pushing");
  fal_dstate_decide(&d, 10, 40); /* shrank to 180 / 18 */
  CHECK(!d.dir && d.settled && !fal_dstate_counts(&d), "10 of 180: dir %d, settled %d", d.dir,
        d.settled);
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

/* ORDERED's cut (§7): equal shares of the edges, or FALCON_PART_SHARES'. */
static int test_cut_ordered(void)
{
  /* 10 points of 10 edges each, then 10 of 1: m = 110 */
  int64_t off[21], lo[5];
  off[0] = 0;
  for (int i = 0; i < 20; i++)
    off[i + 1] = off[i] + (i < 10 ? 10 : 1);
  unsetenv("FALCON_PART_SHARES");
  fal_graph_cut_ordered(off, 0, 20, 110, 2, lo);
  CHECK(lo[0] == 0 && lo[1] == 6 && lo[2] == 20, "2 parts: %lld %lld %lld", (long long)lo[0],
        (long long)lo[1], (long long)lo[2]);
  fal_graph_cut_ordered(off, 0, 20, 110, 1, lo);
  CHECK(lo[0] == 0 && lo[1] == 20, "1 part: %lld %lld", (long long)lo[0], (long long)lo[1]);
  setenv("FALCON_PART_SHARES", "3,8", 1); /* 30 of the 110 edges to part 0 */
  fal_graph_cut_ordered(off, 0, 20, 110, 2, lo);
  CHECK(lo[1] == 3 && lo[2] == 20, "shares 3,8: cut at %lld", (long long)lo[1]);
  setenv("FALCON_PART_SHARES", "1,1,1.5,0.5", 1); /* 27.5, 55, 96.25 edges: points 3, 6, 10 */
  fal_graph_cut_ordered(off, 0, 20, 110, 4, lo);
  CHECK(lo[1] == 3 && lo[2] == 6 && lo[3] == 10 && lo[4] == 20,
        "shares 1,1,1.5,0.5: %lld %lld %lld", (long long)lo[1], (long long)lo[2],
        (long long)lo[3]);
  /* base: offsets of a rank's rows, counted from the file's first edge */
  setenv("FALCON_PART_SHARES", "3,8", 1);
  int64_t rel[21];
  for (int i = 0; i <= 20; i++)
    rel[i] = off[i] - 5;
  fal_graph_cut_ordered(rel, 5, 20, 110, 2, lo);
  CHECK(lo[1] == 3, "shares 3,8 with a base: cut at %lld", (long long)lo[1]);
  setenv("FALCON_PART_SHARES", "3,0", 1); /* not positive: equal shares (and a warning) */
  fal_graph_cut_ordered(off, 0, 20, 110, 2, lo);
  CHECK(lo[1] == 6, "shares 3,0: cut at %lld", (long long)lo[1]);
  setenv("FALCON_PART_SHARES", "1,2,", 1); /* a trailing comma */
  fal_graph_cut_ordered(off, 0, 20, 110, 2, lo);
  CHECK(lo[1] == 6, "shares 1,2, for 2 parts: cut at %lld", (long long)lo[1]);
  setenv("FALCON_PART_SHARES", "1,2,3", 1); /* three numbers for two parts */
  fal_graph_cut_ordered(off, 0, 20, 110, 2, lo);
  CHECK(lo[1] == 6, "shares 1,2,3 for 2 parts: cut at %lld", (long long)lo[1]);
  unsetenv("FALCON_PART_SHARES");
  return 1;
}

static int test_rtclock(void)
{
  double a = fal_rtclock(), b = fal_rtclock();
  CHECK(a > 0 && b >= a, "rtclock went backwards: %f then %f", a, b);
  return 1;
}

/* ---- mutation (§6) ----------------------------------------------------------------------------------- */

typedef struct triple {
  fal_point u, v;
  fal_weight w;
} triple;

static int compare_triples(const void *a, const void *b)
{
  const triple *x = a, *y = b;
  if (x->u != y->u)
    return x->u < y->u ? -1 : 1;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  return x->w < y->w ? -1 : x->w > y->w;
}

/* A growable list of expected edges. */
typedef struct triples {
  triple *t;
  int64_t n, cap;
} triples;

static void triples_push(triples *l, fal_point u, fal_point v, fal_weight w)
{
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->t = realloc(l->t, (size_t)l->cap * sizeof *l->t);
  }
  l->t[l->n++] = (triple){u, v, w};
}

/* The layout invariants of a settled mutable graph: regions in order and
 * inside the slots, unused slots marked, src right, and the live edges
 * seen per point equal those seen by a loop over all slots and nedges. */
static int mutable_consistent(const fal_graph *g)
{
  CHECK(fal_graph_is_mutable(g), "not mutable");
  CHECK(g->npoints <= g->point_cap && g->nslots <= g->slot_cap,
        "npoints %lld > point_cap %lld or nslots %lld > slot_cap %lld",
        (long long)g->npoints, (long long)g->point_cap, (long long)g->nslots,
        (long long)g->slot_cap);
  int64_t live = 0, prev = 0;
  for (int64_t p = 0; p < g->point_cap; p++) {
    int64_t o = g->offsets[p], e = g->end[p], l = g->limit[p];
    CHECK(prev <= o && o <= e && e <= l && l <= g->offsets[p + 1],
          "point %lld: region [%lld, %lld, %lld) out of order", (long long)p,
          (long long)o, (long long)e, (long long)l);
    CHECK(p < g->npoints || o == e, "unused point id %lld has edges", (long long)p);
    for (int64_t s = o; s < l; s++) {
      CHECK(s >= e ? g->edel[s] == 1 : g->edel[s] || g->src[s] == p,
            "slot %lld of point %lld: edel %d src %d", (long long)s, (long long)p,
            g->edel[s], g->src[s]);
      live += s < e && !g->edel[s];
    }
    prev = l;
  }
  CHECK(g->offsets[g->point_cap] == g->nslots, "offsets[point_cap] != nslots");
  int64_t loop = 0;
  for (int64_t s = 0; s < g->nslots; s++)
    loop += !g->edel[s];
  for (int64_t s = g->nslots; s < g->slot_cap; s++)
    CHECK(g->edel[s], "slot %lld past nslots is not marked unused", (long long)s);
  CHECK(live == loop && live == g->nedges,
        "live edges: %lld per point, %lld per slot, nedges %lld", (long long)live,
        (long long)loop, (long long)g->nedges);
  return 1;
}

/* g's live edges are exactly the multiset `want` (sorted here). */
static int same_edges(const fal_graph *g, triples *want)
{
  triples have = {0};
  for (fal_point p = 0; p < g->npoints; p++)
    for (int64_t s = g->offsets[p]; s < g->end[p]; s++)
      if (!g->edel[s])
        triples_push(&have, p, g->dst[s], g->weight[s]);
  qsort(want->t, (size_t)want->n, sizeof *want->t, compare_triples);
  if (have.n)
    qsort(have.t, (size_t)have.n, sizeof *have.t, compare_triples);
  int64_t n = have.n, i = 0;
  while (i < n && i < want->n && compare_triples(&have.t[i], &want->t[i]) == 0)
    i++;
  triple h = i < n ? have.t[i] : (triple){-1, -1, 0};
  free(have.t);
  CHECK(n == want->n && i == n,
        "%lld edges, expected %lld; first difference at %lld: %d->%d w %d, expected %d->%d w %d",
        (long long)n, (long long)want->n, (long long)i, h.u, h.v, h.w,
        i < want->n ? want->t[i].u : -1, i < want->n ? want->t[i].v : -1,
        i < want->n ? want->t[i].w : 0);
  return 1;
}

/* tiny.txt made mutable, and its edges as triples. */
static int load_mutable(fal_graph *g, triples *want)
{
  CHECK(fal_graph_read(g, graph_path("tiny.txt"), FAL_FORMAT_AUTO) == 0,
        "tiny.txt did not load");
  CHECK(fal_graph_make_mutable(g, 3) == 0, "make_mutable failed");
  for (int p = 0; p < 7; p++)
    for (int64_t e = dir_off[p]; e < dir_off[p + 1]; e++)
      triples_push(want, p, dir_dst[e], dir_w[e]);
  return 1;
}

static int test_mutable_layout(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  CHECK(g.npoints == 7 && g.nedges == 11 && g.point_cap == 3 * 7 + 16,
        "npoints %lld nedges %lld point_cap %lld", (long long)g.npoints,
        (long long)g.nedges, (long long)g.point_cap);
  /* max(3 * degree, 4): five points of degree 2, one of 1, one of 0. */
  CHECK(g.slot_cap == 5 * 6 + 4 + 4 && g.nslots == g.slot_cap && g.src && g.pdel,
        "slot_cap %lld nslots %lld", (long long)g.slot_cap, (long long)g.nslots);
  for (fal_point p = 0; p < 7; p++) {
    int64_t deg = dir_off[p + 1] - dir_off[p];
    CHECK(fal_outdeg(&g, p) == deg && g.limit[p] - g.offsets[p] == (deg * 3 > 4 ? deg * 3 : 4),
          "point %d: degree %lld, capacity %lld", p, (long long)fal_outdeg(&g, p),
          (long long)(g.limit[p] - g.offsets[p]));
    for (int64_t i = 0; i < deg; i++) {
      int64_t s = g.offsets[p] + i;
      CHECK(g.dst[s] == dir_dst[dir_off[p] + i] && g.weight[s] == dir_w[dir_off[p] + i],
            "point %d: edge %lld moved out of order", p, (long long)i);
    }
  }
  CHECK(fal_graph_make_mutable(&g, 3) == 0 && g.slot_cap == 38, "a second call changed it");
  int ok = mutable_consistent(&g) && same_edges(&g, &want);
  fal_graph zero = {0};
  fal_graph_free(&g);
  free(want.t);
  CHECK(ok ? memcmp(&g, &zero, sizeof g) == 0 : 0, "%s",
        ok ? "fal_graph_free left fields set" : why);
  return 1;
}

static int test_mutable_free_slots(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  uint64_t v0 = g.version;
  fal_edge a = fal_graph_add_edge(&g, 6, 0, 9), b = fal_graph_add_edge(&g, 0, 5, 3);
  triples_push(&want, 6, 0, 9);
  triples_push(&want, 0, 5, 3);
  CHECK(a == g.offsets[6] && b == g.offsets[0] + 2, "slots %lld and %lld", (long long)a,
        (long long)b);
  CHECK(g.nedges == 13 && g.end[6] == a + 1 && g.src[a] == 6 && !g.edel[a] && g.dirty,
        "the edges were not recorded");
  int seen = 0;
  for (int64_t s = g.offsets[0]; s < g.end[0]; s++)
    seen += !g.edel[s] && g.dst[s] == 5 && g.weight[s] == 3;
  CHECK(seen == 1, "iterating point 0 saw 0->5 %d times", seen);
  CHECK(fal_graph_settle(&g, NULL, NULL) == 0 && g.grows == 0,
        "settle grew without overflow");
  CHECK(g.version == v0 + 1 && !g.dirty, "settle after adds: version %llu, was %llu",
        (unsigned long long)g.version, (unsigned long long)v0);
  CHECK(fal_graph_settle(&g, NULL, NULL) == 0 && g.version == v0 + 1,
        "settle without changes bumped the version");
  int ok = mutable_consistent(&g) && same_edges(&g, &want);
  fal_graph_free(&g);
  free(want.t);
  return ok;
}

static int test_mutable_overflow(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  int in_region = 0, overflowed = 0;
  for (int i = 0; i < 10; i++) {
    fal_edge e = fal_graph_add_edge(&g, 0, (fal_point)(i % 7), 100 + i);
    triples_push(&want, 0, i % 7, 100 + i);
    if (e >= 0)
      CHECK(e < g.limit[0] && !g.edel[e], "slot %lld past point 0's region", (long long)e);
    in_region += e >= 0;
    overflowed += e < 0;
  }
  CHECK(in_region == 4 && overflowed == 6 && g.end[0] == g.limit[0],
        "%d in 0's region, %d overflowed", in_region, overflowed);
  CHECK(g.nedges == 21, "nedges %lld before settle", (long long)g.nedges);
  CHECK(fal_graph_getedge(&g, 0, 6) < 0, "an overflowed edge is visible before settle");
  int64_t v0 = (int64_t)g.version;
  CHECK(fal_graph_settle(&g, NULL, NULL) == 1, "settle did not grow");
  CHECK(g.grows == 1 && (int64_t)g.version == v0 + 1, "grows %lld", (long long)g.grows);
  CHECK(fal_outdeg(&g, 0) == 12 && g.limit[0] - g.offsets[0] == 36,
        "point 0: degree %lld, capacity %lld", (long long)fal_outdeg(&g, 0),
        (long long)(g.limit[0] - g.offsets[0]));
  CHECK(fal_graph_getweight(&g, 0, 6) == 106, "0->6 weighs %d", fal_graph_getweight(&g, 0, 6));
  CHECK(fal_graph_settle(&g, NULL, NULL) == 0 && g.grows == 1, "a second settle grew");
  int ok = mutable_consistent(&g) && same_edges(&g, &want);
  fal_graph_free(&g);
  free(want.t);
  return ok;
}

/* Batches of edges on one point at a time, settled after each. */
static int test_mutable_grow_repeatedly(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  int64_t first_cap = g.slot_cap;
  int ok = 1;
  for (int round = 0; round < 12 && ok; round++) {
    fal_point u = (fal_point)(round % 7);
    for (int i = 0; i < 20 * (round + 1); i++) {
      fal_weight w = round * 1000 + i;
      fal_graph_add_edge(&g, u, (fal_point)((i * 3) % 7), w);
      triples_push(&want, u, (i * 3) % 7, w);
    }
    ok = fal_graph_settle(&g, NULL, NULL) >= 0 && mutable_consistent(&g) &&
         same_edges(&g, &want);
    if (!ok)
      fail_in("after a round");
  }
  int64_t grows = g.grows, cap = g.slot_cap;
  fal_graph_free(&g);
  free(want.t);
  if (!ok)
    return 0;
  CHECK(grows >= 3 && cap >= 4 * first_cap, "grew %lld times, slot_cap %lld from %lld",
        (long long)grows, (long long)cap, (long long)first_cap);
  return 1;
}

/* Many threads add edges and points.  Four hot points first get room
 * for about 15000 more edges each (a settled serial phase); then 8
 * threads add 64000 edges to them (contended slots, then overflow),
 * 36000 spread over all points (small regions that overflow at once),
 * and 2500 points, past point_cap, with edges from and to each. */
static int test_mutable_concurrent(void)
{
  fal_graph g = {0};
  triples want = {0};
  enum { N = 1000, HOT = 4, WARM = 30000, ADDS = 100000, EVERY = 40 };
  CHECK(fal_graph_gen_uniform(&g, N, 5 * N, 11) == 0, "gen uniform failed");
  for (fal_point p = 0; p < N; p++)
    for (int64_t e = g.offsets[p]; e < g.offsets[p + 1]; e++)
      triples_push(&want, p, g.dst[e], g.weight[e]);
  CHECK(fal_graph_make_mutable(&g, 3) == 0, "make_mutable failed");
  for (int i = 0; i < WARM; i++) {
    fal_graph_add_edge(&g, i % HOT, (fal_point)(i % N), -1000000 - i);
    triples_push(&want, i % HOT, i % N, -1000000 - i);
  }
  CHECK(fal_graph_settle(&g, NULL, NULL) == 1 && g.grows == 1, "warm-up did not grow");
  int64_t pcap = g.point_cap, room = 0;
  for (fal_point p = 0; p < HOT; p++)
    room += g.limit[p] - g.end[p];
  fal_point *added = calloc(ADDS / EVERY, sizeof *added);
  fal_edge *slot = malloc(ADDS * sizeof *slot);
  int threads = 0;
#pragma omp parallel for num_threads(8) schedule(dynamic, 16)
  for (int i = 0; i < ADDS; i++) {
    if (i == 0)
      threads = omp_get_num_threads();
    fal_point u = i % 25 < 16 ? i % HOT : (fal_point)(i % N);
    slot[i] = fal_graph_add_edge(&g, u, (fal_point)((i * 7) % N), i);
    if (i % EVERY == 0) {
      fal_point q = fal_graph_add_point(&g);
      added[i / EVERY] = q;
      fal_graph_add_edge(&g, q, (fal_point)(i % N), -i);
      fal_graph_add_edge(&g, (fal_point)(i % N), q, -i - 1);
    }
  }
  int64_t in_place = 0;
  for (int i = 0; i < ADDS; i++) {
    fal_point u = i % 25 < 16 ? i % HOT : (fal_point)(i % N);
    triples_push(&want, u, (i * 7) % N, i);
    if (slot[i] >= 0) {
      CHECK(g.src[slot[i]] == u && g.weight[slot[i]] == i && !g.edel[slot[i]],
            "slot %lld returned for edge %d holds another edge", (long long)slot[i], i);
      in_place++;
    }
    if (i % EVERY == 0) {
      triples_push(&want, added[i / EVERY], i % N, -i);
      triples_push(&want, i % N, added[i / EVERY], -i - 1);
    }
  }
  free(added);
  free(slot);
  CHECK(in_place >= room && in_place < ADDS, "%lld edges in place (room for %lld on hot points)",
        (long long)in_place, (long long)room);
  CHECK(g.npoints == N + ADDS / EVERY && g.npoints > pcap,
        "%lld points (point_cap %lld)", (long long)g.npoints, (long long)pcap);
  CHECK(g.nedges == want.n, "nedges %lld, expected %lld", (long long)g.nedges,
        (long long)want.n);
  int r = fal_graph_settle(&g, NULL, NULL);
  int ok = r == 1 && g.point_cap >= 2 * pcap && mutable_consistent(&g) &&
           same_edges(&g, &want);
  fal_graph_free(&g);
  free(want.t);
  CHECK(threads > 1, "ran on %d thread(s)", threads);
  return ok ? 1 : fail_in(r == 1 ? "after settle" : "settle did not grow");
}

/* Points added past point_cap, settled; then a settle ahead of need. */
static int test_mutable_add_points(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  int64_t pcap = g.point_cap;
  for (int i = 0; i < 40; i++) {
    fal_point q = fal_graph_add_point(&g);
    CHECK(q == 7 + i, "addPoint gave %d, expected %d", q, 7 + i);
    fal_graph_add_edge(&g, q, (fal_point)(q - 1), i);
    triples_push(&want, q, q - 1, i);
  }
  CHECK(g.npoints == 47 && g.npoints > pcap, "%lld points", (long long)g.npoints);
  CHECK(fal_graph_settle(&g, NULL, NULL) == 1 && g.point_cap >= 2 * pcap &&
        g.point_cap >= 3 * 47 + 16, "point_cap %lld after settle", (long long)g.point_cap);
  for (fal_point q = 7; q < 47; q++)
    CHECK(fal_outdeg(&g, q) == 1 && !g.pdel[q] && g.dst[g.offsets[q]] == q - 1,
          "new point %d: degree %lld", q, (long long)fal_outdeg(&g, q));
  int ok = mutable_consistent(&g) && same_edges(&g, &want);
  /* 2 * npoints > point_cap: settle grows before a loop could run out. */
  int64_t grows = g.grows;
  while (2 * (g.npoints + 1) <= g.point_cap)
    fal_graph_add_point(&g);
  CHECK(ok && fal_graph_settle(&g, NULL, NULL) == 0, "%s", ok ? "grew too early" : why);
  fal_graph_add_point(&g);
  CHECK(fal_graph_settle(&g, NULL, NULL) == 1 && g.grows == grows + 1 &&
        2 * g.npoints <= g.point_cap, "did not grow with half the point ids left");
  ok = mutable_consistent(&g) && same_edges(&g, &want);
  fal_graph_free(&g);
  free(want.t);
  return ok;
}

static int test_mutable_delete(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  fal_graph_build_in_edges(&g);
  CHECK(g.in_offsets && g.in_offsets[7] == 11, "in-edges of the mutable graph");
  /* Delete 1->3 (w 5) twice: counted once. */
  fal_edge e = fal_graph_getedge(&g, 1, 3);
  CHECK(e == g.offsets[1] + 1, "getedge(1, 3) = %lld", (long long)e);
  fal_graph_del_edge(&g, e);
  fal_graph_del_edge(&g, e);
  CHECK(g.edel[e] && g.nedges == 10 && fal_graph_getedge(&g, 1, 3) < 0 &&
        fal_graph_getweight(&g, 1, 3) == 0, "deleted edge still counted or found");
  fal_graph_del_point(&g, 5);
  fal_graph_del_point(&g, 5);
  CHECK(g.pdel[5] && g.nedges == 10, "delpoint: pdel %d nedges %lld", g.pdel[5],
        (long long)g.nedges);
  CHECK(fal_graph_settle(&g, NULL, NULL) == 0, "settle grew");
  /* In-edges now: 10 live edges less 3->5, 4->5 (into 5) and 5->6. */
  CHECK(g.in_offsets[g.point_cap] == 7 && fal_indeg(&g, 5) == 0 && fal_indeg(&g, 3) == 2 &&
        fal_indeg(&g, 6) == 1, "in-edges not rebuilt: %lld in all",
        (long long)g.in_offsets[g.point_cap]);
  for (fal_point q = 0; q < 7; q++)
    for (int64_t i = g.in_offsets[q]; i < g.in_offsets[q + 1]; i++)
      CHECK(g.dst[g.in_edge[i]] == q && g.src[g.in_edge[i]] == g.in_src[i],
            "in-edge %lld of %d", (long long)i, q);
  /* A point with no storage yet, deleted; growth keeps the marks. */
  int64_t pcap = g.point_cap;
  fal_point q = 0;
  while (q < pcap)
    q = fal_graph_add_point(&g);
  fal_graph_del_point(&g, q);
  for (int i = 0; i < 30; i++) {
    fal_graph_add_edge(&g, 4, 0, i);
    triples_push(&want, 4, 0, i);
  }
  CHECK(fal_graph_settle(&g, NULL, NULL) == 1, "settle did not grow");
  CHECK(g.pdel[q] && g.pdel[5] && !g.pdel[4] && g.nedges == 40 &&
        fal_graph_getedge(&g, 1, 3) < 0 && fal_graph_getweight(&g, 5, 6) == 1,
        "after growth: pdel %d %d, nedges %lld", g.pdel[q], g.pdel[5], (long long)g.nedges);
  for (int64_t i = 0; i < want.n; i++)
    if (want.t[i].u == 1 && want.t[i].v == 3)
      want.t[i] = want.t[--want.n];
  int ok = mutable_consistent(&g) && same_edges(&g, &want);
  fal_graph_free(&g);
  free(want.t);
  return ok;
}

static int test_mutable_getedge(void)
{
  fal_graph g = {0};
  triples want = {0};
  if (!load_mutable(&g, &want))
    return 0;
  for (int p = 0; p < 7; p++)
    for (int64_t e = dir_off[p]; e < dir_off[p + 1]; e++) {
      fal_edge s = fal_graph_getedge(&g, p, dir_dst[e]);
      CHECK(s == g.offsets[p] + (e - dir_off[p]) && fal_graph_getweight(&g, p, dir_dst[e]) == dir_w[e],
            "edge %d->%d at slot %lld", p, dir_dst[e], (long long)s);
    }
  /* Lists are no longer sorted: 2->0 appended after 2->3, 2->4. */
  fal_edge a = fal_graph_add_edge(&g, 2, 0, 42);
  CHECK(fal_graph_getedge(&g, 2, 0) == a && fal_graph_getweight(&g, 2, 0) == 42,
        "appended edge not found");
  CHECK(fal_graph_getedge(&g, 6, 0) < 0 && fal_graph_getweight(&g, 0, 6) == 0,
        "an edge that does not exist was found");
  fal_point q = fal_graph_add_point(&g);
  fal_graph_add_edge(&g, q, 1, 8);
  CHECK(fal_graph_getedge(&g, q, 1) < 0, "an overflowed edge was found");
  fal_graph_settle(&g, NULL, NULL);
  CHECK(fal_graph_getweight(&g, q, 1) == 8 && fal_graph_getweight(&g, 2, 0) == 42,
        "edges not found after settle");
  fal_graph_free(&g);
  free(want.t);
  return 1;
}

/* Runs f in a child process with stderr to a file; returns its exit
 * status and the message in msg. */
static int in_child(void (*f)(void), char *msg, size_t size)
{
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(tmp_path("child.err"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    f();
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  FILE *fp = fopen(tmp_path("child.err"), "r");
  size_t n = fp ? fread(msg, 1, size - 1, fp) : 0;
  msg[n] = '\0';
  if (fp)
    fclose(fp);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Built by the parent: after OpenMP has run, a forked child must not
 * start parallel regions itself. */
static fal_graph err_mutable, err_read_only;

static void bad_add_edge(void) { fal_graph_add_edge(&err_mutable, 3, 99, 1); }
static void bad_del_edge(void) { fal_graph_del_edge(&err_mutable, -1); }
static void add_to_read_only(void) { fal_graph_add_edge(&err_read_only, 0, 1, 1); }

static int test_mutable_errors(void)
{
  char msg[512];
  triples want = {0};
  int ok = load_mutable(&err_mutable, &want) &&
           fal_graph_read(&err_read_only, graph_path("tiny.txt"), FAL_FORMAT_AUTO) == 0;
  free(want.t);
  if (!ok)
    return 0;
  int r = in_child(bad_add_edge, msg, sizeof msg);
  /* The first line (a sanitizer build may add its own after it). */
  const char *want_add = "falcon: error: addEdge(3, 99): no such point\n";
  CHECK(r == 1 && strncmp(msg, want_add, strlen(want_add)) == 0,
        "addEdge to a missing point: status %d, '%s'", r, msg);
  r = in_child(bad_del_edge, msg, sizeof msg);
  CHECK(r == 1 && strstr(msg, "falcon: error: deledge(-1): no such edge"),
        "deledge(-1): status %d, '%s'", r, msg);
  r = in_child(add_to_read_only, msg, sizeof msg);
  CHECK(r == 1 && strstr(msg, "falcon: error: addEdge on a graph that was not made mutable"),
        "addEdge on a read-only graph: status %d, '%s'", r, msg);
  fal_graph_free(&err_mutable);
  fal_graph_free(&err_read_only);
  return 1;
}

/* The fal_gbase glue: properties follow their elements. */
typedef struct tgraph {
  fal_gbase base;
  int *dist; /* point property */
  int *tag;  /* edge property */
  int *late; /* point property added after the graph became mutable */
} tgraph;

static int test_gbase_mutable(void)
{
  tgraph t = {0};
  fal_gbase *b = &t.base;
  fal_prop_add(b, (void **)&t.dist, sizeof *t.dist, FAL_PROP_POINT);
  fal_prop_add(b, (void **)&t.tag, sizeof *t.tag, FAL_PROP_EDGE);
  fal_gbase_read(b, graph_path("tiny.txt"));
  fal_graph *g = &b->csr;
  for (int e = 0; e < 11; e++)
    t.tag[e] = 1000 + e; /* CSR edge e */
  for (int p = 0; p < 7; p++)
    t.dist[p] = p + 1;
  fal_single_reset(b, 1);
  fal_gbase_mutable(b);
  CHECK(fal_graph_is_mutable(g) && b->is_mutable, "not mutable");
  for (int p = 0; p < 7; p++)
    for (int64_t e = dir_off[p]; e < dir_off[p + 1]; e++)
      CHECK(t.tag[g->offsets[p] + e - dir_off[p]] == 1000 + e,
            "edge %lld's tag did not follow it", (long long)e);
  fal_prop_add(b, (void **)&t.late, sizeof *t.late, FAL_PROP_POINT);
  t.late[g->point_cap] = 7; /* point_cap + 1 elements */
  t.dist[g->point_cap - 1] = 5;
  /* Tag every live edge by its endpoints, then overflow point 1. */
  for (int64_t s = 0; s < g->nslots; s++)
    if (!g->edel[s])
      t.tag[s] = g->src[s] * 100 + g->dst[s] + 1;
  for (int i = 0; i < 10; i++)
    fal_graph_add_edge(g, 1, (fal_point)(i % 7), 50 + i);
  CHECK(fal_gbase_grows(b) == 0, "grew before settle");
  setenv("FALCON_VERBOSE", "1", 1);
  capture_begin();
  int r = fal_gbase_settle(b);
  const char *err = capture_end();
  unsetenv("FALCON_VERBOSE");
  char line[200];
  snprintf(line, sizeof line, "falcon: graph grown: %lld points, %lld edge slots (growth 1)\n",
           (long long)g->point_cap, (long long)g->slot_cap);
  CHECK(r == 1 && fal_gbase_grows(b) == 1, "settle: %d, grows %lld", r,
        (long long)fal_gbase_grows(b));
  CHECK(strcmp(err, line) == 0, "FALCON_VERBOSE: '%s', expected '%s'", err, line);
  int fresh = 0;
  for (int64_t s = 0; s < g->nslots; s++) {
    if (g->edel[s])
      continue;
    if (g->src[s] == 1 && g->weight[s] >= 50) {
      CHECK(t.tag[s] == 0, "new edge at slot %lld has tag %d", (long long)s, t.tag[s]);
      fresh++;
    } else {
      CHECK(t.tag[s] == g->src[s] * 100 + g->dst[s] + 1,
            "slot %lld (%d->%d) has tag %d", (long long)s, g->src[s], g->dst[s], t.tag[s]);
    }
  }
  CHECK(fresh == 10, "%d new edges", fresh);
  for (int p = 0; p < 7; p++)
    CHECK(t.dist[p] == p + 1, "dist[%d] = %d", p, t.dist[p]);
  CHECK(t.late[g->point_cap] == 0 && b->single_elock, "point properties not resized");
  b->single_elock[g->slot_cap] = 1;
  /* addPoint past point_cap outside a parallel loop grows at once. */
  int64_t pcap = g->point_cap;
  fal_point q = 0;
  while (q < pcap)
    q = fal_gbase_add_point(b);
  CHECK(q < g->point_cap && fal_gbase_grows(b) == 2, "point %d, point_cap %lld", q,
        (long long)g->point_cap);
  t.dist[q] = 1;
  /* Loading again keeps the graph mutable. */
  fal_gbase_read(b, graph_path("tiny.txt"));
  CHECK(fal_graph_is_mutable(g) && g->nedges == 11 && g->point_cap == 37 &&
        fal_gbase_grows(b) == 0, "reloaded graph is not mutable");
  t.tag[g->slot_cap] = 1;
  t.dist[g->point_cap] = 1;
  fal_gbase_free(b);
  return 1;
}

/* A graph never read, made mutable and built by addPoint/addEdge. */
static int test_gbase_from_nothing(void)
{
  tgraph t = {0};
  fal_gbase *b = &t.base;
  fal_prop_add(b, (void **)&t.dist, sizeof *t.dist, FAL_PROP_POINT);
  fal_gbase_mutable(b);
  fal_graph *g = &b->csr;
  CHECK(b->loaded && g->npoints == 0 && g->point_cap == 16 && t.dist,
        "empty mutable graph: point_cap %lld", (long long)g->point_cap);
  for (int i = 0; i < 100; i++) {
    fal_point p = fal_gbase_add_point(b);
    t.dist[p] = i;
    if (p > 0)
      fal_graph_add_edge(g, p - 1, p, i);
  }
  fal_gbase_settle(b);
  for (fal_point p = 0; p < 100; p++)
    CHECK(t.dist[p] == p && fal_outdeg(g, p) == (p < 99) &&
          fal_graph_getweight(g, p, p + 1) == (p < 99 ? p + 1 : 0), "point %d", p);
  int ok = mutable_consistent(g);
  fal_gbase_free(b);
  return ok;
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
  run("direction rule of loops that pull (fal_dstate)", test_direction_rule);
  run("ORDERED cut, equal shares and FALCON_PART_SHARES", test_cut_ordered);
  run("rtclock", test_rtclock);
  run("mutable: layout of a converted CSR", test_mutable_layout);
  run("mutable: addEdge into free slots", test_mutable_free_slots);
  run("mutable: overflow, settle grows once", test_mutable_overflow);
  run("mutable: growing again and again", test_mutable_grow_repeatedly);
  run("mutable: concurrent addEdge/addPoint from OpenMP threads", test_mutable_concurrent);
  run("mutable: addPoint past point_cap", test_mutable_add_points);
  run("mutable: deleting edges and points, in-edges", test_mutable_delete);
  run("mutable: getedge/getweight", test_mutable_getedge);
  run("mutable: errors exit 1 with a message", test_mutable_errors);
  run("mutable: fal_gbase properties follow their elements", test_gbase_mutable);
  run("mutable: fal_gbase built from nothing", test_gbase_from_nothing);
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
