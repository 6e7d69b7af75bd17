/** What the demo's backend hands the browser: a usage token for this visitor. */
export interface SessionTicket {
  token: string;
  human: string;
  /** The LLM the backend picked for the call (a hosted model when configured, else the offline one). */
  llm: string;
}

/** Asks the app backend (never the platform) for a usage token; the API key stays on the server. */
export async function fetchSessionTicket(): Promise<SessionTicket> {
  const response = await fetch('/api/session', { method: 'POST' });
  if (!response.ok) throw new Error(`the demo backend refused: ${response.status} ${await response.text()}`);
  return (await response.json()) as SessionTicket;
}
