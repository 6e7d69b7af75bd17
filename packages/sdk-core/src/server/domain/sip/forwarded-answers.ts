import { ParticipantInfo_Kind, type ParticipantInfo, type SIPDispatchRuleInfo, type WebhookEvent } from '@livekit/protocol';
import type { LiveKitWebhookOutcome } from '../../../contract/sip.js';
import { SIP_CALL_ID_ATTRIBUTE, SIP_PHONE_NUMBER_ATTRIBUTE, SIP_RULE_ID_ATTRIBUTE } from '../../../contract/wire.js';
import { AuthenticationError, BadRequestError } from '../../../errors/api-error.js';
import type { InboundCallRoute } from '../../kernel/ports/sip-directory.js';
import { HostUnavailableError } from '../hosted-control.js';
import type { AnsweredCalls } from './answered-calls.js';
import { answerInboundCall, palaverAnswerOf, type CallAnswer, type CallAnswerDependencies } from './call-answer.js';

export interface ForwardedAnswerDependencies {
  /** Verifies a webhook's signature and reads its event (`livekit-server-sdk`'s `WebhookReceiver`, the deployment's key pair). */
  receive(body: string, authorization: string | undefined): Promise<WebhookEvent>;
  /** The deployment's dispatch rule by id (`SipClient.listSipDispatchRule`); undefined when it is gone. */
  rule(ruleId: string): Promise<SIPDispatchRuleInfo | undefined>;
  answered: AnsweredCalls;
  /** The project the deployment's calls belong to: its key pair's (decision 0109). */
  project: string;
  answering: CallAnswerDependencies;
}

/**
 * The `palaver` answer of dispatch rules in the forwarded mode (`LIVEKIT_URL`): LiveKit SIP places the caller in a
 * room of the deployment and tells the platform by webhook (`participant_joined`, participant kind SIP, with
 * `sip.ruleID`); the rule's realtime session or app run then starts in that room, its id being the room's name, as the
 * call's human in the project, exactly as the platform's own endpoint answers (`answerInboundCall`). One answer per
 * room, whichever delivery or instance comes first, and none for a call whose answer already started or ended
 * ({@link AnsweredCalls}). The caller leaving ends a session at once
 * (the agent sees a SIP participant leave); an app run ends by its empty-room rule.
 *
 * @example
 * const outcome = await answers.receive(await request.text(), request.headers.get('authorization') ?? undefined);
 */
export class ForwardedCallAnswers {
  constructor(private readonly dependencies: ForwardedAnswerDependencies) {}

  async receive(body: string, authorization: string | undefined): Promise<LiveKitWebhookOutcome> {
    const event = await this.verified(body, authorization);
    if (event.event !== 'participant_joined') return ignored(`a '${event.event}' event needs nothing from the platform`);
    const participant = event.participant;
    const room = event.room?.name;
    if (!participant || !room) throw new BadRequestError('a participant_joined event needs its room (room.name) and participant');
    if (participant.kind !== ParticipantInfo_Kind.SIP) return ignored(`'${participant.identity}' is not a SIP participant`);
    const ruleId = participant.attributes[SIP_RULE_ID_ATTRIBUTE];
    if (!ruleId) return ignored(`'${participant.identity}' was not placed by a dispatch rule (no ${SIP_RULE_ID_ATTRIBUTE})`);
    const rule = await this.rule(ruleId);
    if (!rule) return ignored(`dispatch rule '${ruleId}' no longer exists`);
    const palaver = palaverAnswerOf(rule.metadata);
    if (typeof palaver === 'string') return ignored(`dispatch rule '${ruleId}' has an invalid palaver answer: ${palaver}`);
    if (!palaver?.realtime && !palaver?.app_run)
      return ignored(`dispatch rule '${ruleId}' has no palaver answer (its roomConfig.agents are the deployment's to dispatch)`);

    const answer: CallAnswer = palaver.realtime
      ? { palaver: { kind: 'realtime_session', sessionId: room, config: palaver.realtime }, agents: [] }
      : { palaver: { kind: 'app_run', runId: room, request: palaver.app_run! }, agents: [] };
    const route = routeOf(this.dependencies.project, ruleId, room, participant, answer, palaver.human);
    const claimed = await this.dependencies.answered.claim(route.project, room, {
      ruleId,
      participantIdentity: participant.identity,
      callId: participant.attributes[SIP_CALL_ID_ATTRIBUTE] ?? '',
      answer: answer.palaver!.kind,
    });
    if (!claimed) return { outcome: 'already_answered', room };
    try {
      const started = await answerInboundCall(this.dependencies.answering, route);
      // The session or run (named after the room) now stands for the answer: the claim would only pile up.
      await this.dependencies.answered.settle(room).catch((error: unknown) => {
        this.dependencies.answering.logger.warn({ err: error, room }, 'the claim of an answered SIP call was not removed (swept later)');
      });
      return {
        outcome: 'answered',
        room,
        ...(started.sessionId ? { session_id: started.sessionId } : {}),
        ...(started.runId ? { run_id: started.runId } : {}),
      };
    } catch (error) {
      // Nothing answers: a later delivery of the event may try again.
      await this.dependencies.answered.release(room);
      throw error;
    }
  }

  private async verified(body: string, authorization: string | undefined): Promise<WebhookEvent> {
    try {
      return await this.dependencies.receive(body, authorization?.replace(/^Bearer\s+/i, ''));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The signature held, the body did not read as LiveKit's WebhookEvent.
      if (error instanceof SyntaxError || /^cannot decode /.test(message))
        throw new BadRequestError(`the webhook body is not a LiveKit WebhookEvent: ${message}`);
      throw new AuthenticationError(`the webhook is not signed by the configured LiveKit key pair: ${message}`);
    }
  }

  private async rule(ruleId: string): Promise<SIPDispatchRuleInfo | undefined> {
    try {
      return await this.dependencies.rule(ruleId);
    } catch (error) {
      throw new HostUnavailableError(`the LiveKit deployment's SIP service did not answer for dispatch rule '${ruleId}': ${(error as Error).message}`, error);
    }
  }
}

function ignored(reason: string): LiveKitWebhookOutcome {
  return { outcome: 'ignored', reason };
}

/** The call as the platform's own endpoint would have routed it: LiveKit SIP already chose the room and participant. */
function routeOf(project: string, ruleId: string, room: string, participant: ParticipantInfo, answer: CallAnswer, human: string | undefined): InboundCallRoute {
  return {
    ruleId,
    project,
    roomName: room,
    participantIdentity: participant.identity,
    participantName: participant.name,
    participantMetadata: participant.metadata,
    participantAttributes: { ...participant.attributes },
    human: human ?? (participant.attributes[SIP_PHONE_NUMBER_ATTRIBUTE] || participant.identity),
    pin: '',
    answer,
  };
}
