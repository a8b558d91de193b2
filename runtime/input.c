/*
 * input.c: reading graph files, transparently decompressing gzip (zlib)
 * and xz (liblzma).  The codec is chosen by the magic bytes at the start
 * of the file, never by its name, so `road.gr.xz` renamed `road.gr` still
 * loads.  The text parsers take whole lines from a growing buffer
 * (fal_input_line) and the binary ones take arrays (fal_input_read);
 * plain files bigger than the buffer are read straight into the arrays.
 */
#include "internal.h"

#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

enum {
  RAW_SIZE = 1 << 18, /* compressed bytes read from the file at a time */
  BUF_SIZE = 1 << 20  /* the decoded buffer's first size */
};

static const unsigned char gzip_magic[2] = {0x1f, 0x8b};
static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

int fal_input_error(fal_input *in, const char *fmt, ...)
{
  va_list ap;
  if (in->line > 0)
    fprintf(stderr, "%s:%lld: error: ", in->path, (long long)in->line);
  else
    fprintf(stderr, "%s: error: ", in->path);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  in->failed = 1;
  return -1;
}

/* ---- decoders: each fills dst with up to n bytes, returns the count ---- */

static size_t read_raw(fal_input *in)
{
  in->raw_pos = 0;
  in->raw_len = fread(in->raw, 1, RAW_SIZE, in->file);
  if (in->raw_len < RAW_SIZE) {
    in->raw_eof = 1;
    if (ferror(in->file))
      fal_input_error(in, "cannot read: %s", strerror(errno));
  }
  return in->raw_len;
}

static size_t decode_plain(fal_input *in, void *dst, size_t n)
{
  size_t got = fread(dst, 1, n, in->file);
  if (got < n) {
    in->eof = 1;
    if (ferror(in->file))
      fal_input_error(in, "cannot read: %s", strerror(errno));
  }
  return got;
}

static size_t decode_gzip(fal_input *in, void *dst, size_t n)
{
  z_stream *z = in->stream;
  z->next_out = dst;
  z->avail_out = (uInt)n;
  while (z->avail_out > 0 && !in->eof && !in->failed) {
    if (z->avail_in == 0 && !in->raw_eof && read_raw(in) > 0) {
      z->next_in = in->raw;
      z->avail_in = (uInt)in->raw_len;
    }
    int r = inflate(z, Z_NO_FLUSH);
    if (r == Z_STREAM_END) {
      /* gzip files may hold several members one after another. */
      if (z->avail_in == 0 && !in->raw_eof && read_raw(in) > 0) {
        z->next_in = in->raw;
        z->avail_in = (uInt)in->raw_len;
      }
      if (z->avail_in == 0 || z->next_in[0] != gzip_magic[0])
        in->eof = 1;
      else
        inflateReset(z);
    } else if (r == Z_BUF_ERROR && z->avail_in == 0 && in->raw_eof) {
      fal_input_error(in, "truncated gzip data");
    } else if (r != Z_OK && r != Z_BUF_ERROR) {
      fal_input_error(in, "corrupt gzip data (%s)", z->msg ? z->msg : "zlib error");
    }
  }
  return n - z->avail_out;
}

static size_t decode_xz(fal_input *in, void *dst, size_t n)
{
  lzma_stream *x = in->stream;
  x->next_out = dst;
  x->avail_out = n;
  while (x->avail_out > 0 && !in->eof && !in->failed) {
    if (x->avail_in == 0 && !in->raw_eof && read_raw(in) > 0) {
      x->next_in = in->raw;
      x->avail_in = in->raw_len;
    }
    lzma_ret r = lzma_code(x, in->raw_eof && x->avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
    if (r == LZMA_STREAM_END)
      in->eof = 1;
    else if (r == LZMA_MEM_ERROR)
      fal_input_error(in, "out of memory while decompressing xz data");
    else if (r == LZMA_BUF_ERROR)
      fal_input_error(in, "truncated xz data");
    else if (r != LZMA_OK)
      fal_input_error(in, "corrupt xz data (liblzma error %d)", (int)r);
  }
  return n - x->avail_out;
}

static size_t decode(fal_input *in, void *dst, size_t n)
{
  if (in->eof || in->failed || n == 0)
    return 0;
  switch (in->codec) {
  case FAL_CODEC_PLAIN:
    return decode_plain(in, dst, n);
  case FAL_CODEC_GZIP:
    return decode_gzip(in, dst, n);
  case FAL_CODEC_XZ:
    return decode_xz(in, dst, n);
  }
  return 0;
}

/* ---- the decoded buffer --------------------------------------------------- */

/* Moves the unconsumed bytes to the front, grows the buffer when they fill
 * it, and decodes more after them.  Returns the number of bytes added. */
static size_t fill(fal_input *in)
{
  if (in->pos > 0) {
    memmove(in->buf, in->buf + in->pos, in->len - in->pos);
    in->consumed += (int64_t)in->pos;
    in->len -= in->pos;
    in->scanned = in->scanned > in->pos ? in->scanned - in->pos : 0;
    in->pos = 0;
  }
  if (in->len + 1 >= in->cap) {
    in->cap *= 2;
    in->buf = fal_realloc(in->buf, in->cap);
  }
  size_t got = decode(in, in->buf + in->len, in->cap - 1 - in->len);
  in->len += got;
  return got;
}

static int start_decoder(fal_input *in)
{
  if (in->codec == FAL_CODEC_GZIP) {
    z_stream *z = fal_calloc(1, sizeof *z);
    in->stream = z;
    /* 15 + 16: a window of 2^15 and a gzip (not zlib) header. */
    if (inflateInit2(z, 15 + 16) != Z_OK)
      return fal_input_error(in, "cannot start the gzip decoder");
    z->next_in = in->raw;
    z->avail_in = (uInt)in->raw_len;
  } else if (in->codec == FAL_CODEC_XZ) {
    lzma_stream *x = fal_calloc(1, sizeof *x);
    lzma_stream init = LZMA_STREAM_INIT;
    *x = init;
    in->stream = x;
    if (lzma_stream_decoder(x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      return fal_input_error(in, "cannot start the xz decoder");
    x->next_in = in->raw;
    x->avail_in = in->raw_len;
  }
  return 0;
}

/* On failure nothing stays open: the caller closes only what opened. */
int fal_input_open(fal_input *in, const char *path)
{
  memset(in, 0, sizeof *in);
  in->path = path;
  in->size = -1;
  in->file = fopen(path, "rb");
  if (!in->file) {
    fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
    return -1;
  }
  in->raw = fal_alloc(RAW_SIZE);
  in->cap = BUF_SIZE;
  in->buf = fal_alloc(in->cap);
  if (read_raw(in) == 0 && in->failed) {
    fal_input_close(in);
    return -1;
  }
  if (in->raw_len >= 2 && memcmp(in->raw, gzip_magic, 2) == 0)
    in->codec = FAL_CODEC_GZIP;
  else if (in->raw_len >= 6 && memcmp(in->raw, xz_magic, 6) == 0)
    in->codec = FAL_CODEC_XZ;
  if (in->codec != FAL_CODEC_PLAIN) {
    if (start_decoder(in) == 0)
      return 0;
    fal_input_close(in);
    return -1;
  }
  /* A plain file: what was read is already decoded. */
  memcpy(in->buf, in->raw, in->raw_len);
  in->len = in->raw_len;
  in->eof = in->raw_eof;
  struct stat st;
  if (fstat(fileno(in->file), &st) == 0 && S_ISREG(st.st_mode))
    in->size = (int64_t)st.st_size;
  return 0;
}

void fal_input_close(fal_input *in)
{
  if (in->codec == FAL_CODEC_GZIP && in->stream)
    inflateEnd(in->stream);
  else if (in->codec == FAL_CODEC_XZ && in->stream)
    lzma_end(in->stream);
  free(in->stream);
  free(in->raw);
  free(in->buf);
  if (in->file)
    fclose(in->file);
  in->stream = NULL;
  in->raw = NULL;
  in->buf = NULL;
  in->file = NULL;
}

size_t fal_input_peek(fal_input *in, size_t n)
{
  while (in->len - in->pos < n && fill(in) > 0)
    ;
  size_t have = in->len - in->pos;
  return have < n ? have : n;
}

size_t fal_input_read(fal_input *in, void *dst, size_t n)
{
  char *out = dst;
  size_t got = 0;
  while (got < n) {
    if (in->pos == in->len) {
      /* A big array from a plain file: skip the copy through buf. */
      if (in->codec == FAL_CODEC_PLAIN && n - got >= in->cap) {
        size_t k = decode(in, out + got, n - got);
        in->consumed += (int64_t)k;
        got += k;
        if (k == 0)
          break;
        continue;
      }
      if (fill(in) == 0)
        break;
    }
    size_t k = in->len - in->pos;
    if (k > n - got)
      k = n - got;
    memcpy(out + got, in->buf + in->pos, k);
    in->pos += k;
    got += k;
  }
  if (in->scanned < in->pos)
    in->scanned = in->pos;
  return got;
}

char *fal_input_line(fal_input *in, char **end)
{
  if (in->failed) /* the bytes after a decoding error are not data */
    return NULL;
  for (;;) {
    char *nl = memchr(in->buf + in->scanned, '\n', in->len - in->scanned);
    if (nl) {
      char *start = in->buf + in->pos;
      *nl = '\0';
      *end = nl;
      in->pos = in->scanned = (size_t)(nl - in->buf) + 1;
      in->line++;
      return start;
    }
    in->scanned = in->len;
    if (fill(in) == 0)
      break;
  }
  if (in->failed || in->pos == in->len)
    return NULL;
  /* The last line has no newline; fill() left a spare byte for the NUL. */
  char *start = in->buf + in->pos;
  in->buf[in->len] = '\0';
  *end = in->buf + in->len;
  in->pos = in->scanned = in->len;
  in->line++;
  return start;
}

int64_t fal_input_total_size(fal_input *in)
{
  if (in->size >= 0)
    return in->size;
  while (fill(in) > 0)
    ;
  if (in->failed)
    return -1;
  in->size = in->consumed + (int64_t)in->len;
  return in->size;
}
