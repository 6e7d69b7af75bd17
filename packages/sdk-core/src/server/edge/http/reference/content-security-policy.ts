/**
 * The Content-Security-Policy of the reference page: scripts from this server only (the page has no inline
 * script), Scalar's inline styles, and requests to this server (plus the configured public URL's origin, for
 * try-it behind a proxy). Nothing is fetched from elsewhere: no fonts, no CDN, no telemetry.
 *
 * @example
 * context.header('content-security-policy', referenceContentSecurityPolicy(['https://api.example.com']));
 */
export function referenceContentSecurityPolicy(extraConnectOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...extraConnectOrigins].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
