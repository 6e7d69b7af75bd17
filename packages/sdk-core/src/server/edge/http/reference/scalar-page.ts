import { escapeHtml } from '../docs-schema.js';

/** What the reference page needs to know. */
export interface ScalarPageOptions {
  title: string;
  /** The OpenAPI document's URL (`/openapi.json`). */
  specUrl: string;
  /** Scalar's bundle, served by this server. */
  bundleUrl: string;
  /** The page's own script, which mounts the reference. */
  scriptUrl: string;
  /** The reference without scripts (`/docs/plain`). */
  plainUrl: string;
  /** Where try-it sends requests. */
  serverUrl: string;
  /** The API key the try-it console starts with (development only), if any. */
  apiKey?: string | undefined;
}

/** Scalar's generated snippets left out (it keeps shell, raw HTTP, JavaScript, Node.js and Python). */
const HIDDEN_CLIENT_TARGETS = [
  'c',
  'clojure',
  'csharp',
  'dart',
  'fsharp',
  'go',
  'java',
  'kotlin',
  'objc',
  'ocaml',
  'php',
  'powershell',
  'r',
  'ruby',
  'rust',
  'swift',
];

/**
 * Scalar's configuration (`Scalar.createApiReference`): the document and this server, authentication with the API
 * key scheme first (prefilled only when `apiKey` is given), and nothing that reaches outside the server: no font
 * CDN, no telemetry, no agent or MCP integrations, no request proxy.
 */
export function scalarConfiguration(options: ScalarPageOptions): Record<string, unknown> {
  return {
    url: options.specUrl,
    servers: [{ url: options.serverUrl, description: 'This Palaver server' }],
    authentication: {
      preferredSecurityScheme: 'ApiKey',
      ...(options.apiKey ? { securitySchemes: { ApiKey: { value: options.apiKey } } } : {}),
    },
    persistAuth: false,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    operationTitleSource: 'summary',
    showOperationId: true,
    orderRequiredPropertiesFirst: true,
    modelsSectionLabel: 'Schemas',
    defaultOpenFirstTag: false,
    // The operations' own samples (curl, the TypeScript client) come first; of the generated ones, only the
    // languages a Palaver caller is likely to use.
    hiddenClients: HIDDEN_CLIENT_TARGETS,
    favicon: '/favicon.svg',
    metaData: { title: options.title },
    plainUrl: options.plainUrl,
  };
}

/** JSON that is safe inside a `<script>` element (no `</script>`, no `<!--`). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The `/docs` page: Scalar's API reference over the OpenAPI document, every script served by this server (no
 * inline script: the configuration travels as JSON the page's script reads).
 *
 * @example
 * context.html(renderScalarPage({ title: 'Palaver API reference', specUrl: '/openapi.json', ... }));
 */
export function renderScalarPage(options: ScalarPageOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(options.title)}</title></head>
<body><noscript><p>This reference needs JavaScript. <a href="${escapeHtml(options.plainUrl)}">Read it as one page without scripts</a>, or fetch <a href="${escapeHtml(options.specUrl)}">the OpenAPI document</a>.</p></noscript>
<div id="app"></div>
<script id="palaver-reference-config" type="application/json">${scriptJson(scalarConfiguration(options))}</script>
<script src="${escapeHtml(options.bundleUrl)}"></script>
<script src="${escapeHtml(options.scriptUrl)}"></script>
</body></html>`;
}
