// The built @palaver/sdk-core, as applications get it: benches that measure the package (not the sources under tsx)
// read its dist, built first when it is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** sdk-core's folder. */
export const corePackage = join(dirname(fileURLToPath(import.meta.url)), '../packages/sdk-core');

/** The path of a file of sdk-core's dist (`dist/server.js`), after building the package if it was never built. */
export function builtFile(file: string): string {
  if (!existsSync(join(corePackage, 'dist/server.js'))) {
    const build = spawnSync('pnpm', ['build'], { cwd: corePackage, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('building @palaver/sdk-core failed');
  }
  return join(corePackage, file);
}
