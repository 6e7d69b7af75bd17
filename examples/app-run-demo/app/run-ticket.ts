import type { AppRunConnectOptions } from '@palaver/sdk-core/realtime';

/** What the demo's backend hands the browser: a usage token for this visitor and what to run with it. */
export type RunTicket = Extract<AppRunConnectOptions, { app: string }> & { human: string };

/** Asks the app backend (never the platform) for a usage token and the app to run; the API key stays on the server. */
export async function fetchRunTicket(): Promise<RunTicket> {
  const response = await fetch('/api/run', { method: 'POST' });
  if (!response.ok) throw new Error(`the demo backend refused: ${response.status} ${await response.text()}`);
  return (await response.json()) as RunTicket;
}
