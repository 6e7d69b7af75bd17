import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The package whose browser bundle renders `/docs`: a development dependency, never installed by users. */
export const SCALAR_PACKAGE = '@scalar/api-reference';

/** The package that ships the bundle to Node backends (decision 0086): copied and gzipped when it is built. */
export const SCALAR_ASSET_PACKAGE = '@palaver/sdk-node';

/** Where `@palaver/sdk-node` keeps the bundle, from its root. */
export const SCALAR_ASSET_FOLDER = 'dist/assets/scalar';

/**
 * The shipped bundle's file name: Scalar's version in it, gzipped (4.9 MB -> about 1.4 MB installed).
 *
 * @example
 * scalarAssetName('1.76.0'); // 'scalar-api-reference-1.76.0.js.gz'
 */
export function scalarAssetName(version: string): string {
  return `scalar-api-reference-${version}.js.gz`;
}

const ASSET_NAME = /^scalar-api-reference-(\d+\.\d+\.\d+[\w.+-]*)\.js\.gz$/;

/** Scalar's API reference, built for browsers into one script (`Scalar.createApiReference`). */
export interface ScalarBundle {
  /** Scalar's version, part of the script's URL so that it can be cached for good. */
  version: string;
  /** The bundle's file. */
  file: string;
  /** Whether the file is gzipped (the copy `@palaver/sdk-node` ships) or the plain script (the package's own). */
  gzipped: boolean;
}

/** Where to look from: sdk-core's own module and the application's working directory. */
export interface ScalarBundleLookup {
  /** A module URL of sdk-core (its sources in the repository, its `dist` when installed). */
  from?: string;
  /** The application's folder (the working directory by default). */
  cwd?: string;
}

/**
 * Finds Scalar's standalone browser bundle with file lookups only, or `undefined` (then `/docs` is the built-in page):
 * 1. the gzipped copy `@palaver/sdk-node` ships (`dist/assets/scalar/`), the package found in a `node_modules` folder
 *    above sdk-core's own folder: npm's flat layout, pnpm's nested one (the application's `node_modules` is above
 *    sdk-core's real folder in `.pnpm`), npm's nested one (sdk-core inside sdk-node: a global install);
 * 2. the same above the working directory (a pnpm workspace that links sdk-node into the application's folder only);
 * 3. the `@scalar/api-reference` package above sdk-core's folder: the repository's development dependency (sources,
 *    tests). Last, so that an application's own copy of Scalar never replaces the version sdk-node pins.
 *
 * Packages are looked for in the `node_modules` folders only, not `NODE_PATH`: pnpm's commands set it to their store's
 * hoisted folder, where this repository's own sdk-node (and whatever its last build holds) would be found.
 *
 * @example
 * locateScalarBundle(); // { version: '1.76.0', file: '.../@palaver/sdk-node/dist/assets/scalar/scalar-api-reference-1.76.0.js.gz', gzipped: true }
 */
export function locateScalarBundle(lookup: ScalarBundleLookup = {}): ScalarBundle | undefined {
  const own = dirname(fileURLToPath(lookup.from ?? import.meta.url));
  return shippedBundle(own) ?? shippedBundle(lookup.cwd ?? process.cwd()) ?? packageBundle(own);
}

/** The real folder of the package `name` in the nearest `node_modules` at or above `start`, as Node looks (no `NODE_PATH`). */
function installedPackage(start: string, name: string): string | undefined {
  for (let folder = resolve(start); ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (basename(folder) !== 'node_modules' && existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(folder) === folder) return undefined;
  }
}

/** The copy in `@palaver/sdk-node`'s build. */
function shippedBundle(start: string): ScalarBundle | undefined {
  const root = installedPackage(start, SCALAR_ASSET_PACKAGE);
  if (!root) return undefined;
  const folder = join(root, SCALAR_ASSET_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const name of names.sort()) {
    const version = ASSET_NAME.exec(name)?.[1];
    if (version) return { version, file: join(folder, name), gzipped: true };
  }
  return undefined;
}

/** The installed `@scalar/api-reference` package's own bundle (`dist/browser/standalone.js`). */
function packageBundle(start: string): ScalarBundle | undefined {
  const root = installedPackage(start, SCALAR_PACKAGE);
  if (!root) return undefined;
  const file = join(root, 'dist', 'browser', 'standalone.js');
  if (!existsSync(file)) return undefined;
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, file, gzipped: false };
}

/**
 * The bundle's bytes, read once: the shipped copy is already gzipped (unzipped once for the rare client that does
 * not accept gzip), the package's plain script is gzipped once (4.9 MB -> about 1.4 MB).
 */
export class ScalarBundleFile {
  private gzippedBytes: Promise<Uint8Array> | undefined;
  private plainBytes: Promise<Uint8Array> | undefined;

  constructor(readonly bundle: ScalarBundle) {}

  /** The script's bytes, gzipped when `gzipAccepted`. */
  bytes(gzipAccepted: boolean): Promise<Uint8Array> {
    return gzipAccepted ? this.gzipped() : this.plain();
  }

  private gzipped(): Promise<Uint8Array> {
    this.gzippedBytes ??= this.bundle.gzipped ? readFile(this.bundle.file) : this.plain().then((plain) => gzipAsync(plain, { level: 9 }));
    // A failed read is tried again on the next request.
    this.gzippedBytes.catch(() => (this.gzippedBytes = undefined));
    return this.gzippedBytes;
  }

  private plain(): Promise<Uint8Array> {
    this.plainBytes ??= this.bundle.gzipped ? this.gzipped().then((gzipped) => gunzipAsync(gzipped)) : readFile(this.bundle.file);
    this.plainBytes.catch(() => (this.plainBytes = undefined));
    return this.plainBytes;
  }
}
