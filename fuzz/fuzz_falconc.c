/*
 * fuzz_falconc.c: the AFL++ harness for the compiler (make fuzz, fuzz/README
 * section of README.md).
 *
 * Each input is one .fal program.  It goes through the whole pipeline of
 * main.c: parse, syntax errors, sema, and one of three lowerings (picked
 * by a hash of the input, pick_lowering): for the CPU target, for the GPU
 * target, or for the GPU target with planned loops on the device
 * (--gpu-loops=device) and --explain.  The front end sees every input; the
 * planner and both lowerings a third of them each.  Diagnostics go to
 * /dev/null; the sanitizers (ASan, UBSan, built in by make fuzz) and the
 * fuzzer's timeout are the oracles.
 *
 * Built with afl-clang-fast this runs in AFL++'s persistent mode (many
 * inputs per process).  Built with any other compiler it is a replayer:
 * `fuzz_falconc FILE...` compiles each file the same way, which is how a
 * crash found by the fuzzer is reproduced under gdb.
 */
#include "../falconc/falconc.h"

#include <pthread.h>
#include <unistd.h>

#include <stdlib.h>
#include <string.h>

/* Sema and lowering of a parsed input for one set of options. */
static void lower_once(const Source *src, const Node *root, const Options *opt)
{
  Program prog = {0};
  StrBuf out = {0};
  if (sema_program(src, root, &prog))
    lower_program(src, root, &prog, opt, &out);
  program_free(&prog);
  strbuf_free(&out);
}

/* The lowering an input gets: a hash of its bytes picks one of three
 * (CPU target; GPU target; GPU with --gpu-loops=device and --explain), so
 * every input always takes the same path and the corpus covers all three
 * at a third of the cost of lowering each input three times. */
static int pick_lowering(const char *data, size_t len)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)data[i]) * 16777619u;
  return (int)(h % 3);
}

static void compile_all(const char *data, size_t len)
{
  static const Options opts[3] = {
      {.target = TARGET_CPU, .line_directives = true},
      {.target = TARGET_GPU, .line_directives = true},
      {.target = TARGET_GPU, .line_directives = false, .explain = true,
       .gpu_loops = GPU_LOOPS_DEVICE}};
  char *text = xmalloc(len + 1);
  memcpy(text, data, len);
  text[len] = '\0';
  Source *src = source_from_text("fuzz.fal", text, len);
  error_reset();
  Node *root = parse_source(src);
  if (root && report_syntax_errors(src, root) == 0)
    lower_once(src, root, &opts[pick_lowering(data, len)]);
  if (root)
    node_delete(root);
  source_delete(src);
}

/* As falconc itself (main.c), on a thread with a 1 GiB stack: the tree may
 * be 200,000 levels deep, and ASan's frames are big.  One thread runs all
 * the inputs of a process (ASan clears the shadow of a thread's whole
 * stack when it starts, far too slow to do per input). */
static void on_big_stack(void *(*fn)(void *), void *arg)
{
  pthread_attr_t attr;
  pthread_t t;
  if (pthread_attr_init(&attr) != 0 ||
      pthread_attr_setstacksize(&attr, (size_t)1 << 30) != 0 ||
      pthread_create(&t, &attr, fn, arg) != 0) {
    perror("fuzz_falconc: pthread");
    abort();
  }
  pthread_attr_destroy(&attr);
  pthread_join(t, NULL);
}

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();

static void *fuzz_loop(void *unused)
{
  (void)unused;
  const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
  while (__AFL_LOOP(10000))
    compile_all((const char *)buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
  return NULL;
}

int main(void)
{
  if (!freopen("/dev/null", "w", stderr))
    return 1;
  __AFL_INIT();
  on_big_stack(fuzz_loop, NULL);
  return 0;
}
#else
typedef struct Files {
  int n;
  char **paths;
  int status;
} Files;

static void *replay(void *p)
{
  Files *f = p;
  for (int i = 0; i < f->n; i++) {
    size_t len;
    char *data = read_file(f->paths[i], &len);
    if (!data) {
      perror(f->paths[i]);
      f->status = 1;
      return NULL;
    }
    compile_all(data, len);
    free(data);
  }
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fputs("usage: fuzz_falconc FILE...  (replays inputs; see make fuzz)\n", stderr);
    return 2;
  }
  Files f = {argc - 1, argv + 1, 0};
  on_big_stack(replay, &f);
  return f.status;
}
#endif
