export { SipEndpoint, type SipEndpointOptions } from './sip-endpoint.js';
export { speechPrompts, type CachedPromptSpeaker, type PromptSpeaker } from './prompts/speech-prompts.js';
export type { SipTlsOptions } from './transport/sip-transport.js';
export { createCallCodec, ROOM_FRAME_SAMPLES, type CallCodec } from './rtp/call-codec.js';
export { SrtpProtection } from './rtp/srtp-protection.js';
export { newSrtpKeys } from './sdp/sdp-crypto.js';
export { negotiate, offerSecurity, writeSdp } from './sdp/sdp-negotiation.js';
