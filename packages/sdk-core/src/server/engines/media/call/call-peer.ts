import type { CallPeer, CallPeerEvents } from './call-peer-types.js';

export type { CallPeer, CallPeerEvents };

/**
 * Answers a WebRTC offer (werift is loaded on first use, as the media service loads it).
 *
 * @example
 * const peer = await answerCall(offerSdp, 'oai-events', 24_000, events);
 */
export async function answerCall(offer: string, channelLabel: string, sampleRate: number, events: CallPeerEvents): Promise<CallPeer> {
  const { answerWithWerift } = await import('./werift-call.js');
  return answerWithWerift(offer, channelLabel, sampleRate, events);
}
