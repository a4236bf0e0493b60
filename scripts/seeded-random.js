/**
 * The project's one seeded uniform generator (mulberry32). Math.random cannot be seeded, and
 * what uses this must replay exactly: the insert benchmark's rows (same pass, step and client,
 * same rows), the release-series rule's simulated no-event series, the tests' synthetic
 * histories. Hand-written because it is five lines and a dependency would change no result.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function seededUniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
