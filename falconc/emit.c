/*
 * emit.c: writing the output.  The output is the source text with the
 * edits applied in order; text outside the edits is copied byte for byte.
 */
#include "falconc.h"

#include <stdlib.h>

static int edit_cmp(const void *a, const void *b)
{
  const Edit *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* `#line 1 "path"` with the path escaped as a C string. */
static void emit_line_directive(FILE *out, unsigned line, const char *path)
{
  fprintf(out, "#line %u \"", line);
  for (const char *p = path; *p; p++) {
    if (*p == '"' || *p == '\\')
      fputc('\\', out);
    fputc(*p, out);
  }
  fputs("\"\n", out);
}

bool emit_program(FILE *out, const Source *src, EditList *edits,
                  const Options *opt)
{
  qsort(edits->items, edits->len, sizeof *edits->items, edit_cmp);
  if (edits->len > 0 && opt->line_directives)
    emit_line_directive(out, 1, src->path);
  size_t pos = 0;
  for (size_t i = 0; i < edits->len; i++) {
    const Edit *e = &edits->items[i];
    if (e->start < pos) {
      error_plain("internal error: overlapping edits at byte %u", e->start);
      return false;
    }
    fwrite(src->text + pos, 1, e->start - pos, out);
    fputs(e->text, out);
    pos = e->end;
  }
  fwrite(src->text + pos, 1, src->len - pos, out);
  return fflush(out) == 0 && !ferror(out);
}
