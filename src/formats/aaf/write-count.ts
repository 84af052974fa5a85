import { UsageError } from '../../errors.js';
import type { ByteWriter } from '../binary.js';

/**
 * Writes a u16 count or length (spec aaf.md §1: "2 байта" counts are u16).
 * @throws UsageError when `n` is not an integer in 0..65535 (the file cannot hold it)
 */
export function writeU16Count(w: ByteWriter, n: number, what: string): void {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff) throw new UsageError(`AAF: ${what} ${n} does not fit in a u16`);
  w.u16(n);
}

/**
 * Writes a u32 count (spec aaf.md §3: vertex and index counts).
 * @throws UsageError when `n` is not an integer in 0..2³²−1
 */
export function writeU32Count(w: ByteWriter, n: number, what: string): void {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new UsageError(`AAF: ${what} ${n} does not fit in a u32`);
  w.u32(n);
}
