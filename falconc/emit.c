/*
 * emit.c: writing the output and the #line directives that point
 * compilers and debuggers back at the .fal file.
 */
#include "falconc.h"

bool emit_output(FILE *out, const StrBuf *text)
{
  if (text->len)
    fwrite(text->data, 1, text->len, out);
  return fflush(out) == 0 && !ferror(out);
}

void emit_string_body(StrBuf *b, const char *text)
{
  for (const char *p = text; *p; p++) {
    if (*p == '"' || *p == '\\')
      strbuf_append(b, "\\", 1);
    strbuf_append(b, p, 1);
  }
}

void emit_line_directive(StrBuf *b, unsigned line, const char *path)
{
  strbuf_printf(b, "#line %u \"", line);
  emit_string_body(b, path);
  strbuf_puts(b, "\"\n");
}

unsigned source_line_of(const Source *src, size_t offset)
{
  size_t lo = 0, hi = src->nlines; /* the answer is in [lo, hi) */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (src->line_start[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  return (unsigned)lo + 1;
}
