/*
 * main.c: the falconc command and its pipeline, one stage per line:
 *
 *   source_open -> parse_source -> report_syntax_errors -> sema_program
 *   -> lower_program -> write_output
 */
#include "falconc.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The stack the compiler runs on: its stages recurse over the syntax tree,
 * which parse.c allows to be MAX_TREE_DEPTH deep.  Reserved, not used:
 * only the pages touched are ever allocated. */
#define FALCONC_STACK ((size_t)1 << 30)

static const char usage_text[] =
    "usage: falconc [options] FILE.fal\n"
    "\n"
    "Compiles a Falcon program to CUDA C++ (when it places anything on a GPU)\n"
    "or to C11 with OpenMP, written to standard output.\n"
    "\n"
    "options:\n"
    "  -o FILE            write the output to FILE instead of standard output\n"
    "  --target=TARGET    auto (default), gpu or cpu; cpu treats every <GPU>\n"
    "                     placement as host placement\n"
    "  --no-line          do not emit #line directives\n"
    "  --explain          print how each while loop with a foreach is planned\n"
    "                     (docs/optimiser.md) on standard error\n"
    "  --gpu-loops=MODE   auto (default), host or device: how a planned\n"
    "                     convergence loop runs on the GPU: auto starts it on\n"
    "                     the host and moves it into one cooperative kernel\n"
    "                     once its rounds are short; device runs it there\n"
    "                     whole; host keeps a launch per foreach per round\n"
    "  --mpi              a program that partitions a graph (makePartition)\n"
    "                     runs under MPI: each rank owns a range of points\n"
    "                     and exchanges only changed ghosts (link with\n"
    "                     libfalcon_mpi.a; C: compile with mpicc)\n"
    "  --help             print this help and exit\n"
    "  --version          print the version and exit\n"
    "\n"
    "environment of the compiled program (docs/falconc.1):\n"
    "  FALCON_PROFILE=1             print each planned loop's rounds and time\n"
    "  FALCON_GPU_LOOPS=host|device force where auto loops run (CUDA)\n"
    "  FALCON_FRONTIERS=on|off      frontier lists of planned loops (C;\n"
    "                               CUDA: only with on)\n"
    "  FALCON_DIRECTION=push|pull   every round of a loop like BFS's one way\n"
    "                               (C, CUDA)\n"
    "  FALCON_PULL_IN=kernel|host   where GPU parts' rounds that may pull run\n"
    "                               from the first (CUDA)\n"
    "  FALCON_EDGE_BALANCE=on|off   equal shares of points plus edges per\n"
    "                               thread in planned loops (C)\n"
    "  FALCON_WARP=on|off           a warp per point (CUDA)\n"
    "  FALCON_MPI_REPEAT=0          --mpi GPU ranks run a phase once a round\n"
    "                               instead of until it settles (CUDA)\n"
    "  FALCON_MPI_LOCAL=on|off      --mpi host ranks run a phase to their own\n"
    "                               fixpoint, lowest value first (auto: graphs\n"
    "                               of average degree <= 8, ranks of <= 4\n"
    "                               threads) (C)\n"
    "  FALCON_MPI_WINDOW=off|N      --mpi host ranks of a fixpoint loop take\n"
    "                               their heap each round up to a window the\n"
    "                               ranks share, about N points (auto: 4096 or\n"
    "                               points/ranks/64); off: the whole heap (C)\n"
    "  FALCON_MPI_SWEEP=on          ... and sweep their points every round\n"
    "                               (auto: in the first round only, the heap\n"
    "                               alone after it, for an integer property) (C)\n"
    "  FALCON_MPI_MERGE=host        --mpi GPU ranks merge incoming ghosts on\n"
    "                               the host instead of their GPU (CUDA)\n"
    "  FALCON_MPI_IPC=off|on        --mpi GPU ranks of one machine read each\n"
    "                               other's large rounds from their GPUs (CUDA\n"
    "                               IPC; default on where they can, off: through\n"
    "                               the host; on: note when they cannot)\n"
    "  FALCON_MPI_INLINE=N          with CUDA IPC, rounds of at most N entries\n"
    "                               for a rank still go in messages (16384)\n"
    "  FALCON_PX_MULTI=off          parts on several GPUs: loops from the host\n"
    "                               instead of a kernel per part (CUDA)\n"
    "  FALCON_PX_REMOTE=off|fetch   off: parts' MINs on other parts' points wait\n"
    "                               for the exchange every round (CUDA; --mpi GPU\n"
    "                               ranks of one machine: no shared GPU memory);\n"
    "                               fetch: such a MIN takes the owner's value\n"
    "                               back into the part's copy (not the default)\n"
    "  FALCON_MPX_HOST=gather       --mpi GPU ranks: the host rounds of\n"
    "                               BFS's loops merge borders over shared\n"
    "                               GPU memory instead of pushing each MIN\n"
    "                               (not the default; CUDA)\n"
    "  FALCON_PARTS_WARP=off|on     parts kernels keep a thread per point and\n"
    "                               the switch's window (off); on: also MPI\n"
    "                               GPU ranks' kernels take a warp per point\n"
    "                               (CUDA; default auto: one process's parts)\n"
    "  FALCON_PART_SHARES=a,b,...   ORDERED gives part i a_i/(a+b+...) of the\n"
    "                               edges instead of equal shares (all parts\n"
    "                               and MPI ranks alike; for measurements)\n";

static void usage_error(const char *fmt, const char *arg)
{
  fputs("falconc: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'falconc --help' for more information.\n", stderr);
  exit(2);
}

typedef struct Args {
  Options opt;
  const char *input;
  const char *output;
} Args;

static Target parse_target(const char *s)
{
  if (strcmp(s, "auto") == 0)
    return TARGET_AUTO;
  if (strcmp(s, "gpu") == 0)
    return TARGET_GPU;
  if (strcmp(s, "cpu") == 0)
    return TARGET_CPU;
  usage_error("unknown target '%s' (expected auto, gpu or cpu)", s);
  return TARGET_AUTO;
}

static Args parse_args(int argc, char **argv)
{
  Args a = {.opt = {.target = TARGET_AUTO, .line_directives = true}};
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
      fputs(usage_text, stdout);
      exit(0);
    } else if (strcmp(s, "--version") == 0) {
      printf("falconc %s\n", FALCONC_VERSION);
      exit(0);
    } else if (strcmp(s, "-o") == 0) {
      if (++i == argc)
        usage_error("%s needs a file name", "-o");
      a.output = argv[i];
    } else if (strncmp(s, "--target=", 9) == 0) {
      a.opt.target = parse_target(s + 9);
    } else if (strcmp(s, "--explain") == 0) {
      a.opt.explain = true;
    } else if (strcmp(s, "--gpu-loops=device") == 0) {
      a.opt.gpu_loops = GPU_LOOPS_DEVICE;
    } else if (strcmp(s, "--gpu-loops=host") == 0) {
      a.opt.gpu_loops = GPU_LOOPS_HOST;
    } else if (strcmp(s, "--gpu-loops=auto") == 0) {
      a.opt.gpu_loops = GPU_LOOPS_AUTO;
    } else if (strncmp(s, "--gpu-loops=", 12) == 0) {
      usage_error("unknown --gpu-loops mode '%s' (expected auto, host or device)", s + 12);
    } else if (strcmp(s, "--mpi") == 0) {
      a.opt.mpi = true;
    } else if (strcmp(s, "--no-line") == 0) {
      a.opt.line_directives = false;
    } else if (s[0] == '-' && s[1] != '\0') {
      usage_error("unknown option '%s'", s);
    } else if (a.input) {
      usage_error("more than one input file ('%s')", s);
    } else {
      a.input = s;
    }
  }
  if (!a.input)
    usage_error("%s", "no input file");
  return a;
}

static bool write_output(const Args *a, const StrBuf *text)
{
  if (!a->output) {
    if (emit_output(stdout, text))
      return true;
    error_plain("cannot write the output: %s", strerror(errno));
    return false;
  }
  FILE *out = fopen(a->output, "wb");
  if (!out) {
    error_plain("cannot open '%s' for writing: %s", a->output, strerror(errno));
    return false;
  }
  bool ok = emit_output(out, text);
  if (fclose(out) != 0)
    ok = false;
  if (!ok) {
    error_plain("cannot write '%s'", a->output);
    remove(a->output);
  }
  return ok;
}

static int compile(const Args *args)
{
  Args a = *args;
  Source *src = source_open(a.input);
  if (!src) {
    error_plain("cannot read '%s': %s", a.input, strerror(errno));
    return 1;
  }
  int status = 1;
  Program prog = {0};
  StrBuf text = {0};
  Node *root = parse_source(src);
  if (root && report_syntax_errors(src, root) == 0 &&
      sema_program(src, root, &prog) &&
      lower_program(src, root, &prog, &a.opt, &text) &&
      write_output(&a, &text))
    status = 0;
  program_free(&prog);
  strbuf_free(&text);
  if (root)
    node_delete(root);
  source_delete(src);
  return status;
}

typedef struct Job {
  const Args *args;
  int status;
} Job;

static void *compile_thread(void *p)
{
  Job *j = p;
  j->status = compile(j->args);
  return NULL;
}

int main(int argc, char **argv)
{
  Args a = parse_args(argc, argv);
  /* On a thread with a big stack; on the main thread if none can be made. */
  Job job = {&a, 1};
  pthread_attr_t attr;
  pthread_t t;
  if (pthread_attr_init(&attr) == 0) {
    bool started = pthread_attr_setstacksize(&attr, FALCONC_STACK) == 0 &&
                   pthread_create(&t, &attr, compile_thread, &job) == 0;
    pthread_attr_destroy(&attr);
    if (started) {
      pthread_join(t, NULL);
      return job.status;
    }
  }
  return compile(&a);
}
