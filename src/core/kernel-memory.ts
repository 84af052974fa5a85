import { AnimcoreError } from '../errors.js';
import type { KernelExports } from './kernel-exports.js';

/** `n` rounded up to a multiple of 16 (blocks and their arrays are 16-byte aligned for v128). */
export function align16(n: number): number {
  return (n + 15) & ~15;
}

/**
 * The kernel's exports and typed-array views over its one `WebAssembly.Memory`, re-derived
 * whenever the memory has grown (growing detaches the old `ArrayBuffer`). Read `f32`/`u32`/… after
 * any call that may allocate; never keep the arrays across such calls. Block fields are reached as
 * `pointer + OFFSET` with the offsets of assembly/layout.ts.
 */
export class KernelMemory {
  private buffer: ArrayBuffer | null = null;
  private f32View = new Float32Array(0);
  private u32View = new Uint32Array(0);
  private i32View = new Int32Array(0);
  private u8View = new Uint8Array(0);
  private f64View = new Float64Array(0);
  /** Bytes of each block `allocBlock` made, by pointer (for `blockBytes`). */
  private readonly sizes = new Map<number, number>();
  /** Blocks `sharedArrays` made, by their content: pointer and how many blocks use each. */
  private readonly shared = new Map<string, { ptr: number; users: number }>();
  /** The content key of the shared block each block uses, by the user's pointer. */
  private readonly sharedOf = new Map<number, string>();

  constructor(readonly kernel: KernelExports) {}

  private refresh(): void {
    const buffer = this.kernel.memory.buffer;
    if (buffer !== this.buffer) {
      this.buffer = buffer;
      this.f32View = new Float32Array(buffer);
      this.u32View = new Uint32Array(buffer);
      this.i32View = new Int32Array(buffer);
      this.u8View = new Uint8Array(buffer);
      this.f64View = new Float64Array(buffer);
    }
  }

  get f32(): Float32Array {
    this.refresh();
    return this.f32View;
  }

  get u32(): Uint32Array {
    this.refresh();
    return this.u32View;
  }

  get i32(): Int32Array {
    this.refresh();
    return this.i32View;
  }

  get u8(): Uint8Array {
    this.refresh();
    return this.u8View;
  }

  get f64(): Float64Array {
    this.refresh();
    return this.f64View;
  }

  /** Current memory size in bytes. */
  get byteLength(): number {
    return this.kernel.memory.buffer.byteLength;
  }

  /**
   * Allocates one zero-filled block: `headerSize` bytes, then one 16-byte aligned array per entry
   * of `arraySizes` (bytes). Returns the block pointer and each array's address. Memory grows by
   * the pages the block lacks, no more (assembly/memory.ts).
   * @throws AnimcoreError when wasm memory cannot grow that far
   */
  allocBlock(headerSize: number, arraySizes: readonly number[]): { ptr: number; arrays: number[] } {
    // Plain loops, not callbacks made per call: V8 compiled those again every few glTF files (issue 15).
    let size = align16(headerSize);
    for (let i = 0; i < arraySizes.length; i++) size += align16(arraySizes[i]!);
    const ptr = this.kernel.alloc(size);
    if (ptr === 0) throw new AnimcoreError(`wasm memory cannot grow by the ${size} bytes a block needs (it holds ${this.byteLength} bytes; wasm32 stops at 4 GiB)`);
    this.sizes.set(ptr, size);
    const arrays: number[] = [];
    let at = ptr + align16(headerSize);
    for (let i = 0; i < arraySizes.length; i++) {
      arrays.push(at);
      at += align16(arraySizes[i]!);
    }
    return { ptr, arrays };
  }

  /**
   * Addresses of `arrays` copied one after another (16-byte aligned) into a block shared by every
   * block whose arrays have the same bytes — the output tables of a crowd's clips of one layout,
   * which then stay in cache instead of costing each instance their own cache lines (issue 16,
   * crowd-cold) — and used by block `owner` (one shared block per owner), freed with its last owner.
   * Bytes only, in plain loops: arrays of mixed element types here made V8 deoptimise and recompile
   * the clip loaders every few glTF files (issue 15).
   * @throws AnimcoreError as `allocBlock`
   */
  sharedArrays(owner: number, arrays: readonly Uint8Array[]): number[] {
    const sizes: number[] = [];
    let key = '';
    for (let i = 0; i < arrays.length; i++) {
      const a = arrays[i]!;
      sizes.push(a.length);
      key += `${a.length}:${a.join(',')}|`;
    }
    let block = this.shared.get(key);
    if (!block) {
      block = { ptr: this.allocBlock(0, sizes).ptr, users: 0 };
      const u8 = this.u8;
      let at = block.ptr;
      for (let i = 0; i < arrays.length; i++) {
        u8.set(arrays[i]!, at);
        at += align16(sizes[i]!);
      }
      this.shared.set(key, block);
    }
    block.users++;
    this.sharedOf.set(owner, key);
    const addresses: number[] = [];
    let at = block.ptr;
    for (let i = 0; i < sizes.length; i++) {
      addresses.push(at);
      at += align16(sizes[i]!);
    }
    return addresses;
  }

  /** Bytes of block `ptr` as `allocBlock` laid it out (header and aligned arrays), with the shared block it uses. */
  blockBytes(ptr: number): number {
    const key = this.sharedOf.get(ptr);
    return (this.sizes.get(ptr) ?? 0) + (key === undefined ? 0 : this.sizes.get(this.shared.get(key)!.ptr)!);
  }

  /** Frees block `ptr`, and the shared block it uses when it was the last user. */
  free(ptr: number): void {
    const key = this.sharedOf.get(ptr);
    if (key !== undefined) {
      this.sharedOf.delete(ptr);
      const block = this.shared.get(key)!;
      if (--block.users === 0) {
        this.shared.delete(key);
        this.free(block.ptr);
      }
    }
    this.sizes.delete(ptr);
    this.kernel.free(ptr);
  }
}
