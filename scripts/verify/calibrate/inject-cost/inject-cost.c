/*
 * tagbench's injected cost: an LD_PRELOAD library that makes a database server do a known
 * amount of extra work once per query answer, for `tagbench calibrate --meter instructions`
 * (and the wall meter: the work is real CPU time too).
 *
 * It interposes libc's send(): MariaDB 10.11 and MySQL 9.7 answer each query over a unix
 * socket with exactly one send() (strace: 1,003 sendto calls for 1,000 point selects or
 * updates, the 3 extra being the connection's handshake), made from net_flush() inside
 * dispatch_command(), so the cost lands in the instructions meter's query path.
 *
 * TAGBENCH_INJECT_INSTRUCTIONS=N adds N instructions (rounded down to an even number) to every
 * send(), in tagbench_injected_cost(), a named, exported, never-inlined function so that a
 * profile's function list can name where the added instructions went. Unset or 0: send() is
 * forwarded with only the interposition's own few instructions.
 *
 * TAGBENCH_INJECT_CPU_SHARE=F (the wall meter's calibration, `calibrate --inject preload`):
 * every send() also spins, in tagbench_injected_cpu(), until its thread has used F times the CPU
 * time it used since its previous send(), i.e. the server's own work on that query. The server
 * then needs 1 + F times the CPU per query, as if it ran on a CPU 1 / (1 + F) as fast: a slowdown
 * of known size that follows each query's cost, whatever the test, on any CPU. The thread's CPU
 * clock is read even at F = 0, so that servers at 0 pay the same reads as injected ones. Unset:
 * no clock is read. The two settings are independent; counting uses only the first, since CPU
 * time is not repeatable.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

typedef ssize_t (*send_fn)(int, const void *, size_t, int);

static send_fn real_send;
static unsigned long iterations;
/* Below 0: TAGBENCH_INJECT_CPU_SHARE unset, the thread CPU clock is never read. */
static double cpu_share = -1;
/* The thread's CPU time at the end of its previous send(), 0 before its first. */
static __thread unsigned long long last_send_cpu_ns;

/*
 * The loop is written in assembly so that its size is known and no compiler can shorten or
 * remove it: exactly two instructions per iteration (decrement, branch while not zero).
 */
#if defined(__x86_64__)
#define COST_LOOP(n) __asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc")
#elif defined(__aarch64__)
#define COST_LOOP(n) __asm__ volatile("1:\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc")
#else
#error "inject-cost.c has a two-instruction loop for x86_64 and aarch64 only"
#endif

/* Instructions each iteration of COST_LOOP executes; build-inject-cost.js reads this line. */
#define INSTRUCTIONS_PER_ITERATION 2

__attribute__((noinline, visibility("default"))) void tagbench_injected_cost(unsigned long n) {
  if (n == 0) return;
  COST_LOOP(n);
}

static unsigned long long thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

__attribute__((noinline, visibility("default"))) void tagbench_injected_cpu(void) {
  unsigned long long now = thread_cpu_ns();
  /* A thread's first send() has no query before it to measure (the connection's handshake). */
  if (last_send_cpu_ns != 0 && cpu_share > 0) {
    unsigned long long until = now + (unsigned long long)((double)(now - last_send_cpu_ns) * cpu_share);
    while (now < until) now = thread_cpu_ns();
  }
  last_send_cpu_ns = now;
}

/* Resolved once, before the server starts its threads, so send() itself never races on it. */
__attribute__((constructor)) static void tagbench_inject_init(void) {
  real_send = (send_fn)dlsym(RTLD_NEXT, "send");
  const char *text = getenv("TAGBENCH_INJECT_INSTRUCTIONS");
  iterations = text ? strtoul(text, NULL, 10) / INSTRUCTIONS_PER_ITERATION : 0;
  const char *share = getenv("TAGBENCH_INJECT_CPU_SHARE");
  if (share) cpu_share = strtod(share, NULL);
}

__attribute__((visibility("default"))) ssize_t send(int fd, const void *buf, size_t len, int flags) {
  tagbench_injected_cost(iterations);
  if (cpu_share >= 0) tagbench_injected_cpu();
  if (!real_send) real_send = (send_fn)dlsym(RTLD_NEXT, "send");
  return real_send(fd, buf, len, flags);
}
