// Raw allocations in the one linear memory. Blocks come from AssemblyScript's TLSF allocator
// (runtime "minimal"), which reuses freed blocks, so load/dispose cycles do not grow memory.
// Blocks are 16-byte aligned, as the v128 kernels prefer; they are zero-filled.

export function alloc(size: usize): usize {
  const ptr = heap.alloc(size);
  memory.fill(ptr, 0, size);
  return ptr;
}

export function free(ptr: usize): void {
  if (ptr != 0) heap.free(ptr);
}
