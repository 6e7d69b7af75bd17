import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** The package whose browser bundle renders `/docs` (an optional peer: without it `/docs` is the built-in page). */
export const SCALAR_PACKAGE = '@scalar/api-reference';

/** Scalar's API reference, built for browsers into one script (`Scalar.createApiReference`). */
export interface ScalarBundle {
  /** The package's version, part of the script's URL so that it can be cached for good. */
  version: string;
  /** The bundle's file. */
  file: string;
}

/**
 * Where the installed `@scalar/api-reference` keeps its standalone browser bundle, or `undefined` when the package
 * (an optional peer dependency, brought by `@palaver/sdk-node`) is not installed. Only file lookups.
 *
 * @example
 * const bundle = locateScalarBundle(); // { version: '1.76.0', file: '.../dist/browser/standalone.js' }
 */
export function locateScalarBundle(fromUrl: string = import.meta.url): ScalarBundle | undefined {
  let entry: string;
  try {
    // The package exports only its module entries: its root is found from the main entry (dist/index.js).
    entry = createRequire(fromUrl).resolve(SCALAR_PACKAGE);
  } catch {
    return undefined;
  }
  const root = dirname(dirname(entry));
  const file = join(root, 'dist', 'browser', 'standalone.js');
  if (!existsSync(file)) return undefined;
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, file };
}

/** The bundle's bytes, read once, and gzipped once for clients that accept it (4.9 MB -> about 1.3 MB). */
export class ScalarBundleFile {
  private loaded: Promise<{ plain: Uint8Array; gzipped: Uint8Array }> | undefined;

  constructor(readonly bundle: ScalarBundle) {}

  /** The script's bytes, gzipped when `gzipAccepted`. */
  async bytes(gzipAccepted: boolean): Promise<Uint8Array> {
    this.loaded ??= (async () => {
      const plain = await readFile(this.bundle.file);
      return { plain, gzipped: await gzipAsync(plain, { level: 9 }) };
    })();
    // A failed read is tried again on the next request.
    this.loaded.catch(() => (this.loaded = undefined));
    const { plain, gzipped } = await this.loaded;
    return gzipAccepted ? gzipped : plain;
  }
}
