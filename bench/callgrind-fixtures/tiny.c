/*
 * A program small enough to check callgrind's self and inclusive costs by hand: a call chain
 * (main -> chain_a -> chain_b -> leaf) and a directly recursive function (fact), which callgrind
 * splits into fact and fact'2 (its default --separate-recs=2). noinline keeps every function a
 * real call at -O1.
 */
#include <stdio.h>

__attribute__((noinline)) static long leaf(long x) { return x * 3 + 1; }

__attribute__((noinline)) static long chain_b(long x) {
  long s = 0;
  for (long i = 0; i < 10; i++) s += leaf(x + i);
  return s;
}

__attribute__((noinline)) static long chain_a(long x) { return chain_b(x) + chain_b(x + 1); }

__attribute__((noinline)) static long fact(long n) { return n <= 1 ? 1 : n * fact(n - 1); }

int main(void) {
  long total = 0;
  for (int i = 0; i < 5; i++) total += chain_a(i);
  total += fact(12);
  printf("%ld\n", total);
  return 0;
}
