/**
 * `pnpm bench`: runs every benchmark in this folder (each `*.bench.ts`, or a name given on the command line)
 * in its own process, one after another. Each prints its figures and the ratio to a baseline measured in
 * the same run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(folder)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.includes(name)))
  .sort();

let failures = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(folder, file)], {
    stdio: 'inherit',
    env: { ...process.env, PALAVER_LOG_LEVEL: 'silent' },
  });
  if (result.status !== 0) {
    failures += 1;
    console.log(`!!! ${file} exited with ${result.status}`);
  }
}
process.exit(failures > 0 ? 1 : 0);
