#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_view.fal"
/* Graph views (§3.6) and single on a Collection (§4.3), CUDA target:
 * the view lives on the GPU graph, is resized there and copied back. */
struct tri {
  int lock;
  fal_point a, b;
  int nbr[3];
};

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *owner; /* point property */
  struct tri *tris; /* graph view (§3.6): ntris elements */
  int ntris;
  int64_t fal_cap_tris;
  fal_owner fal_own_tris; /* single (§4.3) */
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
  if (fal_regrow && d->owner) {
    FAL_CUDA(cudaFree(d->owner));
    d->owner = NULL;
  }
  fal_dcopy_in((void **)&d->owner, h->owner, (size_t)h->npoints * sizeof *d->owner, file, line);
}
static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  if (d->fal_base.device < 0)
    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);
  fal_cuda_use(d->fal_base.device);
  fal_G_elems_to_gpu(d, h, file, line);
  fal_view_to_gpu((void **)&d->tris, &d->fal_cap_tris, h->tris, h->ntris, sizeof *d->tris, file, line);
  d->ntris = h->ntris;
}
static void fal_G_props_to_host(fal_G *h, const fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  h->npoints = d->npoints;
  h->nedges = d->nedges;
  h->directed = d->directed;
  fal_dcopy_out((void **)&h->owner, d->owner, (size_t)d->npoints * sizeof *h->owner);
  fal_view_to_host((void **)&h->tris, &h->fal_cap_tris, d->tris, d->ntris, sizeof *h->tris);
  h->ntris = d->ntris;
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->owner);
    h->owner = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.owner, sizeof *h.owner, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
static int fal_G_resize_tris(fal_G *g, int64_t n, const char *file, int line)
{
  if (g->fal_base.on_gpu) {
    if (g->fal_base.device < 0)
      g->fal_base.device = fal_cuda_place(g->fal_base.want_device, file, line);
    fal_cuda_use(g->fal_base.device);
  }
  fal_view_resize_any((void **)&g->tris, &g->fal_cap_tris, g->ntris, n, sizeof *g->tris,
                      g->fal_base.on_gpu, file, line);
  return g->ntris = (int)n;
}
#line 9 "gpu_view.fal"
__device__ int conflicts = 0;

#line 20 "gpu_view.fal"
__global__ void fal_foreach_L20_1(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->ntris; fal_i += (int64_t)gridDim.x * blockDim.x) { int t = (int)fal_i; {
#line 20 "gpu_view.fal"
                        {
    g->tris[t].a = t;
    g->tris[t].nbr[1] = -1;
  } } }
}
#line 24 "gpu_view.fal"
__global__ void fal_foreach_L24_2(fal_G fal_kv_g, int fal_phase, unsigned char *fal_pend)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->ntris; fal_i += (int64_t)gridDim.x * blockDim.x) { int t = (int)fal_i; { if (fal_phase && !fal_pend[fal_i]) continue; { if (!(g->tris[t].lock == 0)) continue;
#line 24 "gpu_view.fal"
                                     {
    fal_local_coll fal_cs_cav(sizeof(fal_point)); fal_coll *cav = &fal_cs_cav.c;
    fal_lcoll_addp(cav, (fal_point)(g->tris[t].a));
    fal_lcoll_addp(cav, (fal_point)(g->tris[t].b));
    { const fal_coll *fal_sc4 = cav; if (!fal_phase) { fal_pend[fal_i] = 1; fal_own_claim(&g->fal_base.own[0], fal_sc4, fal_i); goto fal_skip3; } if (fal_own_holds(&g->fal_base.own[0], fal_sc4, fal_i)) {
      g->owner[g->tris[t].a] = t;
      g->tris[t].lock = 1;
    } else
      FAL_ATOMIC_ANY(add, &(conflicts), 1); }
  } } fal_skip3: ; } }
}
#line 35 "gpu_view.fal"
__global__ void fal_foreach_L35_5(fal_G fal_kv_g, fal_coll *work)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point p = (fal_point)fal_i; {
#line 35 "gpu_view.fal"
                          fal_coll_addp(work, (fal_point)(p)); } }
}
#line 36 "gpu_view.fal"
__global__ void fal_foreach_L36_6(fal_coll *fal_b, int64_t fal_n, fal_G fal_kv_g, int fal_phase, unsigned char *fal_pend)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point p = *(fal_point *)fal_coll_at(fal_b, fal_i); { if (fal_phase && !fal_pend[fal_i]) continue; {
#line 36 "gpu_view.fal"
                      {
    fal_local_coll fal_cs_nb(sizeof(fal_point)); fal_coll *nb = &fal_cs_nb.c;
    { const fal_point fal_p7 = p; FAL_UNROLL for (int64_t fal_e8 = g->fal_base.csr.offsets[fal_p7]; fal_e8 < g->fal_base.csr.offsets[fal_p7 + 1]; fal_e8++) { fal_point q = g->fal_base.csr.dst[fal_e8]; {
#line 38 "gpu_view.fal"
                             fal_lcoll_addp(nb, (fal_point)(q)); } } }
#line 38 "gpu_view.fal"

    { const fal_coll *fal_sc10 = nb; if (!fal_phase) { fal_pend[fal_i] = 1; fal_own_claim(&g->fal_base.own[0], fal_sc10, fal_i); goto fal_skip9; } if (fal_own_holds(&g->fal_base.own[0], fal_sc10, fal_i)) g->owner[p] = 1; }
  } } fal_skip9: ; } }
}
#line 11 "gpu_view.fal"
int main()
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->owner, sizeof(int), FAL_PROP_POINT);
  ((void)0);
  fal_G_read(hg, "mesh.txt");
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  fal_G_resize_tris(g, 4, __FILE__, __LINE__);
  { fal_cuda_use(g->fal_base.device); fal_foreach_L20_1<<<fal_cuda_grid(g->ntris), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L20_1"); }
#line 23 "gpu_view.fal"

  { fal_cuda_use(g->fal_base.device); fal_gpu_owner_begin(&g->fal_base.own[0], (int64_t)g->npoints, __FILE__, __LINE__); unsigned char *fal_pend = fal_gpu_pend_get((int64_t)g->ntris, g->fal_base.device, __FILE__, __LINE__); for (int fal_phase = 0; fal_phase < 2; fal_phase++) { fal_foreach_L24_2<<<fal_cuda_grid(g->ntris), FAL_BLOCK>>>(*g, fal_phase, fal_pend); FAL_CHECK_LAUNCH("fal_foreach_L24_2"); } }
#line 33 "gpu_view.fal"

  static fal_coll fal_cs_work; fal_coll *work = &fal_cs_work; fal_hc_init_gpu(work, sizeof(fal_point), &g->fal_base, -1);
  { fal_cuda_use(g->fal_base.device); fal_hc_prepare(work, __FILE__, __LINE__); fal_foreach_L35_5<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g, fal_hc_dev(work)); FAL_CHECK_LAUNCH("fal_foreach_L35_5"); fal_hc_check(work, "work", __FILE__, __LINE__); }
  { fal_coll *fal_c11 = work; fal_hc_drain_begin(fal_c11); { for (int fal_r11 = 0; fal_hc_drain_next(fal_c11, fal_r11); fal_r11++) { int64_t fal_n11; fal_coll *fal_b11 = fal_hc_batch(fal_c11, &fal_n11); if (fal_n11 == 0) continue; fal_cuda_use(fal_c11->device); fal_gpu_owner_begin(&g->fal_base.own[0], (int64_t)g->npoints, __FILE__, __LINE__); unsigned char *fal_pend = fal_gpu_pend_get((int64_t)fal_n11, fal_c11->device, __FILE__, __LINE__); for (int fal_phase = 0; fal_phase < 2; fal_phase++) { fal_foreach_L36_6<<<fal_cuda_grid(fal_n11), FAL_BLOCK>>>(fal_b11, fal_n11, *g, fal_phase, fal_pend); FAL_CHECK_LAUNCH("fal_foreach_L36_6"); } } } fal_hc_drain_end(fal_c11); }
#line 40 "gpu_view.fal"

  fal_G_to_host(hg, g);
  return hg->tris[0].lock + hg->ntris > 0 ? 0 : 1;
}
