import { AddTrackRequest, TrackSource, VideoLayer, VideoQuality } from '@livekit/protocol';
import { PictureLossIndication, RTCRtpCodecParameters, RTCRtpSender, RtcpPacketConverter, RtcpPayloadSpecificFeedback, RtpHeader, RtpPacket } from 'werift';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublishedVideoTrack } from './published-video-track.js';
import { sendVideo } from './video-sending.js';

/** A FIR (RFC 5104: payload-specific feedback, format 4) for `mediaSsrc`, as bytes on the wire. */
function firBytes(mediaSsrc: number): Buffer {
  const packet = Buffer.alloc(20);
  packet.writeUInt8(0x80 | 4, 0);
  packet.writeUInt8(206, 1);
  packet.writeUInt16BE(4, 2);
  packet.writeUInt32BE(1111, 4);
  packet.writeUInt32BE(0, 8);
  packet.writeUInt32BE(mediaSsrc, 12);
  packet.writeUInt8(1, 16);
  return packet;
}

function senderWith(codecs: RTCRtpCodecParameters[]): RTCRtpSender {
  const sender = new RTCRtpSender('video');
  sender.prepareSend({ codecs, headerExtensions: [], muxId: '1', rtcp: { cname: 'test', reducedSize: true } } as never);
  return sender;
}

const vp8 = new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96 });
const h264 = new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90_000, payloadType: 102 });

function track(mimeType: string): { track: PublishedVideoTrack; keyFrameRequests: string[] } {
  const published = new PublishedVideoTrack(
    { sid: 'PA_1', identity: 'alice' },
    new AddTrackRequest({
      source: TrackSource.CAMERA,
      width: 640,
      height: 360,
      layers: [new VideoLayer({ quality: VideoQuality.HIGH, width: 640, height: 360 })],
    }),
  );
  published.setCodec(mimeType, '0');
  const keyFrameRequests: string[] = [];
  published.addLayer('', () => keyFrameRequests.push(''));
  return { track: published, keyFrameRequests };
}

describe("sendVideo: a forwarder on a subscriber's werift sender", () => {
  afterEach(() => vi.useRealTimers());

  it("the subscriber's PLI and FIR become key-frame requests to the publisher for the layer it gets, at most every 250 ms", () => {
    // The clock the throttle reads, moved by hand.
    vi.useFakeTimers({ toFake: ['Date'] });
    const { track: published, keyFrameRequests } = track('video/VP8');
    const sender = senderWith([vp8]);
    const video = sendVideo(published, sender);
    const packet = new RtpPacket(new RtpHeader({ sequenceNumber: 1, payloadType: 96 }), Buffer.from([0x10, 0x00, 0, 0]));
    published.push(packet, '', Date.now());
    video.handle(packet, '');
    expect(video.forwarding).toBe('');
    // Choosing the layer asked for a key frame; the throttle's window passes before the subscriber's requests.
    expect(keyFrameRequests).toEqual(['']);
    const pli = () => new RtcpPayloadSpecificFeedback({ feedback: new PictureLossIndication({ senderSsrc: 1, mediaSsrc: sender.ssrc }) });
    const fir = () => RtcpPacketConverter.deSerialize(firBytes(sender.ssrc))[0]!;
    vi.setSystemTime(Date.now() + 300);
    sender.handleRtcpPacket(pli());
    expect(keyFrameRequests).toEqual(['', '']);
    sender.handleRtcpPacket(fir());
    expect(keyFrameRequests).toEqual(['', '']);
    vi.setSystemTime(Date.now() + 300);
    sender.handleRtcpPacket(fir());
    expect(keyFrameRequests).toEqual(['', '', '']);
    video.close();
    vi.setSystemTime(Date.now() + 300);
    sender.handleRtcpPacket(pli());
    expect(keyFrameRequests).toEqual(['', '', '']);
  });

  it("sends with the payload type the subscriber negotiated for the publisher's codec (H.264 after VP8)", () => {
    const { track: published } = track('video/H264');
    const sender = senderWith([vp8, h264]);
    const video = sendVideo(published, sender);
    // An H.264 SPS starts the key frame.
    const packet = new RtpPacket(new RtpHeader({ sequenceNumber: 1, payloadType: 102 }), Buffer.from([0x67, 0x42, 0xc0, 0x1f]));
    published.push(packet, '', Date.now());
    video.handle(packet, '');
    expect(video.forwarding).toBe('');
    expect(sender.codec?.mimeType).toBe('video/H264');
    expect(sender.codec?.payloadType).toBe(102);
  });
});
