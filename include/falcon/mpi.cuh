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

#endif
