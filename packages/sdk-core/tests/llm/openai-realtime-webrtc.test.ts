import OpenAI from 'openai';
import { RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, type RTCDataChannel } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinearResampler, OPUS_FRAME_SAMPLES, OpusFrameDecoder, OpusFrameEncoder } from '../../src/server/engines/media/index.js';
import { realtimeCalls } from '../../src/server/edge/openai-realtime/realtime-call-server.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { AUDIBLE_RMS, offlineAnswer, rms } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { spoken } from './realtime-test-client.js';

const sttAvailable = pocketsphinxAvailable();

type ServerEvent = { type: string; [key: string]: unknown };

/** A WebRTC client as OpenAI's browser transport is: an audio track both ways and the `oai-events` data channel. */
class CallClient {
  readonly pc = new RTCPeerConnection({
    iceServers: [],
    iceUseIpv6: false,
    codecs: { audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111 })] },
  });
  readonly channel: RTCDataChannel = this.pc.createDataChannel('oai-events');
  readonly transceiver = this.pc.addTransceiver('audio', { direction: 'sendrecv' });
  readonly events: ServerEvent[] = [];
  /** The agent's track, decoded (48 kHz). */
  readonly heard: Int16Array[] = [];
  private readonly decoder = new OpusFrameDecoder();
  private sequence = 1;
  private timestamp = 1;

  constructor() {
    this.channel.onMessage.subscribe((data) => this.events.push(JSON.parse(data.toString()) as ServerEvent));
    this.transceiver.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((packet) => this.heard.push(this.decoder.decode(packet.payload))));
  }

  async offer(): Promise<string> {
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await eventually(() => expect(this.pc.iceGatheringState).toBe('complete'), 5000);
    return this.pc.localDescription!.sdp;
  }

  async connect(answer: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    await eventually(() => expect(this.channel.readyState).toBe('open'), 15_000);
  }

  send(event: Record<string, unknown>): void {
    this.channel.send(JSON.stringify(event));
  }

  async next(type: string, count = 1, timeoutMs = 30_000): Promise<ServerEvent> {
    let found: ServerEvent | undefined;
    await eventually(() => {
      const matching = this.events.filter((event) => event.type === type);
      if (matching.length < count)
        throw new Error(`${matching.length} of ${count} ${type} events so far (${this.events.map((event) => event.type).join(', ')})`);
      found = matching[count - 1];
    }, timeoutMs);
    return found!;
  }

  /** Says 24 kHz `pcm`, then `silenceMs` of silence, into the microphone track as Opus at real time. */
  async speak(pcm: Int16Array, silenceMs = 1500): Promise<void> {
    const audio = new Int16Array(pcm.length + Math.round((24_000 * silenceMs) / 1000));
    audio.set(pcm);
    const upsampled = createLinearResampler(24_000, 48_000)(audio);
    const encoder = new OpusFrameEncoder();
    const started = performance.now();
    for (let offset = 0, frame = 0; offset + OPUS_FRAME_SAMPLES <= upsampled.length; offset += OPUS_FRAME_SAMPLES, frame += 1) {
      const payload = Buffer.from(encoder.encode(upsampled.slice(offset, offset + OPUS_FRAME_SAMPLES)));
      const header = new RtpHeader({ payloadType: 111, sequenceNumber: this.sequence++ & 0xffff, timestamp: this.timestamp, ssrc: 4242, marker: frame === 0 });
      this.timestamp += OPUS_FRAME_SAMPLES;
      void this.transceiver.sender.sendRtp(new RtpPacket(header, payload));
      const aheadMs = (frame + 1) * 20 - (performance.now() - started);
      if (aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
    }
  }

  heardPcm(): Int16Array {
    const all = new Int16Array(this.heard.reduce((total, chunk) => total + chunk.length, 0));
    let offset = 0;
    for (const chunk of this.heard) all.set(chunk, (offset += chunk.length) - chunk.length);
    return all;
  }

  async close(): Promise<void> {
    await this.pc.close();
  }
}

describe("OpenAI's Realtime API over WebRTC (POST /v1/realtime/calls), with a werift client peer and the built-in engines", () => {
  let test: TestServer;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    url = await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  async function call(client: CallClient, key: string, query = '?model=builtin-offline'): Promise<Response> {
    return fetch(`${url}/v1/realtime/calls${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${key}` },
      body: await client.offer(),
    });
  }

  it('an ephemeral key calls; a typed message is answered on the data channel, its speech on the agent track; hang-up ends the call', async () => {
    const openai = new OpenAI({ apiKey: test.server.apiKey, baseURL: `${url}/v1`, defaultHeaders: { 'x-human-id': 'webrtc-human' } });
    const { value } = await openai.realtime.clientSecrets.create({ session: { type: 'realtime', model: 'builtin-offline' } });
    const client = new CallClient();
    // As OpenAIRealtimeWebRTC: no ?model=, the model comes in session.update.
    const response = await call(client, value, '');
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toContain('application/sdp');
    const callId = response.headers.get('location')!.split('/').pop()!;
    expect(callId).toMatch(/^rtc_/);
    await client.connect(await response.text());
    await client.next('session.created');
    client.send({ type: 'session.update', session: { type: 'realtime', model: 'builtin-offline', instructions: 'Be brief.' } });
    await client.next('session.updated');

    client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What time is it?' }] } });
    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    expect(done.response).toMatchObject({ status: 'completed', output_modalities: ['audio'] });
    const transcript = (await client.next('response.output_audio_transcript.done')).transcript as string;
    expect(transcript).toBe(offlineAnswer('What time is it?'));
    await client.next('output_audio_buffer.started');
    await client.next('output_audio_buffer.stopped');
    // Over WebRTC the speech is the track, not audio deltas.
    expect(client.events.filter((event) => event.type === 'response.output_audio.delta')).toEqual([]);
    await eventually(() => expect(rms(client.heardPcm())).toBeGreaterThan(AUDIBLE_RMS), 10_000);
    expect(client.heardPcm().length / 48_000).toBeGreaterThan(1);

    const hangup = await fetch(`${url}/v1/realtime/calls/${callId}/hangup`, { method: 'POST', headers: { authorization: `Bearer ${value}` } });
    expect(hangup.status).toBe(200);
    expect(realtimeCalls(test.server.services).size).toBe(0);
    const again = await fetch(`${url}/v1/realtime/calls/${callId}/hangup`, { method: 'POST', headers: { authorization: `Bearer ${value}` } });
    expect(again.status).toBe(404);
    // The human's time on the call is metered once, at its end, as the socket's is.
    const records = await test.server.services.store.db
      .selectFrom('usage_records')
      .select(['value'])
      .where('human', '=', 'webrtc-human')
      .where('type', '=', 'conversational_seconds')
      .execute();
    expect(records).toHaveLength(1);
    expect(Number(records[0]!.value)).toBeGreaterThan(0);
    await client.close();
  }, 90_000);

  it.skipIf(!sttAvailable)(
    'a spoken question on the microphone track: the words are transcribed and answered in speech',
    async () => {
      const client = new CallClient();
      const response = await call(client, test.server.apiKey);
      expect(response.status).toBe(201);
      await client.connect(await response.text());
      client.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' } } } } });
      await client.next('session.updated');
      await client.speak(await spoken(test.server.services.speech, 'Please call me tomorrow morning.'));
      const heard = (await client.next('conversation.item.input_audio_transcription.completed')).transcript as string;
      expect(wordErrorRate('please call me tomorrow morning', heard), heard).toBeLessThan(0.3);
      const done = await client.next('response.done');
      expect(done.response).toMatchObject({ status: 'completed' });
      expect((await client.next('response.output_audio_transcript.done')).transcript).toBe(offlineAnswer(heard));
      await eventually(() => expect(rms(client.heardPcm())).toBeGreaterThan(AUDIBLE_RMS), 10_000);
      // The peer closing ends the call.
      await client.close();
      await eventually(() => expect(realtimeCalls(test.server.services).size).toBe(0), 15_000);
    },
    90_000,
  );

  it('a bad offer, a missing credential and an unknown model are refused with the error shape', async () => {
    const bad = await fetch(`${url}/v1/realtime/calls?model=builtin-offline`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${test.server.apiKey}` },
      body: 'this is not SDP',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: expect.any(String), message: expect.stringMatching(/SDP/) });

    const json = await fetch(`${url}/v1/realtime/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${test.server.apiKey}` },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ type: 'invalid_input', message: expect.stringMatching(/application\/sdp/) });

    const anonymous = await fetch(`${url}/v1/realtime/calls`, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: 'v=0' });
    expect(anonymous.status).toBe(401);

    const limited = await test.client.usage.createToken({ human: 'webrtc-limited', limits: [{ type: 'conversational_seconds', value: 0 }] });
    const refusedClient = new CallClient();
    const refused = await call(refusedClient, limited.token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'usage_limit_exceeded' });
    await refusedClient.close();

    const open = realtimeCalls(test.server.services).size;
    const client = new CallClient();
    const unknown = await call(client, test.server.apiKey, '?model=no-such-llm');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ message: expect.stringMatching(/no-such-llm/) });
    await client.close();
    expect(realtimeCalls(test.server.services).size).toBe(open);
  }, 60_000);
});
