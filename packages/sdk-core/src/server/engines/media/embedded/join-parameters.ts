import { gunzipSync } from 'node:zlib';
import { ClientInfo_SDK, JoinRequest, WrappedJoinRequest, WrappedJoinRequest_Compression, type SessionDescription } from '@livekit/protocol';

/** Largest accepted `join_request` (base64): an offer with many m-sections stays well below. */
const MAX_JOIN_REQUEST_CHARS = 64 * 1024;

/** What a client asks for when it opens the signalling socket. */
export interface JoinParameters {
  /** 1 = single peer connection (`/rtc/v1`), 0 = dual (`/rtc`). */
  protocolVersion: 0 | 1;
  reconnect: boolean;
  participantSid: string | undefined;
  autoSubscribe: boolean;
  /** Client protocol number (ClientInfo.protocol). */
  clientProtocol: number;
  /** The client SDK (ClientInfo.sdk lower-cased: `js` for livekit-client, `node`, `rust`, ...; '' when unknown). */
  clientSdk: string;
  publisherOffer: SessionDescription | undefined;
  metadata: string | undefined;
  attributes: Record<string, string>;
}

export class JoinParameterError extends Error {
  override name = 'JoinParameterError';
}

/** ClientInfo.sdk as the v0 `sdk` query parameter spells it ('' for UNKNOWN). */
function sdkName(sdk: ClientInfo_SDK | undefined): string {
  if (sdk === undefined || sdk === ClientInfo_SDK.UNKNOWN) return '';
  return (ClientInfo_SDK[sdk] ?? '').toLowerCase();
}

const truthy = (value: string | null): boolean => value === '1' || value === 'true';

/**
 * Parses the connect URL of either signalling path (v0 query flags or the v1 `join_request`).
 *
 * @example
 * const parameters = parseJoinParameters(new URL(request.url, 'http://host'), 1);
 */
export function parseJoinParameters(url: URL, protocolVersion: 0 | 1): JoinParameters {
  if (protocolVersion === 0) {
    return {
      protocolVersion,
      reconnect: truthy(url.searchParams.get('reconnect')),
      participantSid: url.searchParams.get('sid') ?? undefined,
      autoSubscribe: url.searchParams.get('auto_subscribe') !== '0',
      clientProtocol: Number(url.searchParams.get('protocol') ?? 0) || 0,
      clientSdk: (url.searchParams.get('sdk') ?? '').toLowerCase().slice(0, 32),
      publisherOffer: undefined,
      metadata: undefined,
      attributes: {},
    };
  }
  const encoded = url.searchParams.get('join_request');
  if (!encoded) throw new JoinParameterError('join_request is required');
  if (encoded.length > MAX_JOIN_REQUEST_CHARS) throw new JoinParameterError('join_request is too large');
  let request: JoinRequest;
  try {
    const wrapped = WrappedJoinRequest.fromBinary(Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    const bytes =
      wrapped.compression === WrappedJoinRequest_Compression.GZIP ? gunzipSync(wrapped.joinRequest, { maxOutputLength: 1024 * 1024 }) : wrapped.joinRequest;
    request = JoinRequest.fromBinary(bytes);
  } catch (error) {
    throw new JoinParameterError(`join_request is malformed: ${(error as Error).message}`);
  }
  return {
    protocolVersion,
    reconnect: request.reconnect,
    participantSid: request.participantSid || undefined,
    autoSubscribe: request.connectionSettings?.autoSubscribe ?? true,
    clientProtocol: request.clientInfo?.protocol ?? 0,
    clientSdk: sdkName(request.clientInfo?.sdk),
    publisherOffer: request.publisherOffer,
    metadata: request.metadata || undefined,
    attributes: request.participantAttributes,
  };
}
