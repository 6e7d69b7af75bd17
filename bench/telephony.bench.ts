/**
 * Phone calls through the platform's SIP endpoint (issue 32), with Debian's SIP tools as the phones. Three figures,
 * each beside a baseline measured in the same run:
 * 1. Call setup: INVITE -> 200 OK at the caller (a dispatch rule without an agent: trunk, rule, room join, RTP port,
 *    SDP), p50/p90 of sequential calls; baseline: OPTIONS -> 200 OK on the same socket (the SIP round trip alone).
 * 2. Voice to voice at the caller: baresip plays Flite sentences into a call answered by the built-in agent (offline
 *    models) and records what it hears; end of the caller's speech -> the first audible agent audio in that
 *    recording (baresip's own jitter buffer included; target < 450 ms); baseline: the same sentences said by a room
 *    human on the embedded transport (no phone leg).
 * 3. CPU per concurrent call, media only: SIPp holds N calls (default 50) with RTP streaming both ways for a while
 *    (default 60 s), each call bridged into a room with nobody else; the server process's CPU over the hold, minus
 *    the same process idle for as long, per call, as calls per core (target >= 30). Nothing may be lost: every SIPp
 *    call must succeed and every call's RTP must have arrived (packets counted by the endpoint).
 *
 * 4. Only with TELEPHONY_ONLY=turns (minutes of real-time audio): the phone caller's turn detection tuned on the
 *    turn corpus through G.711 and reported on held-out voices (`phone-turn-tuning.ts`).
 * 5. Only with TELEPHONY_ONLY=recognition (tens of minutes of decoding): word error and confidences of the room
 *    decoder and the phone caller's adapted one (decision 0124) on phone and room audio (`phone-recognition.ts`).
 *
 * Run: `pnpm bench telephony`; TELEPHONY_TURNS (5), TELEPHONY_CALLS (50), TELEPHONY_HOLD_S (60), TELEPHONY_ONLY
 * (setup, voice, cpu, turns, recognition: the parts to run). Needs sipp and baresip (sip-tester, baresip), sox, and pocketsphinx.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SipClient } from 'livekit-server-sdk';
import {
  AUDIBLE_RMS,
  HumanParticipant,
  RecordedEvents,
  agentHostFor,
  createTestPlatform,
  fliteSpeech,
  resampleLinear,
  rms,
  sessionSpec,
  wavFile,
} from '@palaver/sdk-core/testing';
import { phoneRecognition } from './phone-recognition.js';
import { phoneTurnTaking } from './phone-turn-tuning.js';
import { fixed, median, percentile } from './statistics.js';

const SENTENCES = [
  'Please call me tomorrow morning.',
  'I would like to book a table for two.',
  'What time does the train leave?',
  'My favourite colour is blue.',
  'Where is the nearest pharmacy?',
].slice(0, Number(process.env.TELEPHONY_TURNS ?? 5));
const CALLS = Number(process.env.TELEPHONY_CALLS ?? 50);
const HOLD_S = Number(process.env.TELEPHONY_HOLD_S ?? 60);
const only = (process.env.TELEPHONY_ONLY ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean);
const wanted = (name: string) => only.length === 0 || only.includes(name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SLOT_S = 14;

function installed(binary: string): boolean {
  try {
    execFileSync('which', [binary], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
for (const binary of ['sipp', 'baresip', 'sox']) {
  if (!installed(binary)) {
    console.log(`[skip] telephony bench: ${binary} is not installed (apt-get install -y sip-tester baresip sox)`);
    process.exit(0);
  }
}

// The media keys are the bench's own, so SipClient can sign its requests.
const keys = { apiKey: 'bench-telephony', apiSecret: 'bench-telephony-secret-0123456789abcdef' };
const test = await createTestPlatform({ config: { livekit: keys, sip: { port: 0, maxCalls: CALLS + 20, invitesPerSecond: CALLS * 2 } } });
const url = await test.server.listen(0, '127.0.0.1');
const telephony = test.server.services.telephony!;
const sip = new SipClient(url, keys.apiKey, keys.apiSecret);
const work = mkdtempSync(join(tmpdir(), 'telephony-bench-'));
console.log(`SIP endpoint on 127.0.0.1:${telephony.port}; figures on a shared, loaded 2-core machine`);

/** Minimal raw SIP over UDP: a request, its final answer. */
async function roundTrip(text: (port: number) => string): Promise<{ ms: number; response: string }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  const started = performance.now();
  const response = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no SIP answer')), 10_000);
    socket.on('message', (data) => {
      const message = data.toString();
      if (/^SIP\/2\.0 [2-6]\d\d/.test(message)) {
        clearTimeout(timer);
        resolve(message);
      }
    });
    socket.send(text(port).replace(/\n/g, '\r\n'), telephony.port, '127.0.0.1');
  });
  const ms = performance.now() - started;
  const toTag = /^To: .*$/m.exec(response)?.[0];
  if (/^SIP\/2\.0 200/.test(response) && response.includes('CSeq: 1 INVITE') && toTag) {
    const callId = /^Call-ID: (.*)$/m.exec(response)![1]!.trim();
    const dialog = [
      `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${Math.random().toString(36).slice(2)}`,
      'From: <sip:+15550100@127.0.0.1>;tag=bench',
      toTag.trim(),
      `Call-ID: ${callId}`,
    ];
    socket.send([`ACK sip:palaver@127.0.0.1 SIP/2.0`, ...dialog, 'CSeq: 1 ACK', 'Content-Length: 0', '', ''].join('\r\n'), telephony.port, '127.0.0.1');
    socket.send([`BYE sip:palaver@127.0.0.1 SIP/2.0`, ...dialog, 'CSeq: 2 BYE', 'Content-Length: 0', '', ''].join('\r\n'), telephony.port, '127.0.0.1');
    await sleep(100);
  }
  socket.close();
  return { ms, response };
}

async function callSetup(): Promise<void> {
  const trunk = await sip.createSipInboundTrunk('bench setup', ['+15551000']);
  const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'setup' }, { trunkIds: [trunk.sipTrunkId] });
  const sdp = ['v=0', 'o=bench 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio 40000 RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', ''].join('\n');
  const setup: number[] = [];
  const options: number[] = [];
  for (let index = 0; index < 30; index += 1) {
    const callId = `bench-${index}-${Date.now()}`;
    const invite = await roundTrip((port) =>
      [
        'INVITE sip:+15551000@127.0.0.1 SIP/2.0',
        `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKi${index}${Date.now()};rport`,
        'From: <sip:+15550100@127.0.0.1>;tag=bench',
        'To: <sip:+15551000@127.0.0.1>',
        `Call-ID: ${callId}`,
        'CSeq: 1 INVITE',
        `Contact: <sip:+15550100@127.0.0.1:${port}>`,
        'Content-Type: application/sdp',
        `Content-Length: ${sdp.replace(/\n/g, '\r\n').length}`,
        '',
        sdp,
      ].join('\n'),
    );
    if (!invite.response.startsWith('SIP/2.0 200')) throw new Error(`call setup: ${invite.response.split('\r\n')[0]}`);
    setup.push(invite.ms);
    const option = await roundTrip((port) =>
      [
        'OPTIONS sip:127.0.0.1 SIP/2.0',
        `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKo${index}${Date.now()}`,
        'From: <sip:bench@127.0.0.1>;tag=o',
        'To: <sip:127.0.0.1>',
        `Call-ID: options-${callId}`,
        'CSeq: 1 OPTIONS',
        'Content-Length: 0',
        '',
        '',
      ].join('\n'),
    );
    options.push(option.ms);
  }
  await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
  await sip.deleteSipTrunk(trunk.sipTrunkId);
  console.log(`call setup INVITE -> 200 OK (30 calls): p50 ${fixed(median(setup))} ms, p90 ${fixed(percentile(setup, 90))} ms`);
  console.log(`  baseline OPTIONS -> 200 OK: p50 ${fixed(median(options))} ms; setup is ${fixed(median(setup) / median(options), 1)}x the SIP round trip`);
}

/** A WAV's samples (PCM16, mono: the first channel) and rate, read from its `fmt ` and `data` chunks. */
function readWav(path: string): { pcm: Int16Array; rate: number } {
  const bytes = readFileSync(path);
  let offset = 12;
  let rate = 8000;
  let channels = 1;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(offset + 10);
      rate = bytes.readUInt32LE(offset + 12);
    }
    if (id === 'data') {
      const all = new Int16Array(
        bytes.buffer.slice(bytes.byteOffset + offset + 8, bytes.byteOffset + offset + 8 + (Math.min(size, bytes.length - offset - 8) & ~1)),
      );
      return { pcm: channels === 1 ? all : all.filter((_, index) => index % channels === 0), rate };
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error(`${path}: no data chunk`);
}

/** The agent's own timings of each turn, as the server's metrics receive them, until `stop()`. */
function watchTurns(): { stop(): void; lines(): string[] } {
  const seen: Array<Parameters<typeof test.server.services.metrics.turnMeasured>[0]> = [];
  const metrics = test.server.services.metrics;
  const measured = metrics.turnMeasured.bind(metrics);
  metrics.turnMeasured = (turn) => {
    if (turn.source === 'voice') seen.push(turn);
    measured(turn);
  };
  const ms = (value: number | undefined) => fixed(value ?? Number.NaN, 0);
  return {
    stop: () => (metrics.turnMeasured = measured),
    lines: () =>
      seen.map((turn) => {
        const reading = turn.endOfTurn ? ` (${turn.endOfTurn.reason} ${fixed(turn.endOfTurn.probability, 2)})` : '';
        return `${ms(turn.endOfSpeechDecisionMs)}/${ms(turn.sttFinalMs)}/${ms(turn.endOfTurn?.waitMs)}${reading}/${ms(turn.llmFirstTokenMs)}/${ms(turn.ttsFirstAudioMs)} -> ${ms(turn.responseMs)}`;
      }),
  };
}

/** The room baseline: the same sentences said by a human on the embedded transport (no phone leg). */
async function roomTurns(said: Array<Awaited<ReturnType<typeof fliteSpeech>>>): Promise<number[]> {
  const host = agentHostFor(test);
  const spec = await sessionSpec(test, 'bench-room-human');
  const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, 'bench-room-human');
  const handle = await host.start(spec, new RecordedEvents());
  await human.waitForState('listening');
  const results: number[] = [];
  for (const [index, sentence] of said.entries()) {
    const { speechEndedAt } = await human.say(sentence, 1500);
    const deadline = performance.now() + 30_000;
    while (human.finalTranscriptions(true).length < index + 1 && performance.now() < deadline) await sleep(20);
    await human.waitForState('listening');
    const heard = human.firstAudibleAfter(speechEndedAt);
    if (heard) results.push(heard.at - speechEndedAt);
  }
  await handle.stop();
  await human.leave();
  await host.close();
  return results;
}

async function voiceToVoice(): Promise<void> {
  const stt = await test.server.services.speech.stt.status();
  if (!stt.available) {
    console.log(`[skip] voice to voice: no speech-to-text engine (${stt.reason})`);
    return;
  }
  const trunk = await sip.createSipInboundTrunk('bench voice', ['+15552000']);
  const input = process.env.TELEPHONY_TURN === 'fixed' ? { turn_detection: { mode: 'fixed', silence_ms: 550 } } : {};
  const realtime = { general: {}, input, output: {}, generative: { llm: 'builtin-offline' } };
  const rule = await sip.createSipDispatchRule(
    { type: 'individual', roomPrefix: 'voice' },
    { trunkIds: [trunk.sipTrunkId], metadata: JSON.stringify({ palaver: { realtime } }) },
  );
  const said = await Promise.all(SENTENCES.map((sentence) => fliteSpeech(test.server.services.speech, sentence)));
  const turns = watchTurns();
  // The phone's microphone: each sentence 2 s into its slot, silence for the answer.
  const microphone = new Int16Array(8000 * SLOT_S * (said.length + 1));
  for (const [index, sentence] of said.entries()) microphone.set(resampleLinear(sentence.pcm, sentence.sampleRate, 8000), 8000 * (SLOT_S * index + 2));
  const dir = mkdtempSync(join(work, 'phone-'));
  writeFileSync(join(dir, 'microphone.wav'), wavFile(microphone, 8000));
  writeFileSync(
    join(dir, 'config'),
    [
      'poll_method epoll',
      'sip_listen 127.0.0.1:0',
      'module_path /usr/lib/baresip/modules',
      ...['g711', 'aufile', 'sndfile', 'account', 'menu'].map((module) => `module ${module}.so`),
      `audio_source aufile,${join(dir, 'microphone.wav')}`,
      'audio_player aubridge,nil',
      'audio_alert aubridge,nil',
      `snd_path ${dir}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'accounts'), '<sip:+15550100@127.0.0.1>;regint=0\n');
  const seconds = SLOT_S * (said.length + 1);
  await new Promise<void>((resolve) => {
    const phone = spawn('baresip', ['-f', dir, '-e', `/dial sip:+15552000@127.0.0.1:${telephony.port}`, '-t', String(seconds)], { stdio: 'ignore' });
    phone.on('exit', () => resolve());
  });
  const sent = readWav(
    join(
      dir,
      readdirSync(dir).find((name) => name.endsWith('-enc.wav'))!,
    ),
  );
  const heard = readWav(
    join(
      dir,
      readdirSync(dir).find((name) => name.endsWith('-dec.wav'))!,
    ),
  );
  const frame = sent.rate / 50;
  const phoneMs: number[] = [];
  for (let slot = 0; slot < said.length; slot += 1) {
    // The caller's last loud frame in the slot, then the agent's first audible frame after it (same clock: both dumps).
    let end = -1;
    for (let offset = sent.rate * SLOT_S * slot; offset + frame <= Math.min(sent.pcm.length, sent.rate * SLOT_S * (slot + 1)); offset += frame) {
      if (rms(sent.pcm.subarray(offset, offset + frame)) > AUDIBLE_RMS) end = offset + frame;
    }
    if (end < 0) continue;
    for (let offset = Math.round((end / sent.rate) * heard.rate); offset + frame <= heard.pcm.length; offset += heard.rate / 50) {
      if (rms(heard.pcm.subarray(offset, offset + heard.rate / 50)) > AUDIBLE_RMS) {
        phoneMs.push(((offset - (end / sent.rate) * heard.rate) / heard.rate) * 1000);
        break;
      }
    }
  }
  turns.stop();
  await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
  await sip.deleteSipTrunk(trunk.sipTrunkId);
  const roomMs = await roomTurns(said);
  console.log(
    `caller end of speech -> first agent audio at the caller (${phoneMs.length} of ${said.length} turns): p50 ${fixed(median(phoneMs))} ms, p90 ${fixed(percentile(phoneMs, 90))} ms (target < 450)`,
  );
  console.log(`  each turn: ${phoneMs.map((ms) => fixed(ms, 0)).join(', ')} ms; room: ${roomMs.map((ms) => fixed(ms, 0)).join(', ')} ms`);
  console.log(
    `  the agent's view of each phone turn (VAD end-of-speech decision / STT final after it / end-of-turn wait (reading) / LLM first token / TTS first audio -> response, ms): ${turns.lines().join('; ')}`,
  );
  console.log(
    `  baseline, a room human on the embedded transport (${roomMs.length} turns): p50 ${fixed(median(roomMs))} ms; the phone leg adds ${fixed(median(phoneMs) - median(roomMs))} ms`,
  );
}

async function cpuPerCall(): Promise<void> {
  const trunk = await sip.createSipInboundTrunk('bench load', ['+15553000']);
  const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'load' }, { trunkIds: [trunk.sipTrunkId] });
  // What SIPp streams: a G.711 u-law WAV (sox), looped for the whole call.
  const audio = join(work, 'caller-ulaw.wav');
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', 'u-law', audio, 'synth', '10', 'sine', '440', 'vol', '0.3']);
  const scenario = join(work, 'hold.xml');
  writeFileSync(scenario, holdScenario(audio));
  const idleStart = process.cpuUsage();
  await sleep(5000);
  const idle = process.cpuUsage(idleStart);
  const idleMsPerS = (idle.user + idle.system) / 1000 / 5;
  const sipp = spawn(
    'sipp',
    [
      `127.0.0.1:${telephony.port}`,
      '-sf',
      scenario,
      '-s',
      '+15553000',
      '-i',
      '127.0.0.1',
      '-p',
      '0',
      '-m',
      String(CALLS),
      '-l',
      String(CALLS),
      '-r',
      '10',
      '-d',
      String(HOLD_S * 1000),
      '-nostdin',
      '-timeout',
      `${HOLD_S + 120}s`,
      '-mp',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  sipp.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  sipp.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => sipp.on('close', resolve));
  const deadline = performance.now() + 60_000;
  while (telephony.calls().filter((call) => call.state === 'active').length < CALLS && performance.now() < deadline) await sleep(100);
  const active = telephony.calls().filter((call) => call.state === 'active');
  const windowS = Math.max(5, HOLD_S - (CALLS / 10 + 10));
  const before = active.map((call) => call.rtp.stats.received);
  const cpuStart = process.cpuUsage();
  await sleep(windowS * 1000);
  const cpu = process.cpuUsage(cpuStart);
  const received = active.map((call, index) => call.rtp.stats.received - before[index]!);
  const sentByUs = active.map((call) => call.rtp.stats.sent);
  const code = await exited;
  const busyMsPerS = (cpu.user + cpu.system) / 1000 / windowS;
  const perCall = (busyMsPerS - idleMsPerS) / active.length;
  const expected = windowS * 50;
  const lowest = Math.min(...received);
  const successful = /Successful call\s*\|\s*\d+\s*\|\s*(\d+)/.exec(output)?.[1];
  const failed = /Failed call\s*\|\s*\d+\s*\|\s*(\d+)/.exec(output)?.[1];
  console.log(
    `CPU per concurrent call, media only (${active.length} calls of ${CALLS} held ${HOLD_S} s, measured over ${windowS} s): ${fixed(perCall, 2)} ms CPU per second per call = ${fixed(1000 / perCall, 0)} calls per core (target >= 30)`,
  );
  console.log(`  baseline, the same process idle: ${fixed(idleMsPerS, 1)} ms CPU per second; busy ${fixed(busyMsPerS, 1)}`);
  console.log(
    `  nothing lost: SIPp exit ${code}, successful ${successful ?? '?'}, failed ${failed ?? '?'}; RTP received per call over the window: lowest ${lowest} of ${expected} expected (${fixed((lowest / expected) * 100, 1)} %), our RTP sent per call at least ${Math.min(...sentByUs)}`,
  );
  await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
  await sip.deleteSipTrunk(trunk.sipTrunkId);
}

function holdScenario(audio: string): string {
  const header = (method: string, cseq: string, toTag: boolean) =>
    [
      `${method} sip:[service]@[remote_ip]:[remote_port] SIP/2.0`,
      'Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]',
      'From: <sip:+15550100@[local_ip]:[local_port]>;tag=[call_number]',
      `To: <sip:[service]@[remote_ip]:[remote_port]>${toTag ? '[peer_tag_param]' : ''}`,
      'Call-ID: [call_id]',
      `CSeq: ${cseq}`,
      'Contact: <sip:+15550100@[local_ip]:[local_port]>',
      'Max-Forwards: 70',
    ].join('\n');
  const sdp = [
    'v=0',
    'o=caller 1 1 IN IP[local_ip_type] [local_ip]',
    's=-',
    'c=IN IP[media_ip_type] [media_ip]',
    't=0 0',
    'm=audio [auto_media_port] RTP/AVP 0',
    'a=rtpmap:0 PCMU/8000',
  ].join('\n');
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="bench hold">
  <send retrans="500"><![CDATA[
${header('INVITE', '1 INVITE', false)}
Content-Type: application/sdp
Content-Length: [len]

${sdp}
]]></send>
  <recv response="100" optional="true"/>
  <recv response="200" rtd="true"/>
  <send><![CDATA[
${header('ACK', '1 ACK', true)}
Content-Length: 0
]]></send>
  <nop><action><exec rtp_stream="${audio},-1,0"/></action></nop>
  <pause/>
  <send retrans="500"><![CDATA[
${header('BYE', '2 BYE', true)}
Content-Length: 0
]]></send>
  <recv response="200" crlf="true"/>
</scenario>
`;
}

try {
  if (wanted('setup')) await callSetup();
  if (wanted('voice')) await voiceToVoice();
  if (wanted('cpu')) await cpuPerCall();
  // Minutes of real-time corpus audio: only when asked for.
  if (only.includes('turns')) await phoneTurnTaking(test.server.services.speech);
  if (only.includes('recognition')) await phoneRecognition();
} finally {
  await test.close();
}
