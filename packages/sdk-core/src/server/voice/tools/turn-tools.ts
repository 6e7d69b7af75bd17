import type { ContextMessageCreateParams } from '../../../contract/contexts.js';
import type { ToolDefinition } from '../../../contract/tools.js';
import type { AgentToolRunner } from './agent-tool-runner.js';
import type { ToolResultMessage, ToolRoundHandler } from '../answering/answer-with-tools.js';
import type { Conversation } from '../answering/conversation.js';
import { recordedToolCall } from './tool-arguments.js';
import { toolResultContent } from './tool-result.js';
import type { UtteranceTranscript } from '../transcript/utterance-transcript.js';

export interface TurnToolContext {
  definitions: readonly ToolDefinition[];
  runner: AgentToolRunner;
  /** The agent's transcription of the turn: it shows the calls. */
  transcript: UtteranceTranscript;
  /** Send the calls at once (`stream_transcript`), or with the final transcription. */
  streamTranscript: boolean;
  conversation: Conversation;
  commit: (message: ContextMessageCreateParams) => void;
}

/**
 * What one turn does with tool calls: shows them on the agent's transcription, runs them in parallel,
 * and once a round has all its results keeps it in the conversation and commits it (the assistant's
 * `tool_calls`, then one `tool` message per call). A round cut short by an interruption is not committed.
 *
 * @example
 * const answer = answerWithTools(chat, { ...request, handler: turnToolHandler({ definitions, runner, transcript, streamTranscript: true, conversation, commit }) });
 */
export function turnToolHandler(context: TurnToolContext): ToolRoundHandler {
  return {
    requested(calls) {
      void context.transcript.addToolCalls(calls.map(recordedToolCall), context.streamTranscript);
    },
    run(calls, signal) {
      return Promise.all(
        calls.map(async (call): Promise<ToolResultMessage> => {
          const result = await context.runner.run(context.definitions, call, signal);
          return { role: 'tool', content: toolResultContent(result), tool_call_id: call.id, tool_call_name: call.function.name };
        }),
      );
    },
    completed(assistant, results) {
      context.conversation.addToolExchange(assistant, results);
      context.commit({ role: 'assistant', content: '', tool_calls: assistant.tool_calls.map(recordedToolCall) });
      for (const result of results) {
        context.commit({
          role: 'tool',
          content: typeof result.content === 'string' ? result.content : result.content.map((part) => part.text).join(''),
          tool_call_id: result.tool_call_id,
          ...(result.tool_call_name ? { tool_call_name: result.tool_call_name } : {}),
        });
      }
    },
  };
}
