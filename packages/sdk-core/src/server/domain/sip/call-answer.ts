import type { SIPDispatchRuleInfo } from '@livekit/protocol';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { CreateAppRunRequest } from '../../../contract/app-runs.js';
import { RealtimeSessionStartRequest } from '../../../contract/realtime.js';
import { SipRuleMetadata, type SipCallAnswer } from '../../../contract/sip.js';
import type { AgentDispatcher } from '../../engines/media/index.js';
import type { InboundCallRoute } from '../../kernel/ports/sip-directory.js';
import type { Principal } from '../../kernel/principal.js';
import { newId } from '../../store/ids.js';
import type { AppRunService } from '../apps/app-run-service.js';
import type { RealtimeSessionService } from '../realtime/realtime-session-service.js';

/**
 * What answers a call (`InboundCallRoute.answer`): the platform's own answer named in the rule's metadata (a realtime
 * session or an app run, with the id chosen now: the call's room is named after it), and the LiveKit Agents workers
 * of the rule's `roomConfig.agents`. With neither, the call waits in its room as with LiveKit and no agent.
 */
export interface CallAnswer {
  palaver?:
    | { kind: 'realtime_session'; sessionId: string; config: NonNullable<SipCallAnswer['realtime']> }
    | { kind: 'app_run'; runId: string; request: NonNullable<SipCallAnswer['app_run']> };
  agents: Array<{ agentName: string; metadata: string }>;
}

/**
 * The `palaver` key of a rule's metadata: undefined when the metadata is no JSON object or has no such key; a string
 * (what is wrong) when the key is there but not a valid answer.
 */
export function palaverAnswerOf(metadata: string): SipCallAnswer | string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(metadata);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json) || !('palaver' in json)) return undefined;
  const parsed = SipRuleMetadata.safeParse(json);
  if (!parsed.success) return parsed.error.issues.map((issue) => `metadata.${issue.path.join('.')}: ${issue.message}`).join('; ');
  return parsed.data.palaver;
}

/** The answer of a call the rule places, and the room it imposes (the session's or run's id) when the platform answers. */
export function planAnswer(rule: SIPDispatchRuleInfo): { answer: CallAnswer; room?: string; human?: string } {
  const agents = (rule.roomConfig?.agents ?? []).map((agent) => ({ agentName: agent.agentName, metadata: agent.metadata }));
  const palaver = palaverAnswerOf(rule.metadata);
  if (palaver === undefined || typeof palaver === 'string') return { answer: { agents } };
  const human = palaver.human;
  if (palaver.realtime) {
    const sessionId = newId('rts');
    return { answer: { palaver: { kind: 'realtime_session', sessionId, config: palaver.realtime }, agents }, room: sessionId, ...(human ? { human } : {}) };
  }
  if (palaver.app_run) {
    const runId = newId('run');
    return { answer: { palaver: { kind: 'app_run', runId, request: palaver.app_run }, agents }, room: runId, ...(human ? { human } : {}) };
  }
  return { answer: { agents }, ...(human ? { human } : {}) };
}

export interface CallAnswerDependencies {
  realtime: Pick<RealtimeSessionService, 'start' | 'end'>;
  appRuns: Pick<AppRunService, 'create'>;
  dispatcher: Pick<AgentDispatcher, 'dispatch'>;
  logger: Logger;
}

/** What {@link answerInboundCall} started for a call. */
export interface AnsweredCall {
  sessionId?: string;
  runId?: string;
  /** Dispatches of LiveKit Agents workers into the call's room. */
  dispatchIds: string[];
}

/**
 * Starts what answers an inbound call, once the caller's participant is in the call's room (the SIP endpoint calls
 * it, through `SipService.answerCall`): the rule's realtime session (the built-in agent, or the worker its
 * `general.agent` names) or app run, made as the call's human in the trunk's project, and the dispatches of the rule's
 * `roomConfig.agents`. The session's or run's conversational seconds are the human's (the caller's number unless the
 * rule's `palaver.human` names one). Rejects when the answer could not start (the endpoint then ends the call).
 *
 * @example
 * await answerInboundCall({ realtime, appRuns, dispatcher: media.dispatcher, logger }, route);
 */
export async function answerInboundCall(dependencies: CallAnswerDependencies, route: InboundCallRoute): Promise<AnsweredCall> {
  const answer = route.answer as CallAnswer;
  const principal = principalOf(route);
  const answered: AnsweredCall = { dispatchIds: [] };
  const palaver = answer.palaver;
  if (palaver?.kind === 'realtime_session') {
    const request: z.output<typeof RealtimeSessionStartRequest> = RealtimeSessionStartRequest.parse({ config: palaver.config });
    await dependencies.realtime.start(principal, request, { id: palaver.sessionId, humanIdentity: route.participantIdentity });
    answered.sessionId = palaver.sessionId;
  } else if (palaver?.kind === 'app_run') {
    await dependencies.appRuns.create(principal, CreateAppRunRequest.parse({ ...palaver.request, run_id: palaver.runId }));
    answered.runId = palaver.runId;
  }
  for (const agent of answer.agents) {
    const { id } = await dependencies.dispatcher.dispatch({ room: route.roomName, agentName: agent.agentName, metadata: agent.metadata });
    answered.dispatchIds.push(id);
  }
  dependencies.logger.info({ room: route.roomName, rule: route.ruleId, ...answered }, 'SIP call answered');
  return answered;
}

/**
 * Ends what answered a call once the call is over: its realtime session ends now (from any instance: the session
 * service reaches the one hosting the agent), instead of after the human-left grace a browser gets to come back.
 * An app run ends by its own rule (its room stays empty). Failures are logged, never thrown.
 *
 * @example
 * await endAnsweredCall({ realtime, appRuns, dispatcher, logger }, route);
 */
export async function endAnsweredCall(dependencies: CallAnswerDependencies, route: InboundCallRoute): Promise<void> {
  const palaver = (route.answer as CallAnswer | undefined)?.palaver;
  if (palaver?.kind !== 'realtime_session') return;
  await dependencies.realtime.end(principalOf(route), palaver.sessionId).catch((error: unknown) => {
    dependencies.logger.warn({ err: error, session: palaver.sessionId }, 'the session of an ended SIP call could not be ended');
  });
}

/** The call's principal: its human in the trunk's project, as the rule's call. */
function principalOf(route: InboundCallRoute): Principal {
  return { project: route.project, kind: 'key', human: route.human, credentialId: `sip:${route.ruleId}` };
}
