import type { AnimResource } from '../anim/index.js';
import type { ResourceRead } from './companions.js';

/**
 * A companion file a format opens with its main file (a skeleton, a pose table, a scene). The CLI
 * offers one option per role (`--<role in kebab-case> <file>`: `characterAmb` → `--character-amb`),
 * and companions not given are looked for beside the main file by name (`companions.ts`).
 */
export interface CompanionRole {
  /** Key in `FormatInput.companions`. */
  readonly role: string;
  /**
   * Name endings looked for beside the main file, as `<base><extension>` (`p0.amb` → `p0.bnc`),
   * in order, case-insensitively; `<base>` is the main file's name without its format extension.
   */
  readonly extensions: readonly string[];
  /** Whole file names looked for beside the main file (Meteor's `character.amb`), case-insensitively. */
  readonly names?: readonly string[];
  /** One line for `--help` and messages. */
  readonly description: string;
  /** `open` cannot do without it: a `UsageError` names it when it is neither given nor found. */
  readonly required?: boolean;
  /**
   * When not found by name, pair by content (`resolveCompanions`): the only file beside the main
   * one with one of `extensions`, or among several the one the handler's `companionFits` accepts.
   */
  readonly byContent?: boolean;
}

/** What a handler's detection found. */
export interface Detected<P = unknown> {
  /** What detection parsed, handed to `open` so that no file is parsed twice. */
  readonly parsed: P;
  /**
   * Among files of one format that take each other as companions, the higher rank opens the set
   * (an AAF scene over its animation, which would otherwise each claim the other). Default 0.
   */
  readonly rank?: number;
}

/** What a handler's `open` gets: the main file, what detection parsed and the companions. */
export interface FormatInput<P = unknown> {
  /** Path or name of the main file (for messages and names). */
  readonly path: string;
  readonly bytes: Uint8Array;
  /** What `detect` parsed; undefined when detection was skipped (`--format`), so `open` reads the bytes itself. */
  readonly detected?: P;
  /** Companion files by role: given by the caller, else found beside the main file (`resolveCompanions`). */
  readonly companions: Readonly<Partial<Record<string, Uint8Array>>>;
  /**
   * Bytes of another file the main one names, for formats that reference files by name: a name
   * beside it (case-insensitive), or a relative path with folders (`Folder.readPath`); undefined
   * when there is none, `{ refused }` when the folder will not read it.
   */
  sibling(name: string): ResourceRead;
}

/**
 * One format family: what the registry (`registry.ts`) knows of it. Each `src/formats/<fmt>/`
 * folder exports exactly one handler from `handler.ts`, built on the folder's `open<Fmt>`.
 */
export interface FormatHandler<P = unknown> {
  /** Stable id; `--format` takes it. */
  readonly id: string;
  /** One line for `--help` and messages: the format and its files. */
  readonly description: string;
  /**
   * Higher first: the order `detectFormat` tries handlers in (cheap magic checks before AAF's full
   * read), and which file of a set opens it when files of several formats are given together.
   */
  readonly priority: number;
  /** Name endings of the format's own files (longest first where one ends another: `.scene.aaf` before `.aaf`). */
  readonly extensions: readonly string[];
  readonly companions: readonly CompanionRole[];
  /**
   * Decides by content (magic, structure), never by extension alone: `null` when the bytes are not
   * of this format. Never throws for bad bytes.
   */
  detect(bytes: Uint8Array, path: string): Detected<P> | null;
  /**
   * Reads the main file (continuing from `detected` when given) with its companions into a resource.
   * May return a Promise (readers built on async libraries); callers await it.
   * @throws FormatError for bad bytes, UsageError for a missing required companion
   */
  open(input: FormatInput<P>): AnimResource | Promise<AnimResource>;
  /**
   * Whether `candidate` fits the main file as its `role` companion (e.g. a skeleton whose joint
   * count matches the animation's curves); used to choose among several files of a `byContent`
   * role. Never throws for bad bytes (false).
   */
  companionFits?(role: string, main: { path: string; bytes: Uint8Array; detected?: P }, candidate: Uint8Array): boolean;
  /**
   * The files beside the main file that it names and `open` reads through `sibling` (glTF
   * buffers and images), from what detection parsed: a folder walk takes them as the main
   * file's, not as files of their own. Paths relative to the main file's folder. Never throws.
   */
  references?(detected: P): readonly string[];
}
