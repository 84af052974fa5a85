import type { JointBinding } from '../anim/index.js';
import { UsageError } from '../errors.js';
import type { AnimCore } from './anim-core.js';
import { LocalToModelField } from './kernel-exports.js';
import type { AnimSampleBuffer } from './sample-buffer.js';

/**
 * A prepared local-to-model job (after ozz-animation's `LocalToModelJob`): the skeleton's parents,
 * rest pose and the binding of a clip's curves to joints, copied once into wasm memory. `run`
 * composes every joint's local T·R·S (from the bound samples, or the rest pose where a joint
 * property has no curve or its sample count is 0) down the hierarchy into `matrices`: model-space
 * 4×4 matrices, column-major (WebGL/glTF), 16 floats per joint in skeleton order. Parents precede
 * children (checked when the `Skeleton` is built). `dispose()` frees the memory.
 */
export class LocalToModelJob {
  readonly binding: JointBinding;
  /** @internal the job block in wasm memory (0 once disposed); `sampleMany` runs it per instance */
  ptr: number;
  private matricesPtr: number;
  private readonly core: AnimCore;

  constructor(core: AnimCore, binding: JointBinding) {
    this.core = core;
    this.binding = binding;
    const joints = binding.skeleton.joints;
    const k = core.kernel;
    this.ptr = k.localToModelJobCreate(joints.length);
    this.matricesPtr = k.alloc(64 * joints.length);
    const { u32, f32 } = core.views;
    const i32 = new Int32Array(u32.buffer);
    i32.set(
      joints.map((j) => j.parent),
      k.localToModelJobArray(this.ptr, LocalToModelField.Parents) >>> 2,
    );
    u32.set(
      Array.from(binding.curves, (c) => (c < 0 ? 0xffffffff : 16 * c)),
      k.localToModelJobArray(this.ptr, LocalToModelField.Bindings) >>> 2,
    );
    const rest = k.localToModelJobArray(this.ptr, LocalToModelField.Rest) >>> 2;
    joints.forEach((j, i) => {
      f32.set([...j.rest.translation, 0, ...j.rest.rotation, ...j.rest.scale, 0], rest + 12 * i);
    });
  }

  /**
   * Model-space matrices of the last `run`: `16 × skeleton.size` floats, a view into wasm memory
   * (re-derived on every access; copy it before loading more resources).
   */
  get matrices(): Float32Array {
    if (this.ptr === 0) throw new UsageError('this LocalToModelJob was disposed');
    const at = this.matricesPtr >>> 2;
    return this.core.views.f32.subarray(at, at + 16 * this.binding.skeleton.size);
  }

  /**
   * Computes `matrices` from one sample buffer of the bound clip.
   * @throws UsageError when the buffer's curve count differs from the binding's, or after `dispose()`
   */
  run(samples: AnimSampleBuffer): void {
    if (this.ptr === 0) throw new UsageError('this LocalToModelJob was disposed');
    samples.checkLive();
    if (samples.curveCount !== this.binding.curveCount) {
      throw new UsageError(`buffer has ${samples.curveCount} curves, the binding was made for ${this.binding.curveCount}`);
    }
    this.core.kernel.localToModel(this.ptr, samples.samplesPtr, samples.countsPtr, this.matricesPtr);
  }

  /** Frees the job's wasm memory. Safe to call twice. */
  dispose(): void {
    if (this.ptr === 0) return;
    this.core.kernel.free(this.ptr);
    this.core.kernel.free(this.matricesPtr);
    this.ptr = this.matricesPtr = 0;
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
export function localToModel(core: AnimCore, samples: AnimSampleBuffer, binding: JointBinding, out: Float32Array): void {
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
