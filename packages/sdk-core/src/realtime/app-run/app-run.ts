import { EventEmitter } from 'eventemitter3';
import type { CreateAppRunFromGraphRequest, CreateAppRunRequest } from '../../contract/app-runs.js';
import type { GraphInput } from '../../contract/apps.js';
import type { ClientPadValue } from '../../contract/graph/pad-values.js';
import type { RuntimeEventPayload, RuntimeLogItem } from '../../contract/graph/runtime-api.js';
import { RUNTIME_API_TOPIC } from '../../contract/wire.js';
import { AbortError, ConnectionError } from '../../errors/transport-errors.js';
import type { ClientToolHandler } from '../client-tools.js';
import { RealtimeSession, loadSessionIo, type AudioSource, type RealtimeSessionOptions } from '../realtime-session.js';
import type { RealtimeEnd, RealtimeStatus } from '../session-state.js';
import { initialAppRunState, padKey, type AppRunState } from './app-run-state.js';
import { EventSequence } from './event-sequence.js';
import { toClientPadValue } from './pad-input.js';
import { RuntimeApiClient } from './runtime-api-client.js';

export interface AppRunOptions extends Omit<RealtimeSessionOptions, 'microphoneTrackName' | 'cameraTrackName'> {
  /**
   * The Publish node the microphone and the camera feed: their tracks are named `<node id>:audio` and
   * `<node id>:video`. Without it they are plain ones, which every Publish node of the run takes (a screen share
   * is always plain).
   */
  publishNode?: string;
  /**
   * The run's graph, when you have it: pushed plain values are typed by their pads' types and unknown nodes
   * or pads are refused before any round trip. Runs created from a graph know it already.
   */
  graph?: GraphInput;
  /** Give up when the run has not acknowledged a request this long (default 5 000 ms). */
  ackTimeoutMs?: number;
  /** Give up when the run has not completed a request this long (default 15 000 ms). */
  requestTimeoutMs?: number;
  /** How many of the run's log entries the snapshot keeps (default 500, the newest). */
  maxLogs?: number;
}

/**
 * How to join a run: with connection details your backend got when it created the run, or with a usage
 * token and what to run (an app, or a graph), which creates the run first.
 */
export type AppRunConnectOptions =
  | { connection_details: { url: string; token: string }; run_id?: string }
  | ({ token: string } & CreateAppRunRequest)
  | ({ token: string } & CreateAppRunFromGraphRequest);

/** The typed events of an {@link AppRun} (eventemitter3); everything is also in the snapshot. */
export interface AppRunEvents {
  /** A subscribed pad's value changed. */
  value: (node: string, pad: string, value: ClientPadValue) => void;
  /** New log entries of the run. */
  logs: (items: RuntimeLogItem[]) => void;
  /** Creating the run failed, the connection failed, a node failed, a subscription was refused. */
  error: (error: Error) => void;
  /** The run is no longer connected, and why. */
  ended: (end: RealtimeEnd) => void;
  statusChanged: (status: RealtimeStatus) => void;
}

const DEFAULT_MAX_LOGS = 500;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * An app run in the browser: creates the run (or joins one your backend created), joins its room, plays
 * what its Output nodes send, publishes the microphone to a Publish node, and talks to the graph over the
 * run's `runtime_api` topic: push values into pads, read them, subscribe to their changes, read the run's
 * logs. Framework-free: read it with `subscribe`/`getSnapshot` (React's `useSyncExternalStore`) or events.
 *
 * @example
 * const run = createAppRun({ baseUrl: 'https://api.example.com' });
 * run.subscribePad('llm', 'context_message');
 * await run.connect({ token: usageToken, app: 'app_123' });
 * await run.pushValue('chat', 'output', 'What is the weather like?');
 * run.on('value', (node, pad, value) => console.log(node, pad, value));
 */
export class AppRun extends EventEmitter<AppRunEvents> {
  /** The room connection underneath (microphone, audio, client tools). */
  readonly session: RealtimeSession;
  private state: AppRunState;
  private readonly stateListeners = new Set<() => void>();
  private readonly api: RuntimeApiClient;
  /** The run's numbered value events taken, for a replay of what a dropped connection lost. */
  private readonly events = new EventSequence();
  private readonly subscriptions = new Map<string, { node: string; pad: string; count: number }>();
  private graph: GraphInput | undefined;
  private creating: AbortController | undefined;
  private startEnd: RealtimeEnd | undefined;

  constructor(private readonly options: AppRunOptions = {}) {
    super();
    const { publishNode, graph: _graph, ackTimeoutMs, requestTimeoutMs, maxLogs: _maxLogs, ...sessionOptions } = options;
    this.graph = options.graph;
    this.session = new RealtimeSession({
      ...sessionOptions,
      ...(publishNode ? { microphoneTrackName: `${publishNode}:audio`, cameraTrackName: `${publishNode}:video` } : {}),
    });
    this.state = initialAppRunState(this.session.getSnapshot());
    this.api = new RuntimeApiClient({
      send: (text) => this.session.sendData(RUNTIME_API_TOPIC, text),
      onEvent: (event, seq) => {
        if (this.events.take(seq)) this.receiveEvent(event);
      },
      ...(ackTimeoutMs !== undefined ? { ackTimeoutMs } : {}),
      ...(requestTimeoutMs !== undefined ? { completeTimeoutMs: requestTimeoutMs } : {}),
    });
    this.session.subscribe(() => this.sessionChanged());
    this.session.on('dataPacket', (packet) => {
      if (packet.topic === RUNTIME_API_TOPIC) this.api.receive(packet.payload);
    });
    this.session.on('error', (error) => this.fail(error));
    this.session.on('ended', (end) => this.emit('ended', end));
  }

  /** Calls `listener` after every state change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** The current state: a frozen object, replaced on every change. */
  readonly getSnapshot = (): AppRunState => this.state;

  /**
   * Creates the run with the usage token (`POST /v1/app/run`, or `/v1/app/run_from_graph` for a graph)
   * then joins it, or joins with ready connection details. Resolves once in the room; rejects with the
   * failure, which the snapshot and the `error`/`ended` events also carry.
   */
  async connect(options: AppRunConnectOptions): Promise<void> {
    if (this.state.status !== 'not_connected') throw new Error(`cannot connect while ${this.state.status}; call disconnect() first`);
    this.startEnd = undefined;
    this.events.reset();
    this.update({ runId: undefined, values: Object.freeze({}), logs: Object.freeze([]), error: undefined, ended: undefined });
    if ('connection_details' in options) {
      this.update({ runId: options.run_id });
      return this.session.connect({ connection_details: options.connection_details });
    }
    const { token, ...body } = options;
    if ('graph' in body && body.graph) this.graph = body.graph;
    const controller = new AbortController();
    this.creating = controller;
    this.update({ starting: true });
    let details: { url: string; token: string };
    try {
      const { HttpClient, AppRuns } = await loadSessionIo();
      const http = new HttpClient({
        usageToken: token,
        maxRetries: 0,
        ...(this.options.baseUrl !== undefined ? { baseUrl: this.options.baseUrl } : {}),
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      const runs = new AppRuns(http);
      const created =
        'graph' in body ? await runs.createFromGraph(body, { signal: controller.signal }) : await runs.create(body, { signal: controller.signal });
      details = created.connection_details;
      if (controller.signal.aborted) throw new AbortError('disconnect() was called while the run was being created');
      this.creating = undefined;
      this.update({ runId: created.app_run.id });
    } catch (error) {
      const aborted = controller.signal.aborted;
      if (this.creating === controller) this.creating = undefined;
      const failure = aborted ? new AbortError('disconnect() was called while the run was being created') : asError(error);
      this.startEnd = aborted ? { reason: 'client' } : { reason: 'failed', error: failure };
      this.update({ starting: false });
      if (!aborted) this.fail(failure);
      this.emit('ended', this.startEnd);
      throw failure;
    }
    // The session takes over (`connecting`) in the same tick: the status never flickers to `not_connected`.
    const joined = this.session.connect({ connection_details: details });
    this.update({ starting: false });
    return joined;
  }

  /** Leaves the run's room (the run ends once everyone has left for its grace period). */
  async disconnect(): Promise<void> {
    this.creating?.abort();
    await this.session.disconnect();
  }

  /**
   * Sets a property pad, or fires a stateless pad (a ChatInput's `output`, a ButtonTrigger's `trigger`).
   * `value` is a typed pad value (`{type: 'string', value: 'hi'}`) or a plain one (`'hi'`, `3`, `true`,
   * `TRIGGER`), typed by the pad when the graph is known; omit it to fire a trigger.
   *
   * @example
   * await run.pushValue('chat', 'output', 'Hello!');
   * await run.pushValue('button', 'trigger');
   */
  async pushValue(node: string, pad: string, value?: unknown): Promise<void> {
    const typed = toClientPadValue(this.graph, node, pad, value);
    await this.api.request({ type: 'push_value', node_id: node, pad_id: pad, ...(typed !== undefined ? { value: typed } : {}) });
  }

  /** The value a property pad holds now, typed (`{type: 'string', value: 'hi'}`). */
  async getValue(node: string, pad: string): Promise<ClientPadValue> {
    const reply = await this.api.request({ type: 'get_value', node_id: node, pad_id: pad });
    return (reply.value ?? null) as ClientPadValue;
  }

  /** The items of a list pad (an LLMContext's `source`: the conversation so far). */
  async getListItems(node: string, pad: string): Promise<ClientPadValue[]> {
    const reply = await this.api.request({ type: 'get_list_items', node_id: node, pad_id: pad });
    return Array.isArray(reply.items) ? (reply.items as ClientPadValue[]) : [];
  }

  /**
   * Follows a pad: its values land in the snapshot's `values` (and `value` events) while subscribed, from
   * now and across reconnections. Subscriptions are counted; returns the unsubscribe function.
   *
   * @example
   * const stop = run.subscribePad('stt', 'final_transcription');
   */
  subscribePad(node: string, pad: string): () => void {
    const key = padKey(node, pad);
    const existing = this.subscriptions.get(key);
    if (existing) existing.count += 1;
    else {
      this.subscriptions.set(key, { node, pad, count: 1 });
      if (this.state.status === 'connected') this.sendSubscribe(node, pad);
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const entry = this.subscriptions.get(key);
      if (!entry) return;
      entry.count -= 1;
      if (entry.count > 0) return;
      this.subscriptions.delete(key);
      if (key in this.state.values) {
        const { [key]: _dropped, ...values } = this.state.values;
        this.update({ values: Object.freeze(values) });
      }
      if (this.state.status === 'connected') this.api.request({ type: 'unsubscribe', node_id: node, pad_id: pad }).catch(() => {});
    };
  }

  /** Publishes and unmutes (true) or mutes (false) the microphone. */
  setMicrophoneEnabled(enabled: boolean): Promise<void> {
    return this.session.setMicrophoneEnabled(enabled);
  }

  /** Unblocks audio playback where the browser requires a user gesture: call it from a click handler. */
  startAudio(): Promise<void> {
    return this.session.startAudio();
  }

  /** Publishes (true) or stops (false) the camera, named `<publish node>:video` (`session.setCameraEnabled`). */
  setCameraEnabled(enabled: boolean): Promise<void> {
    return this.session.setCameraEnabled(enabled);
  }

  /** Shares the screen (the browser's picker; call it from a click handler) with its audio where offered. */
  startScreenShare(): Promise<void> {
    return this.session.startScreenShare();
  }

  stopScreenShare(): Promise<void> {
    return this.session.stopScreenShare();
  }

  /** What the run's Output nodes show (`video` pad) as a `MediaStream`; undefined while none is published. */
  agentVideoStream(): MediaStream | undefined {
    return this.session.agentVideoStream();
  }

  /** Handles the run's calls of the `client_app` tool `name` (a ToolGroup's client tools). */
  onToolCall(name: string, handler: ClientToolHandler): () => void {
    return this.session.onToolCall(name, handler);
  }

  getAudioLevels(): Record<AudioSource, number> {
    return this.session.getAudioLevels();
  }

  getFrequencyBands(source: AudioSource, count?: number): number[] {
    return this.session.getFrequencyBands(source, count);
  }

  /** Disconnects and drops every listener. */
  async dispose(): Promise<void> {
    await this.disconnect();
    await this.session.dispose();
    this.stateListeners.clear();
    this.removeAllListeners();
  }

  private sendSubscribe(node: string, pad: string): void {
    this.api.request({ type: 'subscribe', node_id: node, pad_id: pad }).catch((error: unknown) => {
      // Refused (no such pad) or lost with the connection: only a refusal while connected is news.
      if (this.state.status === 'connected') this.fail(asError(error));
    });
  }

  private receiveEvent(event: RuntimeEventPayload): void {
    if (event.type === 'logs') {
      const max = this.options.maxLogs ?? DEFAULT_MAX_LOGS;
      this.update({ logs: Object.freeze([...this.state.logs, ...event.items].slice(-max)) });
      this.emit('logs', event.items);
      return;
    }
    const key = padKey(event.node_id, event.pad_id);
    if (!this.subscriptions.has(key)) return;
    this.update({ values: Object.freeze({ ...this.state.values, [key]: event.value }) });
    this.emit('value', event.node_id, event.pad_id, event.value);
  }

  private fail(error: Error): void {
    this.update({ error });
    this.emit('error', error);
  }

  private sessionChanged(): void {
    const previous = this.state.status;
    this.update({});
    const status = this.state.status;
    if (status === 'connected' && previous !== 'connected') {
      for (const { node, pad } of this.subscriptions.values()) this.sendSubscribe(node, pad);
      // Back from a resume or a rejoin: the value events the dropped connection lost, again (copies are recognised).
      if (previous === 'reconnecting') this.api.request({ type: 'replay_events', after: this.events.after }).catch(() => {});
    }
    if (status === 'not_connected' && previous !== 'not_connected') {
      this.api.failAll(new ConnectionError('closed', "the run's connection ended"));
    }
  }

  /** Recomputes the snapshot from the session's and applies `changes`; listeners hear of real changes only. */
  private update(changes: Partial<AppRunState>): void {
    const session = this.session.getSnapshot();
    const starting = changes.starting ?? this.state.starting;
    const status: RealtimeStatus = starting ? 'connecting' : session.status;
    const ended = status === 'not_connected' ? (this.startEnd ?? (session.status === 'not_connected' ? session.ended : undefined)) : undefined;
    const next: AppRunState = {
      ...this.state,
      ...changes,
      session,
      starting,
      status,
      connectionState: status === 'reconnecting' ? 'connecting' : status,
      ended,
      runId: 'runId' in changes ? changes.runId : (this.state.runId ?? session.sessionId),
    };
    const keys = Object.keys(next) as Array<keyof AppRunState>;
    if (keys.every((key) => Object.is(next[key], this.state[key]))) return;
    const previousStatus = this.state.status;
    this.state = Object.freeze(next);
    for (const listener of [...this.stateListeners]) {
      try {
        listener();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    if (previousStatus !== status) this.emit('statusChanged', status);
  }
}

/**
 * Creates an {@link AppRun}.
 *
 * @example
 * const run = createAppRun({ baseUrl: 'https://api.example.com', publishNode: 'publish' });
 */
export function createAppRun(options: AppRunOptions = {}): AppRun {
  return new AppRun(options);
}
