import type { AgentSessionHandle } from '../kernel/ports/agent-session-host.js';

/** A session that runs: what runs it (a voice agent, a worker session) and the handle its starter got. */
export interface RegisteredSession<S> {
  session: S;
  handle: AgentSessionHandle;
}

/**
 * The running sessions of an agent host, by session id: both hosts (`createVoiceAgentHost`, `createRoutingAgentHost`)
 * keep theirs here. Starting a session that runs, or is starting, answers its handle instead of a second agent; a
 * session that stops forgets itself only while it is still the one registered under its id.
 *
 * @example
 * const sessions = new SessionRegistry<VoiceAgent>();
 * const handle = await sessions.start(id, async () => ({ session: agent, handle: agentHandle }));
 * sessions.forget(id, agent);
 */
export class SessionRegistry<S> {
  private readonly running = new Map<string, RegisteredSession<S>>();
  private readonly starting = new Map<string, Promise<AgentSessionHandle>>();

  /** The handle of session `id`: its running or starting one, else `launch`'s, registered once launched. */
  async start(id: string, launch: () => Promise<RegisteredSession<S>>): Promise<AgentSessionHandle> {
    const existing = this.running.get(id)?.handle ?? this.starting.get(id);
    if (existing) return existing;
    const launching = launch().then((registered) => {
      this.running.set(id, registered);
      return registered.handle;
    });
    this.starting.set(id, launching);
    try {
      return await launching;
    } finally {
      this.starting.delete(id);
    }
  }

  /** Session `id` stopped: forgotten when `session` is the one registered (a newer session under the id stays). */
  forget(id: string, session: S): void {
    if (this.running.get(id)?.session === session) this.running.delete(id);
  }

  /** How many sessions run. */
  get size(): number {
    return this.running.size;
  }

  /** Empties the registry (the host closes) and answers what ran. */
  takeAll(): RegisteredSession<S>[] {
    const all = [...this.running.values()];
    this.running.clear();
    return all;
  }
}
