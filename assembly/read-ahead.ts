// Reading ahead for sampleMany: wasm has no prefetch instruction, so a load of one word per cache
// line is what brings a later instance's data into cache while this instance is sampled. Callers
// keep the sum (sampleMany stores it in a global), so that the compiler cannot drop the loads.

/** Bytes of a cache line (x86-64, most ARM64). */
const LINE: usize = 64;

/** The sum of one word of each cache line that the `bytes` bytes at `at` touch. */
export function touchLines(at: usize, bytes: usize): u32 {
  let sum: u32 = 0;
  const end = at + bytes;
  for (let a = at & ~(LINE - 1); a < end; a += LINE) sum += load<u32>(a);
  return sum;
}
