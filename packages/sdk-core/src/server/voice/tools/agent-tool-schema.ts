import type { ChatCompletionTool } from '../../../contract/chat.js';
import type { ToolDefinition, ToolDefinitionParameter } from '../../../contract/tools.js';

/** A JSON Schema of one parameter; a non-string `default` is kept when it is JSON of the parameter's type. */
function parameterSchema(parameter: ToolDefinitionParameter): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: parameter.type };
  if (parameter.description) schema.description = parameter.description;
  if (parameter.type === 'array') schema.items = {};
  const value = parameter.default === undefined ? undefined : defaultValue(parameter);
  if (value !== undefined) schema.default = value;
  return schema;
}

function defaultValue(parameter: ToolDefinitionParameter): unknown {
  const text = parameter.default!;
  if (parameter.type === 'string') return text;
  try {
    const value: unknown = JSON.parse(text);
    const matches =
      (parameter.type === 'number' && typeof value === 'number') ||
      (parameter.type === 'boolean' && typeof value === 'boolean') ||
      (parameter.type === 'array' && Array.isArray(value)) ||
      (parameter.type === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value));
    return matches ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The session's tool definitions as OpenAI function tools: name, description and a JSON Schema object of
 * the parameters (type, description, default; `required` lists the required ones). Defaults are strings
 * in a definition: a number, boolean, array or object default that is not JSON of its type is left out.
 *
 * @example
 * toolsForModel([{ name: 'get_weather', description: 'Weather of a city', parameters: [{ name: 'city', type: 'string', required: true, description: 'City' }], ... }])
 * // [{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city',
 * //    parameters: { type: 'object', properties: { city: { type: 'string', description: 'City' } }, required: ['city'] }, strict: false } }]
 */
export function toolsForModel(definitions: readonly ToolDefinition[]): ChatCompletionTool[] {
  return definitions.map((definition) => ({
    type: 'function',
    function: {
      name: definition.name,
      ...(definition.description ? { description: definition.description } : {}),
      parameters: {
        type: 'object',
        properties: Object.fromEntries(definition.parameters.map((parameter) => [parameter.name, parameterSchema(parameter)])),
        required: definition.parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      },
      strict: false,
    },
  }));
}
