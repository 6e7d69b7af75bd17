import {
  RTCRtpCodecParameters,
  useAudioLevelIndication,
  useNACK,
  usePLI,
  useREMB,
  useSdesMid,
  useTWCC,
  useTransportWideCC,
  type RTCPeerConnectionConfig,
} from 'werift';

/**
 * The werift configuration every peer connection uses. No ICE servers: nothing contacts an outside
 * host (werift's default is a public STUN server). VP8 is configured although rooms are audio-only,
 * so the client's recvonly video m-sections are answered `inactive` instead of rejected (rejected
 * slots get recycled by Chrome and break later renegotiation). Full ICE: ice-lite broke Chrome. Audio negotiates
 * the `ssrc-audio-level` header extension: publishers' levels drive `SpeakersChanged` (active-speakers.ts).
 */
export function peerConfiguration(): RTCPeerConnectionConfig {
  return {
    iceServers: [],
    iceUseIpv6: false,
    codecs: {
      audio: [
        new RTCRtpCodecParameters({
          mimeType: 'audio/opus',
          clockRate: 48_000,
          channels: 2,
          payloadType: 111,
          parameters: 'minptime=10;useinbandfec=1',
          rtcpFeedback: [useTWCC()],
        }),
      ],
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/VP8',
          clockRate: 90_000,
          payloadType: 96,
          rtcpFeedback: [useNACK(), usePLI(), useREMB()],
        }),
      ],
    },
    headerExtensions: {
      audio: [useSdesMid(), useTransportWideCC(), useAudioLevelIndication()],
      video: [useSdesMid()],
    },
  };
}
