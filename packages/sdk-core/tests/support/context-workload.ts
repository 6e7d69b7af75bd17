import type { ServerProcess } from './server-process.js';

/** A request answered with another status than 200. */
class AnswerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a {@link ContextWorkload} saw: rounds answered correctly, and rounds that failed (status or wire). */
export interface WorkloadCounts {
  answered: number;
  failed: number;
  /** How many failed answers came with each HTTP status (a wrong body counts as status 200). */
  failedStatuses: Record<number, number>;
}

const MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Ada lives in Paris.', advanced_memory: true },
  { role: 'assistant', content: 'Noted.' },
];

/**
 * Requests that write in transactions, kept running against a server process by `workers` loops: create a
 * context with messages (one read into the memory graph: several statements in one transaction), read it back
 * and list its messages. Each loop counts as answered only when all three answered 200 with the messages written.
 *
 * @example
 * const workload = new ContextWorkload(server, 6);
 * await workload.answeredAtLeast(10, 30_000);
 * const counts = await workload.stop();
 */
export class ContextWorkload {
  readonly counts: WorkloadCounts = { answered: 0, failed: 0, failedStatuses: {} };
  readonly failures: string[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly server: ServerProcess,
    workers: number,
  ) {
    this.loops = Array.from({ length: workers }, () => this.loop());
  }

  /** Waits until `count` more loops were answered (polling up to `deadlineMs`). */
  async answeredAtLeast(count: number, deadlineMs: number): Promise<void> {
    const target = this.counts.answered + count;
    const deadline = Date.now() + deadlineMs;
    while (this.counts.answered < target) {
      if (Date.now() > deadline) {
        throw new Error(
          `${count} requests were not answered within ${deadlineMs} ms (${JSON.stringify(this.counts)}, last failures: ${this.failures.slice(-3).join(' | ')})`,
        );
      }
      if (!this.server.alive()) throw new Error(`the server exited:\n${this.server.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Stops the loops once their requests under way ended; answers the counts. */
  async stop(): Promise<WorkloadCounts> {
    this.running = false;
    await Promise.all(this.loops);
    return { ...this.counts, failedStatuses: { ...this.counts.failedStatuses } };
  }

  /** Creates a context with the messages; answers its id. */
  async createContext(): Promise<string> {
    return ((await this.call('POST', '/v1/llm/context', { messages: MESSAGES })) as { id: string }).id;
  }

  /** One round trip: create, read back, list; throws on any wrong answer. */
  async once(): Promise<void> {
    const id = await this.createContext();
    const read = (await this.call('GET', `/v1/llm/context/${id}`)) as { id: string };
    if (read.id !== id) throw new Error(`GET answered context ${read.id} for ${id}`);
    const listed = (await this.call('GET', `/v1/llm/context/${id}/message/list`)) as { values: Array<{ content: Array<{ text: string }> }> };
    const texts = listed.values.map((message) => message.content[0]?.text);
    if (JSON.stringify(texts) !== JSON.stringify(MESSAGES.map((message) => message.content))) {
      throw new Error(`messages of ${id} read back as ${JSON.stringify(texts)}`);
    }
  }

  private async loop(): Promise<void> {
    while (this.running && this.server.alive()) {
      try {
        await this.once();
        this.counts.answered += 1;
      } catch (error) {
        this.counts.failed += 1;
        const status = error instanceof AnswerError ? error.status : 0;
        this.counts.failedStatuses[status] = (this.counts.failedStatuses[status] ?? 0) + 1;
        this.failures.push(String((error as Error).message));
      }
    }
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.server.url}${path}`, {
      method,
      headers: { 'x-api-key': this.server.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (response.status !== 200) throw new AnswerError(response.status, `${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as unknown;
  }
}
