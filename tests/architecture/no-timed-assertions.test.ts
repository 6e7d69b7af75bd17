import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findTimedAssertions } from './support/timed-assertions.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Files under `folder` (relative to the root, `/`-separated), skipping installed packages, builds and fixtures. */
function filesUnder(folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry: Dirent) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return ['node_modules', 'dist', 'fixtures'].includes(entry.name) ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Every test file and test helper: vitest's (packages, examples, tests) and Playwright's (e2e). */
function testSources(): string[] {
  const inFolder = (folder: string, keep: (path: string) => boolean) => filesUnder(folder).filter(keep);
  const packages = readdirSync(join(root, 'packages')).flatMap((name) => [
    ...inFolder(`packages/${name}/src`, (path) => /\.test\.tsx?$/.test(path)),
    ...inFolder(`packages/${name}/tests`, (path) => /\.tsx?$/.test(path)),
  ]);
  return [
    ...packages,
    ...inFolder('examples', (path) => /\.test\.tsx?$/.test(path)),
    ...inFolder('tests', (path) => /\.tsx?$/.test(path)),
    ...inFolder('e2e', (path) => /\.tsx?$/.test(path)),
  ].sort();
}

describe('no test asserts a wall-clock figure (tests assert behaviour; figures belong in `pnpm bench`)', () => {
  it('finds test files to scan', () => {
    const files = testSources();
    expect(files).toEqual(
      expect.arrayContaining([
        'packages/sdk-core/tests/agent/turn-taking-corpus.test.ts',
        'e2e/media/reconnect.spec.ts',
        'tests/architecture/no-timed-assertions.test.ts',
      ]),
    );
  });

  it('no test file compares an elapsed time, a latency or a duration with a limit', () => {
    const found = testSources().flatMap((file) => findTimedAssertions(readFileSync(join(root, file), 'utf8'), relative(root, join(root, file))));
    const report = found.map((hit) => `${hit.file}:${hit.line}  ${hit.text}  (${hit.reason})`);
    expect(
      report,
      'Timed assertions fail under load. Assert what happened and in which order (fake timers or an injected clock where the code takes one); measure the figure in bench/.',
    ).toEqual([]);
  });
});

describe('the scanner', () => {
  const lines = (source: string) => findTimedAssertions(source, 'planted.test.ts').map((hit) => hit.line);

  it('finds a clock read minus an earlier one compared with a limit, with its file and line', () => {
    const planted = ['const started = performance.now();', 'await work();', 'expect(performance.now() - started).toBeLessThan(500);'].join('\n');
    expect(findTimedAssertions(planted, 'planted.test.ts')).toEqual([
      {
        file: 'planted.test.ts',
        line: 3,
        text: 'expect(performance.now() - started).toBeLessThan(500)',
        reason: 'a clock read minus an earlier one against 500',
      },
    ]);
    expect(lines('const before = Date.now();\nrun();\nexpect(Date.now() - before).toBeGreaterThanOrEqual(25);')).toEqual([3]);
  });

  it('follows measured values through variables, helpers and names', () => {
    const planted = `
      async function call(url: string) {
        const started = performance.now();
        const response = await fetch(url);
        return { status: response.status, ms: performance.now() - started };
      }
      it('answers quickly', async () => {
        const answer = await call('/health');
        expect(answer.ms).toBeLessThan(2000);
        const t0 = performance.now();
        await answer;
        const elapsed = performance.now() - t0;
        const seconds = elapsed / 1000;
        expect(seconds).toBeLessThan(50);
        expect(median(latencies)).toBeLessThan(550);
        expect(summary.endToEndMedianMs).toBeLessThan(2000);
        expect(turn.endOfSpeechDecisionMs!).toBeGreaterThanOrEqual(reading.waitMs - 1);
      });`;
    expect(lines(planted)).toEqual([9, 14, 15, 16, 17]);
  });

  it('finds the time between two instants, in the subject, in the limit, or compared inside the subject', () => {
    const planted = `
      expect(seen.abortedAt! - seen.receivedAt).toBeLessThan(30 * 20);
      expect(events[6]!.at - events[1]!.at).toBeGreaterThan(100);
      const { session, at } = await waitUntilEnded(server, id);
      expect(at - killedAt).toBeLessThan(HOST_LOSS_BOUND_MS);
      const finished = seen.finishedAt! - sentAt;
      expect(firstText.at).toBeLessThan(finished - 200);
      expect(heardAt - sentAt < 2000).toBe(true);
      expect(
        Date.parse(b.ended_at) - Date.parse(a.started_at),
      ).toBeLessThanOrEqual(1_000);`;
    expect(lines(planted)).toEqual([2, 3, 5, 7, 8, 9]);
  });

  it('leaves orders of instants, figures that are not measured, sanity checks against 0, deadlines, strings and comments alone', () => {
    const fine = `
      const sentAt = performance.now();
      expect(played.receivedAt).toBeLessThan(firstAudio.at);
      expect(lastLoud.at).toBeLessThan(speechEndedAt);
      expect(Date.parse(versions.at(-1)!.speaking_ended_at!)).toBeGreaterThanOrEqual(Date.parse(versions.at(-1)!.created_at));
      expect(turnEndWait(settings, 'i would like to').waitMs).toBeGreaterThan(1000);
      expect(queue.queuedMs).toBeGreaterThan(1900);
      expect(events[0]!.at).toBeGreaterThan(0.85);
      expect(Math.abs(end.at - (1 + speechSeconds))).toBeLessThan(0.04);
      const before = Date.now();
      expect(Date.parse(body.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(voice.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
      const took = performance.now() - sentAt;
      expect(took).toBeGreaterThan(0);
      expect(human.remainingSeconds.at(-1)).toBeLessThanOrEqual(30);
      const createdFrom = Date.now();
      const livedAtMost = (Date.now() - createdFrom) / 1000;
      expect(charged[0]!.value).toBeLessThanOrEqual(livedAtMost);
      expect(consumed).toBeCloseTo((lifetime.endedAt - lifetime.startedAt) / 1000, 3);
      await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(1), 30_000);
      const code = \`expect(performance.now() - started).toBeLessThan(500)\`;
      // expect(performance.now() - started).toBeLessThan(500);
      /* expect(elapsed).toBeLessThan(1500); */
      expect(text).toMatch(/expect\\(elapsed\\)\\.toBeLessThan\\(1\\)/);`;
    expect(findTimedAssertions(fine, 'fine.test.ts')).toEqual([]);
  });
});
