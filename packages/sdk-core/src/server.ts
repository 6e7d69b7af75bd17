/**
 * The embedded reference server (Node only).
 *
 * @example
 * import { createServer } from '@palaver/sdk-core/server';
 * const server = await createServer();
 * console.log(await server.listen(8080), server.apiKey);
 */
export { createServer } from './server/create-server.js';
export type { CreateServerOptions, PalaverServer, UpgradeHandler } from './server/create-server.js';
export { loadConfig, ConfigError, ServerConfig } from './server/config.js';
export type { ServerConfigInput } from './server/config.js';
