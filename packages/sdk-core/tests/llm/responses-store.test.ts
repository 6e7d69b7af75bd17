import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseObject } from '../../src/contract/responses-object.js';
import { normalizeInput } from '../../src/server/domain/responses/input-items.js';
import { ResponseRepository } from '../../src/server/domain/responses/response-repository.js';
import type { Principal } from '../../src/server/kernel/principal.js';
import type { Store } from '../../src/server/store/database.js';
import { storeKinds } from '../support/databases.js';
import { openTestStore } from '../support/open-store.js';

const DAY_MS = 86_400_000;

function response(id: string, previous: string | null, text: string, createdAt: number): ResponseObject {
  return {
    id,
    object: 'response',
    created_at: Math.floor(createdAt / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: 'builtin-offline',
    output: [{ type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
    parallel_tool_calls: true,
    previous_response_id: previous,
    temperature: null,
    top_p: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    truncation: 'disabled',
    store: true,
    usage: null,
    metadata: {},
    user: null,
  };
}

/** The stored responses' retention and conversation chains, on SQLite and PostgreSQL. */
describe.each(await storeKinds())('stored responses (%s)', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let now = Date.parse('2026-01-01T00:00:00Z');
  const alice: Principal = { project: 'project_dev', kind: 'key', human: 'alice', credentialId: 'key_1' };

  beforeAll(async () => {
    ({ store, close } = await openTestStore(kind));
  });
  afterAll(async () => close?.());

  it('follows previous_response_id oldest first, and forgets responses once their retention ended (the chain continues from what is left)', async () => {
    const repository = new ResponseRepository(store, { retentionDays: 30, now: () => now });
    await repository.save(alice, response('resp_a', null, 'first answer', now), normalizeInput('first question'));
    now += 10 * DAY_MS;
    await repository.save(alice, response('resp_b', 'resp_a', 'second answer', now), normalizeInput('second question'));
    const chain = await repository.conversation(alice, 'resp_b');
    expect(chain?.map((turn) => turn.output[0]?.type === 'message' && turn.output[0].content[0])).toEqual([
      { type: 'output_text', text: 'first answer', annotations: [] },
      { type: 'output_text', text: 'second answer', annotations: [] },
    ]);
    expect(chain?.[0]!.input[0]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first question' }] });

    await repository.save(alice, response('resp_c', 'resp_b', 'third answer', now), normalizeInput('third question'));
    const three = await repository.conversation(alice, 'resp_c');
    expect(three?.map((turn) => turn.input.length === 1 && turn.input[0]!.type === 'message' && turn.input[0]!.content[0])).toEqual(
      ['first question', 'second question', 'third question'].map((text) => ({ type: 'input_text', text })),
    );
    expect(await repository.conversation({ ...alice, human: 'bob' }, 'resp_c')).toBeUndefined();
    expect(await repository.conversation({ ...alice, human: null }, 'resp_c')).toBeUndefined();
    await repository.delete(alice, 'resp_c');

    now += 25 * DAY_MS; // resp_a is 35 days old, resp_b 25
    await expect(repository.find(alice, 'resp_a')).rejects.toMatchObject({ status: 404 });
    expect((await repository.conversation(alice, 'resp_b'))?.length).toBe(1);
    expect(await repository.sweep()).toBe(1);
    const left = await store.db.selectFrom('response_items').select('response_id').execute();
    expect(left.map((row) => row.response_id)).toEqual(['resp_b']);
    now += 10 * DAY_MS;
    expect(await repository.conversation(alice, 'resp_b')).toBeUndefined();
    expect(await repository.sweep()).toBe(1);
  });
});
