import { type AnimCore, type AnimResource, type AnimSequencer, loadSequence, type SequenceFile } from 'animcore';
import type { SequencePlayer } from 'animcore/three';

/**
 * A sequence file of the Layers panel played on a view by a `SequencePlayer`. A sequencer only
 * moves forward, so a time before its current one (a scrub, the loop starting over) replays the
 * file from 0 in a new sequencer.
 */
export class LayeredPlayback {
  private player: SequencePlayer;

  /**
   * @param player the view's player of a sequencer (its skeleton or its scene)
   * @throws UsageError naming the JSON path when `resource` cannot play `file`
   */
  constructor(
    private readonly core: AnimCore,
    private readonly resource: AnimResource,
    readonly file: SequenceFile,
    private readonly makePlayer: (sequencer: AnimSequencer) => SequencePlayer,
  ) {
    this.player = this.start();
  }

  get sequencer(): AnimSequencer {
    return this.player.sequencer;
  }

  /** Poses the view at sequence time `time`. */
  update(time: number): void {
    if (time < this.player.sequencer.time) {
      const next = this.start();
      this.dispose();
      this.player = next;
    }
    this.player.update(time);
  }

  private start(): SequencePlayer {
    const sequencer = loadSequence(this.core, this.resource, this.file);
    try {
      return this.makePlayer(sequencer);
    } catch (e) {
      sequencer.dispose();
      throw e;
    }
  }

  dispose(): void {
    this.player.dispose();
    this.player.sequencer.dispose();
  }
}
