/**
 * Typed-array views over the one `WebAssembly.Memory`, re-derived whenever the memory has grown
 * (growing detaches the old `ArrayBuffer`). Read `f32`/`u32`/`u8`/`f64` after any call that may allocate;
 * never keep the arrays across such calls.
 */
export class MemoryViews {
  private buffer: ArrayBuffer | null = null;
  private f32View = new Float32Array(0);
  private u32View = new Uint32Array(0);
  private u8View = new Uint8Array(0);
  private f64View = new Float64Array(0);

  constructor(readonly memory: WebAssembly.Memory) {}

  private refresh(): void {
    const buffer = this.memory.buffer;
    if (buffer !== this.buffer) {
      this.buffer = buffer;
      this.f32View = new Float32Array(buffer);
      this.u32View = new Uint32Array(buffer);
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
    return this.memory.buffer.byteLength;
  }
}
