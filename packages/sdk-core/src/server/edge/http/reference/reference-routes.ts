import type { Context, Hono } from 'hono';
import type { Services } from '../../../domain/services.js';
import { renderDocsPage } from '../docs-page.js';
import { referenceContentSecurityPolicy } from './content-security-policy.js';
import { REFERENCE_SCRIPT } from './reference-script.js';
import { locateScalarBundle, ScalarBundleFile, type ScalarBundle } from './scalar-bundle.js';
import { renderScalarPage } from './scalar-page.js';
import { tryItKey } from './try-it-key.js';

/** The reference's addresses. */
export const REFERENCE_PATHS = {
  page: '/docs',
  plain: '/docs/plain',
  script: '/docs/assets/reference.js',
  spec: '/openapi.json',
} as const;

/** The bundle's address: its version is part of it, so a browser keeps it until Scalar is upgraded. */
export function scalarBundlePath(version: string): string {
  return `/docs/assets/scalar-api-reference-${version}.js`;
}

const TITLE = 'Palaver API reference';

/**
 * This server's address as `listen()` reports it, from the configuration (the code samples' server when no public
 * URL is configured): a wildcard host is shown as 127.0.0.1, and a port chosen at listen time (0) as 8080.
 *
 * @example
 * localServerUrl({ host: '0.0.0.0', port: 8080 }); // 'http://127.0.0.1:8080'
 */
export function localServerUrl(config: { host: string; port: number }): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port === 0 ? 8080 : config.port}`;
}

function commonHeaders(context: Context): void {
  context.header('x-content-type-options', 'nosniff');
  context.header('referrer-policy', 'no-referrer');
}

/**
 * The API reference: `/docs` is Scalar's interactive reference (try-it against this server, examples, code samples,
 * search) when its bundle is found (`locateScalarBundle`: the copy `@palaver/sdk-node` ships, or the repository's
 * development dependency), else the built-in page; `/docs/plain` is always the built-in
 * page (one HTML page without scripts but its search, with the node catalogue); the assets are served from here,
 * never from a CDN.
 *
 * @example
 * registerReferenceRoutes(app, services);
 * registerReferenceRoutes(app, services, { locateBundle: () => undefined }); // as without Scalar's bundle
 */
export function registerReferenceRoutes(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  app: Hono<any>,
  services: Pick<Services, 'config' | 'projects'>,
  options: { locateBundle?: () => ScalarBundle | undefined } = {},
): void {
  const locate = options.locateBundle ?? (() => locateScalarBundle());
  // Looked up on the first request for the reference, not at start (a few file lookups).
  let bundleFile: ScalarBundleFile | null | undefined;
  const bundle = (): ScalarBundleFile | null => {
    if (bundleFile === undefined) {
      const located = locate();
      bundleFile = located ? new ScalarBundleFile(located) : null;
    }
    return bundleFile;
  };
  const publicOrigin = services.config.publicUrl ? new URL(services.config.publicUrl).origin : undefined;

  app.get(REFERENCE_PATHS.plain, (context) => {
    commonHeaders(context);
    return context.html(renderDocsPage(REFERENCE_PATHS.spec));
  });

  app.get(REFERENCE_PATHS.page, (context) => {
    commonHeaders(context);
    const scalar = bundle();
    if (!scalar) return context.html(renderDocsPage(REFERENCE_PATHS.spec));
    const apiKey = tryItKey(services.config, () => services.projects.developmentKey(), context.req.header('host'));
    context.header('content-security-policy', referenceContentSecurityPolicy(publicOrigin ? [publicOrigin] : []));
    // A page that carries a key is never stored by a browser or a cache.
    context.header('cache-control', apiKey ? 'no-store' : 'no-cache');
    return context.html(
      renderScalarPage({
        title: TITLE,
        specUrl: REFERENCE_PATHS.spec,
        bundleUrl: scalarBundlePath(scalar.bundle.version),
        scriptUrl: REFERENCE_PATHS.script,
        plainUrl: REFERENCE_PATHS.plain,
        serverUrl: services.config.publicUrl ?? new URL(context.req.url).origin,
        apiKey,
      }),
    );
  });

  app.get(REFERENCE_PATHS.script, (context) => {
    commonHeaders(context);
    return context.body(REFERENCE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
  });

  app.get('/docs/assets/:file', async (context) => {
    const scalar = bundle();
    if (!scalar || context.req.path !== scalarBundlePath(scalar.bundle.version)) {
      return context.json({ type: 'not_found', message: `No route for GET ${context.req.path}` }, 404);
    }
    commonHeaders(context);
    const gzipAccepted = /\bgzip\b/.test(context.req.header('accept-encoding') ?? '');
    const bytes = await scalar.bytes(gzipAccepted);
    return context.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
      ...(gzipAccepted ? { 'content-encoding': 'gzip' } : {}),
    });
  });
}
