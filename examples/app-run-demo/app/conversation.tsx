import { contextMessageText, type ClientPadValue, type GraphContextMessage } from '@palaver/sdk-core/realtime';
import { usePad } from '@palaver/sdk-react';

function messagesOf(value: ClientPadValue | undefined): GraphContextMessage[] {
  if (!value || value.type !== 'list') return [];
  return value.items.filter((item): item is GraphContextMessage => item !== null && item.type === 'context_message');
}

/**
 * The conversation as the graph's LLMContext node holds it (its `source` pad, a list of context messages),
 * updated every time the context changes: what the human said (from STT) and what the LLM answered.
 */
export function Conversation() {
  const context = usePad('context', 'source');
  const lines = messagesOf(context.value).filter((message) => message.role.value === 'user' || message.role.value === 'assistant');
  if (lines.length === 0) return <p className="hint">Say something: the graph hears you through its STT node.</p>;
  return (
    <ol className="transcript" data-testid="conversation">
      {lines.map((message, index) => (
        <li key={index} className={message.role.value}>
          <strong>{message.role.value === 'user' ? 'You' : 'Assistant'}:</strong> {contextMessageText(message)}
        </li>
      ))}
    </ol>
  );
}
