// The package as a user gets it: `npm pack` of this checkout, installed into a fresh folder with
// `npm ci --offline`, so nothing but the tarball and npm's cache is used. The app's lockfile is
// written here from this checkout's package-lock.json (same versions as the registry would give
// for the tarball's `dependencies`; npm needs no registry metadata then).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** Builds when needed, packs the package into `dir`; returns the tarball's path. */
export function packAnimcore(dir: string): string {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: root, stdio: 'inherit' });
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop()!;
  return join(dir, name);
}

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * Installs the tarball into `app` (a new folder) as its one dependency with `npm ci --offline`,
 * writing `package.json` (with `type`) and `package-lock.json`. `links` are packages symlinked from
 * this checkout's node_modules afterwards (tools such as vite, or `three` for the peer dependency).
 * Returns npm's output.
 */
export function installPacked(app: string, tarball: string, type: 'module' | 'commonjs', links: readonly string[] = []): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${tarball}`;
  const pkg = JSON.parse(execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as LockEntry & Record<string, unknown>;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { animcore: spec } },
    'node_modules/animcore': {
      version: pkg.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      dependencies: pkg.dependencies,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta,
      bin: pkg.bin,
      engines: pkg.engines,
      license: pkg.license,
    },
  };
  const queue = Object.keys(pkg.dependencies ?? {});
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const { dev: _dev, devOptional: _devOptional, ...entry } = lock.packages[key]!;
    const file = name.split('/').pop()!;
    packages[key] = { ...entry, resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${file}-${entry.version}.tgz` };
    queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type, dependencies: { animcore: spec } }, null, 2));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2));
  const output = execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
  for (const name of links) {
    mkdirSync(join(app, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(app, 'node_modules', name));
  }
  return output;
}
