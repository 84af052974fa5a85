import type { NamedBytes } from './open-files.js';

/**
 * The page's side of `sample-worker.ts`: one request at a time, answered in order. `new
 * Worker(new URL('./sample-worker.ts', import.meta.url), { type: 'module' })` is the form Vite
 * (and other bundlers) turn into a bundled worker with its own copy of the `.wasm`.
 */
export class SampleWorkerClient {
  private readonly worker = new Worker(new URL('./sample-worker.ts', import.meta.url), { type: 'module' });
  private queue = Promise.resolve<unknown>(undefined);

  private request<T>(message: unknown): Promise<T> {
    const next = this.queue.then(
      () =>
        new Promise<T>((resolve, reject) => {
          this.worker.onmessage = (event: MessageEvent) => (event.data.type === 'error' ? reject(new Error(event.data.message)) : resolve(event.data as T));
          this.worker.postMessage(message);
        }),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Opens a file set in the worker. */
  open(files: NamedBytes[]): Promise<{ format: string; clips: string[]; build: string }> {
    return this.request({ type: 'open', files });
  }

  /** Samples clip `clip` at each time (4 × curveCount floats per time). */
  sample(clip: number, times: number[]): Promise<{ samples: Float32Array; counts: Uint8Array }> {
    return this.request({ type: 'sample', clip, times });
  }

  terminate(): void {
    this.worker.terminate();
  }
}
