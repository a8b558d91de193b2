/*
 * falcon/mpi.cuh: falcon/mpi.h for CUDA programs (falconc --mpi
 * --target=gpu, docs/lowering.md "GPU parts under MPI"): the C
 * declarations with C linkage, and fal_mpi_reduce's MPI type chosen by
 * overload (C++ has no _Generic).
 */
#ifndef FALCON_MPI_CUH
#define FALCON_MPI_CUH

extern "C" {
#include "falcon/mpi.h"
}

static inline int fal_mpi_kind_of(int) { return FAL_MPI_INT; }
static inline int fal_mpi_kind_of(unsigned) { return FAL_MPI_UINT; }
static inline int fal_mpi_kind_of(long) { return FAL_MPI_LONG; }
static inline int fal_mpi_kind_of(unsigned long) { return FAL_MPI_ULONG; }
static inline int fal_mpi_kind_of(long long) { return FAL_MPI_LLONG; }
static inline int fal_mpi_kind_of(unsigned long long) { return FAL_MPI_ULLONG; }
static inline int fal_mpi_kind_of(float) { return FAL_MPI_FLOAT; }
static inline int fal_mpi_kind_of(double) { return FAL_MPI_DOUBLE; }
template <typename T> static inline int fal_mpi_kind_of(const T &) { return FAL_MPI_OTHER; }
#define fal_mpi_reduce(v, mul) fal_mpi_reduce_kind(&(v), fal_mpi_kind_of(v), (mul))

/* A slot in a compact list for each lane of the warp whose `take` is set
 * (-1 for the others): one atomicAdd on *cnt per warp.  Every lane of the
 * warp must call it together (a loop that steps a warp at a time), in a
 * kernel of one-dimensional blocks whose size is a multiple of 32. */
static __device__ inline long long fal_mpi_slot(bool take, unsigned long long *cnt)
{
  unsigned all = __ballot_sync(0xffffffffu, take), lane = threadIdx.x & 31u;
  if (!all)
    return -1;
  unsigned long long base = 0;
  if (lane == 0)
    base = atomicAdd(cnt, (unsigned long long)__popc(all));
  base = __shfl_sync(0xffffffffu, base, 0);
  return take ? (long long)(base + (unsigned long long)__popc(all & ((1u << lane) - 1u))) : -1;
}


/* ---- Ranks of one machine run the single process's kernels -------------
 * docs/lowering.md "Ranks on one machine run the single process's
 * kernels"; falconc lower_plan.c emit_mpx_loop.  A loop over a partitioned
 * graph that the single process runs as a kernel per part (own rounds, or
 * one barrier a round: falcon/cuda.cuh fal_rmt, fal_ra_round,
 * fal_rs_round) runs the same way when each part is an MPI rank with a GPU
 * of its own on one machine; and its host rounds send their MINs to the
 * owners (and, one barrier a round, to the other rank's copy) as the
 * single process's do, so that they need no exchange.
 *
 * At makePartition (fal_mpxg_open, collective, outside the timed loops)
 * each rank exports (CUDA IPC) its GPU's point property arrays (whole-size,
 * indexed by point, as the parts' are) and one block of words, and opens
 * the other ranks'.  A rank's block, in its GPU's memory:
 *   [0, FAL_RM_WORDS + FAL_RM_RS)  the words of fal_rm_ready's w[i]: sent,
 *                                  then fal_rmt.peer[i], then fal_rmt.rs[i]
 *   FAL_MPX_CTL: 256 bytes         start (4, at 0), bar (8, at 8), the
 *                                  rank's lw (16, at 16), done (4, at 32):
 *                                  rank 0's start, bar and done are the
 *                                  ones the kernels take
 *   FAL_MPX_HOLD: a word per own point: bit j when rank j holds it
 * The loops of a graph share the block (one runs at a time; each launch
 * zeroes it).  A loop's contexts (fal_mpx: fal_rmt for its kernels, df,
 * and for its host rounds, dh) are made from the maps, the ranks agreeing
 * by one MPI_Allreduce. */
#define FAL_MPX_CTL FAL_RM_AL(FAL_RM_WORDS + FAL_RM_RS)
#define FAL_MPX_HOLD (FAL_MPX_CTL + 256)
#define FAL_MPXG_PROPS 32
typedef struct fal_mpxg {
  int k, me, dev;
  int64_t lo[FAL_PX_MAX + 1];             /* the ranks' first points */
  int np;                                 /* the point properties mapped */
  void *own[FAL_MPXG_PROPS];              /* this rank's arrays */
  void *pP[FAL_MPXG_PROPS][FAL_PX_MAX];   /* rank j's, mapped (pP[i][me] == own[i]) */
  char *w;                                /* the rank's block */
  char *pw[FAL_PX_MAX];                   /* rank j's block, mapped */
  unsigned *hold;                         /* in w */
  cudaStream_t st;
} fal_mpxg;

typedef struct fal_mpx_rec {
  cudaIpcMemHandle_t hw, hp[FAL_MPXG_PROPS];
  unsigned long long w, p[FAL_MPXG_PROPS]; /* the allocations' addresses in their rank */
  char bus[32];
  int ok;
} fal_mpx_rec;

/* A mapping of rank r's allocation at address a (in r's space), opened once
 * per process (CUDA opens a handle once per context) and kept. */
static inline void *fal_mpx_open(int r, unsigned long long a, cudaIpcMemHandle_t h)
{
  static struct { int r; unsigned long long a; void *q; } map[4 * FAL_MPXG_PROPS];
  static int n = 0;
  for (int i = 0; i < n; i++)
    if (map[i].r == r && map[i].a == a)
      return map[i].q;
  void *q = NULL;
  if (n == 4 * FAL_MPXG_PROPS ||
      cudaIpcOpenMemHandle(&q, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  map[n].r = r;
  map[n].a = a;
  map[n].q = q;
  n++;
  return q;
}

/* Every rank calls it once, at makePartition (fal_G_mpi_gpu_setup), also
 * one without a GPU: the maps, or NULL on every rank.  dev: the rank's GPU
 * (-1: none, or ranks that do not read each other's GPUs: fal_G.
 * fal_mpi_ipc); props: its GPU's np point property arrays, each its own
 * allocation (fal_dalloc: a handle names an allocation's base).  The
 * ranks must be 2 to 8, each on a GPU of its own with native atomics on
 * the others' memory (system-scope MINs and the barrier words cross
 * between them), and FALCON_PX_REMOTE not off. */
static inline fal_mpxg *fal_mpxg_open(const fal_mpi_plan *pl, int dev, void *const *props, int np,
                                      const char *file, int line)
{
  int k = pl->nranks, me = pl->rank;
  const char *why = NULL;
  if (k < 2 || k > FAL_PX_MAX)
    why = "the kernels take 2 to 8 ranks";
  else if (np < 1 || np > FAL_MPXG_PROPS)
    why = "more than 32 point properties";
  else if (dev < 0)
    why = "a rank without a GPU, or ranks that do not read each other's GPUs (FALCON_MPI_IPC)";
  else if (fal_env_switch("FALCON_PX_REMOTE", "on", "off") == 0)
    why = "FALCON_PX_REMOTE=off";
  fal_mpxg *x = (fal_mpxg *)fal_calloc(1, sizeof *x);
  size_t bytes = FAL_MPX_HOLD + (size_t)(pl->lo[me + 1] - pl->lo[me]) * sizeof(unsigned);
  fal_mpx_rec mine, *all = (fal_mpx_rec *)fal_calloc((size_t)k, sizeof *all);
  memset(&mine, 0, sizeof mine);
  if (!why) {
    int coop = 0;
    fal_cuda_use(dev);
    if (cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev) != cudaSuccess || !coop)
      why = "a GPU without cooperative launch";
    else if (cudaMalloc((void **)&x->w, bytes) != cudaSuccess)
      why = "no GPU memory for the kernels' words";
    else if (cudaMemset(x->w, 0, bytes) != cudaSuccess ||
             cudaIpcGetMemHandle(&mine.hw, x->w) != cudaSuccess ||
             cudaDeviceGetPCIBusId(mine.bus, (int)sizeof mine.bus, dev) != cudaSuccess)
      why = "CUDA IPC refused the kernels' words";
    for (int i = 0; i < np && !why; i++)
      if (!props[i] || cudaIpcGetMemHandle(&mine.hp[i], props[i]) != cudaSuccess)
        why = "CUDA IPC refused a property's array";
    cudaGetLastError();
  }
  mine.ok = !why;
  mine.w = (unsigned long long)(uintptr_t)x->w;
  for (int i = 0; i < np && i < FAL_MPXG_PROPS; i++)
    mine.p[i] = (unsigned long long)(uintptr_t)props[i];
  mine.bus[sizeof mine.bus - 1] = 0;
  fal_mpi_allgather_bytes(&mine, all, sizeof mine);
  int ok = 1;
  for (int r = 0; r < k; r++)
    ok = ok && all[r].ok;
  if (!why && !ok)
    why = "another rank cannot take part";
  for (int r = 0; r < k && !why; r++) { /* another GPU, with atomics on it, mapped */
    if (r == me)
      continue;
    int pd = -1, at = 0;
    all[r].bus[sizeof all[r].bus - 1] = 0;
    if (cudaDeviceGetByPCIBusId(&pd, all[r].bus) != cudaSuccess || pd == dev)
      why = "two ranks on one GPU, or a GPU this rank does not see";
    else if (cudaDeviceGetP2PAttribute(&at, cudaDevP2PAttrNativeAtomicSupported, dev, pd) !=
                 cudaSuccess || !at)
      why = "GPUs without atomics on each other's memory";
    else if (!(x->pw[r] = (char *)fal_mpx_open(r, all[r].w, all[r].hw)))
      why = "CUDA IPC could not open another rank's words";
    for (int i = 0; i < np && !why; i++)
      if (!(x->pP[i][r] = fal_mpx_open(r, all[r].p[i], all[r].hp[i])))
        why = "CUDA IPC could not open another rank's arrays";
    cudaGetLastError();
  }
  free(all);
  ok = fal_mpi_all_true(!why);
  if (!ok) {
    if (fal_verbose() && (me == 0 || why))
      fprintf(stderr, "%s:%d: note: rank %d: the loops over the partitioned graph keep the "
                      "exchange between ranks: %s\n", file, line, me,
              why ? why : "another rank cannot take part");
    if (x->w)
      cudaFree(x->w); /* (the mappings stay: they are opened once) */
    free(x);
    return NULL;
  }
  x->k = k;
  x->me = me;
  x->dev = dev;
  x->np = np;
  for (int j = 0; j <= k; j++)
    x->lo[j] = pl->lo[j];
  x->pw[me] = x->w;
  for (int i = 0; i < np; i++) {
    x->own[i] = props[i];
    x->pP[i][me] = props[i];
  }
  x->hold = (unsigned *)(x->w + FAL_MPX_HOLD);
  for (int i = 0; i < pl->nnbr; i++) { /* the own points neighbour i holds: its border list */
    int64_t a = pl->boff[i], n = pl->boff[i + 1] - a;
    if (n <= 0)
      continue;
    fal_point *ids = (fal_point *)fal_dalloc((size_t)n * sizeof *ids, file, line);
    FAL_CUDA(cudaMemcpy(ids, pl->border + a, (size_t)n * sizeof *ids, cudaMemcpyHostToDevice));
    fal_rm_hold_k<<<fal_cuda_grid(n), FAL_BLOCK>>>(x->hold, ids, n, pl->lo[me], 1u << pl->nbr[i]);
    FAL_CUDA(cudaGetLastError());
    FAL_CUDA(cudaDeviceSynchronize());
    cudaFree(ids);
  }
  FAL_CUDA(cudaStreamCreateWithFlags(&x->st, cudaStreamNonBlocking));
  if (fal_verbose())
    fprintf(stderr, "%s:%d: note: rank %d: the ranks' GPUs reach each other's %d point "
                    "propert%s over CUDA IPC\n", file, line, me, np, np == 1 ? "y" : "ies");
  return x;
}

/* The index of P among the maps' arrays, or -1. */
static inline int fal_mpxg_prop(const fal_mpxg *g, const void *P)
{
  for (int i = 0; P && i < g->np; i++)
    if (g->own[i] == P)
      return i;
  return -1;
}

/* A loop's contexts, made the first time the loop runs (fal_mpx_ready,
 * before the loop, on every rank: every rank has the maps or none has,
 * and the ranks agree that P is mapped).  state 1: made for P (the graph's
 * maps g, P one of its arrays), -1: not used. */
typedef struct fal_mpx {
  int state;
  fal_mpxg *g;
  void *P;
  int push;
  fal_rmt *df, *dh;     /* the kernels' and the host rounds' (no sent words) */
  fal_px px;            /* the rank's part, without a last-seen array */
  int old;              /* host rounds sent MINs to owners: ghosts to refresh */
  int gather;           /* push, FALCON_MPX_HOST=gather: host rounds take plain
                         * MINs and then merge and refresh (fal_mpx_gather) */
} fal_mpx;

static inline int fal_mpx_ready(fal_mpx *m, fal_mpxg *g, void *P, int push, const char *file, int line)
{
  /* (the arrays a graph's maps name do not move: a program that changes
   * graphs plans no loop, plan.c; so a loop's contexts, once made on
   * every rank, stay right on every rank) */
  if (m->state == 1 && m->g == g && m->P == P)
    return 1;
  m->state = -1;
  if (!g) /* (NULL on every rank, fal_mpxg_open) */
    return 0;
  int pi = fal_mpxg_prop(g, P);
  if (!fal_mpi_all_true(pi >= 0 && !(push && g->k != 2))) /* every rank, or none */
    return 0;
  int k = g->k, me = g->me;
  fal_cuda_use(g->dev);
  char *c = (char *)fal_dalloc(2 * FAL_RM_AL(sizeof(fal_rmt)), file, line);
  m->df = (fal_rmt *)c;
  m->dh = (fal_rmt *)(c + FAL_RM_AL(sizeof(fal_rmt)));
  fal_rmt h;
  memset(&h, 0, sizeof h);
  h.k = k;
  h.me = me;
  h.base = P;
  for (int j = 0; j < k; j++) {
    h.own[j] = g->pP[pi][j];
    h.peer[j] = (unsigned long long *)(g->pw[j] + 64);
    h.rs[j] = (unsigned long long *)(g->pw[j] + FAL_RM_WORDS);
  }
  h.st = h.peer[me];
  h.done = (unsigned *)(g->pw[0] + FAL_MPX_CTL + 32);
  h.hold = push ? g->hold : NULL;
  h.fetch = fal_px_fetch();
  for (int j = 0; j <= k; j++)
    h.lo[j] = g->lo[j];
  FAL_CUDA(cudaMemcpy(m->dh, &h, sizeof h, cudaMemcpyHostToDevice)); /* sent NULL */
  h.sent = (unsigned *)g->w;
  FAL_CUDA(cudaMemcpy(m->df, &h, sizeof h, cudaMemcpyHostToDevice));
  fal_px *x = &m->px;
  memset(x, 0, sizeof *x);
  x->k = k;
  x->me = me;
  x->lo = g->lo[me];
  x->hi = g->lo[me + 1];
  x->start = (unsigned *)(g->pw[0] + FAL_MPX_CTL);
  x->bar = (unsigned long long *)(g->pw[0] + FAL_MPX_CTL + 8);
  x->lw = (unsigned long long *)(g->w + FAL_MPX_CTL + 16);
  x->sys = 1;
  x->wait_ns = fal_px_wait_ns();
  x->ra = m->df;
  m->g = g;
  m->P = P;
  m->push = push;
  m->old = 0;
  const char *e = getenv("FALCON_MPX_HOST"); /* (the environment is every rank's) */
  m->gather = push && e && strcmp(e, "gather") == 0;
  m->state = 1;
  return 1;
}

/* The context of the loop's host rounds (lower_loop.c
 * render_partitioned_foreach): their MINs go to the owners, and with
 * push to the other rank's copy; NULL when the loop keeps the exchange. */
static inline void *fal_mpx_host(fal_mpx *m)
{
  if (m->state != 1)
    return NULL;
  m->old = 1;
  return m->dh;
}

/* The rank's part's graph's fal_rmt for a kernel that takes context ctx
 * (fal_rmv, falcon/cuda.cuh). */
static inline fal_rmv fal_mpx_rmv(const fal_mpx *m, void *ctx)
{
  return ctx ? fal_rmv_of(ctx, m->P, m->px.lo, m->px.hi) : fal_rmv_none();
}

/* The context a host round's kernel takes (h: fal_mpx_host's): none
 * where the round gathers instead (fal_mpx_gather). */
static inline fal_rmv fal_mpx_ctx(const fal_mpx *m, void *h)
{
  return fal_mpx_rmv(m, m->gather ? NULL : h);
}

/* At the top of each host round of such a loop (lower_plan.c
 * emit_mpx_loop): whether the rest of the loop moves into the kernels.
 * As fal_loop_switch_parts decides (a window of short rounds; a round of
 * a repeated phase counts as its launches, below), but every rank answers
 * alike.  FALCON_GPU_LOOPS=host keeps the hosts' rounds, =device moves at
 * once. */
static inline bool fal_mpx_switch_f(fal_loop_sw *s, fal_mpx *m, const fal_mpi_plan *pl, int warp,
                                    int first, const void *fn, const char *file, unsigned line);
static inline bool fal_mpx_switch(fal_loop_sw *s, fal_mpx *m, const fal_mpi_plan *pl, int warp,
                                  const void *fn, const char *file, unsigned line)
{
  return fal_mpx_switch_f(s, m, pl, warp, 0, fn, file, line);
}

/* first: the ranks' kernels have the warp form and would take it
 * (docs/optimiser.md "Parts kernels with a warp per point"): when every
 * rank's would, the loop moves into them at its first round. */
static inline bool fal_mpx_switch_f(fal_loop_sw *s, fal_mpx *m, const fal_mpi_plan *pl, int warp,
                                    int first, const void *fn, const char *file, unsigned line)
{
  double limit = fal_loop_switch_limit();
  if (s->state == 2)
    return false;
  int mode = fal_gpu_loops_mode(); /* (the environment is every rank's) */
  if (s->state == 0) {
    /* (m->state is every rank's: the maps are, fal_mpxg_open) */
    int can = mode != 1 && m->state == 1;
    if (can) {
      int cdev = 0, coop = 0;
      fal_cuda_use(m->g->dev);
      can = fal_coop_blocks_cap(fn, &cdev, &coop, FAL_LOOP_BLOCKS_PER_SM) >= 1;
    }
    if (!fal_mpi_all_true(can)) {
      s->state = 2;
      return false;
    }
    if (mode == 2 || fal_mpi_all_true(first))
      return true;
    s->state = 1;
    s->window = fal_mpi_all_true(warp) ? FAL_LOOP_WINDOW : FAL_LOOP_WINDOW_PARTS;
    s->rounds = 0;
    s->n0 = pl->dev_reps;
    s->t0 = fal_rtclock();
    return false;
  }
  /* A GPU rank's topology-driven phase repeats until it settles
   * (fal_rep): a host round is then many launches, each of which a round
   * of the kernels' own rounds stands for.  So the window ends after as
   * many rounds or launches, and the measure is a launch's time, as one
   * host round's is a single process's.  (The ranks' counts of launches
   * differ: the window ends where any rank's does.) */
  long long n = pl->dev_reps - s->n0;
  if (s->state == 1) { /* the first round was a warm-up (the repeated
                        * phase's words, the first sweep of every point):
                        * the window starts now */
    s->state = 3;
    s->n0 = pl->dev_reps;
    s->t0 = fal_rtclock();
    return false;
  }
  int end = ++s->rounds >= s->window || n >= s->window;
  if (fal_mpi_all_true(!end))
    return false;
  double now = fal_rtclock();
  n = n > s->rounds ? n : s->rounds;
  int go = now - s->t0 < limit * (double)n * pl->nranks;
  if (fal_verbose() && pl->rank == 0)
    fprintf(stderr, "%s:%u: note: rank 0: %d host rounds, %lld launches in %.3f ms: %s here\n",
            file, line, s->rounds, n, (now - s->t0) * 1e3, go ? "short" : "long");
  s->rounds = 0;
  s->n0 = pl->dev_reps;
  s->t0 = now;
  /* the ranks' rounds took one time (each waits for the others); the
   * busiest rank's launches measure it: short if any rank's are */
  return !fal_mpi_all_true(!go);
}

/* Launches the rank's kernel fn (args: its parameters' addresses, the
 * rank's fal_px last) with the blocks that fit on its GPU, after every
 * rank zeroed its words and rank 0 its start line (a barrier between),
 * waits for it, and returns whether the kernels ran (1, on every rank)
 * or were called off at the start line (0 on every rank: nothing
 * changed, the hosts' rounds go on). */
static inline int fal_mpx_run_w(fal_mpx *m, const void *fn, void **args, int warp,
                                const char *name, const char *file, int line);
static inline int fal_mpx_run(fal_mpx *m, const void *fn, void **args, const char *name,
                              const char *file, int line)
{
  return fal_mpx_run_w(m, fn, args, 0, name, file, line);
}

/* warp: the kernel's warp form (fal_pxh_run_w) */
static inline int fal_mpx_run_w(fal_mpx *m, const void *fn, void **args, int warp,
                                const char *name, const char *file, int line)
{
  fal_mpxg *g = m->g;
  fal_cuda_use(g->dev);
  FAL_CUDA(cudaMemset(g->w, 0, FAL_RM_WORDS + FAL_RM_RS));
  FAL_CUDA(cudaMemset(g->w + FAL_MPX_CTL, 0, 64)); /* (rank 0's: start, bar, done) */
  FAL_CUDA(cudaDeviceSynchronize());
  int dev = 0, coop = 0;
  int blocks = fal_coop_blocks_cap(fn, &dev, &coop, warp ? 0 : FAL_LOOP_BLOCKS_PER_SM);
  if (!fal_mpi_all_true(blocks >= 1)) /* (and: every rank's words are zero) */
    return 0;
  cudaError_t err = cudaLaunchCooperativeKernel(fn, dim3((unsigned)blocks),
                                                warp ? dim3(32, FAL_BLOCK / 32) : dim3(FAL_BLOCK),
                                                args, 0, g->st);
  if (err != cudaSuccess)
    fal_cuda_fail(err, name, file, line);
  err = cudaStreamSynchronize(g->st);
  if (err != cudaSuccess)
    fal_cuda_fail(err, name, file, line);
  unsigned v = 0;
  FAL_CUDA(cudaMemcpy(&v, m->px.start, sizeof v, cudaMemcpyDeviceToHost));
  /* every kernel decided alike (fal_px_start); the reduction is also the
   * barrier after which rank 0 may zero the start line again */
  int ok = fal_mpi_all_true((v & ~FAL_PX_OFF) >= (unsigned)g->k);
  if (!ok && fal_verbose() && g->me == 0)
    fprintf(stderr, "%s:%d: note: the ranks' kernels did not all start within FALCON_PX_WAIT_MS; "
                    "the loop's rounds stay on the hosts\n", file, line);
  if (fal_verbose() && ok && !m->push) {
    unsigned long long t[2] = {0, 0};
    FAL_CUDA(cudaMemcpy(t, g->w + 64 + (2 + 2 * FAL_PX_MAX) * 8, sizeof t, cudaMemcpyDeviceToHost));
    fprintf(stderr, "%s:%d: note: rank %d ran %llu rounds of its own, idle %.3f ms\n", file, line,
            g->me, t[0], t[1] / 1e6);
  }
  return ok;
}

#ifdef __CUDACC__
/* ghost ids[y] takes its owner's value: `one` bytes from the mapped array */
__global__ static void fal_mpx_refresh_k(unsigned char *P, const unsigned char *from,
                                         const fal_point *ids, int64_t n, size_t one)
{
  for (int64_t y = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; y < n;
       y += (int64_t)gridDim.x * blockDim.x) {
    size_t at = (size_t)ids[y] * one;
    if (one == 4)
      *(unsigned *)(P + at) = *(const volatile unsigned *)(from + at);
    else if (one == 8)
      *(unsigned long long *)(P + at) = *(const volatile unsigned long long *)(from + at);
    else
      for (size_t b = 0; b < one; b++)
        P[at + b] = ((const volatile unsigned char *)from)[at + b];
  }
}
#endif

/* After the kernels ran, or after host rounds that sent their MINs to the
 * owners (m->old): the rank's ghosts of P (did: the rank's ghost ids on
 * its GPU, neighbour by neighbour, fal_G.fal_mpi_did) take their owners'
 * values, read from the owners' GPUs (own rounds and MINs to the owners
 * left them as they were; pushes left them equal already); then a
 * barrier, before any rank writes P again.  Every rank calls it. */
static inline void fal_mpx_leave(fal_mpx *m, const fal_mpi_plan *pl, const fal_point *did, void *P,
                                 size_t one)
{
  m->old = 0;
  fal_mpxg *g = m->g;
  fal_cuda_use(g->dev);
  int pi = fal_mpxg_prop(g, P);
  for (int i = 0; i < pl->nnbr && pi >= 0; i++) {
    int64_t a = pl->goff[i], n = pl->goff[i + 1] - a;
    if (n > 0)
      fal_mpx_refresh_k<<<fal_cuda_grid(n), FAL_BLOCK>>>((unsigned char *)P,
                                                         (const unsigned char *)g->pP[pi][pl->nbr[i]],
                                                         did + a, n, one);
  }
  FAL_CUDA(cudaGetLastError());
  FAL_CUDA(cudaDeviceSynchronize());
  fal_mpi_all_true(1);
}
#ifdef __CUDACC__
/* border point ids[y] takes the neighbour's copy's value if lower (mx:
 * higher): the updateFunction of a level-synchronous loop's P (plan.c
 * parts_sync_rule, merge_is_minmax) */
template <typename T>
__global__ static void fal_mpx_merge_k(T *P, const T *from, const fal_point *ids, int64_t n, int mx)
{
  for (int64_t y = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; y < n;
       y += (int64_t)gridDim.x * blockDim.x) {
    fal_point p = ids[y];
    T v = *(const volatile T *)(from + p);
    if (mx ? v > P[p] : v < P[p])
      P[p] = v;
  }
}
#endif

/* FALCON_MPX_HOST=gather (a design of docs/lowering.md, "Next", not yet
 * run on GPUs, so not the default): after a level-synchronous loop's host
 * round whose MINs stayed on the rank's copy (fal_mpx_ctx), as the single
 * process's exchange does: every rank merges into its border points the
 * neighbours' copies (read over the maps; did: the rank's ghost then
 * border ids on its GPU), a barrier, every rank's ghosts take their
 * owners' values, a barrier.  Nothing where the host round pushed. */
template <typename T>
static inline void fal_mpx_gather(fal_mpx *m, const fal_mpi_plan *pl, const fal_point *did, T *P,
                                  int mx)
{
  if (m->state != 1 || !m->gather)
    return;
  fal_mpxg *g = m->g;
  int pi = fal_mpxg_prop(g, P);
  fal_cuda_use(g->dev);
  const fal_point *bid = did + pl->goff[pl->nnbr];
  for (int i = 0; i < pl->nnbr && pi >= 0; i++) {
    int64_t a = pl->boff[i], n = pl->boff[i + 1] - a;
    if (n > 0)
      fal_mpx_merge_k<T><<<fal_cuda_grid(n), FAL_BLOCK>>>(P, (const T *)g->pP[pi][pl->nbr[i]],
                                                          bid + a, n, mx);
  }
  FAL_CUDA(cudaGetLastError());
  FAL_CUDA(cudaDeviceSynchronize());
  fal_mpi_all_true(1); /* every owner merged before any ghost is read */
  fal_mpx_leave(m, pl, did, P, sizeof(T));
  m->old = 1; /* (fal_mpx_leave cleared it; the loop's host rounds go on) */
}

/* Pull rounds on a GPU rank's host rounds (docs/lowering.md "Pull rounds
 * on host ranks"): after the round's exchange, the rank's own points in
 * [lo, hi) of its GPU's P at v + 1 and their out-edges (fal_pdir_launch),
 * read back into *aw and *sc; the pair of counters (*dev) is the loop
 * site's (a static in the generated code), made on the first call and
 * kept for the next rounds and the next runs of the loop. */
template <typename T>
static inline void fal_mdir_dcount(unsigned long long **dev, const T *P, const int64_t *off,
                                   int64_t lo, int64_t hi, long long v, long long *aw, long long *sc)
{
  unsigned long long h[2] = {0, 0};
  if (hi > lo) {
    if (!*dev)
      FAL_CUDA(cudaMalloc((void **)dev, 2 * sizeof **dev));
    FAL_CUDA(cudaMemset(*dev, 0, 2 * sizeof **dev));
    fal_pdir_launch<T>(P, off, lo, hi, v, *dev);
    FAL_CUDA(cudaMemcpy(h, *dev, sizeof h, cudaMemcpyDeviceToHost));
  }
  *aw = (long long)h[0];
  *sc = (long long)h[1];
}

#endif
