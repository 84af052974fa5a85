/** Below this size `new Uint8Array` is kept: Node's `Buffer.allocUnsafe` hands out slices of a shared pool under half its 8 KiB pool size. */
const MIN_UNSAFE_BYTES = 4096;

/**
 * A new `Uint8Array` of `length` bytes (offset 0, its own `ArrayBuffer`) whose bytes are not
 * zeroed first where the platform allows it (Node's `Buffer.allocUnsafe`: malloc, not calloc;
 * elsewhere `new Uint8Array`), for an output the caller writes byte for byte. Why: the 16 MB glb of
 * a glTF → glTF bake was zero-filled (fresh pages faulted in) only to be overwritten (issue 15,
 * gltf-resample).
 */
export function uninitializedBytes(length: number): Uint8Array {
  const unsafe = (globalThis as { Buffer?: { allocUnsafe?: (size: number) => Uint8Array } }).Buffer?.allocUnsafe;
  if (unsafe === undefined || length < MIN_UNSAFE_BYTES) return new Uint8Array(length);
  const bytes = unsafe(length);
  // A slice of Node's pool (a larger Buffer.poolSize) would share its ArrayBuffer.
  if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== length) return new Uint8Array(length);
  // A plain Uint8Array over the Buffer's memory: a Buffer's slice() is a view, not a copy.
  return new Uint8Array(bytes.buffer, 0, length);
}
