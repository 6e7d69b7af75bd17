import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/** A server connection as `pg_stat_activity` shows it. */
export interface Backend {
  pid: number;
  state: string | null;
  waitEventType: string | null;
  query: string;
}

/**
 * A superuser session that watches and terminates a server's PostgreSQL connections by `application_name`
 * (the server names each kind of connection: `palaver <schema>`, `palaver migrations <schema>`...), and holds
 * locks or uncommitted work to keep a starting server waiting where a test wants it.
 *
 * @example
 * const admin = await PostgresAdmin.connect(postgresUrl);
 * const terminated = await admin.terminate(`palaver ${schema}`);
 */
export class PostgresAdmin {
  private constructor(private readonly client: pg.Client) {}

  static async connect(url: string): Promise<PostgresAdmin> {
    const client = new pg.Client({ connectionString: url, application_name: 'palaver test admin' });
    client.on('error', () => {}); // the awaited queries report it
    await client.connect();
    return new PostgresAdmin(client);
  }

  /** The connections named `applicationName`. */
  async backends(applicationName: string): Promise<Backend[]> {
    const { rows } = await this.client.query<{ pid: number; state: string | null; wait_event_type: string | null; query: string }>(
      'SELECT pid, state, wait_event_type, query FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows.map((row) => ({ pid: row.pid, state: row.state, waitEventType: row.wait_event_type, query: row.query }));
  }

  /** Terminates every connection named `applicationName` (`pg_terminate_backend`); answers how many. */
  async terminate(applicationName: string): Promise<number> {
    const { rows } = await this.client.query<{ terminated: boolean }>(
      'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows.filter((row) => row.terminated).length;
  }

  /**
   * Waits (polling, up to `deadlineMs`) until a connection named `applicationName` whose pid is not in `except`
   * waits for a lock (an advisory lock, or a row another transaction wrote and has not committed), and answers it.
   */
  async waitingForLock(applicationName: string, deadlineMs: number, except: ReadonlySet<number> = new Set()): Promise<Backend> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const waiting = (await this.backends(applicationName)).find((backend) => backend.waitEventType === 'Lock' && !except.has(backend.pid));
      if (waiting) return waiting;
      if (Date.now() > deadline) throw new Error(`no connection '${applicationName}' waited for a lock within ${deadlineMs} ms`);
      await sleep(20);
    }
  }

  /** Runs `sql` on this session (e.g. `BEGIN` and a statement whose uncommitted row makes a server's statement wait). */
  async query(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  /** Takes a session-level advisory lock (waits for it). */
  async lock(key: number): Promise<void> {
    await this.client.query('SELECT pg_advisory_lock($1)', [key]);
  }

  async unlock(key: number): Promise<void> {
    await this.client.query('SELECT pg_advisory_unlock($1)', [key]);
  }

  async end(): Promise<void> {
    await this.client.end();
  }
}
