// reduce-batch (issue 14 item 9): keyframe reduction of a batch of glb files. The input: every
// fixture and example (bench/inputs.mjs) exported by animcore to glb, baked at 30 fps without
// reduction (glTF files into their own document); unnamed nodes get names so that channels can be
// matched across tools. Each contender reads every baked glb, reduces it and writes a glb, in memory:
// - animcore-simd: openGltf + rewriteGltf({ tolerance }) + .glb() (own key times: the baked keys,
//   reduced by the reduceKeys kernel; the file kept but for its animations); animcore-simd-matched the same with each
//   kind's tolerance set to the smaller of the largest errors the two others were measured at
//   (so its error is at most both of theirs: the target's "at equal or lower error");
//   animcore-simd-matched-int16 the same with `quantize` (rotations as normalized int16, as
//   gltfpack writes them; the reduction leaves room for the rounding);
// - gltf-transform: NodeIO read + @gltf-transform/functions resample({ tolerance }) + write
//   (its JavaScript resampler, the default);
// - gltfpack-wasm: gltfpack's npm build, `-af 30 -kn -vpf` (the baked rate, named nodes kept, no
//   dequantization nodes). gltfpack has no key tolerance: it keeps every frame at its rate, drops
//   tracks constant within 1e-3 (gltf/animation.cpp) and quantizes rotations (12 bits by default).
// The same tolerance: 1e-4 — glTF-Transform's per component, animcore's as a distance for
// translation/scale/weights and, for rotations, 2e-4 rad (the angle a 1e-4 change of one
// quaternion component makes).
// Timed: baked input keys per second (every key of every sampler). Measured, with one sampler for
// all three (three.js's interpolants: lerp, slerp, step, on the accessors as glTF-Transform reads
// them, normalized integers decoded): animation bytes (accessors of animation samplers) and file
// bytes, and the largest error against the baked input at every baked key and halfway between
// (translation and scale: distance in millionths of a unit; rotation: angle in millidegrees;
// weights: largest difference in millionths; a channel a tool left out is its node's rest value).
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { resample } from '@gltf-transform/functions';
import { pack } from 'gltfpack';
import { DiscreteInterpolant, LinearInterpolant, QuaternionLinearInterpolant } from 'three';
import { gltfSource, openGltf, rewriteGltf, toGltfDocument, writeGlb } from '../../dist/index.js';
import { openAll } from '../inputs.mjs';

const FPS = 30;
const TOLERANCE = 1e-4;
const ANIMCORE_TOLERANCE = { translation: TOLERANCE, scale: TOLERANCE, other: TOLERANCE, rotation: 2 * TOLERANCE };
const GLTFPACK_ARGS = ['-af', String(FPS), '-kn', '-vpf'];

const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);

/** Every input baked to glb at 30 fps, tolerance 0, every node named (and names unique). */
async function bakeAll(core) {
  const baked = [];
  for (const { path, resource } of await openAll()) {
    const source = gltfSource(resource);
    const options = { fps: FPS, tolerance: 0 };
    const document = source ? await io.readBinary(rewriteGltf(core, resource, source, options).glb()) : toGltfDocument(core, resource, options).document;
    const seen = new Set();
    document.getRoot().listNodes().forEach((node, i) => {
      let name = node.getName() || `node${i}`;
      while (seen.has(name)) name = `${name}_${i}`;
      seen.add(name);
      node.setName(name);
    });
    if (document.getRoot().listAnimations().length > 0) baked.push({ path, glb: await writeGlb(document) });
    resource.dispose();
  }
  return baked;
}

const animcore = (tolerance, quantize = false) => (core) => async (glb) => {
  const resource = await openGltf({ gltf: glb });
  const out = rewriteGltf(core, resource, gltfSource(resource), { tolerance, quantize }).glb();
  resource.dispose();
  return out;
};

const reducers = {
  'gltf-transform': () => async (glb) => {
    const document = await io.readBinary(glb);
    await document.transform(resample({ tolerance: TOLERANCE }));
    return io.writeBinary(document);
  },
  'gltfpack-wasm': () => async (glb) => {
    let out;
    await pack(['-i', 'in.glb', '-o', 'out.glb', ...GLTFPACK_ARGS], { read: () => glb, write: (_, data) => (out = data) });
    if (!out) throw new Error('gltfpack wrote nothing');
    return out;
  },
  'animcore-simd': animcore(ANIMCORE_TOLERANCE),
  'animcore-simd-matched': (core, worst) => animcore(matched(worst))(core),
  'animcore-simd-matched-int16': (core, worst) => animcore(matched(worst), true)(core),
};

/** Per kind the smaller of the two other tools' largest errors, from the reported units back to the tolerance's (units, radians). */
function matched(worst) {
  const least = (kind) => Math.min(worst['gltf-transform'][kind], worst['gltfpack-wasm'][kind]);
  return { translation: least('translation') / 1e6, scale: least('scale') / 1e6, other: least('weights') / 1e6, rotation: (least('rotation') * Math.PI) / 180e3 };
}

/** Bytes of the accessors that animation samplers use (each once). */
function animationBytes(document) {
  const accessors = new Set();
  for (const a of document.getRoot().listAnimations()) for (const s of a.listSamplers()) accessors.add(s.getInput()).add(s.getOutput());
  return [...accessors].reduce((n, a) => n + a.getByteLength(), 0);
}

const keysOf = (document) => document.getRoot().listAnimations().reduce((n, a) => n + a.listSamplers().reduce((m, s) => m + s.getInput().getCount(), 0), 0);

/** Decoded (denormalized) float values of an accessor. */
function floats(accessor) {
  const n = accessor.getCount();
  const size = accessor.getElementSize();
  const out = new Float32Array(n * size);
  const element = new Array(size);
  for (let i = 0; i < n; i++) out.set(accessor.getElement(i, element), i * size);
  return out;
}

/** A channel as a function of time, through three.js's interpolants. */
function channelSampler(channel) {
  const sampler = channel.getSampler();
  const times = floats(sampler.getInput());
  const values = floats(sampler.getOutput());
  const size = values.length / times.length;
  const interpolation = sampler.getInterpolation();
  if (interpolation === 'CUBICSPLINE') throw new Error('reduce-batch compares LINEAR and STEP channels only');
  const Interpolant = interpolation === 'STEP' ? DiscreteInterpolant : channel.getTargetPath() === 'rotation' ? QuaternionLinearInterpolant : LinearInterpolant;
  const interpolant = new Interpolant(times, values, size, new Float32Array(size));
  return (t) => Array.from(interpolant.evaluate(t));
}

function restValue(node, path) {
  if (path === 'translation') return node.getTranslation();
  if (path === 'rotation') return node.getRotation();
  if (path === 'scale') return node.getScale();
  return node.getWeights().length > 0 ? node.getWeights() : (node.getMesh()?.getWeights() ?? []);
}

/** Difference between two channel values: millionths of a unit, rotations millidegrees (q and −q alike). */
function difference(path, a, b) {
  if (path === 'weights') return 1e6 * Math.max(0, ...a.map((x, i) => Math.abs(x - (b[i] ?? 0))));
  if (path !== 'rotation') return 1e6 * Math.hypot(...a.map((x, i) => x - b[i]));
  const la = Math.hypot(...a);
  const lb = Math.hypot(...b);
  const dot = a.reduce((d, x, i) => d + (x / la) * (b[i] / lb), 0);
  const s = dot < 0 ? -1 : 1;
  const chord = Math.hypot(...a.map((x, i) => x / la - (s * b[i]) / lb));
  return (4 * Math.asin(Math.min(1, chord / 2)) * 180e3) / Math.PI;
}

/** Worst error of `output` against `baked` per kind, channels matched by animation name, node name and path. */
function errors(baked, output, worst) {
  const nodes = new Map(output.getRoot().listNodes().map((n) => [n.getName(), n]));
  const animations = new Map(output.getRoot().listAnimations().map((a) => [a.getName(), a]));
  for (const animation of baked.getRoot().listAnimations()) {
    const twin = animations.get(animation.getName());
    for (const channel of animation.listChannels()) {
      const name = channel.getTargetNode().getName();
      const path = channel.getTargetPath();
      const node = nodes.get(name);
      if (!node) throw new Error(`node ${name} is missing from the output`);
      const other = twin?.listChannels().find((c) => c.getTargetNode() === node && c.getTargetPath() === path);
      const want = channelSampler(channel);
      const got = other ? channelSampler(other) : () => restValue(node, path);
      const times = floats(channel.getSampler().getInput());
      for (let k = 0; k < times.length; k++) {
        for (const t of k + 1 < times.length ? [times[k], (times[k] + times[k + 1]) / 2] : [times[k]]) {
          worst[path] = Math.max(worst[path], difference(path, want(t), got(t)));
        }
      }
    }
  }
}

export default async function reduceBatch({ cores, quick }) {
  const core = cores['animcore-simd'];
  const baked = await bakeAll(core);
  const bakedDocs = await Promise.all(baked.map((b) => io.readBinary(b.glb)));
  const inputKeys = bakedDocs.reduce((n, d) => n + keysOf(d), 0);
  const contenders = {};
  const bytes = { baked: bakedDocs.reduce((n, d) => n + animationBytes(d), 0) };
  const fileBytes = { baked: baked.reduce((n, b) => n + b.glb.byteLength, 0) };
  const worst = {};
  for (const [name, make] of Object.entries(reducers)) {
    const reduce = make(core, worst);
    contenders[name] = async () => {
      for (const { glb } of baked) await reduce(glb);
    };
    bytes[name] = 0;
    fileBytes[name] = 0;
    worst[name] = { translation: 0, rotation: 0, scale: 0, weights: 0 };
    for (const [i, { glb }] of baked.entries()) {
      const out = await reduce(glb);
      const document = await io.readBinary(out);
      bytes[name] += animationBytes(document);
      fileBytes[name] += out.byteLength;
      errors(bakedDocs[i], document, worst[name]);
    }
  }
  const errorCase = (kind, unit) => ({ name: `reduce-batch-error-${kind}`, unit, values: Object.fromEntries(Object.entries(worst).map(([k, w]) => [k, w[kind]])) });
  return [
    { name: 'reduce-batch', unitsPerRun: inputKeys, unit: 'baked keys/s', contenders, iterations: quick ? 2 : 5, baseline: 'gltf-transform' },
    { name: 'reduce-batch-animation-bytes', unit: `animation bytes, ${baked.length} files`, values: bytes },
    { name: 'reduce-batch-file-bytes', unit: `file bytes, ${baked.length} files`, values: fileBytes },
    errorCase('translation', 'largest translation error, 1e-6 units'),
    errorCase('rotation', 'largest rotation error, millidegrees'),
    errorCase('scale', 'largest scale error, 1e-6'),
    errorCase('weights', 'largest morph weight error, 1e-6'),
  ];
}
reduceBatch.cases = ['reduce-batch', ...['animation-bytes', 'file-bytes', 'error-translation', 'error-rotation', 'error-scale', 'error-weights'].map((c) => `reduce-batch-${c}`)];
