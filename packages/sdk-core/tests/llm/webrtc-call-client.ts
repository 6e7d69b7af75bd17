import { RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, type RTCDataChannel } from 'werift';
import { expect } from 'vitest';
import { createLinearResampler, OPUS_FRAME_SAMPLES, OpusFrameDecoder, OpusFrameEncoder } from '../../src/server/engines/media/index.js';
import { eventually } from '../../src/testing/media-test-support.js';

export type ServerEvent = { type: string; [key: string]: unknown };

/** A WebRTC client as OpenAI's browser transport is: an audio track both ways and the `oai-events` data channel. */
export class CallClient {
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

/** Posts the client's offer to `/v1/realtime/calls` (`baseUrl` ends with `/v1`) as OpenAI's browser transport does. */
export async function placeCall(client: CallClient, baseUrl: string, key: string, query = '?model=builtin-offline'): Promise<Response> {
  return fetch(`${baseUrl}/realtime/calls${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', authorization: `Bearer ${key}` },
    body: await client.offer(),
  });
}
