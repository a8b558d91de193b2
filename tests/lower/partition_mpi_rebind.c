#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#include "falcon/mpi.h"
#define fopen(p, m) fal_mpi_fopen(p, m)
#line 1 "partition_mpi_rebind.fal"
/* falconc --mpi: a foreach whose body gives its loop variable another
 * point (`t = 0`) may then write any point through it, so the analyses
 * that trust `t.x` to be the loop's own point give up: the foreach is
 * exchanged as one that writes others' points (FAL_EX_MERGE), with `x` in
 * its record, and every rank reads the whole graph.  What ghosts hold is
 * then unknown too, so the foreach after it, which writes only its own
 * point, still sends `y` (without the reassignment it would send
 * nothing: nothing reads `y` at another point). */
#include <stdio.h>

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *x; /* point property */
  int *y; /* point property */
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
enum { FAL_MPI_REC_MAX = 1 + sizeof(int) + sizeof(int) };
static void fal_G_mpi_pack_m(const fal_G *g, fal_point p, void *rec, uint64_t m)
{
  unsigned char *w = (unsigned char *)rec;
  (void)g; (void)p; (void)w; (void)m;
  if ((m >> 0 & 1)) {
    if (g->x)
      memcpy(w, &g->x[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
  if ((m >> 1 & 1)) {
    if (g->y)
      memcpy(w, &g->y[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
}
static void fal_G_mpi_pack(void *gv, fal_point p, void *rec)
{
  fal_G_mpi_pack_m((const fal_G *)gv, p, rec, ((const fal_G *)gv)->fal_mpi_mask);
}
static void fal_G_mpi_unpack(fal_G *g, fal_point p, const unsigned char *r, uint64_t m)
{
  (void)g; (void)p; (void)r; (void)m;
  if ((m >> 0 & 1)) {
    if (g->x)
      memcpy(&g->x[p], r, sizeof(int));
    r += sizeof(int);
  }
  if ((m >> 1 & 1)) {
    if (g->y)
      memcpy(&g->y[p], r, sizeof(int));
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
  if (ngpu > 0 && fal_mpi_rank() == 0)
    fprintf(stderr, "falcon: note: --mpi: the %d GPU part(s) of each rank run on its host\n", ngpu);
  h->fal_nparts = k; /* per rank; a rank's host parts share its memory */
  size_t rec = 0;
  rec += sizeof(int);
  rec += sizeof(int);
  h->fal_mpi = (fal_mpi_plan *)fal_calloc(1, sizeof *h->fal_mpi);
  fal_mpi_plan_init(h->fal_mpi, &h->fal_base.csr, rec);
  /* a one-point copy per thread: incoming records merge in parallel */
  h->fal_mpi_nin = fal_mpi_threads();
  h->fal_mpi_in = (fal_G *)fal_calloc((size_t)h->fal_mpi_nin, sizeof(fal_G));
  for (int t = 0; t < h->fal_mpi_nin; t++) {
    fal_G *in = &h->fal_mpi_in[t];
    (void)in;
    if (h->x)
      in->x = (int *)fal_calloc(1, sizeof(int));
    if (h->y)
      in->y = (int *)fal_calloc(1, sizeof(int));
  }
}
static fal_G *fal_G_fresh(fal_G *h)
{
  if (!h->fal_mpi || !h->fal_mpi_stale)
    return h;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  h->fal_mpi_stale = 0;
  fal_mpi_gather(h->fal_mpi, h->x, sizeof(int), NULL);
  fal_mpi_gather(h->fal_mpi, h->y, sizeof(int), NULL);
  return h;
}
static int64_t fal_G_mpi_wr(fal_G *h, int64_t p)
{
  if (!h->fal_mpi || !h->fal_mpi_stale || h->fal_mpi_nwr >= 64 || p < 0 || p >= h->npoints) {
    fal_G_fresh(h);
    return p;
  }
  h->fal_mpi_nwr++;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  int o = fal_mpi_owner(h->fal_mpi, p);
  if (h->x)
    fal_mpi_bcast_from(h->x + p, sizeof *h->x, o);
  if (h->y)
    fal_mpi_bcast_from(h->y + p, sizeof *h->y, o);
  return p;
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
  h->fal_mpi_nwr = 0;
  if ((mask >> 0 & 1))
    cur += sizeof(int);
  if ((mask >> 1 & 1))
    cur += sizeof(int);
  h->fal_mpi->ex = ex;
  if (ex != FAL_EX_ALIKE)
    fal_mpi_snapshot(h->fal_mpi, h, fal_G_mpi_pack, cur);
}
static void fal_G_mpi_gp_done(fal_G *h)
{
  h->fal_mpi_stale = h->fal_mpi->nranks > 1;
}
static void fal_G_mpi_end(fal_G *h)
{
  fal_mpi_exchange(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);
  fal_G_mpi_gp_done(h);
}
static inline void fal_G_mpi_end_alike(fal_G *h)
{
  fal_G_mpi_gp_done(h);
}
#line 11 "partition_mpi_rebind.fal"
void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->x[orig] < fal_g_incom->x[incom])
    fal_g_orig->x[orig] = fal_g_incom->x[incom];
}

int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->x, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->y, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  fal_G_partition(hg, 0, 2, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { fal_G_mpi_begin(hg, 25, 0x3u, FAL_EX_MERGE); { fal_G *fal_part = hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 25 "partition_mpi_rebind.fal"
for (fal_point fal_lv2 = (fal_point)fal_lo; fal_lv2 < fal_hi; fal_lv2++) { fal_point t = fal_lv2; {
#line 25 "partition_mpi_rebind.fal"
                           {
    { const fal_point fal_p1 = t; for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1], fal_n2 = hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point u = hg->fal_base.csr.dst[fal_e2]; {
#line 26 "partition_mpi_rebind.fal"
                             hg->y[t] = hg->y[t] + 1; } } }
#line 26 "partition_mpi_rebind.fal"

    t = 0;
    hg->x[t] = 1;
  } } } } }
fal_G_mpi_end(hg); }
#line 29 "partition_mpi_rebind.fal"

  { fal_G_mpi_begin(hg, 30, 0x2u, FAL_EX_OWN); { fal_G *fal_part = hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 30 "partition_mpi_rebind.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 30 "partition_mpi_rebind.fal"
                           hg->y[t] = hg->y[t] * 2; } } }
fal_G_mpi_end(hg); }
#line 30 "partition_mpi_rebind.fal"

  printf("%d %d\n", fal_G_fresh(hg)->x[(0)], fal_G_fresh(hg)->y[(0)]);
  return 0;
}
