/*
 * tests/mpi/marked.c: the exchange of a GPU rank (fal_mpi_exchange_marked,
 * runtime/mpi.c), checked on the host against the host ranks' exchange
 * (fal_mpi_snapshot + fal_mpi_exchange).  Usage: mpirun -np N marked GRAPH
 *
 * Every rank holds the graph twice (A and B), one plan each, and runs
 * breadth-first distances from point 0 with a MIN merge: each round
 * relaxes the out-edges of its own points, writing its ghosts too.  A
 * marks the ghost and border entries whose value differs from a copy
 * taken at the round's start, as the GPU's compare kernel does, and
 * exchanges those; B compares against its shadows.  After every round
 * A and B must hold the same values on the rank's points and ghosts, and
 * every point whose value A's exchange changed must be in its push list.
 * At the end each rank's points must hold the distances of a sequential
 * breadth-first search.  The first round writes only the rank's own
 * points (own_only).  Prints one line per rank; exits 1 on a mismatch.
 *
 * A third copy (C) goes through the exchange of a GPU rank that merges
 * on its GPU (fal_mpi_exchange_dev), with callbacks that do on the host
 * what the generated kernels do on the device (lower.c
 * emit_mpi_gpu_merges): collect packs the entries that differ from the
 * round's start (phase 2 also those whose point a merge changed) as
 * (point, value) pairs per neighbour, deliver merges them into own
 * points with MIN and flags the changed ones (phase 1) or overwrites
 * ghosts (phase 2).  C must equal B after every round too.
 *
 * A fourth copy (D) goes through the exchange of GPU ranks that read each
 * other's pairs (fal_mpi_exchange_ipc, FALCON_MPI_IPC): each rank's send
 * area is its segment of an MPI shared-memory window, as the GPU's is
 * mapped into its neighbours by CUDA IPC; collect leaves the pairs there
 * (phase 1 at pair goff[i], phase 2 at goff[nnbr] + boff[i]) and deliver
 * reads the neighbour's segment at the byte offset its message names,
 * checking each point as fal_G_mpi_dapply does.  D must equal B after
 * every round too.  The ranks must share a machine (else D is skipped,
 * and the line says so).
 */
#include "falcon/graph.h"
#include "falcon/mpi.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int *v;
} vals;

static void pack(void *g, fal_point p, void *rec)
{
  memcpy(rec, &((vals *)g)->v[p], sizeof(int));
}

static void apply(void *g, fal_point p, const void *rec, int merge)
{
  int x, *v = &((vals *)g)->v[p];
  memcpy(&x, rec, sizeof x);
  if (!merge || x < *v)
    *v = x;
}

static int bad;

/* C: the values, its plan, the entries' values at the round's start (as
 * the GPU's shadow), and a byte per own point that a merge changed */
typedef struct {
  int *v;
  fal_mpi_plan *pl;
  const int *start;
  unsigned char *pchg;
} dev;

static void collect(void *gv, int phase, int64_t *count, unsigned char *sbuf)
{
  dev *d = (dev *)gv;
  fal_mpi_plan *pl = d->pl;
  size_t one = sizeof(fal_point) + sizeof(int);
  const int64_t *off = phase == 1 ? pl->goff : pl->boff;
  const fal_point *list = phase == 1 ? pl->ghost : pl->border;
  int64_t base = phase == 1 ? 0 : pl->goff[pl->nnbr], lo = pl->lo[pl->rank];
  for (int i = 0; i < pl->nnbr; i++) {
    int64_t k = 0;
    for (int64_t j = off[i]; j < off[i + 1]; j++) {
      fal_point p = list[j];
      int ch = d->v[p] != d->start[base + j] || (phase == 2 && pl->ex == FAL_EX_MERGE && d->pchg[p - lo]);
      if (!ch)
        continue;
      unsigned char *w = sbuf + (size_t)(off[i] + k++) * one;
      memcpy(w, &p, sizeof p);
      memcpy(w + sizeof p, &d->v[p], sizeof(int));
    }
    count[i] = k;
  }
  if (phase == 2)
    memset(d->pchg, 0, (size_t)(pl->lo[pl->rank + 1] - lo) + 1);
}

static void deliver(void *gv, int phase, int i, const unsigned char *rb, int64_t nrec, int64_t at)
{
  dev *d = (dev *)gv;
  size_t one = sizeof(fal_point) + sizeof(int);
  (void)i;
  (void)at;
  for (int64_t j = 0; j < nrec; j++) {
    fal_point p;
    int x;
    memcpy(&p, rb + (size_t)j * one, sizeof p);
    memcpy(&x, rb + (size_t)j * one + sizeof p, sizeof x);
    if (phase == 2)
      d->v[p] = x;
    else if (x < d->v[p]) {
      d->v[p] = x;
      d->pchg[p - d->pl->lo[d->pl->rank]] = 1;
    }
  }
}

static void check(int ok, const char *what, long long a, long long b)
{
  if (!ok && bad++ < 5)
    fprintf(stderr, "marked: rank %d: %s (%lld, %lld)\n", fal_mpi_rank(), what, a, b);
}

/* D: C's state, and the shared window whose segments are the send areas.
 * A neighbour's pairs go in messages (deliver_inline) when there are at
 * most ipc_ahead of them, else are read from the area (deliver_ipc):
 * rounds alternate between ipc_ahead 0 (every non-empty round read)
 * and pl->most (every round in messages), so both ways run where pairs
 * travel in more than one round */
static int64_t ipc_ahead;
static long long ipc_inline, ipc_read;
typedef struct {
  dev c;
  MPI_Win win;
  unsigned char *area;
} ipcdev;

static void collect_ipc(void *gv, int phase, int64_t *count, unsigned char *sbuf)
{
  ipcdev *d = (ipcdev *)gv;
  fal_mpi_plan *pl = d->c.pl;
  size_t one = sizeof(fal_point) + sizeof(int);
  /* the pairs as collect makes them, at the phase's part of the area,
   * and the first IPC_AHEAD of each neighbour's in sbuf */
  unsigned char *keep = (unsigned char *)malloc(((size_t)pl->most + 1) * one);
  if (!keep) {
    fprintf(stderr, "marked: out of memory\n");
    exit(1);
  }
  collect(&d->c, phase, count, keep);
  const int64_t *off = phase == 1 ? pl->goff : pl->boff;
  size_t base = phase == 1 ? 0 : (size_t)pl->goff[pl->nnbr];
  for (int i = 0; i < pl->nnbr; i++)
  {
    memcpy(d->area + (base + (size_t)off[i]) * one, keep + (size_t)off[i] * one,
           (size_t)count[i] * one);
    memcpy(sbuf + (size_t)off[i] * one, keep + (size_t)off[i] * one,
           (size_t)(count[i] < ipc_ahead ? count[i] : ipc_ahead) * one);
  }
  free(keep);
  MPI_Win_sync(d->win);
}

static void deliver_ipc(void *gv, int phase, int i, int64_t nrec, int64_t slot, int64_t at)
{
  ipcdev *d = (ipcdev *)gv;
  fal_mpi_plan *pl = d->c.pl;
  size_t one = sizeof(fal_point) + sizeof(int);
  int s = pl->nbr[i], du;
  MPI_Aint size;
  unsigned char *seg;
  (void)slot;
  MPI_Win_sync(d->win);
  MPI_Win_shared_query(d->win, s, &size, &du, &seg);
  check(at >= 0 && (MPI_Aint)((size_t)at + (size_t)nrec * one) <= size,
        "a message names bytes past its sender's area", (long long)at, (long long)nrec);
  if (at < 0 || (MPI_Aint)((size_t)at + (size_t)nrec * one) > size)
    return;
  int64_t plo = phase == 1 ? pl->lo[pl->rank] : pl->lo[s];
  int64_t phi = phase == 1 ? pl->lo[pl->rank + 1] : pl->lo[s + 1];
  for (int64_t j = 0; j < nrec; j++) {
    fal_point p;
    memcpy(&p, seg + at + (size_t)j * one, sizeof p);
    check(p >= plo && p < phi, "a pair names a point outside its range", (long long)p, phase);
  }
  check(ipc_ahead == 0, "pairs read from the area in a round that sends them", (long long)nrec,
        phase);
  ipc_read++;
  deliver(&d->c, phase, i, seg + at, nrec, slot);
}

/* D's pairs that came in a message (at most ipc_ahead) */
static void deliver_inline(void *gv, int phase, int i, const unsigned char *rb, int64_t nrec,
                           int64_t at)
{
  ipcdev *d = (ipcdev *)gv;
  check(ipc_ahead > 0 && nrec <= ipc_ahead, "pairs in a message past ipc_ahead", (long long)nrec,
        phase);
  ipc_inline++;
  deliver(&d->c, phase, i, rb, nrec, at);
}

/* The values of the rank's ghost and border entries (ghosts first), as
 * the round starts */
static void take_start(int *to, const int *v, const fal_mpi_plan *pl)
{
  int64_t ng = pl->goff[pl->nnbr], ne = ng + pl->boff[pl->nnbr];
  for (int64_t x = 0; x < ne; x++)
    to[x] = v[x < ng ? pl->ghost[x] : pl->border[x - ng]];
}

/* v (an exchange's copy) against h (the host exchange's) on the rank's
 * own points (own: what a difference is called) and its ghosts (ghost) */
static void check_same(const int *v, const int *h, const fal_mpi_plan *pl, const char *own,
                       const char *ghost)
{
  for (int64_t p = pl->lo[pl->rank]; p < pl->lo[pl->rank + 1]; p++)
    check(v[p] == h[p], own, (long long)p, (long long)v[p] - h[p]);
  for (int64_t x = 0; x < pl->goff[pl->nnbr]; x++) {
    fal_point p = pl->ghost[x];
    check(v[p] == h[p], ghost, (long long)p, (long long)v[p] - h[p]);
  }
}

/* one relaxation sweep over the rank's points; returns whether any value
 * changed */
static int relax(const fal_graph *g, int *v, int64_t lo, int64_t hi)
{
  int changed = 0;
  for (int64_t p = lo; p < hi; p++) {
    if (v[p] == INT32_MAX)
      continue;
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++)
      if (v[p] + 1 < v[g->dst[e]]) {
        v[g->dst[e]] = v[p] + 1;
        changed = 1;
      }
  }
  return changed;
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s GRAPH\n", argv[0]);
    return 2;
  }
  fal_graph g;
  if (fal_graph_read(&g, argv[1], FAL_FORMAT_AUTO) != 0) {
    fprintf(stderr, "marked: cannot read %s\n", argv[1]);
    return 1;
  }
  int64_t n = g.npoints;
  fal_mpi_plan pa, pb, pc, pd;
  fal_mpi_plan_init(&pa, &g, sizeof(int));
  fal_mpi_plan_init(&pb, &g, sizeof(int));
  fal_mpi_plan_init(&pc, &g, sizeof(int));
  fal_mpi_plan_init(&pd, &g, sizeof(int));
  int64_t lo = pa.lo[pa.rank], hi = pa.lo[pa.rank + 1];
  int64_t ng = pa.goff[pa.nnbr], nb = pa.boff[pa.nnbr], ne = ng + nb;
  vals a = {(int *)calloc((size_t)n + 1, sizeof(int))}, b = {(int *)calloc((size_t)n + 1, sizeof(int))};
  int *start = (int *)malloc(((size_t)ne + 1) * sizeof(int));
  int *before = (int *)malloc(((size_t)n + 1) * sizeof(int));
  unsigned char *pushed = (unsigned char *)calloc((size_t)n + 1, 1);
  int *cstart = (int *)malloc(((size_t)ne + 1) * sizeof(int));
  size_t wire = ((size_t)pc.most + 1) * (sizeof(fal_point) + sizeof(int));
  unsigned char *sbuf = (unsigned char *)malloc(wire), *rbuf = (unsigned char *)malloc(wire);
  dev c = {(int *)calloc((size_t)n + 1, sizeof(int)), &pc, cstart,
           (unsigned char *)calloc((size_t)(hi - lo) + 1, 1)};
  if (!a.v || !b.v || !start || !before || !pushed || !cstart || !sbuf || !rbuf || !c.v || !c.pchg) {
    fprintf(stderr, "marked: out of memory\n");
    return 1;
  }
  /* D's send areas: both phases' pairs, in a window the ranks share */
  int shared = fal_mpi_local_size() == pd.nranks;
  int *dstart = (int *)malloc(((size_t)ne + 1) * sizeof(int));
  ipcdev dd = {{(int *)calloc((size_t)n + 1, sizeof(int)), &pd, dstart,
                (unsigned char *)calloc((size_t)(hi - lo) + 1, 1)},
               MPI_WIN_NULL, NULL};
  if (!dstart || !dd.c.v || !dd.c.pchg) {
    fprintf(stderr, "marked: out of memory\n");
    return 1;
  }
  if (shared) {
    MPI_Aint area = (MPI_Aint)(((size_t)ne + 1) * (sizeof(fal_point) + sizeof(int)));
    if (MPI_Win_allocate_shared(area, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &dd.area, &dd.win) !=
        MPI_SUCCESS) {
      fprintf(stderr, "marked: MPI_Win_allocate_shared failed\n");
      return 1;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, dd.win);
  }
  for (int64_t p = 0; p < n; p++)
    a.v[p] = b.v[p] = c.v[p] = dd.c.v[p] = -1; /* before the first round: not yet set */
  int rounds = 0, changed = 1;
  long long merged = 0;
  for (int round = 0; changed; round++) {
    int own_only = round == 0;
    fal_mpi_record(&pa, sizeof(int));
    fal_mpi_record(&pc, sizeof(int));
    fal_mpi_record(&pd, sizeof(int));
    pa.ex = pb.ex = pc.ex = pd.ex = own_only ? FAL_EX_OWN : FAL_EX_MERGE;
    take_start(cstart, c.v, &pc);
    take_start(dstart, dd.c.v, &pd);
    fal_mpi_snapshot(&pb, &b, pack, sizeof(int));
    take_start(start, a.v, &pa);
    int mine = 0;
    if (own_only) { /* every own point set, point 0 to 0 */
      for (int64_t p = lo; p < hi; p++)
        a.v[p] = b.v[p] = c.v[p] = dd.c.v[p] = p == 0 ? 0 : INT32_MAX;
      mine = 1;
    } else {
      mine = relax(&g, a.v, lo, hi);
      int mb = relax(&g, b.v, lo, hi), mc = relax(&g, c.v, lo, hi), md = relax(&g, dd.c.v, lo, hi);
      check(mine == mb, "the sweeps disagree", mine, mb);
      check(mine == mc, "the sweeps disagree (C)", mine, mc);
      check(mine == md, "the sweeps disagree (D)", mine, md);
    }
    for (int64_t x = 0; x < ne; x++)
      if (a.v[x < ng ? pa.ghost[x] : pa.border[x - ng]] != start[x])
        pa.mark[x] = 1;
    memcpy(before, a.v, (size_t)n * sizeof(int));
    fal_mpi_exchange_marked(&pa, &a, pack, apply);
    fal_mpi_exchange(&pb, &b, pack, apply);
    fal_mpi_exchange_dev(&pc, &c, sbuf, rbuf, collect, deliver);
    if (shared) {
      ipc_ahead = rounds % 2 ? pd.most : 0;
      fal_mpi_exchange_ipc(&pd, &dd, sbuf, rbuf, ipc_ahead, collect_ipc, deliver_inline,
                           deliver_ipc);
    }
    for (int64_t x = 0; x < ne; x++)
      check(!pa.mark[x], "a mark was not cleared", (long long)x, 0);
    for (int64_t q = 0; q < pa.npush; q++) {
      fal_point p = pa.push[q];
      check(p >= 0 && p < n, "a pushed point is not a point", (long long)p, 0);
      if (p >= 0 && p < n)
        pushed[p] = 1;
    }
    for (int64_t p = 0; p < n; p++) {
      if (a.v[p] != before[p]) {
        check(pushed[p], "the exchange changed a point that is not in the push list",
              (long long)p, (long long)a.v[p]);
        if (p >= lo && p < hi)
          merged++;
      }
      pushed[p] = 0;
    }
    check_same(a.v, b.v, &pa, "an own point differs from the host exchange's",
               "a ghost differs from the host exchange's");
    check_same(c.v, b.v, &pc, "an own point of the device-merge exchange differs",
               "a ghost of the device-merge exchange differs");
    if (shared)
      check_same(dd.c.v, b.v, &pd, "an own point of the IPC exchange differs",
                 "a ghost of the IPC exchange differs");
    MPI_Allreduce(&mine, &changed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rounds++;
  }
  /* a sequential breadth-first search over the whole graph */
  int *d = (int *)malloc(((size_t)n + 1) * sizeof(int));
  fal_point *queue = (fal_point *)malloc(((size_t)n + 1) * sizeof(fal_point));
  if (!d || !queue) {
    fprintf(stderr, "marked: out of memory\n");
    return 1;
  }
  for (int64_t p = 0; p < n; p++)
    d[p] = INT32_MAX;
  int64_t head = 0, tail = 0;
  if (n > 0) {
    d[0] = 0;
    queue[tail++] = 0;
  }
  while (head < tail) {
    fal_point p = queue[head++];
    for (int64_t e = g.offsets[p]; e < g.offsets[p + 1]; e++)
      if (d[g.dst[e]] == INT32_MAX) {
        d[g.dst[e]] = d[p] + 1;
        queue[tail++] = g.dst[e];
      }
  }
  for (int64_t p = lo; p < hi; p++)
    check(a.v[p] == d[p], "a distance differs from breadth-first search", (long long)p,
          (long long)a.v[p]);
  long long ways[2] = {ipc_inline, ipc_read}, sums[2];
  MPI_Allreduce(ways, sums, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  /* each delivery took its round's way (above); a graph whose pairs all
   * travel in one round (kron.bin's) takes only one */
  if (shared)
    check(sums[0] + sums[1] > 0, "the IPC exchange delivered nothing", sums[0], sums[1]);
  int all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("marked: rank %d of %d: %d rounds, %lld ghosts, %lld border entries, %lld own points "
         "merged to a new value, %s, %s\n", pa.rank, pa.nranks, rounds, (long long)ng,
         (long long)nb, merged, shared ? "IPC exchange checked" : "no IPC exchange (ranks on several machines)",
         all ? "MISMATCH" : "equal");
  fflush(stdout);
  fal_mpi_plan_free(&pa);
  fal_mpi_plan_free(&pb);
  fal_mpi_plan_free(&pc);
  fal_mpi_plan_free(&pd);
  if (shared) {
    MPI_Win_unlock_all(dd.win);
    MPI_Win_free(&dd.win);
  }
  free(dd.c.v);
  free(dd.c.pchg);
  free(dstart);
  free(c.v);
  free(c.pchg);
  free(cstart);
  free(sbuf);
  free(rbuf);
  free(a.v);
  free(b.v);
  free(start);
  free(before);
  free(pushed);
  free(d);
  free(queue);
  fal_graph_free(&g);
  return all ? 1 : 0;
}
