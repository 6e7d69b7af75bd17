import {
  CreateSIPDispatchRuleRequest,
  DeleteSIPDispatchRuleRequest,
  ListSIPDispatchRuleRequest,
  ListSIPDispatchRuleResponse,
  SIPDispatchRuleInfo,
  UpdateSIPDispatchRuleRequest,
} from '@livekit/protocol';
import { palaverAnswerOf } from './call-answer.js';
import { dispatchRuleConflict, roomAndPin } from './dispatch-rules.js';
import { applyListUpdate, pageOf } from './list-update.js';
import type { SipRepository } from './sip-repository.js';
import { demand, type RequestJson, TwirpFailure } from './twirp-wire.js';

const parse = { ignoreUnknownFields: true } as const;

/**
 * LiveKit's dispatch rule calls of the `livekit.SIP` service on the platform's database: create (the rule whole in
 * `dispatch_rule`, or its fields at the top level as older clients send), list, update (replace or field updates) and
 * delete, refusing a rule without a kind, a direct rule without a room, trunks the project does not have, conflicting
 * rules, and a `palaver` answer in the metadata that is not one (decision 0109).
 */
export class SipRuleApi {
  constructor(private readonly repository: SipRepository) {}

  async create(project: string, json: RequestJson): Promise<SIPDispatchRuleInfo> {
    const request = CreateSIPDispatchRuleRequest.fromJson(json, parse);
    const rule =
      request.dispatchRule ??
      new SIPDispatchRuleInfo({
        rule: request.rule,
        trunkIds: request.trunkIds,
        hidePhoneNumber: request.hidePhoneNumber,
        inboundNumbers: request.inboundNumbers,
        name: request.name,
        metadata: request.metadata,
        attributes: request.attributes,
        roomPreset: request.roomPreset,
        roomConfig: request.roomConfig,
      });
    demand(!rule.sipDispatchRuleId, 'dispatch rule ID must be empty');
    return this.repository.serialised(project, async (repository) => {
      await check(repository, project, rule);
      return repository.insertRule(project, rule);
    });
  }

  async list(project: string, json: RequestJson): Promise<ListSIPDispatchRuleResponse> {
    const request = ListSIPDispatchRuleRequest.fromJson(json, parse);
    const items = (await this.repository.rules(project)).filter(
      (rule) =>
        (request.dispatchRuleIds.length === 0 || request.dispatchRuleIds.includes(rule.sipDispatchRuleId)) &&
        (request.trunkIds.length === 0 || rule.trunkIds.length === 0 || rule.trunkIds.some((id) => request.trunkIds.includes(id))),
    );
    return new ListSIPDispatchRuleResponse({ items: pageOf(items, (rule) => rule.sipDispatchRuleId, request.page) });
  }

  async update(project: string, json: RequestJson): Promise<SIPDispatchRuleInfo> {
    const request = UpdateSIPDispatchRuleRequest.fromJson(json, parse);
    const current = await this.found(project, request.sipDispatchRuleId);
    const action = request.action;
    demand(action.case, 'replace or update is required');
    let next: SIPDispatchRuleInfo;
    if (action.case === 'replace') {
      next = new SIPDispatchRuleInfo({ ...action.value, sipDispatchRuleId: current.sipDispatchRuleId, createdAt: current.createdAt });
    } else {
      const fields = action.value;
      next = current.clone();
      next.trunkIds = applyListUpdate(current.trunkIds, fields.trunkIds);
      if (fields.rule) next.rule = fields.rule;
      if (fields.name !== undefined) next.name = fields.name;
      if (fields.metadata !== undefined) next.metadata = fields.metadata;
      if (Object.keys(fields.attributes).length > 0) next.attributes = { ...fields.attributes };
      if (fields.mediaEncryption !== undefined) next.mediaEncryption = fields.mediaEncryption;
      if (fields.media) next.media = fields.media;
    }
    return this.repository.serialised(project, async (repository) => {
      await check(repository, project, next);
      if (!(await repository.replaceRule(project, next))) throw notFound(request.sipDispatchRuleId);
      return next;
    });
  }

  async delete(project: string, json: RequestJson): Promise<SIPDispatchRuleInfo> {
    const { sipDispatchRuleId } = DeleteSIPDispatchRuleRequest.fromJson(json, parse);
    demand(sipDispatchRuleId, 'sip_dispatch_rule_id is required');
    const deleted = await this.repository.deleteRule(project, sipDispatchRuleId);
    if (!deleted) throw notFound(sipDispatchRuleId);
    return deleted;
  }

  private async found(project: string, id: string): Promise<SIPDispatchRuleInfo> {
    demand(id, 'sip_dispatch_rule_id is required');
    const rule = await this.repository.rule(project, id);
    if (!rule) throw notFound(id);
    return rule;
  }
}

/** What LiveKit checks of a rule, and that its trunks are the project's inbound trunks. */
async function check(repository: SipRepository, project: string, rule: SIPDispatchRuleInfo): Promise<void> {
  const target = roomAndPin(rule);
  demand(target, 'rule is required: dispatch_rule_direct, dispatch_rule_individual or dispatch_rule_callee');
  demand(rule.rule?.rule.case !== 'dispatchRuleDirect' || target.room, 'dispatch_rule_direct needs a room_name');
  demand(/^\d*$/.test(target.pin), 'pin must be digits');
  const answer = palaverAnswerOf(rule.metadata);
  demand(typeof answer !== 'string', `metadata.palaver is not a call answer: ${answer as string}`);
  for (const trunkId of rule.trunkIds) {
    const trunk = await repository.trunk(trunkId, project);
    demand(trunk?.direction === 'inbound', `trunk_ids: no inbound SIP trunk '${trunkId}' in this project`);
  }
  const others = (await repository.rules(project)).filter((other) => other.sipDispatchRuleId !== rule.sipDispatchRuleId);
  const conflict = dispatchRuleConflict([...others, rule]);
  demand(!conflict, conflict!);
}

function notFound(id: string): TwirpFailure {
  return new TwirpFailure('not_found', `SIP dispatch rule '${id}' not found`);
}
