// `npm start`: build when needed, then run the main job on the bundled examples in examples/.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });

function files(dir) {
  return readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : [join(dir, e)]));
}

const examples = files('examples').filter((f) => !f.endsWith('.md'));
const cli = (...args) => execFileSync(process.execPath, ['dist/cli.js', ...args], { stdio: 'inherit' });
cli('info', ...examples);
for (const example of examples) {
  console.log();
  cli('sample', example, '--time', '0.5');
}
