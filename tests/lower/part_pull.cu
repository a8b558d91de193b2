#define FAL_HUB_KERNELS 1
#define FAL_RA_HOLD 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "part_pull.fal"
/* A level-synchronous loop over GPU parts (§7) whose phase is exactly a
 * push of lev + 1 into out-neighbours (plan.c pull_rule): the host's
 * rounds may launch the pull kernel over each part's own points instead
 * of the phase (fal_pull_kernel, chosen by fal_pdir), count the round's
 * new points after the exchange (fal_pdir_arm / fal_pdir_next) and
 * report the rounds that pulled under FALCON_PROFILE. */
#define INF 2147483647

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *level; /* point property */
  int *changed; /* graph property */
  /* makePartition (§7): the parts, host views of GPU parts, the first
   * point of each part, and the merge function of updateFunction */
  struct fal_G *fal_parts, *fal_mirrors;
  int fal_nparts, fal_shared;
  int64_t *fal_lo;
  void (*fal_merge)(struct fal_G *, fal_point, struct fal_G *, fal_point);
  /* the border exchange of GPU parts (NULL: every property travels),
   * each part's ghosts at the start of a foreach, whether the parts
   * hold newer values than this host graph, the points host code wrote
   * since the last foreach (65: all), graph properties before it */
  fal_bx *fal_bx;
  struct fal_G *fal_shadow, *fal_gpin; /* fal_gpin: pinned graph properties */
  int fal_stale, fal_ndirty, fal_shadow_ok;
  fal_point fal_dirty_pt[64];
  /* a planned loop's kernels, one per part (fal_pxh, lower_plan.c) */
  void *fal_pxh;
  int fal_px_tried;
  /* while a topology-driven loop's kernels run on this part: its
   * fal_rmt, where MINs of points other parts own go (lower_plan.c;
   * falcon/cuda.cuh fal_rmv) */
  fal_rmv fal_rmt;
  int fal_bx_before_changed;
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static fal_G fal_G_gpu(int device)
{
  fal_G g;
  memset(&g, 0, sizeof g);
  g.fal_base.on_gpu = 1;
  g.fal_base.want_device = device;
  g.fal_base.device = -1;
  return g;
}
static void fal_G_elems_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  int fal_regrow = d->fal_base.loaded &&
      (fal_prop_elems(&d->fal_base.csr, 0) != fal_prop_elems(&h->fal_base.csr, 0) ||
       fal_prop_elems(&d->fal_base.csr, 1) != fal_prop_elems(&h->fal_base.csr, 1));
  fal_gpu_structure(&d->fal_base, &h->fal_base, file, line);
  d->npoints = h->npoints;
  d->nedges = h->nedges;
  d->directed = h->directed;
  if (fal_regrow && d->level) {
    FAL_CUDA(cudaFree(d->level));
    d->level = NULL;
  }
  fal_dcopy_in((void **)&d->level, h->level, (size_t)h->npoints * sizeof *d->level, file, line);
}
static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  if (d->fal_base.device < 0)
    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);
  fal_cuda_use(d->fal_base.device);
  fal_G_elems_to_gpu(d, h, file, line);
  fal_dcopy_in((void **)&d->changed, h->changed, 1 * sizeof *d->changed, file, line);
}
static void fal_G_props_to_host(fal_G *h, const fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  h->npoints = d->npoints;
  h->nedges = d->nedges;
  h->directed = d->directed;
  fal_dcopy_out((void **)&h->level, d->level, (size_t)d->npoints * sizeof *h->level);
  fal_dcopy_out((void **)&h->changed, d->changed, 1 * sizeof *h->changed);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->level);
    h->level = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.level, sizeof *h.level, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.changed, sizeof *h.changed, FAL_PROP_GRAPH);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
static void fal_G_bx_setup(fal_G *h, const char *file, int line);
static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)
{
  int k = ngpu + ncpu;
  (void)policy;
  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {
    fprintf(stderr, "%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\n", file, line, ngpu, ncpu);
    exit(1);
  }
  h->fal_nparts = k;
  h->fal_parts = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));
  h->fal_mirrors = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));
  h->fal_lo = (int64_t *)fal_calloc((size_t)k + 1, sizeof(int64_t));
  /* ORDERED: contiguous, balanced by edges */
  fal_graph_cut_ordered(h->fal_base.csr.offsets, 0, h->npoints, h->nedges, k, h->fal_lo);
  h->fal_shared = ngpu == 0 || fal_cuda_count_quiet() == 0;
  for (int i = 0; i < k; i++) {
    fal_G *q = &h->fal_parts[i];
    if (i < ngpu && fal_cuda_count_quiet() > 0) { /* a GPU part */
      *q = fal_G_gpu(-1);
      fal_G_to_gpu(q, h, file, line);
      continue;
    }
    if (i < ngpu && i == 0)
      fprintf(stderr, "falcon: note: no GPU: the %d GPU part(s) run on the host\n", ngpu);
    q->fal_base.csr = h->fal_base.csr; /* a host part shares the CSR */
    q->fal_base.device = -1;
    q->npoints = h->npoints;
    q->nedges = h->nedges;
    q->directed = h->directed;
    q->level = h->fal_shared ? h->level : (int *)fal_calloc((size_t)h->npoints + 1, sizeof *q->level);
    q->changed = h->fal_shared ? h->changed : (int *)fal_calloc(1 + 1, sizeof *q->changed);
  }
  fal_G_bx_setup(h, file, line);
}
static void fal_G_parts_push(fal_G *h)
{
  if (h->fal_shared)
    return;
  for (int i = 0; i < h->fal_nparts; i++) {
    fal_G *q = &h->fal_parts[i];
    if (q->fal_base.on_gpu) {
      fal_G_to_gpu(q, h, __FILE__, __LINE__);
      continue;
    }
    if (h->level)
      memcpy(q->level, h->level, (size_t)h->npoints * sizeof *h->level);
    if (h->changed)
      memcpy(q->changed, h->changed, 1 * sizeof *h->changed);
  }
}
static int fal_G_point_differs(const fal_G *a, const fal_G *h, fal_point p)
{
  return 0 ||
    (h->level && memcmp(&a->level[p], &h->level[p], sizeof *h->level) != 0);
}
static void fal_G_point_take(fal_G *to, const fal_G *from, fal_point p)
{
  if (to->level && from->level)
    to->level[p] = from->level[p];
}
static void fal_G_parts_pull(fal_G *h)
{
  fal_G *v[64];
  int k = h->fal_nparts;
  if (h->fal_shared)
    return;
  for (int i = 0; i < k; i++) {
    v[i] = &h->fal_parts[i];
    if (v[i]->fal_base.on_gpu) {
      fal_G_props_to_host(&h->fal_mirrors[i], v[i]);
      v[i] = &h->fal_mirrors[i];
    }
  }
  for (int o = 0; o < k; o++) {
    int64_t lo = h->fal_lo[o], hi = h->fal_lo[o + 1];
#pragma omp parallel for schedule(static)
    for (int64_t p = lo; p < hi; p++) {
      for (int j = 0; j < k; j++) {
        if (j == o || !fal_G_point_differs(v[j], h, (fal_point)p))
          continue;
        if (h->fal_merge)
          h->fal_merge(v[o], (fal_point)p, v[j], (fal_point)p);
        else
          fal_G_point_take(v[o], v[j], (fal_point)p);
      }
      fal_G_point_take(h, v[o], (fal_point)p);
    }
  }
  if (h->changed) { /* a value changed by any part wins */
    int before = h->changed[0];
    for (int j = 0; j < k; j++)
      if (memcmp(&v[j]->changed[0], &before, sizeof before) != 0) {
        h->changed[0] = v[j]->changed[0];
        break;
      }
  }
  if (h->fal_bx)
    h->fal_ndirty = 65;
}
__host__ __device__ void merge(fal_G *, fal_point, fal_G *, fal_point);
#define FAL_G_GRID_LOOP(fal_v_, n) for (int64_t fal_v_ = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_v_ < (n); fal_v_ += (int64_t)gridDim.x * blockDim.x)
__global__ void fal_G_bx_snap(fal_G g, fal_G sh, const fal_point *ids, int64_t n)
{
  FAL_G_GRID_LOOP(x, n) {
    fal_point p = ids[x];
    if (sh.level)
      sh.level[x] = g.level[p];
  }
}
__device__ static inline void fal_G_bx_merge1(fal_G *own, fal_G *from, const fal_G *sh, int64_t s, fal_point p, int use_merge)
{
  if (!(0 ||
        (sh->level && fal_bx_differs(from->level[p], sh->level[s]))))
    return; /* this part did not change it */
  if (use_merge) {
    merge(own, p, from, p);
    return;
  }
  if (own->level)
    own->level[p] = from->level[p];
}
__device__ static inline void fal_G_bx_scatter1(fal_G *g, const fal_G *from, const fal_G *sh, int64_t s, fal_point p)
{
  (void)sh;
  if (g->level) {
    g->level[p] = from->level[p];
    if (sh->level)
      sh->level[s] = g->level[p];
  }
}
__global__ void fal_G_bx_merge(fal_G own, fal_G from, fal_G sh, int64_t s0, const fal_point *ids, int64_t n, int use_merge)
{
  FAL_G_GRID_LOOP(x, n)
    fal_G_bx_merge1(&own, &from, &sh, s0 + x, ids[x], use_merge);
}
__global__ void fal_G_bx_scatter(fal_G g, fal_G from, fal_G sh, int64_t s0, const fal_point *ids, int64_t n)
{
  FAL_G_GRID_LOOP(x, n)
    fal_G_bx_scatter1(&g, &from, &sh, s0 + x, ids[x]);
}
static void fal_G_bx_setup(fal_G *h, const char *file, int line)
{
  int k = h->fal_nparts, dev[64];
  if (0 || h->fal_shared || fal_env_switch("FALCON_BORDERS", "on", "off") == 0)
    return;
  int d0 = -1, onhost[64] = {0};
  for (int i = 0; i < k && d0 < 0; i++)
    if (h->fal_parts[i].fal_base.on_gpu)
      d0 = h->fal_parts[i].fal_base.device;
  if (d0 < 0)
    return;
  for (int i = 0; i < k; i++) {
    fal_G *q = &h->fal_parts[i];
    dev[i] = q->fal_base.on_gpu ? q->fal_base.device : d0;
    if (q->fal_base.on_gpu)
      continue;
    onhost[i] = 1;
    if (!fal_host_mappable())
      return; /* every property travels */
    if (q->level && !fal_host_pin((void **)&q->level, ((size_t)h->npoints + 1) * sizeof *q->level))
      return;
  }
  h->fal_bx = fal_bx_new(&h->fal_base.csr, h->fal_lo, k, dev, onhost, file, line);
  if (!h->fal_bx)
    return;
  h->fal_shadow = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));
  for (int i = 0; i < k; i++) {
    int64_t n = fal_bx_nghosts(h->fal_bx, i);
    fal_cuda_use(dev[i]);
    if (h->level && n)
      h->fal_shadow[i].level = (int *)fal_dalloc((size_t)n * sizeof(int), file, line);
  }
  h->fal_gpin = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));
  for (int i = 0; i < k; i++) { /* graph properties travel through pinned memory */
    FAL_CUDA(cudaMallocHost((void **)&h->fal_gpin[i].changed, sizeof(int)));
  }
  h->fal_stale = h->fal_ndirty = h->fal_shadow_ok = 0;
}
static void fal_G_dirty_to(const fal_G *h, fal_G *q)
{
  for (int d = 0; d < h->fal_ndirty; d++) {
    fal_point p = h->fal_dirty_pt[d];
    (void)p; /* (no point property) */
    if (h->level && q->level)
      FAL_CUDA(cudaMemcpy(q->level + p, h->level + p, sizeof *h->level, cudaMemcpyDefault));
  }
}
static fal_G *fal_G_fresh(fal_G *h)
{
  if (!h->fal_stale)
    return h;
  /* the points host code wrote since the parts' last foreach (fal_G_wr)
   * go to the parts first; they stay marked for the next foreach */
  for (int i = 0; i < h->fal_nparts && h->fal_bx && h->fal_ndirty <= 64; i++) {
    fal_cuda_use(h->fal_parts[i].fal_base.device);
    fal_G_dirty_to(h, &h->fal_parts[i]);
  }
  for (int i = 0; i < h->fal_nparts; i++) {
    fal_G *q = &h->fal_parts[i];
    int64_t lo = h->fal_lo[i], n = h->fal_lo[i + 1] - lo;
    fal_cuda_use(q->fal_base.device);
    if (h->level && q->level && n)
      FAL_CUDA(cudaMemcpy(h->level + lo, q->level + lo, (size_t)n * sizeof *h->level, cudaMemcpyDefault));
  }
  h->fal_stale = 0;
  return h;
}
static inline int64_t fal_G_mark(fal_G *h, int64_t p)
{
  if (h->fal_bx && h->fal_ndirty <= 64) {
    if (p < 0 || h->fal_ndirty == 64)
      h->fal_ndirty = 65; /* all */
    else
      h->fal_dirty_pt[h->fal_ndirty++] = (fal_point)p;
  }
  return p;
}
static inline fal_G *fal_G_markall(fal_G *h)
{
  fal_G_mark(h, -1);
  return h;
}
static int64_t fal_G_wr(fal_G *h, int64_t p)
{
  if (!h->fal_stale || !h->fal_bx || h->fal_ndirty >= 64 || p < 0 || p >= h->npoints) {
    fal_G_fresh(h);
    return fal_G_mark(h, p);
  }
  for (int d = 0; d < h->fal_ndirty; d++)
    if (h->fal_dirty_pt[d] == (fal_point)p)
      return p; /* its values are here already, with the host's writes */
  int o = 0;
  while (o + 1 < h->fal_nparts && p >= h->fal_lo[o + 1])
    o++;
  fal_G *q = &h->fal_parts[o];
  fal_cuda_use(q->fal_base.device);
  if (q->level && h->level)
    FAL_CUDA(cudaMemcpy(h->level + p, q->level + p, sizeof *q->level, cudaMemcpyDefault));
  h->fal_dirty_pt[h->fal_ndirty++] = (fal_point)p;
  return p;
}
static int fal_G_bx_begin(fal_G *h, int ex)
{
  if (!h->fal_bx) {
    fal_G_parts_push(h);
    return 0;
  }
  fal_bx *x = h->fal_bx;
  int k = h->fal_nparts;
  if (h->fal_ndirty > 64) /* host code changed points: every value */
    fal_G_parts_push(h);
  for (int i = 0; i < k && h->fal_ndirty <= 64; i++) {
    fal_G *q = &h->fal_parts[i];
    fal_cuda_use(x->dev[i]);
    fal_G_dirty_to(h, q);
    if (h->changed && q->changed && !q->fal_base.on_gpu)
      q->changed[0] = h->changed[0];
    else if (h->changed && q->changed) {
      h->fal_gpin[i].changed[0] = h->changed[0];
      FAL_CUDA(cudaMemcpyAsync(q->changed, h->fal_gpin[i].changed, sizeof *h->changed, cudaMemcpyHostToDevice, 0));
    }
  }
  if (h->fal_ndirty) /* the ghosts may have changed */
    h->fal_shadow_ok = 0;
  h->fal_ndirty = 0;
  if (h->changed)
    h->fal_bx_before_changed = h->changed[0];
  for (int i = 0; i < k && ex == FAL_EX_MERGE && !h->fal_shadow_ok; i++) { /* the ghosts' values now */
    int64_t n = fal_bx_nghosts(x, i);
    if (!n)
      continue;
    fal_cuda_use(x->dev[i]);
    fal_G_bx_snap<<<fal_cuda_grid(n), FAL_BLOCK>>>(h->fal_parts[i], h->fal_shadow[i], x->gids[i], n);
    FAL_CHECK_LAUNCH("fal_G_bx_snap");
    if (x->onhost[i]) /* before its loop writes the ghosts it reads */
      FAL_CUDA(cudaDeviceSynchronize());
  }
  return 1;
}
static void fal_G_bx_end(fal_G *h, int on, int ex)
{
  if (!on) {
    fal_G_parts_pull(h);
    return;
  }
  fal_bx *x = h->fal_bx;
  int k = h->fal_nparts;
  fal_G *v = h->fal_parts;
  x->rounds++;
  for (int i = 0; i < k; i++) {
    fal_cuda_use(x->dev[i]);
    FAL_CUDA(cudaEventRecord(x->done[i], 0));
  }
  for (int j = 0; j < k && ex == FAL_EX_MERGE; j++) { /* owners merge what others changed */
    fal_cuda_use(x->dev[j]);
    for (int i = 0; i < k; i++) {
      int64_t n = FAL_BORDER_N(&x->b, i, j);
      if (i == j || !n)
        continue;
      FAL_CUDA(cudaStreamWaitEvent(0, x->done[i], 0));
      fal_G_bx_merge<<<fal_cuda_grid(n), FAL_BLOCK>>>(v[j], v[i], h->fal_shadow[i],
          x->b.off[i * k + j] - x->b.off[i * k], x->oids[j] + x->ooff[j * (k + 1) + i], n,
          h->fal_merge != NULL);
      FAL_CHECK_LAUNCH("fal_G_bx_merge");
    }
    FAL_CUDA(cudaEventRecord(x->merged[j], 0));
  }
  /* FAL_EX_OWNERS: the foreach's MINs went to their owners (fal_rmt,
   * lower_loop.c): nothing to merge, and the ghosts, which its loop
   * never reads, are refreshed once, after the loop; FAL_EX_ALIKE: every
   * part wrote its ghosts as their owners did (lower_loop.c bx_alike) */
  for (int i = 0; i < k && ex < FAL_EX_OWNERS; i++) { /* ghosts take their owners' values */
    fal_cuda_use(x->dev[i]);
    for (int j = 0; j < k; j++) {
      int64_t n = FAL_BORDER_N(&x->b, i, j);
      if (i == j || !n)
        continue;
      FAL_CUDA(cudaStreamWaitEvent(0, ex == FAL_EX_OWN ? x->done[j] : x->merged[j], 0));
      fal_G_bx_scatter<<<fal_cuda_grid(n), FAL_BLOCK>>>(v[i], v[j], h->fal_shadow[i],
          x->b.off[i * k + j] - x->b.off[i * k], x->gids[i] + (x->b.off[i * k + j] - x->b.off[i * k]), n);
      FAL_CHECK_LAUNCH("fal_G_bx_scatter");
    }
  }
  for (int i = 0; i < k && x->post; i++) {
    fal_cuda_use(x->dev[i]);
    x->post(x->post_arg, i);
  }
  for (int i = 0; i < k; i++) { /* graph properties back, then wait */
    fal_cuda_use(x->dev[i]);
    if (h->changed && v[i].changed && x->onhost[i])
      h->fal_gpin[i].changed[0] = v[i].changed[0];
    else if (h->changed && v[i].changed)
      FAL_CUDA(cudaMemcpyAsync(h->fal_gpin[i].changed, v[i].changed, sizeof *h->changed, cudaMemcpyDeviceToHost, 0));
  }
  for (int i = 0; i < k; i++) {
    fal_cuda_use(x->dev[i]);
    FAL_CUDA(cudaDeviceSynchronize());
  }
  if (h->changed) /* a value changed by any part wins */
    for (int j = 0; j < k; j++)
      if (fal_bx_differs(h->fal_gpin[j].changed[0], h->fal_bx_before_changed)) {
        h->changed[0] = h->fal_gpin[j].changed[0];
        break;
      }
  h->fal_stale = 1;
  h->fal_shadow_ok = ex != FAL_EX_ALIKE;
}
typedef struct fal_G_gb {
  char fal_none;
  int changed;
} fal_G_gb;
__device__ static inline void fal_G_px_before(const fal_G *own, fal_G_gb *b)
{
  (void)own; (void)b;
  if (own->changed)
    b->changed = own->changed[0];
}
__device__ static void fal_G_px_end(cooperative_groups::grid_group &grid, const fal_px &x, fal_G *own, unsigned long long &nb, int ex, fal_G_gb *cur, int rd)
{
  const int k = x.k, me = x.me;
  fal_G *pp = (fal_G *)x.pp, *sh = pp + k;
  fal_px_sync(grid, x, nb); /* every part's foreach is done */
  if (k == 1) { /* no ghosts to merge or refresh; the properties are the part's */
    if (rd) { /* every thread's copy; the leader's next write waits for the reads */
      fal_G_px_before(own, cur);
      grid.sync();
    }
    return;
  }
  const fal_G_gb b = *(const fal_G_gb *)x.gb; /* fal_G_px_before */
  fal_G_gb nv = b;
  const bool one = k == 2; /* one holder: the owner merges and writes back point by point */
  for (int i = 0, first = 1; i < k && ex == FAL_EX_MERGE; i++) { /* merge what part i changed */
    int64_t n = x.goff[i][me + 1] - x.goff[i][me], s0 = x.goff[i][me];
    if (i == me || !n)
      continue;
    if (!first)
      grid.sync();
    first = 0;
    const fal_point *ids = x.oids[me] + x.ooff[me][i];
    FAL_G_GRID_LOOP(y, n) {
      fal_G_bx_merge1(own, &pp[i], &sh[i], s0 + y, ids[y], 1);
      if (one)
        fal_G_bx_scatter1(&pp[i], own, &sh[i], s0 + y, ids[y]);
    }
  }
  for (int j = 0; j < k; j++) { /* a value changed by any part wins: the first such part's */
    if (own->changed && !fal_bx_differs(nv.changed, b.changed) && fal_bx_differs(pp[j].changed[0], b.changed))
      nv.changed = pp[j].changed[0];
  }
  const bool nw_changed = own->changed && fal_bx_differs(own->changed[0], nv.changed);
  if (ex == FAL_EX_MERGE && !one)
    grid.sync(); /* every merge into an owned point is done */
  for (int i = 0; i < k && (ex == FAL_EX_OWN || !one); i++) { /* the owner writes its values into part i's ghosts */
    int64_t n = x.goff[i][me + 1] - x.goff[i][me], s0 = x.goff[i][me];
    if (i == me || !n)
      continue;
    const fal_point *ids = x.oids[me] + x.ooff[me][i];
    FAL_G_GRID_LOOP(y, n)
      fal_G_bx_scatter1(&pp[i], own, &sh[i], s0 + y, ids[y]);
  }
  fal_px_sync(grid, x, nb); /* merged, ghosts written, every part read the properties */
  if (cur)
    *cur = nv;
  const bool wr = !cur || (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0);
  if (nw_changed && wr)
    own->changed[0] = nv.changed;
}
struct fal_G_px_pubf { /* fal_px_sync_f: the part's graph properties to x.pub */
  static const bool some = true;
  const fal_G *own;
  fal_G_gb *to;
  __device__ void operator()() const { fal_G_px_before(own, to); }
};
__device__ static void fal_G_px_mid(cooperative_groups::grid_group &grid, const fal_px &x, fal_G *own, unsigned long long &nb, int ex, fal_G_gb *cur, int rd)
{
  const int k = x.k, me = x.me;
  fal_G *pp = (fal_G *)x.pp, *sh = pp + k;
  fal_G_gb *pub = (fal_G_gb *)x.pub;
  fal_G_px_pubf f = {own, pub + me};
  fal_px_sync_f(grid, x, nb, f); /* every part's foreach is done, its properties published */
  if (k == 1) { /* no ghosts; the properties are the part's */
    if (rd) { /* every thread's copy; the leader's next write waits for the reads */
      fal_G_px_before(own, cur);
      grid.sync();
    }
    return;
  }
  const fal_G_gb b = *(const fal_G_gb *)x.gb; /* fal_G_px_before */
  fal_G_gb nv = b;
  const bool one = k == 2; /* one holder: the owner merges and writes back point by point */
  for (int i = 0, first = 1; i < k && ex == FAL_EX_MERGE; i++) { /* merge what part i changed */
    int64_t n = x.goff[i][me + 1] - x.goff[i][me], s0 = x.goff[i][me];
    if (i == me || !n)
      continue;
    if (!first)
      grid.sync();
    first = 0;
    const fal_point *ids = x.oids[me] + x.ooff[me][i];
    FAL_G_GRID_LOOP(y, n) {
      fal_G_bx_merge1(own, &pp[i], &sh[i], s0 + y, ids[y], 1);
      if (one)
        fal_G_bx_scatter1(&pp[i], own, &sh[i], s0 + y, ids[y]);
    }
  }
  for (int j = 0; j < k; j++) { /* a value changed by any part wins: the first such part's */
    if (own->changed && !fal_bx_differs(nv.changed, b.changed) && fal_bx_differs(pub[j].changed, b.changed))
      nv.changed = pub[j].changed;
  }
  if (ex == FAL_EX_MERGE && !one)
    grid.sync(); /* every merge into an owned point is done */
  for (int i = 0; i < k && (ex == FAL_EX_OWN || !one); i++) { /* the owner writes its values into part i's ghosts */
    int64_t n = x.goff[i][me + 1] - x.goff[i][me], s0 = x.goff[i][me];
    if (i == me || !n)
      continue;
    const fal_point *ids = x.oids[me] + x.ooff[me][i];
    FAL_G_GRID_LOOP(y, n)
      fal_G_bx_scatter1(&pp[i], own, &sh[i], s0 + y, ids[y]);
  }
  *cur = nv;
  if (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0) { /* the leader */
    if (own->changed && fal_bx_differs(pub[me].changed, nv.changed))
      own->changed[0] = nv.changed;
  }
}
static int fal_G_px_enter(fal_G *h, const char *file, int line)
{
  if (!h->fal_bx || h->fal_shared)
    return 0;
  if (!h->fal_pxh) {
    if (h->fal_px_tried)
      return 0;
    h->fal_px_tried = 1;
    fal_pxh *xh = fal_pxh_new(h->fal_bx, h->fal_lo, file, line);
    if (!xh)
      return 0;
    int k = h->fal_nparts;
    fal_G *all = (fal_G *)fal_calloc((size_t)2 * k, sizeof(fal_G));
    for (int i = 0; i < k; i++) {
      all[i] = h->fal_parts[i];
      all[k + i] = h->fal_shadow[i];
    }
    for (int i = 0; i < k; i++) {
      fal_cuda_use(h->fal_bx->dev[i]);
      xh->px[i].pp = fal_dalloc((size_t)2 * k * sizeof(fal_G), file, line);
      FAL_CUDA(cudaMemcpy(xh->px[i].pp, all, (size_t)2 * k * sizeof(fal_G), cudaMemcpyHostToDevice));
      xh->px[i].wait_ns = fal_px_wait_ns();
      xh->px[i].gb = fal_dalloc(sizeof(fal_G_gb), file, line);
    }
    fal_cuda_use(h->fal_bx->dev[0]); /* fal_G_px_mid: what each part published */
    void *pub = fal_dalloc((size_t)k * sizeof(fal_G_gb), file, line);
    for (int i = 0; i < k; i++)
      xh->px[i].pub = pub;
    free(all);
    h->fal_pxh = xh;
  }
  if (((fal_pxh *)h->fal_pxh)->off)
    return 0;
  fal_G_bx_begin(h, FAL_EX_MERGE); /* host writes and graph properties to the parts; shadows */
  for (int i = 0; i < h->fal_nparts; i++) {
    fal_cuda_use(h->fal_bx->dev[i]);
    FAL_CUDA(cudaDeviceSynchronize());
  }
  return 1;
}
static void fal_G_px_leave(fal_G *h)
{
  fal_cuda_use(h->fal_bx->dev[0]);
  if (h->changed && h->fal_parts[0].changed)
    FAL_CUDA(cudaMemcpy(h->changed, h->fal_parts[0].changed, sizeof *h->changed, cudaMemcpyDeviceToHost));
  h->fal_stale = h->fal_shadow_ok = 1;
}
#line 9 "part_pull.fal"
__host__ __device__ void expand(fal_point p, fal_G *hg, int lev)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = hg->fal_base.csr.dst[fal_e2]; { if (!(hg->level[t] == INF)) continue;
#line 12 "part_pull.fal"
    (fal_ra_mm<0, 0>(hg->fal_rmt, hg->level, &(hg->level[t]), (lev + 1)) ? (FAL_SET_FLAG(hg->changed[0]), 1) : 0); } } }
#line 12 "part_pull.fal"

}

__host__ __device__ void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->level[orig] > fal_g_incom->level[incom])
    fal_g_orig->level[orig] = fal_g_incom->level[incom];
}

#line 29 "part_pull.fal"
__global__ void fal_foreach_L29_3(fal_G fal_kv_hg, int64_t fal_lo, int64_t fal_hi)
{
  fal_G *hg = &fal_kv_hg;
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 29 "part_pull.fal"
                           hg->level[t] = INF; } }
}
__device__ long long fal_lr_fal_looprs_L32_5;
__device__ long long fal_lp_fal_looprs_L32_5;
__device__ int fal_lo_fal_looprs_L32_5_lev;
#line 32 "part_pull.fal"
__global__ void fal_looprs_L32_5(fal_G fal_kv_hg, int lev, fal_px fal_px)
{
  fal_G *hg = &fal_kv_hg;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;
  long long fal_rounds = 0;
  fal_G_gb fal_gv; /* the graph properties as the last exchange left them */
  fal_G_px_before(hg, &fal_gv);
  unsigned long long fal_nb = 0;
  fal_ra_begin();
  if (!fal_px_start(fal_grid, fal_px))
    return;
  fal_dstate fal_kd = fal_px.pd;
  unsigned long long fal_kc[2] = {0, 0};
  int fal_brk = 1;
  do { /* round 0: the condition and the flag's zeroing */
    if (!(1))
      break;
#line 33 "part_pull.fal"
    if (fal_leader) hg->changed[0] = 0;
    fal_brk = 0;
  } while (0);
  fal_grid.sync();
  while (!fal_brk) {
    const int fal_kv = (int)(lev); /* the round's value */
    const bool fal_kpl = fal_kd.dir, fal_kcn = fal_dstate_counts(&fal_kd);
    fal_kd.pulls += fal_kpl;
    if (fal_kpl) {
      fal_kpull<int>(fal_px, hg->fal_rmt, hg->level, hg->fal_base.csr.offsets, hg->fal_base.csr.dst, fal_kv, 1, (int)(INF), &hg->changed[0], fal_kcn);
    } else {
    for (int64_t fal_i = fal_px.lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_px.hi; fal_i += (int64_t)gridDim.x * blockDim.x) { do { fal_point t = (fal_point)fal_i; { if (!(hg->level[t] == lev)) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } while (0); }
    }
    fal_gv.changed = fal_rs_round_c(fal_grid, fal_px, &hg->changed[0], fal_nb, fal_kpl && fal_kcn ? fal_kc : (unsigned long long *)NULL);
    fal_brk = 1;
    do {
#line 35 "part_pull.fal"
    lev++;
#line 36 "part_pull.fal"
    if (fal_gv.changed == 0)
      break;
#line 38 "part_pull.fal"
    if (fal_leader) ((void)0);
    fal_rounds++;
      fal_brk = 0;
    } while (0);
    if (!fal_brk && fal_kcn) {
      if (!fal_kpl) { /* the push round's new points, once its MINs are in */
        fal_kcount<int>(fal_px, hg->level, hg->fal_base.csr.offsets, (int)(fal_kv + 1));
        (void)fal_rs_round_c(fal_grid, fal_px, &hg->changed[0], fal_nb, fal_kc);
      }
      fal_dstate_decide(&fal_kd, (long long)fal_kc[0], (long long)fal_kc[1]);
    }
  }
  if (fal_leader && fal_px.me == 0) {
    fal_lr_fal_looprs_L32_5 = fal_rounds;
    fal_lp_fal_looprs_L32_5 = fal_kd.pulls;
    fal_lo_fal_looprs_L32_5_lev = lev;
  }
}
__device__ long long fal_lr_fal_looprsw_L32_6;
__device__ long long fal_lp_fal_looprsw_L32_6;
__device__ int fal_lo_fal_looprsw_L32_6_lev;
#line 32 "part_pull.fal"
__global__ void __launch_bounds__(FAL_BLOCK, FAL_PW_BLOCKS) fal_looprsw_L32_6(fal_G fal_kv_hg, int lev, fal_px fal_px, fal_pw fal_pw)
{
  fal_G *hg = &fal_kv_hg;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0;
  fal_wbegin();
  long long fal_rounds = 0;
  fal_G_gb fal_gv; /* the graph properties as the last exchange left them */
  fal_G_px_before(hg, &fal_gv);
  unsigned long long fal_nb = 0;
  fal_ra_begin();
  if (!fal_px_start(fal_grid, fal_px))
    return;
  unsigned fal_wr = 0; /* the phase's rounds (part_phase_warp) */
  fal_dstate fal_kd = fal_px.pd;
  unsigned long long fal_kc[2] = {0, 0};
  int fal_brk = 1;
  do { /* round 0: the condition and the flag's zeroing */
    if (!(1))
      break;
#line 33 "part_pull.fal"
    if (fal_leader) hg->changed[0] = 0;
    fal_brk = 0;
  } while (0);
  fal_grid.sync();
  while (!fal_brk) {
    const int fal_kv = (int)(lev); /* the round's value */
    const bool fal_kpl = fal_kd.dir, fal_kcn = fal_dstate_counts(&fal_kd);
    fal_kd.pulls += fal_kpl;
    if (fal_kpl) {
      fal_kpull<int>(fal_px, hg->fal_rmt, hg->level, hg->fal_base.csr.offsets, hg->fal_base.csr.dst, fal_kv, 1, (int)(INF), &hg->changed[0], fal_kcn);
    } else {
    if (fal_leader) fal_pw_next(fal_pw, fal_wr);
    if (fal_pw.hk.nh) { /* the hubs' decisions, then their pieces */
      for (int64_t fal_q = blockIdx.x * (int64_t)(blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x; fal_q < fal_pw.hk.nh; fal_q += (int64_t)gridDim.x * blockDim.x * blockDim.y) { int64_t fal_i = fal_pw.hk.d[fal_pw.hk.h0 + fal_q]; bool fal_go = true; if (fal_go) { fal_point t = (fal_point)fal_i; fal_go = ((hg->level[t] == lev)); } fal_pw.go[fal_q] = fal_go; }
      fal_grid.sync();
      fal_bbegin();
      if (threadIdx.x == 0 && threadIdx.y == 0)
        fal_wdec = true; /* (decided above) */
      __syncthreads();
      for (int64_t fal_q; (fal_q = fal_pw_piece(fal_pw, fal_wr)) >= 0;) { int64_t fal_h = fal_pw.hk.ih[fal_q]; if (!fal_pw.go[fal_h - fal_pw.hk.h0]) continue; int64_t fal_i = fal_pw.hk.d[fal_h]; fal_hpiece(fal_pw.hk, fal_q, fal_h); do { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((hg->level[t] == lev)))) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } while (0); }
      fal_wbegin();
    }
    for (int64_t fal_c; (fal_c = fal_pw_group(fal_pw, fal_wr, fal_px.lo, fal_px.hi)) >= 0;) {
      unsigned fal_lm;
      { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
        if (fal_i < fal_px.hi && !FAL_HUB(hg, (fal_point)fal_i, fal_pw.hd)) { fal_tk = true; if (fal_tk) { fal_point t = (fal_point)fal_i; fal_tk = ((hg->level[t] == lev)); } }
        fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
      while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; do { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((hg->level[t] == lev)))) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } while (0); }
    }
    fal_wr++;
    }
    fal_gv.changed = fal_rs_round_c(fal_grid, fal_px, &hg->changed[0], fal_nb, fal_kpl && fal_kcn ? fal_kc : (unsigned long long *)NULL);
    fal_brk = 1;
    do {
#line 35 "part_pull.fal"
    lev++;
#line 36 "part_pull.fal"
    if (fal_gv.changed == 0)
      break;
#line 38 "part_pull.fal"
    if (fal_leader) ((void)0);
    fal_rounds++;
      fal_brk = 0;
    } while (0);
    if (!fal_brk && fal_kcn) {
      if (!fal_kpl) { /* the push round's new points, once its MINs are in */
        fal_kcount<int>(fal_px, hg->level, hg->fal_base.csr.offsets, (int)(fal_kv + 1));
        (void)fal_rs_round_c(fal_grid, fal_px, &hg->changed[0], fal_nb, fal_kc);
      }
      fal_dstate_decide(&fal_kd, (long long)fal_kc[0], (long long)fal_kc[1]);
    }
  }
  if (fal_leader && fal_px.me == 0) {
    fal_lr_fal_looprsw_L32_6 = fal_rounds;
    fal_lp_fal_looprsw_L32_6 = fal_kd.pulls;
    fal_lo_fal_looprsw_L32_6_lev = lev;
  }
}
__device__ long long fal_lr_fal_loop_L32_7;
__device__ int fal_lo_fal_loop_L32_7_lev;
#line 32 "part_pull.fal"
__global__ void fal_loop_L32_7(fal_G fal_kv_hg, int lev, fal_px fal_px)
{
  fal_G *hg = &fal_kv_hg;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;
  long long fal_rounds = 0;
  fal_G_gb fal_gv; /* the graph properties as the last exchange left them */
  fal_G_px_before(hg, &fal_gv);
  unsigned long long fal_nb = 0;
  if (!fal_px_start(fal_grid, fal_px))
    return;
  int fal_brk = 1;
  do { /* round 0: the condition and the steps before the first phase */
    if (!(1))
      break;
#line 33 "part_pull.fal"
    if (fal_leader) hg->changed[0] = 0;
    fal_brk = 0;
  } while (0);
  if (fal_leader) fal_G_px_before(hg, (fal_G_gb *)fal_px.gb);
  fal_grid.sync();
  while (!fal_brk) {
    for (int64_t fal_i = fal_px.lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_px.hi; fal_i += (int64_t)gridDim.x * blockDim.x) { do { fal_point t = (fal_point)fal_i; { if (!(hg->level[t] == lev)) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } while (0); }
    fal_G_px_mid(fal_grid, fal_px, hg, fal_nb, FAL_EX_MERGE, &fal_gv, 1);
    fal_brk = 1;
    do {
#line 35 "part_pull.fal"
    lev++;
#line 36 "part_pull.fal"
    if (fal_gv.changed == 0)
      break;
#line 38 "part_pull.fal"
    if (fal_leader) ((void)0);
    fal_rounds++;
    if (!(1))
      break;
#line 33 "part_pull.fal"
    if (fal_leader) hg->changed[0] = 0;
      fal_brk = 0;
    } while (0);
    if (fal_leader && !fal_brk) fal_G_px_before(hg, (fal_G_gb *)fal_px.gb);
    fal_px_sync(fal_grid, fal_px, fal_nb); /* the exchange's last barrier */
    if (fal_brk)
      break;
  }
  if (fal_leader && fal_px.me == 0) {
    fal_lr_fal_loop_L32_7 = fal_rounds;
    fal_lo_fal_loop_L32_7_lev = lev;
  }
}
#line 34 "part_pull.fal"
__global__ void fal_foreach_L34_9(fal_G fal_kv_hg, int lev, int64_t fal_lo, int64_t fal_hi)
{
  fal_G *hg = &fal_kv_hg;
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; { if (!(hg->level[t] == lev)) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } }
}
#line 34 "part_pull.fal"
__global__ void fal_foreach_L34_9_w(fal_G fal_kv_hg, int lev, int64_t fal_lo, int64_t fal_hi, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *hg = &fal_kv_hg;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; if (fal_go) { fal_point t = (fal_point)fal_i; fal_go = ((hg->level[t] == lev)); } fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { }
    { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((hg->level[t] == lev)))) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } }
  } else
  for (int64_t fal_c = fal_lo + ((blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y) * 32; fal_c < fal_hi; fal_c += (int64_t)(gridDim.x - fal_hb) * blockDim.y * 32) {
    unsigned fal_lm;
    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
      if (fal_i < fal_hi) { fal_point t = (fal_point)fal_i; if (!FAL_HUB(hg, t, fal_hd)) { fal_tk = ((hg->level[t] == lev)); } }
      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((hg->level[t] == lev)))) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } }
  }
}
#line 21 "part_pull.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->level, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read(hg, argv[1]);
  fal_G_partition(hg, 2, 0, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { int fal_bxon = fal_G_bx_begin(hg, FAL_EX_OWN); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { fal_G *fal_part = &hg->fal_parts[fal_pi]; int64_t fal_lo = fal_bxon ? 0 : hg->fal_lo[fal_pi], fal_hi = fal_bxon ? hg->fal_lo[hg->fal_nparts] : hg->fal_lo[fal_pi + 1]; if (hg->fal_shared) { if (fal_pi > 0) break; fal_hi = hg->fal_lo[hg->fal_nparts]; } if (fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; { fal_cuda_use(hg->fal_base.device); fal_foreach_L29_3<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, fal_lo, fal_hi); FAL_CHECK_LAUNCH("fal_foreach_L29_3"); } } } for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { fal_G *fal_part = &hg->fal_parts[fal_pi]; int64_t fal_lo = fal_bxon ? 0 : hg->fal_lo[fal_pi], fal_hi = fal_bxon ? hg->fal_lo[hg->fal_nparts] : hg->fal_lo[fal_pi + 1]; if (hg->fal_shared) { if (fal_pi > 0) break; fal_hi = hg->fal_lo[hg->fal_nparts]; } if (!fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 29 "part_pull.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 29 "part_pull.fal"
                           hg->level[t] = INF; } } }
fal_G_bx_end(hg, fal_bxon, FAL_EX_ALIKE); }
#line 29 "part_pull.fal"

  hg->level[fal_G_wr(hg, (0))] = 0;
  int lev = 0;
  { static fal_rmh fal_rm4; { fal_loop_sw fal_sw = {0}; double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; static thread_local fal_pdir fal_pd8; { int fal_ag = hg->fal_nparts > 0 && !hg->fal_shared; for (int fal_i = 0; fal_i < hg->fal_nparts; fal_i++) fal_ag &= hg->fal_parts[fal_i].fal_base.on_gpu; fal_pdir_start(&fal_pd8, hg->fal_nparts, fal_ag, hg->directed, hg->npoints, hg->nedges); fal_pd8.count = fal_pdir_count<int>; } while (1) { if (hg->fal_bx && fal_loop_switch_first(&fal_sw, (const void *)fal_loop_L32_7, "part_pull.fal", 32, hg->fal_nparts, &hg->fal_base, fal_sw.state == 0 && fal_pull_in(0, hg->directed, hg->npoints, hg->nedges) && fal_rm_ready(&fal_rm4, hg->fal_bx, hg->fal_lo, hg->fal_nparts, (const char *)hg->fal_parts, sizeof *hg->fal_parts, (size_t)((char *)&hg->fal_parts[0].level - (char *)hg->fal_parts), 1, __FILE__, __LINE__))) { int fal_pgo = 0; if (fal_rm_ready(&fal_rm4, hg->fal_bx, hg->fal_lo, hg->fal_nparts, (const char *)hg->fal_parts, sizeof *hg->fal_parts, (size_t)((char *)&hg->fal_parts[0].level - (char *)hg->fal_parts), 1, __FILE__, __LINE__)) { if (fal_pw_pick(&hg->fal_parts[0].fal_base)) { if (fal_G_px_enter(hg, __FILE__, __LINE__)) { double fal_pt0 = fal_prof_t0(); fal_pxh *fal_xh = (fal_pxh *)hg->fal_pxh; void *fal_pa[FAL_PX_MAX][4]; void **fal_pv[FAL_PX_MAX]; static fal_pwh fal_pwm; fal_pw fal_pwv[FAL_PX_MAX]; int fal_rmon = 1; fal_rm_reset(&fal_rm4, hg->fal_bx); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { hg->fal_parts[fal_pi].fal_rmt = fal_rmon ? fal_rm_part(&fal_rm4, fal_pi, 1) : fal_rmv_none(); fal_xh->px[fal_pi].ra = fal_rm_part(&fal_rm4, fal_pi, 1).ctx; fal_pa[fal_pi][0] = (void *)&hg->fal_parts[fal_pi]; fal_pa[fal_pi][1] = (void *)&lev; fal_dstate_start(&fal_xh->px[fal_pi].pd, 1, hg->directed, hg->npoints, hg->nedges); fal_pwv[fal_pi] = fal_pw_make(&fal_pwm, fal_pi, &hg->fal_parts[fal_pi].fal_base, hg->fal_lo[fal_pi], hg->fal_lo[fal_pi + 1], __FILE__, __LINE__); fal_pa[fal_pi][3] = (void *)&fal_pwv[fal_pi]; fal_pa[fal_pi][2] = (void *)&fal_xh->px[fal_pi]; fal_pv[fal_pi] = fal_pa[fal_pi]; } int fal_pok = fal_pxh_run_w(fal_xh, hg->fal_bx, (const void *)fal_looprsw_L32_6, fal_pv, 1, "fal_looprsw_L32_6", __FILE__, __LINE__); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { hg->fal_parts[fal_pi].fal_rmt = fal_rmv_none(); fal_xh->px[fal_pi].ra = NULL; } if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; fal_cuda_use(hg->fal_bx->dev[0]); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_looprsw_L32_6, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&lev, fal_lo_fal_looprsw_L32_6_lev, sizeof lev)); if (fal_prof_enabled()) { long long fal_lp = 0; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lp, fal_lp_fal_looprsw_L32_6, sizeof fal_lp)); fal_prof_end("part_pull.fal", 32, "pull rounds (kernel)", fal_prof_t0(), fal_lp); } fal_G_bx_end(hg, 1, FAL_EX_OWN); fal_G_px_leave(hg); fal_gprof_end("part_pull.fal", 32, "parts (one barrier)", fal_pt0, fal_lr); } } } else { if (fal_G_px_enter(hg, __FILE__, __LINE__)) { double fal_pt0 = fal_prof_t0(); fal_pxh *fal_xh = (fal_pxh *)hg->fal_pxh; void *fal_pa[FAL_PX_MAX][3]; void **fal_pv[FAL_PX_MAX]; int fal_rmon = 1; fal_rm_reset(&fal_rm4, hg->fal_bx); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { hg->fal_parts[fal_pi].fal_rmt = fal_rmon ? fal_rm_part(&fal_rm4, fal_pi, 1) : fal_rmv_none(); fal_xh->px[fal_pi].ra = fal_rm_part(&fal_rm4, fal_pi, 1).ctx; fal_pa[fal_pi][0] = (void *)&hg->fal_parts[fal_pi]; fal_pa[fal_pi][1] = (void *)&lev; fal_dstate_start(&fal_xh->px[fal_pi].pd, 1, hg->directed, hg->npoints, hg->nedges); fal_pa[fal_pi][2] = (void *)&fal_xh->px[fal_pi]; fal_pv[fal_pi] = fal_pa[fal_pi]; } int fal_pok = fal_pxh_run(fal_xh, hg->fal_bx, (const void *)fal_looprs_L32_5, fal_pv, "fal_looprs_L32_5", __FILE__, __LINE__); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { hg->fal_parts[fal_pi].fal_rmt = fal_rmv_none(); fal_xh->px[fal_pi].ra = NULL; } if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; fal_cuda_use(hg->fal_bx->dev[0]); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_looprs_L32_5, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&lev, fal_lo_fal_looprs_L32_5_lev, sizeof lev)); if (fal_prof_enabled()) { long long fal_lp = 0; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lp, fal_lp_fal_looprs_L32_5, sizeof fal_lp)); fal_prof_end("part_pull.fal", 32, "pull rounds (kernel)", fal_prof_t0(), fal_lp); } fal_G_bx_end(hg, 1, FAL_EX_OWN); fal_G_px_leave(hg); fal_gprof_end("part_pull.fal", 32, "parts (one barrier)", fal_pt0, fal_lr); } } } } else { if (fal_G_px_enter(hg, __FILE__, __LINE__)) { double fal_pt0 = fal_prof_t0(); fal_pxh *fal_xh = (fal_pxh *)hg->fal_pxh; void *fal_pa[FAL_PX_MAX][3]; void **fal_pv[FAL_PX_MAX]; int fal_rmon = fal_rm_ready(&fal_rm4, hg->fal_bx, hg->fal_lo, hg->fal_nparts, (const char *)hg->fal_parts, sizeof *hg->fal_parts, (size_t)((char *)&hg->fal_parts[0].level - (char *)hg->fal_parts), 1, __FILE__, __LINE__); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { hg->fal_parts[fal_pi].fal_rmt = fal_rmon ? fal_rm_part(&fal_rm4, fal_pi, 0) : fal_rmv_none(); fal_xh->px[fal_pi].ra = NULL; fal_pa[fal_pi][0] = (void *)&hg->fal_parts[fal_pi]; fal_pa[fal_pi][1] = (void *)&lev; fal_pa[fal_pi][2] = (void *)&fal_xh->px[fal_pi]; fal_pv[fal_pi] = fal_pa[fal_pi]; } int fal_pok = fal_pxh_run(fal_xh, hg->fal_bx, (const void *)fal_loop_L32_7, fal_pv, "fal_loop_L32_7", __FILE__, __LINE__); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { hg->fal_parts[fal_pi].fal_rmt = fal_rmv_none(); fal_xh->px[fal_pi].ra = NULL; } if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; fal_cuda_use(hg->fal_bx->dev[0]); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loop_L32_7, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&lev, fal_lo_fal_loop_L32_7_lev, sizeof lev)); fal_G_px_leave(hg); fal_gprof_end("part_pull.fal", 32, "parts", fal_pt0, fal_lr); } } } if (fal_pgo) break; fal_sw.state = 2; } fal_ra++; {
    hg->changed[0] = 0;
    { int fal_bxon = fal_G_bx_begin(hg, FAL_EX_MERGE); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { fal_G *fal_part = &hg->fal_parts[fal_pi]; int64_t fal_lo = hg->fal_lo[fal_pi], fal_hi = hg->fal_lo[fal_pi + 1]; if (hg->fal_shared) { if (fal_pi > 0) break; fal_hi = hg->fal_lo[hg->fal_nparts]; } if (fal_part->fal_base.on_gpu) { fal_pd8.P[fal_pi] = (const void *)fal_part->level; fal_pd8.off[fal_pi] = fal_part->fal_base.csr.offsets; fal_pd8.lo[fal_pi] = fal_lo; fal_pd8.hi[fal_pi] = fal_hi; if (fal_pd8.ds.dir && fal_bxon) { fal_cuda_use(fal_part->fal_base.device); fal_pull_kernel<int><<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(fal_part->level, fal_part->fal_base.csr.offsets, fal_part->fal_base.csr.dst, (int64_t)(fal_lo), (int64_t)(fal_hi), (int)(lev), 1, (int)(INF), &fal_part->changed[0], fal_pdir_cnt(&fal_pd8, fal_pi)); FAL_CHECK_LAUNCH("fal_pull_kernel"); } else { fal_G *hg = fal_part; { fal_cuda_use(hg->fal_base.device); if (fal_warp_pick(&hg->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&hg->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hubs_range(fal_hb, fal_lo, fal_hi, &fal_h0); fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L34_9_w<<<fal_hbk + fal_cuda_grid((int64_t)(fal_hi - fal_lo) * 32), dim3(32, FAL_BLOCK / 32)>>>(*hg, lev, fal_lo, fal_hi, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L34_9<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, lev, fal_lo, fal_hi); FAL_CHECK_LAUNCH("fal_foreach_L34_9"); } } } } for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { fal_G *fal_part = &hg->fal_parts[fal_pi]; int64_t fal_lo = hg->fal_lo[fal_pi], fal_hi = hg->fal_lo[fal_pi + 1]; if (hg->fal_shared) { if (fal_pi > 0) break; fal_hi = hg->fal_lo[hg->fal_nparts]; } if (!fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 34 "part_pull.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) { if (!(hg->level[t] == lev)) continue;
#line 34 "part_pull.fal"
                                             expand(t, hg, lev); } } }
fal_pdir_arm(&fal_pd8, hg->fal_bx, fal_bxon, (long long)(lev)); fal_G_bx_end(hg, fal_bxon, fal_bxon && fal_pd8.ds.dir ? FAL_EX_OWN : FAL_EX_MERGE); fal_pdir_next(&fal_pd8, hg->fal_bx, fal_bxon); }
#line 34 "part_pull.fal"

    lev++;
    if (hg->changed[0] == 0)
      break;
    ((void)0);
  } } fal_gprof_end("part_pull.fal", 32, "auto", fal_pt0, fal_ra); fal_prof_end("part_pull.fal", 32, "pull rounds", fal_prof_t0(), fal_pd8.ds.pulls); } }
#line 39 "part_pull.fal"

  return lev > 0 ? 0 : 1;
}
