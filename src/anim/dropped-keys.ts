import { UsageError } from '../errors.js';
import type { AnimClip } from './clip.js';
import type { AnimCurve, CurveKeys } from './curve.js';
import { DROPPED_REST, restValue } from './rest-value.js';

/**
 * Replaces the keys of every animated curve of `clip` with stand-ins of the same `encoding` whose
 * key arrays (`values`, `times`, `lanes`) throw a `UsageError` naming the clip and curve, so that
 * the arrays can be garbage-collected once a core holds the keys (`core.load(resource,
 * { retainKeys: false })`). The rest value (`restValue`) and `storedKeyCount` stay readable;
 * sampling through the core is unaffected; reading, exporting, resampling from JS or loading into
 * another core fails. Static curves keep their value.
 */
export function dropKeys(clip: AnimClip): void {
  if (clip.storedKeyCount < 0) return; // counted (and kept by the clip) while the arrays are there
  const curves = clip.curves as AnimCurve[];
  // One rest value per curve in one array: a stand-in is a few fields, not closures and a typed
  // array of its own (500 clips of 192 curves kept 100 KB of stand-ins per clip alive otherwise).
  const dropped = { clip: clip.name, rests: new Float32Array(4 * curves.length) };
  curves.forEach((curve, i) => {
    if (curve.keys.encoding === 'static' || DROPPED_REST in curve.keys) return;
    dropped.rests.set(restValue(curve.keys), 4 * i);
    curves[i] = { ...curve, keys: Object.freeze(new STAND_INS[curve.keys.encoding](dropped, i)) as CurveKeys };
  });
}

/** What the stand-ins of one clip share: its name (for the message) and every curve's rest value. */
interface DroppedClip {
  readonly clip: string;
  readonly rests: Float32Array;
}

/** Keys dropped by `dropKeys`: the rest value stays (`restValue` reads it); reading the keys throws. */
class DroppedKeys {
  constructor(
    private readonly dropped: DroppedClip,
    private readonly curve: number,
  ) {}

  get [DROPPED_REST](): Float32Array {
    return this.dropped.rests.subarray(4 * this.curve, 4 * this.curve + 4);
  }

  protected fail(): never {
    throw new UsageError(`clip "${this.dropped.clip}" curve ${this.curve}: its keys were dropped when its resource was loaded with retainKeys: false; the core still samples it, but reading, exporting or loading its keys elsewhere needs the file opened again`);
  }
}

class DroppedTimedKeys extends DroppedKeys {
  get times(): Float32Array {
    return this.fail();
  }

  get values(): Float32Array {
    return this.fail();
  }
}

const STAND_INS = {
  uniform: class extends DroppedKeys {
    readonly encoding = 'uniform';
    get values(): Float32Array {
      return this.fail();
    }
  },
  keyed: class extends DroppedTimedKeys {
    readonly encoding = 'keyed';
  },
  cubic: class extends DroppedTimedKeys {
    readonly encoding = 'cubic';
  },
  unity: class extends DroppedKeys {
    readonly encoding = 'unity';
    get lanes(): never {
      return this.fail();
    }
  },
};
