import type { AnimResource } from '../anim/index.js';

/** What a format reader gets from the CLI (or any caller that works with files). */
export interface OpenInput {
  /** Path of the named file (for messages and sibling look-up). */
  path: string;
  bytes: Uint8Array;
  /**
   * Bytes of a file in the same folder whose name matches `name` case-insensitively (game files
   * mix cases: `p0.amb` goes with `P0.bnc`), or `undefined` when there is none.
   */
  sibling(name: string): Uint8Array | undefined;
  /** Files given explicitly by role (e.g. `skeleton`, `bnc`, `pos`, `scene`, `animation`). */
  companions: Readonly<Record<string, Uint8Array>>;
}

/**
 * One format family as the CLI sees it. `detect` decides by content (magic, structure), never by
 * extension alone; `open` reads the file (and its companions) into an `AnimResource` and throws
 * `FormatError` on bad bytes.
 */
export interface FormatHandler {
  /** Stable id, e.g. `nax2`; `--format` takes it. */
  readonly id: string;
  readonly description: string;
  detect(bytes: Uint8Array, path: string): boolean;
  open(input: OpenInput): AnimResource;
}
