/*
 * util.c: the small helpers generated code and the rest of libfalcon use:
 * a monotonic clock (§8 rtclock) and allocation that never returns NULL.
 * Running out of memory prints the size asked for and ends the process
 * with status 1, so callers need no error path for it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double fal_rtclock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *check_alloc(void *p, size_t n)
{
  if (!p) {
    fprintf(stderr, "falcon: error: out of memory (%zu bytes)\n", n);
    exit(1);
  }
  return p;
}

void *fal_alloc(size_t n) { return check_alloc(malloc(n ? n : 1), n); }

void *fal_calloc(size_t n, size_t size)
{
  if (size && n > SIZE_MAX / size)
    check_alloc(NULL, SIZE_MAX);
  return check_alloc(calloc(n ? n : 1, size ? size : 1), n * size);
}

void *fal_realloc(void *p, size_t n)
{
  return check_alloc(realloc(p, n ? n : 1), n);
}

/* n elements of `size` bytes, or exit when n * size overflows size_t. */
void *fal_alloc_array(size_t n, size_t size)
{
  if (size && n > SIZE_MAX / size)
    check_alloc(NULL, SIZE_MAX);
  return fal_alloc(n * size);
}

void fal_free(void *p) { free(p); }
