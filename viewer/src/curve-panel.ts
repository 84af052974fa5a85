import type { AnimClip, AnimCore, AnimCurve } from 'animcore';

const LANE_COLOURS = ['#ff5566', '#55dd77', '#5599ff', '#dddd55'];
const LANE_NAMES = ['x', 'y', 'z', 'w'];
const SAMPLES = 300;
/** Space for the value labels (left) and the time axis (bottom), in pixels. */
const LEFT = 44;
const BOTTOM = 30;
/** Space above the plot, where the legend is, in pixels. */
const TOP = 22;
/** Time-axis steps in seconds; the smallest that keeps labels `MIN_TICK_PX` apart is used. */
const TICK_STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];
const MIN_TICK_PX = 70;

/**
 * Plots one curve of a clip over [0, duration]: the sampled lanes x y z w (as the core samples
 * them) with a legend, its keys as dots, for Unity and cubic curves each key's in/out tangents as
 * short strokes, a time axis in seconds, and the playback time as a vertical line.
 */
export function drawCurve(canvas: HTMLCanvasElement, core: AnimCore, clip: AnimClip, index: number, time: number): void {
  const g = canvas.getContext('2d')!;
  const { width, height } = canvas;
  g.fillStyle = '#181a20';
  g.fillRect(0, 0, width, height);
  const curve = clip.curves[index];
  if (curve === undefined) return;
  const duration = Math.max(clip.duration, 1e-3);
  const buffer = core.createSampleBuffer(clip);
  const lanes = curve.keys.encoding === 'unity' ? curve.keys.lanes.length : curve.curveType === 'rotation' || curve.curveType === 'color' || curve.curveType === 'float4' ? 4 : curve.curveType === 'float' || curve.curveType === 'bool' ? 1 : 3;
  const values: number[][] = Array.from({ length: lanes }, () => []);
  for (let i = 0; i <= SAMPLES; i++) {
    core.sampler.sample(clip, (i / SAMPLES) * duration, buffer);
    const s = buffer.sampleOf(index);
    for (let l = 0; l < lanes; l++) values[l]!.push(s[l]!);
  }
  buffer.dispose();
  const keys = keyPoints(clip, curve).filter((k) => k.lane < lanes);
  const all = [...values.flat(), ...keys.map((k) => k.value)];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi - lo < 1e-6) [lo, hi] = [lo - 1, hi + 1];
  const x = (t: number) => LEFT + ((width - LEFT - 10) * t) / duration;
  const y = (v: number) => height - BOTTOM - ((height - BOTTOM - TOP) * (v - lo)) / (hi - lo);
  g.strokeStyle = '#333844';
  g.beginPath();
  g.moveTo(x(0), y(0));
  g.lineTo(x(duration), y(0));
  g.stroke();
  g.fillStyle = '#99a';
  g.font = '10px sans-serif';
  g.fillText(hi.toPrecision(3), 2, y(hi) + 8);
  g.fillText(lo.toPrecision(3), 2, y(lo));
  timeAxis(g, x, duration, height - BOTTOM);
  legend(g, width, lanes);
  values.forEach((lane, l) => {
    g.strokeStyle = LANE_COLOURS[l]!;
    g.beginPath();
    lane.forEach((v, i) => (i === 0 ? g.moveTo(x((i / SAMPLES) * duration), y(v)) : g.lineTo(x((i / SAMPLES) * duration), y(v))));
    g.stroke();
  });
  for (const k of keys) {
    g.fillStyle = LANE_COLOURS[k.lane]!;
    g.fillRect(x(k.time) - 2, y(k.value) - 2, 4, 4);
    if (k.tangents) {
      g.strokeStyle = LANE_COLOURS[k.lane]!;
      const dt = duration / 30;
      g.beginPath();
      g.moveTo(x(k.time - dt), y(k.value - k.tangents[0] * dt));
      g.lineTo(x(k.time), y(k.value));
      g.lineTo(x(k.time + dt), y(k.value + k.tangents[1] * dt));
      g.stroke();
    }
  }
  g.strokeStyle = '#fff';
  g.beginPath();
  const cursor = x(((time % duration) + duration) % duration);
  g.moveTo(cursor, 0);
  g.lineTo(cursor, height);
  g.stroke();
}

interface KeyPoint {
  lane: number;
  time: number;
  value: number;
  /** Unity or glTF cubic-spline in/out tangents (value per second). */
  tangents?: [number, number];
}

/** The stored keys of a curve as points (a static curve: one key at 0). */
function keyPoints(clip: AnimClip, curve: AnimCurve): KeyPoint[] {
  const keys = curve.keys;
  const lanes = [0, 1, 2, 3];
  switch (keys.encoding) {
    case 'static':
      return lanes.map((lane) => ({ lane, time: 0, value: keys.value[lane]! }));
    case 'uniform':
      return Array.from({ length: clip.keyCount }, (_, k) => lanes.map((lane) => ({ lane, time: k * clip.keyDuration, value: keys.values[4 * k + lane]! }))).flat();
    case 'keyed':
      return Array.from(keys.times, (time, k) => lanes.map((lane) => ({ lane, time, value: keys.values[4 * k + lane]! }))).flat();
    case 'cubic':
      return Array.from(keys.times, (time, k) =>
        lanes.map((lane) => ({ lane, time, value: keys.values[12 * k + 4 + lane]!, tangents: [keys.values[12 * k + lane]!, keys.values[12 * k + 8 + lane]!] as [number, number] })),
      ).flat();
    case 'unity':
      return keys.lanes.flatMap((l, lane) =>
        Array.from(l.time, (time, k) => ({ lane, time, value: l.value[k]!, tangents: [l.inTangent[k]!, l.outTangent[k]!] as [number, number] })),
      );
  }
}

/** Ticks and labels in seconds along the bottom, `base` pixels down. */
function timeAxis(g: CanvasRenderingContext2D, x: (t: number) => number, duration: number, base: number): void {
  const pxPerSecond = x(1) - x(0);
  const step = TICK_STEPS.find((s) => s * pxPerSecond >= MIN_TICK_PX) ?? TICK_STEPS[TICK_STEPS.length - 1]!;
  g.strokeStyle = '#556';
  g.fillStyle = '#99a';
  g.beginPath();
  g.moveTo(x(0), base);
  g.lineTo(x(duration), base);
  for (let k = 0; k * step <= duration + 1e-9; k++) {
    g.moveTo(x(k * step), base);
    g.lineTo(x(k * step), base + 4);
  }
  g.stroke();
  g.textAlign = 'center';
  for (let k = 0; k * step <= duration + 1e-9; k++) g.fillText(`${Number((k * step).toFixed(2))} s`, x(k * step), base + 15);
  g.textAlign = 'left';
}

/** The lanes' names in their colours, top right. */
function legend(g: CanvasRenderingContext2D, width: number, lanes: number): void {
  g.font = '11px sans-serif';
  for (let l = 0; l < lanes; l++) {
    const left = width - 22 * (lanes - l) - 6;
    g.fillStyle = LANE_COLOURS[l]!;
    g.fillRect(left, 5, 8, 8);
    g.fillText(LANE_NAMES[l]!, left + 10, 13);
  }
}
