import { MAX_WEIGHT } from '../anim/blend-options.js';
import type { AnimResource, BlendRule } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { checkBoolean, checkChoice, checkNumber, checkObject, describe, isRecord, member, nameList } from './checks.js';
import type { AnimJobInit } from './job.js';
import { PoseLayout } from './pose-layout.js';
import { checkJobFields } from './resolve-job.js';
import { AnimSequencer } from './sequencer.js';

/** A mask of a sequence file (spec sequencer.md §5): by joints, or by curves — never both. */
export type SequenceMask = { joints: string[]; children?: boolean; weight?: number } | { curves: Record<string, number> };

/** A sequence file (spec sequencer.md §7), as JSON holds it. */
export interface SequenceFile {
  rule?: BlendRule;
  rotation?: 'nlerp' | 'slerp';
  threshold?: number;
  names?: Record<string, string | number>;
  masks?: Record<string, SequenceMask>;
  /** Required (may be empty). Checked field by field when the sequence is loaded against a resource. */
  jobs: AnimJobInit[];
}

const FILE_KEYS = ['rule', 'rotation', 'threshold', 'names', 'masks', 'jobs'];

/**
 * Parses the text of a sequence file and checks its shape: known keys, `rule` and `rotation` from
 * their lists, `names` mapping to strings or indices, masks with `joints` or `curves`, `jobs` an
 * array, every job's fields (`checkJobFields`) and mask name. Clips and joints are checked by
 * `loadSequence`, which knows the resource.
 * @throws UsageError naming the JSON path (`masks.upper.joints`) and why
 */
export function parseSequence(text: string): SequenceFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`not valid JSON: ${(e as Error).message}`);
  }
  const o = checkObject(json, FILE_KEYS, '(top level)');
  checkChoice(o.rule, 'rule', ['priority', 'weighted'], 'priority');
  checkChoice(o.rotation, 'rotation', ['nlerp', 'slerp'], 'nlerp');
  checkNumber(o.threshold, 'threshold', { min: 0, max: MAX_WEIGHT }, 1);
  if (o.names !== undefined) {
    if (!isRecord(o.names)) throw new UsageError(`names: expected an object of name → clip, got ${describe(o.names)}`);
    for (const [k, v] of Object.entries(o.names)) {
      if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
        throw new UsageError(`${member('names', k)}: expected a clip name or index, got ${describe(v)}`);
      }
    }
  }
  if (o.masks !== undefined) {
    if (!isRecord(o.masks)) throw new UsageError(`masks: expected an object of name → mask, got ${describe(o.masks)}`);
    for (const [name, m] of Object.entries(o.masks)) checkMaskShape(m, member('masks', name));
  }
  if (!Array.isArray(o.jobs)) throw new UsageError(`jobs: required, an array of jobs (it may be empty), got ${describe(o.jobs)}`);
  const masks = isRecord(o.masks) ? Object.keys(o.masks) : [];
  o.jobs.forEach((job: unknown, i) => {
    const { init } = checkJobFields(job, `jobs[${i}]`);
    if (init.mask !== undefined && !(typeof init.mask === 'string' && masks.includes(init.mask))) {
      throw new UsageError(`jobs[${i}].mask: no mask ${describe(init.mask)}; masks: ${nameList(masks)}`);
    }
  });
  return o as unknown as SequenceFile;
}

function checkMaskShape(m: unknown, path: string): void {
  if (!isRecord(m)) throw new UsageError(`${path}: expected an object with "joints" or "curves", got ${describe(m)}`);
  if ('curves' in m) {
    if ('joints' in m) throw new UsageError(`${path}: a mask lists "joints" or "curves", never both`);
    checkObject(m, ['curves'], path);
    if (!isRecord(m.curves)) throw new UsageError(`${path}.curves: expected an object of "<joint>.<property>" → weight, got ${describe(m.curves)}`);
    return;
  }
  checkObject(m, ['joints', 'children', 'weight'], path);
  if (!Array.isArray(m.joints)) throw new UsageError(`${path}.joints: required, an array of joint names, got ${describe(m.joints)}`);
  m.joints.forEach((j, i) => {
    if (typeof j !== 'string') throw new UsageError(`${path}.joints[${i}]: expected a joint name, got ${describe(j)}`);
  });
  checkBoolean(m.children, `${path}.children`, false);
  checkNumber(m.weight, `${path}.weight`, { min: 0, max: 1 }, 1);
}

/** Options of `loadSequence`. */
export interface LoadSequenceOptions {
  /** Overrides the file's `rotation` (the CLI's `--rotation`). */
  rotation?: 'nlerp' | 'slerp';
}

/**
 * A sequencer for `resource` set up from a sequence file (its text, or parsed): rule, rotation,
 * threshold, names, masks, and every job enqueued in order of `at` (ties: file order).
 * @throws UsageError naming the JSON path (`jobs[2].fadeIn`) and why: unknown keys, clips, joints
 *   or masks; values outside their lists or ranges; numbers that are not finite; an `append`
 *   behind an infinite job
 */
export function loadSequence(core: AnimCore, resource: AnimResource, sequence: string | SequenceFile, options: LoadSequenceOptions = {}): AnimSequencer {
  const file = typeof sequence === 'string' ? parseSequence(sequence) : parseSequence(JSON.stringify(sequence));
  const layout = new PoseLayout(resource);
  const masks: Record<string, Float32Array> = {};
  for (const [name, m] of Object.entries(file.masks ?? {})) {
    const path = member('masks', name);
    masks[name] = 'curves' in m ? layout.curveMask(m.curves, `${path}.curves`) : layout.mask(m.joints, { children: m.children, weight: m.weight }, path);
  }
  const sequencer = new AnimSequencer(core, resource, {
    rule: file.rule,
    rotation: options.rotation ?? file.rotation,
    threshold: file.threshold,
    names: file.names,
    masks,
  });
  try {
    const order = file.jobs.map((job, i) => ({ job, i }));
    order.forEach(({ job, i }) => {
      if (!isRecord(job)) throw new UsageError(`jobs[${i}]: expected an object, got ${describe(job)}`);
    });
    order.sort((a, b) => atOf(a.job) - atOf(b.job) || a.i - b.i);
    for (const { job, i } of order) sequencer.enqueue(job, `jobs[${i}]`);
  } catch (e) {
    sequencer.dispose();
    throw e;
  }
  return sequencer;
}

/** A job's `at` for ordering (invalid values sort first and are refused by `enqueue`). */
function atOf(job: AnimJobInit): number {
  return typeof job.at === 'number' && Number.isFinite(job.at) ? job.at : job.at === undefined ? 0 : -Infinity;
}
