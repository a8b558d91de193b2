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

#endif
