import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the server's packages come from, for messages that tell a user what to install. */
export const SERVER_PACKAGES_SOURCE = '@palaver/sdk-node';

/** A package the server needs for what it was configured to do is not installed. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';

  constructor(
    readonly packageName: string,
    purpose: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${purpose} needs the package '${packageName}', which is not installed: run \`npm install ${packageName}\` (${SERVER_PACKAGES_SOURCE} brings it)`,
      options,
    );
  }
}

/** Whether `error` is Node's "cannot find package" for `packageName` itself (not for one of its own imports). */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return error.message.includes(`'${packageName}'`) || error.message.includes(`"${packageName}"`);
}

/**
 * Loads a package only some deployments use (pg, ioredis, onnxruntime-node, @livekit/rtc-node...) when it is
 * first needed; when it is not installed, throws a {@link MissingPackageError} that names it and why.
 *
 * @example
 * const pg = await importOptional('pg', 'DATABASE_URL (PostgreSQL)', () => import('pg'));
 */
export async function importOptional<T>(packageName: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, packageName)) throw new MissingPackageError(packageName, purpose, { cause: error });
    throw error;
  }
}

/**
 * The packages of `names` that cannot be found from `fromUrl` (a module's `import.meta.url`): looks for each
 * package folder in the `node_modules` of the module's folder and of every folder above it, as ESM resolution
 * does (no `NODE_PATH`, no global folders), without loading anything, so it costs a few file lookups.
 *
 * @example
 * const missing = missingPackages(['hono', 'kysely'], import.meta.url);
 */
export function missingPackages(names: readonly string[], fromUrl: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(fileURLToPath(fromUrl)); ; folder = dirname(folder)) {
    if (basename(folder) !== 'node_modules') folders.push(join(folder, 'node_modules'));
    if (dirname(folder) === folder) break;
  }
  return names.filter((name) => !folders.some((folder) => existsSync(join(folder, name, 'package.json'))));
}
