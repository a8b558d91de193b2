/*
 * falcon/frontier.h: the flag lists of a CPU convergence loop that the
 * planner gave frontiers (falconc/plan.c plan_frontiers, lower_plan.c,
 * docs/optimiser.md "Frontiers").
 *
 * A fal_front holds, for one flag property F, a list of point ids that
 * contains every point whose F is not zero (and maybe others: a phase
 * still tests its filter).  Phases visit the list instead of all points;
 * after a phase that writes F the threads push the points it may have set
 * (the element, its out-neighbours, the old list's points whose F is still
 * set) into the next list, deduplicated by an epoch mark per point, and
 * one thread swaps the lists after a barrier.
 *
 * A list that would hold more than `limit` points (1/32 of them) is
 * *dense* instead: it stands for every point, which keeps the invariant
 * without any upkeep; phases scan all points, and a phase that writes the
 * flag rebuilds the list from a scan, sparse again once small enough.
 *
 * Used inside one OpenMP parallel region: fal_fbuf is each thread's
 * buffer; fal_front's counters are shared.
 */
#ifndef FALCON_FRONTIER_H
#define FALCON_FRONTIER_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fal_front {
  int32_t *ids;    /* the current list: ids[0 .. n) */
  int32_t *next;   /* the list being built: next[0 .. nnext) */
  int64_t n, nnext;
  uint32_t *mark;  /* mark[x] == epoch: x is in next already */
  uint32_t epoch;
  int64_t npoints;
  int64_t limit;   /* more than this many: dense */
  int dense;       /* the list stands for all points */
} fal_front;

#define FAL_FBUF 256
typedef struct fal_fbuf {
  fal_front *f;
  int n;
  int32_t ids[FAL_FBUF];
} fal_fbuf;

/* An environment switch: 1 when variable `name` is `one`, 0 when it is
 * `zero`, -1 when it is neither or not set. */
static inline int fal_env_switch(const char *name, const char *one, const char *zero)
{
  const char *e = getenv(name);
  return e && strcmp(e, one) == 0 ? 1 : e && strcmp(e, zero) == 0 ? 0 : -1;
}

/* A setting that is a number: true, and *out, when variable `name` is a
 * number from `min` to `max` (a whole one when `whole`); false when it
 * is unset or empty, and false with a warning that names it when it is
 * anything else.  Callers read it once and keep the answer. */
static inline bool fal_env_number(const char *name, double min, double max, bool whole,
                                  double *out)
{
  const char *e = getenv(name);
  if (!e || !*e)
    return false;
  char *end;
  double v = strtod(e, &end);
  if (*end != '\0' || !(v >= min && v <= max) || (whole && v != (double)(long long)v)) {
    fprintf(stderr, "warning: %s=%s is not %s from %.15g to %.15g; ignored\n", name, e,
            whole ? "a whole number" : "a number", min, max);
    return false;
  }
  *out = v;
  return true;
}

/* FALCON_FRONTIERS: 1 for on, 0 for off, -1 when not set (the rule of
 * each target decides: fal_front_wanted here, fal_dfront_wanted in
 * falcon/cuda.cuh). */
static inline int fal_front_forced(void)
{
  return fal_env_switch("FALCON_FRONTIERS", "on", "off");
}

/* FALCON_DIRECTION: 0 (push) or 1 (pull) to force the direction of every
 * round of a level-synchronous loop with pull rounds (falconc/plan.c
 * pull_rule); -1 when not set (chosen each round by frontier size). */
static inline int fal_dir_forced(void)
{
  return fal_env_switch("FALCON_DIRECTION", "pull", "push");
}

#ifndef FAL_HD_FN /* (falcon/coll.h's: host and, by nvcc, device) */
#ifdef __CUDACC__
#define FAL_HD_FN(f) __host__ __device__ f
#else
#define FAL_HD_FN(f) f
#endif
#endif

/* Whether a level-synchronous loop may pull at all: on undirected graphs
 * of average degree above 8 unless forced (fixed: fal_dir_forced); the
 * GPU's loops and the MPI ranks' take this rule (fal_dstate_start
 * below).  The CPU's region that
 * pulls runs where frontiers are not wanted (fal_front_wanted below:
 * average degree above 8) and pulls on directed graphs too where the
 * program built in-edges (falconc lower_plan.c emit_region). */
static inline int fal_dir_may_pull(int directed, int64_t npoints, int64_t nedges, int fixed)
{
  return !directed && fixed != 0 && (fixed == 1 || nedges > 8 * npoints);
}

/* The direction of a level-synchronous loop's rounds (falconc plan.c
 * pull_rule), one state for every place that runs such rounds: the CPU
 * region (lower_plan.c emit_region, a local), the single process's host
 * rounds (falcon/cuda.cuh fal_pdir, which holds one), the parts' kernel
 * (each thread's copy of fal_px.pd) and MPI ranks' host rounds
 * (falcon/mpi.h).  fal_dstate_start or fal_dstate_init: the loop's start;
 * fal_dstate_counts: whether the round just run must count its new
 * points; fal_dstate_decide: the next round's direction from those
 * counts. */
typedef struct fal_dstate {
  int on;       /* the loop may pull */
  int dir;      /* the next round pulls */
  int fixed;    /* FALCON_DIRECTION: 1 pull, 0 push, -1 chosen */
  int counting; /* chosen directions: the rounds count their new points */
  int settled;  /* back to pushing after pulling: no more counts needed */
  long long etc;     /* out-edges not yet explored from */
  long long oaw;     /* the round before's new points */
  long long npoints; /* the graph's points */
  long long pulls;   /* rounds that pulled (FALCON_PROFILE) */
} fal_dstate;

static inline void FAL_HD_FN(fal_dstate_init)(fal_dstate *d, int on, int fixed, long long nedges,
                                              long long npoints)
{
  d->on = on;
  d->fixed = fixed;
  d->dir = on && fixed == 1;
  d->counting = on && fixed < 0;
  d->settled = 0;
  d->etc = nedges;
  d->oaw = 0;
  d->npoints = npoints;
  d->pulls = 0;
}

/* The start of a GPU's or an MPI rank's loop (host code: it reads
 * FALCON_DIRECTION): the rounds may pull where can (every part, or rank,
 * on a GPU; MPI host ranks: 1) and fal_dir_may_pull allows. */
static inline void fal_dstate_start(fal_dstate *d, int can, int directed, int64_t npoints,
                                    int64_t nedges)
{
  int fixed = fal_dir_forced();
  fal_dstate_init(d, can && fal_dir_may_pull(directed, npoints, nedges, fixed), fixed, nedges,
                  npoints);
}

/* Whether the round just run counts its new points: directions are
 * chosen, and the loop pulls or has not yet gone back to pushing (the
 * GPUs' and ranks' rounds pay for a count; the CPU region counts as it
 * goes and decides every round). */
static inline int FAL_HD_FN(fal_dstate_counts)(const fal_dstate *d)
{
  return d->on && d->counting && (d->dir || !d->settled);
}

/* Beamer's rule with GAPBS's constants (the same in every place above):
 * a round set aw new points whose out-degrees sum to sc.  Pull when the
 * new points' edges pass a fifteenth of the edges not yet explored from;
 * back to pushing (and settled) when the frontier shrinks below an
 * eighteenth of the points. */
static inline void FAL_HD_FN(fal_dstate_decide)(fal_dstate *d, long long aw, long long sc)
{
  if (!d->dir) {
    if (sc > d->etc / 15)
      d->dir = 1;
    else
      d->etc -= sc;
  } else if (aw < d->oaw && aw <= d->npoints / 18) {
    d->dir = 0;
    d->settled = 1;
  }
  d->oaw = aw;
}

/* Whether a loop with frontiers uses its lists (else it runs the region
 * that scans all points, printed next to it).  A cost rule, not a
 * legality one: on graphs of average out-degree above 8 rounds are few
 * and their frontiers large, and finding a phase's next list costs a
 * second pass over the out-edges it visited (SSSP on kron-20, one thread
 * of the 2-core build machine: 1.45x slower with lists).
 * FALCON_FRONTIERS=on or off forces either. */
static inline int fal_front_wanted(int64_t npoints, int64_t nedges)
{
  int f = fal_front_forced();
  return f >= 0 ? f : nedges <= 8 * npoints;
}

static inline void fal_front_init(fal_front *f, int64_t npoints)
{
  size_t k = (size_t)(npoints > 0 ? npoints : 1);
  f->ids = (int32_t *)malloc(k * sizeof *f->ids);
  f->next = (int32_t *)malloc(k * sizeof *f->next);
  f->mark = (uint32_t *)calloc(k, sizeof *f->mark);
  if (!f->ids || !f->next || !f->mark) {
    fprintf(stderr, "error: out of memory for the frontier of a loop (%lld points)\n",
            (long long)npoints);
    exit(1);
  }
  f->n = f->nnext = 0;
  f->epoch = 1;
  f->npoints = npoints;
  f->limit = npoints / 32 + 64;
  f->dense = 0;
}

/* The k-th point a phase visits, of fal_front_len(f). */
static inline int64_t fal_front_len(const fal_front *f)
{
  return f->dense ? f->npoints : f->n;
}

static inline void fal_front_free(fal_front *f)
{
  free(f->ids);
  free(f->next);
  free(f->mark);
  memset(f, 0, sizeof *f);
}

/* Claims x for the current epoch: true for exactly one caller. */
static inline int fal_front_claim(fal_front *f, int64_t x)
{
  uint32_t e = f->epoch, m = __atomic_load_n(&f->mark[x], __ATOMIC_RELAXED);
  while (m != e)
    if (__atomic_compare_exchange_n(&f->mark[x], &m, e, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return 1;
  return 0;
}

static inline void fal_fbuf_flush(fal_fbuf *b)
{
  if (b->n == 0)
    return;
  int64_t at = __atomic_fetch_add(&b->f->nnext, (int64_t)b->n, __ATOMIC_RELAXED);
  memcpy(b->f->next + at, b->ids, (size_t)b->n * sizeof *b->ids);
  b->n = 0;
}

/* Whether pushes into f's next list still count: it is not dense and has
 * not gone over its limit (then it will be dense, and a phase can skip
 * looking for points to push). */
static inline int fal_front_open(const fal_front *f)
{
  return !f->dense && __atomic_load_n(&f->nnext, __ATOMIC_RELAXED) <= f->limit;
}

/* Adds x to the next list unless it is there already, or the list is
 * over its limit already (it will be dense). */
static inline void fal_fbuf_push(fal_fbuf *b, int64_t x)
{
  if (__atomic_load_n(&b->f->nnext, __ATOMIC_RELAXED) > b->f->limit || !fal_front_claim(b->f, x))
    return;
  b->ids[b->n++] = (int32_t)x;
  if (b->n == FAL_FBUF)
    fal_fbuf_flush(b);
}

/* One thread, after a barrier: the next list becomes the list, and a new
 * epoch starts (marks are reset when the counter wraps). */
static inline void fal_front_commit(fal_front *f)
{
  int32_t *t = f->ids;
  f->ids = f->next;
  f->next = t;
  f->n = f->nnext;
  f->dense = f->nnext > f->limit;
  f->nnext = 0;
  if (++f->epoch == 0) {
    memset(f->mark, 0, (size_t)(f->npoints > 0 ? f->npoints : 1) * sizeof *f->mark);
    f->epoch = 1;
  }
}

/* ---- a host rank's phase run to its own fixpoint (falconc --mpi) ------
 * docs/lowering.md "Host ranks run the phase to their own fixpoint".  A
 * topology-driven phase (falconc plan.c parts_topo_rule: it only lowers P
 * of out-neighbours by MIN, or raises it by MAX) first sweeps the rank's
 * own points, skipping those whose P is what it was at their last visit
 * (the last-seen array `seen`).  Then, where fal_lfix_wanted says so, the
 * rank goes on alone until no own point changed since its last visit: a
 * heap of such points, the lowest P first (the highest for MAX), each
 * visited as the sweep visits it, after which its own out-neighbours
 * whose P moved are pushed.  qv holds P as it was at each own point's last
 * push, so that one value is queued once.  The keys are P as a double:
 * the order only saves work, any order reaches the same fixpoint. */
typedef struct fal_lfix {
  double *key;
  int64_t *pt;
  size_t n, cap;
  void *qv;
  size_t qbytes;
  int mode;          /* 0 unread, 1 on, 2 off, 3 auto (FALCON_MPI_LOCAL) */
  /* The window that ranks share (falconc --mpi, a fixpoint loop; runtime
   * mpi.c fal_mpi_lfix_window, docs/lowering.md "Ranks that share a
   * window"): fal_lfix_take takes keys up to wtop (all when it is
   * +inf), or with wcap > 0 at most wcap points; wpops and wlast count
   * the round's takes and keep the last key; wdelta is the learnt width
   * (0: not yet), wgmin the ranks' lowest key this round. */
  double wtop, wdelta, wgmin, wlast;
  int64_t wpops, wcap;
  int sweep; /* 0 unread, 1 every round, 2 the first only (FALCON_MPI_SWEEP) */
} fal_lfix;

/* auto: graphs of average degree up to 8 (roads: hundreds of rounds of
 * a few points each; on Kronecker graphs the rounds are few and the heap
 * costs more than it saves), ranks of up to 4 threads (the heap runs on
 * one) */
#define FAL_LFIX_DEGREE 8
#define FAL_LFIX_THREADS 4

static inline int fal_lfix_wanted(fal_lfix *l, int64_t npoints, int64_t nedges, int threads)
{
  if (l->mode == 0) {
    const char *e = getenv("FALCON_MPI_LOCAL");
    int s = fal_env_switch("FALCON_MPI_LOCAL", "on", "off");
    if (e && s < 0 && strcmp(e, "auto") != 0)
      fprintf(stderr, "warning: FALCON_MPI_LOCAL=%s is not auto, on or off; using auto\n", e);
    l->mode = s == 1 ? 1 : s == 0 ? 2 : 3;
  }
  if (l->mode != 3)
    return l->mode == 1;
  return nedges <= FAL_LFIX_DEGREE * npoints && threads <= FAL_LFIX_THREADS;
}

/* Before the heap's visits: qv from the last-seen values (bytes of them);
 * returns qv. */
static inline void *fal_lfix_begin(fal_lfix *l, const void *seen, size_t bytes)
{
  if (l->qbytes < bytes || !l->qv) {
    fal_free(l->qv);
    l->qv = fal_alloc(bytes);
    l->qbytes = bytes;
  }
  memcpy(l->qv, seen, bytes);
  l->n = 0;
  return l->qv;
}

static inline void fal_lfix_push(fal_lfix *l, double k, int64_t p)
{
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 4096;
    l->key = (double *)fal_realloc(l->key, cap * sizeof *l->key);
    l->pt = (int64_t *)fal_realloc(l->pt, cap * sizeof *l->pt);
    l->cap = cap;
  }
  size_t i = l->n++;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!(k < l->key[up]))
      break;
    l->key[i] = l->key[up];
    l->pt[i] = l->pt[up];
    i = up;
  }
  l->key[i] = k;
  l->pt[i] = p;
}

/* The point of the lowest key into *p: 0 when the heap is empty. */
static inline int fal_lfix_pop(fal_lfix *l, int64_t *p)
{
  if (l->n == 0)
    return 0;
  *p = l->pt[0];
  size_t n = --l->n;
  if (n == 0)
    return 1;
  double k = l->key[n];
  int64_t q = l->pt[n];
  size_t i = 0;
  for (;;) {
    size_t ch = 2 * i + 1;
    if (ch >= n)
      break;
    if (ch + 1 < n && l->key[ch + 1] < l->key[ch])
      ch++;
    if (!(l->key[ch] < k))
      break;
    l->key[i] = l->key[ch];
    l->pt[i] = l->pt[ch];
    i = ch;
  }
  l->key[i] = k;
  l->pt[i] = q;
  return 1;
}

/* Where the heap alone may visit what changed (falconc's rank_nosweep,
 * docs/lowering.md "Ranks that share a window"): 1 when the rank sweeps
 * its points every round all the same (FALCON_MPI_SWEEP=on; auto, the
 * default, sweeps in the first round only). */
static inline int fal_lfix_sweeps(fal_lfix *l)
{
  if (l->sweep == 0) {
    const char *e = getenv("FALCON_MPI_SWEEP");
    int s = fal_env_switch("FALCON_MPI_SWEEP", "on", "auto");
    if (e && *e && s < 0)
      fprintf(stderr, "warning: FALCON_MPI_SWEEP=%s is not auto or on; using auto\n", e);
    l->sweep = s == 1 ? 1 : 2;
  }
  return l->sweep == 1;
}

/* fal_lfix_pop within the round's window (above): 0 when the heap is
 * empty or its lowest key is past the window (a NaN key is past every
 * finite window). */
static inline int fal_lfix_take(fal_lfix *l, int64_t *p)
{
  if (l->n == 0)
    return 0;
  if (l->wcap > 0 ? l->wpops >= l->wcap : l->wtop < HUGE_VAL && !(l->key[0] <= l->wtop))
    return 0;
  l->wlast = l->key[0];
  l->wpops++;
  return fal_lfix_pop(l, p);
}

#endif /* FALCON_FRONTIER_H */
