/** What a tool call produced: a value (JSON or text) or an error sentence. */
export type ToolResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Longest tool result the model is given, in characters. */
export const MAX_TOOL_RESULT_CHARS = 16_000;

/**
 * The `tool` message content for a result: text as is, other values as JSON, an error as
 * `{"error": "..."}`; cut to {@link MAX_TOOL_RESULT_CHARS}.
 *
 * @example
 * toolResultContent({ ok: true, value: { temperature: 21 } }) // '{"temperature":21}'
 * toolResultContent({ ok: false, error: 'timed out' })       // '{"error":"timed out"}'
 */
export function toolResultContent(result: ToolResult): string {
  let text: string;
  if (!result.ok) text = JSON.stringify({ error: result.error });
  else if (typeof result.value === 'string') text = result.value;
  else text = JSON.stringify(result.value ?? null) ?? 'null';
  return text.length > MAX_TOOL_RESULT_CHARS ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}…` : text;
}

export function toolError(error: string): ToolResult {
  return { ok: false, error };
}
