/**
 * The embedded reference server (Node only). Importing this entry is cheap: the platform and its engines load
 * when `createServer` runs, and engines only some deployments use load when configured.
 *
 * The server's packages are optional peer dependencies of `@palaver/sdk-core`; `@palaver/sdk-node` brings
 * them. Without them this import throws one error that says so.
 *
 * @example
 * import { createServer } from '@palaver/sdk-core/server';
 * const server = await createServer();
 * console.log(await server.listen(8080), server.apiKey);
 */
import type { CreateServerOptions, PalaverServer } from './server/app/create-server.js';
import { assertServerPackagesInstalled } from './server/kernel/server-packages.js';

assertServerPackagesInstalled(import.meta.url);

/**
 * Creates the platform: opens storage (SQLite in memory by default), runs migrations, ensures the dev project
 * and key, and builds the HTTP app; `listen()` serves it.
 *
 * @example
 * const server = await createServer();
 * const client = createClient({ apiKey: server.apiKey, fetch: server.fetch });
 */
export async function createServer(options: CreateServerOptions = {}): Promise<PalaverServer> {
  const platform = await import('./server/app/create-server.js');
  return platform.createServer(options);
}
export type { CreateServerOptions, PalaverServer, UpgradeHandler } from './server/app/create-server.js';
export { loadConfig, ConfigError, ServerConfig } from './server/kernel/config.js';
export type { ServerConfigInput } from './server/kernel/config.js';
export { MissingPackageError } from './server/kernel/optional-package.js';
