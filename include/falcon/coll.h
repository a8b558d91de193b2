/*
 * falcon/coll.h: Collections (§3.5) and Sets (§3.4) as generated code uses
 * them, on the host (C and C++) and, compiled by nvcc, on the device.
 *
 * Collection storage is a table of segments whose sizes double: segment s
 * holds FAL_COLL_FIRST << s elements, so element i never moves once
 * written.  That makes `add` from many threads safe while the collection
 * grows (§3.5 "adding never overflows"): a thread takes an index with one
 * atomic increment (on the GPU one per warp, aggregated), and the first
 * thread to need a segment allocates it.  On the host the segment is
 * allocated by the runtime (runtime/coll.c); on the GPU the host reserves
 * segments before each launch (falcon/cuda.cuh) and a kernel that still
 * runs out allocates from the device heap; if even that fails the
 * element is dropped, `error` is set and the host stops with a message
 * after the launch.
 *
 * OrderByIntValue(field, k) makes the collection a priority worklist: a
 * foreach drains it in increasing order of key >> k, one bucket at a
 * time.  On the GPU, elements added while a bucket is being processed
 * go to the collection itself when their bucket is not above the current
 * one and to `far` otherwise; when the current bucket is empty the
 * smallest bucket of `far` becomes current (the near/far scheme of
 * delta-stepping).  On the host each thread adds to its own list per
 * bucket (runtime/coll.c, the per-thread bins of GAPBS's delta-stepping)
 * and a batch gathers the smallest non-empty bucket of all threads.  See
 * docs/language-choices.md.
 *
 * A Set is a union-find forest over the points of a graph: `parent` in
 * host or device memory, lock-free linking of the larger root under the
 * smaller one with compare-and-swap, and path halving by
 * compare-and-swap in Findcompress (§3.4).
 */
#ifndef FALCON_COLL_H
#define FALCON_COLL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "falcon/graph.h"

/* FAL_HD_FN(f): f is compiled for the host and, by nvcc, the device.
 * (Written around the name so that the header stays plain C to parsers.) */
#ifdef __CUDACC__
#define FAL_HD_FN(f) __host__ __device__ f
#else
#define FAL_HD_FN(f) f
#endif

#define FAL_COLL_LOG 10 /* the first segment holds 1024 elements */
#define FAL_COLL_FIRST ((int64_t)1 << FAL_COLL_LOG)
#define FAL_COLL_NSEG 40
/* A segment being allocated by another host thread. */
#define FAL_COLL_BUSY ((void *)1)

/* The element storage of a collection: the segment table.  A collection
 * variable uses one (st); `a = b;` makes a use b's (§3.5: storage moves,
 * size stays with the variable), so several variables may share one.
 * Stores of shared collections live as long as the program. */
typedef struct fal_cstore {
  void *seg[FAL_COLL_NSEG];
  /* Host stores from the heap: how many collections use this one
   * (fal_coll_share moves references; the last one frees it).  0: not
   * counted (a store inside a collection or at file scope, or on a GPU). */
  int64_t refs;
} fal_cstore;

typedef struct fal_coll {
  int64_t size;                 /* elements; `c.size` (§3.5): the variable's own */
  int64_t elsize;               /* bytes per element */
  fal_cstore *st;               /* the storage in use (device memory for the
                                 * device struct of a GPU collection, and then
                                 * the same pointer in its host handle) */
  int error;                    /* the device heap ran out */
  /* OrderByIntValue (§3.5): */
  int ordered, shift;
  const int *key_prop;          /* point collections: key of x = key_prop[x] */
  int *const *key_slot;         /* where the graph keeps that array (host) */
  int64_t key_off;              /* others: the int at this offset */
  int draining;                 /* a foreach is draining it */
  int64_t threshold;            /* then adds above this bucket go to far */
  struct fal_coll *far, *cur;   /* far: later buckets; cur: the bucket in work */
  void *bins;                   /* host drains: per-thread buckets (runtime/coll.c) */
  /* Host handle of a collection on a GPU (falcon/cuda.cuh): */
  int on_gpu, device, want_device;
  struct fal_coll *dev;         /* the collection in device memory */
  void *graph;                  /* its graph's fal_gbase (placement, room) */
  int local;                    /* a per-thread local collection */
  /* Local collections start small: segment s holds
   * (FAL_COLL_FIRST >> shrink) << s elements, and the first segment is
   * `inl` when it fits there (no allocation for a few elements). */
  int shrink;
  int64_t inl[8];
  fal_cstore lst;               /* a local collection's own storage */
} fal_coll;

typedef struct fal_set {
  fal_point *parent;            /* host, or device memory when on_gpu */
  int64_t n;
  const int *npoints;           /* its graph's point count (sized lazily) */
  int on_gpu, device;
  void *graph;                  /* its graph's fal_gbase, for placement */
} fal_set;

/* (falcon/cuda.cuh includes this header with C linkage.) */
/* Host: allocates segment s of c (runtime/coll.c); NULL never returned. */
void *fal_coll_seg_alloc(fal_coll *c, int s);
void fal_coll_init(fal_coll *c, size_t elsize);
void fal_coll_free(fal_coll *c);
/* c.OrderByIntValue(field, k): for point collections the address of the
 * graph's property array (read when a drain begins: the array may be
 * allocated later), else the offset of an int field of the element. */
void fal_coll_order(fal_coll *c, int *const *key_slot, int64_t key_off, int k);
/* `a = b;` (§3.5): a uses b's element storage from now on (shared, not
 * copied); both keep their own size.  Elements below a's size exist. */
void fal_coll_share(fal_coll *a, fal_coll *b);
/* A copy of the elements of src into dst (sizes and contents). */
void fal_coll_copy(fal_coll *dst, const fal_coll *src);
/* c.del(x): the last element into *out; 0 when empty. */
int fal_coll_pop(fal_coll *c, void *out);
/* Ordered drains on the host: begin, then next() gives each batch in
 * c->cur until it returns 0. */
void fal_coll_drain_begin(fal_coll *c);
int fal_coll_drain_next(fal_coll *c);
void fal_coll_drain_end(fal_coll *c);
/* c.add(x) while a host drain of the ordered c runs: into the adding
 * thread's own bucket lists (runtime/coll.c). */
void fal_coll_bin_add(fal_coll *c, const void *x);
/* The elements this thread added to the bucket being drained, to process
 * before the barrier; NULL when none or many (runtime/coll.c). */
const void *fal_coll_bin_take(fal_coll *c, int64_t *n);

/* A CPU drain batch of fewer elements than this runs in one thread
 * (falconc/lower_coll.c): an unordered one in the thread that reaches it,
 * without starting the others; ordered ones in the thread that forms
 * them, while they stay that small.  A parallel region's start and end,
 * or a barrier, cost more than that many light elements.
 * -DFAL_DRAIN_SERIAL=0 turns it off. */
#ifndef FAL_DRAIN_SERIAL
#define FAL_DRAIN_SERIAL 128
#endif

/* Adds buffered per thread (host, inside the parallel loop of a
 * Collection drain): a thread collects what it adds to a few shared
 * collections and appends each batch with one atomic add, when its
 * buffer fills, when the thread itself reads the collection's size, and
 * at the end of the loop (fal_abuf_end).  See docs/language-choices.md. */
#ifndef __CUDA_ARCH__
#define FAL_ABUF_N 4
#define FAL_ABUF_BYTES 2048
typedef struct fal_abuf {
  fal_coll *c;
  int64_t n, cap;
  char d[FAL_ABUF_BYTES] __attribute__((aligned(16)));
} fal_abuf;
typedef struct fal_abufs {
  int on, used;
  fal_abuf b[FAL_ABUF_N];
} fal_abufs;
extern __thread fal_abufs fal_tl_ab;
void fal_abuf_begin(void);
void fal_abuf_flush(void);
void fal_abuf_end(void);
void fal_abuf_flush_coll(fal_coll *c);
int fal_abuf_add(fal_coll *c, const void *x);
#endif
void fal_coll_set_size(fal_coll *c, int64_t n);
/* Sets (§3.4) on the host. */
void fal_set_init(fal_set *s, const int *npoints, void *graph);
void fal_set_ready(fal_set *s);
void fal_set_free(fal_set *s);
void fal_hs_assign_host(fal_set *dst, fal_set *src);
void fal_coll_range_error(const fal_coll *c, int64_t i);
void fal_set_range_error(const fal_set *s, fal_point x);

/* ---- element positions ------------------------------------------------- */

static inline int FAL_HD_FN(fal_coll_seg_of)(int64_t i, int64_t *off)
{
  uint64_t j = (uint64_t)i + (uint64_t)FAL_COLL_FIRST;
#ifdef __CUDA_ARCH__
  int top = 63 - __clzll((long long)j);
#else
  int top = 63 - __builtin_clzll(j);
#endif
  *off = (int64_t)(j - ((uint64_t)1 << top));
  return top - FAL_COLL_LOG;
}

/* The same for a collection whose first segment is smaller (shrink > 0). */
static inline int FAL_HD_FN(fal_coll_seg_of_c)(const fal_coll *c, int64_t i, int64_t *off)
{
  int log = FAL_COLL_LOG - c->shrink;
  uint64_t j = (uint64_t)i + ((uint64_t)1 << log);
#ifdef __CUDA_ARCH__
  int top = 63 - __clzll((long long)j);
#else
  int top = 63 - __builtin_clzll(j);
#endif
  *off = (int64_t)(j - ((uint64_t)1 << top));
  return top - log;
}

/* Element i of a store of elsize-byte elements (shared collections: the
 * first segment holds FAL_COLL_FIRST elements). */
static inline void *FAL_HD_FN(fal_cstore_at)(const fal_cstore *st, int64_t elsize, int64_t i)
{
  int64_t off;
  int s = fal_coll_seg_of(i, &off);
  return (char *)st->seg[s] + off * elsize;
}

/* Element i, which must have been added. */
static inline void *FAL_HD_FN(fal_coll_at)(const fal_coll *c, int64_t i)
{
  return fal_cstore_at(c->st, c->elsize, i);
}

/* The same for a local collection (a smaller first segment). */
static inline void *FAL_HD_FN(fal_lcoll_at)(const fal_coll *c, int64_t i)
{
  int64_t off;
  int s = fal_coll_seg_of_c(c, i, &off);
  return (char *)c->st->seg[s] + off * c->elsize;
}

static inline int64_t FAL_HD_FN(fal_coll_size)(const fal_coll *c)
{
#ifdef __CUDA_ARCH__
  return *(volatile const int64_t *)&c->size;
#else
  if (fal_tl_ab.used) /* this thread's own adds first */
    fal_abuf_flush_coll((fal_coll *)c);
  return __atomic_load_n(&c->size, __ATOMIC_ACQUIRE);
#endif
}

/* The storage of element i, allocating its segment if needed. */
static inline void *FAL_HD_FN(fal_coll_slot)(fal_coll *c, int64_t i)
{
  int64_t off;
  int s = fal_coll_seg_of(i, &off);
  if (s >= FAL_COLL_NSEG)
    return 0;
#ifdef __CUDA_ARCH__
  void *p = *(void *volatile *)&c->st->seg[s];
  if (!p) {
    size_t bytes = (size_t)(FAL_COLL_FIRST << s) * (size_t)c->elsize;
    void *mine = malloc(bytes);
    if (!mine) {
      c->error = 1;
      return 0;
    }
    p = (void *)atomicCAS((unsigned long long *)&c->st->seg[s], 0ULL,
                          (unsigned long long)mine);
    if (p)
      free(mine);
    else
      p = mine;
  }
#else
  void *p = __atomic_load_n(&c->st->seg[s], __ATOMIC_ACQUIRE);
  if (!p || p == FAL_COLL_BUSY)
    p = fal_coll_seg_alloc(c, s);
#endif
  return (char *)p + off * c->elsize;
}

/* The bucket of an element of an ordered collection. */
static inline int64_t FAL_HD_FN(fal_coll_bucket)(const fal_coll *c, const void *x)
{
  int key = c->key_prop ? c->key_prop[*(const fal_point *)x]
                        : *(const int *)((const char *)x + c->key_off);
  return (int64_t)key >> c->shift;
}

/* *p incremented once for each calling thread, with (on the GPU) one
 * atomicAdd per warp for the threads that name the same p; this thread's
 * old value. */
static inline unsigned long long FAL_HD_FN(fal_warp_inc)(unsigned long long *p)
{
#ifdef __CUDA_ARCH__
  unsigned mask = __match_any_sync(__activemask(), (unsigned long long)p);
  int lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader)
    base = atomicAdd(p, (unsigned long long)__popc(mask));
  base = __shfl_sync(mask, base, leader);
  return base + __popc(mask & ((1u << lane) - 1));
#else
  return __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL);
#endif
}

/* One index for this thread; on the GPU the threads of a warp adding to
 * the same collection share one atomic (§3.5). */
static inline int64_t FAL_HD_FN(fal_coll_claim)(fal_coll *c)
{
#ifdef __CUDA_ARCH__
  return (int64_t)fal_warp_inc((unsigned long long *)&c->size);
#else
  return __atomic_fetch_add(&c->size, 1, __ATOMIC_ACQ_REL);
#endif
}

/* c.add(x) / c.push(x) (§3.5). */
static inline void FAL_HD_FN(fal_coll_add)(fal_coll *c, const void *x)
{
#ifndef __CUDA_ARCH__
  if (c->draining && c->bins) {
    fal_coll_bin_add(c, x);
    return;
  }
  if (fal_tl_ab.on && fal_abuf_add(c, x))
    return;
#endif
  if (c->draining && fal_coll_bucket(c, x) > c->threshold)
    c = c->far;
  int64_t i = fal_coll_claim(c);
  void *p = fal_coll_slot(c, i);
  if (p)
    memcpy(p, x, (size_t)c->elsize);
}

static inline void FAL_HD_FN(fal_coll_addp)(fal_coll *c, fal_point x)
{
#ifndef __CUDA_ARCH__
  if (c->draining && c->bins) {
    fal_coll_bin_add(c, &x);
    return;
  }
  if (fal_tl_ab.on && fal_abuf_add(c, &x))
    return;
#endif
  if (c->draining && fal_coll_bucket(c, &x) > c->threshold)
    c = c->far;
  int64_t i = fal_coll_claim(c);
  fal_point *p = (fal_point *)fal_coll_slot(c, i);
  if (p)
    *p = x;
}

/* ---- per-thread local collections (§3.5) -------------------------------- */

/* A local collection is declared in code that runs per element: its
 * storage is released when its block ends (fal_coll_local_free). */
static inline void FAL_HD_FN(fal_coll_local_init)(fal_coll *c, size_t elsize)
{
  memset(c, 0, sizeof *c);
  c->elsize = (int64_t)elsize;
  c->local = 1;
  c->st = &c->lst;
  /* The first segment: as many elements as fit in `inl` (a power of two),
   * else 4 elements from the heap. */
  int64_t k = (int64_t)sizeof c->inl / (int64_t)(elsize ? elsize : 1), log = 0;
  while (log < FAL_COLL_LOG && ((int64_t)2 << log) <= k)
    log++;
  if (k >= 1) {
    c->shrink = (int)(FAL_COLL_LOG - log);
    c->st->seg[0] = c->inl;
  } else {
    c->shrink = FAL_COLL_LOG - 2;
  }
}

static inline void FAL_HD_FN(fal_coll_local_free)(fal_coll *c)
{
  for (int s = 0; s < FAL_COLL_NSEG; s++)
    if (c->st->seg[s] && c->st->seg[s] != FAL_COLL_BUSY && c->st->seg[s] != (void *)c->inl)
      free(c->st->seg[s]);
  memset(c->st->seg, 0, sizeof c->st->seg);
  c->size = 0;
}

/* Adds to a local collection: it belongs to one thread, so no atomics
 * (on the GPU the same address names a different collection in each
 * thread's local memory: it must not be aggregated across the warp).
 * When the device heap cannot hold it, the kernel stops (a clear launch
 * error on the host) rather than lose the element. */
static inline void *FAL_HD_FN(fal_lcoll_slot)(fal_coll *c)
{
  int64_t off, i = c->size++;
  int s = fal_coll_seg_of_c(c, i, &off);
  if (s >= FAL_COLL_NSEG || !c->st->seg[s]) {
    size_t bytes = (size_t)((FAL_COLL_FIRST >> c->shrink) << s) * (size_t)c->elsize;
    void *p = s < FAL_COLL_NSEG ? malloc(bytes) : 0;
    if (!p) {
#ifdef __CUDA_ARCH__
      printf("falcon: error: a local Collection needs %llu bytes more than the "
             "device heap has\n", (unsigned long long)bytes);
      __trap();
#else
      fprintf(stderr, "falcon: error: out of memory for a local Collection "
              "(%llu bytes more)\n", (unsigned long long)bytes);
      exit(1);
#endif
    }
    c->st->seg[s] = p;
  }
  return (char *)c->st->seg[s] + off * c->elsize;
}

static inline void FAL_HD_FN(fal_lcoll_add)(fal_coll *c, const void *x)
{
  memcpy(fal_lcoll_slot(c), x, (size_t)c->elsize);
}

static inline void FAL_HD_FN(fal_lcoll_addp)(fal_coll *c, fal_point x)
{
  *(fal_point *)fal_lcoll_slot(c) = x;
}

/* c.size = n / c.clear() on a local collection, also in device code
 * (new elements are not zeroed, as on the host). */
static inline void FAL_HD_FN(fal_lcoll_set_size)(fal_coll *c, int64_t n)
{
  if (n < 0)
    n = 0;
  while (c->size < n)
    fal_lcoll_slot(c);
  c->size = n;
}

/* ---- single on a Collection (§4.3) --------------------------------------- */

/* The element ids a collection of points (4-byte) or edges (8-byte) holds. */
static inline int64_t FAL_HD_FN(fal_own_elem)(const fal_coll *c, int64_t i)
{
  const void *x = c->local ? fal_lcoll_at(c, i) : fal_coll_at(c, i);
  return c->elsize == 8 ? *(const int64_t *)x : (int64_t)*(const int32_t *)x;
}

static inline uint64_t FAL_HD_FN(fal_own_key)(const fal_owner *o, int64_t id)
{
  return ((FAL_OWN_EMAX - o->epoch) << 40) | ((uint64_t)id & (FAL_OWN_IDS - 1));
}

/* Phase 1: loop element `id` claims every element of c (smallest key wins). */
static inline void FAL_HD_FN(fal_own_claim)(const fal_owner *o, const fal_coll *c, int64_t id)
{
  uint64_t key = fal_own_key(o, id);
  int64_t n = fal_coll_size(c);
  for (int64_t i = 0; i < n; i++) {
    int64_t x = fal_own_elem(c, i);
    if (x < 0 || x >= o->n)
      continue; /* not an element: fal_own_holds fails */
#ifdef __CUDA_ARCH__
    atomicMin((unsigned long long *)&o->own[x], (unsigned long long)key);
#else
    uint64_t cur = __atomic_load_n(&o->own[x], __ATOMIC_RELAXED);
    while (key < cur && !__atomic_compare_exchange_n(&o->own[x], &cur, key, 1,
                                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      ;
#endif
  }
}

/* Phase 2: does `id` still own every element of c? */
static inline int FAL_HD_FN(fal_own_holds)(const fal_owner *o, const fal_coll *c, int64_t id)
{
  uint64_t key = fal_own_key(o, id);
  int64_t n = fal_coll_size(c);
  for (int64_t i = 0; i < n; i++) {
    int64_t x = fal_own_elem(c, i);
    if (x < 0 || x >= o->n)
      return 0;
#ifdef __CUDA_ARCH__
    uint64_t cur = *(volatile const uint64_t *)&o->own[x];
#else
    uint64_t cur = __atomic_load_n(&o->own[x], __ATOMIC_RELAXED);
#endif
    if (cur != key)
      return 0;
  }
  return 1;
}

/* ---- Set (§3.4) ------------------------------------------------------------ */

static inline fal_point FAL_HD_FN(fal_set_load)(const fal_point *p)
{
#ifdef __CUDA_ARCH__
  return *(volatile const fal_point *)p;
#else
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

static inline fal_point FAL_HD_FN(fal_set_cas)(fal_point *p, fal_point expected,
                                           fal_point desired)
{
#ifdef __CUDA_ARCH__
  return (fal_point)atomicCAS((int *)p, (int)expected, (int)desired);
#else
  __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  return expected;
#endif
}

/* s.find(x): the representative, without changing the forest. */
static inline fal_point FAL_HD_FN(fal_set_find)(const fal_set *s, fal_point x)
{
  for (;;) {
    fal_point p = fal_set_load(&s->parent[x]);
    if (p == x)
      return x;
    x = p;
  }
}

/* A relaxed store of a parent pointer (path halving on the host). */
static inline void fal_set_store(fal_point *p, fal_point v)
{
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* The forest keeps parent[x] <= x (a root is linked under a smaller
 * point), so it has no cycles and a set's root is its smallest point.
 * A point that is not a root never becomes one, and the points above it
 * stay above it (links are only made at roots), so pointing it at any
 * point above it keeps every set as it is: path halving may use a plain
 * store, and two halvings of one point racing leave either value (the
 * host does; build machine, 2 threads, one-pass cc on road-FLA: 12-13 ms
 * with compare-and-swap, 10.2-10.9 with stores). */

/* s.Findcompress(x): find with path halving (each visited point is
 * pointed at its grandparent). */
static inline fal_point FAL_HD_FN(fal_set_findc)(const fal_set *s, fal_point x)
{
  for (;;) {
    fal_point p = fal_set_load(&s->parent[x]);
    if (p == x)
      return x;
    fal_point gp = fal_set_load(&s->parent[p]);
    /* p is the root: return it without reading parent[p] a second time.
     * Once most points hang from one root, every find reads that root's
     * entry, and on the GPU those reads queue at one place in L2 */
    if (gp == p)
      return p;
#ifdef __CUDA_ARCH__
    /* compare-and-swap on the GPU: measured faster there (H100, cc.fal:
     * kron-20 0.84 against 1.19 ms, road-FLA 0.46 against 0.50) */
    fal_set_cas(&s->parent[x], p, gp);
#else
    fal_set_store(&s->parent[x], gp);
#endif
    x = gp;
  }
}

/* s.Union(a, b) / s.Merge(a, b): 1 if this call joined two sets, 0 if
 * they were already one.  The larger root is linked under the smaller,
 * so the representative of a set is its smallest point. */
static inline int FAL_HD_FN(fal_set_union)(const fal_set *s, fal_point a, fal_point b)
{
  for (;;) {
    a = fal_set_findc(s, a);
    b = fal_set_findc(s, b);
    if (a == b)
      return 0;
    fal_point lo = a < b ? a : b, hi = a < b ? b : a;
    if (fal_set_cas(&s->parent[hi], hi, lo) == hi)
      return 1;
  }
}

/* ---- iterating a mutable graph (§6) ---------------------------------------- */

/* Generated loops of programs that mutate graphs skip deleted points and
 * edges and end each adjacency list at end[p] (falcon/graph.h). */
static inline int FAL_HD_FN(fal_live_point)(const fal_graph *g, fal_point p)
{
  return !g->pdel || !g->pdel[p];
}

/* On the host, edel is read with acquire: an edge a concurrent addEdge
 * made live (release store, runtime/mutate.c) is seen whole.  Kernels of
 * programs that mutate in parallel use fal_live_edge_sync (cuda.cuh). */
static inline int FAL_HD_FN(fal_live_edge)(const fal_graph *g, fal_edge e)
{
#ifdef __CUDA_ARCH__
  return !g->edel || (!g->edel[e] && !g->pdel[g->dst[e]]);
#else
  return !g->edel ||
         (!__atomic_load_n(&g->edel[e], __ATOMIC_ACQUIRE) && !g->pdel[g->dst[e]]);
#endif
}

static inline int64_t FAL_HD_FN(fal_nbr_end)(const fal_graph *g, fal_point p)
{
  return g->end ? g->end[p] : g->offsets[p + 1];
}

static inline int64_t FAL_HD_FN(fal_edge_slots)(const fal_graph *g)
{
  return g->end ? g->nslots : g->nedges;
}

/* Elements of a point (0) or edge (1) property of a graph. */
static inline size_t fal_prop_elems(const fal_graph *g, int edges)
{
  if (g->end)
    return (size_t)(edges ? g->slot_cap : g->point_cap);
  return (size_t)(edges ? g->nedges : g->npoints);
}

/* ---- host code on the CPU target ------------------------------------------ */

#ifndef __CUDACC__
/* Host code calls fal_hc_* / fal_hs_*; on the CUDA target falcon/cuda.cuh
 * defines them for objects that may live on a GPU. */
static inline void fal_hc_init(fal_coll *c, size_t elsize) { fal_coll_init(c, elsize); }
static inline int64_t fal_hc_size(const fal_coll *c) { return fal_coll_size(c); }
static inline void fal_hc_set_size(fal_coll *c, int64_t n) { fal_coll_set_size(c, n); }
static inline void fal_hc_addp(fal_coll *c, fal_point x) { fal_coll_addp(c, x); }
static inline void fal_hc_add(fal_coll *c, const void *x) { fal_coll_add(c, x); }
static inline int fal_hc_pop(fal_coll *c, void *out) { return fal_coll_pop(c, out); }
static inline void *fal_hc_at(fal_coll *c, int64_t i)
{
  if (i < 0 || i >= c->size)
    fal_coll_range_error(c, i);
  return fal_coll_at(c, i);
}
static inline void fal_hc_order(fal_coll *c, int *const *key_slot, int64_t key_off, int k)
{
  fal_coll_order(c, key_slot, key_off, k);
}
static inline void fal_hc_assign(fal_coll *a, fal_coll *b) { fal_coll_share(a, b); }
static inline void fal_hc_drain_begin(fal_coll *c) { fal_coll_drain_begin(c); }
static inline int fal_hc_drain_next(fal_coll *c, int round)
{
  return c->ordered ? fal_coll_drain_next(c) : round == 0;
}
static inline fal_coll *fal_hc_batch(fal_coll *c, int64_t *n)
{
  fal_coll *b = c->ordered ? c->cur : c;
  *n = fal_coll_size(b);
  return b;
}
static inline void fal_hc_drain_end(fal_coll *c) { fal_coll_drain_end(c); }

static inline fal_point fal_hs_check(fal_set *s, fal_point x)
{
  fal_set_ready(s);
  if (x < 0 || x >= s->n)
    fal_set_range_error(s, x);
  return x;
}
static inline void fal_hs_ready(fal_set *s) { fal_set_ready(s); }
static inline fal_point fal_hs_find(fal_set *s, fal_point x)
{
  return fal_set_find(s, fal_hs_check(s, x));
}
static inline fal_point fal_hs_findc(fal_set *s, fal_point x)
{
  return fal_set_findc(s, fal_hs_check(s, x));
}
static inline int fal_hs_union(fal_set *s, fal_point a, fal_point b)
{
  return fal_set_union(s, fal_hs_check(s, a), fal_hs_check(s, b));
}
static inline void fal_hs_assign(fal_set *dst, fal_set *src) { fal_hs_assign_host(dst, src); }
#endif

#endif /* FALCON_COLL_H */
