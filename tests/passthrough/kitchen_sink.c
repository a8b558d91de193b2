/*
 * kitchen_sink.c: plain C that must pass through falconc byte for byte.
 * It uses words Falcon gives meaning to (In, GPU, CPU, true) as ordinary
 * identifiers where Falcon allows it (§1), and C features that are easy to
 * mangle: comments, macros, K&R definitions, attributes, designators.
 */
#include <stdbool.h>
#include <stddef.h>

#define SQUARE(x) ((x) * (x))
#define LONG_MACRO(a, b)   \
  do {                     \
    (a) += (b);            \
  } while (0)

enum { GPU = 1, CPU = 2 };

struct pair {
  int first, second;
  unsigned flag : 1;
};

static int table[4] = {[0] = 1, [3] = SQUARE(2)};
static struct pair origin = {.first = 0, .second = 0};
static int counter __attribute__((unused)) = 0;

int old_style(a, b)
  int a;
  int b;
{
  return a < b ? a : b;   /* K&R */
}

static int In(int x) { return x + GPU + CPU; }

int kitchen_sink(int n, ...)
{
  bool ok = true;
  int acc = 0;
	/* a tab-indented comment */
  for (int i = 0; i < n; i++) {
    switch (i % 3) {
    case 0: acc += table[i % 4]; break;
    case 1: LONG_MACRO(acc, In(i)); break;
    default: continue;
    }
  }
  acc += old_style(origin.first, origin.second);
  return ok ? acc : -1;
}
