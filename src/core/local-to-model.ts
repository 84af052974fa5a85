import type { JointBinding } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { LTM_BINDINGS, LTM_CONSTANT_COUNT, LTM_HEADER_SIZE, LTM_JOINT_COUNT, LTM_ORDER, LTM_PARENTS, LTM_REST, LTM_UNBOUND } from '../../assembly/layout.js';
import type { KernelRuntime, RuntimeOwner } from './runtime.js';
import type { AnimSampleBuffer } from './sample-buffer.js';

/**
 * A prepared local-to-model job (after ozz-animation's `LocalToModelJob`): the skeleton's parents,
 * rest pose, evaluation order and the binding of a clip's curves to joints, copied once into wasm
 * memory. `run` composes every joint's local T·R·S (from the bound samples, or the rest pose where
 * a joint property has no curve or its sample count is 0) down the hierarchy into `matrices`:
 * model-space 4×4 matrices, column-major (WebGL/glTF), 16 floats per joint in skeleton order.
 * `dispose()` frees the memory.
 */
export class LocalToModelJob {
  readonly binding: JointBinding;
  /** @internal the job block in wasm memory (0 once disposed); `sampleMany` runs it per instance */
  ptr: number;
  /** @internal the matrices' address (a blend job composes into it) */
  readonly matricesPtr: number;
  private readonly runtime: KernelRuntime;

  constructor(core: RuntimeOwner, binding: JointBinding) {
    this.runtime = core.runtime;
    this.binding = binding;
    const joints = binding.skeleton.joints;
    const n = joints.length;
    const { ptr, arrays } = this.runtime.allocBlock(LTM_HEADER_SIZE, [4 * n, 12 * n, 48 * n, 4 * n, 64 * n]);
    const [parents, bindings, rest, order, matrices] = arrays as [number, number, number, number, number];
    this.ptr = ptr;
    this.matricesPtr = matrices;
    const { u32, i32, f32 } = this.runtime;
    u32[(ptr + LTM_JOINT_COUNT) >>> 2] = n;
    u32[(ptr + LTM_PARENTS) >>> 2] = parents;
    u32[(ptr + LTM_BINDINGS) >>> 2] = bindings;
    u32[(ptr + LTM_REST) >>> 2] = rest;
    u32[(ptr + LTM_ORDER) >>> 2] = order;
    i32.set(
      joints.map((j) => j.parent),
      parents >>> 2,
    );
    i32.set(
      Array.from(binding.curves, (c) => (c < 0 ? LTM_UNBOUND : 16 * c)),
      bindings >>> 2,
    );
    joints.forEach((j, i) => f32.set([...j.rest.translation, 0, ...j.rest.rotation, ...j.rest.scale, 0], (rest >>> 2) + 12 * i));
    const constant = constantJoints(binding);
    const constantFirst = [...binding.skeleton.order.filter((i) => constant[i]), ...binding.skeleton.order.filter((i) => !constant[i])];
    u32[(ptr + LTM_CONSTANT_COUNT) >>> 2] = constant.filter(Boolean).length;
    u32.set(constantFirst, order >>> 2);
  }

  /**
   * Model-space matrices of the last `run`: `16 × skeleton.size` floats, a view into wasm memory
   * (re-derived on every access; copy it before loading more resources).
   */
  get matrices(): Float32Array {
    if (this.ptr === 0) throw new UsageError('this LocalToModelJob was disposed');
    const at = this.matricesPtr >>> 2;
    return this.runtime.f32.subarray(at, at + 16 * this.binding.skeleton.size);
  }

  /**
   * Computes `matrices` from one sample buffer of the bound clip: a curve's sample where its count
   * is > 0, else the joint's rest value.
   * @param options `blended: true` for a blend result (`BlendJob`, `AnimSequencer.result`): every
   *   bound curve's sample is read whatever its count, since a blend prints the rest value where
   *   nothing defines a curve, and under the weighted rule a rest-filled curve (count 0) may carry
   *   an additive delta (spec sequencer.md §3–§4)
   * @throws UsageError when the buffer's curve count differs from the binding's, or after `dispose()`
   */
  run(samples: AnimSampleBuffer, options: { blended?: boolean } = {}): void {
    if (this.ptr === 0) throw new UsageError('this LocalToModelJob was disposed');
    samples.checkLive();
    if (samples.curveCount !== this.binding.curveCount) {
      throw new UsageError(`buffer has ${samples.curveCount} curves, the binding was made for ${this.binding.curveCount}`);
    }
    this.runtime.kernel.localToModel(this.ptr, samples.samplesPtr, options.blended ? 0 : samples.countsPtr, this.matricesPtr);
  }

  /** Frees the job's wasm memory. Safe to call twice. */
  dispose(): void {
    if (this.ptr === 0) return;
    this.runtime.free(this.ptr);
    this.ptr = 0;
  }
}

/**
 * Model-space matrices for one sampled pose: `out` receives 16 floats per joint of
 * `binding.skeleton`, column-major 4×4 (WebGL/glTF), each the joint's local T·R·S composed with
 * its ancestors'. The binding (`bindJoints(clip.curves, skeleton)`) says which curve drives which
 * joint property; unbound properties and curves with sample count 0 use the rest pose. This
 * one-shot form copies the skeleton tables into wasm memory on every call; for repeated calls
 * keep a `LocalToModelJob`.
 * @param samples a buffer sampled from the bound clip (float4 per curve; rotations x y z w)
 * @param out at least `16 × skeleton.size` floats
 * @throws UsageError when `out` is too small or the buffer does not match the binding
 */
export function localToModel(core: RuntimeOwner, samples: AnimSampleBuffer, binding: JointBinding, out: Float32Array): void {
  const n = 16 * binding.skeleton.size;
  if (out.length < n) throw new UsageError(`out needs ${n} floats, has ${out.length}`);
  const job = new LocalToModelJob(core, binding);
  try {
    job.run(samples);
    out.set(job.matrices);
  } finally {
    job.dispose();
  }
}

/**
 * Per joint, whether no curve drives it nor any of its ancestors: its model matrix is the rest
 * pose's in every pose. The job composes these joints first (parents still before children: a
 * constant joint's ancestors are constant), so a batch composes them for its first instance only
 * (assembly/local-to-model.ts, LTM_CONSTANT_COUNT).
 */
function constantJoints(binding: JointBinding): boolean[] {
  const { joints, order } = binding.skeleton;
  const constant = new Array<boolean>(joints.length).fill(false);
  for (const i of order) {
    const parent = joints[i]!.parent;
    constant[i] = binding.curves[3 * i]! < 0 && binding.curves[3 * i + 1]! < 0 && binding.curves[3 * i + 2]! < 0 && (parent < 0 || constant[parent]!);
  }
  return constant;
}
