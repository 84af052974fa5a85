import type { AnimJobInfo, AnimJobInit, AnimResource, SequenceFile, SequenceMask } from 'animcore';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** What the panel asks of the page. */
export interface LayersPanelHost {
  /** The current sequence time: where a new job is enqueued (its `at`). */
  now(): number;
  /**
   * The jobs changed: play this sequence file (null: none, back to the clip). Throws (a
   * `UsageError` naming the JSON path) to refuse the change, which is then undone.
   */
  play(file: SequenceFile | null): void;
  /** Export the blended result / the sequence file. */
  exportGlb(file: SequenceFile): void;
  exportSequence(file: SequenceFile): void;
}

/**
 * The Layers panel (issue 19): a form that adds a clip of the open resource as a job of a sequence
 * file (spec sequencer.md §7: track, weight, loops, fades, a mask by joint subtree, additive; the
 * job enqueued at the current time, so a job on a busy track cross-fades from now), the rule, a
 * table of the sequencer's jobs with their live state and blend weight, and exports of the blended
 * result and of the sequence file. Hidden for resources without a skeleton (MRTK recordings).
 */
export class LayersPanel {
  private jobs: AnimJobInit[] = [];
  private masks: Record<string, SequenceMask> = {};
  private resource: AnimResource | null = null;
  /** The table's last text, so that an unchanged table is not rebuilt every frame. */
  private shown = '';

  constructor(private readonly host: LayersPanelHost) {
    $<HTMLButtonElement>('layer-add').onclick = () => this.add();
    $<HTMLButtonElement>('layer-clear').onclick = () => this.change([], {});
    $<HTMLSelectElement>('layer-rule').onchange = () => this.change(this.jobs, this.masks);
    $<HTMLButtonElement>('layer-export').onclick = () => this.file() && host.exportGlb(this.file()!);
    $<HTMLButtonElement>('layer-sequence').onclick = () => this.file() && host.exportSequence(this.file()!);
    this.setResource(null);
  }

  /**
   * A newly opened resource: its clips and joints in the form, no jobs; `playable`: whether the
   * page can play layers of it (a skeleton, or a glTF scene), else the panel is hidden.
   */
  setResource(resource: AnimResource | null, playable = false): void {
    this.resource = resource;
    this.jobs = [];
    this.masks = {};
    $('layers').hidden = !playable;
    $<HTMLSelectElement>('layer-clip').replaceChildren(...(resource?.clips ?? []).map((c, i) => new Option(c.name, String(i))));
    const joints = resource?.skeleton?.joints ?? [];
    $<HTMLSelectElement>('layer-mask').replaceChildren(new Option('none (whole body)', ''), ...joints.map((j) => new Option(`${j.name} and below`, j.name)));
    this.showJobs([]);
  }

  /** The sequence file of the panel's jobs, or null when there are none. */
  file(): SequenceFile | null {
    if (this.jobs.length === 0) return null;
    const rule = $<HTMLSelectElement>('layer-rule').value as SequenceFile['rule'];
    return { rule, ...(Object.keys(this.masks).length > 0 && { masks: this.masks }), jobs: this.jobs };
  }

  /** The form's job, enqueued at the current time. */
  private add(): void {
    const clips = this.resource?.clips ?? [];
    const index = Number($<HTMLSelectElement>('layer-clip').value);
    const clip = clips[index];
    if (!clip) return;
    const number = (id: string) => Number($<HTMLInputElement>(id).value);
    const joint = $<HTMLSelectElement>('layer-mask').value;
    const additive = $<HTMLInputElement>('layer-additive').checked;
    const job: AnimJobInit = {
      // By name, which reads well in the sequence file, unless another clip has the same name.
      clip: clips.filter((c) => c.name === clip.name).length === 1 && !/^\d+$/.test(clip.name) ? clip.name : index,
      track: number('layer-track'),
      at: this.host.now(),
      loops: number('layer-loops'),
      fadeIn: number('layer-fade-in'),
      fadeOut: number('layer-fade-out'),
      weight: number('layer-weight'),
      ...(additive && { mode: 'additive' as const }),
      ...(joint !== '' && { mask: joint }),
    };
    const masks = joint === '' ? this.masks : { ...this.masks, [joint]: { joints: [joint], children: true } };
    this.change([...this.jobs, job], masks);
  }

  /** Plays the new jobs; a refusal (shown by the host) keeps the old ones. */
  private change(jobs: AnimJobInit[], masks: Record<string, SequenceMask>): void {
    const before = { jobs: this.jobs, masks: this.masks };
    this.jobs = jobs;
    this.masks = masks;
    try {
      this.host.play(this.file());
    } catch (e) {
      this.jobs = before.jobs;
      this.masks = before.masks;
      throw e;
    }
  }

  /** The sequencer's jobs (`AnimSequencer.jobs()`): clip, track, mode, state and blend weight. */
  showJobs(jobs: readonly AnimJobInfo[]): void {
    const rows = jobs.map((j) => [j.clip, String(j.track), j.mode, j.state, j.weight.toFixed(3)]);
    const text = JSON.stringify(rows);
    if (text === this.shown) return;
    this.shown = text;
    const table = $<HTMLTableElement>('layer-jobs');
    if (rows.length === 0) {
      table.replaceChildren();
      return;
    }
    const head = document.createElement('tr');
    for (const h of ['clip', 'track', 'mode', 'state', 'weight']) head.append(Object.assign(document.createElement('th'), { textContent: h }));
    table.replaceChildren(
      head,
      ...rows.map((cells, i) => {
        const tr = document.createElement('tr');
        for (const c of cells) tr.append(Object.assign(document.createElement('td'), { textContent: c }));
        const meter = Object.assign(document.createElement('meter'), { min: 0, max: 1, value: Math.min(1, jobs[i]!.weight) });
        tr.lastElementChild!.prepend(meter, ' ');
        return tr;
      }),
    );
  }
}
