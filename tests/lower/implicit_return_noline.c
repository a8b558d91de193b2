/* §1: functions may omit their return type; main returns int and a bare
 * `return;` in main exits with status 0. */
#include <stdio.h>

static int twice(int x) { return 2 * x; }

void report(const char *what, int value)
{
  printf("%s = %d\n", what, value);
}

int main(int argc, char **argv)
{
  report("twice(argc)", twice(argc));
  if (argc > 3)
    return 0;
  return 0;
}
