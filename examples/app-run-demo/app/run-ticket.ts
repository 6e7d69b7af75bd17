import type { AppRunConnectOptions } from '@palaver/sdk-core/realtime';

/** What the demo's backend hands the browser: a usage token for this visitor and what to run with it. */
export type RunTicket = Extract<AppRunConnectOptions, { app: string }> & { human: string };

/** What `connect` takes of a ticket: the token and what to run (the human is the backend's business). */
export function runOptions(ticket: RunTicket): AppRunConnectOptions {
  const { token, app, overrides } = ticket;
  return { token, app, ...(overrides ? { overrides } : {}) };
}

/** The message of a JSON error answer (`{message}`), else the answer as it is. */
function said(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' ? message : body;
  } catch {
    return body;
  }
}

/** Asks the app backend (never the platform) for a usage token and the app to run; the API key stays on the server. */
export async function fetchRunTicket(): Promise<RunTicket> {
  let response: Response;
  try {
    response = await fetch('/api/run', { method: 'POST' });
  } catch {
    throw new Error('The demo backend could not be reached. Is `pnpm start` still running?');
  }
  if (!response.ok) throw new Error(`The demo backend could not open a visit (${response.status}): ${said(await response.text())}`);
  return (await response.json()) as RunTicket;
}
