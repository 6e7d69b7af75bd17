/**
 * App graph runtime. Three figures, each beside a baseline measured in the same run:
 * 1. Pad latency: a client's `push_value` on a property pad -> the `value` event of the downstream pad it feeds,
 *    at the client (a human joined in process through the embedded endpoint: no WebRTC hop); baseline: a
 *    `get_value` round trip on the same connection.
 * 2. Voice to voice: the Simple Voice AI template (Publish -> STT -> LLM context -> LLM -> TTS -> Output) against
 *    the built-in realtime agent on the same sentences (end of human speech -> first audible answer, at the human).
 * 3. Runs per core: CPU time of live Echo runs with humans speaking into them, per run, as runs per core.
 * 4. Barge-in: the Simple Voice AI template saying a long text, the human speaking over it -> its last audible frame,
 *    against the built-in realtime agent doing the same (at the human).
 * 5. Runaway templates (Jinja2 node: nested loops, recursion, huge output): how long until a budget stops each, against
 *    an ordinary render on the same node.
 *
 * Run: `pnpm bench app-runtime`; `APP_RUNTIME_ONLY=barge-in,templates pnpm bench app-runtime` runs only the parts whose
 * name (pad latency, voice to voice, runs per core, barge-in, templates) contains one of the comma-separated words.
 * The voice parts need pocketsphinx (skipped with a reason without it).
 */
import { randomUUID } from 'node:crypto';
import type { RuntimeRequestPayload } from '@palaver/sdk-core/graph';
import {
  HumanParticipant,
  RUNTIME_API_TOPIC,
  RecordedEvents,
  RuntimeApiEnvelope,
  agentHostFor,
  createTestPlatform,
  fliteSpeech,
  graphOf,
  runGraph,
  sessionSpec,
  sineTone,
} from '@palaver/sdk-core/testing';
import { fixed, percentile } from './statistics.js';

/** Parts of the run to do (all unless `APP_RUNTIME_ONLY` names some). */
const only = (process.env.APP_RUNTIME_ONLY ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean);
const wanted = (name: string) => only.length === 0 || only.some((word) => name.includes(word));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const test = await createTestPlatform({ config: { realtime: { leaseSeconds: 15, appRunEmptySeconds: 1 } } });
await test.server.listen(0, '127.0.0.1');
const { speech, media } = test.server.services;
let humans = 0;

/** A human in a new run of `template`, with a runtime_api client. */
async function joinRun(template: string) {
  const app = await test.client.appTemplates.apply(template, { name: `bench ${template}` });
  const run = await test.client.appRuns.create({ app: app.id });
  const human = await HumanParticipant.join(media.transport, run.app_run.id, `bench-human-${humans++}`);
  const completes = new Map<string, (message: RuntimeApiEnvelope) => void>();
  const values: Array<{ at: number; node: string; pad: string; value: unknown }> = [];
  human.connection.on('data', (data) => {
    if (data.topic !== RUNTIME_API_TOPIC) return;
    const parsed = RuntimeApiEnvelope.safeParse(JSON.parse(new TextDecoder().decode(data.payload)));
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'complete') completes.get(message.req_id)?.(message);
    if (message.type === 'event' && message.payload.type === 'value')
      values.push({ at: performance.now(), node: message.payload.node_id, pad: message.payload.pad_id, value: message.payload.value });
  });
  const request = (payload: RuntimeRequestPayload) =>
    new Promise<RuntimeApiEnvelope>((resolve) => {
      const req_id = randomUUID();
      completes.set(req_id, resolve);
      void human.connection.sendData(JSON.stringify({ type: 'request', req_id, payload }), { topic: RUNTIME_API_TOPIC });
    });
  const deadline = performance.now() + 10_000;
  while (!human.connection.participants().some((participant) => participant.identity === 'agent') && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return { run, human, request, values };
}

try {
  // 1. Pad latency.
  if (wanted('pad latency')) {
    const { human, request, values } = await joinRun('app_template_simple_voice_ai');
    await request({ type: 'subscribe', node_id: 'system_prompt', pad_id: 'context_message' });
    const pushToEvent: number[] = [];
    const roundTrips: number[] = [];
    for (let index = 0; index < 200; index += 1) {
      const before = values.length;
      const sent = performance.now();
      void request({ type: 'push_value', node_id: 'system_prompt', pad_id: 'content', value: { type: 'string', value: `Prompt ${index}` } });
      while (!values.slice(before).some((value) => value.node === 'system_prompt' && value.pad === 'context_message'))
        await new Promise((resolve) => setImmediate(resolve));
      pushToEvent.push(values.slice(before).find((value) => value.pad === 'context_message')!.at - sent);
      const asked = performance.now();
      await request({ type: 'get_value', node_id: 'system_prompt', pad_id: 'content' });
      roundTrips.push(performance.now() - asked);
    }
    await human.leave();
    const p50 = percentile(pushToEvent, 50);
    const base = percentile(roundTrips, 50);
    console.log('pad latency, 200 pushes (push_value on system_prompt.content -> value event of system_prompt.context_message, at the client)');
    console.log(`  push -> downstream event  p50 ${fixed(p50, 2)} ms, p99 ${fixed(percentile(pushToEvent, 99), 2)} ms`);
    console.log(`  get_value round trip      p50 ${fixed(base, 2)} ms, p99 ${fixed(percentile(roundTrips, 99), 2)} ms (baseline)`);
    console.log(`  ratio                     ${fixed(p50 / base, 2)}`);
  }

  // 2. Voice to voice, template against the built-in agent.
  const stt = await speech.stt.status();
  if (!wanted('voice to voice')) {
    // not asked for
  } else if (!stt.available) {
    console.log(`[skip] voice to voice: no speech-to-text engine (${stt.reason})`);
  } else {
    const sentences = [
      'Please call me tomorrow morning.',
      'I would like to book a table for two.',
      'The weather is nice today.',
      'What time does the train leave?',
    ];
    const said = await Promise.all(sentences.map((sentence) => fliteSpeech(speech, sentence)));
    const measure = async (human: HumanParticipant, answered: (index: number) => boolean): Promise<number[]> => {
      const latencies: number[] = [];
      for (const [index, speechAudio] of said.entries()) {
        const { speechEndedAt } = await human.say(speechAudio, 1500);
        const deadline = performance.now() + 20_000;
        while ((!human.firstAudibleAfter(speechEndedAt) || !answered(index)) && performance.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        const heard = human.firstAudibleAfter(speechEndedAt);
        if (!heard) throw new Error(`turn ${index + 1}: no answer heard`);
        latencies.push(heard.at - speechEndedAt);
        // Let the answer finish before the next sentence.
        let last = human.lastAudible()?.at ?? 0;
        while (performance.now() - last < 600) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          last = human.lastAudible()?.at ?? last;
        }
      }
      return latencies;
    };
    const { human: runHuman } = await joinRun('app_template_simple_voice_ai');
    const template = await measure(runHuman, () => true);
    await runHuman.leave();
    const host = agentHostFor(test);
    const identity = 'bench-agent-human';
    const spec = await sessionSpec(test, identity);
    const agentHuman = await HumanParticipant.join(media.transport, spec.session.id, identity);
    const handle = await host.start(spec, new RecordedEvents());
    await agentHuman.waitForState('listening');
    const agent = await measure(agentHuman, (index) => agentHuman.finalTranscriptions(true).length >= index + 1);
    await handle.stop();
    await agentHuman.leave();
    await host.close();
    const p50 = percentile(template, 50);
    const base = percentile(agent, 50);
    console.log(`voice to voice, ${sentences.length} spoken turns each (end of human speech -> first audible answer, at the human)`);
    console.log(`  Simple Voice AI template  p50 ${fixed(p50, 0)} ms  [${template.map((value) => fixed(value, 0)).join(', ')}]`);
    console.log(`  built-in realtime agent   p50 ${fixed(base, 0)} ms  [${agent.map((value) => fixed(value, 0)).join(', ')}] (baseline)`);
    console.log(`  ratio                     ${fixed(p50 / base, 2)}`);
  }

  // 3. Runs per core: Echo runs with a human sending audio into each.
  if (wanted('runs per core')) {
    const count = 10;
    const runs = await Promise.all(Array.from({ length: count }, () => joinRun('app_template_echo')));
    const tone = sineTone(300, 16_000, 10_000, 0.3);
    const idleStart = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = process.cpuUsage(idleStart);
    const busyStart = process.cpuUsage();
    const wall = performance.now();
    await Promise.all(runs.map(({ human }) => human.say({ pcm: tone, speechEndMs: 10_000 }, 0)));
    const busy = process.cpuUsage(busyStart);
    const seconds = (performance.now() - wall) / 1000;
    const cpuPerRun = (busy.user + busy.system) / 1e6 / seconds / count;
    const idlePerRun = (idle.user + idle.system) / 1e6 / 3 / count;
    console.log(`runs per core, ${count} Echo runs with a human speaking into each for ${fixed(seconds, 1)} s (process CPU, the humans' side included)`);
    console.log(`  CPU per live run          ${fixed(cpuPerRun * 100, 1)} % of a core -> ${fixed(1 / cpuPerRun, 1)} runs per core`);
    console.log(`  CPU per idle run          ${fixed(idlePerRun * 100, 2)} % of a core (baseline: joined, nobody speaking)`);
    console.log(`  ratio                     ${fixed(cpuPerRun / Math.max(idlePerRun, 1e-6), 1)} (speaking / idle)`);
    await Promise.all(runs.map(({ human }) => human.leave()));
  }

  // 4. Barge-in, template against the built-in agent: each says a long text, the human speaks over it.
  if (!wanted('barge-in')) {
    // not asked for
  } else if (!stt.available) {
    console.log(`[skip] barge-in: no speech-to-text engine (${stt.reason})`);
  } else {
    const TRIALS = 3;
    const long = Array.from({ length: 12 }, (_, index) => `This is sentence number ${index + 1} of a long answer that takes a while to say.`).join(' ');
    const interruption = await fliteSpeech(speech, 'Stop please, I would like to ask you something else now.');
    /** Speaks over what `say` starts, `TRIALS` times: the agent's last audible frame after the human started speaking. */
    const stops = async (human: HumanParticipant, say: () => Promise<void>): Promise<number[]> => {
      const stopped: number[] = [];
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const from = performance.now();
        await say();
        const deadline = performance.now() + 10_000;
        while (!human.firstAudibleAfter(from) && performance.now() < deadline) await sleep(20);
        if (!human.firstAudibleAfter(from)) throw new Error(`barge-in, trial ${trial + 1}: the long text was not heard`);
        await sleep(1500);
        const saying = human.say(interruption, 1500);
        const startedAt = performance.now() + interruption.speechStartMs;
        const { speechEndedAt } = await saying;
        const last = human.lastAudibleBeforeQuiet(startedAt);
        stopped.push(Math.max(0, (last?.at ?? startedAt) - startedAt));
        // Its answer to the interruption comes after the human's turn: said to the end before the next trial.
        const answered = performance.now() + 20_000;
        while (!human.firstAudibleAfter(speechEndedAt) && performance.now() < answered) await sleep(50);
        let lastHeard = human.lastAudible()?.at ?? 0;
        while (performance.now() - lastHeard < 1000) {
          await sleep(100);
          lastHeard = human.lastAudible()?.at ?? lastHeard;
        }
      }
      return stopped;
    };
    const { run, human: runHuman } = await joinRun('app_template_simple_voice_ai');
    const template = await stops(runHuman, () =>
      test.client.appRuns.pushPadValue(run.app_run.id, { node: 'tts', pad: 'text', value: { type: 'string', value: long } }).then(() => undefined),
    );
    await runHuman.leave();
    const host = agentHostFor(test);
    const identity = 'bench-barge-in-human';
    const spec = await sessionSpec(test, identity);
    const agentHuman = await HumanParticipant.join(media.transport, spec.session.id, identity);
    const handle = await host.start(spec, new RecordedEvents());
    await agentHuman.waitForState('listening');
    const agent = await stops(agentHuman, () => handle.speak(long));
    await handle.stop();
    await agentHuman.leave();
    await host.close();
    const p50 = percentile(template, 50);
    const base = percentile(agent, 50);
    console.log(`barge-in, ${TRIALS} trials each (the human starts speaking over a long text -> the agent's last audible frame, at the human)`);
    console.log(`  Simple Voice AI template  p50 ${fixed(p50, 0)} ms  [${template.map((value) => fixed(value, 0)).join(', ')}]`);
    console.log(`  built-in realtime agent   p50 ${fixed(base, 0)} ms  [${agent.map((value) => fixed(value, 0)).join(', ')}] (baseline)`);
    console.log(`  ratio                     ${fixed(p50 / Math.max(base, 1), 2)}`);
  }

  // 5. Runaway templates on a Jinja2 node (renders run synchronously, as the node receives its template).
  if (wanted('templates')) {
    const items = 10_000;
    const runaway = {
      'nested loops': `{% for a in range(${items}) %}{% for b in range(${items}) %}{% set c = a * b %}{% endfor %}{% endfor %}`,
      recursion: '{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}{{ down(0) }}',
      'huge output': `{% for a in range(${items}) %}{% for b in range(200) %}xxxxxxxxxx{% endfor %}{% endfor %}`,
    };
    const ordinary = '{% for turn in range(20) %}Turn {{ turn }}: {{ property_0 }}. {% endfor %}';
    const graph = runGraph(graphOf([{ id: 't', type: 'Jinja2', values: { jinja_template: ordinary, property_value_0: 'hello' } }]));
    const template = graph.pad('t.jinja_template') as unknown as { receive(value: unknown): void };
    const render = (source: string) => {
      const started = performance.now();
      template.receive(source);
      return performance.now() - started;
    };
    // The template engine loads with the node's first render.
    const deadline = performance.now() + 10_000;
    while (!(graph.pad('t.rendered_output') as unknown as { value?: unknown }).value && performance.now() < deadline) await sleep(10);
    for (let warm = 0; warm < 20; warm += 1) render(`${ordinary} ${warm}`);
    const baseline = percentile(
      Array.from({ length: 50 }, (_, index) => render(`${ordinary}${index}`)),
      50,
    );
    console.log('runaway templates on a Jinja2 node (receiving the template -> the render stopped by a budget: steps, time, output, call stack)');
    for (const [kind, source] of Object.entries(runaway)) {
      const logged = graph.logs.length;
      const samples = Array.from({ length: 3 }, (_, index) => render(`${source}{# ${index} #}`));
      const reasons = [...new Set(graph.logs.slice(logged).map((entry) => entry.message.replace(/^.*Error: /, '')))];
      const p50 = percentile(samples, 50);
      console.log(`  ${kind.padEnd(24)}  p50 ${fixed(p50, 0)} ms, ${fixed(p50 / baseline, 0)}x the ordinary render  (${reasons.join('; ') || 'not stopped'})`);
    }
    console.log(`  ordinary template         p50 ${fixed(baseline, 2)} ms (baseline)`);
    await graph.stop();
  }
} finally {
  await test.close();
}
