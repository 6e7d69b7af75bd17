import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@palaver/sdk-node';

/**
 * The installed version of `@palaver/sdk-node`, read from its package.json: the nearest one named so, from
 * `folder` upwards. This module runs as `src/cli` from sources and bundled into `dist/cli` (ESM, and CommonJS
 * through tsup's `import.meta.url` shim), so the manifest is found by walking up, not by a fixed relative path.
 *
 * @example
 * packageVersion(); // '0.1.0'
 */
export function packageVersion(folder: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let current = folder; ; current = dirname(current)) {
    const manifest = readManifest(join(current, 'package.json'));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    if (dirname(current) === current) throw new Error(`the package.json of ${PACKAGE_NAME} was not found above ${folder}`);
  }
}

function readManifest(path: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
