/**
 * The CommonJS build of `@palaver/sdk-core/server`. The platform itself is ESM: `createServer` loads the ESM
 * build beside this file, so CommonJS and ESM applications run the same code and the same dependency builds
 * (several of the server's packages ship CommonJS variants that differ from their ESM ones).
 *
 * @example
 * const { createServer } = require('@palaver/sdk-core/server');
 * const server = await createServer();
 */
import type { CreateServerOptions, PalaverServer } from './server/app/create-server.js';
import { assertServerPackagesInstalled } from './server/kernel/server-packages.js';

assertServerPackagesInstalled(import.meta.url);

/** A variable, so the bundler leaves the dynamic import of the ESM build to Node. */
const ESM_BUILD = './server.js';

/**
 * Creates the platform (see the ESM entry): opens storage, runs migrations, ensures the dev project and key,
 * and builds the HTTP app; `listen()` serves it.
 *
 * @example
 * const server = await createServer();
 * console.log(await server.listen(8080), server.apiKey);
 */
export async function createServer(options: CreateServerOptions = {}): Promise<PalaverServer> {
  const platform = (await import(ESM_BUILD)) as typeof import('./server.js');
  return platform.createServer(options);
}
export type { CreateServerOptions, PalaverServer, UpgradeHandler } from './server/app/create-server.js';
export { loadConfig, ConfigError, ServerConfig } from './server/kernel/config.js';
export type { ServerConfigInput } from './server/kernel/config.js';
export { MissingPackageError } from './server/kernel/optional-package.js';
