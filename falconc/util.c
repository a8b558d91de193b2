/*
 * util.c: allocation that never returns NULL, growable strings, file
 * reading.  Running out of memory is reported and ends the process with
 * status 1 (the brief: bad input or too little memory never crashes).
 */
#include "falconc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void *check_alloc(void *p)
{
  if (!p) {
    fputs("falconc: error: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

void *xmalloc(size_t n) { return check_alloc(malloc(n ? n : 1)); }

void *xcalloc(size_t n, size_t size)
{
  return check_alloc(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n) { return check_alloc(realloc(p, n ? n : 1)); }

char *xstrndup(const char *s, size_t n)
{
  char *d = xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

int str_index(char *const *list, int n, const char *s)
{
  for (int i = 0; i < n; i++)
    if (strcmp(list[i], s) == 0)
      return i;
  return -1;
}

static void strbuf_reserve(StrBuf *b, size_t extra)
{
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

void strbuf_append(StrBuf *b, const char *s, size_t n)
{
  strbuf_reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void strbuf_puts(StrBuf *b, const char *s) { strbuf_append(b, s, strlen(s)); }

void strbuf_printf(StrBuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  strbuf_reserve(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void strbuf_free(StrBuf *b)
{
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

char *read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  StrBuf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    strbuf_append(&b, chunk, n);
  int failed = ferror(f);
  int saved = errno;
  fclose(f);
  if (failed) {
    strbuf_free(&b);
    errno = saved ? saved : EIO;
    return NULL;
  }
  if (!b.data)
    b.data = xstrdup("");
  *len = b.len;
  return b.data;
}
