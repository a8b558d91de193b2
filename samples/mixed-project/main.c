/*
 * main.c: the plain C half of the mixed project.  It reads the command
 * line and calls falcon_sssp(), which is written in Falcon (sssp.fal).
 */
#include <stdio.h>
#include <stdlib.h>

int falcon_sssp(const char *path, int source, int *npoints, long *reached,
                long *sum);

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH [SOURCE]\n", argv[0]);
    return 2;
  }
  int source = argc > 2 ? atoi(argv[2]) : 0;
  int npoints = 0;
  long reached = 0, sum = 0;
  if (falcon_sssp(argv[1], source, &npoints, &reached, &sum) != 0) {
    fprintf(stderr, "%s: source %d is not one of the %d points\n", argv[0],
            source, npoints);
    return 1;
  }
  printf("sssp: %d points, source %d: reached %ld, distance sum %ld\n",
         npoints, source, reached, sum);
  return 0;
}
