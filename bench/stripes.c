/*
 * bench/stripes.c: renumber a DIMACS graph so that ORDERED parts hold
 * stripes of it (a measurement aid for docs/scaling.md "A partition that
 * cuts fewer edges"; not part of falconc or libfalcon).
 *
 *   stripes IN.gr OUT.gr K S
 *
 * The old ids are cut into K * S blocks of equal size; block b goes to
 * group b mod K, and the new ids list group 0's blocks in order, then
 * group 1's, and so on.  With K parts that ORDERED balances by edges
 * (about by points on road graphs), part i then holds S blocks spread
 * over the old id range instead of one.  Old point 0 keeps id 0, so a
 * run from source 0 starts at the same place.  Weights and the arc list
 * are kept as they are (give the weights first: falgraph --weights ...
 * convert IN.gr.xz IN.gr).
 *
 *   cc -O2 -o stripes bench/stripes.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: stripes IN.gr OUT.gr K S\n");
    return 2;
  }
  long k = atol(argv[3]), s = atol(argv[4]);
  if (k < 1 || s < 1) {
    fprintf(stderr, "stripes: K and S must be at least 1\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "r");
  if (!in) {
    perror(argv[1]);
    return 1;
  }
  FILE *out = fopen(argv[2], "w");
  if (!out) {
    perror(argv[2]);
    return 1;
  }
  char line[512];
  long n = -1, m = 0, *id = NULL, lineno = 0;
  while (fgets(line, sizeof line, in)) {
    lineno++;
    if (line[0] == 'p') {
      if (id || sscanf(line, "p sp %ld %ld", &n, &m) != 2 || n < 0) {
        fprintf(stderr, "stripes: %s:%ld: bad problem line\n", argv[1], lineno);
        return 1;
      }
      id = malloc(sizeof *id * (size_t)(n ? n : 1));
      if (!id) {
        fprintf(stderr, "stripes: out of memory\n");
        return 1;
      }
      long blocks = k * s, size = (n + blocks - 1) / blocks, next = 0;
      for (long g = 0; g < k; g++)
        for (long b = g; b < blocks; b += k)
          for (long i = b * size; i < (b + 1) * size && i < n; i++)
            id[i] = next++;
      fprintf(out, "p sp %ld %ld\n", n, m);
    } else if (line[0] == 'a') {
      long u, v, w;
      if (!id || sscanf(line, "a %ld %ld %ld", &u, &v, &w) != 3 || u < 1 || u > n || v < 1 ||
          v > n) {
        fprintf(stderr, "stripes: %s:%ld: bad arc line\n", argv[1], lineno);
        return 1;
      }
      fprintf(out, "a %ld %ld %ld\n", id[u - 1] + 1, id[v - 1] + 1, w);
    }
  }
  free(id);
  if (ferror(in) || fclose(out)) {
    fprintf(stderr, "stripes: read or write failed\n");
    return 1;
  }
  fclose(in);
  return 0;
}
