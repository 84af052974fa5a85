import { UsageError } from '../errors.js';
import { type SourceAxes, Y_UP_RIGHT_HANDED } from './axes.js';
import type { AnimClip } from './clip.js';
import type { Mesh } from './mesh.js';
import type { Skeleton } from './skeleton.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/** What `new AnimResource(init)` takes. */
export interface AnimResourceInit {
  /** Source format id, e.g. `nax2`, `nax3`, `nanim2`. */
  format: string;
  clips: AnimClip[];
  skeleton?: Skeleton | null;
  /** Meshes carried by the skeleton's joints (scene formats such as AAF). */
  meshes?: Mesh[];
  /** Meshes skinned to the skeleton (Meteor `.skc`). */
  skins?: SkinnedMesh[];
  /** Header facts of the source (layout, version, counts), as `animcore info` prints them. */
  info?: Record<string, unknown>;
  warnings?: string[];
  /** The source's up axis and handedness (spec `<format>.md`); default Y-up, right-handed (glTF's). */
  axes?: SourceAxes;
}

/**
 * Everything one file (or file set) holds: clips, an optional skeleton with its rigid and skinned meshes, the source format's facts
 * and the reader's warnings (after Nebula3 `CoreAnimation::AnimResource`). Once a core has loaded
 * it, the resource owns wasm memory until `dispose()`.
 */
export class AnimResource {
  readonly format: string;
  readonly clips: readonly AnimClip[];
  readonly skeleton: Skeleton | null;
  readonly meshes: readonly Mesh[];
  readonly skins: readonly SkinnedMesh[];
  readonly info: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];
  /** The space of positions and rotations: up axis and handedness, as the format defines them. */
  readonly axes: SourceAxes;
  private readonly disposers: (() => void)[] = [];

  constructor(init: AnimResourceInit) {
    this.format = init.format;
    this.clips = init.clips;
    this.skeleton = init.skeleton ?? null;
    this.meshes = init.meshes ?? [];
    this.skins = init.skins ?? [];
    this.info = init.info ?? {};
    this.warnings = init.warnings ?? [];
    this.axes = init.axes ?? Y_UP_RIGHT_HANDED;
  }

  /**
   * The clip with this name, or at this index. Throws `UsageError` listing the clip names when
   * there is none.
   */
  clip(nameOrIndex: string | number): AnimClip {
    const byName = typeof nameOrIndex === 'string' ? this.clips.find((c) => c.name === nameOrIndex) : undefined;
    const index = typeof nameOrIndex === 'number' ? nameOrIndex : /^\d+$/.test(nameOrIndex) ? Number(nameOrIndex) : -1;
    const clip = byName ?? this.clips[index];
    if (!clip) {
      throw new UsageError(`no clip ${JSON.stringify(nameOrIndex)}; clips: ${this.clips.map((c) => c.name).join(', ')}`);
    }
    return clip;
  }

  /** Registers a release action (used by the core when it copies this resource into wasm memory). */
  onDispose(release: () => void): void {
    this.disposers.push(release);
  }

  /** Frees the wasm memory the resource holds in every core that loaded it. Safe to call twice. */
  dispose(): void {
    for (const release of this.disposers.splice(0)) release();
  }
}
