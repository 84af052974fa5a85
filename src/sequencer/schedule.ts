import { UsageError } from '../errors.js';
import type { ScheduledJob } from './job.js';

/**
 * The sequencer's job list (Nebula3 `AnimSequencer::animJobs`): sorted by track, each job after
 * every job of its own or a lower track. `insert` applies the enqueue rules of spec
 * sequencer.md §2 at the job's `at`; `stop` and `prune` are `StopTrack` and `RemoveExpiredAnimJobs`.
 * Plain data: the sequencer owns the sample buffers of the jobs listed here.
 */
export class JobSchedule {
  jobs: ScheduledJob[] = [];

  /** An independent copy, for dry runs. */
  clone(): JobSchedule {
    const copy = new JobSchedule();
    copy.jobs = this.jobs.map((j) => j.clone());
    return copy;
  }

  /**
   * Inserts `job` at its `at` (`InsertEnqueuedAnimJobs`): jobs expired at `at` leave their track;
   * `intercept` stops the track's jobs at `at` (a job not yet started is discarded) and takes
   * base `at`; `append` takes base absEnd − fadeOut of the track's last job;
   * `ignoreIfSameClipActive` drops the job when the track plays its clip and that job is not
   * stopping, else intercepts.
   * @returns false when the job was dropped
   * @throws UsageError (naming `<path>.enqueue`) when appending behind an infinite job
   */
  insert(job: ScheduledJob, path: string): boolean {
    const { at, track, enqueue, clip } = job.settings;
    this.jobs = this.jobs.filter((j) => !j.isExpired(at));
    const onTrack = this.jobs.filter((j) => j.settings.track === track);
    let base = at;
    if (enqueue === 'append') {
      const blocking = onTrack.find((j) => j.infinite);
      if (blocking) {
        throw new UsageError(`${path}.enqueue: cannot append behind the infinite job "${blocking.settings.clip.name}" on track ${track}`);
      }
      const last = onTrack[onTrack.length - 1];
      if (last) base = last.absEnd - last.settings.fadeOut;
    } else {
      if (enqueue === 'ignoreIfSameClipActive' && onTrack.some((j) => j.settings.clip === clip && !j.isStoppingOrExpired(at))) return false;
      for (const j of onTrack) {
        if (at < j.absStart) this.remove(j);
        else j.stop(at);
      }
    }
    job.base = base;
    let index = this.jobs.findIndex((j) => j.settings.track > track);
    if (index < 0) index = this.jobs.length;
    this.jobs.splice(index, 0, job);
    return true;
  }

  /**
   * Stops (`fadeOut`: fade out from t, as `intercept` does; a job not started yet is discarded) or
   * discards the jobs of `track` (every track when null) at sequence time t.
   */
  stop(track: number | null, t: number, fadeOut: boolean): void {
    for (const j of [...this.jobs]) {
      if (track !== null && j.settings.track !== track) continue;
      if (!fadeOut || t < j.absStart || j.isExpired(t)) this.remove(j);
      else j.stop(t);
    }
  }

  /** Drops the jobs expired at t. */
  prune(t: number): void {
    this.jobs = this.jobs.filter((j) => !j.isExpired(t));
  }

  private remove(job: ScheduledJob): void {
    this.jobs = this.jobs.filter((j) => j !== job);
  }
}
