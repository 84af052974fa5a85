import { describe, expect, it } from 'vitest';
import { AnimClip } from '../../src/anim/index.js';
import { clipLayout, rotationsLast } from '../../src/core/clip-layout.js';

describe('rotationsLast', () => {
  it('orders the included indices non-rotations first, then rotations, each in index order', () => {
    const types = ['rotation', 'translation', 'rotation', 'scale', 'float'] as const;
    expect(rotationsLast(types)).toEqual({ order: [1, 3, 4, 0, 2], linearCount: 3 });
    expect(rotationsLast(types, [true, true, false, true, false])).toEqual({ order: [1, 3, 0], linearCount: 2 });
  });
});

describe('clipLayout', () => {
  it('splits slots (active, animated; rotations last), constants (static or inactive) and Velocity curves', () => {
    const uniform = { encoding: 'uniform' as const, values: new Float32Array(8) };
    const curve = (curveType: 'rotation' | 'translation' | 'velocity', joint: string, active = true, keys: AnimClip['curves'][number]['keys'] = uniform) => ({ curveType, target: { joint, property: curveType }, active, keys });
    const clip = new AnimClip({
      name: 'c',
      keyCount: 2,
      keyDuration: 0.5,
      curves: [curve('rotation', 'a'), curve('translation', 'a'), curve('translation', 'b', false), curve('velocity', 'root'), curve('rotation', 'b', true, { encoding: 'static', value: Float32Array.of(0, 0, 0, 1) })],
    });
    expect(clipLayout(clip)).toEqual({ slots: [1, 3, 0], linearCount: 2, constant: [2, 4], velocity: [3] });
  });
});
