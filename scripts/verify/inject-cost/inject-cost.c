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
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*send_fn)(int, const void *, size_t, int);

static send_fn real_send;
static unsigned long iterations;

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

/* Resolved once, before the server starts its threads, so send() itself never races on it. */
__attribute__((constructor)) static void tagbench_inject_init(void) {
  real_send = (send_fn)dlsym(RTLD_NEXT, "send");
  const char *text = getenv("TAGBENCH_INJECT_INSTRUCTIONS");
  iterations = text ? strtoul(text, NULL, 10) / INSTRUCTIONS_PER_ITERATION : 0;
}

__attribute__((visibility("default"))) ssize_t send(int fd, const void *buf, size_t len, int flags) {
  tagbench_injected_cost(iterations);
  if (!real_send) real_send = (send_fn)dlsym(RTLD_NEXT, "send");
  return real_send(fd, buf, len, flags);
}
