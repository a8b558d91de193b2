/*
 * big_graph.c: writes a directed graph of more than 2^31 edges in the
 * Falcon binary CSR format (runtime/binary.c) without holding it in
 * memory, for the FALCON_BIG_TEST check of tests/run.sh.
 *
 *   big_graph N D OUT
 *
 * Point p has the D out-edges p -> (p * D + k) mod N, k = 0..D-1,
 * unweighted, so every point is a few levels from point 0.  The program
 * then runs its own BFS from point 0 over these edges, computed on the fly
 * (no edge array), and prints the summary line samples/bfs.fal prints:
 * "bfs: reached R, level sum S, max L".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int put(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n; }

static void le64(unsigned char *b, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
}

int main(int argc, char **argv)
{
  if (argc != 4) {
    fputs("usage: big_graph N D OUT\n", stderr);
    return 2;
  }
  int64_t n = atoll(argv[1]), d = atoll(argv[2]);
  if (n < 2 || d < 1 || d >= n || n > INT32_MAX) {
    fputs("big_graph: need 1 <= D < N <= 2^31 - 1\n", stderr);
    return 2;
  }
  FILE *f = fopen(argv[3], "wb");
  if (!f) {
    perror(argv[3]);
    return 1;
  }
  unsigned char h[32] = {0};
  memcpy(h, "FALCSR1", 8);
  h[8] = 1; /* directed, no weights */
  le64(h + 16, (uint64_t)n);
  le64(h + 24, (uint64_t)(n * d));
  int ok = put(f, h, sizeof h);
  /* Offsets, a buffer at a time (little-endian hosts only, as the reader). */
  enum { B = 1 << 16 };
  static int64_t off[B];
  static int32_t dst[B];
  for (int64_t p = 0; ok && p <= n; p += B) {
    int64_t k = n + 1 - p < B ? n + 1 - p : B;
    for (int64_t i = 0; i < k; i++)
      off[i] = (p + i) * d;
    ok = put(f, off, (size_t)k * sizeof *off);
  }
  size_t fill = 0;
  for (int64_t p = 0; ok && p < n; p++) {
    /* Sorted: the ids that wrap past N - 1 come first. */
    int64_t base = p * d % n;
    int64_t wrap = base + d > n ? base + d - n : 0; /* ids 0..wrap-1 */
    for (int64_t k = 0; ok && k < d; k++) {
      int64_t v = k < wrap ? k : base + (k - wrap);
      dst[fill++] = (int32_t)v;
      if (fill == B) {
        ok = put(f, dst, fill * sizeof *dst);
        fill = 0;
      }
    }
  }
  if (ok && fill)
    ok = put(f, dst, fill * sizeof *dst);
  if (fclose(f) != 0 || !ok) {
    perror(argv[3]);
    remove(argv[3]);
    return 1;
  }
  /* BFS from 0 over the same edges, level by level. */
  int32_t *level = malloc((size_t)n * sizeof *level);
  int32_t *cur = malloc((size_t)n * sizeof *cur), *next = malloc((size_t)n * sizeof *next);
  if (!level || !cur || !next) {
    fputs("big_graph: out of memory\n", stderr);
    return 1;
  }
  for (int64_t p = 0; p < n; p++)
    level[p] = -1;
  level[0] = 0;
  cur[0] = 0;
  int64_t ncur = 1, reached = 1;
  long long sum = 0;
  int max = 0;
  for (int lev = 1; ncur > 0; lev++) {
    int64_t nnext = 0;
    for (int64_t i = 0; i < ncur; i++) {
      int64_t base = (int64_t)cur[i] * d % n;
      for (int64_t k = 0; k < d; k++) {
        int64_t v = (base + k) % n;
        if (level[v] < 0) {
          level[v] = lev;
          next[nnext++] = (int32_t)v;
          sum += lev;
          max = lev;
          reached++;
        }
      }
    }
    int32_t *t = cur;
    cur = next;
    next = t;
    ncur = nnext;
  }
  printf("bfs: reached %lld, level sum %lld, max %d\n", (long long)reached, sum, max);
  free(level);
  free(cur);
  free(next);
  return 0;
}
