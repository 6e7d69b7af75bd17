import {
  RTCRtpCodecParameters,
  useAudioLevelIndication,
  useNACK,
  usePLI,
  useFIR,
  useREMB,
  useRepairedRtpStreamId,
  useSdesMid,
  useSdesRTPStreamId,
  useTWCC,
  useTransportWideCC,
  type RTCPeerConnectionConfig,
} from 'werift';
import type { IceNetworkSettings } from './ice-network.js';

/** Video feedback: NACK (answered by each sender from its history, sent upstream by each receiver), PLI/FIR, REMB. */
const videoFeedback = () => [useNACK(), usePLI(), useFIR(), useREMB()];

/**
 * The werift configuration every peer connection uses. No ICE servers: nothing contacts an outside
 * host (werift's default is a public STUN server). Full ICE: ice-lite broke Chrome. Audio negotiates
 * the `ssrc-audio-level` header extension: publishers' levels drive `SpeakersChanged` (active-speakers.ts).
 * Video is VP8 or H.264 (constrained baseline, packetization mode 1, what browsers and LiveKit's SDKs offer), without
 * RTX (werift's simulcast receiver takes one codec per section; losses are repaired by plain retransmission); the
 * `rtp-stream-id` extensions let simulcast publishers name their layers (decision 0114). `network` binds the sockets
 * to one address and a port range (the announced address is rewritten by the peer: werift has no 1:1 NAT setting).
 * With an announced `nodeIp` the endpoint probes no candidate a client signals, only the addresses the client's own
 * checks come from (as an ICE-lite SFU does): its sockets are reached through the announced address, and a probe
 * from the unannounced one would give the client a second path that bypasses it (a relay's cut would not cut).
 */
export function peerConfiguration(network: IceNetworkSettings = {}): RTCPeerConnectionConfig {
  return {
    iceServers: [],
    iceUseIpv6: false,
    ...(network.bindAddress ? { iceInterfaceAddresses: { udp4: network.bindAddress } } : {}),
    ...(network.nodeIp ? { iceFilterCandidatePair: () => false } : {}),
    ...(network.portRange ? { icePortRange: [network.portRange[0], network.portRange[1]] as [number, number] } : {}),
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
        new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96, rtcpFeedback: videoFeedback() }),
        new RTCRtpCodecParameters({
          mimeType: 'video/H264',
          clockRate: 90_000,
          payloadType: 102,
          parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
          rtcpFeedback: videoFeedback(),
        }),
      ],
    },
    headerExtensions: {
      audio: [useSdesMid(), useTransportWideCC(), useAudioLevelIndication()],
      video: [useSdesMid(), useSdesRTPStreamId(), useRepairedRtpStreamId()],
    },
  };
}
