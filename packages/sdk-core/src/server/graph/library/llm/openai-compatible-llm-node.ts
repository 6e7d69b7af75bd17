import type { ChatMessage } from '../../../../contract/chat.js';
import { TRIGGER, textContextMessage } from '../../../../contract/graph/pad-values.js';
import type { ToolDefinition } from '../../../../contract/tools.js';
import {
  AgentToolRunner,
  AnswerPreparer,
  DEFAULT_AGENT_TOOL_TUNING,
  Preemption,
  answerWithTools,
  streamAnswer,
  toolError,
  toolResultContent,
  toolsForModel,
  type AgentChat,
  type Answer,
  type ClientToolCalls,
  type PreparedAnswer,
  type ToolResultMessage,
  type ToolRoundHandler,
} from '../../../voice/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { TextStream } from '../../runtime/stream-values.js';
import { toolGroupDefinitions } from '../tools/tool-groups.js';
import { chatMessagesOf, toGraphToolCall } from './context-messages.js';
import { mediaModeOf, narrowMediaAfter } from './media-fallback.js';
import { mcpToolsOf, namesMcpServers, type McpTools } from './mcp-tools.js';

const DEFAULT_MODEL = 'builtin-offline';
const MAX_TOOL_ROUNDS = 4;

/** Without a room there is no client to run `client_app` tools. */
const noClient = {
  call: async () => toolError('no client is connected to run this tool'),
} as unknown as ClientToolCalls;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toolGroupOf(node: RuntimeNode): string | undefined {
  const reference = node.value('tool_group');
  return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

async function toolsOf(node: RuntimeNode): Promise<ToolDefinition[]> {
  const reference = toolGroupOf(node);
  if (!reference) return [];
  const definitions = await toolGroupDefinitions(node.environment, reference);
  if (!definitions) {
    node.log('warning', `tool_group names '${reference}', which is not a ToolGroup of this graph`, 'tool_group');
    return [];
  }
  return definitions;
}

function modelOf(node: RuntimeNode): string {
  const requested = node.value('model');
  return typeof requested === 'string' && requested.trim() !== '' ? requested.trim() : (node.environment.engines.defaultModel ?? DEFAULT_MODEL);
}

function messagesOf(node: RuntimeNode): ChatMessage[] {
  const maxTokens = typeof node.value('max_context_len') === 'number' ? (node.value('max_context_len') as number) : 32768;
  return chatMessagesOf(node.value('context'), maxTokens, mediaModeOf(node));
}

/** Which conversation an answer is for: the messages it was asked on. */
function versionOf(messages: ChatMessage[]): string {
  return JSON.stringify(messages);
}

/**
 * Answers prepared at the human's pauses (the voice pipeline's preemption): when the run's STT node reports a
 * pause, the context so far plus the words heard are asked about; a `run_trigger` whose context is exactly that
 * (the user message the words became last) plays it. Not with tools, not while an answer is said.
 */
function preparedAnswers(node: RuntimeNode, backend: LlmBackend, busy: () => boolean): Preemption {
  const { environment } = node;
  const preparer = new AnswerPreparer((text, signal) =>
    streamAnswer(backend.chat, {
      principal: environment.principal,
      model: backend.model,
      messages: [...messagesOf(node), { role: 'user', content: text }],
      metadata: { app_run: environment.runId, node: node.id, prepared: true },
      signal,
    }),
  );
  const preemption = new Preemption(preparer, {
    mayPrepare: () => node.isLinked('context') && !toolGroupOf(node) && !namesMcpServers(node) && !busy() && !environment.voiceTurns.busy,
    version: () => versionOf(messagesOf(node)),
  });
  environment.voiceTurns.on('pause', (text) => preemption.pause(text));
  environment.voiceTurns.on('resumed', () => preemption.resumed());
  return preemption;
}

/** The answer prepared for this context, when its last message is the user's words it was asked for. */
function takePrepared(node: RuntimeNode, preemption: Preemption, messages: ChatMessage[]): PreparedAnswer | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user' || typeof last.content !== 'string') {
    preemption.finish('', false);
    return undefined;
  }
  const { prepared, discardedAnswers } = preemption.finish(last.content, true, versionOf(messages.slice(0, -1)));
  node.environment.voiceTurns.answered({ prepared: prepared !== undefined, discardedAnswers });
  return prepared;
}

/** Tool rounds as pads: the calls and their results on `context_message`, started/finished triggers. */
function toolRounds(node: RuntimeNode, runner: AgentToolRunner, definitions: ToolDefinition[], mcp: McpTools | undefined): ToolRoundHandler {
  let callIndex = 0;
  return {
    requested: () => node.source('tool_calls_started').push(TRIGGER),
    run: (calls, callSignal) =>
      Promise.all(
        calls.map(async (call): Promise<ToolResultMessage> => {
          const result = mcp?.has(call.function.name) ? await mcp.call(call, callSignal) : await runner.run(definitions, call, callSignal);
          return { role: 'tool', content: toolResultContent(result), tool_call_id: call.id, tool_call_name: call.function.name };
        }),
      ),
    completed: (assistant, results) => {
      node
        .source('context_message')
        .push(textContextMessage('assistant', '', { tool_calls: assistant.tool_calls.map((call) => toGraphToolCall(call, callIndex++)) }));
      for (const result of results) {
        const content = typeof result.content === 'string' ? result.content : result.content.map((part) => part.text).join('');
        node.source('context_message').push(textContextMessage('tool', content, { tool_call_id: result.tool_call_id }));
      }
      node.source('tool_calls_finished').push(TRIGGER);
    },
  };
}

/** Writes the answer to the stream as it comes, then keeps it on `context_message` (what was said, when cancelled). */
async function deliver(node: RuntimeNode, reply: Answer, controller: AbortController, stream: TextStream): Promise<void> {
  let first = true;
  for await (const piece of reply.pieces) {
    if (controller.signal.aborted) break;
    if (first) {
      first = false;
      node.source('first_token').push(TRIGGER);
      node.environment.voiceTurns.firstToken(reply.firstTokenMs);
    }
    stream.write(piece);
  }
  try {
    const result = await reply.done;
    stream.end();
    if (result.text.trim() !== '') node.source('context_message').push(textContextMessage('assistant', result.text));
  } catch (error) {
    // Cut short by a cancel: what was said so far stays in the conversation. A failure ends the stream where it
    // failed (the caller cancels it, unless it asks again).
    if (controller.signal.aborted) {
      stream.cancel();
      if (stream.text().trim() !== '') node.source('context_message').push(textContextMessage('assistant', stream.text()));
      return;
    }
    throw error;
  }
  node.source('finished').push(TRIGGER);
}

/** Who answers an LLM node: the chat (the platform's gateway, or a local server) and the model name it is asked for. */
export interface LlmBackend {
  chat: AgentChat;
  model: string;
}

/**
 * An LLM node (the engine's BaseLLM): on each `run_trigger`, answers `context` with the node's backend as the
 * run's principal. A new trigger or `cancel_trigger` stops the answer being produced. Pads fire in order:
 * `started`, the `text_stream` (pushed at once, written as tokens come), `first_token`, for tool rounds
 * `tool_calls_started`, the assistant's calls and the results on `context_message`, `tool_calls_finished`; then
 * the answer on `context_message` and `finished`. Fed by an STT node with preemptive turn detection, it prepares its
 * answer at the human's pauses (see `preparedAnswers`).
 */
export function llmNode(backendOf: (node: RuntimeNode) => LlmBackend): NodeImplementation {
  // Synchronously: a trigger pushed as the run starts is read.
  return (node, signal) => answerTriggers(node, backendOf(node), signal);
}

/**
 * OpenAICompatibleLLM: an {@link llmNode} answered through the platform's chat gateway, metered and limited like
 * any completion; `model` names a platform LLM.
 */
export const openAiCompatibleLlmNode: NodeImplementation = llmNode((node) => {
  const baseUrl = node.value('base_url');
  if (typeof baseUrl === 'string' && baseUrl !== '') {
    node.log('info', "base_url and api_key are not used: the platform's chat gateway answers with the LLM named by model", 'base_url');
  }
  return { chat: node.environment.engines.chat, model: modelOf(node) };
});

async function answerTriggers(node: RuntimeNode, backend: LlmBackend, signal: AbortSignal): Promise<void> {
  const { environment } = node;
  let current: { controller: AbortController; stream: TextStream } | undefined;
  const cancel = (): void => {
    if (!current) return;
    current.controller.abort();
    current.stream.cancel();
    current = undefined;
  };
  node.sink('cancel_trigger').onValue(cancel);
  const preemption = preparedAnswers(node, backend, () => current !== undefined);
  signal.addEventListener('abort', () => (cancel(), preemption.finish('', false)), { once: true });
  const runner = new AgentToolRunner({
    clientCalls: environment.clientTools ?? noClient,
    addressPolicy: environment.engines.toolAddressPolicy ?? { allowLoopback: false, allowPrivateNetworks: false },
    tuning: { ...DEFAULT_AGENT_TOOL_TUNING, ...environment.engines.toolTuning },
    logger: environment.logger,
  });

  const answer = async (controller: AbortController, stream: TextStream): Promise<void> => {
    const messages = messagesOf(node);
    const prepared = takePrepared(node, preemption, messages);
    // A cancel stops the prepared answer's model call too.
    if (prepared) controller.signal.addEventListener('abort', () => prepared.controller.abort(controller.signal.reason), { once: true });
    const definitions = prepared ? [] : await toolsOf(node);
    const mcp = prepared ? undefined : await mcpToolsOf(node);
    const tools = [...(definitions.length > 0 ? toolsForModel(definitions) : []), ...(mcp?.forModel ?? [])];
    const reply =
      prepared?.answer ??
      answerWithTools(backend.chat, {
        principal: environment.principal,
        model: backend.model,
        messages,
        metadata: { app_run: environment.runId, node: node.id },
        signal: controller.signal,
        tools: tools.length > 0 ? tools : undefined,
        maxToolRounds: MAX_TOOL_ROUNDS,
        handler: toolRounds(node, runner, definitions, mcp),
      });
    try {
      await deliver(node, reply, controller, stream);
    } catch (error) {
      // An LLM that refused pictures or clips is asked again without them (said in the run's log).
      if (stream.text() !== '' || controller.signal.aborted || !narrowMediaAfter(node, backend.model, error)) throw error;
      await answer(controller, stream);
    }
  };

  for await (const _ of node.sink('run_trigger')) {
    if (signal.aborted) break;
    cancel();
    const run = { controller: new AbortController(), stream: new TextStream() };
    current = run;
    node.source('started').push(TRIGGER);
    node.source('text_stream').push(run.stream);
    void answer(run.controller, run.stream)
      .catch((error: unknown) => {
        run.stream.cancel();
        const failure = error instanceof Error ? error : new Error(String(error));
        node.log('error', `the LLM did not answer: ${errorMessage(error)}`);
        environment.nodeFailed(node, failure);
      })
      .finally(() => {
        if (current === run) current = undefined;
      });
  }
}
