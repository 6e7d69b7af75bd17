/**
 * Media plane benchmark (embedded LiveKit-compatible endpoint, unmodified livekit-client in Debian's
 * headless Chromium on the same machine):
 *  - connect() -> Connected, median and p95, single PC (/rtc/v1) and dual PC (/rtc);
 *  - server CPU and RSS with 1 / 5 / 10 concurrent sessions, audio both ways (the agent decodes the
 *    client's microphone and sends a paced Opus tone; the clients are @livekit/rtc-node humans in a
 *    child process, so a browser does not compete for the cores being measured).
 * Targets from the issue: median connect under 500 ms; at least 10 two-way audio sessions per core.
 * Skips with a printed reason when /usr/bin/chromium is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, chromiumArguments } from '../e2e/media/support/chromium.js';
import { serveTestPage } from '../e2e/media/support/test-page.js';
import { createServer } from '@palaver/sdk-core/server';
import { sineTone, wavFile, nextAudioTrack, playTone, type AgentRoomConnection } from '@palaver/sdk-core/testing';
import { fixed, median, percentile } from './statistics.js';

const CONNECTS = Number(process.env.MEDIA_BENCH_CONNECTS ?? 12);
const SESSION_COUNTS = (process.env.MEDIA_BENCH_SESSIONS ?? '1,5,10').split(',').map(Number);
const MEASURE_MS = 8000;

if (!existsSync(CHROMIUM)) {
  console.log(`[skip] media-connect: Chromium unavailable (${CHROMIUM} not found)`);
  process.exit(0);
}

const directory = mkdtempSync(join(tmpdir(), 'palaver-bench-'));
const wav = join(directory, 'tone.wav');
writeFileSync(wav, wavFile(sineTone(440, 48_000, 10_000, 0.5), 48_000));

const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
await server.listen(0, '127.0.0.1');
const media = server.services.media;
const testPage = await serveTestPage();
const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArguments(wav) });

let roomCounter = 0;
/** Audio frames the agents sent and decoded (proves audio really flows both ways while measuring). */
const counters = { sent: 0, decoded: 0 };
async function openSession(singlePeerConnection: boolean): Promise<{ connectMs: number; stop: () => Promise<void> }> {
  const room = `bench_${roomCounter++}`;
  await media.transport.ensureRoom({ room });
  const agent = await media.transport.join({ room });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(testPage.url);
  await page.waitForFunction(() => 'palaver' in window);
  const token = await media.createJoinToken({ room, identity: `human_${room}` });
  const joined = await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
    media.clientUrl(),
    token,
    singlePeerConnection,
  ] as const);
  return {
    connectMs: joined.connectMs,
    stop: async () => {
      await page.evaluate(() => window.palaver.disconnect()).catch(() => undefined);
      await context.close();
      await agent.leave();
      await media.transport.deleteRoom(room);
    },
  };
}

console.log('connect() -> Connected (livekit-client 2.23 in Chromium, loopback, same 2 cores)');
for (const singlePeerConnection of [true, false]) {
  const times: number[] = [];
  for (let index = 0; index < CONNECTS; index += 1) {
    const session = await openSession(singlePeerConnection);
    times.push(session.connectMs);
    await session.stop();
  }
  const [first, ...warm] = times;
  console.log(
    `  ${singlePeerConnection ? 'single PC /rtc/v1' : 'dual PC   /rtc   '}: median ${fixed(median(warm), 0)} ms, p95 ${fixed(percentile(warm, 95), 0)} ms, ` +
      `min ${fixed(Math.min(...warm), 0)} ms, first ${fixed(first!, 0)} ms (n=${times.length}) ${median(warm) < 500 ? 'OK (< 500 ms target)' : 'ABOVE the 500 ms target'}`,
  );
}

function sampleServer(durationMs: number): Promise<{ cpuPercent: number; rssMb: number }> {
  const startCpu = process.cpuUsage();
  const started = performance.now();
  return new Promise((resolve) =>
    setTimeout(() => {
      const cpu = process.cpuUsage(startCpu);
      const wall = performance.now() - started;
      resolve({ cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100, rssMb: process.memoryUsage().rss / 1024 / 1024 });
    }, durationMs),
  );
}

/** Starts N rtc-node humans in a child process (so their WebRTC stack does not count as server CPU). */
async function loadClients(rooms: string[]): Promise<{ stop(): Promise<number> }> {
  const tokens = await Promise.all(rooms.map((room) => media.createJoinToken({ room, identity: `load_${room}` })));
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./media-load-client.ts', import.meta.url))], {
    env: { ...process.env, MEDIA_LOAD_URL: media.clientUrl(), MEDIA_LOAD_TOKENS: JSON.stringify(tokens) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('load clients did not connect in 60 s')), 60_000);
    const check = setInterval(() => {
      if (!output.includes('ready')) return;
      clearInterval(check);
      clearTimeout(timer);
      resolve();
    }, 50);
    child.once('exit', (code) => reject(new Error(`load clients exited with ${code}`)));
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve(Number(/frames (\d+)/.exec(output)?.[1] ?? 0)));
        child.kill('SIGTERM');
      }),
  };
}

console.log('\nserver process with N two-way audio sessions (clients: @livekit/rtc-node in another process;');
console.log('each agent decodes the client microphone and sends a paced Opus tone)');
const idle = await sampleServer(3000);
console.log(`  idle: CPU ${fixed(idle.cpuPercent)} % of one core, RSS ${fixed(idle.rssMb, 0)} MB`);
for (const count of SESSION_COUNTS) {
  const rooms = Array.from({ length: count }, () => `load_${roomCounter++}`);
  const agents: AgentRoomConnection[] = [];
  const abort = new AbortController();
  const work: Array<Promise<unknown>> = [];
  for (const room of rooms) {
    await media.transport.ensureRoom({ room });
    const agent = await media.transport.join({ room });
    agents.push(agent);
    const output = await agent.publishAudio();
    work.push(
      playTone({ write: (frame) => ((counters.sent += 1), output.write(frame)) }, 1000, 600_000, abort.signal),
      nextAudioTrack(agent, `load_${room}`, 60_000).then(async (track) => {
        for await (const _frame of track.frames()) {
          counters.decoded += 1;
          if (abort.signal.aborted) break;
        }
      }),
    );
  }
  const clients = await loadClients(rooms);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = { ...counters };
  const busy = await sampleServer(MEASURE_MS);
  const seconds = MEASURE_MS / 1000;
  const sentPerSession = (counters.sent - before.sent) / seconds / count;
  const decodedPerSession = (counters.decoded - before.decoded) / seconds / count;
  const perSession = (busy.cpuPercent - idle.cpuPercent) / count;
  const realtime = sentPerSession >= 45 && decodedPerSession >= 45;
  console.log(
    `  ${String(count).padStart(2)} sessions: CPU ${fixed(busy.cpuPercent)} % of one core (${fixed(perSession, 2)} % per session -> ~${fixed(100 / Math.max(perSession, 0.01), 0)} sessions per core), ` +
      `RSS ${fixed(busy.rssMb, 0)} MB (+${fixed((busy.rssMb - idle.rssMb) / count, 1)} MB per session); per session ${fixed(sentPerSession, 0)} frames/s sent, ` +
      `${fixed(decodedPerSession, 0)} decoded${realtime ? '' : ' - NOT REAL TIME (machine saturated), figure not valid'}`,
  );
  abort.abort();
  const heard = await clients.stop();
  console.log(`      clients received ${heard} agent frames in total`);
  for (const agent of agents) await agent.leave();
  for (const room of rooms) await media.transport.deleteRoom(room);
  await Promise.race([Promise.all(work), new Promise((resolve) => setTimeout(resolve, 1000))]);
}

await browser.close();
await testPage.close();
await server.close();
rmSync(directory, { recursive: true, force: true });
process.exit(0);
