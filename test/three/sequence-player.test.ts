import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { loadSequence } from '../../src/sequencer/index.js';
import { SequencePlayer, toThreeSkeleton } from '../../src/three/index.js';
import { createCore } from '../helpers/core.js';
import { character } from '../sequencer/helpers.js';

let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});

describe('SequencePlayer', () => {
  it("poses a three.js skeleton with the sequencer's blend, composed in the same call", () => {
    const resource = character();
    // Walk (Hip x = 1) fading out over [0.5, 1) and run (x = 3) fading in, weighted: x = 1 + 4 (t − 0.5).
    const seq = loadSequence(core, resource, { rule: 'weighted', jobs: [{ clip: 'walk', fadeOut: 0.5 }, { clip: 'run', at: 0.5, fadeIn: 0.5 }] });
    const target = toThreeSkeleton(resource.skeleton!);
    const player = new SequencePlayer(core, { sequencer: seq, target });
    for (const [t, x] of [[0.25, 1], [0.75, 2], [0.9, 2.6], [1.2, 3]] as const) {
      player.update(t);
      const [hip, spine] = target.bones.map((b) => b.matrixWorld.elements.slice(12, 15));
      // Hip rests at (0, 10, 0) but the clips drive its translation; Spine sits 2 above it (identity rotations).
      expect(hip![0]).toBeCloseTo(x, 5);
      expect(hip![1]).toBeCloseTo(0, 6);
      expect(spine).toEqual([expect.closeTo(x, 5), expect.closeTo(2, 6), expect.closeTo(0, 6)]);
    }
    expect(seq.time).toBe(1.2);
    player.dispose();
    seq.dispose();
    const loose = loadSequence(core, new AnimResource({ format: 'test', clips: [...resource.clips] }), { jobs: [] });
    expect(() => new SequencePlayer(core, { sequencer: loose, target })).toThrow(/needs a resource with a skeleton/);
    loose.dispose();
  });

  it("poses a scene's objects (local transforms) from the blend, rest values where no job defines a curve", () => {
    const resource = character();
    const seq = loadSequence(core, resource, { rule: 'weighted', jobs: [{ clip: 'walk', fadeOut: 0.5 }, { clip: 'run', at: 0.5, fadeIn: 0.5 }, { clip: 'wave', track: 1, at: 0.5, mode: 'additive' }] });
    const objects = resource.skeleton!.joints.map(() => new THREE.Object3D());
    const player = new SequencePlayer(core, { sequencer: seq, scene: { resource, objects } });
    expect(player.model).toBeNull();
    player.update(0.75);
    expect(objects[0]!.position.toArray()).toEqual([expect.closeTo(2, 5), 0, 0]);
    // Spine: (0, 2, 0) from the clips; wave (static) is additive against itself at time 0: it adds nothing.
    expect(objects[1]!.position.toArray()).toEqual([0, 2, 0]);
    expect(objects[1]!.quaternion.toArray()).toEqual([0, 0, 0, 1]);
    expect(() => new SequencePlayer(core, { sequencer: seq, target: toThreeSkeleton(resource.skeleton!), scene: { resource, objects } })).toThrow(/exactly one of target/);
    expect(() => new SequencePlayer(core, { sequencer: seq, scene: { resource: character(), objects } })).toThrow(/of the sequencer's resource/);
    player.dispose();
    seq.dispose();
  });
});
