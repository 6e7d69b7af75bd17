import { createSocket, type Socket } from 'node:dgram';
import { RtpHeader, RtpPacket } from 'werift';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../../testing/media-test-support.js';
import { dtmfPayloads } from './dtmf.js';
import { RtpSession } from './rtp-session.js';
import type { DtmfEvent } from './dtmf.js';

function packet(payloadType: number, sequenceNumber: number, timestamp: number, payload: Uint8Array): Buffer {
  return new RtpPacket(new RtpHeader({ payloadType, sequenceNumber, timestamp, ssrc: 1234 }), Buffer.from(payload)).serialize();
}

/** A phone's RTP socket: the test sends from it and records what comes back. */
async function phoneSocket(): Promise<{ socket: Socket; port: number; received: Buffer[] }> {
  const socket = createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (data) => received.push(data));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port, received };
}

describe('RtpSession', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => cleanup.splice(0).forEach((close) => close()));

  it('plays PCMU in order, ignores comfort noise, reports DTMF once, and answers where the packets come from (symmetric RTP)', async () => {
    const audio: Int16Array[] = [];
    const keys: DtmfEvent[] = [];
    const session = await RtpSession.open('127.0.0.1', { audio: (pcm) => audio.push(pcm), dtmf: (event) => keys.push(event) });
    const phone = await phoneSocket();
    cleanup.push(
      () => session.close(),
      () => phone.socket.close(),
    );
    // The SDP names another port (as behind NAT); the first packet from the phone's real port wins.
    session.configure({
      codec: { name: 'PCMU', payloadType: 0, clockRate: 8000, channels: 1 },
      dtmfPayloadType: 101,
      dtmfClockRate: 8000,
      remoteAddress: '127.0.0.1',
      remotePort: 9,
      direction: 'sendrecv',
    });
    const send = (data: Buffer) => phone.socket.send(data, session.port, '127.0.0.1');
    // u-law 0xff is silence, 0x80 loud positive, 0x00 loud negative: sent out of order, played in order.
    const fills: Record<number, number> = { 10: 0xff, 11: 0x80, 12: 0x00, 13: 0xff };
    for (const sequence of [10, 12, 11, 13]) send(packet(0, sequence, sequence * 160, new Uint8Array(160).fill(fills[sequence]!)));
    send(packet(13, 14, 14 * 160, new Uint8Array([40])));
    for (const payload of dtmfPayloads(7, 8000)) send(packet(101, 15, 15 * 160, payload));
    await eventually(() => expect(audio).toHaveLength(4));
    expect(audio.map((pcm) => Math.sign(pcm[480]!))).toEqual([0, 1, -1, 0]);
    expect(audio.reduce((sum, pcm) => sum + pcm.length, 0)).toBeCloseTo(4 * 960, -1);
    await eventually(() => expect(keys).toEqual([{ code: 7, digit: '7' }]));
    expect(session.stats.comfortNoise).toBe(1);
    session.sendFrame(new Int16Array(960));
    await eventually(() => expect(phone.received).toHaveLength(1));
    const back = RtpPacket.deSerialize(phone.received[0]!);
    expect(back.header.payloadType).toBe(0);
    expect(back.payload).toHaveLength(160);
  });

  it('sends nothing while the phone holds the call (sendonly), and again once it resumes', async () => {
    const session = await RtpSession.open('127.0.0.1', { audio: () => undefined, dtmf: () => undefined });
    const phone = await phoneSocket();
    cleanup.push(
      () => session.close(),
      () => phone.socket.close(),
    );
    const media = {
      codec: { name: 'PCMA' as const, payloadType: 8, clockRate: 8000, channels: 1 },
      dtmfPayloadType: undefined,
      dtmfClockRate: 8000,
      remoteAddress: '127.0.0.1',
      remotePort: phone.port,
    };
    session.configure({ ...media, direction: 'sendonly' });
    session.sendFrame(new Int16Array(960));
    expect(session.stats.sent).toBe(0);
    session.configure({ ...media, direction: 'sendrecv' });
    session.sendFrame(new Int16Array(960));
    await eventually(() => expect(phone.received).toHaveLength(1));
    expect(RtpPacket.deSerialize(phone.received[0]!).header.payloadType).toBe(8);
  });
});
