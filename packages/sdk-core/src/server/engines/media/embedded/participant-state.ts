import { ParticipantInfo, ParticipantInfo_Kind, ParticipantInfo_State, ParticipantPermission, type DisconnectReason } from '@livekit/protocol';
import { newSid } from './published-audio-track.js';
import type { PublishedTrack } from './published-track.js';

export interface ParticipantInit {
  identity: string;
  name?: string;
  metadata?: string;
  attributes?: Record<string, string>;
  kind?: ParticipantInfo_Kind;
  canPublish?: boolean;
  canSubscribe?: boolean;
  canPublishData?: boolean;
  canUpdateMetadata?: boolean;
  hidden?: boolean;
  agent?: boolean;
  clientProtocol?: number;
  /** The client SDK it joined with (`js` for livekit-client; '' unknown). */
  clientSdk?: string;
}

/** Maps the token's `kind` claim to the protocol enum. */
export function participantKindFromClaim(kind: string | undefined, agentGrant: boolean): ParticipantInfo_Kind {
  switch (kind) {
    case 'agent':
      return ParticipantInfo_Kind.AGENT;
    case 'ingress':
      return ParticipantInfo_Kind.INGRESS;
    case 'egress':
      return ParticipantInfo_Kind.EGRESS;
    case 'sip':
      return ParticipantInfo_Kind.SIP;
    default:
      return agentGrant ? ParticipantInfo_Kind.AGENT : ParticipantInfo_Kind.STANDARD;
  }
}

/**
 * What the room knows about one participant, versioned the way clients expect (`version` grows
 * with every change so clients drop stale updates).
 *
 * @example
 * const state = new ParticipantState({ identity: 'human_1', kind: ParticipantInfo_Kind.STANDARD });
 * if (state.update({ attributes: { mood: 'happy' } })) room.broadcastParticipant(member);
 */
export class ParticipantState {
  readonly sid = newSid('PA');
  readonly identity: string;
  readonly joinedAtMs = Date.now();
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  readonly kind: ParticipantInfo_Kind;
  readonly permission: ParticipantPermission;
  readonly clientProtocol: number;
  readonly clientSdk: string;
  state = ParticipantInfo_State.JOINING;
  disconnectReason: DisconnectReason | undefined;
  readonly tracks = new Map<string, PublishedTrack>();
  private version = 1;

  constructor(init: ParticipantInit) {
    this.identity = init.identity;
    this.name = init.name ?? '';
    this.metadata = init.metadata ?? '';
    this.attributes = { ...init.attributes };
    this.kind = init.kind ?? ParticipantInfo_Kind.STANDARD;
    this.clientProtocol = init.clientProtocol ?? 0;
    this.clientSdk = init.clientSdk ?? '';
    this.permission = new ParticipantPermission({
      canPublish: init.canPublish ?? true,
      canSubscribe: init.canSubscribe ?? true,
      canPublishData: init.canPublishData ?? true,
      canUpdateMetadata: init.canUpdateMetadata ?? false,
      hidden: init.hidden ?? false,
      agent: init.agent ?? this.kind === ParticipantInfo_Kind.AGENT,
    });
  }

  /** Records a change; call before broadcasting the new info. */
  touch(): void {
    this.version += 1;
  }

  /** Applies a metadata/name/attributes update (empty attribute values delete keys). Returns whether anything changed. */
  update(change: { name?: string | undefined; metadata?: string | undefined; attributes?: Record<string, string> | undefined }): boolean {
    let changed = false;
    if (change.name !== undefined && change.name !== this.name) {
      this.name = change.name;
      changed = true;
    }
    if (change.metadata !== undefined && change.metadata !== this.metadata) {
      this.metadata = change.metadata;
      changed = true;
    }
    for (const [key, value] of Object.entries(change.attributes ?? {})) {
      if (value === '') {
        if (key in this.attributes) {
          delete this.attributes[key];
          changed = true;
        }
      } else if (this.attributes[key] !== value) {
        this.attributes[key] = value;
        changed = true;
      }
    }
    if (changed) this.touch();
    return changed;
  }

  info(): ParticipantInfo {
    return new ParticipantInfo({
      sid: this.sid,
      identity: this.identity,
      name: this.name,
      metadata: this.metadata,
      attributes: { ...this.attributes },
      state: this.state,
      kind: this.kind,
      tracks: [...this.tracks.values()].map((track) => track.info.clone()),
      joinedAt: BigInt(Math.floor(this.joinedAtMs / 1000)),
      joinedAtMs: BigInt(this.joinedAtMs),
      version: this.version,
      permission: this.permission.clone(),
      isPublisher: this.tracks.size > 0,
      clientProtocol: this.clientProtocol,
      ...(this.disconnectReason !== undefined ? { disconnectReason: this.disconnectReason } : {}),
    });
  }
}
