/** What an export holds, for batch summaries. */
export interface ExportCounts {
  clips: number;
  /** Keys stored in the source clips (`AnimClip.storedKeyCount`). */
  keysIn: number;
  /** Keys written: per sampler its key count, per Bool curve its transitions. */
  keysOut: number;
}

