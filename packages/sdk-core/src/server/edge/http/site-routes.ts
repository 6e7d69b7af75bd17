import type { Hono } from 'hono';

/** The platform's mark: a speech bubble with a sound wave, for browser tabs on `/docs` and the demos. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect x="4" y="6" width="56" height="44" rx="14" fill="#4f46e5"/>' +
  '<path d="M18 58 L22 46 L34 46 Z" fill="#4f46e5"/>' +
  '<g stroke="#fff" stroke-width="5" stroke-linecap="round">' +
  '<line x1="20" y1="24" x2="20" y2="32"/><line x1="28" y1="18" x2="28" y2="38"/><line x1="36" y1="22" x2="36" y2="34"/><line x1="44" y1="26" x2="44" y2="30"/>' +
  '</g></svg>';

/**
 * The server's own pages outside the API: `GET`/`HEAD /` answers `OK` like a LiveKit server (livekit-client
 * sends `HEAD /` to the media URL before connecting), and the favicon.
 *
 * @example
 * registerSiteRoutes(app);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registerSiteRoutes(app: Hono<any>): void {
  // With its status given: `text()` alone takes a shortcut whose response @hono/node-server 1.19 cannot copy into
  // the bodiless answer Hono makes for HEAD (a TypeError, answered 500).
  app.get('/', (context) => context.text('OK', 200));
  const favicon = (context: { body: (data: string, status: 200, headers: Record<string, string>) => Response }) =>
    context.body(FAVICON_SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
  app.get('/favicon.ico', favicon);
  app.get('/favicon.svg', favicon);
}
