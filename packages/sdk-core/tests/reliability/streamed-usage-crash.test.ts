import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { MAX_COMPLETION_TOKENS } from '../../src/contract/chat.js';
import { UsageLimitService } from '../../src/server/domain/usage/usage-limits.js';
import { estimatePromptTokens } from '../../src/server/engines/llm/token-count.js';
import { openStore, type Store } from '../../src/server/store/database.js';
import { createServer } from '../../src/server.js';
import { startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { dropSchema, postgresUrl, storeKinds, uniqueSchema } from '../support/databases.js';
import { startServerProcess } from '../support/server-process.js';
import { startTestServer } from '../support/test-server.js';

const HUMAN = 'streaming-human';
const messages = [{ role: 'user' as const, content: 'Tell me a very long story.' }];
/** An answer of 400 words, 25 ms apart: still streaming long after the kill. */
const LONG_ANSWER = { kind: 'stream' as const, chunks: textChunks(Array.from({ length: 400 }, (_, index) => ` word${index}`)), delayMs: 25 };

describe.each(await storeKinds())('a server killed (kill -9) in the middle of a streamed answer (%s)', (kind) => {
  let upstream: FakeOpenAiUpstream;
  let folder: string;
  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    upstream.answerByDefault(LONG_ANSWER);
    folder = mkdtempSync(join(tmpdir(), 'palaver-streamed-usage-'));
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("the tokens streamed before the kill are recorded for the human, and the dead instance's reservation is released once its lease expired", async () => {
    const schema = kind === 'postgres' ? uniqueSchema() : undefined;
    const storage = kind === 'postgres' ? { databaseUrl: postgresUrl } : { database: join(folder, 'palaver.db') };
    // Short leases: an instance that stops renewing is found out within a few seconds.
    const config = { ...storage, apiKey: 'pk_streamed_usage_key_0123456789ab', realtime: { leaseSeconds: 1 } };
    // The test's own view of the database (it reaps nothing): the human's limit, then what the instances left.
    const observer: Store = await openStore(kind === 'postgres' ? { url: postgresUrl, schema: schema! } : { file: storage.database! });
    const child = await startServerProcess(config, schema ? { databaseSchema: schema } : {});
    let survivor: Awaited<ReturnType<typeof createServer>> | undefined;
    try {
      // A limit makes the gateway hold a reservation for the stream.
      await new UsageLimitService(observer).set('project_dev', HUMAN, [{ type: 'token_cnt', value: 1_000_000 }]);
      const client = createClient({ baseUrl: child.url, apiKey: child.apiKey, maxRetries: 0 });
      const llm = (await client.llms.create({ name: 'long', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;

      const response = await fetch(`${child.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': child.apiKey, 'x-human-id': HUMAN },
        body: JSON.stringify({ model: llm, stream: true, messages }),
      });
      expect(response.status).toBe(200);
      // Read until 100 words arrived: the upstream takes at least 2.5 s to send them, long enough for the answer's
      // progress to be recorded (every second) before the kill.
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      while ((received.match(/word\d+/g) ?? []).length < 100) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended early: ${received}`);
        received += value;
      }
      await child.kill('SIGKILL');
      await reader.cancel().catch(() => undefined);

      // The dead instance left its reservation behind, owned by it, with the tokens streamed so far noted on it.
      const left = await observer.db.selectFrom('usage_reservations').selectAll().where('human', '=', HUMAN).execute();
      expect(left).toEqual([
        expect.objectContaining({ instance: expect.stringMatching(/^instance_/), amount: estimatePromptTokens(messages) + MAX_COMPLETION_TOKENS }),
      ]);
      const streamed = Number(left[0]!.used);
      // More than the prompt: completion tokens too.
      expect(streamed).toBeGreaterThan(estimatePromptTokens(messages));

      // Another instance on the same database notices the dead instance's lease expired, records what streamed for
      // the human and releases the reservation.
      survivor = await createServer({
        env: {},
        config: { ...config, logLevel: 'silent', webhook: { dispatch: false } },
        ...(schema ? { databaseSchema: schema } : {}),
      });
      await expect
        .poll(() => observer.db.selectFrom('usage_reservations').select('id').where('human', '=', HUMAN).execute(), { timeout: 30_000, interval: 200 })
        .toEqual([]);
      const records = await observer.db.selectFrom('usage_records').select(['value', 'metadata', 'type']).where('human', '=', HUMAN).execute();
      expect(records.map((record) => ({ type: record.type, value: Number(record.value), metadata: JSON.parse(record.metadata) as unknown }))).toEqual([
        { type: 'token_cnt', value: streamed, metadata: expect.objectContaining({ model: llm, stream: true, outcome: 'host_lost' }) },
      ]);
      // The human's consumption is what streamed, nothing held any more.
      expect(await survivor.services.usage.consumption(survivor.services.store.db, survivor.project, HUMAN, 'token_cnt')).toEqual({
        used: streamed,
        reserved: 0,
      });
    } finally {
      await child.kill('SIGKILL');
      await survivor?.close();
      await observer.close();
      if (schema) await dropSchema(schema);
    }
  }, 90_000);
});

describe('a long streamed answer that completes', () => {
  it('notes its tokens on the reservation as it streams, then records exactly what the upstream reported, once; the reservation is gone', async () => {
    const upstream = await startFakeOpenAiUpstream();
    // 80 words 25 ms apart: at least 2 s, so progress is recorded along the way.
    const usage = { prompt_tokens: 17, completion_tokens: 80, total_tokens: 97 };
    upstream.answerByDefault({ kind: 'stream', chunks: textChunks(Array.from({ length: 80 }, (_, index) => ` word${index}`)), delayMs: 25, usage });
    const test = await startTestServer('sqlite');
    try {
      const { services, project } = test.server;
      await services.usageLimits.set(project, HUMAN, [{ type: 'token_cnt', value: 1_000_000 }]);
      const url = await test.server.listen(0, '127.0.0.1');
      const llm = (await test.client.llms.create({ name: 'long', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, 'x-human-id': HUMAN },
        body: JSON.stringify({ model: llm, stream: true, stream_options: { include_usage: true }, messages }),
      });
      // Halfway, the tokens streamed so far are noted on the reservation (nothing recorded yet).
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      while ((received.match(/word\d+/g) ?? []).length < 60) {
        const { value, done } = await reader.read();
        if (done) break;
        received += value;
      }
      const noted = await services.store.db.selectFrom('usage_reservations').select(['used']).where('human', '=', HUMAN).execute();
      expect(noted).toEqual([{ used: expect.any(Number) }]);
      expect(noted[0]!.used).toBeGreaterThan(0);
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        received += value;
      }
      expect(received).toContain('data: [DONE]');
      // One record, of exactly what the upstream reported; the reservation is gone.
      await expect
        .poll(() => services.store.db.selectFrom('usage_reservations').select('id').where('human', '=', HUMAN).execute(), { timeout: 10_000 })
        .toEqual([]);
      const records = await services.store.db.selectFrom('usage_records').select(['value', 'metadata']).where('human', '=', HUMAN).execute();
      expect(records.map((record) => ({ value: Number(record.value), outcome: (JSON.parse(record.metadata) as { outcome: string }).outcome }))).toEqual([
        { value: usage.total_tokens, outcome: 'completed' },
      ]);
      expect(await services.usage.consumption(services.store.db, project, HUMAN, 'token_cnt')).toEqual({ used: usage.total_tokens, reserved: 0 });
    } finally {
      await test.close();
      await upstream.close();
    }
  }, 60_000);
});
