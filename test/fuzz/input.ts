import type { Field } from './fields.js';
import type { Rng } from './rng.js';

/** One file of a fuzz input: its name (the format is detected by content) and bytes. */
export interface FuzzFile {
  name: string;
  bytes: Uint8Array;
  /** Numeric fields of a generated binary file (for `field-extreme`); absent for text. */
  fields?: Field[];
  text?: boolean;
}

/** A file set the pipeline opens: the main file and its companions by role (`skeleton`, `bnc`, …). */
export interface FuzzInput {
  /** The fuzz target (one per reader and variant) the input was made for. */
  target: string;
  main: FuzzFile;
  companions: Record<string, FuzzFile>;
  /** Which file the mutations changed: `main` or a companion role. */
  mutated: string;
  /** The mutations applied, in order (for the report and the saved input). */
  mutations: string[];
  /** A handler id to open with instead of detecting the format (so a damaged file still reaches its reader). */
  format?: string;
  /** Error bounds to load the clips with (`LoadOptions.compression`); absent: float keys. */
  compression?: { translation: number; rotation: number; scale: number };
}

/**
 * Parameters of a generated file: usually ordinary, sometimes (rate `extreme`) one of a list of
 * extremes. The generators keep every size equation whatever they draw, so an extreme count or
 * key time arrives in an otherwise well-formed file.
 */
export class Params {
  constructor(
    readonly rng: Rng,
    readonly extreme = 0.04,
  ) {}

  int(min: number, max: number, extremes: readonly number[] = []): number {
    return extremes.length > 0 && this.rng.chance(this.extreme) ? this.rng.pick(extremes) : this.rng.int(min, max);
  }

  real(min: number, max: number, extremes: readonly number[] = FLOAT_EXTREMES, digits?: number): number {
    return extremes.length > 0 && this.rng.chance(this.extreme) ? this.rng.pick(extremes) : this.rng.real(min, max, digits);
  }

  /** One of `normal`, or sometimes one of `extremes`. */
  pick<T>(normal: readonly T[], extremes: readonly T[]): T {
    return extremes.length > 0 && this.rng.chance(this.extreme) ? this.rng.pick(extremes) : this.rng.pick(normal);
  }

  quaternion(): number[] {
    return this.rng.chance(this.extreme) ? this.rng.pick(QUATERNION_EXTREMES) : this.rng.quaternion();
  }
}

/** Float values that broke readers and kernels before (issue 13): zeros, subnormals, huge, ±float32 max. */
export const FLOAT_EXTREMES = [0, -0, 1e-45, -1e-45, 1e-38, 1e-20, 1e20, -1e20, 1e30, 3.4028234e38, -3.4028234e38, 1.7e38];

/** Rotations that broke the kernels: zero, near zero, non-unit, huge. */
export const QUATERNION_EXTREMES = [
  [0, 0, 0, 0],
  [1e-20, 0, 0, 0],
  [0, 0, 0, 1e-7],
  [2, 0, 0, 0],
  [1e20, 1e20, 0, 0],
  [3.4e38, 0, 0, -3.4e38],
  [0.5, 0.5, 0.5, 0.4],
];

/** Generates a valid input for one target. */
export type Generator = (p: Params) => Omit<FuzzInput, 'target' | 'mutations' | 'format' | 'compression'>;

export const textFile = (name: string, text: string): FuzzFile => ({ name, bytes: new Uint8Array(Buffer.from(text, 'latin1')), text: true });

/** A number as text files write it: fixed decimals, or exponent form for extremes. */
export function num(v: number, digits = 6): string {
  if (Object.is(v, -0)) return '-0.0';
  const a = Math.abs(v);
  return a !== 0 && (a >= 1e9 || a < 1e-6) ? v.toExponential(8) : v.toFixed(digits);
}
