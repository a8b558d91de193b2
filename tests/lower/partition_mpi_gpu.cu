#define FAL_HUB_KERNELS 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#include "falcon/mpi.cuh"
#define fopen(p, m) fal_mpi_fopen(p, m)
#line 1 "partition_mpi_gpu.fal"
/* falconc --mpi --target=gpu: partition_mpi.fal with each rank's points on
 * its GPU (the ghosts and border points staged through the host around
 * the MPI exchange; host writes marked for the GPU; the reduction takes
 * the own points back first).  As in partition_mpi.fal: each rank's points,
 * the ghost exchange after each foreach, a graph property combined, a
 * reduction over the rank's points summed by every rank, host reads
 * through fal_G_fresh.  Each foreach's record holds the point properties
 * it (or merge) may write: dist (bit 0) through MIN in relax and in merge,
 * hits (bit 1) through ++, none of seen (bit 2). */
#include <stdio.h>

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  int *hits; /* point property */
  char *seen; /* point property */
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
  if (fal_regrow && d->dist) {
    FAL_CUDA(cudaFree(d->dist));
    d->dist = NULL;
  }
  fal_dcopy_in((void **)&d->dist, h->dist, (size_t)h->npoints * sizeof *d->dist, file, line);
  if (fal_regrow && d->hits) {
    FAL_CUDA(cudaFree(d->hits));
    d->hits = NULL;
  }
  fal_dcopy_in((void **)&d->hits, h->hits, (size_t)h->npoints * sizeof *d->hits, file, line);
  if (fal_regrow && d->seen) {
    FAL_CUDA(cudaFree(d->seen));
    d->seen = NULL;
  }
  fal_dcopy_in((void **)&d->seen, h->seen, (size_t)h->npoints * sizeof *d->seen, file, line);
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
  fal_dcopy_out((void **)&h->dist, d->dist, (size_t)d->npoints * sizeof *h->dist);
  fal_dcopy_out((void **)&h->hits, d->hits, (size_t)d->npoints * sizeof *h->hits);
  fal_dcopy_out((void **)&h->seen, d->seen, (size_t)d->npoints * sizeof *h->seen);
  fal_dcopy_out((void **)&h->changed, d->changed, 1 * sizeof *h->changed);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->dist);
    h->dist = NULL;
    fal_free(h->hits);
    h->hits = NULL;
    fal_free(h->seen);
    h->seen = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.dist, sizeof *h.dist, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.hits, sizeof *h.hits, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.seen, sizeof *h.seen, FAL_PROP_POINT);
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
enum { FAL_MPI_REC_MAX = 1 + sizeof(int) + sizeof(int) + sizeof(char) };
static __host__ __device__ void fal_G_mpi_pack_m(const fal_G *g, fal_point p, void *rec, uint64_t m)
{
  unsigned char *w = (unsigned char *)rec;
  (void)g; (void)p; (void)w; (void)m;
  if ((m >> 0 & 1)) {
    if (g->dist)
      memcpy(w, &g->dist[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
  if ((m >> 1 & 1)) {
    if (g->hits)
      memcpy(w, &g->hits[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
  if ((m >> 2 & 1)) {
    if (g->seen)
      memcpy(w, &g->seen[p], sizeof(char));
    else
      memset(w, 0, sizeof(char));
    w += sizeof(char);
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
    if (g->dist)
      memcpy(&g->dist[p], r, sizeof(int));
    r += sizeof(int);
  }
  if ((m >> 1 & 1)) {
    if (g->hits)
      memcpy(&g->hits[p], r, sizeof(int));
    r += sizeof(int);
  }
  if ((m >> 2 & 1)) {
    if (g->seen)
      memcpy(&g->seen[p], r, sizeof(char));
    r += sizeof(char);
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
    if ((m >> 0 & 1) && g.dist)
      ((int *)b)[x] = g.dist[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 1 & 1) && g.hits)
      ((int *)b)[x] = g.hits[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 2 & 1) && g.seen)
      ((char *)b)[x] = g.seen[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(char));
  }
}
__global__ void fal_G_mpi_dscatter(fal_G g, const fal_point *ids, int64_t n, const unsigned char *buf, uint64_t m)
{
  for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n; x += (int64_t)gridDim.x * blockDim.x) {
    const unsigned char *b = buf;
    if ((m >> 0 & 1) && g.dist)
      g.dist[ids[x]] = ((const int *)b)[x];
    b += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 1 & 1) && g.hits)
      g.hits[ids[x]] = ((const int *)b)[x];
    b += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 2 & 1) && g.seen)
      g.seen[ids[x]] = ((const char *)b)[x];
    b += FAL_MPI_SEG(n, sizeof(char));
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
      if ((m >> 0 & 1) && g.dist)
        ch = ch || fal_bx_differs(g.dist[ids[x]], ((const int *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(int));
      if ((m >> 1 & 1) && g.hits)
        ch = ch || fal_bx_differs(g.hits[ids[x]], ((const int *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(int));
      if ((m >> 2 & 1) && g.seen)
        ch = ch || fal_bx_differs(g.seen[ids[x]], ((const char *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(char));
    }
    long long q = fal_mpi_slot(ch, cnt);
    if (q < 0)
      continue;
    cx[q] = x;
    unsigned char *b = buf;
    (void)b;
    if ((m >> 0 & 1) && g.dist)
      ((int *)b)[q] = g.dist[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 1 & 1) && g.hits)
      ((int *)b)[q] = g.hits[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 2 & 1) && g.seen)
      ((char *)b)[q] = g.seen[ids[x]];
    b += FAL_MPI_SEG(n, sizeof(char));
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
  if ((m >> 0 & 1) && h->dist)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)k * sizeof(int), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(int));
  if ((m >> 1 & 1) && h->hits)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)k * sizeof(int), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(int));
  if ((m >> 2 & 1) && h->seen)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)k * sizeof(char), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(char));
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
    if ((m >> 0 & 1) && h->dist)
      h->dist[ids[x]] = ((const int *)(h->fal_mpi_hbuf + o))[q];
    o += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 1 & 1) && h->hits)
      h->hits[ids[x]] = ((const int *)(h->fal_mpi_hbuf + o))[q];
    o += FAL_MPI_SEG(n, sizeof(int));
    if ((m >> 2 & 1) && h->seen)
      h->seen[ids[x]] = ((const char *)(h->fal_mpi_hbuf + o))[q];
    o += FAL_MPI_SEG(n, sizeof(char));
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
    if ((m >> 0 & 1) && h->dist)
      ((int *)(h->fal_mpi_hbuf + o))[q] = h->dist[pt[q]];
    o += FAL_MPI_SEG(k, sizeof(int));
    if ((m >> 1 & 1) && h->hits)
      ((int *)(h->fal_mpi_hbuf + o))[q] = h->hits[pt[q]];
    o += FAL_MPI_SEG(k, sizeof(int));
    if ((m >> 2 & 1) && h->seen)
      ((char *)(h->fal_mpi_hbuf + o))[q] = h->seen[pt[q]];
    o += FAL_MPI_SEG(k, sizeof(char));
  }
  size_t o = 0;
  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dpid, hid, (size_t)k * sizeof *hid, cudaMemcpyHostToDevice, 0));
  if ((m >> 0 & 1) && h->dist)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, h->fal_mpi_hbuf + o, (size_t)k * sizeof(int), cudaMemcpyHostToDevice, 0));
  o += FAL_MPI_SEG(k, sizeof(int));
  if ((m >> 1 & 1) && h->hits)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, h->fal_mpi_hbuf + o, (size_t)k * sizeof(int), cudaMemcpyHostToDevice, 0));
  o += FAL_MPI_SEG(k, sizeof(int));
  if ((m >> 2 & 1) && h->seen)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, h->fal_mpi_hbuf + o, (size_t)k * sizeof(char), cudaMemcpyHostToDevice, 0));
  o += FAL_MPI_SEG(k, sizeof(char));
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
  if (n && (m >> 0 & 1) && h->dist)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(int));
  if (n && (m >> 1 & 1) && h->hits)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(int));
  if (n && (m >> 2 & 1) && h->seen)
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hbuf + o, h->fal_mpi_dbuf + o, (size_t)n * sizeof(char), cudaMemcpyDeviceToHost, 0));
  o += FAL_MPI_SEG(n, sizeof(char));
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
  if (n && (m >> 0 & 1) && h->dist) {
    const int *b = (const int *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      h->dist[ids[x]] = b[x];
  }
  o += FAL_MPI_SEG(n, sizeof(int));
  if (n && (m >> 1 & 1) && h->hits) {
    const int *b = (const int *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      h->hits[ids[x]] = b[x];
  }
  o += FAL_MPI_SEG(n, sizeof(int));
  if (n && (m >> 2 & 1) && h->seen) {
    const char *b = (const char *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      h->seen[ids[x]] = b[x];
  }
  o += FAL_MPI_SEG(n, sizeof(char));
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
  if ((m >> 0 & 1) && h->dist) {
    int *b = (int *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      b[x] = h->dist[ids[x]];
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, b, (size_t)n * sizeof(int), cudaMemcpyHostToDevice, 0));
  }
  o += FAL_MPI_SEG(n, sizeof(int));
  if ((m >> 1 & 1) && h->hits) {
    int *b = (int *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      b[x] = h->hits[ids[x]];
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, b, (size_t)n * sizeof(int), cudaMemcpyHostToDevice, 0));
  }
  o += FAL_MPI_SEG(n, sizeof(int));
  if ((m >> 2 & 1) && h->seen) {
    char *b = (char *)(h->fal_mpi_hbuf + o);
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < n; x++)
      b[x] = h->seen[ids[x]];
    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, b, (size_t)n * sizeof(char), cudaMemcpyHostToDevice, 0));
  }
  o += FAL_MPI_SEG(n, sizeof(char));
  fal_G_mpi_dscatter<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dbuf, m);
  FAL_CHECK_LAUNCH("fal_G_mpi_dscatter");
}
static void fal_G_dirty_to(const fal_G *h, fal_G *q)
{
  for (int d = 0; d < h->fal_ndirty; d++) {
    fal_point p = h->fal_dirty_pt[d];
    (void)p; /* (no point property) */
    if (h->dist && q->dist)
      FAL_CUDA(cudaMemcpy(q->dist + p, h->dist + p, sizeof *h->dist, cudaMemcpyDefault));
    if (h->hits && q->hits)
      FAL_CUDA(cudaMemcpy(q->hits + p, h->hits + p, sizeof *h->hits, cudaMemcpyDefault));
    if (h->seen && q->seen)
      FAL_CUDA(cudaMemcpy(q->seen + p, h->seen + p, sizeof *h->seen, cudaMemcpyDefault));
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
  if (h->dist && d->dist && hi > lo)
    FAL_CUDA(cudaMemcpy(h->dist + lo, d->dist + lo, (size_t)(hi - lo) * sizeof *h->dist, cudaMemcpyDeviceToHost));
  if (h->hits && d->hits && hi > lo)
    FAL_CUDA(cudaMemcpy(h->hits + lo, d->hits + lo, (size_t)(hi - lo) * sizeof *h->hits, cudaMemcpyDeviceToHost));
  if (h->seen && d->seen && hi > lo)
    FAL_CUDA(cudaMemcpy(h->seen + lo, d->seen + lo, (size_t)(hi - lo) * sizeof *h->seen, cudaMemcpyDeviceToHost));
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
      if ((m >> 0 & 1) && g.dist)
        ch = ch || fal_bx_differs(g.dist[ids[x]], ((const int *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(int));
      if ((m >> 1 & 1) && g.hits)
        ch = ch || fal_bx_differs(g.hits[ids[x]], ((const int *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(int));
      if ((m >> 2 & 1) && g.seen)
        ch = ch || fal_bx_differs(g.seen[ids[x]], ((const char *)s)[x]);
      s += FAL_MPI_SEG(n, sizeof(char));
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
  void *fal_pp[] = {NULL, d ? (void *)d->dist : NULL, d ? (void *)d->hits : NULL, d ? (void *)d->seen : NULL};
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
  bytes += FAL_MPI_SEG(n, sizeof(int));
  bytes += FAL_MPI_SEG(n, sizeof(char));
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
    if (h->dist)
      in->dist = (int *)fal_dalloc(((size_t)pl->most + 1) * sizeof(int), file, line);
    if (h->hits)
      in->hits = (int *)fal_dalloc(((size_t)pl->most + 1) * sizeof(int), file, line);
    if (h->seen)
      in->seen = (char *)fal_dalloc(((size_t)pl->most + 1) * sizeof(char), file, line);
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
  rec += sizeof(int);
  rec += sizeof(char);
  h->fal_mpi = (fal_mpi_plan *)fal_calloc(1, sizeof *h->fal_mpi);
  fal_mpi_plan_init(h->fal_mpi, &h->fal_base.csr, rec);
  /* a one-point copy per thread: incoming records merge in parallel */
  h->fal_mpi_nin = fal_mpi_threads();
  h->fal_mpi_in = (fal_G *)fal_calloc((size_t)h->fal_mpi_nin, sizeof(fal_G));
  for (int t = 0; t < h->fal_mpi_nin; t++) {
    fal_G *in = &h->fal_mpi_in[t];
    (void)in;
    if (h->dist)
      in->dist = (int *)fal_calloc(1, sizeof(int));
    if (h->hits)
      in->hits = (int *)fal_calloc(1, sizeof(int));
    if (h->seen)
      in->seen = (char *)fal_calloc(1, sizeof(char));
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
  fal_mpi_gather(h->fal_mpi, h->dist, sizeof(int), NULL);
  fal_mpi_gather(h->fal_mpi, h->hits, sizeof(int), NULL);
  fal_mpi_gather(h->fal_mpi, h->seen, sizeof(char), NULL);
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
    if (d->dist && h->dist)
      FAL_CUDA(cudaMemcpy(h->dist + p, d->dist + p, sizeof *d->dist, cudaMemcpyDefault));
    if (d->hits && h->hits)
      FAL_CUDA(cudaMemcpy(h->hits + p, d->hits + p, sizeof *d->hits, cudaMemcpyDefault));
    if (d->seen && h->seen)
      FAL_CUDA(cudaMemcpy(h->seen + p, d->seen + p, sizeof *d->seen, cudaMemcpyDefault));
  }
  if (h->dist)
    fal_mpi_bcast_from(h->dist + p, sizeof *h->dist, o);
  if (h->hits)
    fal_mpi_bcast_from(h->hits + p, sizeof *h->hits, o);
  if (h->seen)
    fal_mpi_bcast_from(h->seen + p, sizeof *h->seen, o);
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
  if ((mask >> 1 & 1))
    cur += sizeof(int);
  if ((mask >> 2 & 1))
    cur += sizeof(char);
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
#line 12 "partition_mpi_gpu.fal"
__host__ __device__ void relax(fal_point p, fal_G *hg)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = hg->fal_base.csr.dst[fal_e2]; {
#line 15 "partition_mpi_gpu.fal"
    (fal_ra_mm<0, 1>(hg->fal_rmt, hg->dist, &(hg->dist[t]), (hg->dist[p] + hg->fal_base.csr.weight[fal_e2])) ? (FAL_SET_FLAG(hg->changed[0]), 1) : 0); } } }
#line 15 "partition_mpi_gpu.fal"

}

__host__ __device__ void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->dist[orig] > fal_g_incom->dist[incom])
    fal_g_orig->dist[orig] = fal_g_incom->dist[incom];
}

#line 34 "partition_mpi_gpu.fal"
__global__ void fal_foreach_L34_3(fal_G fal_kv_hg, int64_t fal_lo, int64_t fal_hi)
{
  fal_G *hg = &fal_kv_hg;
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 34 "partition_mpi_gpu.fal"
                           hg->dist[t] = 1000000; } }
}
__device__ long long fal_lr_fal_loopown_L36_6;
#line 36 "partition_mpi_gpu.fal"
__global__ void fal_loopown_L36_6(fal_G fal_kv_hg, fal_px fal_px)
{
  fal_G *hg = &fal_kv_hg;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;
  long long fal_rounds = 0;
  fal_G_gb fal_gv; /* the graph properties as the last exchange left them */
  fal_G_px_before(hg, &fal_gv);
  int *fal_snp = (int *)fal_px.seen; /* the part's last-seen values, or NULL */
  int fal_tvk = fal_px.tv;
  fal_ra_begin();
  if (!fal_px_start(fal_grid, fal_px))
    return;
  int fal_brk = 1;
  do { /* round 0: the condition and the flag's zeroing */
    if (!(1))
      break;
#line 37 "partition_mpi_gpu.fal"
    if (fal_leader) hg->changed[0] = 0;
    fal_brk = 0;
  } while (0);
  fal_grid.sync();
  while (!fal_brk) {
    for (int64_t fal_i = fal_px.lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_px.hi; fal_i += (int64_t)gridDim.x * blockDim.x) { if (fal_snp) { int fal_sv = hg->dist[fal_i]; if (fal_tvk && fal_sv == fal_snp[fal_i - fal_px.lo]) continue; fal_snp[fal_i - fal_px.lo] = fal_sv; } do { fal_point t = (fal_point)fal_i; {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } } while (0); }
    fal_tvk = 1;
    fal_rounds++;
    if (!fal_ra_round(fal_grid, fal_px, &hg->changed[0]))
      break;
  }
  if (fal_leader) {
    fal_lr_fal_loopown_L36_6 = fal_rounds;
  }
}
__device__ long long fal_lr_fal_loopownw_L36_7;
#line 36 "partition_mpi_gpu.fal"
__global__ void __launch_bounds__(FAL_BLOCK, FAL_PW_BLOCKS) fal_loopownw_L36_7(fal_G fal_kv_hg, fal_px fal_px, fal_pw fal_pw)
{
  fal_G *hg = &fal_kv_hg;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0;
  fal_wbegin();
  long long fal_rounds = 0;
  fal_G_gb fal_gv; /* the graph properties as the last exchange left them */
  fal_G_px_before(hg, &fal_gv);
  int *fal_snp = (int *)fal_px.seen; /* the part's last-seen values, or NULL */
  int fal_tvk = fal_px.tv;
  fal_ra_begin();
  if (!fal_px_start(fal_grid, fal_px))
    return;
  unsigned fal_wr = 0; /* the phase's rounds (part_phase_warp) */
  int fal_brk = 1;
  do { /* round 0: the condition and the flag's zeroing */
    if (!(1))
      break;
#line 37 "partition_mpi_gpu.fal"
    if (fal_leader) hg->changed[0] = 0;
    fal_brk = 0;
  } while (0);
  fal_grid.sync();
  while (!fal_brk) {
    if (fal_leader) fal_pw_next(fal_pw, fal_wr);
    if (fal_pw.hk.nh) { /* the hubs' decisions, then their pieces */
      for (int64_t fal_q = blockIdx.x * (int64_t)(blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x; fal_q < fal_pw.hk.nh; fal_q += (int64_t)gridDim.x * blockDim.x * blockDim.y) { int64_t fal_i = fal_pw.hk.d[fal_pw.hk.h0 + fal_q]; bool fal_go = true; if (fal_snp) { int fal_sv = hg->dist[fal_i]; if (fal_tvk && fal_sv == fal_snp[fal_i - fal_px.lo]) fal_go = false; else fal_snp[fal_i - fal_px.lo] = fal_sv; } fal_pw.go[fal_q] = fal_go; }
      fal_grid.sync();
      fal_bbegin();
      if (threadIdx.x == 0 && threadIdx.y == 0)
        fal_wdec = true; /* (decided above) */
      __syncthreads();
      for (int64_t fal_q; (fal_q = fal_pw_piece(fal_pw, fal_wr)) >= 0;) { int64_t fal_h = fal_pw.hk.ih[fal_q]; if (!fal_pw.go[fal_h - fal_pw.hk.h0]) continue; int64_t fal_i = fal_pw.hk.d[fal_h]; fal_hpiece(fal_pw.hk, fal_q, fal_h); do { fal_point t = (fal_point)fal_i; {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } } while (0); }
      fal_wbegin();
    }
    for (int64_t fal_c; (fal_c = fal_pw_group(fal_pw, fal_wr, fal_px.lo, fal_px.hi)) >= 0;) {
      unsigned fal_lm;
      { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
        if (fal_i < fal_px.hi && !FAL_HUB(hg, (fal_point)fal_i, fal_pw.hd)) { fal_tk = true; if (fal_snp) { int fal_sv = hg->dist[fal_i]; if (fal_tvk && fal_sv == fal_snp[fal_i - fal_px.lo]) fal_tk = false; else fal_snp[fal_i - fal_px.lo] = fal_sv; } }
        fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
      while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; do { fal_point t = (fal_point)fal_i; {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } } while (0); }
    }
    fal_wr++;
    fal_tvk = 1;
    fal_rounds++;
    if (!fal_ra_round(fal_grid, fal_px, &hg->changed[0]))
      break;
  }
  if (fal_leader) {
    fal_lr_fal_loopownw_L36_7 = fal_rounds;
  }
}
#line 38 "partition_mpi_gpu.fal"
__global__ void fal_foreach_L38_8(fal_G fal_kv_hg, int64_t fal_lo, int64_t fal_hi, int *fal_snp, int fal_tvk, unsigned *fal_svis, unsigned fal_ep, int fal_chk)
{
  fal_G *hg = &fal_kv_hg;
  if (fal_svis && fal_chk) {
    __shared__ int fal_rq;
    if (threadIdx.x == 0 && threadIdx.y == 0)
      fal_rq = *(volatile unsigned *)fal_svis + 1 < fal_ep;
    __syncthreads();
    if (fal_rq)
      return;
  }
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { if (fal_snp) { int fal_sv = hg->dist[fal_i]; if (fal_tvk && fal_sv == fal_snp[fal_i - fal_lo]) continue; fal_snp[fal_i - fal_lo] = fal_sv; if (fal_svis && fal_tvk && *fal_svis != fal_ep) *fal_svis = fal_ep; } fal_point t = (fal_point)fal_i; {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } }
}
#line 38 "partition_mpi_gpu.fal"
__global__ void fal_foreach_L38_8_w(fal_G fal_kv_hg, int64_t fal_lo, int64_t fal_hi, int *fal_snp, int fal_tvk, unsigned *fal_svis, unsigned fal_ep, int fal_chk, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *hg = &fal_kv_hg;
  if (fal_svis && fal_chk) {
    __shared__ int fal_rq;
    if (threadIdx.x == 0 && threadIdx.y == 0)
      fal_rq = *(volatile unsigned *)fal_svis + 1 < fal_ep;
    __syncthreads();
    if (fal_rq)
      return;
  }
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  __shared__ int fal_hsk; /* the block's hub is skipped */
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; if (fal_snp) { int fal_sv = hg->dist[fal_i]; if (fal_tvk && fal_sv == fal_snp[fal_i - fal_lo]) fal_go = false; else { fal_snp[fal_i - fal_lo] = fal_sv; if (fal_svis && fal_tvk && *fal_svis != fal_ep) *fal_svis = fal_ep; } } fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { if (fal_snp) { __syncthreads(); if (threadIdx.x == 0 && threadIdx.y == 0) { int fal_sv = hg->dist[fal_i]; fal_hsk = fal_tvk && fal_sv == fal_snp[fal_i - fal_lo]; if (!fal_hsk) { fal_snp[fal_i - fal_lo] = fal_sv; if (fal_svis && fal_tvk && *fal_svis != fal_ep) *fal_svis = fal_ep; } } __syncthreads(); if (fal_hsk) continue; } }
    { fal_point t = (fal_point)fal_i; {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } } }
  } else
  for (int64_t fal_c = fal_lo + ((blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y) * 32; fal_c < fal_hi; fal_c += (int64_t)(gridDim.x - fal_hb) * blockDim.y * 32) {
    unsigned fal_lm;
    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
      if (fal_i < fal_hi) { fal_point t = (fal_point)fal_i; if (!FAL_HUB(hg, t, fal_hd)) { fal_tk = true; if (fal_snp) { int fal_sv = hg->dist[fal_i]; if (fal_tvk && fal_sv == fal_snp[fal_i - fal_lo]) fal_tk = false; else { fal_snp[fal_i - fal_lo] = fal_sv; if (fal_svis && fal_tvk && *fal_svis != fal_ep) *fal_svis = fal_ep; } } } }
      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; { fal_point t = (fal_point)fal_i; {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } } }
  }
}
#line 42 "partition_mpi_gpu.fal"
__global__ void fal_foreach_L42_9(fal_G fal_kv_hg, int64_t fal_lo, int64_t fal_hi)
{
  fal_G *hg = &fal_kv_hg;
  for (int64_t fal_i = fal_lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_hi; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; { if (!(hg->seen[t] == 0)) continue;
#line 42 "partition_mpi_gpu.fal"
                                        hg->hits[t]++; } }
}
#line 24 "partition_mpi_gpu.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->hits, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->seen, sizeof(char), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read_rows(hg, argv[1]);
  fal_G_partition(hg, 1, 0, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { fal_G_mpi_begin(hg, 34, 0x1u, FAL_EX_ALIKE); { fal_G *fal_part = hg->fal_mpi_gpu ? hg->fal_mpi_gpu : hg; int64_t fal_lo = 0, fal_hi = hg->npoints; if (fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; { fal_cuda_use(hg->fal_base.device); fal_foreach_L34_3<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, fal_lo, fal_hi); FAL_CHECK_LAUNCH("fal_foreach_L34_3"); } } else { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 34 "partition_mpi_gpu.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 34 "partition_mpi_gpu.fal"
                           hg->dist[t] = 1000000; } } }
fal_G_mpi_end_alike(hg); }
#line 34 "partition_mpi_gpu.fal"

  hg->dist[fal_G_mpi_wr(hg, (0))] = 0;
  { static fal_seen fal_sn4; static fal_rep fal_rp4; int fal_tv4 = 0, fal_tok4 = !hg->fal_mpi || hg->fal_mpi->nranks < 2 || hg->fal_merge != NULL; { static fal_mpx fal_mx5; fal_loop_sw fal_sw = {0}; fal_mpx_ready(&fal_mx5, hg->fal_mpxg, hg->fal_mpi_gpu ? (void *)hg->fal_mpi_gpu->dist : NULL, 0, __FILE__, __LINE__); double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; while (1) { if (fal_mpx_switch_f(&fal_sw, &fal_mx5, hg->fal_mpi, hg->fal_mpi_gpu && fal_warp_pick(&hg->fal_mpi_gpu->fal_base), fal_sw.state == 0 && hg->fal_mpi_gpu && fal_pw_pick_ranks(&hg->fal_mpi_gpu->fal_base), (const void *)fal_loopown_L36_6, "partition_mpi_gpu.fal", 36)) { int fal_pgo = 0; if (hg->fal_mpi_gpu && fal_pw_pick_ranks(&hg->fal_mpi_gpu->fal_base)) { { double fal_pt0 = fal_prof_t0(); fal_G_mpi_dbegin(hg); fal_G *fal_d = hg->fal_mpi_gpu; fal_px fal_mpxp = fal_mx5.px; void *fal_pa[3]; static fal_pwh fal_pwm; fal_pw fal_pwv = fal_pw_make(&fal_pwm, 0, &fal_d->fal_base, fal_mpxp.lo, fal_mpxp.hi, __FILE__, __LINE__); fal_pa[2] = (void *)&fal_pwv; fal_mpxp.seen = fal_tok4 ? (int *)fal_seen_get(&fal_sn4, 0, fal_d->fal_base.device, (size_t)(fal_mpxp.hi - fal_mpxp.lo) * sizeof(int)) : NULL; fal_mpxp.tv = fal_tv4; fal_pa[0] = (void *)fal_d; fal_pa[1] = (void *)&fal_mpxp; fal_d->fal_rmt = fal_mpx_rmv(&fal_mx5, fal_mx5.df); int fal_pok = fal_mpx_run_w(&fal_mx5, (const void *)fal_loopownw_L36_7, fal_pa, 1, "fal_loopownw_L36_7", __FILE__, __LINE__); fal_d->fal_rmt = fal_rmv_none(); if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loopownw_L36_7, sizeof fal_lr)); fal_mpx_leave(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, fal_d->dist, sizeof *fal_d->dist); hg->fal_mpi_devstale = 1; hg->fal_mpi_stale = hg->fal_mpi->nranks > 1; fal_G_mpi_gp_back(hg); fal_gprof_end("partition_mpi_gpu.fal", 36, "ranks (own rounds)", fal_pt0, fal_lr); } } } else { { double fal_pt0 = fal_prof_t0(); fal_G_mpi_dbegin(hg); fal_G *fal_d = hg->fal_mpi_gpu; fal_px fal_mpxp = fal_mx5.px; void *fal_pa[2]; fal_mpxp.seen = fal_tok4 ? (int *)fal_seen_get(&fal_sn4, 0, fal_d->fal_base.device, (size_t)(fal_mpxp.hi - fal_mpxp.lo) * sizeof(int)) : NULL; fal_mpxp.tv = fal_tv4; fal_pa[0] = (void *)fal_d; fal_pa[1] = (void *)&fal_mpxp; fal_d->fal_rmt = fal_mpx_rmv(&fal_mx5, fal_mx5.df); int fal_pok = fal_mpx_run(&fal_mx5, (const void *)fal_loopown_L36_6, fal_pa, "fal_loopown_L36_6", __FILE__, __LINE__); fal_d->fal_rmt = fal_rmv_none(); if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loopown_L36_6, sizeof fal_lr)); fal_mpx_leave(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, fal_d->dist, sizeof *fal_d->dist); hg->fal_mpi_devstale = 1; hg->fal_mpi_stale = hg->fal_mpi->nranks > 1; fal_G_mpi_gp_back(hg); fal_gprof_end("partition_mpi_gpu.fal", 36, "ranks (own rounds)", fal_pt0, fal_lr); } } } if (fal_pgo) break; fal_sw.state = 2; } fal_ra++; {
    hg->changed[0] = 0;
    { void *fal_mxh = fal_mpx_host(&fal_mx5); { fal_G_mpi_begin(hg, 38, 0x1u, fal_mxh ? FAL_EX_OWNERS : FAL_EX_MERGE); { fal_G *fal_part = hg->fal_mpi_gpu ? hg->fal_mpi_gpu : hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; if (fal_part->fal_base.on_gpu) { fal_part->fal_rmt = fal_mpx_ctx(&fal_mx5, fal_mxh); int *fal_snp = fal_tok4 ? (int *)fal_seen_get(&fal_sn4, 0, fal_part->fal_base.device, (size_t)(fal_hi - fal_lo) * sizeof(int)) : NULL; fal_mpi_plan *fal_mp = hg->fal_mpi; fal_rep_round(&fal_rp4); for (;;) { unsigned *fal_svis = fal_snp ? fal_rep_arm(&fal_rp4) : NULL; fal_G *hg = fal_part; { fal_cuda_use(hg->fal_base.device); if (fal_warp_pick(&hg->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&hg->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hubs_range(fal_hb, fal_lo, fal_hi, &fal_h0); fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L38_8_w<<<fal_hbk + fal_cuda_grid((int64_t)(fal_hi - fal_lo) * 32), dim3(32, FAL_BLOCK / 32)>>>(*hg, fal_lo, fal_hi, fal_snp, fal_tv4, fal_svis, fal_rp4.ep, fal_rp4.chk, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L38_8<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, fal_lo, fal_hi, fal_snp, fal_tv4, fal_svis, fal_rp4.ep, fal_rp4.chk); FAL_CHECK_LAUNCH("fal_foreach_L38_8"); } int fal_rfirst = !fal_tv4; fal_tv4 = 1; fal_mp->dev_reps++; if (!fal_rep_next(&fal_rp4, fal_snp != NULL, fal_rfirst)) break; } fal_part->fal_rmt = fal_rmv_none(); } else { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 38 "partition_mpi_gpu.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 38 "partition_mpi_gpu.fal"
                             relax(t, hg); } } }
if (fal_mxh) { fal_G_mpi_end_rm(hg); fal_mpx_gather(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, hg->fal_mpi_gpu->dist, 0); } else fal_G_mpi_end(hg); } }
#line 38 "partition_mpi_gpu.fal"

    if (hg->changed[0] == 0)
      break;
  } } if (fal_mx5.old) fal_mpx_leave(&fal_mx5, hg->fal_mpi, hg->fal_mpi_did, hg->fal_mpi_gpu->dist, sizeof *hg->fal_mpi_gpu->dist); fal_gprof_end("partition_mpi_gpu.fal", 36, "ranks (host)", fal_pt0, fal_ra); } }
#line 41 "partition_mpi_gpu.fal"

  { fal_G_mpi_begin(hg, 42, 0x3u, FAL_EX_OWN); { fal_G *fal_part = hg->fal_mpi_gpu ? hg->fal_mpi_gpu : hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; if (fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; { fal_cuda_use(hg->fal_base.device); fal_foreach_L42_9<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(*hg, fal_lo, fal_hi); FAL_CHECK_LAUNCH("fal_foreach_L42_9"); } } else { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 42 "partition_mpi_gpu.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) { if (!(hg->seen[t] == 0)) continue;
#line 42 "partition_mpi_gpu.fal"
                                        hg->hits[t]++; } } }
fal_G_mpi_end(hg); }
#line 42 "partition_mpi_gpu.fal"

  long total = 0;
  { __typeof__(total) fal_r10 = 0; fal_G_mpi_own(hg);
#pragma omp parallel for reduction(+:fal_r10)
#line 44 "partition_mpi_gpu.fal"
for (int64_t fal_i10 = hg->fal_mpi->lo[hg->fal_mpi->rank]; fal_i10 < hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; fal_i10++)  fal_r10 += (hg->dist[fal_i10]); fal_mpi_reduce(fal_r10, 0); total += fal_r10; }
#line 44 "partition_mpi_gpu.fal"

  printf("%ld %d\n", total, fal_G_fresh(hg)->dist[(1)]);
  return 0;
}
