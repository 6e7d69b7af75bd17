import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SipEndpoint, speechPrompts } from '../../src/server/engines/telephony/index.js';
import { PIN_PROMPTS } from '../../src/server/engines/telephony/inbound/pin-prompts.js';
import { createLogger } from '../../src/server/kernel/logger.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDirectory } from './support/test-directory.js';

/**
 * The PIN prompts are synthesised when the SIP endpoint starts (in the platform's offline voice), so the first caller
 * asked for a PIN hears the prompt at once; a prompt that cannot be synthesised does not stop the endpoint.
 */
describe('SIP endpoint prompt warm-up', () => {
  let test: TestServer;
  const endpoints: SipEndpoint[] = [];

  beforeAll(async () => {
    test = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
    await test?.close();
  });

  const start = async (prompts: ConstructorParameters<typeof SipEndpoint>[0]['prompts'], logger = createLogger('silent')) => {
    const endpoint = new SipEndpoint({
      host: '127.0.0.1',
      port: 0,
      directory: testDirectory(),
      transport: test.server.services.media.transport,
      logger,
      prompts,
    });
    endpoints.push(endpoint);
    await endpoint.start();
    return endpoint;
  };

  it('every PIN prompt is synthesised and kept once the endpoint started, before any call', async () => {
    const prompts = speechPrompts(test.server.services.speech.tts);
    await start(prompts);
    await eventually(() => expect(Object.values(PIN_PROMPTS).filter((text) => !prompts.ready(text))).toEqual([]), 30_000);
    const first = await prompts(PIN_PROMPTS.enter);
    expect(first.length).toBeGreaterThan(0);
    // Kept: the same audio, not a second synthesis.
    expect(await prompts(PIN_PROMPTS.enter)).toBe(first);
  }, 60_000);

  it('a prompt that cannot be synthesised is logged and the endpoint runs on', async () => {
    const warnings: string[] = [];
    const logger = Object.assign(createLogger('silent'), { warn: (_: unknown, message: string) => void warnings.push(message) });
    const endpoint = await start(() => Promise.reject(new Error('no voice')), logger);
    expect(endpoint.port).toBeGreaterThan(0);
    await eventually(() => expect(warnings).toHaveLength(Object.values(PIN_PROMPTS).length));
    expect(warnings[0]).toMatch(/could not be synthesised/);
  });
});
