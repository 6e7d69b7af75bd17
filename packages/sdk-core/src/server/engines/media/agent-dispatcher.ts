/**
 * LiveKit Agents dispatch, as the platform uses it: ask for a named worker's agent in a room (a realtime
 * session whose `general.agent` names a worker), and take it back. The embedded endpoint dispatches to the
 * workers registered on its `/agent` socket; with a LiveKit deployment this is its AgentDispatchService.
 */
export interface AgentDispatchOptions {
  room: string;
  /** The worker's `agentName` (`''`: the workers registered without a name). */
  agentName: string;
  /** Handed to the job as `ctx.job.metadata`. */
  metadata?: string;
}

export interface AgentDispatcher {
  /** Creates the dispatch; a worker's agent joins the room when one accepts the job. */
  dispatch(options: AgentDispatchOptions): Promise<{ id: string }>;
  /** Deletes the dispatch: its running job is terminated and the agent leaves. */
  cancel(room: string, dispatchId: string): Promise<void>;
  /** Whether a worker with this name is registered now; undefined when it cannot be known (a LiveKit deployment). */
  hasWorker(agentName: string): boolean | undefined;
  /** The registered agent names, each with its workers; undefined when they cannot be listed (a LiveKit deployment). */
  registeredAgents(): RegisteredAgent[] | undefined;
}

/** The workers registered under one `agentName`. */
export interface RegisteredAgent {
  agentName: string;
  workers: number;
  /** At least one of them takes jobs now. */
  available: boolean;
}
