/** What the demo's backend hands the browser: a usage token for this visitor. */
export interface SessionTicket {
  token: string;
  human: string;
  /** The LLM the backend suggests (a hosted or local model when there is one, else the offline one). */
  llm: string;
}

/** Asks the app backend (never the platform) for a usage token; the API key stays on the server. */
export async function fetchSessionTicket(): Promise<SessionTicket> {
  let response: Response;
  try {
    response = await fetch('/api/session', { method: 'POST' });
  } catch {
    throw new Error('The demo backend could not be reached. Is `pnpm start` still running?');
  }
  if (!response.ok) throw new Error(`The demo backend could not open a visit (${response.status}): ${await response.text()}`);
  return (await response.json()) as SessionTicket;
}
