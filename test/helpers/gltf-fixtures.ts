import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnimResource } from '../../src/anim/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { expectedJson, fixturePath } from './fixtures.js';

/** The glTF fixtures' `expected.json` (see ../shared/fixtures/gltf/PROVENANCE.md). */
export interface GltfExpected {
  files: Record<string, GltfExpectedFile>;
}

export interface GltfExpectedFile {
  container: 'glb' | 'gltf';
  nodes: number;
  skins: { skin: number; joints: number[]; skeleton: number | null; hasInverseBindMatrices: boolean }[];
  animations: GltfExpectedAnimation[];
  restPose: { nodes: ExpectedNodeMatrices[] };
}

export interface GltfExpectedAnimation {
  index: number;
  name: string | null;
  start: number;
  duration: number;
  channels: { channel: number; node: number; path: string; interpolation: string; keys: number; firstKey: number; lastKey: number; valueSize: number }[];
  samples: { t: number; values: number[][] }[];
  shortPathNotes: { t: number; channel: number; spec: number[]; withoutSignFlip: number[] }[];
  modelSpace: { t: number; nodes: ExpectedNodeMatrices[] }[];
}

export interface ExpectedNodeMatrices {
  node: number;
  parent: number | null;
  local: number[];
  world: number[];
  jointMatrix?: number[];
}

/** `expected.json` of the glTF fixtures (call after `haveFixtures('gltf')`). */
export function gltfExpected(): GltfExpected {
  return expectedJson<GltfExpected>('gltf');
}

/** Opens a glTF fixture the way a file-based caller does: external resources read from its folder. */
export function openGltfFixture(name: string): Promise<AnimResource> {
  const path = fixturePath('gltf', name);
  return openGltf({ gltf: new Uint8Array(readFileSync(path)), resources: (uri) => new Uint8Array(readFileSync(join(dirname(path), uri))) });
}

/** Index of the first curve of each channel: channels give one curve each, `weights` one per target. */
export function channelCurves(animation: GltfExpectedAnimation): number[] {
  let next = 0;
  return animation.channels.map((c) => {
    const first = next;
    next += c.path === 'weights' ? c.valueSize : 1;
    return first;
  });
}
