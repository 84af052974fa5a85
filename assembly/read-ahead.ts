// Reading ahead: wasm has no prefetch instruction, so a load of one word per cache line is what
// brings data into cache before a kernel walks it (sampleMany: the next instance's, while this
// one is sampled). Callers pass the sum to `keep`, so that the compiler cannot drop the loads.

/** Bytes of a cache line (x86-64, most ARM64). */
const LINE: usize = 64;

/** The sum of one word of each cache line that the `bytes` bytes at `at` touch. */
export function touchLines(at: usize, bytes: usize): u32 {
  let sum: u32 = 0;
  const end = at + bytes;
  for (let a = at & ~(LINE - 1); a < end; a += LINE) sum += load<u32>(a);
  return sum;
}

/** The sum of every word read ahead: a global the loads feed, so they stay. */
let kept: u32 = 0;

/** Keeps `sum` (of words read ahead). */
// @ts-ignore: decorator
@inline
export function keep(sum: u32): void {
  kept += sum;
}
