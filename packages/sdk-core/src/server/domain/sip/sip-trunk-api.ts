import {
  CreateSIPInboundTrunkRequest,
  CreateSIPOutboundTrunkRequest,
  DeleteSIPTrunkRequest,
  GetSIPInboundTrunkRequest,
  GetSIPInboundTrunkResponse,
  GetSIPOutboundTrunkRequest,
  GetSIPOutboundTrunkResponse,
  ListSIPInboundTrunkRequest,
  ListSIPInboundTrunkResponse,
  ListSIPOutboundTrunkRequest,
  ListSIPOutboundTrunkResponse,
  SIPInboundTrunkInfo,
  SIPOutboundTrunkInfo,
  SIPTrunkInfo,
  SIPTrunkInfo_TrunkKind,
  UpdateSIPInboundTrunkRequest,
  UpdateSIPOutboundTrunkRequest,
} from '@livekit/protocol';
import { applyListUpdate, pageOf } from './list-update.js';
import type { SipRepository } from './sip-repository.js';
import { addressEntry, inboundTrunkConflict, normalizeNumber } from './trunk-matching.js';
import { demand, type RequestJson, TwirpFailure } from './twirp-wire.js';

const parse = { ignoreUnknownFields: true } as const;

/**
 * LiveKit's trunk calls of the `livekit.SIP` service on the platform's database: create, get, list, update and
 * delete inbound and outbound trunks of one project, refusing what LiveKit refuses (an inbound trunk anyone could
 * call in through, conflicting inbound trunks, an outbound trunk without address or number) with `invalid_argument`.
 */
export class SipTrunkApi {
  constructor(private readonly repository: SipRepository) {}

  async createInbound(project: string, json: RequestJson): Promise<SIPInboundTrunkInfo> {
    const { trunk } = CreateSIPInboundTrunkRequest.fromJson(json, parse);
    demand(trunk, 'trunk is required');
    demand(!trunk.sipTrunkId, 'trunk ID must be empty');
    return this.repository.serialised(project, async (repository) => {
      await checkInbound(repository, project, trunk);
      return repository.insertInbound(project, trunk);
    });
  }

  async createOutbound(project: string, json: RequestJson): Promise<SIPOutboundTrunkInfo> {
    const { trunk } = CreateSIPOutboundTrunkRequest.fromJson(json, parse);
    demand(trunk, 'trunk is required');
    demand(!trunk.sipTrunkId, 'trunk ID must be empty');
    checkOutbound(trunk);
    return this.repository.insertOutbound(project, trunk);
  }

  async getInbound(project: string, json: RequestJson): Promise<GetSIPInboundTrunkResponse> {
    const { sipTrunkId } = GetSIPInboundTrunkRequest.fromJson(json, parse);
    return new GetSIPInboundTrunkResponse({ trunk: await this.inbound(project, sipTrunkId) });
  }

  async getOutbound(project: string, json: RequestJson): Promise<GetSIPOutboundTrunkResponse> {
    const { sipTrunkId } = GetSIPOutboundTrunkRequest.fromJson(json, parse);
    return new GetSIPOutboundTrunkResponse({ trunk: await this.outbound(project, sipTrunkId) });
  }

  async listInbound(project: string, json: RequestJson): Promise<ListSIPInboundTrunkResponse> {
    const request = ListSIPInboundTrunkRequest.fromJson(json, parse);
    const numbers = request.numbers.map(normalizeNumber);
    const items = (await this.repository.inboundTrunks(project)).filter(
      (trunk) =>
        (request.trunkIds.length === 0 || request.trunkIds.includes(trunk.sipTrunkId)) &&
        (numbers.length === 0 || trunk.numbers.some((number) => numbers.includes(normalizeNumber(number)))),
    );
    return new ListSIPInboundTrunkResponse({ items: pageOf(items, (trunk) => trunk.sipTrunkId, request.page) });
  }

  async listOutbound(project: string, json: RequestJson): Promise<ListSIPOutboundTrunkResponse> {
    const request = ListSIPOutboundTrunkRequest.fromJson(json, parse);
    const numbers = request.numbers.map(normalizeNumber);
    const items = (await this.repository.outboundTrunks(project)).filter(
      (trunk) =>
        (request.trunkIds.length === 0 || request.trunkIds.includes(trunk.sipTrunkId)) &&
        (numbers.length === 0 || trunk.numbers.some((number) => numbers.includes(normalizeNumber(number)))),
    );
    return new ListSIPOutboundTrunkResponse({ items: pageOf(items, (trunk) => trunk.sipTrunkId, request.page) });
  }

  async updateInbound(project: string, json: RequestJson): Promise<SIPInboundTrunkInfo> {
    const request = UpdateSIPInboundTrunkRequest.fromJson(json, parse);
    const current = await this.inbound(project, request.sipTrunkId);
    const action = request.action;
    demand(action.case, 'replace or update is required');
    let next: SIPInboundTrunkInfo;
    if (action.case === 'replace') next = new SIPInboundTrunkInfo({ ...action.value, sipTrunkId: current.sipTrunkId, createdAt: current.createdAt });
    else {
      const fields = action.value;
      next = current.clone();
      next.numbers = applyListUpdate(current.numbers, fields.numbers);
      next.allowedAddresses = applyListUpdate(current.allowedAddresses, fields.allowedAddresses);
      next.allowedNumbers = applyListUpdate(current.allowedNumbers, fields.allowedNumbers);
      for (const key of ['authUsername', 'authPassword', 'authRealm', 'name', 'metadata', 'mediaEncryption', 'media'] as const) {
        if (fields[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = fields[key];
      }
    }
    return this.repository.serialised(project, async (repository) => {
      await checkInbound(repository, project, next);
      if (!(await repository.replaceTrunk(project, next))) throw notFound(request.sipTrunkId);
      return next;
    });
  }

  async updateOutbound(project: string, json: RequestJson): Promise<SIPOutboundTrunkInfo> {
    const request = UpdateSIPOutboundTrunkRequest.fromJson(json, parse);
    const current = await this.outbound(project, request.sipTrunkId);
    const action = request.action;
    demand(action.case, 'replace or update is required');
    let next: SIPOutboundTrunkInfo;
    if (action.case === 'replace') next = new SIPOutboundTrunkInfo({ ...action.value, sipTrunkId: current.sipTrunkId, createdAt: current.createdAt });
    else {
      const fields = action.value;
      next = current.clone();
      next.numbers = applyListUpdate(current.numbers, fields.numbers);
      for (const key of [
        'address',
        'transport',
        'destinationCountry',
        'authUsername',
        'authPassword',
        'name',
        'metadata',
        'mediaEncryption',
        'media',
        'fromHost',
      ] as const) {
        if (fields[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = fields[key];
      }
    }
    checkOutbound(next);
    if (!(await this.repository.replaceTrunk(project, next))) throw notFound(request.sipTrunkId);
    return next;
  }

  /** Deletes a trunk of either direction; answers it in LiveKit's older `SIPTrunkInfo` shape, as LiveKit does. */
  async delete(project: string, json: RequestJson): Promise<SIPTrunkInfo> {
    const { sipTrunkId } = DeleteSIPTrunkRequest.fromJson(json, parse);
    demand(sipTrunkId, 'sip_trunk_id is required');
    const deleted = await this.repository.deleteTrunk(project, sipTrunkId);
    if (!deleted) throw notFound(sipTrunkId);
    const { trunk } = deleted;
    const kind = deleted.direction === 'inbound' ? SIPTrunkInfo_TrunkKind.TRUNK_INBOUND : SIPTrunkInfo_TrunkKind.TRUNK_OUTBOUND;
    return new SIPTrunkInfo({ sipTrunkId: trunk.sipTrunkId, kind, name: trunk.name, metadata: trunk.metadata });
  }

  private async inbound(project: string, id: string): Promise<SIPInboundTrunkInfo> {
    demand(id, 'sip_trunk_id is required');
    const stored = await this.repository.trunk(id, project);
    if (stored?.direction !== 'inbound') throw notFound(id);
    return stored.trunk;
  }

  private async outbound(project: string, id: string): Promise<SIPOutboundTrunkInfo> {
    demand(id, 'sip_trunk_id is required');
    const stored = await this.repository.trunk(id, project);
    if (stored?.direction !== 'outbound') throw notFound(id);
    return stored.trunk;
  }
}

/** An inbound trunk must say who may call through it, and must not claim calls another trunk of the project claims. */
async function checkInbound(repository: SipRepository, project: string, trunk: SIPInboundTrunkInfo): Promise<void> {
  demand(
    trunk.numbers.length > 0 || trunk.allowedAddresses.length > 0 || trunk.allowedNumbers.length > 0 || trunk.authUsername,
    'for security, one of the fields must be set: numbers, allowed_addresses, allowed_numbers or auth_username',
  );
  demand(Boolean(trunk.authUsername) === Boolean(trunk.authPassword), 'auth_username and auth_password go together');
  for (const entry of trunk.allowedAddresses) demand(addressEntry(entry), `allowed_addresses: '${entry}' is neither an IP address nor a CIDR range`);
  const others = (await repository.inboundTrunks(project)).filter((other) => other.sipTrunkId !== trunk.sipTrunkId);
  const conflict = inboundTrunkConflict([...others, trunk]);
  demand(!conflict, conflict!);
}

function checkOutbound(trunk: SIPOutboundTrunkInfo): void {
  demand(trunk.address, 'address is required (the SIP host of the provider, host[:port])');
  demand(trunk.numbers.length > 0, 'numbers are required (the number calls come from)');
  demand(Boolean(trunk.authUsername) === Boolean(trunk.authPassword), 'auth_username and auth_password go together');
}

function notFound(id: string): TwirpFailure {
  return new TwirpFailure('not_found', `SIP trunk '${id}' not found`);
}
