import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/database.js';
import { STARTUP_LOCK_KEY, type PostgresConnectionKind } from '../../src/server/store/postgres-connections.js';
import { requireComponent } from '../support/components.js';
import { ContextWorkload } from '../support/context-workload.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { PostgresAdmin } from '../support/postgres-backends.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

/** Generous deadlines for a loaded machine: they bound waiting, they are not what the test measures. */
const DEADLINE_MS = 30_000;
const WORKERS = 6;
const webhookSecret = 'whsec_dGVybWluYXRlZC1jb25uZWN0aW9ucw==';

/** Waits until the receiver got the `usage.tracked` webhook of the memory message written into `context`. */
async function webhookOf(receiver: WebhookReceiver, context: string, server: ServerProcess): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  const tracked = () =>
    receiver.requests.some((request) => {
      const message = JSON.parse(request.body) as { type: string; payload: { metadata?: { context?: string } } };
      return message.type === 'usage.tracked' && message.payload.metadata?.context === context;
    });
  while (!tracked()) {
    if (Date.now() > deadline) throw new Error(`no usage.tracked webhook for ${context} within ${DEADLINE_MS} ms`);
    if (!server.alive()) throw new Error(`the server exited:\n${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves never; rejects when the server process fails to start (it exited), with its stderr. */
function failureToStart(starting: Promise<ServerProcess>): Promise<never> {
  return starting.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => Promise.reject(error as Error),
  );
}

describe.runIf(withPostgres)('PostgreSQL connections terminated under the server (pg_terminate_backend)', () => {
  it('a pooled connection lent to a transaction and terminated between two of its queries is reported, fails only that transaction, and is replaced', async () => {
    const schema = uniqueSchema();
    const reported: Array<{ connection: PostgresConnectionKind; code: string | undefined }> = [];
    const store = await openStore({
      url: postgresUrl,
      schema,
      onConnectionError: (error, connection) => reported.push({ connection, code: (error as { code?: string }).code }),
    });
    const admin = await PostgresAdmin.connect(postgresUrl);
    try {
      const transaction = store.transaction(async (trx) => {
        await trx.selectFrom('settings').select('key').execute();
        // pg-pool took its listener off this lent connection: only the store's own listener hears its error.
        expect(await admin.terminate(`palaver ${schema}`)).toBe(1);
        const deadline = Date.now() + DEADLINE_MS;
        while (reported.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        await trx.selectFrom('settings').select('key').execute();
      });
      await expect(transaction).rejects.toThrow();
      expect(reported).toEqual([{ connection: 'pool', code: '57P01' }]);
      expect(await store.db.selectFrom('settings').select('key').execute()).toEqual(expect.any(Array));
    } finally {
      await admin.end();
      await store.close();
      await dropSchema(schema);
    }
  });

  it('a running server: its pooled connections terminated while transactions run, round after round; it answers correctly afterwards and still delivers webhooks', async () => {
    const ROUNDS = 5;
    const TERMINATIONS_PER_ROUND = 3;
    const receiver = new WebhookReceiver();
    await receiver.start();
    const schema = uniqueSchema();
    const server = await startServerProcess({ databaseUrl: postgresUrl, webhook: { url: receiver.url, secret: webhookSecret } }, { databaseSchema: schema });
    const admin = await PostgresAdmin.connect(postgresUrl);
    const pool = `palaver ${schema}`;
    try {
      const workload = new ContextWorkload(server, WORKERS);
      await workload.answeredAtLeast(WORKERS, DEADLINE_MS);
      const before = workload.counts.answered;
      let terminated = 0;
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (let termination = 1; termination <= TERMINATIONS_PER_ROUND; termination += 1) {
          terminated += await admin.terminate(pool);
          // The workload goes on: the pool replaces the terminated connections.
          await workload.answeredAtLeast(2, DEADLINE_MS);
        }
        expect(server.alive(), `round ${round}: the server exited:\n${server.stderr()}`).toBe(true);
      }
      const during = await workload.stop();
      console.info(
        `pooled connections: ${terminated} terminated in ${ROUNDS} rounds of ${TERMINATIONS_PER_ROUND} terminations; request rounds ` +
          `(create, read, list) answered: ${before} before the first, ${during.answered - before} meanwhile, ${during.failed} failed with their connection (${JSON.stringify(during.failedStatuses)})`,
      );
      expect(terminated, 'connections terminated').toBeGreaterThanOrEqual(ROUNDS * TERMINATIONS_PER_ROUND);
      // A request whose connection was ended answers 503 (retry), never a 500; 0: the socket itself failed.
      expect(
        Object.keys(during.failedStatuses).filter((status) => status !== '503'),
        `failed answers by status: ${JSON.stringify(during.failedStatuses)}; last: ${workload.failures.slice(-3).join(' | ')}`,
      ).toEqual([]);
      // Afterwards every request is answered, and correctly; the webhook dispatcher's loop still delivers.
      const after = new ContextWorkload(server, 0);
      for (let request = 0; request < 10; request += 1) await after.once();
      await webhookOf(receiver, await after.createContext(), server);
      expect(server.alive(), server.stderr()).toBe(true);
    } finally {
      await admin.end();
      await server.kill();
      await receiver.close();
      await dropSchema(schema);
    }
  }, 180_000);

  it('a starting server: its schema, start-up lock and migrations connections terminated while it waits on each; it starts and answers', async () => {
    const ROUNDS = 3;
    const schema = uniqueSchema();
    const names = { schema: `palaver schema ${schema}`, lock: `palaver startup-lock ${schema}`, migrations: `palaver migrations ${schema}` };
    const terminated = { schema: 0, lockWaiting: 0, migrations: 0, lockHeld: 0 };
    const admin = await PostgresAdmin.connect(postgresUrl);
    // Sessions whose uncommitted work keeps the server's statements waiting: its schema, then its migrations table.
    const schemaHolder = await PostgresAdmin.connect(postgresUrl);
    const tableHolder = await PostgresAdmin.connect(postgresUrl);
    let startupLockHeld = false;
    let server: ServerProcess | undefined;
    try {
      await schemaHolder.query('BEGIN');
      await schemaHolder.query(`CREATE SCHEMA "${schema}"`);
      const starting = startServerProcess({ databaseUrl: postgresUrl }, { databaseSchema: schema });
      starting.catch(() => {}); // awaited below; an early exit is reported through failureToStart
      const failed = failureToStart(starting);
      const waitingOn = (name: string, seen: Set<number>) => Promise.race([admin.waitingForLock(name, DEADLINE_MS, seen), failed]);
      const seen = new Set<number>();
      // 1. Creating the schema waits for the holder's uncommitted one.
      for (let round = 1; round <= ROUNDS; round += 1) {
        seen.add((await waitingOn(names.schema, seen)).pid);
        terminated.schema += await admin.terminate(names.schema);
      }
      // 2. The start-up lock (database-wide: held only for these rounds, other instances wait meanwhile).
      await admin.lock(STARTUP_LOCK_KEY);
      startupLockHeld = true;
      await schemaHolder.query('COMMIT');
      await tableHolder.query('BEGIN');
      await tableHolder.query(`CREATE TABLE "${schema}".kysely_migration (name varchar(255) PRIMARY KEY, timestamp varchar(255) NOT NULL)`);
      for (let round = 1; round <= ROUNDS; round += 1) {
        seen.add((await waitingOn(names.lock, seen)).pid);
        terminated.lockWaiting += await admin.terminate(names.lock);
      }
      await admin.unlock(STARTUP_LOCK_KEY);
      startupLockHeld = false;
      // 3. Migrating: creating Kysely's table waits for the holder's uncommitted one (the server holds the lock).
      for (let round = 1; round <= ROUNDS; round += 1) {
        seen.add((await waitingOn(names.migrations, seen)).pid);
        terminated.migrations += await admin.terminate(names.migrations);
      }
      // Last, the start-up lock's connection while it holds the lock: start-up goes on without it.
      await waitingOn(names.migrations, seen);
      terminated.lockHeld += await admin.terminate(names.lock);
      await tableHolder.query('ROLLBACK');
      server = await starting;
      console.info(`start-up connections terminated: ${JSON.stringify(terminated)} (${ROUNDS} rounds each while waiting)`);
      expect(terminated).toEqual({ schema: ROUNDS, lockWaiting: ROUNDS, migrations: ROUNDS, lockHeld: 1 });
      const workload = new ContextWorkload(server, 0);
      for (let request = 0; request < 5; request += 1) await workload.once();
      expect(server.alive(), server.stderr()).toBe(true);
      // Those connections are held during start-up only.
      for (const name of Object.values(names)) expect(await admin.backends(name), name).toEqual([]);
    } finally {
      if (startupLockHeld) await admin.unlock(STARTUP_LOCK_KEY);
      await Promise.all([admin, schemaHolder, tableHolder].map((session) => session.end()));
      await server?.kill();
      await dropSchema(schema);
    }
  }, 180_000);
});
