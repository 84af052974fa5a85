/**
 * A small seeded pseudo-random generator (sfc32) for the fuzzer: fast, and every input is a pure
 * function of (run seed, input index), so a failing input can be made again from its two numbers.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    this.a = seed >>> 0;
    this.b = (stream * 0x9e3779b9) >>> 0;
    this.c = 0x243f6a88 ^ (seed >>> 0);
    this.d = 1;
    for (let i = 0; i < 16; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** A float in [min, max), rounded to `digits` decimals when given (text files write few digits). */
  real(min: number, max: number, digits?: number): number {
    const v = min + this.float() * (max - min);
    return digits === undefined ? v : Number(v.toFixed(digits));
  }

  /** A random unit quaternion (x, y, z, w). */
  quaternion(): [number, number, number, number] {
    for (;;) {
      const q = [this.real(-1, 1), this.real(-1, 1), this.real(-1, 1), this.real(-1, 1)] as [number, number, number, number];
      const l = Math.hypot(...q);
      if (l > 0.1) return q.map((v) => v / l) as [number, number, number, number];
    }
  }
}
