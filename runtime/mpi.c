/*
 * mpi.c: the MPI layer of partitioned programs (falcon/mpi.h; falconc
 * --mpi).  Compiled with mpicc into libfalcon_mpi.a, only when ./configure
 * found MPI.
 */
#define _GNU_SOURCE /* on_exit */
#include "falcon/mpi.h"
#include "falcon/falcon.h"

#include <mpi.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int fal_rank_, fal_size_ = 1, fal_inited_, fal_local_, fal_nlocal_ = 1;
static fal_mpi_plan *fal_plans_[64];
static int fal_nplans_;

int fal_mpi_rank(void) { return fal_rank_; }
int fal_mpi_size(void) { return fal_size_; }

int fal_mpi_local_rank(void) { return fal_local_; }
int fal_mpi_local_size(void) { return fal_nlocal_; }

void fal_mpi_abort(int status)
{
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status > 0 ? status : 1);
  _exit(status > 0 ? status : 1);
}

static void fail(const char *fmt, ...)
{
  char msg[1024]; /* one write, so the ranks' messages do not interleave */
  int k = snprintf(msg, sizeof msg, "falcon: rank %d: ", fal_rank_);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + k, sizeof msg - (size_t)k - 1, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s\n", msg);
  fal_mpi_abort(1);
}

static void *xalloc(size_t n)
{
  void *p = calloc(n ? n : 1, 1);
  if (!p)
    fail("out of memory (%zu bytes)", n);
  return p;
}

/* Loops over fewer entries than this run on one thread: a parallel
 * region costs microseconds, which road graphs' thousands of rounds of a
 * few hundred records each would pay many times over. */
enum { FAL_MPI_SERIAL = 4096 };

static void check(int rc, const char *what)
{
  if (rc != MPI_SUCCESS)
    fail("%s failed (MPI error %d)", what, rc);
}

static void print_counters(void)
{
  if (!fal_verbose())
    return;
  for (int i = 0; i < fal_nplans_; i++) {
    const fal_mpi_plan *pl = fal_plans_[i];
    fprintf(stderr, "falcon: rank %d of %d: points [%lld, %lld), %d neighbour rank(s), "
            "%lld ghosts, %lld border entries, %lld rounds, %lld messages, %lld records sent "
            "(%lld bytes)\n", pl->rank, pl->nranks, (long long)pl->lo[pl->rank],
            (long long)pl->lo[pl->rank + 1], pl->nnbr, (long long)pl->goff[pl->nnbr],
            (long long)pl->boff[pl->nnbr], (long long)pl->rounds, (long long)pl->sent_messages,
            (long long)pl->sent_records, (long long)pl->sent_bytes);
    fprintf(stderr, "falcon: rank %d: exchanges took %.1f ms packing, %.1f ms waiting for "
            "messages, %.1f ms applying them\n", pl->rank, 1e3 * pl->t_pack, 1e3 * pl->t_wait,
            1e3 * pl->t_apply);
    if (pl->mark)
      fprintf(stderr, "falcon: rank %d: %lld ghost and border entries copied from its GPU, "
              "%lld points to it\n", pl->rank, (long long)pl->dev_pulled,
              (long long)pl->dev_pushed);
    if (pl->windows)
      fprintf(stderr, "falcon: rank %d: %lld rounds with a window the ranks share "
              "(%lld rounds in all)\n", pl->rank, (long long)pl->windows, (long long)pl->rounds);
    if (pl->dev_reps)
      fprintf(stderr, "falcon: rank %d: %lld launches of phases repeated until they settled "
              "(%lld rounds)\n", pl->rank, (long long)pl->dev_reps, (long long)pl->rounds);
  }
  FILE *f = fopen("/proc/self/status", "r"); /* Linux: the rank's peak memory */
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) {
      fprintf(stderr, "falcon: peak resident memory of rank %d: %lld MiB\n", fal_rank_,
              atoll(line + 6) / 1024);
      break;
    }
  if (f)
    fclose(f);
}

static const char *site_name(int site, char *buf, size_t n)
{
  switch (site) {
  case FAL_MPI_SITE_GATHER: return "reading the partitioned graph in host code";
  case FAL_MPI_SITE_REDUCE: return "a reduction over the partitioned graph";
  case FAL_MPI_SITE_EXIT: return "the end of the program";
  default: snprintf(buf, n, "the foreach at line %d", site); return buf;
  }
}

void fal_mpi_sync(int site)
{
  int v[2] = {site, -site}, r[2];
  check(MPI_Allreduce(v, r, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (r[0] == -r[1])
    return;
  char buf[64];
  fail("the ranks took different paths: this one is at %s, another is not (host "
       "code must do the same on every rank; a host variable written inside a "
       "foreach over a partitioned graph is each rank's own: use a graph "
       "property such as hg.changed[0])", site_name(site, buf, sizeof buf));
}

/* A program that exits with a status other than 0 (an error on this rank:
 * a graph that does not load, a bad argument) stops every rank, so none
 * waits for it; status 0 finalizes. */
static void at_exit(int status, void *arg)
{
  (void)arg;
  int fin = 0;
  MPI_Finalized(&fin);
  if (fin)
    return;
  if (status != 0)
    fal_mpi_abort(status);
  fal_mpi_sync(FAL_MPI_SITE_EXIT);
  print_counters();
  MPI_Finalize();
}

__attribute__((constructor)) static void fal_mpi_start(void)
{
  int provided;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "falcon: MPI_Init failed\n");
    _exit(1);
  }
  fal_inited_ = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &fal_rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &fal_size_);
  MPI_Comm node; /* the ranks of this machine: a collective step, so here */
  int local = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, fal_rank_, MPI_INFO_NULL,
                          &node) == MPI_SUCCESS) {
    MPI_Comm_rank(node, &fal_local_);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    fal_nlocal_ = local;
  }
  on_exit(at_exit, NULL);
  /* Ranks that share a machine and are not bound to cores (mpirun
   * --bind-to none) would each start a thread per core and fight for
   * them: unless OMP_NUM_THREADS says otherwise, each takes its share.
   * A rank bound to some cores already gets that many from OpenMP. */
#if defined(_OPENMP) && defined(CPU_COUNT)
  cpu_set_t mask;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (!getenv("OMP_NUM_THREADS") && local > 1 && sched_getaffinity(0, sizeof mask, &mask) == 0 &&
      CPU_COUNT(&mask) >= online)
    omp_set_num_threads(online / local > 1 ? (int)(online / local) : 1);
#endif
  const char *o = getenv("FALCON_MPI_OUTPUT");
  if (fal_rank_ != 0 && !(o && strcmp(o, "all") == 0))
    if (!freopen("/dev/null", "w", stdout))
      fail("cannot send stdout to /dev/null");
}

FILE *fal_mpi_fopen(const char *path, const char *mode)
{
  const char *o = getenv("FALCON_MPI_OUTPUT");
  if (fal_rank_ != 0 && !(o && strcmp(o, "all") == 0) && mode &&
      strpbrk(mode, "wa+"))
    return fopen("/dev/null", mode);
  return fopen(path, mode);
}

/* ---- the plan: ranges, ghosts, borders --------------------------------- */

static int owner_of(const int64_t *lo, int k, int64_t p)
{
  int a = 0, b = k - 1; /* the last r with lo[r] <= p */
  while (a < b) {
    int mid = (a + b + 1) / 2;
    if (lo[mid] <= p)
      a = mid;
    else
      b = mid - 1;
  }
  return a;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

typedef struct {
  uint64_t *v;
  size_t n, cap;
} vec;

static void vpush(vec *v, int r, int64_t p)
{
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 1024;
    v->v = (uint64_t *)realloc(v->v, v->cap * sizeof *v->v);
    if (!v->v)
      fail("out of memory building the ghost lists");
  }
  v->v[v->n++] = (uint64_t)r << 32 | (uint64_t)p;
}

static size_t vsort_unique(vec *v)
{
  if (v->n)
    qsort(v->v, v->n, sizeof *v->v, cmp_u64);
  size_t k = 0;
  for (size_t i = 0; i < v->n; i++)
    if (k == 0 || v->v[i] != v->v[k - 1])
      v->v[k++] = v->v[i];
  return v->n = k;
}

/* An edge u -> v between two ranks makes v a ghost of u's rank and u a
 * ghost of v's (a program may read or write either end); each end is a
 * border point of its owner towards the other.  From the whole graph: */
static void scan_all(fal_mpi_plan *pl, const fal_graph *csr, vec *g, vec *bd)
{
  int k = pl->nranks, me = pl->rank;
  int64_t n = csr->npoints, mylo = pl->lo[me], myhi = pl->lo[me + 1];
  const int64_t *off = csr->offsets;
  for (int64_t u = 0; u < n; u++) {
    int ou = owner_of(pl->lo, k, u);
    int64_t end = csr->end ? csr->end[u] : off[u + 1]; /* §6 layout: slots in use */
    for (int64_t e = off[u]; e < end; e++) {
      int64_t v = csr->dst[e];
      if (csr->edel && csr->edel[e])
        continue;
      if (v >= mylo && v < myhi) {
        if (ou != me) {
          vpush(g, ou, u);
          vpush(bd, ou, v);
        }
      } else if (ou == me) {
        int ov = owner_of(pl->lo, k, v);
        vpush(g, ov, v);
        vpush(bd, ov, u);
      }
    }
  }
}

/* One MPI_Alltoallv of point ids, at load time: sb holds sc[r] ids for
 * rank r, rank after rank.  Returns what arrived, rank after rank: rc[r]
 * ids from rank r, from rd[r] on (*got in all).  `what` names the ids in
 * the error when an int cannot count them. */
static fal_point *swap_points(const fal_point *sb, const int *sc, int *rc, int *rd,
                              int64_t *got, const char *what)
{
  int k = fal_size_;
  int *sd = (int *)xalloc((size_t)k * sizeof(int));
  int64_t at = 0;
  for (int r = 0; r < k; r++) {
    sd[r] = (int)at;
    at += sc[r];
    if (at > INT_MAX)
      fail("more than %d %s to send at load time (use more ranks)", INT_MAX, what);
  }
  check(MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
  at = 0;
  for (int r = 0; r < k; r++) {
    rd[r] = (int)at;
    at += rc[r];
    if (at > INT_MAX)
      fail("more than %d %s to receive at load time (use more ranks)", INT_MAX, what);
  }
  fal_point *rb = (fal_point *)xalloc((size_t)at * sizeof(fal_point));
  check(MPI_Alltoallv(sb, sc, sd, MPI_INT32_T, rb, rc, rd, MPI_INT32_T, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  free(sd);
  *got = at;
  return rb;
}

/* Sends each rank r the entries of v for r (sorted by rank), as points;
 * returns what the others sent me, with each sender as the entry's rank. */
static vec swap_lists(const fal_mpi_plan *pl, const vec *v)
{
  int k = pl->nranks;
  int *sc = (int *)xalloc((size_t)k * sizeof(int)), *rc = (int *)xalloc((size_t)k * sizeof(int));
  int *rd = (int *)xalloc((size_t)k * sizeof(int));
  fal_point *sb = (fal_point *)xalloc(v->n * sizeof(fal_point));
  for (size_t i = 0; i < v->n; i++) {
    sc[v->v[i] >> 32]++;
    sb[i] = (fal_point)(v->v[i] & 0xffffffffu);
  }
  int64_t got;
  fal_point *rb = swap_points(sb, sc, rc, rd, &got, "ghost entries");
  vec out = {0};
  for (int r = 0; r < k; r++)
    for (int i = 0; i < rc[r]; i++)
      vpush(&out, r, rb[rd[r] + i]);
  free(sc), free(rc), free(rb), free(sb), free(rd);
  return out;
}

/* Rows only: a rank sees the edges that leave its points, not those that
 * enter them.  From mine, u -> v with v on rank r: v is my ghost and u my
 * border point towards r; r learns the same edge the other way round (u
 * its ghost, v its border point) from the two lists I send it. */
static void scan_rows(fal_mpi_plan *pl, const fal_graph *csr, vec *g, vec *bd)
{
  int k = pl->nranks, me = pl->rank;
  int64_t n = csr->npoints, mylo = pl->lo[me], myhi = pl->lo[me + 1];
  const int64_t *off = csr->offsets;
  /* each entry once, without a list of every crossing edge: a bit per
   * point for the ghosts, the last point entered per rank for the border */
  uint64_t *seen = (uint64_t *)xalloc(((size_t)n + 63) / 64 * sizeof *seen);
  int64_t *last = (int64_t *)xalloc((size_t)k * sizeof *last);
  for (int r = 0; r < k; r++)
    last[r] = -1;
  for (int64_t u = mylo; u < myhi; u++)
    for (int64_t e = off[u]; e < off[u + 1]; e++) {
      int64_t v = csr->dst[e];
      if (v >= mylo && v < myhi)
        continue;
      seen[v >> 6] |= (uint64_t)1 << (v & 63);
      int ov = owner_of(pl->lo, k, v);
      if (last[ov] != u) {
        last[ov] = u;
        vpush(bd, ov, u);
      }
    }
  for (int64_t v = 0, r = 0; v < n; v++) /* in order: by rank, then point */
    if (seen[v >> 6] >> (v & 63) & 1) {
      while (pl->lo[r + 1] <= v)
        r++;
      vpush(g, (int)r, v);
    }
  free(seen);
  free(last);
  vsort_unique(bd); /* by rank for swap_lists (g is in order already) */
  vec theirs = swap_lists(pl, bd), mine = swap_lists(pl, g);
  for (size_t i = 0; i < theirs.n; i++) /* their border points: my ghosts */
    vpush(g, (int)(theirs.v[i] >> 32), (int64_t)(theirs.v[i] & 0xffffffffu));
  for (size_t i = 0; i < mine.n; i++) /* my points they hold: my border */
    vpush(bd, (int)(mine.v[i] >> 32), (int64_t)(mine.v[i] & 0xffffffffu));
  free(theirs.v);
  free(mine.v);
}

void fal_mpi_plan_init(fal_mpi_plan *pl, const fal_graph *csr, size_t rec)
{
  memset(pl, 0, sizeof *pl);
  int k = pl->nranks = fal_size_, me = pl->rank = fal_rank_;
  pl->rec = pl->cur = rec;
  int64_t n = csr->npoints;
  const int64_t *off = csr->offsets;
  pl->lo = (int64_t *)xalloc((size_t)(k + 1) * sizeof *pl->lo);
  /* ORDERED: contiguous, balanced by out-edges (the cut a rows-only read
   * made: its offsets are shifted by row_e0) */
  int64_t base = csr->rows ? csr->row_e0 : 0;
  fal_graph_cut_ordered(off, base, n, off[n] + base, k, pl->lo);
  if (csr->rows && (pl->lo[me] != csr->row_lo || pl->lo[me + 1] != csr->row_hi))
    fail("the graph was read for another number of ranks");
  vec g = {0}, bd = {0};
  if (csr->rows)
    scan_rows(pl, csr, &g, &bd);
  else
    scan_all(pl, csr, &g, &bd);
  vsort_unique(&g);
  vsort_unique(&bd);
  /* neighbours: the ranks in either list (the relation is symmetric) */
  char *is = (char *)xalloc((size_t)k);
  for (size_t i = 0; i < g.n; i++)
    is[g.v[i] >> 32] = 1;
  for (size_t i = 0; i < bd.n; i++)
    is[bd.v[i] >> 32] = 1;
  pl->nbr = (int *)xalloc((size_t)k * sizeof *pl->nbr);
  for (int r = 0; r < k; r++)
    if (is[r])
      pl->nbr[pl->nnbr++] = r;
  free(is);
  pl->goff = (int64_t *)xalloc((size_t)(pl->nnbr + 1) * sizeof(int64_t));
  pl->boff = (int64_t *)xalloc((size_t)(pl->nnbr + 1) * sizeof(int64_t));
  pl->ghost = (fal_point *)xalloc(g.n * sizeof(fal_point));
  pl->border = (fal_point *)xalloc(bd.n * sizeof(fal_point));
  size_t gi = 0, bi = 0;
  for (int i = 0; i < pl->nnbr; i++) {
    pl->goff[i] = (int64_t)gi;
    while (gi < g.n && (int)(g.v[gi] >> 32) == pl->nbr[i]) {
      pl->ghost[gi] = (fal_point)(g.v[gi] & 0xffffffffu);
      gi++;
    }
    pl->boff[i] = (int64_t)bi;
    while (bi < bd.n && (int)(bd.v[bi] >> 32) == pl->nbr[i]) {
      pl->border[bi] = (fal_point)(bd.v[bi] & 0xffffffffu);
      bi++;
    }
  }
  pl->goff[pl->nnbr] = (int64_t)gi;
  pl->boff[pl->nnbr] = (int64_t)bi;
  for (int i = 0; i < pl->nnbr; i++) { /* a message's size is an int */
    int64_t most = pl->goff[i + 1] - pl->goff[i];
    if (pl->boff[i + 1] - pl->boff[i] > most)
      most = pl->boff[i + 1] - pl->boff[i];
    if (most > (int64_t)(INT_MAX / (sizeof(fal_point) + rec)))
      fail("%lld ghost or border points shared with rank %d: more than one MPI "
           "message holds (use more ranks)", (long long)most, pl->nbr[i]);
  }
  free(g.v);
  free(bd.v);
  pl->gshadow = (unsigned char *)xalloc(gi * rec);
  pl->bshadow = (unsigned char *)xalloc(bi * rec);
  size_t most = (gi > bi ? gi : bi) * (sizeof(fal_point) + rec);
  pl->sbuf = (unsigned char *)xalloc(most);
  pl->cbuf = (unsigned char *)xalloc(most);
  pl->rbuf = (unsigned char *)xalloc(most);
  pl->tmp = (unsigned char *)xalloc(rec);
  pl->chg = (unsigned char *)xalloc(gi > bi ? gi : bi);
  pl->idx = (int64_t *)xalloc((gi > bi ? gi : bi) * sizeof *pl->idx);
  pl->most = (int64_t)(gi > bi ? gi : bi);
  pl->ncount = (int64_t *)xalloc(((size_t)pl->nnbr + 1) * sizeof *pl->ncount);
  if (fal_nplans_ < 64)
    fal_plans_[fal_nplans_++] = pl;
}

void fal_mpi_plan_free(fal_mpi_plan *pl)
{
  free(pl->lo);
  free(pl->nbr);
  free(pl->goff);
  free(pl->boff);
  free(pl->ghost);
  free(pl->border);
  free(pl->gshadow);
  free(pl->bshadow);
  free(pl->sbuf);
  free(pl->cbuf);
  free(pl->rbuf);
  free(pl->tmp);
  free(pl->chg);
  free(pl->mark);
  free(pl->push);
  free(pl->idx);
  free(pl->ncount);
  free(pl->rchg);
  free(pl->pchg);
  for (int i = 0; i < fal_nplans_; i++)
    if (fal_plans_[i] == pl)
      fal_plans_[i] = fal_plans_[--fal_nplans_];
  memset(pl, 0, sizeof *pl);
}

void fal_mpi_snapshot(fal_mpi_plan *pl, void *g, fal_mpi_pack_fn pack, size_t cur)
{
  if (cur > pl->rec)
    fail("a record of %zu bytes, more than the %zu of every point property", cur, pl->rec);
  pl->cur = cur;
  double t0 = MPI_Wtime();
  /* the ghosts' shadows serve phase 1 only: a foreach that writes only
   * its own points changes no ghost (fal_mpi_exchange) */
  int64_t ng = pl->ex == FAL_EX_MERGE ? pl->goff[pl->nnbr] : 0, nb = pl->boff[pl->nnbr];
#pragma omp parallel for schedule(static) if (ng > FAL_MPI_SERIAL)
  for (int64_t i = 0; i < ng; i++)
    pack(g, pl->ghost[i], pl->gshadow + (size_t)i * cur);
#pragma omp parallel for schedule(static) if (nb > FAL_MPI_SERIAL)
  for (int64_t i = 0; i < nb; i++)
    pack(g, pl->border[i], pl->bshadow + (size_t)i * cur);
  pl->t_pack += MPI_Wtime() - t0; /* (the shadows are packing too) */
}

/* Whether the records of rec bytes at a and b differ: the usual sizes
 * (one int or float, one double or long, two of those) compare inline. */
static inline int rec_differs(const unsigned char *a, const unsigned char *b, size_t rec)
{
  switch (rec) {
  case 4:
    return memcmp(a, b, 4) != 0;
  case 8:
    return memcmp(a, b, 8) != 0;
  case 16:
    return memcmp(a, b, 16) != 0;
  default:
    return memcmp(a, b, rec) != 0;
  }
}

/* The indices j in [0, n) with f[j] set, in order, into out; clears them.
 * Each thread counts its share, then writes after the counts before it. */
static int64_t take_marked(unsigned char *f, int64_t n, int64_t *out)
{
  if (n <= 0)
    return 0;
  int nt = fal_mpi_threads();
  int64_t *cnt = (int64_t *)xalloc((size_t)nt * sizeof *cnt), total = 0;
#pragma omp parallel reduction(+ : total) if (n > FAL_MPI_SERIAL)
  {
    int t = fal_mpi_thread(), k = 1;
#ifdef _OPENMP
    k = omp_get_num_threads();
#endif
    int64_t lo = n * t / k, hi = n * (t + 1) / k, c = 0, base = 0;
    for (int64_t j = lo; j < hi; j++)
      c += f[j] != 0;
    cnt[t] = c;
#pragma omp barrier
    for (int u = 0; u < t; u++)
      base += cnt[u];
    for (int64_t j = lo; j < hi; j++)
      if (f[j]) {
        out[base++] = j;
        f[j] = 0;
      }
    total = c;
  }
  free(cnt);
  return total;
}

/* A GPU rank's phase applies a message's records and lists in pl->push
 * the points whose values that changed: every ghost refreshed, and every
 * point a merge changed, which is also flagged in pl->pchg (phase 2 then
 * sends its border entries). */
static void apply_marked(fal_mpi_plan *pl, void *g, const unsigned char *rb, int64_t nrec,
                         fal_mpi_pack_fn pack, fal_mpi_apply_fn apply, int merge)
{
  size_t rec = pl->cur, one = sizeof(fal_point) + rec;
  int64_t lo = pl->lo[pl->rank];
  fal_point *push = pl->push + pl->npush;
  if (!merge) {
#pragma omp parallel for schedule(static) if (nrec > FAL_MPI_SERIAL)
    for (int64_t j = 0; j < nrec; j++) {
      fal_point p;
      memcpy(&p, rb + (size_t)j * one, sizeof p);
      apply(g, p, rb + (size_t)j * one + sizeof(fal_point), 0);
      push[j] = p;
    }
    pl->npush += nrec;
    return;
  }
#pragma omp parallel if (nrec > FAL_MPI_SERIAL)
  {
    unsigned char *before = (unsigned char *)malloc(rec + 1), *after = (unsigned char *)malloc(rec + 1);
    if (!before || !after)
      fail("out of memory merging records");
#pragma omp for schedule(static)
    for (int64_t j = 0; j < nrec; j++) {
      fal_point p;
      memcpy(&p, rb + (size_t)j * one, sizeof p);
      pack(g, p, before);
      apply(g, p, rb + (size_t)j * one + sizeof(fal_point), 1);
      pack(g, p, after);
      pl->rchg[j] = memcmp(before, after, rec) != 0;
      if (pl->rchg[j])
        __atomic_store_n(&pl->pchg[p - lo], 1, __ATOMIC_RELAXED);
    }
    free(before);
    free(after);
  }
  int64_t k = take_marked(pl->rchg, nrec, pl->idx);
#pragma omp parallel for schedule(static) if (k > FAL_MPI_SERIAL)
  for (int64_t q = 0; q < k; q++)
    memcpy(&push[q], rb + (size_t)pl->idx[q] * one, sizeof(fal_point));
  pl->npush += k;
}

/* Each of neighbour i's nrec records at r names one of this rank's points
 * (own, phase 1) or of the graph's. */
static void check_records(const fal_mpi_plan *pl, const unsigned char *r, int64_t nrec, size_t one,
                          int own, int i)
{
  for (int64_t j = 0; j < nrec; j++) {
    fal_point p;
    memcpy(&p, r + (size_t)j * one, sizeof p);
    if (own ? p < pl->lo[pl->rank] || p >= pl->lo[pl->rank + 1]
            : p < pl->lo[0] || p >= pl->lo[pl->nranks])
      fail("a record for point %d from rank %d, not one of %s", (int)p, pl->nbr[i],
           own ? "this rank's points" : "the graph's points");
  }
}

/* The next of a phase's nn incoming messages (MPI_Waitany over req, the
 * time added to *waited): its neighbour's index at *who (unless NULL),
 * its records (point, record pairs of `one` bytes, at rbuf's slot roff[i]
 * of that neighbour i) at *rb, and their number, returned.  Each record's point is checked first: one
 * of this rank's points (own, phase 1) or of the graph. */
static int64_t next_message(const fal_mpi_plan *pl, MPI_Request *req, unsigned char *rbuf,
                            const int64_t *roff, size_t one, int own, int *who,
                            const unsigned char **rb, double *waited)
{
  int i;
  MPI_Status st;
  double w0 = MPI_Wtime();
  check(MPI_Waitany(pl->nnbr, req, &i, &st), "MPI_Waitany");
  *waited += MPI_Wtime() - w0;
  int bytes;
  MPI_Get_count(&st, MPI_BYTE, &bytes);
  const unsigned char *r = rbuf + (size_t)roff[i] * one;
  int64_t nrec = bytes / (int64_t)one;
  check_records(pl, r, nrec, one, own, i);
  if (who)
    *who = i;
  *rb = r;
  return nrec;
}

/* A phase's end: its sends complete (req's second half), and the time
 * since t1 (its messages all sent) counted as waiting (`waited` of it,
 * and the sends) or applying (the rest); req is freed. */
static void end_phase(fal_mpi_plan *pl, MPI_Request *req, double t1, double waited)
{
  int nn = pl->nnbr;
  double w1 = MPI_Wtime();
  if (nn)
    check(MPI_Waitall(nn, req + nn, MPI_STATUSES_IGNORE), "MPI_Waitall");
  double t2 = MPI_Wtime();
  pl->t_wait += waited + (t2 - w1);
  pl->t_apply += w1 - t1 - waited;
  free(req);
}

/* One phase: the entries of `list` (per neighbour: off[i] .. off[i + 1])
 * whose record changed go to their neighbour as (point, record) pairs,
 * one message each; what arrives (at most roff[i + 1] - roff[i] records
 * from neighbour i) is applied.  Which changed: a host rank packs every
 * entry and compares it with `shadow`; a GPU rank (shadow NULL) was told,
 * by the flags in `mark`, and its messages are applied by apply_marked. */
static void phase(fal_mpi_plan *pl, void *g, const fal_point *list, const int64_t *off,
                  const unsigned char *shadow, unsigned char *mark, const int64_t *roff,
                  int tag, fal_mpi_pack_fn pack, fal_mpi_apply_fn apply, int merge)
{
  size_t rec = pl->cur, one = sizeof(fal_point) + rec;
  int nn = pl->nnbr;
  double t0 = MPI_Wtime();
  MPI_Request *req = (MPI_Request *)xalloc((size_t)(2 * nn + 1) * sizeof *req);
  for (int i = 0; i < nn; i++) {
    size_t most = (size_t)(roff[i + 1] - roff[i]) * one;
    check(MPI_Irecv(pl->rbuf + (size_t)roff[i] * one, (int)most, MPI_BYTE, pl->nbr[i], tag,
                    MPI_COMM_WORLD, &req[i]), "MPI_Irecv");
  }
  /* A host rank packs every entry into its own slot of sbuf (in
   * parallel) and flags those that differ from the shadow. */
  unsigned char *sb = pl->sbuf, *flag = mark;
  if (shadow) {
    int64_t total = off[nn];
    flag = pl->chg;
#pragma omp parallel for schedule(static) if (total > FAL_MPI_SERIAL)
    for (int64_t j = 0; j < total; j++) {
      unsigned char *slot = sb + (size_t)j * one;
      pack(g, list[j], slot + sizeof(fal_point));
      flag[j] = rec_differs(slot + sizeof(fal_point), shadow + (size_t)j * rec, rec);
    }
  }
  /* The flagged entries of each neighbour, in order, to the front of its
   * area of cbuf (packed already, or packed now) */
  for (int i = 0; i < nn; i++) {
    unsigned char *start = pl->cbuf + (size_t)off[i] * one;
    int64_t k = take_marked(flag + off[i], off[i + 1] - off[i], pl->idx);
#pragma omp parallel for schedule(static) if (k > FAL_MPI_SERIAL)
    for (int64_t q = 0; q < k; q++) {
      unsigned char *w = start + (size_t)q * one;
      int64_t j = off[i] + pl->idx[q];
      memcpy(w, &list[j], sizeof(fal_point));
      if (shadow)
        memcpy(w + sizeof(fal_point), sb + (size_t)j * one + sizeof(fal_point), rec);
      else
        pack(g, list[j], w + sizeof(fal_point));
    }
    size_t bytes = (size_t)k * one;
    pl->sent_messages++;
    pl->sent_records += k;
    pl->sent_bytes += (int64_t)bytes;
    check(MPI_Isend(start, (int)bytes, MPI_BYTE, pl->nbr[i], tag, MPI_COMM_WORLD,
                    &req[nn + i]), "MPI_Isend");
  }
  double t1 = MPI_Wtime(), waited = 0;
  pl->t_pack += t1 - t0;
  for (int done = 0; done < nn; done++) {
    const unsigned char *rb;
    int64_t nrec = next_message(pl, req, pl->rbuf, roff, one, merge, NULL, &rb, &waited);
    if (mark) {
      apply_marked(pl, g, rb, nrec, pack, apply, merge);
      continue;
    }
    /* A message names each point once, so its records are applied in
     * parallel (merges: each thread has its own one-point copy). */
#pragma omp parallel for schedule(static) if (nrec > FAL_MPI_SERIAL)
    for (int64_t j = 0; j < nrec; j++) {
      fal_point p;
      memcpy(&p, rb + (size_t)j * one, sizeof p);
      apply(g, p, rb + (size_t)j * one + sizeof(fal_point), merge);
    }
  }
  end_phase(pl, req, t1, waited);
}

void fal_mpi_exchange(fal_mpi_plan *pl, void *g, fal_mpi_pack_fn pack,
                      fal_mpi_apply_fn apply)
{
  pl->rounds++;
  /* 1: changed ghosts to their owners, merged there (none can have
   * changed when the foreach writes only its own points) */
  if (pl->ex == FAL_EX_MERGE)
    phase(pl, g, pl->ghost, pl->goff, pl->gshadow, NULL, pl->boff, 1, pack, apply, 1);
  /* 2: changed border points to the ranks that hold them as ghosts */
  phase(pl, g, pl->border, pl->boff, pl->bshadow, NULL, pl->goff, 2, pack, apply, 0);
}

/* ---- a GPU rank: the changed entries are marked ------------------------ */

void fal_mpi_record(fal_mpi_plan *pl, size_t cur)
{
  if (cur > pl->rec)
    fail("a record of %zu bytes, more than the %zu of every point property", cur, pl->rec);
  pl->cur = cur;
  if (pl->mark)
    return;
  /* first use: the marks, the push list, scratch for merges */
  int64_t ng = pl->goff[pl->nnbr], nb = pl->boff[pl->nnbr], most = ng > nb ? ng : nb;
  pl->mark = (unsigned char *)xalloc((size_t)(ng + nb));
  pl->push = (fal_point *)xalloc((size_t)(ng + nb) * sizeof *pl->push);
  pl->rchg = (unsigned char *)xalloc((size_t)most);
  pl->pchg = (unsigned char *)xalloc((size_t)(pl->lo[pl->rank + 1] - pl->lo[pl->rank]));
}

void fal_mpi_exchange_marked(fal_mpi_plan *pl, void *g, fal_mpi_pack_fn pack,
                             fal_mpi_apply_fn apply)
{
  if (!pl->mark)
    fail("fal_mpi_exchange_marked before fal_mpi_record");
  pl->rounds++;
  pl->npush = 0;
  int64_t ng = pl->goff[pl->nnbr];
  unsigned char *bmark = pl->mark + ng;
  if (pl->ex == FAL_EX_MERGE) {
    phase(pl, g, pl->ghost, pl->goff, NULL, pl->mark, pl->boff, 1, pack, apply, 1);
    /* the border entries of the points that merges changed go too; the
     * flags are cleared through the push list, which holds those points */
    int64_t nb = pl->boff[pl->nnbr], lo = pl->lo[pl->rank], n1 = pl->npush;
    if (n1) {
#pragma omp parallel for schedule(static) if (nb > FAL_MPI_SERIAL)
      for (int64_t j = 0; j < nb; j++)
        if (pl->pchg[pl->border[j] - lo])
          bmark[j] = 1;
#pragma omp parallel for schedule(static) if (n1 > FAL_MPI_SERIAL)
      for (int64_t q = 0; q < n1; q++)
        pl->pchg[pl->push[q] - lo] = 0;
    }
  } else /* a foreach that writes only its own points changed no ghost */
    memset(pl->mark, 0, (size_t)ng);
  phase(pl, g, pl->border, pl->boff, NULL, bmark, pl->goff, 2, pack, apply, 0);
}

/* ---- a GPU rank that merges on its GPU --------------------------------- */

/* collect's count for neighbour i: at most its list's entries */
static void check_count(const fal_mpi_plan *pl, const int64_t *cnt, const int64_t *off, int i)
{
  if (cnt[i] < 0 || cnt[i] > off[i + 1] - off[i])
    fail("%lld changed entries for rank %d, of %lld", (long long)cnt[i], pl->nbr[i],
         (long long)(off[i + 1] - off[i]));
}

/* One phase of fal_mpi_exchange_dev: the device's changed entries (collect,
 * which also waits for the previous phase's deliveries, so rbuf is free),
 * one message per neighbour each way, and each arriving message handed
 * to the device as it comes (checked first, as phase() checks). */
static void dphase(fal_mpi_plan *pl, void *g, int tag, const int64_t *off, const int64_t *roff,
                   unsigned char *sbuf, unsigned char *rbuf, fal_mpi_collect_fn collect,
                   fal_mpi_deliver_fn deliver)
{
  size_t one = sizeof(fal_point) + pl->cur;
  int nn = pl->nnbr;
  double t0 = MPI_Wtime();
  int64_t *cnt = pl->ncount;
  for (int i = 0; i < nn; i++)
    cnt[i] = 0;
  collect(g, tag, cnt, sbuf);
  MPI_Request *req = (MPI_Request *)xalloc((size_t)(2 * nn + 1) * sizeof *req);
  for (int i = 0; i < nn; i++) {
    size_t most = (size_t)(roff[i + 1] - roff[i]) * one;
    check(MPI_Irecv(rbuf + (size_t)roff[i] * one, (int)most, MPI_BYTE, pl->nbr[i], tag,
                    MPI_COMM_WORLD, &req[i]), "MPI_Irecv");
  }
  for (int i = 0; i < nn; i++) {
    check_count(pl, cnt, off, i);
    size_t bytes = (size_t)cnt[i] * one;
    pl->sent_messages++;
    pl->sent_records += cnt[i];
    pl->sent_bytes += (int64_t)bytes;
    pl->dev_pulled += cnt[i];
    check(MPI_Isend(sbuf + (size_t)off[i] * one, (int)bytes, MPI_BYTE, pl->nbr[i], tag,
                    MPI_COMM_WORLD, &req[nn + i]), "MPI_Isend");
  }
  double t1 = MPI_Wtime(), waited = 0;
  pl->t_pack += t1 - t0;
  for (int done = 0; done < nn; done++) {
    int i;
    const unsigned char *rb;
    int64_t nrec = next_message(pl, req, rbuf, roff, one, tag == 1, &i, &rb, &waited);
    pl->dev_pushed += nrec;
    if (nrec)
      deliver(g, tag, i, rb, nrec, roff[i]);
  }
  end_phase(pl, req, t1, waited);
}

void fal_mpi_exchange_dev(fal_mpi_plan *pl, void *g, unsigned char *sbuf, unsigned char *rbuf,
                          fal_mpi_collect_fn collect, fal_mpi_deliver_fn deliver)
{
  pl->rounds++;
  /* 1: changed ghosts to their owners, merged there on the device */
  if (pl->ex == FAL_EX_MERGE)
    dphase(pl, g, 1, pl->goff, pl->boff, sbuf, rbuf, collect, deliver);
  /* 2: border entries changed by the foreach or by a merge, to the ranks
   * that hold them as ghosts */
  dphase(pl, g, 2, pl->boff, pl->goff, sbuf, rbuf, collect, deliver);
}

/* ---- GPU ranks of one machine: pairs read over CUDA IPC ---------------- */

/* One phase of fal_mpi_exchange_ipc: collect leaves this phase's pairs in
 * the send area at pair `base` + off[i] for neighbour i, and the first
 * `ahead` of each neighbour's in sbuf too.  A neighbour with at most
 * `ahead` pairs gets them in a message (header (count, -1), then the
 * pairs, tag 16 + tag), applied by deliver as fal_mpi_exchange_dev does;
 * one with more is told (count, byte offset) and reads them itself
 * (ideliver).  Short rounds thus cost no wait for a neighbour's reads;
 * long ones no copies through the host. */
static void iphase(fal_mpi_plan *pl, void *g, int tag, const int64_t *off, const int64_t *roff,
                   int64_t base, unsigned char *sbuf, unsigned char *rbuf, int64_t ahead,
                   fal_mpi_collect_fn collect, fal_mpi_deliver_fn deliver,
                   fal_mpi_ipc_deliver_fn ideliver)
{
  size_t one = sizeof(fal_point) + pl->cur;
  int nn = pl->nnbr;
  double t0 = MPI_Wtime();
  int64_t *cnt = pl->ncount;
  for (int i = 0; i < nn; i++)
    cnt[i] = 0;
  collect(g, tag, cnt, sbuf);
  int64_t *meta = (int64_t *)xalloc((size_t)(4 * nn + 1) * sizeof *meta), *in = meta + 2 * nn;
  MPI_Request *req = (MPI_Request *)xalloc((size_t)(3 * nn + 1) * sizeof *req);
  for (int i = 0; i < nn; i++)
    check(MPI_Irecv(in + 2 * i, 2, MPI_INT64_T, pl->nbr[i], tag, MPI_COMM_WORLD, &req[i]),
          "MPI_Irecv");
  for (int i = 0; i < nn; i++) {
    check_count(pl, cnt, off, i);
    int inl = cnt[i] <= ahead;
    meta[2 * i] = cnt[i];
    meta[2 * i + 1] = inl ? -1 : (base + off[i]) * (int64_t)one;
    pl->sent_messages += 1 + inl;
    pl->sent_records += cnt[i];
    pl->sent_bytes += 2 * (int64_t)sizeof(int64_t) + (inl ? cnt[i] * (int64_t)one : 0);
    pl->dev_pulled += cnt[i];
    check(MPI_Isend(meta + 2 * i, 2, MPI_INT64_T, pl->nbr[i], tag, MPI_COMM_WORLD, &req[nn + i]),
          "MPI_Isend");
    req[2 * nn + i] = MPI_REQUEST_NULL;
    if (inl)
      check(MPI_Isend(sbuf + (size_t)off[i] * one, (int)(cnt[i] * (int64_t)one), MPI_BYTE,
                      pl->nbr[i], 16 + tag, MPI_COMM_WORLD, &req[2 * nn + i]),
            "MPI_Isend");
  }
  double t1 = MPI_Wtime(), waited = 0;
  pl->t_pack += t1 - t0;
  for (int done = 0; done < nn; done++) {
    int i;
    double w0 = MPI_Wtime();
    check(MPI_Waitany(nn, req, &i, MPI_STATUS_IGNORE), "MPI_Waitany");
    int64_t nrec = in[2 * i], at = in[2 * i + 1];
    /* (a message's pairs need only fit the neighbour's slot: ranks whose
     * FALCON_MPI_INLINE differs still agree, each header saying which) */
    if (nrec < 0 || nrec > roff[i + 1] - roff[i] || at < -1)
      fail("rank %d announced %lld records at byte %lld, of %lld", pl->nbr[i], (long long)nrec,
           (long long)at, (long long)(roff[i + 1] - roff[i]));
    if (at == -1) { /* the pairs follow, in a message of their own */
      unsigned char *rb = rbuf + (size_t)roff[i] * one;
      MPI_Status st;
      int bytes;
      check(MPI_Recv(rb, (int)(nrec * (int64_t)one), MPI_BYTE, pl->nbr[i], 16 + tag,
                     MPI_COMM_WORLD, &st),
            "MPI_Recv");
      MPI_Get_count(&st, MPI_BYTE, &bytes);
      if (bytes != nrec * (int64_t)one)
        fail("rank %d announced %lld records and sent %d bytes", pl->nbr[i], (long long)nrec,
             bytes);
      waited += MPI_Wtime() - w0;
      check_records(pl, rb, nrec, one, tag == 1, i);
      pl->dev_pushed += nrec;
      if (nrec)
        deliver(g, tag, i, rb, nrec, roff[i]);
      continue;
    }
    waited += MPI_Wtime() - w0;
    pl->dev_pushed += nrec;
    if (nrec)
      ideliver(g, tag, i, nrec, roff[i], at);
  }
  /* the pairs' sends too (end_phase waits for the headers') */
  if (nn)
    check(MPI_Waitall(nn, req + 2 * nn, MPI_STATUSES_IGNORE), "MPI_Waitall");
  end_phase(pl, req, t1, waited);
  free(meta);
}

void fal_mpi_exchange_ipc(fal_mpi_plan *pl, void *g, unsigned char *sbuf, unsigned char *rbuf,
                          int64_t ahead, fal_mpi_collect_fn collect, fal_mpi_deliver_fn deliver,
                          fal_mpi_ipc_deliver_fn ideliver)
{
  pl->rounds++;
  if (pl->ex == FAL_EX_MERGE)
    iphase(pl, g, 1, pl->goff, pl->boff, 0, sbuf, rbuf, ahead, collect, deliver, ideliver);
  iphase(pl, g, 2, pl->boff, pl->goff, pl->goff[pl->nnbr], sbuf, rbuf, ahead, collect, deliver,
         ideliver);
}

void fal_mpi_allgather_bytes(const void *mine, void *all, size_t size)
{
  if (size > INT_MAX)
    fail("an all-gather of %zu bytes a rank", size);
  check(MPI_Allgather(mine, (int)size, MPI_BYTE, all, (int)size, MPI_BYTE, MPI_COMM_WORLD),
        "MPI_Allgather");
}

/* Every rank takes rank 0's `size` bytes at v (a loop's variables after
 * kernels that ran on every rank: rank 0's are the single process's part
 * 0's, falcon/mpi.cuh fal_mpx). */
void fal_mpi_bcast0(void *v, size_t size)
{
  fal_mpi_bcast_from(v, size, 0);
}

/* Every rank takes rank root's `size` bytes at v (a point's values from
 * its owner: the generated fal_G_mpi_wr). */
void fal_mpi_bcast_from(void *v, size_t size, int root)
{
  if (size > INT_MAX)
    fail("a broadcast of %zu bytes", size);
  check(MPI_Bcast(v, (int)size, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
}

int fal_mpi_owner(const fal_mpi_plan *pl, int64_t p)
{
  return owner_of(pl->lo, pl->nranks, p);
}

/* The points a round's heap takes (T): FALCON_MPI_WINDOW=N, else 4,096 or
 * the points per rank / 64, whichever is more; 0: off (the whole heap). */
static int64_t window_points(int64_t npoints, int nranks)
{
  static int64_t set = -1; /* -1 unread, 0 auto */
  if (set < 0) {
    const char *e = getenv("FALCON_MPI_WINDOW");
    char *end = NULL;
    long long v = e ? strtoll(e, &end, 10) : 0;
    set = 0;
    if (e && strcmp(e, "off") == 0)
      set = -2;
    else if (e && end != e && *end == '\0' && v > 0)
      set = v;
    else if (e && strcmp(e, "auto") != 0 && *e)
      fprintf(stderr, "warning: FALCON_MPI_WINDOW=%s is not auto, off or a count above 0; "
              "using auto\n", e);
  }
  if (set == -2)
    return 0;
  if (set > 0)
    return set;
  int64_t t = npoints / (nranks > 0 ? nranks : 1) / 64;
  return t > 4096 ? t : 4096;
}

void fal_mpi_lfix_window(fal_lfix *l, int on, fal_mpi_plan *pl, int64_t npoints)
{
  l->wtop = HUGE_VAL;
  l->wcap = 0;
  if (!pl || pl->nranks < 2)
    return;
  int64_t T = window_points(npoints, pl->nranks);
  /* what this rank had: its lowest key, and the last round's count and
   * span (above that round's lowest key of all ranks); NaNs as nothing */
  double key = on && l->n && l->key[0] == l->key[0] ? l->key[0] : HUGE_VAL;
  double span = l->wpops ? l->wlast - l->wgmin : 0;
  if (!(span > 0) || span == HUGE_VAL)
    span = 0;
  double in[3] = {key, -(double)l->wpops, -span}, out[3];
  check(MPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  double gmin = out[0], most = -out[1], wide = -out[2];
  /* the width, from values every rank has alike */
  if (l->wdelta == 0 && wide > 0)
    l->wdelta = wide;
  else if (l->wdelta > 0 && most > 0) {
    double r = (double)T / most;
    l->wdelta *= r > 2 ? 2 : r < 0.5 ? 0.5 : r;
  }
  if (!(l->wdelta < HUGE_VAL))
    l->wdelta = 0;
  l->wgmin = gmin;
  l->wpops = 0;
  if (!on || T == 0 || gmin == HUGE_VAL)
    return;
  pl->windows++;
  if (l->wdelta == 0)
    l->wcap = T; /* no width yet: a count of points */
  else
    l->wtop = gmin + l->wdelta;
}

int fal_mpi_all_true(int ok)
{
  int all = 0;
  ok = ok != 0;
  check(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  return all;
}

/* ---- reading only this rank's rows ------------------------------------ */

/* The in-edges of the held points (rows only): u -> v with v held is held
 * here when u is, and otherwise by u's rank, which sends (v, u).  In-lists
 * come out sorted by source, as fal_graph_build_in_edges makes them: the
 * ranks below me own the sources below mine (ORDERED is contiguous). */
static void rows_in_edges(fal_graph *g)
{
  int k = fal_size_, me = fal_rank_;
  int64_t n = g->npoints, a = g->row_lo, b = g->row_hi;
  const int64_t *off = g->offsets;
  int64_t *lo = (int64_t *)xalloc((size_t)(k + 1) * sizeof *lo);
  fal_graph_cut_ordered(off, g->row_e0, n, g->all_edges, k, lo);
  int *sc = (int *)xalloc((size_t)k * sizeof(int)), *rc = (int *)xalloc((size_t)k * sizeof(int));
  int *rd = (int *)xalloc((size_t)k * sizeof(int));
  int64_t *cnt = (int64_t *)xalloc((size_t)k * sizeof *cnt), sent = 0;
  for (int64_t u = a; u < b; u++)
    for (int64_t e = off[u]; e < off[u + 1]; e++) {
      int r = owner_of(lo, k, g->dst[e]);
      if (r != me)
        cnt[r]++;
    }
  for (int r = 0; r < k; r++) { /* cnt: where rank r's pairs start */
    if (sent + 2 * cnt[r] > INT_MAX)
      fail("more than %d in-edge entries to send at load time (use more ranks)", INT_MAX / 2);
    sc[r] = (int)(2 * cnt[r]);
    cnt[r] = sent;
    sent += sc[r];
  }
  fal_point *sb = (fal_point *)xalloc((size_t)sent * sizeof(fal_point));
  for (int64_t u = a; u < b; u++)
    for (int64_t e = off[u]; e < off[u + 1]; e++) {
      int r = owner_of(lo, k, g->dst[e]);
      if (r != me) {
        sb[cnt[r]++] = g->dst[e];
        sb[cnt[r]++] = (fal_point)u;
      }
    }
  int64_t got;
  fal_point *rb = swap_points(sb, sc, rc, rd, &got, "in-edge ids");
  free(sb);
  int64_t *in = (int64_t *)xalloc(((size_t)n + 1) * sizeof *in);
  for (int64_t u = a; u < b; u++)
    for (int64_t e = off[u]; e < off[u + 1]; e++)
      if (g->dst[e] >= a && g->dst[e] < b)
        in[g->dst[e] + 1]++;
  for (int64_t i = 0; i < got; i += 2) {
    if (rb[i] < a || rb[i] >= b)
      fail("an in-edge for point %ld, which is not this rank's", (long)rb[i]);
    in[rb[i] + 1]++;
  }
  for (int64_t p = 0; p < n; p++)
    in[p + 1] += in[p];
  int64_t nin = in[n];
  fal_point *src = (fal_point *)xalloc((size_t)nin * sizeof *src);
  fal_edge *ie = (fal_edge *)xalloc((size_t)nin * sizeof *ie);
  for (int r = 0; r < k; r++) { /* sources in order: ranks below, mine, ranks above */
    if (r == me) {
      for (int64_t u = a; u < b; u++)
        for (int64_t e = off[u]; e < off[u + 1]; e++)
          if (g->dst[e] >= a && g->dst[e] < b) {
            int64_t slot = in[g->dst[e]]++;
            src[slot] = (fal_point)u;
            ie[slot] = e;
          }
      continue;
    }
    for (int i = 0; i < rc[r]; i += 2) {
      int64_t slot = in[rb[rd[r] + i]]++;
      src[slot] = rb[rd[r] + i + 1];
      ie[slot] = -1; /* held by rank r */
    }
  }
  memmove(in + 1, in, (size_t)n * sizeof *in);
  in[0] = 0;
  g->in_offsets = in;
  g->in_src = src;
  g->in_edge = ie;
  free(rb), free(sc), free(rc), free(rd), free(cnt), free(lo);
}

void fal_mpi_gbase_read(fal_gbase *b, const char *path)
{
  const char *env = getenv("FALCON_MPI_ROWS");
  int want = fal_size_ > 1 && fal_gbase_rows_ok(b) && !(env && strcmp(env, "off") == 0);
  fal_graph rows;
  memset(&rows, 0, sizeof rows);
  int rc = want ? fal_graph_read_bin_rows(&rows, path, fal_size_, fal_rank_) : 1;
  if (rc < 0)
    exit(1);
  /* every rank reads the same way (the in-edges are a collective step) */
  int mine = rc == 0, all = 0;
  check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  int verbose = fal_verbose();
  if (all) {
    fal_gbase_take_rows(b, &rows, rows_in_edges);
    if (verbose)
      fprintf(stderr, "falcon: rank %d of %d reads points %lld..%lld of %s: %lld of %lld edges\n",
              fal_rank_, fal_size_, (long long)b->csr.row_lo, (long long)b->csr.row_hi - 1,
              path, (long long)b->csr.nedges, (long long)b->csr.all_edges);
    return;
  }
  fal_graph_free(&rows);
  if (verbose && fal_rank_ == 0 && fal_size_ > 1)
    fprintf(stderr, "falcon: every rank reads the whole of %s (%s)\n", path,
            !want ? (env && strcmp(env, "off") == 0 ? "FALCON_MPI_ROWS=off"
                     : "the graph changes or needs every edge's source")
            : "only an uncompressed Falcon binary CSR file is read by rows");
  fal_gbase_read(b, path);
}

/* ---- gathers, graph properties, reductions --------------------------- */

void fal_mpi_gather(const fal_mpi_plan *pl, void *base, size_t elsize,
                    const int64_t *offsets)
{
  if (!base)
    return;
  for (int r = 0; r < pl->nranks; r++) {
    int64_t a = pl->lo[r], b = pl->lo[r + 1];
    if (offsets) {
      a = offsets[a];
      b = offsets[b];
    }
    unsigned char *p = (unsigned char *)base + (size_t)a * elsize;
    size_t bytes = (size_t)(b - a) * elsize;
    while (bytes > 0) { /* in pieces that an int counts */
      size_t piece = bytes > (1u << 30) ? (1u << 30) : bytes;
      check(MPI_Bcast(p, (int)piece, MPI_BYTE, r, MPI_COMM_WORLD), "MPI_Bcast");
      p += piece;
      bytes -= piece;
    }
  }
}

void fal_mpi_combine(void *value, const void *before, size_t size)
{
  int mine = memcmp(value, before, size) != 0 ? fal_rank_ : fal_size_, who;
  check(MPI_Allreduce(&mine, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (who < fal_size_)
    check(MPI_Bcast(value, (int)size, MPI_BYTE, who, MPI_COMM_WORLD), "MPI_Bcast");
}

void fal_mdir_decide(fal_dstate *d, long long aw, long long sc)
{
  long long v[2] = {aw, sc};
  check(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  fal_dstate_decide(d, v[0], v[1]);
}

void fal_mpi_reduce_kind(void *v, int kind, int mul)
{
  fal_mpi_sync(FAL_MPI_SITE_REDUCE);
  MPI_Datatype t;
  switch (kind) {
  case FAL_MPI_INT: t = MPI_INT; break;
  case FAL_MPI_UINT: t = MPI_UNSIGNED; break;
  case FAL_MPI_LONG: t = MPI_LONG; break;
  case FAL_MPI_ULONG: t = MPI_UNSIGNED_LONG; break;
  case FAL_MPI_LLONG: t = MPI_LONG_LONG; break;
  case FAL_MPI_ULLONG: t = MPI_UNSIGNED_LONG_LONG; break;
  case FAL_MPI_FLOAT: t = MPI_FLOAT; break;
  case FAL_MPI_DOUBLE: t = MPI_DOUBLE; break;
  default:
    fail("a reduction over a partitioned graph needs a number type");
    return;
  }
  check(MPI_Allreduce(MPI_IN_PLACE, v, 1, t, mul ? MPI_PROD : MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
}
