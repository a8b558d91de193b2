/*
 * util.c: the small helpers generated code and the rest of libfalcon use:
 * a monotonic clock (§8 rtclock) and allocation that never returns NULL.
 * Running out of memory prints the size asked for and ends the process
 * with status 1, so callers need no error path for it.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int fal_verbose(void)
{
  const char *v = getenv("FALCON_VERBOSE");
  return v && *v && strcmp(v, "0") != 0;
}

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

/* ---- the memory budget of a graph ------------------------------------------ */

/* FALCON_MEM_LIMIT: a byte count with an optional K, M, G or T suffix
 * (powers of 1024); unset: the machine's physical memory.  0: no
 * budget known (sysconf failed). */
int64_t fal_parse_size(const char *s)
{
  if (!s || !*s)
    return -1;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  double unit = 1;
  switch (*end) {
  case 'k': case 'K': unit = 1024.0; end++; break;
  case 'm': case 'M': unit = 1024.0 * 1024; end++; break;
  case 'g': case 'G': unit = 1024.0 * 1024 * 1024; end++; break;
  case 't': case 'T': unit = 1024.0 * 1024 * 1024 * 1024; end++; break;
  }
  if (errno || *end || !(v > 0) || v * unit >= 9.2e18)
    return -1;
  return (int64_t)(v * unit);
}

int64_t fal_mem_limit(const char **source)
{
  const char *env = getenv("FALCON_MEM_LIMIT");
  if (env && *env) {
    int64_t v = fal_parse_size(env);
    if (v > 0) {
      *source = "FALCON_MEM_LIMIT";
      return v;
    }
    fprintf(stderr, "falcon: warning: ignoring FALCON_MEM_LIMIT='%s' (expected "
            "a size such as 512M or 8G)\n", env);
  }
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  *source = "the machine's memory";
  return pages > 0 && page > 0 ? (int64_t)pages * page : 0;
}

/* What the CSR of n points and m stored edges takes (offsets, dst,
 * weights) plus, when built from an edge list, the list itself. */
int64_t fal_graph_bytes(int64_t n, int64_t m, int from_list)
{
  double b = 8.0 * ((double)n + 1) + 8.0 * (double)m;
  if (from_list)
    b += 12.0 * (double)m;
  return b > 9e18 ? INT64_MAX : (int64_t)b;
}

int fal_check_graph_bytes(fal_input *in, int64_t n, int64_t m, int from_list)
{
  const char *source;
  int64_t limit = fal_mem_limit(&source);
  int64_t need = fal_graph_bytes(n, m, from_list);
  if (limit > 0 && need > limit) {
    in->line = 0; /* the whole file, not its last line */
    return fal_input_error(in, "the graph (%lld points, %lld edges) needs %.1f MiB, "
                           "more than %s (%.1f MiB)", (long long)n, (long long)m,
                           need / 1048576.0, source, limit / 1048576.0);
  }
  return 0;
}
