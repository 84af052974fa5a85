// `npm start`: build when needed, then run the main job on the bundled examples in examples/:
// resample every example to 60 fps glb into out/ (replacing earlier outputs) and print the summary.
import { execFileSync } from 'node:child_process';

execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
try {
  execFileSync(process.execPath, ['dist/cli.js', 'resample', 'examples', '--fps', '60', '--to', 'glb', '--out', 'out', '--force'], { stdio: 'inherit' });
} catch (e) {
  process.exitCode = e.status ?? 1;
}
