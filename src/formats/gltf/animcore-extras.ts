import type { AnimCurve, AnimEvent } from '../../anim/index.js';
import { FormatError } from '../../errors.js';
import { array, describe, fail, finite, type JsonObject, object, optionalString, string } from './json-fields.js';

/** What an animation's `extras.animcore` carries back into its clip. */
export interface AnimcoreExtras {
  readonly events: AnimEvent[];
  /** Bool curves: step keys of 0 or 1 in x. */
  readonly curves: AnimCurve[];
}

/**
 * The events and Bool curves animcore's glTF export keeps in an animation's `extras.animcore`
 * (src/export/animation-channels.ts `planAnimation`: `events` of `{ name, category, time }`,
 * `bools` of `{ joint, property, times, values }`, values 0 or 1 held until the next time), so that
 * a file animcore wrote reads back with them. Extras are application data no glTF rule checks: when
 * they are not in that shape they are left out with a warning naming the JSON pointer and the
 * reason, and the file still reads.
 */
export function animcoreExtras(animation: JsonObject, pointer: string, warnings: string[]): AnimcoreExtras {
  const none: AnimcoreExtras = { events: [], curves: [] };
  const extras = animation.extras as JsonObject | undefined;
  if (typeof extras !== 'object' || extras === null || extras.animcore === undefined) return none;
  const p = `${pointer}/extras/animcore`;
  try {
    const data = object(extras.animcore, p);
    const events = array(data.events, `${p}/events`).map((e, i) => {
      const at = `${p}/events/${i}`;
      const event = object(e, at);
      return { name: string(event.name, `${at}/name`), category: optionalString(event.category, `${at}/category`) ?? '', time: finite(event.time, `${at}/time`) };
    });
    const curves = array(data.bools, `${p}/bools`).map((b, i) => boolCurve(object(b, `${p}/bools/${i}`), `${p}/bools/${i}`));
    return { events, curves };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    warnings.push(`${e.message}; the animation's events and Bool curves (extras.animcore) are left out`);
    return none;
  }
}

function boolCurve(b: JsonObject, at: string): AnimCurve {
  const joint = b.joint === null ? null : string(b.joint, `${at}/joint`);
  const property = string(b.property, `${at}/property`);
  const times = array(b.times, `${at}/times`, true);
  const values = array(b.values, `${at}/values`, true);
  if (times.length === 0 || times.length !== values.length) fail(`${at}/values`, `expected one value per time (${times.length} times), found ${values.length}`);
  const keyTimes = new Float32Array(times.length);
  const keyValues = new Float32Array(4 * times.length);
  times.forEach((t, k) => {
    keyTimes[k] = finite(t, `${at}/times/${k}`);
    if (k > 0 && !(keyTimes[k]! > keyTimes[k - 1]!)) fail(`${at}/times/${k}`, `expected a time after ${keyTimes[k - 1]} s, found ${t}`);
    const v = values[k];
    if (v !== 0 && v !== 1) fail(`${at}/values/${k}`, `expected 0 or 1, found ${describe(v)}`);
    keyValues[4 * k] = v;
  });
  return { curveType: 'bool', target: { joint, property }, active: true, keys: { encoding: 'keyed', times: keyTimes, values: keyValues, interpolation: 'step' } };
}
