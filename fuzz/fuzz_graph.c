/*
 * fuzz_graph.c: the AFL++ harness for libfalcon's graph loaders (make fuzz).
 *
 * Input: one byte that picks the format, then the file's bytes.  The format
 * is byte % 8 in the order of fal_format (0 auto, 1 Falcon text, 2 SNAP,
 * 3 DIMACS, 4 PACE, 5 Matrix Market, 6 Galois .gr, 7 Falcon binary CSR);
 * the bytes may be gzip or xz compressed, which the loader detects by magic
 * bytes as it does for real files.  The bytes are handed to
 * fal_graph_read through a memory file (/proc/self/fd/N of a memfd), the
 * path every program takes.
 *
 * Oracles: ASan and UBSan, the fuzzer's timeout, and the CSR invariants a
 * loaded graph must keep (checked below; a violation aborts): offsets
 * start at 0, never decrease and end at nedges; every destination is a
 * point.  A loaded graph is also written back in the binary format and
 * read again, which must give the same graph.
 *
 * Built with afl-clang-fast this runs in persistent mode; otherwise
 * `fuzz_graph FILE...` replays inputs.
 */
#define _GNU_SOURCE
#include <falcon/graph.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int data_fd = -1, bin_fd = -1;
static char data_path[64], bin_path[64];

static int open_memfd(const char *name, char *path, size_t n)
{
  int fd = memfd_create(name, 0);
  if (fd < 0) {
    perror("memfd_create");
    exit(1);
  }
  snprintf(path, n, "/proc/self/fd/%d", fd);
  return fd;
}

static void set_contents(int fd, const unsigned char *data, size_t len)
{
  if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    perror("memfd");
    exit(1);
  }
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w <= 0) {
      perror("memfd write");
      exit(1);
    }
    data += w;
    len -= (size_t)w;
  }
}

static void check_csr(const fal_graph *g)
{
  if (g->npoints < 0 || g->nedges < 0 || g->offsets[0] != 0 ||
      g->offsets[g->npoints] != g->nedges)
    abort();
  for (int64_t p = 0; p < g->npoints; p++)
    if (g->offsets[p] > g->offsets[p + 1])
      abort();
  for (int64_t e = 0; e < g->nedges; e++)
    if (g->dst[e] < 0 || g->dst[e] >= g->npoints)
      abort();
}

static void same_graph(const fal_graph *a, const fal_graph *b)
{
  if (a->npoints != b->npoints || a->nedges != b->nedges ||
      memcmp(a->offsets, b->offsets, (size_t)(a->npoints + 1) * sizeof *a->offsets) ||
      memcmp(a->dst, b->dst, (size_t)a->nedges * sizeof *a->dst) ||
      memcmp(a->weight, b->weight, (size_t)a->nedges * sizeof *a->weight))
    abort();
}

static void load_one(const unsigned char *buf, size_t len)
{
  if (len < 1)
    return;
  fal_format f = (fal_format)(buf[0] % 8);
  set_contents(data_fd, buf + 1, len - 1);
  fal_graph g;
  if (fal_graph_read(&g, data_path, f) != 0)
    return; /* a diagnostic was printed; the loader freed what it made */
  check_csr(&g);
  if (fal_graph_write_bin(&g, bin_path) == 0) {
    fal_graph h;
    if (fal_graph_read(&h, bin_path, FAL_FORMAT_FALCON_BIN) != 0)
      abort(); /* what we wrote must load */
    same_graph(&g, &h);
    fal_graph_free(&h);
  }
  fal_graph_free(&g);
}

static void setup(void)
{
  data_fd = open_memfd("fal_fuzz_in", data_path, sizeof data_path);
  bin_fd = open_memfd("fal_fuzz_bin", bin_path, sizeof bin_path);
}

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();

int main(void)
{
  if (!freopen("/dev/null", "w", stderr))
    return 1;
  setup();
  __AFL_INIT();
  const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
  while (__AFL_LOOP(10000))
    load_one(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
  return 0;
}
#else
int main(int argc, char **argv)
{
  if (argc < 2) {
    fputs("usage: fuzz_graph FILE...  (replays inputs; see make fuzz)\n", stderr);
    return 2;
  }
  setup();
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 1;
    }
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, n;
    unsigned char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
      if (len + n > cap) {
        cap = (len + n) * 2;
        buf = realloc(buf, cap);
        if (!buf)
          return 1;
      }
      memcpy(buf + len, chunk, n);
      len += n;
    }
    fclose(f);
    load_one(buf, len);
    free(buf);
  }
  return 0;
}
#endif
