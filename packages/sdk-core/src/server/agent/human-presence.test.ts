import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HumanPresence } from './human-presence.js';

describe('HumanPresence (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says the human is gone when the join timeout passes without a join, not a moment before', () => {
    const gone: string[] = [];
    const presence = new HumanPresence({ joinTimeoutMs: 800, leftGraceMs: 500 }, (detail) => gone.push(detail));
    presence.expectJoin();
    vi.advanceTimersByTime(799);
    expect(gone).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(gone).toEqual(['the human did not join within 0.8 s']);
    vi.advanceTimersByTime(10_000);
    expect(gone).toHaveLength(1);
  });

  it('a join within the timeout keeps the session; leaving starts the grace, and coming back within it clears it', () => {
    const gone: string[] = [];
    const presence = new HumanPresence({ joinTimeoutMs: 800, leftGraceMs: 500 }, (detail) => gone.push(detail));
    presence.expectJoin();
    vi.advanceTimersByTime(400);
    presence.joined();
    vi.advanceTimersByTime(10_000);
    expect(gone).toEqual([]);
    presence.left();
    vi.advanceTimersByTime(499);
    presence.joined();
    vi.advanceTimersByTime(10_000);
    expect(gone).toEqual([]);
    presence.left();
    vi.advanceTimersByTime(500);
    expect(gone).toEqual(['the human left the room and did not come back']);
  });

  it('a phone caller who hung up is gone at once (no grace)', () => {
    const gone: string[] = [];
    const presence = new HumanPresence({ joinTimeoutMs: 800, leftGraceMs: 30_000 }, (detail) => gone.push(detail));
    presence.joined();
    presence.left(true);
    vi.advanceTimersByTime(0);
    expect(gone).toEqual(['the caller hung up']);
  });

  it('stopped, it never reports', () => {
    const gone: string[] = [];
    const presence = new HumanPresence({ joinTimeoutMs: 800, leftGraceMs: 500 }, (detail) => gone.push(detail));
    presence.expectJoin();
    presence.stop();
    presence.left();
    vi.advanceTimersByTime(10_000);
    expect(gone).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
