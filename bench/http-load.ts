// Runs `http-load-child.ts` (the autocannon load generator) in its own process and resolves with its result.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, Scenario } from './http-load-child.js';

export type { LoadResult, Scenario };

const folder = dirname(fileURLToPath(import.meta.url));

export function loadFromChild(scenario: Scenario): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(folder, 'http-load-child.ts'), JSON.stringify(scenario)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as LoadResult) : reject(new Error(`load generator exited with ${code}`))));
  });
}
