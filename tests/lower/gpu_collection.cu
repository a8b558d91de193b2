#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_collection.fal"
/* §3.4, §3.5 on a GPU: Collections and Sets, foreach over a collection. */
struct item {
  int key;
  fal_point at;
};

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
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
  if (fal_regrow && d->dist) {
    FAL_CUDA(cudaFree(d->dist));
    d->dist = NULL;
  }
  fal_dcopy_in((void **)&d->dist, h->dist, (size_t)h->npoints * sizeof *d->dist, file, line);
}
static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  if (d->fal_base.device < 0)
    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);
  fal_cuda_use(d->fal_base.device);
  fal_G_elems_to_gpu(d, h, file, line);
}
static void fal_G_props_to_host(fal_G *h, const fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  h->npoints = d->npoints;
  h->nedges = d->nedges;
  h->directed = d->directed;
  fal_dcopy_out((void **)&h->dist, d->dist, (size_t)d->npoints * sizeof *h->dist);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->dist);
    h->dist = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.dist, sizeof *h.dist, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 7 "gpu_collection.fal"
fal_cstore fal_cst_pending; fal_coll fal_cs_pending = {0, (int64_t)sizeof(struct item), &fal_cst_pending}; fal_coll *pending = &fal_cs_pending;

__host__ __device__ void push_all(fal_point p, fal_G *g, fal_coll *next, fal_set *s)
{
  fal_local_coll fal_cs_mine(sizeof(fal_point)); fal_coll *mine = &fal_cs_mine.c;
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1]; fal_e2 < g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 13 "gpu_collection.fal"
    if (fal_set_find(s, t) != fal_set_find(s, p)) {
      fal_lcoll_addp(mine, (fal_point)(t));
      fal_coll_addp(next, (fal_point)(t));
    } } } }
#line 16 "gpu_collection.fal"

  { fal_coll *fal_c3 = mine; int64_t fal_n3 = fal_coll_size(fal_c3); for (int64_t fal_i3 = 0; fal_i3 < fal_n3; fal_i3++) { fal_point u = *(fal_point *)fal_lcoll_at(fal_c3, fal_i3); {
#line 17 "gpu_collection.fal"
                      fal_set_union(s, p, u); } } }
#line 17 "gpu_collection.fal"

}

#line 32 "gpu_collection.fal"
__global__ void fal_foreach_L32_4(fal_coll *fal_b, int64_t fal_n, fal_G fal_kv_g, fal_coll *b, fal_set fal_kv_s)
{
  fal_G *g = &fal_kv_g;
  fal_set *s = &fal_kv_s;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = *(fal_point *)fal_coll_at(fal_b, fal_i); {
#line 32 "gpu_collection.fal"
                     push_all(t, g, b, s); } }
}
#line 32 "gpu_collection.fal"
__global__ void fal_foreach_L32_4_drain(fal_coll *fal_c, long long *fal_w, fal_G fal_kv_g, fal_coll *b, fal_set fal_kv_s)
{
  fal_G *g = &fal_kv_g;
  fal_set *s = &fal_kv_s;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  for (;;) {
    fal_coll *fal_b = fal_c->cur;
    int64_t fal_n = fal_coll_size(fal_b);
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = *(fal_point *)fal_coll_at(fal_b, fal_i); {
#line 32 "gpu_collection.fal"
                     push_all(t, g, b, s); } }
    fal_grid.sync();
    if (!fal_drain_step(fal_c, fal_grid, fal_w))
      break;
  }
}
#line 20 "gpu_collection.fal"
int main()
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, "g.txt");
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  static fal_coll fal_cs_a; fal_coll *a = &fal_cs_a; fal_hc_init_gpu(a, sizeof(fal_point), &g->fal_base, -1); static fal_coll fal_cs_b; fal_coll *b = &fal_cs_b; fal_hc_init_gpu(b, sizeof(fal_point), &g->fal_base, -1);
  static fal_set fal_ss_s; fal_set *s = &fal_ss_s; fal_hs_init_gpu(s, &g->npoints, &g->fal_base);
  fal_hc_addp(a, (fal_point)((0)));
  fal_hc_order(a, &g->dist, 0, 4);
  while (fal_hc_size(a) > 0) {
    { fal_coll *fal_c5 = a; fal_hc_drain_begin(fal_c5); { fal_loop_sw fal_sw5 = {0}; for (int fal_r5 = 0; fal_hc_drain_next(fal_c5, fal_r5); fal_r5++) { int64_t fal_n5; fal_coll *fal_b5 = fal_hc_batch(fal_c5, &fal_n5); if (fal_n5 == 0) continue; fal_cuda_use(fal_c5->device); if (fal_gc_drain_switch(&fal_sw5, fal_c5, (const void *)fal_foreach_L32_4_drain, fal_n5)) { fal_gc_drain_room(fal_c5); fal_hc_prepare(b, __FILE__, __LINE__); fal_coop_launch_v(fal_foreach_L32_4_drain, "fal_foreach_L32_4_drain", __FILE__, __LINE__, fal_hc_dev(fal_c5), fal_gc_drain_scratch(fal_c5->device), *g, fal_hc_dev(b), *fal_hs_dev(s)); fal_gc_drain_sync(fal_c5); fal_hc_check(b, "b", __FILE__, __LINE__); break; } fal_hc_prepare(b, __FILE__, __LINE__); fal_foreach_L32_4<<<fal_cuda_grid(fal_n5), FAL_BLOCK>>>(fal_b5, fal_n5, *g, fal_hc_dev(b), *fal_hs_dev(s)); FAL_CHECK_LAUNCH("fal_foreach_L32_4"); fal_hc_check(b, "b", __FILE__, __LINE__); } } fal_hc_drain_end(fal_c5); }
    fal_hc_assign(a, b);
  }
  fal_point p;
  if (!(fal_hc_size(b) == 0) && fal_hc_size(b) > 1)
    fal_hc_pop(b, &(p));
  fal_hc_set_size(b, 0);
  fal_hc_set_size(b, 0);
  struct item x = {1, 0};
  [&]() { struct item fal_v = (x); fal_hc_add(pending, &fal_v); }();
  int k = fal_hc_get<struct item>(pending, 0).key + fal_hs_findc(s, (1)) + fal_hc_get<fal_point>(a, 0);
}
