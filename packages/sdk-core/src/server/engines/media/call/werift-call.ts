import { RTCPeerConnection, type RTCDataChannel, type RTCRtpTransceiver } from 'werift';
import { createLinearResampler } from '../audio/audio-frame.js';
import { OPUS_SAMPLE_RATE, OpusFrameDecoder, OpusFrameEncoder } from '../audio/opus-codec.js';
import { OpusPacketizer } from '../audio/opus-rtp.js';
import { PacedAudioQueue } from '../audio/paced-audio-queue.js';
import { peerConfiguration } from '../embedded/peer-configuration.js';
import type { CallPeer, CallPeerEvents } from './call-peer-types.js';

/** How long the answer waits for its ICE candidates (host candidates only: gathering is local and quick). */
const GATHERING_TIMEOUT_MS = 3000;
/** A client that never opens its data channel after the answer (it went away) ends the call after this. */
const OPEN_TIMEOUT_MS = 30_000;

/**
 * One WebRTC call with a browser (OpenAI's Realtime API over WebRTC): answers the client's offer with werift (the
 * embedded endpoint's peer configuration: host candidates only, Opus), reads the data channel the client opened
 * (`oai-events`), decodes the client's Opus track to PCM at `sampleRate`, and sends PCM written to `audio` as an Opus
 * track paced at real time. Not trickled: the answer carries every candidate, as OpenAI's does.
 *
 * @example
 * const peer = await answerWithWerift(offerSdp, 'oai-events', 24_000, events);
 * reply(peer.sdp);
 */
export async function answerWithWerift(offer: string, channelLabel: string, sampleRate: number, events: CallPeerEvents): Promise<CallPeer> {
  const pc = new RTCPeerConnection(peerConfiguration());
  const encoder = new OpusFrameEncoder();
  const packetizer = new OpusPacketizer();
  let sending: RTCRtpTransceiver | undefined;
  const queue = new PacedAudioQueue({
    sampleRate,
    onFrame: (samples) => void sending?.sender.sendRtp(packetizer.packetize(encoder.encode(samples))),
    onGap: (frames) => packetizer.skip(frames),
  });
  let channel: RTCDataChannel | undefined;
  let ended = false;
  const abandoned = setTimeout(() => end(), OPEN_TIMEOUT_MS);
  abandoned.unref();
  const end = () => {
    clearTimeout(abandoned);
    if (ended) return;
    ended = true;
    queue.close();
    void pc.close().catch(() => undefined);
    events.closed();
  };
  pc.onDataChannel.subscribe((opened) => {
    if (opened.label !== channelLabel) return;
    channel = opened;
    opened.onMessage.subscribe((data) => events.message(typeof data === 'string' ? data : data.toString('utf8')));
    const announce = () => (clearTimeout(abandoned), events.channelOpen());
    if (opened.readyState === 'open') announce();
    else opened.stateChanged.subscribe((state) => (state === 'open' ? announce() : state === 'closed' ? end() : undefined));
  });
  pc.ontrack = ({ track }) => {
    if (track.kind !== 'audio') return;
    const decoder = new OpusFrameDecoder();
    const resample = createLinearResampler(OPUS_SAMPLE_RATE, sampleRate);
    let lastSequence: number | undefined;
    track.onReceiveRtp.subscribe((packet) => {
      // Duplicates and late packets are dropped, as the embedded endpoint's tracks do: decoded out of order they are noise.
      const sequence = packet.header.sequenceNumber;
      if (lastSequence !== undefined && (sequence === lastSequence || ((sequence - lastSequence) & 0xffff) > 0x8000)) return;
      lastSequence = sequence;
      events.audio(resample(decoder.decode(packet.payload)));
    });
  };
  pc.connectionStateChange.subscribe((state) => {
    if (state === 'failed' || state === 'closed') end();
  });
  try {
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    sending = pc.getTransceivers().find((transceiver) => transceiver.kind === 'audio');
    if (!sending) throw new RangeError('The offer has no audio section');
    sending.setDirection('sendrecv');
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
  } catch (error) {
    clearTimeout(abandoned);
    await pc.close().catch(() => undefined);
    throw error;
  }
  return {
    sdp: pc.localDescription!.sdp,
    send: (text) => {
      if (channel?.readyState === 'open') channel.send(text);
    },
    audio: { write: (pcm) => void queue.write({ samples: pcm, sampleRate, channels: 1 }).catch(() => undefined), clear: () => queue.flush() },
    close: end,
  };
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHERING_TIMEOUT_MS);
    pc.iceGatheringStateChange.subscribe((state) => {
      if (state !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}
