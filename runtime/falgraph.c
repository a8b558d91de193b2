/*
 * falgraph.c: the command-line face of libfalcon's graph runtime: inspect
 * a graph file, convert between formats, generate synthetic graphs.
 *
 *   falgraph info FILE
 *   falgraph convert IN OUT
 *   falgraph gen kron SCALE DEGREE SEED OUT
 *   falgraph gen grid ROWS COLS OUT
 *   falgraph gen uniform N M SEED OUT
 *
 * The output format follows OUT's extension (.bin binary CSR, .txt Falcon
 * text, .gr DIMACS).  Exit status: 0 success, 1 bad input or I/O error,
 * 2 bad usage.
 */
#include "falcon/graph.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct options {
  int weights;             /* --weights given */
  int64_t lo, hi, seed;
  fal_format format;       /* --format, else FAL_FORMAT_AUTO */
  const char *args[8];     /* the positional arguments */
  int nargs;
} options;

static void usage(FILE *f)
{
  fputs("usage: falgraph [options] info FILE\n"
        "       falgraph [options] convert IN OUT\n"
        "       falgraph [options] gen kron SCALE DEGREE SEED OUT\n"
        "       falgraph [options] gen grid ROWS COLS OUT\n"
        "       falgraph [options] gen uniform N M SEED OUT\n"
        "\n"
        "OUT ends in .bin (Falcon binary CSR), .txt (Falcon edge-list text)\n"
        "or .gr (DIMACS text).  Inputs may be in any format of the Falcon\n"
        "language reference (section 9), gzip- or xz-compressed.\n"
        "\n"
        "options:\n"
        "  --weights LO HI SEED  give every edge a pseudo-random weight in\n"
        "                        [LO, HI] (both directions of an undirected\n"
        "                        edge alike) before writing or printing\n"
        "  --format FMT          read the input as FMT: falcon, snap, dimacs,\n"
        "                        pace, mtx, galois or bin (default: detect)\n"
        "  --help                print this help\n", f);
}

static int usage_error(const char *fmt, const char *arg)
{
  fputs("falgraph: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\n(see falgraph --help)\n", stderr);
  return 2;
}

/* A whole decimal integer argument. */
static int parse_int(const char *s, int64_t *v)
{
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (end == s || *end || errno)
    return -1;
  *v = x;
  return 0;
}

static int parse_format(const char *s, fal_format *f)
{
  static const struct { const char *name; fal_format format; } names[] = {
    {"falcon", FAL_FORMAT_FALCON_TEXT}, {"snap", FAL_FORMAT_SNAP},
    {"dimacs", FAL_FORMAT_DIMACS}, {"pace", FAL_FORMAT_PACE},
    {"mtx", FAL_FORMAT_MTX}, {"galois", FAL_FORMAT_GALOIS_GR},
    {"bin", FAL_FORMAT_FALCON_BIN}, {"auto", FAL_FORMAT_AUTO},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i].name) == 0) {
      *f = names[i].format;
      return 0;
    }
  return -1;
}

/* Options may come anywhere; everything else is positional. */
static int parse_args(int argc, char **argv, options *o)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      exit(0);
    } else if (strcmp(a, "--weights") == 0) {
      if (i + 3 >= argc || parse_int(argv[i + 1], &o->lo) ||
          parse_int(argv[i + 2], &o->hi) || parse_int(argv[i + 3], &o->seed))
        return usage_error("%s needs three integers: LO HI SEED", a);
      if (o->lo < INT32_MIN || o->hi > INT32_MAX || o->lo > o->hi)
        return usage_error("%s: need LO <= HI, both 32-bit", a);
      o->weights = 1;
      i += 3;
    } else if (strcmp(a, "--format") == 0) {
      if (i + 1 >= argc || parse_format(argv[i + 1], &o->format))
        return usage_error("%s needs falcon, snap, dimacs, pace, mtx, galois or bin", a);
      i++;
    } else if (a[0] == '-' && a[1] == '-') {
      return usage_error("unknown option '%s'", a);
    } else if (o->nargs == (int)(sizeof o->args / sizeof o->args[0])) {
      return usage_error("too many arguments (at '%s')", a);
    } else {
      o->args[o->nargs++] = a;
    }
  }
  return 0;
}

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* 0 when OUT names a format we write, else a usage error. */
static int check_output(const char *out)
{
  if (ends_with(out, ".bin") || ends_with(out, ".txt") || ends_with(out, ".gr"))
    return 0;
  return usage_error("cannot tell the output format of '%s' "
                     "(use .bin, .txt or .gr)", out);
}

static int write_graph(fal_graph *g, const char *out, const options *o)
{
  int r;
  if (o->weights)
    fal_graph_random_weights(g, (uint64_t)o->seed, (fal_weight)o->lo,
                             (fal_weight)o->hi);
  if (ends_with(out, ".bin"))
    r = fal_graph_write_bin(g, out);
  else if (ends_with(out, ".txt"))
    r = fal_graph_write_text(g, out);
  else
    r = fal_graph_write_dimacs(g, out);
  fal_graph_free(g);
  return r == 0 ? 0 : 1;
}

/* ---- commands ---------------------------------------------------------------- */

static void print_degrees(const fal_graph *g)
{
  int64_t lo = 0, hi = 0, loops = 0, hub = 0;
  for (int64_t p = 0; p < g->npoints; p++) {
    int64_t d = g->offsets[p + 1] - g->offsets[p];
    if (p == 0 || d < lo)
      lo = d;
    if (d > hi) {
      hi = d;
      hub = p;
    }
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++)
      loops += g->dst[e] == p;
  }
  printf("points: %lld\n", (long long)g->npoints);
  printf("edges: %lld\n", (long long)g->nedges);
  if (g->directed)
    printf("directed: yes\n");
  else
    printf("directed: no (%lld undirected edges, stored both ways)\n",
           (long long)(g->nedges + loops) / 2);
  printf("self loops: %lld\n", (long long)loops);
  printf("min degree: %lld\nmax degree: %lld (point %lld)\n", (long long)lo,
         (long long)hi, (long long)hub);
  if (g->npoints > 0)
    printf("point 0 degree: %lld\n", (long long)(g->offsets[1] - g->offsets[0]));
}

static void print_weights(const fal_graph *g)
{
  if (g->nedges == 0)
    return;
  fal_weight lo = g->weight[0], hi = g->weight[0];
  for (int64_t e = 1; e < g->nedges; e++) {
    if (g->weight[e] < lo)
      lo = g->weight[e];
    if (g->weight[e] > hi)
      hi = g->weight[e];
  }
  printf("weights: %ld..%ld\n", (long)lo, (long)hi);
}

static int cmd_info(const options *o)
{
  if (o->nargs != 2)
    return usage_error("%s needs one FILE", "info");
  fal_graph g = {0};
  double t = fal_rtclock();
  if (fal_graph_read(&g, o->args[1], o->format) != 0)
    return 1;
  t = fal_rtclock() - t;
  if (o->weights)
    fal_graph_random_weights(&g, (uint64_t)o->seed, (fal_weight)o->lo,
                             (fal_weight)o->hi);
  printf("file: %s\n", o->args[1]);
  print_degrees(&g);
  print_weights(&g);
  printf("load time: %.3f s\n", t);
  fal_graph_free(&g);
  return 0;
}

static int cmd_convert(const options *o)
{
  if (o->nargs != 3)
    return usage_error("%s needs IN and OUT", "convert");
  if (check_output(o->args[2]))
    return 2;
  fal_graph g = {0};
  if (fal_graph_read(&g, o->args[1], o->format) != 0)
    return 1;
  return write_graph(&g, o->args[2], o);
}

/* The integer arguments of `gen KIND ...`, then OUT. */
static int gen_args(const options *o, int want, int64_t *v)
{
  if (o->nargs != want + 3)
    return usage_error("wrong number of arguments for 'gen %s' "
                       "(see falgraph --help)", o->args[1]);
  for (int i = 0; i < want; i++)
    if (parse_int(o->args[2 + i], &v[i]))
      return usage_error("expected an integer, found '%s'", o->args[2 + i]);
  return check_output(o->args[want + 2]);
}

static int cmd_gen(const options *o)
{
  fal_graph g = {0};
  int64_t v[3];
  int r;
  if (o->nargs < 2)
    return usage_error("%s needs a generator: kron, grid or uniform", "gen");
  const char *kind = o->args[1];
  if (strcmp(kind, "kron") == 0) {
    if (gen_args(o, 3, v))
      return 2;
    if (v[0] < 0 || v[0] > 64 || v[1] < 0 || v[1] > 1 << 20)
      return usage_error("%s: SCALE or DEGREE out of range", kind);
    r = fal_graph_gen_kron(&g, (int)v[0], (int)v[1], (uint64_t)v[2]);
  } else if (strcmp(kind, "grid") == 0) {
    if (gen_args(o, 2, v))
      return 2;
    r = fal_graph_gen_grid(&g, v[0], v[1]);
  } else if (strcmp(kind, "uniform") == 0) {
    if (gen_args(o, 3, v))
      return 2;
    r = fal_graph_gen_uniform(&g, v[0], v[1], (uint64_t)v[2]);
  } else {
    return usage_error("unknown generator '%s' (kron, grid or uniform)", kind);
  }
  if (r != 0)
    return 2;
  return write_graph(&g, o->args[o->nargs - 1], o);
}

int main(int argc, char **argv)
{
  options o = {0};
  int r = parse_args(argc, argv, &o);
  if (r != 0)
    return r;
  if (o.nargs == 0)
    return usage_error("%s", "no command (info, convert or gen)");
  const char *cmd = o.args[0];
  if (strcmp(cmd, "info") == 0)
    return cmd_info(&o);
  if (strcmp(cmd, "convert") == 0)
    return cmd_convert(&o);
  if (strcmp(cmd, "gen") == 0)
    return cmd_gen(&o);
  return usage_error("unknown command '%s' (info, convert or gen)", cmd);
}
