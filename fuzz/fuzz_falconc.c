/*
 * fuzz_falconc.c: the AFL++ harness for the compiler (make fuzz, fuzz/README
 * section of README.md).
 *
 * Each input is one .fal program.  It goes through the whole pipeline of
 * main.c: parsed once, then sema and lowering three times: for the CPU
 * target, for the GPU target, and for the GPU target with planned loops on
 * the device (--gpu-loops=device) and --explain, so the front end, the
 * planner and both lowerings see every input.  Diagnostics go to
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

/* Sema and lowering of a parsed input for one set of options.  Neither
 * changes the tree, so one parse serves all three. */
static void lower_once(const Source *src, const Node *root, const Options *opt)
{
  Program prog = {0};
  StrBuf out = {0};
  if (sema_program(src, root, &prog))
    lower_program(src, root, &prog, opt, &out);
  program_free(&prog);
  strbuf_free(&out);
}

static void compile_all(const char *data, size_t len)
{
  Options cpu = {.target = TARGET_CPU, .line_directives = true};
  Options gpu = {.target = TARGET_GPU, .line_directives = true};
  Options dev = {.target = TARGET_GPU, .line_directives = false,
                 .explain = true, .device_loops = true};
  char *text = xmalloc(len + 1);
  memcpy(text, data, len);
  text[len] = '\0';
  Source *src = source_from_text("fuzz.fal", text, len);
  error_reset();
  Node *root = parse_source(src);
  if (root && report_syntax_errors(src, root) == 0) {
    lower_once(src, root, &cpu);
    lower_once(src, root, &gpu);
    lower_once(src, root, &dev);
  }
  if (root)
    node_delete(root);
  source_delete(src);
}

/* As falconc itself (main.c), on a thread with a 1 GiB stack: the tree may
 * be 200,000 levels deep, and ASan's frames are big. */
typedef struct Input {
  const char *data;
  size_t len;
} Input;

static void *compile_thread(void *p)
{
  Input *in = p;
  compile_all(in->data, in->len);
  return NULL;
}

static void compile_on_big_stack(const char *data, size_t len)
{
  Input in = {data, len};
  pthread_attr_t attr;
  pthread_t t;
  if (pthread_attr_init(&attr) != 0 ||
      pthread_attr_setstacksize(&attr, (size_t)1 << 30) != 0 ||
      pthread_create(&t, &attr, compile_thread, &in) != 0) {
    perror("fuzz_falconc: pthread");
    abort();
  }
  pthread_attr_destroy(&attr);
  pthread_join(t, NULL);
}

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();

int main(void)
{
  if (!freopen("/dev/null", "w", stderr))
    return 1;
  __AFL_INIT();
  const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
  while (__AFL_LOOP(10000))
    compile_on_big_stack((const char *)buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
  return 0;
}
#else
int main(int argc, char **argv)
{
  if (argc < 2) {
    fputs("usage: fuzz_falconc FILE...  (replays inputs; see make fuzz)\n", stderr);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    size_t len;
    char *data = read_file(argv[i], &len);
    if (!data) {
      perror(argv[i]);
      return 1;
    }
    compile_on_big_stack(data, len);
    free(data);
  }
  return 0;
}
#endif
