import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openFile } from '../../src/cli/open-file.js';
import type { AnimCore } from '../../src/core/index.js';
import { toGltfDocument, writeGlb } from '../../src/export/gltf.js';
import { animJson } from '../../src/export/json.js';
import { createCore } from '../helpers/core.js';
import { EXAMPLES_DIR } from '../helpers/export-inputs.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

async function roundTrip(core: AnimCore, path: string) {
  const resource = (await openFile(path)).resource;
  const exported = toGltfDocument(core, resource);
  const glb = await writeGlb(exported.document);
  return { resource, doc: await new NodeIO().readBinary(glb), exported };
}

describe('glTF export content', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('AAF scene: one node per joint with its rest pose, every surface as a mesh on its joint', async () => {
    const { resource, doc } = await roundTrip(core, join(EXAMPLES_DIR, 'aaf', 'teapot-man.scene.aaf'));
    const nodes = doc.getRoot().listNodes();
    for (const j of resource.skeleton!.joints) {
      const node = nodes.find((n) => n.getName() === j.name)!;
      expect(node.getTranslation()).toEqual(j.rest.translation.map((x) => Math.fround(x)));
      expect(node.getParentNode()?.getName() ?? null).toBe(j.parent < 0 ? null : resource.skeleton!.joints[j.parent]!.name);
    }
    expect(doc.getRoot().listMeshes()).toHaveLength(resource.meshes.length);
    resource.meshes.forEach((m) => {
      const holder = nodes.find((n) => n.getMesh()?.getName() === m.name)!;
      expect(holder.getParentNode()!.getName()).toBe(resource.skeleton!.joints[m.joint]!.name);
    });
  });

  it('MRTK: root-level nodes per joint, tracked/pinching as step keys in extras, markers as events', async () => {
    const { doc } = await roundTrip(core, join(EXAMPLES_DIR, 'mrtk', 'hand-wave.bin'));
    const names = doc.getRoot().listScenes()[0]!.listChildren().map((n) => n.getName());
    expect(names).toEqual(expect.arrayContaining(['camera', 'right/Wrist', 'left/IndexTip']));
    const extras = doc.getRoot().listAnimations()[0]!.getExtras() as { animcore: { bools: { joint: string; property: string; times: number[]; values: number[] }[]; events: { name: string }[] } };
    const pinch = extras.animcore.bools.find((b) => b.joint === 'right' && b.property === 'pinching')!;
    expect(pinch.values).toEqual([0, 1, 0]);
    // At the key time itself (a Bool is a step, mrtk.md §6.8), not at the first baked frame after it.
    expect(pinch.times[1]).toBeCloseTo(0.6, 6);
    expect(extras.animcore.events.map((e) => e.name)).toEqual(['wave']);
  });

  it('JSON: a cycling uniform clip repeats key 0 at its end; constant curves are one key', async () => {
    const resource = (await openFile(join(EXAMPLES_DIR, 'nebula', 'wave.nax3'))).resource;
    const { json } = animJson(core, resource, { tolerance: 0 });
    const clip = json.clips[0]!;
    const rotation = clip.curves.find((c) => c.type === 'rotation')!;
    expect(rotation.times).toHaveLength(51);
    expect(rotation.times[50]).toBeCloseTo(2, 5);
    expect(rotation.values.slice(200, 204)).toEqual(rotation.values.slice(0, 4));
    expect(clip.curves.find((c) => c.type === 'scale')!.times).toEqual([0]);
  });

  it.skipIf(!haveFixtures('meteor'))('Meteor: the .skc as a skinned mesh over the skeleton, inverse bind matrices from the rest pose', async () => {
    const { resource, doc } = await roundTrip(core, fixturePath('meteor', 'p0.amb'));
    const [skin] = doc.getRoot().listSkins();
    expect(skin!.listJoints().map((n) => n.getName())).toEqual(resource.skeleton!.joints.map((j) => j.name));
    const ibm = skin!.getInverseBindMatrices()!.getArray()!;
    skin!.listJoints().forEach((node, i) => {
      const world = node.getWorldMatrix();
      // world × inverse bind = identity
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
          let v = 0;
          for (let k = 0; k < 4; k++) v += world[4 * k + r]! * ibm[16 * i + 4 * c + k]!;
          expect(v).toBeCloseTo(r === c ? 1 : 0, 4);
        }
      }
    });
    const primitive = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    expect(primitive.getAttribute('POSITION')!.getCount()).toBe(resource.skins[0]!.positions.length / 3);
    expect(primitive.getAttribute('JOINTS_0')).not.toBeNull();
    expect(primitive.getAttribute('WEIGHTS_0')).not.toBeNull();
  });
});
