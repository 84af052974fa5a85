// Writes dist/THIRD_PARTY_LICENSES.md: name, version, licence and the licence text (plus a NOTICE
// file where the package has one, as Apache-2.0 asks) of every npm package bundled into dist/.
// esbuild starts each bundled module with a `// <path>` comment, so the bundles themselves say
// which packages they hold. Run by `npm run build` after tsup; fails when a bundled package
// declares no licence.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIST = 'dist';
// `// node_modules/fast-xml-parser/src/…`, `// node_modules/@scope/name/…`, nested node_modules too.
const MODULE_COMMENT = /^\/\/ ((?:[^\n]*\/)?node_modules\/(?:@[^/\n]+\/)?[^/\n]+)\//gm;

const packageDirs = new Set();
for (const file of readdirSync(DIST).filter((f) => /\.(c?js)$/.test(f))) {
  for (const m of readFileSync(join(DIST, file), 'utf8').matchAll(MODULE_COMMENT)) packageDirs.add(m[1]);
}

const sections = [...packageDirs]
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .sort((a, b) => a.pkg.name.localeCompare(b.pkg.name))
  .map(({ dir, pkg }) => {
    const files = readdirSync(dir);
    if (typeof pkg.license !== 'string') throw new Error(`${pkg.name}@${pkg.version} is bundled into ${DIST}/ but declares no licence`);
    const licence = files.find((f) => /^licen[cs]e/i.test(f));
    const notice = files.find((f) => /^notice/i.test(f));
    const texts = [licence, notice].filter(Boolean).map((f) => readFileSync(join(dir, f), 'utf8').trim());
    const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
    // A package without a licence file: what its package.json declares is all it grants.
    if (!licence) texts.unshift(`No licence file in the package; its package.json declares "${pkg.license}"${author ? `, author ${author}` : ''}.`);
    return [`## ${pkg.name} ${pkg.version} (${pkg.license})`, '', ...texts.map((t) => '```\n' + t + '\n```\n')].join('\n');
  });

const header = [
  '# Third-party software bundled in this package',
  '',
  'These packages are compiled into the files of `dist/` (the `animcore` command, and readers the',
  'library needs). Their licences follow.',
  '',
];
writeFileSync(join(DIST, 'THIRD_PARTY_LICENSES.md'), [...header, ...sections].join('\n'));
console.log(`${DIST}/THIRD_PARTY_LICENSES.md: ${sections.length} bundled packages`);
