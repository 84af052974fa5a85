import type { ByteReader, ByteWriter } from '../binary.js';

const HOST_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Reads `count` float32 values into a new `Float32Array` keeping their exact bit patterns
 * (NaN payloads included), in the reader's byte order, from any alignment. The count is checked
 * against the remaining bytes before allocating. Throws `FormatError` when the bytes run out.
 */
export function readF32Bits(r: ByteReader, count: number, what: string): Float32Array {
  r.needItems(count, 4, what);
  const src = r.raw(4 * count, what);
  const copy = src.slice();
  if (r.littleEndian !== HOST_LITTLE_ENDIAN) swap4(copy);
  return new Float32Array(copy.buffer, copy.byteOffset, count);
}

/** Writes the floats with their exact bit patterns in the writer's byte order. */
export function writeF32Bits(w: ByteWriter, values: Float32Array): void {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice();
  if (w.littleEndian !== HOST_LITTLE_ENDIAN) swap4(bytes);
  w.bytes(bytes);
}

function swap4(b: Uint8Array): void {
  for (let i = 0; i + 3 < b.length; i += 4) {
    const a0 = b[i]!;
    const a1 = b[i + 1]!;
    b[i] = b[i + 3]!;
    b[i + 1] = b[i + 2]!;
    b[i + 2] = a1;
    b[i + 3] = a0;
  }
}
