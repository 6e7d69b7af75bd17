import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../contract/tools.js';
import { toolsForModel } from './agent-tool-schema.js';

const definition: ToolDefinition = {
  id: 'tool_1',
  name: 'book_table',
  description: 'Books a table',
  parameters: [
    { name: 'restaurant', description: 'Where', type: 'string', required: true },
    { name: 'guests', description: 'How many', type: 'number', required: true, default: '2' },
    { name: 'outside', description: 'Terrace', type: 'boolean', required: false, default: 'false' },
    { name: 'notes', description: 'Wishes', type: 'array', required: false, default: 'not json' },
    { name: 'extra', description: '', type: 'object', required: false },
  ],
  call_settings: { id: 'cs_1', destination: { type: 'client_app' } },
};

describe('toolsForModel', () => {
  it('builds OpenAI function tools with a JSON Schema of the parameters', () => {
    expect(toolsForModel([definition])).toEqual([
      {
        type: 'function',
        function: {
          name: 'book_table',
          description: 'Books a table',
          parameters: {
            type: 'object',
            properties: {
              restaurant: { type: 'string', description: 'Where' },
              guests: { type: 'number', description: 'How many', default: 2 },
              outside: { type: 'boolean', description: 'Terrace', default: false },
              notes: { type: 'array', description: 'Wishes', items: {} },
              extra: { type: 'object' },
            },
            required: ['restaurant', 'guests'],
          },
          strict: false,
        },
      },
    ]);
    expect(toolsForModel([])).toEqual([]);
  });
});
