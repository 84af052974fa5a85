import { simd as simdSupported } from 'wasm-feature-detect';
import { UsageError } from '../errors.js';

/** Where the WebAssembly module comes from: bytes, a compiled module, or a URL / file path. */
export type WasmSource = ArrayBuffer | ArrayBufferView | WebAssembly.Module | URL | string;

/** `auto` (default) picks the SIMD build when the host validates SIMD, the scalar build otherwise. */
export type WasmBuild = 'auto' | 'simd' | 'scalar';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/** The build that `auto` resolves to on this host. */
export async function resolveBuild(build: WasmBuild): Promise<'simd' | 'scalar'> {
  if (build !== 'auto') return build;
  return (await simdSupported()) ? 'simd' : 'scalar';
}

/**
 * The packaged `.wasm` of a build, next to the bundled module (`dist/wasm/`). Two literal
 * `new URL('./…', import.meta.url)` forms, not a template: bundlers rewrite literal ones to the
 * emitted asset, and Vite's dependency pre-bundling rewrites them to the package's file, so apps
 * need no `optimizeDeps.exclude` (a template URL resolves to `undefined` there).
 */
export function packagedWasmUrl(build: 'simd' | 'scalar'): URL {
  return build === 'simd' ? new URL('./wasm/animcore-simd.wasm', import.meta.url) : new URL('./wasm/animcore-scalar.wasm', import.meta.url);
}

/**
 * Compiles the module from `source`: Node reads files (paths or `file:` URLs), browsers use
 * `WebAssembly.compileStreaming` on the URL (falling back to bytes when the server sends the
 * wrong MIME type). Throws `UsageError` for sources of the wrong kind.
 */
export async function compileModule(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer) return WebAssembly.compile(source);
  if (ArrayBuffer.isView(source)) {
    return WebAssembly.compile(new Uint8Array(source.buffer, source.byteOffset, source.byteLength).slice());
  }
  if (typeof source !== 'string' && !(source instanceof URL)) {
    throw new UsageError('wasm must be bytes, a WebAssembly.Module, a URL or a path');
  }
  const href = String(source);
  if (isNode && (href.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:/i.test(href))) {
    // A computed specifier keeps browser bundlers from trying to resolve node:fs.
    const fsModule = 'node:fs/promises';
    const { readFile } = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs/promises');
    const bytes = await readFile(href.startsWith('file:') ? new URL(href) : href);
    return WebAssembly.compile(bytes);
  }
  const response = fetch(href);
  try {
    return await WebAssembly.compileStreaming(response);
  } catch (e) {
    // compileStreaming refuses responses without `application/wasm`; compile the bytes instead.
    if (!(e instanceof TypeError)) throw e;
    return WebAssembly.compile(await (await fetch(href)).arrayBuffer());
  }
}
