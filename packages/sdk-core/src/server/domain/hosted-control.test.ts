import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../engines/bus/index.js';
import { HostUnavailableError, HostedControl } from './hosted-control.js';

type Command = { command: 'say'; text: string };

/** A control over string handles: executing `say` answers what the handle heard. */
function controlOn(bus: InProcessBus, replyTimeoutMs = 10_000) {
  return new HostedControl<string[], Command, string>(
    bus,
    pino({ level: 'silent' }),
    { channel: 'test.thing', describe: (id) => `thing '${id}'`, execute: async (handle, command) => (handle.push(command.text), `heard ${command.text}`) },
    { replyTimeoutMs },
  );
}

/** Settles `promise` into what it resolved or rejected with, without waiting on the clock. */
const outcome = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('HostedControl (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a command for a resource no instance hosts fails at once: no reply is waited for (its instance stopped)', async () => {
    const control = controlOn(new InProcessBus());
    // Settled without the (fake) clock moving: had it waited for a reply, it would wait here for ever.
    const result = await outcome(control.send('gone', { command: 'say', text: 'hello' }));
    expect(vi.getTimerCount()).toBe(0);
    expect(result).toMatchObject({ error: expect.any(HostUnavailableError) });
    expect((result as { error: Error }).error.message).toBe("no server instance hosts thing 'gone' (its instance stopped)");
  });

  it('a command for a resource hosted elsewhere is carried out there and answered', async () => {
    const bus = new InProcessBus();
    const host = controlOn(bus);
    const heard: string[] = [];
    await host.host('here', heard, 'project_a');
    const result = await controlOn(bus).send('here', { command: 'say', text: 'hello' });
    expect(result).toBe('heard hello');
    expect(heard).toEqual(['hello']);
  });

  it('a host that receives the command but never answers: the sender gives up after replyTimeoutMs of its clock, not before', async () => {
    const bus = new InProcessBus();
    // Something subscribes to the resource's channel, but nothing answers.
    await bus.subscribe('test.thing.stuck', () => undefined);
    let settled: { value?: string; error?: unknown } | undefined;
    void outcome(controlOn(bus, 5000).send('stuck', { command: 'say', text: 'hello' })).then((result) => (settled = result));
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toMatchObject({ error: expect.any(HostUnavailableError) });
    expect((settled!.error as Error).message).toMatch(/did not answer within 5000 ms/);
  });
});
