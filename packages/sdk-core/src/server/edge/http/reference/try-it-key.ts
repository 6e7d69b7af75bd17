import type { ServerConfig } from '../../../kernel/config.js';

/** Whether a `Host` header names this machine: `localhost`, `127.x.x.x` or `[::1]` (any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The API key the try-it console starts with: the development project's key, only when the server runs for
 * development (`docs.prefillDevKey`, `PALAVER_DOCS_PREFILL_KEY=true`, set by `pnpm start`) and the page is opened
 * on this machine. A page reached under any other host name (a proxy, a LAN address, a DNS-rebinding page that
 * points its own name at 127.0.0.1) never carries the key.
 *
 * @example
 * tryItKey(config, () => services.projects.developmentKey(), context.req.header('host'));
 */
export function tryItKey(config: Pick<ServerConfig, 'docs'>, developmentKey: () => string | undefined, host: string | undefined): string | undefined {
  if (!config.docs.prefillDevKey || !isLoopbackHost(host)) return undefined;
  return developmentKey();
}
