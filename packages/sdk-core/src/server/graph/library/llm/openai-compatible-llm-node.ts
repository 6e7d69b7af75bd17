import { TRIGGER, textContextMessage } from '../../../../contract/graph/pad-values.js';
import type { ToolDefinition } from '../../../../contract/tools.js';
import { AgentToolRunner, DEFAULT_AGENT_TOOL_TUNING } from '../../../voice/tools/agent-tool-runner.js';
import { toolsForModel } from '../../../voice/tools/agent-tool-schema.js';
import { answerWithTools, type ToolResultMessage, type ToolRoundHandler } from '../../../voice/answering/answer-with-tools.js';
import type { ClientToolCalls } from '../../../voice/tools/client-tool-calls.js';
import { toolError, toolResultContent } from '../../../voice/tools/tool-result.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { TextStream } from '../../runtime/stream-values.js';
import { toolGroupDefinitions } from '../tools/tool-groups.js';
import { chatMessagesOf, toGraphToolCall } from './context-messages.js';

const DEFAULT_MODEL = 'builtin-offline';
const MAX_TOOL_ROUNDS = 4;

/** Without a room there is no client to run `client_app` tools. */
const noClient = {
  call: async () => toolError('no client is connected to run this tool'),
} as unknown as ClientToolCalls;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function toolsOf(node: RuntimeNode): Promise<ToolDefinition[]> {
  const reference = node.value('tool_group');
  if (typeof reference !== 'string' || reference === '') return [];
  const definitions = toolGroupDefinitions(node.environment, reference);
  if (!definitions) {
    node.log('warning', `tool_group names '${reference}', which is not a ToolGroup of this graph`, 'tool_group');
    return [];
  }
  return definitions;
}

/**
 * OpenAICompatibleLLM: on each `run_trigger`, answers `context` through the platform's chat gateway as the
 * run's principal (metered and limited like any completion). A new trigger or `cancel_trigger` stops the
 * answer being produced. Pads fire in order: `started`, the `text_stream` (pushed at once, written as tokens
 * come), `first_token`, for tool rounds `tool_calls_started`, the assistant's calls and the results on
 * `context_message`, `tool_calls_finished`; then the answer on `context_message` and `finished`.
 */
export const openAiCompatibleLlmNode: NodeImplementation = async (node, signal) => {
  const { environment } = node;
  let current: { controller: AbortController; stream: TextStream } | undefined;
  const cancel = (): void => {
    if (!current) return;
    current.controller.abort();
    current.stream.cancel();
    current = undefined;
  };
  node.sink('cancel_trigger').onValue(cancel);
  signal.addEventListener('abort', cancel, { once: true });
  const baseUrl = node.value('base_url');
  if (typeof baseUrl === 'string' && baseUrl !== '') {
    node.log('info', "base_url and api_key are not used: the platform's chat gateway answers with the LLM named by model", 'base_url');
  }
  const runner = new AgentToolRunner({
    clientCalls: environment.clientTools ?? noClient,
    addressPolicy: environment.engines.toolAddressPolicy ?? { allowLoopback: false, allowPrivateNetworks: false },
    tuning: { ...DEFAULT_AGENT_TOOL_TUNING, ...environment.engines.toolTuning },
    logger: environment.logger,
  });

  const answer = async (controller: AbortController, stream: TextStream): Promise<void> => {
    const requested = node.value('model');
    const model = typeof requested === 'string' && requested.trim() !== '' ? requested.trim() : (environment.engines.defaultModel ?? DEFAULT_MODEL);
    const maxTokens = typeof node.value('max_context_len') === 'number' ? (node.value('max_context_len') as number) : 32768;
    const messages = chatMessagesOf(node.value('context'), maxTokens);
    const definitions = await toolsOf(node);
    let callIndex = 0;
    const handler: ToolRoundHandler = {
      requested: () => node.source('tool_calls_started').push(TRIGGER),
      run: (calls, callSignal) =>
        Promise.all(
          calls.map(async (call): Promise<ToolResultMessage> => {
            const result = await runner.run(definitions, call, callSignal);
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
    const reply = answerWithTools(environment.engines.chat, {
      principal: environment.principal,
      model,
      messages,
      metadata: { app_run: environment.runId, node: node.id },
      signal: controller.signal,
      tools: definitions.length > 0 ? toolsForModel(definitions) : undefined,
      maxToolRounds: MAX_TOOL_ROUNDS,
      handler,
    });
    let first = true;
    for await (const piece of reply.pieces) {
      if (controller.signal.aborted) break;
      if (first) {
        first = false;
        node.source('first_token').push(TRIGGER);
      }
      stream.write(piece);
    }
    try {
      const result = await reply.done;
      stream.end();
      if (result.text.trim() !== '') node.source('context_message').push(textContextMessage('assistant', result.text));
    } catch (error) {
      stream.cancel();
      // Cut short by a cancel: what was said so far stays in the conversation.
      if (controller.signal.aborted) {
        if (stream.text().trim() !== '') node.source('context_message').push(textContextMessage('assistant', stream.text()));
        return;
      }
      throw error;
    }
    node.source('finished').push(TRIGGER);
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
};
