import type { ClaimGrants } from 'livekit-server-sdk';
import type { LiveKitWebhookOutcome } from '../../../contract/sip.js';
import { NotFoundError } from '../../../errors/api-error.js';
import type { Logger } from 'pino';
import type { AgentDispatcher, TwirpAnswer } from '../../engines/media/index.js';
import type { EventBus } from '../../kernel/event-bus.js';
import type { SipCalls } from '../../kernel/ports/sip-calls.js';
import type { InboundCallRoute, SipDirectory } from '../../kernel/ports/sip-directory.js';
import type { Store } from '../../store/database.js';
import type { AppRunService } from '../apps/app-run-service.js';
import type { RealtimeSessionService } from '../realtime/realtime-session-service.js';
import { answerInboundCall, endAnsweredCall, type AnsweredCall, type CallAnswerDependencies } from './call-answer.js';
import { AnsweredCalls } from './answered-calls.js';
import { ForwardedCallAnswers } from './forwarded-answers.js';
import { forwardSipCall } from './sip-forwarding.js';
import { RoutedSipCalls, type SipCallParticipant } from './routed-sip-calls.js';
import { SipCallApi } from './sip-call-api.js';
import { StoredSipDirectory } from './sip-directory.js';
import { SipRepository } from './sip-repository.js';
import { SipRuleApi } from './sip-rule-api.js';
import { SipTrunkApi } from './sip-trunk-api.js';
import { SipTwirp } from './sip-twirp.js';

export interface SipServiceDependencies {
  store: Store;
  logger: Logger;
  /**
   * Where the `livekit.SIP` calls go: this server's database, tokens verified with the embedded endpoint's key pair
   * (`local`), or a LiveKit deployment's SIP service (`livekit`, with `LIVEKIT_URL`).
   */
  mode:
    | {
        kind: 'local';
        verify: (token: string | undefined) => Promise<ClaimGrants>;
        project: string;
        apiKeyProject: (key: string) => Promise<{ project: string; disabled: boolean } | undefined>;
      }
    | {
        kind: 'livekit';
        url: string;
        /** The deployment's key pair: its webhooks are signed with it, and it reads the deployment's dispatch rules. */
        apiKey: string | undefined;
        apiSecret: string | undefined;
        /** The project the deployment's calls belong to (its key pair's). */
        project: string;
      };
  realtime: Pick<RealtimeSessionService, 'start' | 'end'>;
  appRuns: Pick<AppRunService, 'create'>;
  dispatcher: Pick<AgentDispatcher, 'dispatch'>;
  /** Reaches the instance holding a call (transfers from any instance). */
  bus: EventBus;
}

/**
 * Telephony's service half (issue 32, decision 0109): LiveKit's `livekit.SIP` Twirp API over the platform's database,
 * the `SipDirectory` the SIP endpoint asks when a call arrives, and the start of what answers a call. The endpoint,
 * when it runs, hands its `SipCalls` with {@link useCalls}; until then placing a call answers `unavailable`.
 *
 * @example
 * services.sip.useCalls(endpoint);                                  // the SIP endpoint, once listening
 * const route = await services.sip.directory.dispatch(call, trunk); // an INVITE arrived
 * await services.sip.directory.answer(route);                      // the caller's participant joined the room
 * await services.sip.directory.callEnded(route);                   // BYE, either way
 */
export class SipService {
  /** Trunk matching and dispatch decisions for the SIP endpoint, read from the database on every call. */
  readonly directory: Required<SipDirectory>;
  private readonly twirp: SipTwirp | undefined;
  private readonly calls: RoutedSipCalls;
  private readonly forwardedAnswers: ForwardedCallAnswers | undefined;

  constructor(private readonly dependencies: SipServiceDependencies) {
    const repository = new SipRepository(dependencies.store);
    this.calls = new RoutedSipCalls(dependencies.bus, dependencies.logger);
    this.directory = new StoredSipDirectory(repository, this);
    const mode = dependencies.mode;
    if (mode.kind === 'local') {
      this.twirp = new SipTwirp({
        trunks: new SipTrunkApi(repository),
        rules: new SipRuleApi(repository),
        calls: new SipCallApi(this.directory, this.calls),
        verify: mode.verify,
        project: mode.project,
        apiKeyProject: mode.apiKeyProject,
      });
    } else {
      this.forwardedAnswers = new ForwardedCallAnswers({
        receive: async (body, authorization) => {
          if (!mode.apiKey || !mode.apiSecret) throw new Error('no LiveKit key pair is configured (LIVEKIT_API_KEY, LIVEKIT_API_SECRET)');
          const { WebhookReceiver } = await import('livekit-server-sdk');
          return new WebhookReceiver(mode.apiKey, mode.apiSecret).receive(body, authorization);
        },
        rule: async (ruleId) => {
          const { SipClient } = await import('livekit-server-sdk');
          const [rule] = await new SipClient(mode.url, mode.apiKey, mode.apiSecret).listSipDispatchRule({ dispatchRuleIds: [ruleId] });
          return rule;
        },
        answered: new AnsweredCalls(dependencies.store),
        project: mode.project,
        answering: this.answering(),
      });
    }
  }

  /** This instance's SIP endpoint, which places and transfers calls (undefined: it stopped). */
  useCalls(calls: SipCalls | undefined): void {
    this.calls.use(calls);
  }

  /**
   * A call of this instance's endpoint ended (the endpoint's `onCallEnded`): a transfer asked on any instance no
   * longer reaches it here.
   */
  callReleased(participant: SipCallParticipant): Promise<void> {
    return this.calls.callEnded(participant);
  }

  /** Releases the bus subscriptions of the calls this instance holds (shutdown, after the endpoint hung up). */
  close(): Promise<void> {
    return this.calls.close();
  }

  /** One `/twirp/livekit.SIP/<method>` call: the raw JSON body and the `Authorization` header. */
  async call(method: string, body: string, authorization: string | undefined): Promise<TwirpAnswer> {
    const mode = this.dependencies.mode;
    if (mode.kind === 'livekit') return forwardSipCall(mode.url, method, body, authorization);
    return this.twirp!.call(method, body, authorization);
  }

  /**
   * A webhook of the LiveKit deployment (`POST /livekit/webhook`, forwarded mode): a SIP caller joining a room whose
   * dispatch rule has a `palaver` answer starts it there. Without a deployment (the embedded endpoint answers its own
   * calls) it is `not_found`.
   */
  liveKitWebhook(body: string, authorization: string | undefined): Promise<LiveKitWebhookOutcome> {
    if (!this.forwardedAnswers)
      throw new NotFoundError('no LiveKit deployment is configured (LIVEKIT_URL): the embedded endpoint answers its calls itself and sends no webhooks here');
    return this.forwardedAnswers.receive(body, authorization);
  }

  /**
   * Starts what answers an inbound call (`route.answer`: the rule's realtime session or app run, and its LiveKit
   * Agents dispatches); the SIP endpoint calls it once the caller's participant is in `route.roomName`.
   */
  async answerCall(route: InboundCallRoute): Promise<AnsweredCall> {
    await this.calls.hostCall({ roomName: route.roomName, participantIdentity: route.participantIdentity });
    return answerInboundCall(this.answering(), route);
  }

  /** Ends what answered a call that is over (its realtime session at once); the endpoint calls it on hang-up. */
  callEnded(route: InboundCallRoute): Promise<void> {
    return endAnsweredCall(this.answering(), route);
  }

  private answering(): CallAnswerDependencies {
    const { realtime, appRuns, dispatcher, logger } = this.dependencies;
    return { realtime, appRuns, dispatcher, logger };
  }
}
