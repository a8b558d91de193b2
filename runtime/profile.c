/*
 * profile.c: FALCON_PROFILE=1 (docs/optimiser.md).  Generated code calls
 * fal_prof_t0() before a planned loop and fal_prof_end() after it; at exit
 * one line per loop: file:line, the plan it ran, times entered, rounds,
 * total milliseconds, and for CPU regions the points their phases visited
 * (fal_prof_visits: all points for a scan, the list's length for a
 * frontier; "-" where not counted).  Without FALCON_PROFILE the calls
 * return at once.
 */
#include "falcon/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fal_prof_entry {
  const char *file, *plan;
  int line;
  long long entered, rounds, visited; /* visited < 0: not counted */
  double seconds;
} fal_prof_entry;

static int prof_state = -1; /* -1: FALCON_PROFILE not read yet */
static fal_prof_entry *prof;
static int nprof, capprof;

/* Under mpirun each rank prints its own table at its exit, and the
 * ranks' lines interleave: each line then names its rank (Open MPI's
 * OMPI_COMM_WORLD_RANK, or PMI_RANK), so that the tables can be told
 * apart ("falcon profile: rank 1: ..."). */
static const char *prof_prefix(char *buf, size_t n)
{
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  const char *k = getenv("OMPI_COMM_WORLD_SIZE");
  if (!r) {
    r = getenv("PMI_RANK");
    k = getenv("PMI_SIZE");
  }
  if (r && *r && strspn(r, "0123456789") == strlen(r) && strlen(r) < 12 &&
      (!k || strcmp(k, "1") != 0))
    snprintf(buf, n, "falcon profile: rank %s: ", r);
  else
    snprintf(buf, n, "falcon profile: ");
  return buf;
}

static void prof_report(void)
{
  if (!nprof)
    return;
  char pre[64];
  prof_prefix(pre, sizeof pre);
  fprintf(stderr, "%s%-28s %-8s %8s %10s %12s %14s\n", pre, "loop", "plan", "entered",
          "rounds", "ms", "visited");
  for (int i = 0; i < nprof; i++) {
    const fal_prof_entry *e = &prof[i];
    char where[512];
    const char *base = strrchr(e->file, '/');
    snprintf(where, sizeof where, "%s:%d", base ? base + 1 : e->file, e->line);
    char vis[32] = "-";
    if (e->visited >= 0)
      snprintf(vis, sizeof vis, "%lld", e->visited);
    fprintf(stderr, "%s%-28s %-8s %8lld %10lld %12.3f %14s\n", pre, where, e->plan,
            e->entered, e->rounds, e->seconds * 1000, vis);
  }
  free(prof);
  prof = NULL;
  nprof = capprof = 0;
}

int fal_prof_enabled(void)
{
  if (prof_state < 0) {
    const char *v = getenv("FALCON_PROFILE");
    prof_state = v && *v && strcmp(v, "0") != 0;
    if (prof_state)
      atexit(prof_report);
  }
  return prof_state;
}

double fal_prof_t0(void)
{
  return fal_prof_enabled() ? fal_rtclock() : 0;
}

static fal_prof_entry *prof_entry(const char *file, int line, const char *plan)
{
  fal_prof_entry *e = NULL;
  for (int i = 0; i < nprof && !e; i++)
    if (prof[i].line == line && strcmp(prof[i].file, file) == 0 && strcmp(prof[i].plan, plan) == 0)
      e = &prof[i];
  if (!e) {
    if (nprof == capprof) {
      capprof = capprof ? 2 * capprof : 16;
      fal_prof_entry *np = realloc(prof, (size_t)capprof * sizeof *prof);
      if (!np)
        return NULL; /* profiling is best effort; the program goes on */
      prof = np;
    }
    e = &prof[nprof++];
    *e = (fal_prof_entry){file, plan, line, 0, 0, -1, 0};
  }
  return e;
}

void fal_prof_end(const char *file, int line, const char *plan, double t0, long long rounds)
{
  if (!fal_prof_enabled())
    return;
  double dt = fal_rtclock() - t0;
  fal_prof_entry *e = prof_entry(file, line, plan);
  if (!e)
    return;
  e->entered++;
  e->rounds += rounds;
  e->seconds += dt;
}

void fal_prof_visits(const char *file, int line, const char *plan, long long visited)
{
  if (!fal_prof_enabled())
    return;
  fal_prof_entry *e = prof_entry(file, line, plan);
  if (e)
    e->visited = (e->visited < 0 ? 0 : e->visited) + visited;
}
