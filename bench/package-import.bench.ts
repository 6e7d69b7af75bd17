/**
 * The published server entry's cost to import, from the built package in plain Node (no TypeScript loader):
 * `import('@palaver/sdk-core/server')` and `require()` of its CommonJS build, each in a fresh process, against
 * the baseline of the same process importing nothing but `node:http`. Builds sdk-core first when dist is missing.
 */
import { spawnSync } from 'node:child_process';
import { builtFile } from './built-package.js';
import { median, percentile } from './statistics.js';

const RUNS = 15;
const [serverEsm, serverCommonJs, client] = ['dist/server.js', 'dist/server.cjs', 'dist/index.js'].map(builtFile) as [string, string, string];

const scripts = {
  'import(dist/server.js)': `const t = performance.now(); await import(${JSON.stringify(serverEsm)}); console.log(performance.now() - t);`,
  'require(dist/server.cjs)': `const t = performance.now(); (await import('node:module')).createRequire(import.meta.url)(${JSON.stringify(serverCommonJs)}); console.log(performance.now() - t);`,
  'import(dist/index.js) (REST client)': `const t = performance.now(); await import(${JSON.stringify(client)}); console.log(performance.now() - t);`,
  'baseline: import(node:http)': `const t = performance.now(); await import('node:http'); console.log(performance.now() - t);`,
};

function measure(script: string): number[] {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    samples.push(Number(child.stdout.trim()));
  }
  return samples;
}

const results = Object.fromEntries(Object.entries(scripts).map(([name, script]) => [name, measure(script)]));
const baseline = median(results['baseline: import(node:http)']!);
console.log(`module import time in a fresh Node process, ${RUNS} runs each (ms):`);
for (const [name, samples] of Object.entries(results)) {
  const p50 = median(samples);
  console.log(
    `  ${name.padEnd(38)} p50 ${p50.toFixed(1).padStart(7)}  p95 ${percentile(samples, 95).toFixed(1).padStart(7)}  (${(p50 / baseline).toFixed(1)}x the baseline)`,
  );
}
