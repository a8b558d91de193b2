/*
 * diag.c: diagnostics in one format, `file:line:col: error: message`,
 * followed by the source line and a caret under the column (as chibicc
 * and cproc do).  Lines and columns are 1-based.
 */
#include "falconc.h"

#include <stdarg.h>

static int nerrors;

int error_count(void) { return nerrors; }

static void print_caret_line(const Source *src, SrcLoc loc)
{
  size_t n;
  const char *line = source_line(src, loc.line, &n);
  fprintf(stderr, "%.*s\n", (int)n, line);
  /* Keep tabs so the caret lines up with the echoed line. */
  for (size_t i = 0; i + 1 < loc.col && i < n; i++)
    fputc(line[i] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

void error_at(const Source *src, SrcLoc loc, const char *fmt, ...)
{
  va_list ap;
  fprintf(stderr, "%s:%u:%u: error: ", src->path, loc.line, loc.col);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
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
