#define FAL_HUB_KERNELS 1
#define FAL_RA_HOLD 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#include "falcon/mpi.cuh"
#define fopen(p, m) fal_mpi_fopen(p, m)
#line 1 "partition_mpi_gpu_level.fal"
/* falconc --mpi --target=gpu: a level-synchronous loop (BFS's) over a
 * partitioned graph.  The loop plans the single process's one-barrier
 * kernel (fal_looprs_L..), which GPU ranks of one machine run one a rank
 * (fal_mpx_switch, mpx_launch: fal_mpx_run, fal_mpi_bcast0 of `lev`,
 * fal_mpx_leave); its host rounds' phase takes the rank's context
 * (fal_mpx_host, fal_mpx_ctx: MINs to the owner and the other rank's
 * copy, FAL_EX_OWNERS, fal_G_mpi_end_rm; fal_mpx_gather under
 * FALCON_MPX_HOST=gather), and FAL_RA_HOLD is defined.  Where the ranks do
 * not map each other, the host rounds may pull (docs/lowering.md "Pull
 * rounds on host ranks": a fal_dstate around the loop, fal_pull_kernel on the
 * rank's GPU, fal_mdir_dcount after the exchange). */
#include <stdio.h>

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
  /* --mpi: ghosts and borders of this rank, the one-point copies (one per
   * thread) that incoming records are merged from, whether points of other ranks
   * are out of date, graph properties at the start of a foreach */
  fal_mpi_plan *fal_mpi;
  struct fal_G *fal_mpi_in;
  int fal_mpi_nin, fal_mpi_stale;
  int fal_mpi_nwr; /* host writes since the last foreach (fal_G_mpi_wr) */
  uint64_t fal_mpi_mask; /* the point properties of this round's record */
  int fal_mpi_before_changed;
  /* --mpi --target=gpu: this rank's GPU copy (NULL: its points run on
   * the host), the ghosts then the border entries (host and device
   * ids), their records' staging areas (one array per point property,
   * device and pinned host), whether the GPU holds newer values of
   * this rank's points than the host graph, and the points host code
   * wrote since the last foreach (65: all) */
  struct fal_G *fal_mpi_gpu;
  fal_point *fal_mpi_hid, *fal_mpi_did;
  int64_t fal_mpi_nid;
  unsigned char *fal_mpi_dbuf, *fal_mpi_hbuf;
  int fal_mpi_devstale, fal_ndirty;
  fal_point fal_dirty_pt[64];
  /* changed entries only: the device's copy of the entries' records
   * at the round's start (laid out like the staging area), the list of
   * those that changed (device, pinned host) and its length, the ids
   * of the points pushed back (pinned host, device); fal_mpi_all:
   * FALCON_MPI_STAGING=all, every entry both ways each round */
  unsigned char *fal_mpi_dsh;
  int64_t *fal_mpi_dcx, *fal_mpi_hcx;
  unsigned long long *fal_mpi_dcnt, *fal_mpi_hcnt;
  fal_point *fal_mpi_hpid, *fal_mpi_dpid;
  int fal_mpi_all;
  /* the graph properties (the loop flags) on their way to the GPU
   * (first half) and back (second half), pinned */
  unsigned char *fal_mpi_hgp;
  size_t fal_mpi_ngp;
  /* the ranks' GPUs' point property arrays, mapped here (fal_mpxg,
   * NULL: the loops keep the exchange), and while a loop's kernels
   * or host rounds run (fal_mpx) the rank's fal_rmt, where MINs of
   * other ranks' points go */
  struct fal_mpxg *fal_mpxg;
  fal_rmv fal_rmt;
  /* merges on the GPU (fal_mpi_dm; FALCON_MPI_MERGE=host: on the
   * host): the (point, record) pairs sent and received (device,
   * pinned host), the records per neighbour (device, pinned host),
   * a byte per own point that a merge changed, and the incoming
   * records as a graph (device arrays, a slot per record) */
  int fal_mpi_dm;
  unsigned char *fal_mpi_dsend, *fal_mpi_drecv, *fal_mpi_hsend, *fal_mpi_hrecv, *fal_mpi_dpchg;
  unsigned long long *fal_mpi_dncnt, *fal_mpi_hncnt;
  struct fal_G *fal_mpi_din;
  /* CUDA IPC (every rank on one machine): each neighbour's
   * send area mapped here (CUDA IPC) and its size, and a device
   * count of records that named points outside their range */
  int fal_mpi_ipc;
  unsigned char **fal_mpi_peer;
  int64_t *fal_mpi_peer_bytes;
  int64_t fal_mpi_inl; /* the most pairs a neighbour gets in a message (FALCON_MPI_INLINE) */
  unsigned long long *fal_mpi_derr, *fal_mpi_herr;
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static void fal_G_read_rows(fal_G *g, const char *path)
{
  fal_mpi_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)(g->fal_base.csr.rows ? g->fal_base.csr.all_edges : g->fal_base.csr.nedges);
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
enum { FAL_MPI_REC_MAX = 1 + sizeof(int) };
static __host__ __device__ void fal_G_mpi_pack_m(const fal_G *g, fal_point p, void *rec, uint64_t m)
{
  unsigned char *w = (unsigned char *)rec;
  (void)g; (void)p; (void)w; (void)m;
  if ((m >> 0 & 1)) {
    if (g->level)
      memcpy(w, &g->level[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
}
static void fal_G_mpi_pack(void *gv, fal_point p, void *rec)
{
  fal_G_mpi_pack_m((const fal_G *)gv, p, rec, ((const fal_G *)gv)->fal_mpi_mask);
}
static __host__ __device__ void fal_G_mpi_unpack(fal_G *g, fal_point p, const unsigned char *r, uint64_t m)
{
  (void)g; (void)p; (void)r; (void)m;
  if ((m >> 0 & 1)) {
    if (g->level)
      memcpy(&g->level[p], r, sizeof(int));
    r += sizeof(int);
  }
}
static void fal_G_mpi_apply(void *gv, fal_point p, const void *rec, int merge)
{
  fal_G *g = (fal_G *)gv;
  if (merge && g->fal_merge) {
    unsigned char all[FAL_MPI_REC_MAX];
    uint64_t m = g->fal_mpi_mask;
    fal_G_mpi_pack_m(g, p, all, ~(uint64_t)0);
    fal_G *in = &g->fal_mpi_in[fal_mpi_thread() % g->fal_mpi_nin];
    fal_G_mpi_unpack(in, 0, all, ~(uint64_t)0);
    fal_G_mpi_unpack(in, 0, (const unsigned char *)rec, m);
    g->fal_merge(g, p, in, 0);
  } else
    fal_G_mpi_unpack(g, p, (const unsigned char *)rec, g->fal_mpi_mask);
}
#define FAL_MPI_SEG(n, size) (((size_t)(n) * (size) + 15) / 16 * 16)
__global__ void fal_G_mpi_dgather(fal_G g, const fal_point *ids, int64_t n, unsigned char *buf, uint64_t m)
{
  for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n; x += (int64_t)gridDim.x * blockDim.x) {
    unsigned char *b = buf;
    if ((m >> 0 & 1) && g.level)
      ((int *)b)[x] = g.level[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(int));
  }
}
__global__ void fal_G_mpi_dscatter(fal_G g, const fal_point *ids, int64_t n, const unsigned char *buf, uint64_t m)
{
  for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n; x += (int64_t)gridDim.x * blockDim.x) {
    const unsigned char *b = buf;
    if ((m >> 0 & 1) && g.level)
      g.level[ids[x]] = ((const int *)b)[x];
    b += FAL_MPI_SEG(n, sizeof(int));
  }
}
__global__ void fal_G_mpi_dcmp(fal_G g, const fal_point *ids, int64_t n, const unsigned char *sh, unsigned char *buf, int64_t *cx, unsigned long long *cnt, uint64_t m)
{
  for (int64_t w = blockIdx.x * (int64_t)blockDim.x + (threadIdx.x & ~31u); w < n; w += (int64_t)gridDim.x * blockDim.x) {
    int64_t x = w + (threadIdx.x & 31);
    bool ch = false;
    if (x < n) {
      const unsigned char *s = sh;
      (void)s;
      if ((m >> 0 & 1) && g.level)
        ch = ch || fal_bx_differs(g.level[ids[x]], ((const int *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(int));
    }
    long long q = fal_mpi_slot(ch, cnt);
    if (q < 0)
      continue;
    cx[q] = x;
    unsigned char *b = buf;
    (void)b;
    if ((m >> 0 & 1) && g.level)
      ((int *)b)[q] = g.level[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(int));
  }
}
static void fal_G_mpi_dpull_marked(fal_G *h, uint64_t m)
{
  fal_G *d = h->fal_mpi_gpu;
  fal_mpi_plan *pl = h->fal_mpi;
  int64_t n = h->fal_mpi_nid;
  fal_cuda_use(d->fal_base.device);
  *h->fal_mpi_hcnt = 0;
  if (n) {
    FAL_CUDA(cudaMemsetAsync(h->fal_mpi_dcnt, 0, sizeof *h->fal_mpi_dcnt, 0));
    fal_G_mpi_dcmp<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dsh, h->fal_mpi_dbuf, h->fal_mpi_dcx, h->fal_mpi_dcnt, m);
    FAL_CHECK_LAUNCH("fal_G_mpi_dcmp");
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hcnt, h->fal_mpi_dcnt, sizeof *h->fal_mpi_hcnt, cudaMemcpyDeviceToHost, 0));
  }
  {
    unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      FAL_CUDA(cudaMemcpyAsync(gp, d->changed, sizeof *h->changed, cudaMemcpyDeviceToHost, 0));
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  FAL_CUDA(cudaStreamSynchronize(0));
  {
    const unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      memcpy(h->changed, gp, sizeof *h->changed);
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  int64_t k = (int64_t)*h->fal_mpi_hcnt;
  pl->dev_pulled += k;
  if (k > n) {
    fprintf(stderr, "falcon: rank %d: %lld changed entries of %lld\n", pl->rank, (long long)k, (long long)n);
    exit(1);
  }
  if (k <= 0)
    return;
  size_t o = 0;
  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hcx, h->fal_mpi_dcx, (size_t)k * sizeof *h->fal_mpi_hcx, cudaMemcpyDeviceToHost, 0));
  if ((m >> 0 & 1) && h->level)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)k * sizeof(int), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(int));
  FAL_CUDA(cudaStreamSynchronize(0));
  const fal_point *ids = h->fal_mpi_hid;
  const int64_t *cx = h->fal_mpi_hcx;
  unsigned char *mark = pl->mark;
#pragma omp parallel for schedule(static)
  for (int64_t q = 0; q < k; q++) {
    int64_t x = cx[q];
    size_t o = 0;
    (void)ids;
    mark[x] = 1;
    if ((m >> 0 & 1) && h->level)
      h->level[ids[x]] = ((const int *)(h->fal_mpi_hbuf + o))[q];
    o += FAL_MPI_SEG(n, sizeof(int));
  }
}
static void fal_G_mpi_dpush_marked(fal_G *h, uint64_t m)
{
  fal_G *d = h->fal_mpi_gpu;
  fal_mpi_plan *pl = h->fal_mpi;
  int64_t k = pl->npush;
  pl->dev_pushed += k;
  if (k <= 0)
    return;
  fal_cuda_use(d->fal_base.device);
  const fal_point *pt = pl->push;
  fal_point *hid = h->fal_mpi_hpid;
#pragma omp parallel for schedule(static)
  for (int64_t q = 0; q < k; q++) {
    size_t o = 0;
    hid[q] = pt[q];
    if ((m >> 0 & 1) && h->level)
      ((int *)(h->fal_mpi_hbuf + o))[q] = h->level[pt[q]];
    o += FAL_MPI_SEG(k, sizeof(int));
  }
  size_t o = 0;
  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dpid, hid, (size_t)k * sizeof *hid, cudaMemcpyHostToDevice, 0));
  if ((m >> 0 & 1) && h->level)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, h->fal_mpi_hbuf + o, (size_t)k * sizeof(int), cudaMemcpyHostToDevice, 0));
  o += FAL_MPI_SEG(k, sizeof(int));
  fal_G_mpi_dscatter<<<fal_cuda_grid(k), FAL_BLOCK>>>(*d, h->fal_mpi_dpid, k, h->fal_mpi_dbuf, m);
  FAL_CHECK_LAUNCH("fal_G_mpi_dscatter");
}
static void fal_G_mpi_dpull(fal_G *h, uint64_t m)
{
  fal_G *d = h->fal_mpi_gpu;
  int64_t n = h->fal_mpi_nid;
  size_t o = 0;
  const fal_point *ids = h->fal_mpi_hid;
  (void)ids;
  fal_cuda_use(d->fal_base.device);
  if (n) {
    fal_G_mpi_dgather<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dbuf, m);
    FAL_CHECK_LAUNCH("fal_G_mpi_dgather");
  }
  if (n && (m >> 0 & 1) && h->level)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(int));
  {
    unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      FAL_CUDA(cudaMemcpyAsync(gp, d->changed, sizeof *h->changed, cudaMemcpyDeviceToHost, 0));
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  FAL_CUDA(cudaStreamSynchronize(0));
  o = 0;
  {
    const unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      memcpy(h->changed, gp, sizeof *h->changed);
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  if (n && (m >> 0 & 1) && h->level) {
    const int *b = (const int *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      h->level[ids[x]] = b[x];
  }
  o += FAL_MPI_SEG(n, sizeof(int));
}
static void fal_G_mpi_dpush(fal_G *h, uint64_t m)
{
  fal_G *d = h->fal_mpi_gpu;
  int64_t n = h->fal_mpi_nid;
  size_t o = 0;
  const fal_point *ids = h->fal_mpi_hid;
  if (!n)
    return;
  fal_cuda_use(d->fal_base.device);
  if ((m >> 0 & 1) && h->level) {
    int *b = (int *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      b[x] = h->level[ids[x]];
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, b, (size_t)n * sizeof(int), cudaMemcpyHostToDevice, 0));
  }
  o += FAL_MPI_SEG(n, sizeof(int));
  fal_G_mpi_dscatter<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dbuf, m);
  FAL_CHECK_LAUNCH("fal_G_mpi_dscatter");
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
static void fal_G_mpi_dbegin(fal_G *h)
{
  fal_G *d = h->fal_mpi_gpu;
  h->fal_mpi_nwr = 0; /* (every rank: fal_G_mpi_wr's count is theirs alike) */
  if (!d)
    return;
  fal_cuda_use(d->fal_base.device);
  if (h->fal_ndirty > 64) /* every value (host code went through fal_G_fresh) */
    fal_G_to_gpu(d, h, __FILE__, __LINE__);
  else {
    fal_G_dirty_to(h, d);
    unsigned char *gp = h->fal_mpi_hgp;
    if (h->changed && d->changed) {
      memcpy(gp, h->changed, sizeof *h->changed);
      FAL_CUDA(cudaMemcpyAsync(d->changed, gp, sizeof *h->changed, cudaMemcpyHostToDevice, 0));
    }
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  h->fal_ndirty = 0;
  if (!h->fal_mpi_all && h->fal_mpi_nid && h->fal_mpi->ex < FAL_EX_OWNERS) { /* the entries' records at the round's start */
    fal_G_mpi_dgather<<<fal_cuda_grid(h->fal_mpi_nid), FAL_BLOCK>>>(*d, h->fal_mpi_did, h->fal_mpi_nid, h->fal_mpi_dsh, h->fal_mpi_mask);
    FAL_CHECK_LAUNCH("fal_G_mpi_dgather");
  }
}
static fal_G *fal_G_mpi_own(fal_G *h)
{
  fal_G *d = h->fal_mpi_gpu;
  if (!d || !h->fal_mpi_devstale)
    return h;
  h->fal_mpi_devstale = 0;
  int64_t lo = h->fal_mpi->lo[h->fal_mpi->rank], hi = h->fal_mpi->lo[h->fal_mpi->rank + 1];
  fal_cuda_use(d->fal_base.device);
  if (h->level && d->level && hi > lo)
    FAL_CUDA(cudaMemcpy(h->level + lo, d->level + lo, (size_t)(hi - lo) * sizeof *h->level, cudaMemcpyDeviceToHost));
  return h;
}
static inline int64_t fal_G_mark(fal_G *h, int64_t p)
{
  if (h->fal_mpi_gpu && h->fal_ndirty <= 64) {
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
__host__ __device__ void merge(fal_G *, fal_point, fal_G *, fal_point);
enum { FAL_MPI_AHEAD = 16384 };
__global__ void fal_G_mpi_dcollect(fal_G g, const fal_point *ids, int64_t x0, int64_t x1, int64_t n, const unsigned char *sh, const unsigned char *pchg, int64_t lo, unsigned char *out, unsigned long long *cnt, uint64_t m, size_t one)
{
  for (int64_t w = x0 + blockIdx.x * (int64_t)blockDim.x + (threadIdx.x & ~31u); w < x1; w += (int64_t)gridDim.x * blockDim.x) {
    int64_t x = w + (threadIdx.x & 31);
    bool ch = false;
    if (x < x1) {
      const unsigned char *s = sh;
      (void)s;
      ch = pchg && pchg[ids[x] - lo];
      if ((m >> 0 & 1) && g.level)
        ch = ch || fal_bx_differs(g.level[ids[x]], ((const int *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(int));
    }
    long long q = fal_mpi_slot(ch, cnt);
    if (q < 0)
      continue;
    unsigned char *o = out + (size_t)q * one;
    fal_point p = ids[x];
    memcpy(o, &p, sizeof p);
    fal_G_mpi_pack_m(&g, p, o + sizeof p, m);
  }
}
__global__ void fal_G_mpi_dapply(fal_G g, fal_G fal_in, const unsigned char *rb, int64_t nrec, int64_t at, int fal_ph1, int fal_um, unsigned char *pchg, int64_t lo, uint64_t m, size_t one, int64_t plo, int64_t phi, unsigned long long *bad)
{
  for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < nrec; j += (int64_t)gridDim.x * blockDim.x) {
    const unsigned char *r = rb + (size_t)j * one;
    fal_point p;
    memcpy(&p, r, sizeof p);
    r += sizeof p;
    if (bad && (p < plo || p >= phi)) {
      atomicAdd(bad, 1ULL);
      continue;
    }
    if (!fal_ph1) {
      fal_G_mpi_unpack(&g, p, r, m);
      continue;
    }
    unsigned char before[FAL_MPI_REC_MAX], after[FAL_MPI_REC_MAX];
    size_t cur = one - sizeof p;
    fal_G_mpi_pack_m(&g, p, before, m);
    if (fal_um) {
      unsigned char all[FAL_MPI_REC_MAX];
      fal_G_mpi_pack_m(&g, p, all, ~(uint64_t)0);
      fal_G_mpi_unpack(&fal_in, at + j, all, ~(uint64_t)0);
      fal_G_mpi_unpack(&fal_in, at + j, r, m);
      merge(&g, p, &fal_in, (fal_point)(at + j));
    } else
      fal_G_mpi_unpack(&g, p, r, m);
    fal_G_mpi_pack_m(&g, p, after, m);
    for (size_t b = 0; b < cur; b++)
      if (before[b] != after[b]) {
        pchg[p - lo] = 1;
        break;
      }
  }
}
static void fal_G_mpi_collect(void *gv, int phase, int64_t *count, unsigned char *sbuf)
{
  fal_G *h = (fal_G *)gv, *d = h->fal_mpi_gpu;
  fal_mpi_plan *pl = h->fal_mpi;
  int nn = pl->nnbr;
  const int64_t *off = phase == 1 ? pl->goff : pl->boff;
  int64_t base = phase == 1 ? 0 : pl->goff[nn], lo = pl->lo[pl->rank];
  size_t one = sizeof(fal_point) + pl->cur;
  /* IPC: the pairs stay on the GPU for the neighbours to read, each
   * phase in its own part of the send area (fal_mpi_exchange_ipc) */
  int ipc = h->fal_mpi_ipc;
  unsigned char *out = h->fal_mpi_dsend + (ipc && phase == 2 ? (size_t)pl->goff[nn] * one : 0);
  fal_cuda_use(d->fal_base.device);
  if (nn) {
    FAL_CUDA(cudaMemsetAsync(h->fal_mpi_dncnt, 0, (size_t)nn * sizeof *h->fal_mpi_dncnt, 0));
    for (int i = 0; i < nn; i++)
      if (off[i + 1] > off[i]) {
        fal_G_mpi_dcollect<<<fal_cuda_grid(off[i + 1] - off[i]), FAL_BLOCK>>>(*d, h->fal_mpi_did, base + off[i], base + off[i + 1], h->fal_mpi_nid, h->fal_mpi_dsh, phase == 2 && pl->ex == FAL_EX_MERGE ? h->fal_mpi_dpchg : NULL, lo, out + (size_t)off[i] * one, h->fal_mpi_dncnt + i, h->fal_mpi_mask, one);
        FAL_CHECK_LAUNCH("fal_G_mpi_dcollect");
      }
    if (phase == 2 && pl->ex == FAL_EX_MERGE)
      FAL_CUDA(cudaMemsetAsync(h->fal_mpi_dpchg, 0, (size_t)(pl->lo[pl->rank + 1] - lo), 0));
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hncnt, h->fal_mpi_dncnt, (size_t)nn * sizeof *h->fal_mpi_hncnt, cudaMemcpyDeviceToHost, 0));
    for (int i = 0; i < nn; i++) /* the first FAL_MPI_AHEAD pairs before their count is known: one wait, not two, in short rounds (with IPC: the rounds whose pairs go in messages) */
      if (off[i + 1] > off[i])
        FAL_CUDA(cudaMemcpyAsync(sbuf + (size_t)off[i] * one, out + (size_t)off[i] * one, (size_t)(off[i + 1] - off[i] < FAL_MPI_AHEAD ? off[i + 1] - off[i] : FAL_MPI_AHEAD) * one, cudaMemcpyDeviceToHost, 0));
  }
  if (phase == 2) {
  {
    unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      FAL_CUDA(cudaMemcpyAsync(gp, d->changed, sizeof *h->changed, cudaMemcpyDeviceToHost, 0));
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  }
  FAL_CUDA(cudaStreamSynchronize(0));
  if (phase == 2) {
  {
    const unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      memcpy(h->changed, gp, sizeof *h->changed);
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  }
  int any = 0;
  for (int i = 0; i < nn; i++) {
    int64_t k = (int64_t)h->fal_mpi_hncnt[i];
    if (k < 0 || k > off[i + 1] - off[i]) {
      fprintf(stderr, "falcon: rank %d: %lld changed entries of %lld\n", pl->rank, (long long)k, (long long)(off[i + 1] - off[i]));
      exit(1);
    }
    count[i] = k;
    if (k > FAL_MPI_AHEAD && !ipc) {
      size_t at = ((size_t)off[i] + FAL_MPI_AHEAD) * one;
      FAL_CUDA(cudaMemcpyAsync(sbuf + at, h->fal_mpi_dsend + at, (size_t)(k - FAL_MPI_AHEAD) * one, cudaMemcpyDeviceToHost, 0));
      any = 1;
    }
  }
  if (any)
    FAL_CUDA(cudaStreamSynchronize(0));
}
static void fal_G_mpi_deliver(void *gv, int phase, int i, const unsigned char *rb, int64_t nrec, int64_t at)
{
  fal_G *h = (fal_G *)gv, *d = h->fal_mpi_gpu;
  fal_mpi_plan *pl = h->fal_mpi;
  size_t one = sizeof(fal_point) + pl->cur;
  unsigned char *dr = h->fal_mpi_drecv + (size_t)at * one;
  (void)i;
  fal_cuda_use(d->fal_base.device);
  FAL_CUDA(cudaMemcpyAsync(dr, rb, (size_t)nrec * one, cudaMemcpyHostToDevice, 0));
  fal_G_mpi_dapply<<<fal_cuda_grid(nrec), FAL_BLOCK>>>(*d, *h->fal_mpi_din, dr, nrec, at, phase == 1, h->fal_merge != NULL, h->fal_mpi_dpchg, pl->lo[pl->rank], h->fal_mpi_mask, one, 0, 0, NULL);
  FAL_CHECK_LAUNCH("fal_G_mpi_dapply");
}
static void fal_G_mpi_ideliver(void *gv, int phase, int i, int64_t nrec, int64_t slot, int64_t at)
{
  fal_G *h = (fal_G *)gv, *d = h->fal_mpi_gpu;
  fal_mpi_plan *pl = h->fal_mpi;
  size_t one = sizeof(fal_point) + pl->cur;
  int s = pl->nbr[i];
  if (at < 0 || (uint64_t)at + (uint64_t)nrec * one > (uint64_t)h->fal_mpi_peer_bytes[i]) {
    fprintf(stderr, "falcon: rank %d: rank %d announced %lld records past the end of its send area\n", pl->rank, s, (long long)nrec);
    exit(1);
  }
  int64_t plo = phase == 1 ? pl->lo[pl->rank] : pl->lo[s], phi = phase == 1 ? pl->lo[pl->rank + 1] : pl->lo[s + 1];
  fal_cuda_use(d->fal_base.device);
  fal_G_mpi_dapply<<<fal_cuda_grid(nrec), FAL_BLOCK>>>(*d, *h->fal_mpi_din, h->fal_mpi_peer[i] + at, nrec, slot, phase == 1, h->fal_merge != NULL, h->fal_mpi_dpchg, pl->lo[pl->rank], h->fal_mpi_mask, one, plo, phi, h->fal_mpi_derr);
  FAL_CHECK_LAUNCH("fal_G_mpi_dapply");
  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_herr, h->fal_mpi_derr, sizeof *h->fal_mpi_herr, cudaMemcpyDeviceToHost, 0));
  FAL_CUDA(cudaStreamSynchronize(0)); /* read: the sender may write its area again */
  if (*h->fal_mpi_herr) {
    fprintf(stderr, "falcon: rank %d: %llu records from rank %d name points outside [%lld, %lld)\n", pl->rank, *h->fal_mpi_herr, s, (long long)plo, (long long)phi);
    exit(1);
  }
}
typedef struct {
  cudaIpcMemHandle_t mem;
  long long bytes;
  int ok;
  char bus[32];
} fal_mpi_ipc_rec;
static void fal_G_mpi_ipc_open(fal_G *h, size_t bytes, int loud)
{
  fal_mpi_plan *pl = h->fal_mpi;
  int nn = pl->nnbr, k = pl->nranks;
  fal_mpi_ipc_rec mine, *all = (fal_mpi_ipc_rec *)fal_calloc((size_t)k, sizeof *all);
  memset(&mine, 0, sizeof mine);
  mine.bytes = (long long)bytes;
  int dev = h->fal_mpi_gpu->fal_base.device;
  mine.ok = fal_mpi_local_size() == k && cudaIpcGetMemHandle(&mine.mem, h->fal_mpi_dsend) == cudaSuccess &&
            cudaDeviceGetPCIBusId(mine.bus, (int)sizeof mine.bus, dev) == cudaSuccess;
  mine.bus[sizeof mine.bus - 1] = 0;
  fal_mpi_allgather_bytes(&mine, all, sizeof mine);
  h->fal_mpi_peer = (unsigned char **)fal_calloc((size_t)nn + 1, sizeof *h->fal_mpi_peer);
  h->fal_mpi_peer_bytes = (int64_t *)fal_calloc((size_t)nn + 1, sizeof *h->fal_mpi_peer_bytes);
  int ok = 1;
  for (int r = 0; r < k; r++)
    ok = ok && all[r].ok;
  for (int i = 0; i < nn && ok; i++) {
    void *q = NULL;
    unsigned char b;
    int pd = -1, can = 0; /* the neighbour's GPU, seen from here: this one or a peer */
    all[pl->nbr[i]].bus[sizeof all[0].bus - 1] = 0;
    if (cudaDeviceGetByPCIBusId(&pd, all[pl->nbr[i]].bus) != cudaSuccess)
      can = 0; /* not visible to this process */
    else if (pd == dev)
      can = 1;
    else if (cudaDeviceCanAccessPeer(&can, dev, pd) != cudaSuccess)
      can = 0;
    if (!can || cudaIpcOpenMemHandle(&q, all[pl->nbr[i]].mem, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess ||
        cudaMemcpy(&b, q, 1, cudaMemcpyDeviceToHost) != cudaSuccess) {
      (void)cudaGetLastError();
      ok = 0;
      if (q)
        (void)cudaIpcCloseMemHandle(q);
      break;
    }
    h->fal_mpi_peer[i] = (unsigned char *)q;
    h->fal_mpi_peer_bytes[i] = all[pl->nbr[i]].bytes;
  }
  ok = fal_mpi_all_true(ok);
  if (!ok) {
    for (int i = 0; i < nn; i++)
      if (h->fal_mpi_peer[i])
        (void)cudaIpcCloseMemHandle(h->fal_mpi_peer[i]);
    (void)cudaGetLastError();
    if (pl->rank == 0 && loud)
      fprintf(stderr, "falcon: note: CUDA IPC: not every rank can read its neighbours' GPUs (one machine, peer access, CUDA IPC); the ranks exchange through the host\n");
  } else {
    h->fal_mpi_derr = (unsigned long long *)fal_dalloc(sizeof(unsigned long long), __FILE__, __LINE__);
    FAL_CUDA(cudaMemset(h->fal_mpi_derr, 0, sizeof(unsigned long long)));
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_herr, sizeof(unsigned long long)));
    *h->fal_mpi_herr = 0;
  }
  h->fal_mpi_ipc = ok;
  free(all);
}
/* every rank calls this once, from fal_G_mpi_gpu_setup: IPC if all want
 * it (want 2: FALCON_MPI_IPC=on, which notes a fallback) */
static void fal_G_mpi_ipc_start(fal_G *h, int want, size_t bytes, const char *file, int line)
{
  h->fal_mpi_ipc = 0;
  if (fal_mpi_all_true(want))
    fal_G_mpi_ipc_open(h, bytes, want == 2 || fal_verbose());
  /* and the GPUs' point properties, for the loops' kernels and host
   * rounds that reach the other ranks (falcon/mpi.cuh fal_mpxg) */
  fal_G *d = h->fal_mpi_gpu;
  (void)d;
  void *fal_pp[] = {NULL, d ? (void *)d->level : NULL};
  h->fal_mpxg = fal_mpxg_open(h->fal_mpi, h->fal_mpi_ipc && d ? d->fal_base.device : -1, fal_pp + 1, (int)(sizeof fal_pp / sizeof *fal_pp) - 1, file, line);
}
static void fal_G_mpi_gpu_setup(fal_G *h, int ngpu, int ncpu, const char *file, int line)
{
  int ndev = ngpu > 0 ? fal_cuda_count_quiet() : 0;
  if (ngpu > 0 && ndev == 0) {
    if (fal_mpi_rank() == 0)
      fprintf(stderr, "falcon: note: no GPU: the %d GPU part(s) of each rank run on its host\n", ngpu);
    fal_G_mpi_ipc_start(h, 0, 0, file, line);
    return;
  }
  if (ngpu == 0) {
    fal_G_mpi_ipc_start(h, 0, 0, file, line);
    return;
  }
  if ((ngpu > 1 || ncpu > 0) && fal_mpi_rank() == 0)
    fprintf(stderr, "falcon: note: --mpi: makePartition(%d, %d): the points of each rank run on one GPU\n", ngpu, ncpu);
  int dev = fal_mpi_local_rank() % ndev;
  fal_G *d = h->fal_mpi_gpu = (fal_G *)fal_calloc(1, sizeof(fal_G));
  *d = fal_G_gpu(dev);
  fal_G_to_gpu(d, h, file, line);
  fal_mpi_plan *pl = h->fal_mpi;
  int64_t ng = pl->goff[pl->nnbr], nb = pl->boff[pl->nnbr], n = ng + nb;
  h->fal_mpi_nid = n;
  h->fal_mpi_hid = (fal_point *)fal_calloc((size_t)n + 1, sizeof(fal_point));
  if (ng)
    memcpy(h->fal_mpi_hid, pl->ghost, (size_t)ng * sizeof(fal_point));
  if (nb)
    memcpy(h->fal_mpi_hid + ng, pl->border, (size_t)nb * sizeof(fal_point));
  size_t bytes = 16;
  bytes += FAL_MPI_SEG(n, sizeof(int));
  fal_cuda_use(d->fal_base.device);
  h->fal_mpi_did = (fal_point *)fal_dalloc(((size_t)n + 1) * sizeof(fal_point), file, line);
  if (n)
    FAL_CUDA(cudaMemcpy(h->fal_mpi_did, h->fal_mpi_hid, (size_t)n * sizeof(fal_point), cudaMemcpyHostToDevice));
  h->fal_mpi_dbuf = (unsigned char *)fal_dalloc(bytes, file, line);
  FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hbuf, bytes));
  h->fal_mpi_ngp = 16;
  h->fal_mpi_ngp += FAL_MPI_SEG(1, sizeof *h->changed);
  FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hgp, 2 * h->fal_mpi_ngp));
  const char *st = getenv("FALCON_MPI_STAGING");
  h->fal_mpi_all = st && strcmp(st, "all") == 0;
  if (!h->fal_mpi_all) {
    fal_mpi_record(pl, pl->rec); /* the plan's marks and lists, made now */
    h->fal_mpi_dsh = (unsigned char *)fal_dalloc(bytes, file, line);
    h->fal_mpi_dcx = (int64_t *)fal_dalloc(((size_t)n + 1) * sizeof(int64_t), file, line);
    h->fal_mpi_dcnt = (unsigned long long *)fal_dalloc(sizeof(unsigned long long), file, line);
    h->fal_mpi_dpid = (fal_point *)fal_dalloc(((size_t)n + 1) * sizeof(fal_point), file, line);
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hcx, ((size_t)n + 1) * sizeof(int64_t)));
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hcnt, sizeof(unsigned long long)));
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hpid, ((size_t)n + 1) * sizeof(fal_point)));
  }
  const char *mg = getenv("FALCON_MPI_MERGE");
  int ipc = 0;
  size_t swire = 0;
  h->fal_mpi_dm = !h->fal_mpi_all && !(mg && strcmp(mg, "host") == 0);
  if (h->fal_mpi_dm) {
    size_t wire = ((size_t)pl->most + 1) * (sizeof(fal_point) + pl->rec);
    int64_t own = pl->lo[pl->rank + 1] - pl->lo[pl->rank];
    const char *ip = getenv("FALCON_MPI_IPC");
    ipc = pl->nranks < 2 || (ip && strcmp(ip, "off") == 0) ? 0 : ip && strcmp(ip, "on") == 0 ? 2 : 1;
    /* IPC: room for both phases' pairs, apart (fal_mpi_exchange_ipc) */
    swire = ipc ? ((size_t)n + 1) * (sizeof(fal_point) + pl->rec) : wire;
    /* with IPC, rounds of at most this many pairs for a neighbour still
     * go in messages (no wait for the neighbour's reads); the first
     * FAL_MPI_AHEAD pairs come to the host with the counts anyway */
    const char *il = getenv("FALCON_MPI_INLINE");
    char *ie = NULL;
    long long iv = il && *il ? strtoll(il, &ie, 10) : -1;
    h->fal_mpi_inl = iv >= 0 && iv <= FAL_MPI_AHEAD && ie && !*ie ? iv : FAL_MPI_AHEAD;
    if (il && *il && h->fal_mpi_inl != iv && pl->rank == 0)
      fprintf(stderr, "falcon: note: FALCON_MPI_INLINE=%s is not a number from 0 to %d: %d taken\n", il, (int)FAL_MPI_AHEAD, (int)FAL_MPI_AHEAD);
    h->fal_mpi_dsend = (unsigned char *)fal_dalloc(swire, file, line);
    h->fal_mpi_drecv = (unsigned char *)fal_dalloc(wire, file, line);
    h->fal_mpi_dpchg = (unsigned char *)fal_dalloc((size_t)own + 1, file, line);
    FAL_CUDA(cudaMemset(h->fal_mpi_dpchg, 0, (size_t)own + 1));
    h->fal_mpi_dncnt = (unsigned long long *)fal_dalloc(((size_t)pl->nnbr + 1) * sizeof(unsigned long long), file, line);
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hsend, wire));
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hrecv, wire));
    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hncnt, ((size_t)pl->nnbr + 1) * sizeof(unsigned long long)));
    fal_G *in = h->fal_mpi_din = (fal_G *)fal_calloc(1, sizeof(fal_G));
    (void)in;
    if (h->level)
      in->level = (int *)fal_dalloc(((size_t)pl->most + 1) * sizeof(int), file, line);
  }
  fal_G_mpi_ipc_start(h, ipc, swire, file, line);
  if (fal_verbose())
    fprintf(stderr, "falcon: rank %d: points [%lld, %lld) on GPU %d; %lld ghosts and border entries staged through the host (%s)\n",
            pl->rank, (long long)pl->lo[pl->rank], (long long)pl->lo[pl->rank + 1], d->fal_base.device, (long long)n,
            h->fal_mpi_all ? "all of them, FALCON_MPI_STAGING=all" : h->fal_mpi_ipc ? "those that changed, merged on the GPU, read by the neighbours over CUDA IPC" : h->fal_mpi_dm ? "those that changed, merged on the GPU" : "those that changed, merged on the host");
}
static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)
{
  int k = ngpu + ncpu;
  (void)policy;
  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {
    fprintf(stderr, "%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\n", file, line, ngpu, ncpu);
    exit(1);
  }
  if (h->fal_mpi) {
    fprintf(stderr, "%s:%d: error: makePartition: the graph is partitioned already\n", file, line);
    exit(1);
  }
  h->fal_nparts = k; /* per rank; a rank's host parts share its memory */
  size_t rec = 0;
  rec += sizeof(int);
  h->fal_mpi = (fal_mpi_plan *)fal_calloc(1, sizeof *h->fal_mpi);
  fal_mpi_plan_init(h->fal_mpi, &h->fal_base.csr, rec);
  /* a one-point copy per thread: incoming records merge in parallel */
  h->fal_mpi_nin = fal_mpi_threads();
  h->fal_mpi_in = (fal_G *)fal_calloc((size_t)h->fal_mpi_nin, sizeof(fal_G));
  for (int t = 0; t < h->fal_mpi_nin; t++) {
    fal_G *in = &h->fal_mpi_in[t];
    (void)in;
    if (h->level)
      in->level = (int *)fal_calloc(1, sizeof(int));
  }
  fal_G_mpi_gpu_setup(h, ngpu, ncpu, file, line);
}
static fal_G *fal_G_fresh(fal_G *h)
{
  if (!h->fal_mpi)
    return h;
  if (h->fal_mpi_gpu && h->fal_mpi_devstale && h->fal_ndirty <= 64) {
    fal_cuda_use(h->fal_mpi_gpu->fal_base.device);
    fal_G_dirty_to(h, h->fal_mpi_gpu);
  }
  fal_G_mpi_own(h);
  if (!h->fal_mpi_stale)
    return h;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  h->fal_mpi_stale = 0;
  fal_mpi_gather(h->fal_mpi, h->level, sizeof(int), NULL);
  return h;
}
static int64_t fal_G_mpi_wr(fal_G *h, int64_t p)
{
  if (!h->fal_mpi || !h->fal_mpi_stale || h->fal_mpi_nwr >= 64 || p < 0 || p >= h->npoints) {
    fal_G_fresh(h);
    return fal_G_mark(h, p);
  }
  h->fal_mpi_nwr++;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  int o = fal_mpi_owner(h->fal_mpi, p);
  int mine = 0;
  for (int i = 0; i < h->fal_ndirty && i < 64; i++)
    mine |= h->fal_dirty_pt[i] == (fal_point)p;
  fal_G *d = h->fal_mpi_gpu;
  if (o == h->fal_mpi->rank && d && h->fal_mpi_devstale && !mine) {
    fal_cuda_use(d->fal_base.device);
    if (d->level && h->level)
      FAL_CUDA(cudaMemcpy(h->level + p, d->level + p, sizeof *d->level, cudaMemcpyDefault));
  }
  if (h->level)
    fal_mpi_bcast_from(h->level + p, sizeof *h->level, o);
  return mine ? p : fal_G_mark(h, p);
}
static void fal_G_mpi_begin(fal_G *h, int line, uint64_t mask, int ex)
{
  if (!h->fal_mpi) {
    fprintf(stderr, "falcon: a foreach over a partitioned graph before makePartition\n");
    exit(1);
  }
  fal_mpi_sync(line > 0 ? line : 0);
  size_t cur = 0;
  h->fal_mpi_mask = mask;
  if ((mask >> 0 & 1))
    cur += sizeof(int);
  h->fal_mpi->ex = ex;
  if (ex >= FAL_EX_OWNERS)
    ;
  else if (h->fal_mpi_gpu && !h->fal_mpi_all)
    fal_mpi_record(h->fal_mpi, cur);
  else
    fal_mpi_snapshot(h->fal_mpi, h, fal_G_mpi_pack, cur);
  if (h->changed)
    h->fal_mpi_before_changed = h->changed[0];
  fal_G_mpi_dbegin(h);
}
static void fal_G_mpi_gp_done(fal_G *h)
{
  h->fal_mpi_stale = h->fal_mpi->nranks > 1;
  if (h->changed) /* a value changed on any rank wins */
    fal_mpi_combine(&h->changed[0], &h->fal_mpi_before_changed, sizeof(int));
}
static void fal_G_mpi_end(fal_G *h)
{
  if (h->fal_mpi_gpu && !h->fal_mpi_all && h->fal_mpi_dm) {
    h->fal_mpi_devstale = 1;
    if (h->fal_mpi_ipc)
      fal_mpi_exchange_ipc(h->fal_mpi, h, h->fal_mpi_hsend, h->fal_mpi_hrecv, h->fal_mpi_inl, fal_G_mpi_collect, fal_G_mpi_deliver, fal_G_mpi_ideliver);
    else
      fal_mpi_exchange_dev(h->fal_mpi, h, h->fal_mpi_hsend, h->fal_mpi_hrecv, fal_G_mpi_collect, fal_G_mpi_deliver);
  } else if (h->fal_mpi_gpu && !h->fal_mpi_all) {
    fal_G_mpi_dpull_marked(h, h->fal_mpi_mask);
    h->fal_mpi_devstale = 1;
    fal_mpi_exchange_marked(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);
    fal_G_mpi_dpush_marked(h, h->fal_mpi_mask);
  } else {
    if (h->fal_mpi_gpu) { /* the GPU's ghosts and border points to the host */
      fal_G_mpi_dpull(h, h->fal_mpi_mask);
      h->fal_mpi_devstale = 1;
    }
    fal_mpi_exchange(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);
    if (h->fal_mpi_gpu) /* and the exchanged values back */
      fal_G_mpi_dpush(h, h->fal_mpi_mask);
  }
  fal_G_mpi_gp_done(h);
}
static inline void fal_G_mpi_end_alike(fal_G *h)
{
  if (h->fal_mpi_gpu)
    h->fal_mpi_devstale = 1;
  fal_G_mpi_gp_done(h);
}
static void fal_G_mpi_gp_back(fal_G *h)
{
  fal_G *d = h->fal_mpi_gpu;
  fal_cuda_use(d->fal_base.device);
  {
    unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      FAL_CUDA(cudaMemcpyAsync(gp, d->changed, sizeof *h->changed, cudaMemcpyDeviceToHost, 0));
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
  FAL_CUDA(cudaStreamSynchronize(0));
  {
    const unsigned char *gp = h->fal_mpi_hgp + h->fal_mpi_ngp;
    if (h->changed && d->changed)
      memcpy(h->changed, gp, sizeof *h->changed);
    gp += FAL_MPI_SEG(1, sizeof *h->changed);
  }
}
static void fal_G_mpi_end_rm(fal_G *h)
{
  fal_cuda_use(h->fal_mpi_gpu->fal_base.device);
  FAL_CUDA(cudaDeviceSynchronize()); /* its MINs on other ranks' points are in */
  fal_G_mpi_gp_back(h);
  h->fal_mpi_devstale = 1;
  fal_G_mpi_gp_done(h);
}
#line 16 "partition_mpi_gpu_level.fal"
__host__ __device__ void expand(fal_point p, fal_G *hg, int lev)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = hg->fal_base.csr.dst[fal_e2]; { if (!(hg->level[t] == INF)) continue;
#line 19 "partition_mpi_gpu_level.fal"
    (fal_ra_mm<0, 0>(hg->fal_rmt, hg->level, &(hg->level[t]), (lev + 1)) ? (FAL_SET_FLAG(hg->changed[0]), 1) : 0); } } }
#line 19 "partition_mpi_gpu_level.fal"

}

__host__ __device__ void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->level[orig] > fal_g_incom->level[incom])
    fal_g_orig->level[orig] = fal_g_incom->level[incom];
}

#line 36 "partition_mpi_gpu_level.fal"
__global__ void fal_foreach_L36_3(fal_G fal_kv_hg, int64_t fal_lo, int64_t fal_hi)
{
  fal_G *hg = &fal_kv_hg;
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 36 "partition_mpi_gpu_level.fal"
                           hg->level[t] = INF; } }
}
__device__ long long fal_lr_fal_looprs_L39_6;
__device__ long long fal_lp_fal_looprs_L39_6;
__device__ int fal_lo_fal_looprs_L39_6_lev;
#line 39 "partition_mpi_gpu_level.fal"
__global__ void fal_looprs_L39_6(fal_G fal_kv_hg, int lev, fal_px fal_px)
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
#line 40 "partition_mpi_gpu_level.fal"
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
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } } while (0); }
    }
    fal_gv.changed = fal_rs_round_c(fal_grid, fal_px, &hg->changed[0], fal_nb, fal_kpl && fal_kcn ? fal_kc : (unsigned long long *)NULL);
    fal_brk = 1;
    do {
#line 42 "partition_mpi_gpu_level.fal"
    lev++;
#line 43 "partition_mpi_gpu_level.fal"
    if (fal_gv.changed == 0)
      break;
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
  if (fal_leader) {
    fal_lr_fal_looprs_L39_6 = fal_rounds;
    fal_lp_fal_looprs_L39_6 = fal_kd.pulls;
    fal_lo_fal_looprs_L39_6_lev = lev;
  }
}
__device__ long long fal_lr_fal_looprsw_L39_7;
__device__ long long fal_lp_fal_looprsw_L39_7;
__device__ int fal_lo_fal_looprsw_L39_7_lev;
#line 39 "partition_mpi_gpu_level.fal"
__global__ void __launch_bounds__(FAL_BLOCK, FAL_PW_BLOCKS) fal_looprsw_L39_7(fal_G fal_kv_hg, int lev, fal_px fal_px, fal_pw fal_pw)
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
#line 40 "partition_mpi_gpu_level.fal"
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
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } } while (0); }
      fal_wbegin();
    }
    for (int64_t fal_c; (fal_c = fal_pw_group(fal_pw, fal_wr, fal_px.lo, fal_px.hi)) >= 0;) {
      unsigned fal_lm;
      { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
        if (fal_i < fal_px.hi && !FAL_HUB(hg, (fal_point)fal_i, fal_pw.hd)) { fal_tk = true; if (fal_tk) { fal_point t = (fal_point)fal_i; fal_tk = ((hg->level[t] == lev)); } }
        fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
      while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; do { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((hg->level[t] == lev)))) continue;
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } } while (0); }
    }
    fal_wr++;
    }
    fal_gv.changed = fal_rs_round_c(fal_grid, fal_px, &hg->changed[0], fal_nb, fal_kpl && fal_kcn ? fal_kc : (unsigned long long *)NULL);
    fal_brk = 1;
    do {
#line 42 "partition_mpi_gpu_level.fal"
    lev++;
#line 43 "partition_mpi_gpu_level.fal"
    if (fal_gv.changed == 0)
      break;
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
  if (fal_leader) {
    fal_lr_fal_looprsw_L39_7 = fal_rounds;
    fal_lp_fal_looprsw_L39_7 = fal_kd.pulls;
    fal_lo_fal_looprsw_L39_7_lev = lev;
  }
}
#line 41 "partition_mpi_gpu_level.fal"
__global__ void fal_foreach_L41_8(fal_G fal_kv_hg, int lev, int64_t fal_lo, int64_t fal_hi)
{
  fal_G *hg = &fal_kv_hg;
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; { if (!(hg->level[t] == lev)) continue;
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } }
}
#line 41 "partition_mpi_gpu_level.fal"
__global__ void fal_foreach_L41_8_w(fal_G fal_kv_hg, int lev, int64_t fal_lo, int64_t fal_hi, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
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
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } } }
  } else
  for (int64_t fal_c = fal_lo + ((blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y) * 32; fal_c < fal_hi; fal_c += (int64_t)(gridDim.x - fal_hb) * blockDim.y * 32) {
    unsigned fal_lm;
    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
      if (fal_i < fal_hi) { fal_point t = (fal_point)fal_i; if (!FAL_HUB(hg, t, fal_hd)) { fal_tk = ((hg->level[t] == lev)); } }
      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((hg->level[t] == lev)))) continue;
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } } }
  }
}
#line 28 "partition_mpi_gpu_level.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->level, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read_rows(hg, argv[1]);
  fal_G_partition(hg, 1, 0, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { fal_G_mpi_begin(hg, 36, 0x1u, FAL_EX_ALIKE); { fal_G *fal_part = hg->fal_mpi_gpu ? hg->fal_mpi_gpu : hg; int64_t fal_lo = 0, fal_hi = hg->npoints; if (fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; { fal_cuda_use(hg->fal_base.device); fal_foreach_L36_3<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, fal_lo, fal_hi); FAL_CHECK_LAUNCH("fal_foreach_L36_3"); } } else { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 36 "partition_mpi_gpu_level.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 36 "partition_mpi_gpu_level.fal"
                           hg->level[t] = INF; } } }
fal_G_mpi_end_alike(hg); }
#line 36 "partition_mpi_gpu_level.fal"

  hg->level[fal_G_mpi_wr(hg, (0))] = 0;
  int lev = 0;
  { fal_dstate fal_md4; fal_dstate_start(&fal_md4, 1, hg->directed, hg->npoints, hg->nedges); static unsigned long long *fal_md4_d; { static fal_mpx fal_mx5; fal_loop_sw fal_sw = {0}; fal_mpx_ready(&fal_mx5, hg->fal_mpxg, hg->fal_mpi_gpu ? (void *)hg->fal_mpi_gpu->level : NULL, 1, __FILE__, __LINE__); double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; while (1) { if (fal_mpx_switch_f(&fal_sw, &fal_mx5, hg->fal_mpi, hg->fal_mpi_gpu && fal_warp_pick(&hg->fal_mpi_gpu->fal_base), fal_sw.state == 0 && fal_pull_in(1, hg->directed, hg->npoints, hg->nedges), (const void *)fal_looprs_L39_6, "partition_mpi_gpu_level.fal", 39)) { int fal_pgo = 0; if (hg->fal_mpi_gpu && fal_pw_pick_ranks(&hg->fal_mpi_gpu->fal_base)) { { double fal_pt0 = fal_prof_t0(); fal_G_mpi_dbegin(hg); fal_G *fal_d = hg->fal_mpi_gpu; fal_px fal_mpxp = fal_mx5.px; void *fal_pa[4]; static fal_pwh fal_pwm; fal_pw fal_pwv = fal_pw_make(&fal_pwm, 0, &fal_d->fal_base, fal_mpxp.lo, fal_mpxp.hi, __FILE__, __LINE__); fal_pa[3] = (void *)&fal_pwv; fal_pa[0] = (void *)fal_d; fal_pa[1] = (void *)&lev; fal_dstate_start(&fal_mpxp.pd, 1, hg->directed, hg->npoints, hg->nedges); fal_pa[2] = (void *)&fal_mpxp; fal_d->fal_rmt = fal_mpx_rmv(&fal_mx5, fal_mx5.df); int fal_pok = fal_mpx_run_w(&fal_mx5, (const void *)fal_looprsw_L39_7, fal_pa, 1, "fal_looprsw_L39_7", __FILE__, __LINE__); fal_d->fal_rmt = fal_rmv_none(); if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_looprsw_L39_7, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&lev, fal_lo_fal_looprsw_L39_7_lev, sizeof lev)); if (fal_prof_enabled()) { long long fal_lp = 0; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lp, fal_lp_fal_looprsw_L39_7, sizeof fal_lp)); fal_prof_end("partition_mpi_gpu_level.fal", 39, "pull rounds (kernel)", fal_prof_t0(), fal_lp); } fal_mpi_bcast0(&lev, sizeof lev); fal_mpx_leave(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, fal_d->level, sizeof *fal_d->level); hg->fal_mpi_devstale = 1; hg->fal_mpi_stale = hg->fal_mpi->nranks > 1; fal_G_mpi_gp_back(hg); fal_gprof_end("partition_mpi_gpu_level.fal", 39, "ranks (one barrier)", fal_pt0, fal_lr); } } } else { { double fal_pt0 = fal_prof_t0(); fal_G_mpi_dbegin(hg); fal_G *fal_d = hg->fal_mpi_gpu; fal_px fal_mpxp = fal_mx5.px; void *fal_pa[3]; fal_pa[0] = (void *)fal_d; fal_pa[1] = (void *)&lev; fal_dstate_start(&fal_mpxp.pd, 1, hg->directed, hg->npoints, hg->nedges); fal_pa[2] = (void *)&fal_mpxp; fal_d->fal_rmt = fal_mpx_rmv(&fal_mx5, fal_mx5.df); int fal_pok = fal_mpx_run(&fal_mx5, (const void *)fal_looprs_L39_6, fal_pa, "fal_looprs_L39_6", __FILE__, __LINE__); fal_d->fal_rmt = fal_rmv_none(); if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_looprs_L39_6, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&lev, fal_lo_fal_looprs_L39_6_lev, sizeof lev)); if (fal_prof_enabled()) { long long fal_lp = 0; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lp, fal_lp_fal_looprs_L39_6, sizeof fal_lp)); fal_prof_end("partition_mpi_gpu_level.fal", 39, "pull rounds (kernel)", fal_prof_t0(), fal_lp); } fal_mpi_bcast0(&lev, sizeof lev); fal_mpx_leave(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, fal_d->level, sizeof *fal_d->level); hg->fal_mpi_devstale = 1; hg->fal_mpi_stale = hg->fal_mpi->nranks > 1; fal_G_mpi_gp_back(hg); fal_gprof_end("partition_mpi_gpu_level.fal", 39, "ranks (one barrier)", fal_pt0, fal_lr); } } } if (fal_pgo) break; fal_sw.state = 2; } fal_ra++; {
    hg->changed[0] = 0;
    { void *fal_mxh = fal_mpx_host(&fal_mx5); { fal_G_mpi_begin(hg, 41, 0x1u, fal_mxh ? FAL_EX_OWNERS : FAL_EX_MERGE); { fal_G *fal_part = hg->fal_mpi_gpu ? hg->fal_mpi_gpu : hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; if (fal_part->fal_base.on_gpu) { fal_part->fal_rmt = fal_mpx_ctx(&fal_mx5, fal_mxh); fal_G *hg = fal_part; if (fal_md4.dir && !fal_mxh) { fal_cuda_use(hg->fal_base.device); fal_pull_kernel<int><<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(hg->level, hg->fal_base.csr.offsets, hg->fal_base.csr.dst, fal_lo, fal_hi, (int)(lev), 1, (int)(INF), &hg->changed[0], (unsigned long long *)NULL); FAL_CHECK_LAUNCH("fal_pull_kernel"); } else { { fal_cuda_use(hg->fal_base.device); if (fal_warp_pick(&hg->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&hg->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hubs_range(fal_hb, fal_lo, fal_hi, &fal_h0); fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L41_8_w<<<fal_hbk + fal_cuda_grid((int64_t)(fal_hi - fal_lo) * 32), dim3(32, FAL_BLOCK / 32)>>>(*hg, lev, fal_lo, fal_hi, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L41_8<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, lev, fal_lo, fal_hi); FAL_CHECK_LAUNCH("fal_foreach_L41_8"); } } fal_part->fal_rmt = fal_rmv_none(); } else { fal_G *hg = fal_part; if (fal_md4.dir) {
#pragma omp parallel for schedule(dynamic, 1024)
for (int64_t fal_i = fal_lo; fal_i < fal_hi; fal_i++) { int fal_u; __atomic_load(&hg->level[fal_i], &fal_u, __ATOMIC_RELAXED); if (fal_u == (INF) && (lev) + 1 < fal_u) for (int64_t fal_e = hg->fal_base.csr.offsets[fal_i], fal_n = hg->fal_base.csr.offsets[fal_i + 1]; fal_e < fal_n; fal_e++) { int fal_s; __atomic_load(&hg->level[hg->fal_base.csr.dst[fal_e]], &fal_s, __ATOMIC_RELAXED); if (fal_s == (lev)) { int fal_nv = (lev) + 1; __atomic_store(&hg->level[fal_i], &fal_nv, __ATOMIC_RELAXED); FAL_SET_FLAG(hg->changed[0]); break; } } }
} else { 
#pragma omp parallel for schedule(dynamic, 256)
#line 41 "partition_mpi_gpu_level.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) { if (!(hg->level[t] == lev)) continue;
#line 41 "partition_mpi_gpu_level.fal"
                                             expand(t, hg, lev); } } } }
if (fal_mxh) { fal_G_mpi_end_rm(hg); fal_mpx_gather(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, hg->fal_mpi_gpu->level, 0); } else fal_G_mpi_end(hg); } fal_md4.pulls += fal_md4.dir && !fal_mxh; if (fal_dstate_counts(&fal_md4)) { long long fal_maw = 0, fal_msc = 0; int64_t fal_mlo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_mhi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; if (hg->fal_mpi_gpu) { fal_cuda_use(hg->fal_mpi_gpu->fal_base.device); fal_mdir_dcount<int>(&fal_md4_d, hg->fal_mpi_gpu->level, hg->fal_mpi_gpu->fal_base.csr.offsets, fal_mlo, fal_mhi, (long long)(lev), &fal_maw, &fal_msc); } else {
#pragma omp parallel for reduction(+ : fal_maw, fal_msc)
for (int64_t fal_i = fal_mlo; fal_i < fal_mhi; fal_i++) if (hg->level[fal_i] == (lev) + 1) { fal_maw++; fal_msc += hg->fal_base.csr.offsets[fal_i + 1] - hg->fal_base.csr.offsets[fal_i]; }
} fal_mdir_decide(&fal_md4, fal_maw, fal_msc); } }
#line 41 "partition_mpi_gpu_level.fal"

    lev++;
    if (hg->changed[0] == 0)
      break;
  } } if (fal_mx5.old) fal_mpx_leave(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, hg->fal_mpi_gpu->level, sizeof *hg->fal_mpi_gpu->level); fal_gprof_end("partition_mpi_gpu_level.fal", 39, "ranks (host)", fal_pt0, fal_ra); } fal_prof_end("partition_mpi_gpu_level.fal", 39, "pull rounds (ranks)", fal_prof_t0(), fal_md4.pulls); }
#line 45 "partition_mpi_gpu_level.fal"

  printf("%d levels\n", lev);
  return 0;
}
