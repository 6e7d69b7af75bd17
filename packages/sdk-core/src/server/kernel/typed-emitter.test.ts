import { describe, expect, it, vi } from 'vitest';
import { logListenerError, TypedEmitter } from './typed-emitter.js';

describe('TypedEmitter', () => {
  it('reports a throwing listener to its owner (logged) and still delivers to the others, then and later', () => {
    const logger = { error: vi.fn() };
    const events = new TypedEmitter<{ data: [number] }>(logListenerError(logger, 'test connection'));
    const received: number[] = [];
    events.on('data', () => {
      throw new Error('bad consumer');
    });
    events.on('data', (value) => received.push(value));
    expect(() => events.emit('data', 1)).not.toThrow();
    events.emit('data', 2);
    expect(received).toEqual([1, 2]);
    expect(logger.error).toHaveBeenCalledTimes(2);
    const [fields, message] = logger.error.mock.calls[0]!;
    expect(fields).toMatchObject({ event: 'data', err: expect.objectContaining({ message: 'bad consumer' }) });
    expect(message).toBe("test connection: a listener of 'data' failed");
  });

  it('unsubscribes with the function on returns', () => {
    const events = new TypedEmitter<{ tick: [] }>(() => undefined);
    let ticks = 0;
    const off = events.on('tick', () => ticks++);
    events.emit('tick');
    off();
    events.emit('tick');
    expect(ticks).toBe(1);
  });
});
