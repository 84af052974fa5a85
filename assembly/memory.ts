// Raw allocations in the one linear memory: the host's blocks (clips, sample buffers, jobs). The
// kernels allocate nothing else (no managed objects), so this is the module's only allocator.
//
// Why not AssemblyScript's TLSF (`heap.alloc`): when it runs out it grows memory by
// max(current size, the whole request), so a 1 MiB clip loaded into a full 4 MiB memory grows it
// to 8 MiB, and a crowd of clips ends up with up to twice the memory it uses. Here memory grows
// by the pages a request lacks (the free space at the end counts) or by an eighth of the memory
// (at most 64 MiB), whichever is more. Why not exactly what it lacks: V8 reports the whole memory
// as newly allocated external memory at every grow, and once that adds up to more than about
// 64 MiB it runs a full garbage collection, so growing once per load made loading many clips
// quadratic (500 clips of 0.9 MiB: 35 s, more than half of it in the collector). Geometric steps
// make the number of grows logarithmic; the pages grown ahead are not touched (resident) until a
// block uses them. Emscripten grows the same way (20 %, capped at 96 MiB).
//
// Blocks are 16-byte aligned (the v128 kernels prefer it) and zero-filled. Each has a 16-byte
// header: its size in bytes, header included (and, while free, the next free block). Free blocks
// form one list in address order: first fit, split when the rest can hold a block, and merged
// with free neighbours on `free`, so load/dispose cycles do not grow memory.

// @ts-ignore: decorator
@inline const HEADER: usize = 16;
// @ts-ignore: decorator
@inline const MIN_BLOCK: usize = 32;
// @ts-ignore: decorator
@inline const PAGE: usize = 65536;
// @ts-ignore: decorator
@inline const GROWTH_CAP: usize = 64 << 20;

/** The first free block (address order), 0 when there is none. */
let freeList: usize = 0;
/** The end of the heap: memory grown so far (bytes). */
let heapEnd: usize = 0;

// @ts-ignore: decorator
@inline
function sizeOf(block: usize): usize {
  return load<usize>(block);
}

// @ts-ignore: decorator
@inline
function nextOf(block: usize): usize {
  return load<usize>(block, 4);
}

/** Takes the memory the module starts with (from the end of its static data) as one free block. */
function initialize(): void {
  const start = (__heap_base + 15) & ~15;
  heapEnd = <usize>memory.size() * PAGE;
  if (heapEnd - start >= MIN_BLOCK) {
    store<usize>(start, heapEnd - start);
    store<usize>(start, 0, 4);
    freeList = start;
  }
}

/**
 * Grows memory by the pages `need` bytes lack beyond the free block that ends the heap (if any),
 * or by an eighth of the memory (at most GROWTH_CAP) when that is more (see the top of this file),
 * and adds them to the free list. Returns false when the host refuses to grow by what is lacking.
 */
function grow(need: usize): bool {
  let last: usize = 0;
  for (let b = freeList; b != 0; b = nextOf(b)) last = b;
  const tail = last != 0 && last + sizeOf(last) == heapEnd ? sizeOf(last) : 0;
  const lacking = <i32>((need - tail + PAGE - 1) / PAGE);
  let pages = max<i32>(lacking, <i32>(min<usize>(heapEnd >> 3, GROWTH_CAP) / PAGE));
  // Near the 4 GiB limit (or a host's own) the step may not fit where the request still does.
  if (memory.grow(pages) < 0) {
    pages = lacking;
    if (memory.grow(pages) < 0) return false;
  }
  const added = <usize>pages * PAGE;
  if (tail != 0) {
    store<usize>(last, tail + added);
  } else {
    store<usize>(heapEnd, added);
    store<usize>(heapEnd, 0, 4);
    if (last != 0) store<usize>(last, heapEnd, 4);
    else freeList = heapEnd;
  }
  heapEnd += added;
  return true;
}

/** A zero-filled block of at least `size` bytes, 16-byte aligned; 0 when memory cannot grow. */
export function alloc(size: usize): usize {
  if (heapEnd == 0) initialize();
  if (size > 0xfff00000) return 0;
  const need = max<usize>(MIN_BLOCK, ((size + 15) & ~15) + HEADER);
  for (let attempt = 0; attempt < 2; attempt++) {
    let prev: usize = 0;
    for (let b = freeList; b != 0; b = nextOf(b)) {
      const have = sizeOf(b);
      if (have >= need) {
        let next = nextOf(b);
        let taken = have;
        if (have - need >= MIN_BLOCK) {
          // Split: the rest stays free in b's place.
          const rest = b + need;
          store<usize>(rest, have - need);
          store<usize>(rest, next, 4);
          next = rest;
          taken = need;
        }
        if (prev != 0) store<usize>(prev, next, 4);
        else freeList = next;
        store<usize>(b, taken);
        memory.fill(b + HEADER, 0, taken - HEADER);
        return b + HEADER;
      }
      prev = b;
    }
    if (!grow(need)) return 0;
  }
  return 0;
}

/** Returns block `ptr` (from `alloc`; 0 is ignored) to the free list, merged with free neighbours. */
export function free(ptr: usize): void {
  if (ptr == 0) return;
  let block = ptr - HEADER;
  let size = sizeOf(block);
  let prev: usize = 0;
  let next = freeList;
  while (next != 0 && next < block) {
    prev = next;
    next = nextOf(next);
  }
  if (next != 0 && block + size == next) {
    size += sizeOf(next);
    next = nextOf(next);
  }
  if (prev != 0 && prev + sizeOf(prev) == block) {
    block = prev;
    size += sizeOf(prev);
  } else if (prev != 0) {
    store<usize>(prev, block, 4);
  } else {
    freeList = block;
  }
  store<usize>(block, size);
  store<usize>(block, next, 4);
}
