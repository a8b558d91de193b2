/*
 * falcon/mpi.h: the MPI layer of partitioned programs (falconc --mpi, §7;
 * docs/lowering.md "Partitioned graphs under MPI").  Built into
 * libfalcon_mpi.a with mpicc, only when ./configure found MPI.
 *
 * Every rank reads the whole graph and owns one contiguous range of points
 * (ORDERED: balanced by out-edges).  Its ghosts are the points of other
 * ranks that share an edge (either direction) with one of its own points;
 * its border towards rank s is the set of its own points that s holds as
 * ghosts.  Both lists are sorted by (rank, point), so the i-th ghost that
 * rank r holds from s is the i-th border point of s towards r.
 *
 * A round (one foreach over the partitioned graph):
 *   fal_mpi_snapshot   the ghosts' and border points' values (packed
 *                      records of the point properties that the foreach
 *                      or the merge function may write) at the start;
 *   ... the foreach runs over the rank's own points ...
 *   fal_mpi_exchange   phase 1: the ghosts whose record changed go to
 *                      their owners (one nonblocking message per
 *                      neighbouring rank), which merge each one into their
 *                      own copy (the program's updateFunction); phase 2:
 *                      the border points whose record changed (by the
 *                      foreach or by a merge) go to the ranks holding them
 *                      as ghosts, which overwrite their copies.
 * A rank whose points run on a GPU knows which entries changed (a kernel
 * compares them with the device's copy from the round's start): it marks
 * them in `mark` and calls fal_mpi_exchange_marked instead, which sends
 * only those (and the border points that merges changed) and leaves in
 * `push` the points whose host values the exchange changed.
 * Graph properties are combined with fal_mpi_combine (a value changed on
 * any rank wins: the lowest such rank's), reductions with fal_mpi_reduce
 * (MPI_Allreduce); other points' values are gathered only when host code
 * reads them (fal_mpi_gather).
 */
#ifndef FALCON_MPI_H
#define FALCON_MPI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "falcon/graph.h"
#include "falcon/frontier.h" /* (after graph.h: fal_alloc) */
#ifdef _OPENMP
#include <omp.h>
#endif

/* The calling OpenMP thread and the threads of a parallel loop (0 and 1
 * without OpenMP): incoming records merge through one-point copies, one
 * per thread. */
static inline int fal_mpi_thread(void)
{
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}
static inline int fal_mpi_threads(void)
{
#ifdef _OPENMP
  return omp_get_max_threads() > 0 ? omp_get_max_threads() : 1;
#else
  return 1;
#endif
}

/* falconc --mpi emits C11 that includes this; falconc --mpi --target=gpu
 * emits CUDA (C++), which includes falcon/mpi.cuh: this inside extern "C",
 * and reductions typed by overload instead of _Generic.  libfalcon_mpi
 * is C either way. */

typedef struct fal_mpi_plan {
  int rank, nranks;
  int64_t *lo;            /* nranks + 1: rank r owns [lo[r], lo[r + 1]) */
  int nnbr;               /* neighbouring ranks */
  int *nbr;
  int64_t *goff;          /* nnbr + 1: ghost[goff[i] .. goff[i + 1]) are nbr[i]'s */
  fal_point *ghost;
  int64_t *boff;          /* nnbr + 1: border[boff[i] .. boff[i + 1]) go to nbr[i] */
  fal_point *border;
  size_t rec;             /* bytes of one point's record (its properties) */
  size_t cur;             /* this round's record: the properties the
                           * foreach (or the merge function) may write */
  int ex;                 /* what this round's foreach leaves for the
                           * exchange (FAL_EX_*, falcon/graph.h): anything
                           * but FAL_EX_MERGE has no ghost changes, and
                           * phase 1 is skipped */
  unsigned char *gshadow; /* the ghosts' records at the start of the round */
  unsigned char *bshadow; /* the border points' records, likewise */
  unsigned char *sbuf, *cbuf, *rbuf, *tmp; /* cbuf: what is sent, the
                           * changed entries of sbuf */
  unsigned char *chg;     /* per entry of this phase: its record changed */
  int64_t *idx;           /* scratch: indices of changed entries */
  /* fal_mpi_exchange_marked (a GPU rank): */
  unsigned char *mark;    /* ghosts then border entries (goff[nnbr] +
                           * boff[nnbr] bytes): set by the caller for the
                           * entries that changed, cleared by the exchange */
  fal_point *push;        /* after it: the points whose host values it
                           * changed (merged or refreshed), npush of them;
                           * a point may appear more than once */
  int64_t npush;
  unsigned char *rchg;    /* scratch: per received record, merged to a new value */
  unsigned char *pchg;    /* per own point (p - lo): a merge changed it */
  /* counters (FALCON_VERBOSE prints them at the end) */
  int64_t rounds, sent_messages, sent_records, sent_bytes;
  int64_t most;           /* entries of the longer list (ghosts or border) */
  int64_t *ncount;        /* nnbr: records per neighbour (fal_mpi_exchange_dev) */
  int64_t dev_pulled, dev_pushed; /* GPU rank: entries copied from and to it */
  int64_t dev_reps; /* GPU rank: launches of phases repeated to their fixpoint */
  int64_t windows;  /* host rank: rounds whose heap had a window (fal_mpi_lfix_window) */
  double t_pack, t_wait, t_apply; /* seconds in the exchanges: packing (the
                           * shadows at a foreach's start, and what is
                           * sent), waiting for messages, applying them */
} fal_mpi_plan;

/* pack: the record of point p of graph g into rec (the properties of this
 * round: the generated code keeps which).  apply: record rec into
 * point p of g; merge != 0: merged with the program's updateFunction (or
 * taken without one), merge == 0: overwritten (a ghost refreshed). */
typedef void (*fal_mpi_pack_fn)(void *g, fal_point p, void *rec);
typedef void (*fal_mpi_apply_fn)(void *g, fal_point p, const void *rec, int merge);

int fal_mpi_rank(void);
int fal_mpi_size(void);
/* This rank's index among the ranks of its machine (MPI_COMM_TYPE_SHARED):
 * a rank with GPU parts takes GPU local_rank % (GPUs of the machine). */
int fal_mpi_local_rank(void);
/* Stop every rank: the message, then MPI_Abort with status (> 0). */
void fal_mpi_abort(int status);

/* Every rank must reach the same collective step: a foreach over a
 * partitioned graph (site = its line), a gather for host code
 * (FAL_MPI_SITE_GATHER), a reduction (FAL_MPI_SITE_REDUCE), the end of the
 * program (FAL_MPI_SITE_EXIT).  One MPI_Allreduce compares the ranks'
 * sites; if they differ (host code took different paths, e.g. on a host
 * variable that a foreach body wrote on one rank only), every rank stops
 * with a message instead of waiting forever. */
enum { FAL_MPI_SITE_GATHER = -1, FAL_MPI_SITE_REDUCE = -2, FAL_MPI_SITE_EXIT = -3 };
void fal_mpi_sync(int site);

/* Reads a partitioned graph (falconc emits it for `hg.read` when no code
 * reaches an edge of a point of another rank): with more than one rank and
 * an uncompressed Falcon binary CSR file, each rank reads only the
 * out-edges of its points (and builds their in-edges by one exchange);
 * otherwise, or with FALCON_MPI_ROWS=off, the whole graph. */
struct fal_gbase;
void fal_mpi_gbase_read(struct fal_gbase *b, const char *path);

/* Cuts the points among the ranks and builds the ghost and border lists
 * from the whole graph, or from this rank's rows and one exchange. */
void fal_mpi_plan_init(fal_mpi_plan *pl, const fal_graph *csr, size_t rec);
void fal_mpi_plan_free(fal_mpi_plan *pl);
void fal_mpi_snapshot(fal_mpi_plan *pl, void *g, fal_mpi_pack_fn pack, size_t cur);
void fal_mpi_exchange(fal_mpi_plan *pl, void *g, fal_mpi_pack_fn pack,
                      fal_mpi_apply_fn apply);
/* A GPU rank's round: no host shadows; `cur` is the round's record size. */
void fal_mpi_record(fal_mpi_plan *pl, size_t cur);
/* The exchange of the entries marked in pl->mark (the host graph holds
 * their new values): phase 1 and 2 as fal_mpi_exchange, phase 2 with the
 * border entries of every point that a merge changed.  Clears pl->mark;
 * pl->push and pl->npush then list what the GPU must be given. */
void fal_mpi_exchange_marked(fal_mpi_plan *pl, void *g, fal_mpi_pack_fn pack,
                             fal_mpi_apply_fn apply);

/* A GPU rank whose incoming records merge on its GPU (docs/lowering.md
 * "GPU parts under MPI"): the same two phases, with the records on the
 * device.  collect(g, phase, count, sbuf) puts the changed entries of
 * phase 1's ghosts or phase 2's border entries, neighbour i's at
 * sbuf + goff[i] (phase 1) or boff[i] (phase 2) records, as (point,
 * record) pairs of sizeof(fal_point) + cur bytes, and their number in
 * count[i]; it returns when they are on the host, and after the
 * previous phase's deliveries were applied (so rbuf is free again).
 * deliver(g, phase, i, rb, nrec, at) hands neighbour i's message (nrec
 * pairs, from slot `at` of rbuf) to the device: merged into the
 * owner's points (phase 1) or overwriting ghosts (phase 2); it may
 * return before they are applied.  sbuf and rbuf hold pl->most pairs. */
typedef void (*fal_mpi_collect_fn)(void *g, int phase, int64_t *count, unsigned char *sbuf);
typedef void (*fal_mpi_deliver_fn)(void *g, int phase, int i, const unsigned char *rb,
                                   int64_t nrec, int64_t at);
void fal_mpi_exchange_dev(fal_mpi_plan *pl, void *g, unsigned char *sbuf, unsigned char *rbuf,
                          fal_mpi_collect_fn collect, fal_mpi_deliver_fn deliver);

/* The same exchange between GPU ranks of one machine that read each
 * other's GPU memory (CUDA IPC; docs/lowering.md "GPU ranks of one
 * machine read each other's pairs"): collect leaves the pairs on the
 * device, neighbour i's of phase 1 at pair goff[i] of its send area and
 * of phase 2 at pair goff[nnbr] + boff[i] (the two phases apart, so a
 * neighbour may still read phase 1's while phase 2's are made), copies
 * the first `ahead` of each neighbour's to sbuf as the collect above
 * does, and returns when they are there.  A neighbour with at most
 * `ahead` pairs gets them in a message and deliver applies them, as
 * above; one with more gets only (count, byte offset) and
 * ideliver(g, phase, i, nrec, slot, at) applies neighbour i's nrec
 * pairs, read from byte `at` of that neighbour's send area (slot: the
 * receiving side's first index, roff[i]), and returns only when they
 * are read, so that a rank passes its next collective step (every
 * foreach begins with fal_mpi_sync) only after its reads: a sender
 * writes a phase's area again only after that step. */
typedef void (*fal_mpi_ipc_deliver_fn)(void *g, int phase, int i, int64_t nrec, int64_t slot,
                                       int64_t at);
void fal_mpi_exchange_ipc(fal_mpi_plan *pl, void *g, unsigned char *sbuf, unsigned char *rbuf,
                          int64_t ahead, fal_mpi_collect_fn collect, fal_mpi_deliver_fn deliver,
                          fal_mpi_ipc_deliver_fn ideliver);
/* The ranks on this rank's machine (MPI_COMM_TYPE_SHARED). */
int fal_mpi_local_size(void);
/* size bytes from every rank, in rank order, into all (nranks * size). */
void fal_mpi_allgather_bytes(const void *mine, void *all, size_t size);
/* ok on every rank (MPI_Allreduce, MIN). */
int fal_mpi_all_true(int ok);
/* Before a host rank takes its heap l (on: it uses one this round; npoints:
 * the graph's) in a fixpoint loop, the window that the ranks share
 * (docs/lowering.md "Ranks that share a window"): one MPI_Allreduce that
 * every rank makes, heap or not, then l's wtop or wcap for fal_lfix_take.
 * With one rank, none: the whole heap. */
void fal_mpi_lfix_window(fal_lfix *l, int on, fal_mpi_plan *pl, int64_t npoints);
void fal_mpi_bcast0(void *v, size_t size);
/* ... rank root's (MPI_Bcast). */
void fal_mpi_bcast_from(void *v, size_t size, int root);
/* The rank that owns point p (pl->lo). */
int fal_mpi_owner(const fal_mpi_plan *pl, int64_t p);

/* Every rank's own part of a per-point (offsets NULL) or per-edge array
 * (offsets: the CSR's, edges going with their source) to every rank. */
void fal_mpi_gather(const fal_mpi_plan *pl, void *base, size_t elsize,
                    const int64_t *offsets);

/* A graph property of `size` bytes: if this rank changed it (it differs
 * from `before`), it is a candidate; the lowest candidate rank's value
 * becomes every rank's. */
void fal_mpi_combine(void *value, const void *before, size_t size);

/* v = the sum (mul: product) of every rank's v; kind from FAL_MPI_KIND. */
enum { FAL_MPI_INT, FAL_MPI_UINT, FAL_MPI_LONG, FAL_MPI_ULONG, FAL_MPI_LLONG,
       FAL_MPI_ULLONG, FAL_MPI_FLOAT, FAL_MPI_DOUBLE, FAL_MPI_OTHER };
void fal_mpi_reduce_kind(void *v, int kind, int mul);
#ifndef __cplusplus
#define FAL_MPI_KIND(v)                                                       \
  _Generic((v), int: FAL_MPI_INT, unsigned: FAL_MPI_UINT, long: FAL_MPI_LONG,  \
           unsigned long: FAL_MPI_ULONG, long long: FAL_MPI_LLONG,           \
           unsigned long long: FAL_MPI_ULLONG, float: FAL_MPI_FLOAT,         \
           double: FAL_MPI_DOUBLE, default: FAL_MPI_OTHER)
#define fal_mpi_reduce(v, mul) fal_mpi_reduce_kind(&(v), FAL_MPI_KIND(v), (mul))
#endif

/* Pull rounds on host ranks (falconc --mpi: host ranks, and GPU ranks
 * that do not map each other's GPUs; docs/lowering.md "Pull rounds on
 * host ranks"): the direction of a level-synchronous loop's host rounds,
 * a fal_dstate (falcon/frontier.h), the same on every rank, started
 * by fal_dstate_start with the GPU loops' rule (fal_dir_may_pull: only
 * on undirected graphs of average degree above 8, or every round with
 * FALCON_DIRECTION=pull; never with =push).  After each round's
 * exchange, while fal_dstate_counts, the generated code counts its own
 * points that the round set and their out-degrees (a GPU rank on its
 * GPU: falcon/mpi.cuh fal_mdir_dcount), and fal_mdir_decide sums them
 * over the ranks (MPI_Allreduce) and picks the next round's direction
 * (fal_dstate_decide); once the loop goes back to pushing it stops
 * counting.  aw: this rank's own points that the round set, sc: their
 * out-edges. */
void fal_mdir_decide(fal_dstate *d, long long aw, long long sc);

/* Output of an MPI program comes from rank 0: the other ranks' stdout goes
 * to /dev/null (FALCON_MPI_OUTPUT=all keeps it), and so do files they open
 * for writing; generated programs call fopen through this. */
FILE *fal_mpi_fopen(const char *path, const char *mode);

#endif
