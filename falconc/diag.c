/*
 * diag.c: diagnostics in one format, `file:line:col: error: message`,
 * followed by the source line and a caret under the column (as chibicc
 * and cproc do).  Lines and columns are 1-based.
 */
#include "falconc.h"

#include <stdarg.h>

static int nerrors;

int error_count(void) { return nerrors; }

static int nseen;

void error_reset(void)
{
  nerrors = 0;
  nseen = 0;
}

/* Lines longer than this are shown as a window around the column. */
#define MAX_SHOWN 160

static void print_caret_line(const Source *src, SrcLoc loc)
{
  size_t n;
  const char *line = source_line(src, loc.line, &n);
  size_t col = loc.col ? loc.col - 1 : 0, from = 0;
  if (n > MAX_SHOWN) { /* a window of MAX_SHOWN bytes with the column in it */
    from = col > MAX_SHOWN / 2 ? col - MAX_SHOWN / 2 : 0;
    if (from + MAX_SHOWN > n)
      from = n > MAX_SHOWN ? n - MAX_SHOWN : 0;
    line += from;
    n = MAX_SHOWN;
    col -= from < col ? from : col;
  }
  fprintf(stderr, "%.*s\n", (int)n, line);
  /* Keep tabs so the caret lines up with the echoed line. */
  for (size_t i = 0; i < col && i < n; i++)
    fputc(line[i] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

/* The same error at the same place is reported once: the lowering
 * prints some loop bodies twice (a planned loop's list form and its plain
 * form, a GPU kernel and its warp-per-point twin).  The last few reports
 * are remembered (a hash of file, place and text). */
#define SEEN 64
static uint64_t seen[SEEN];

static uint64_t hash_str(uint64_t h, const char *s)
{
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

void error_at(const Source *src, SrcLoc loc, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  uint64_t h = hash_str(hash_str(14695981039346656037ull, src->path), msg);
  h = (h ^ loc.line) * 1099511628211ull;
  h = (h ^ loc.col) * 1099511628211ull;
  for (int i = 0; i < nseen && i < SEEN; i++)
    if (seen[i] == h)
      return;
  seen[nseen++ % SEEN] = h;
  fprintf(stderr, "%s:%u:%u: error: %s\n", src->path, loc.line, loc.col, msg);
  print_caret_line(src, loc);
  nerrors++;
}

void error_plain(const char *fmt, ...)
{
  va_list ap;
  fputs("falconc: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  nerrors++;
}
