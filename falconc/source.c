/*
 * source.c: the input file and its line index.
 */
#include "falconc.h"

#include <stdlib.h>
#include <string.h>

Source *source_open(const char *path)
{
  size_t len;
  char *text = read_file(path, &len);
  if (!text)
    return NULL;
  return source_from_text(path, text, len);
}

Source *source_from_text(const char *path, char *text, size_t len)
{
  Source *src = xcalloc(1, sizeof *src);
  src->path = path;
  src->text = text;
  src->len = len;
  size_t cap = 64;
  src->line_start = xmalloc(cap * sizeof *src->line_start);
  src->line_start[src->nlines++] = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] != '\n')
      continue;
    if (src->nlines == cap) {
      cap *= 2;
      src->line_start = xrealloc(src->line_start, cap * sizeof *src->line_start);
    }
    src->line_start[src->nlines++] = i + 1;
  }
  return src;
}

void source_delete(Source *src)
{
  if (!src)
    return;
  free(src->text);
  free(src->line_start);
  free(src);
}

const char *source_line(const Source *src, size_t line, size_t *n)
{
  if (line < 1 || line > src->nlines) {
    *n = 0;
    return "";
  }
  size_t start = src->line_start[line - 1];
  size_t end = start;
  while (end < src->len && src->text[end] != '\n')
    end++;
  if (end > start && src->text[end - 1] == '\r')
    end--;
  *n = end - start;
  return src->text + start;
}
