import type { AnimCore } from '../../src/core/index.js';
import type { KernelExports } from '../../src/core/kernel-exports.js';

/**
 * Records every call into `core`'s wasm exports (their names, in order) until `restore()`: the
 * runtime's exports are swapped for a wrapper (the exports object itself is frozen).
 */
export function recordKernelCalls(core: AnimCore): { calls: string[]; restore(): void } {
  const runtime = core.runtime as unknown as { kernel: KernelExports };
  const kernel = runtime.kernel;
  const calls: string[] = [];
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(kernel)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            calls.push(name);
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value;
  }
  runtime.kernel = wrapped as unknown as KernelExports;
  return { calls, restore: () => (runtime.kernel = kernel) };
}
