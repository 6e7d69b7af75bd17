import { contextMessageText, type ClientPadValue, type GraphNode, type GraphPad } from '@palaver/sdk-core/graph';
import { padDataType } from './app-graph.js';

/** A pad the page shows: a control when the visitor may set it, else its value. */
export interface ShownPad {
  node: string;
  pad: string;
  /** The pad's data type, as the graph declares it. */
  dataType: string;
  editable: boolean;
  /** A name a visitor reads ("System prompt"); the pad's id is shown beside it. */
  label: string;
  /** The value the graph holds before the run changes it. */
  stored: ClientPadValue | undefined;
  /** The choices of an enum or role pad. */
  options?: string[];
  minimum?: number;
  maximum?: number;
  /** A long text: a textarea rather than a line. */
  multiline: boolean;
}

/** Types a visitor can type or pick. */
const SETTABLE = new Set(['string', 'integer', 'float', 'boolean', 'enum', 'context_message_role']);
/** Types whose value reads well as text. */
const READABLE = new Set([...SETTABLE, 'context_message', 'list']);
/** Kept for graphs from elsewhere: the platform's engines answer, so these change nothing here. */
const UNUSED = new Set(['service', 'api_key', 'base_url']);
const ROLES = ['system', 'user', 'assistant', 'tool'];

function friendlyLabel(node: GraphNode, pad: GraphPad): string {
  if (node.type === 'ContextMessage' && pad.id === 'content') return 'System prompt';
  if (node.type === 'OpenAICompatibleLLM' && pad.id === 'model') return 'Model';
  if (node.type === 'TTS' && pad.id === 'voice_id') return 'Voice';
  if (node.type === 'LLMContext' && pad.id === 'source') return 'Conversation';
  const words = pad.id.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The pads of a node worth showing: property pads the visitor may set (not linked from another pad, of a
 * type one can type, not a setting the platform ignores nor one that shapes the node), and property
 * sources whose value reads as text.
 */
export function shownPads(node: GraphNode): ShownPad[] {
  return node.pads.flatMap((pad): ShownPad[] => {
    const dataType = padDataType(pad);
    if (!dataType) return [];
    const editable = pad.type === 'PropertySinkPad' && !pad.previous_pad && SETTABLE.has(dataType) && !UNUSED.has(pad.id) && pad.group !== 'config';
    const readable = pad.type === 'PropertySourcePad' && READABLE.has(dataType);
    if (!editable && !readable) return [];
    const constraint = (pad.allowed_types ?? pad.default_allowed_types ?? [])[0];
    const stored = (pad.value ?? undefined) as ClientPadValue | undefined;
    const options = dataType === 'context_message_role' ? ROLES : dataType === 'enum' ? (constraint?.options ?? []).map(String) : undefined;
    const text = stored && 'value' in stored && typeof stored.value === 'string' ? stored.value : '';
    return [
      {
        node: node.id,
        pad: pad.id,
        dataType,
        editable,
        label: friendlyLabel(node, pad),
        stored,
        ...(options ? { options } : {}),
        ...(typeof constraint?.minimum === 'number' ? { minimum: constraint.minimum } : {}),
        ...(typeof constraint?.maximum === 'number' ? { maximum: constraint.maximum } : {}),
        multiline: dataType === 'string' && (pad.id === 'content' || pad.id === 'text' || text.length > 60),
      },
    ];
  });
}

/** A value as the text a control holds (`''` for none). */
export function valueText(value: ClientPadValue | undefined): string {
  if (value === undefined || value === null) return '';
  if ('value' in value && (typeof value.value === 'string' || typeof value.value === 'number' || typeof value.value === 'boolean')) return String(value.value);
  return '';
}

/** A value as a visitor reads it: a message's words, a list's size, yes or no. */
export function describeValue(value: ClientPadValue | undefined): string {
  if (value === undefined || value === null) return '—';
  switch (value.type) {
    case 'boolean':
      return value.value ? 'yes' : 'no';
    case 'context_message':
      return `${value.role.value}: ${contextMessageText(value)}`;
    case 'list':
      return `${value.count} ${value.items.every((item) => item?.type === 'context_message') ? (value.count === 1 ? 'message' : 'messages') : value.count === 1 ? 'item' : 'items'}`;
    default:
      return valueText(value) || '—';
  }
}

/** The typed value to push for what the visitor entered; throws in words when it does not fit. */
export function typedValue(shown: Pick<ShownPad, 'dataType' | 'minimum' | 'maximum' | 'label'>, text: string): Exclude<ClientPadValue, null> {
  switch (shown.dataType) {
    case 'integer':
    case 'float': {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number) || (shown.dataType === 'integer' && !Number.isInteger(number))) {
        throw new Error(`${shown.label} takes ${shown.dataType === 'integer' ? 'a whole number' : 'a number'}.`);
      }
      if ((shown.minimum !== undefined && number < shown.minimum) || (shown.maximum !== undefined && number > shown.maximum)) {
        throw new Error(`${shown.label} takes a number from ${shown.minimum ?? '…'} to ${shown.maximum ?? '…'}.`);
      }
      return shown.dataType === 'integer' ? { type: 'integer', value: number } : { type: 'float', value: number };
    }
    case 'boolean':
      return { type: 'boolean', value: text === 'true' };
    case 'enum':
      return { type: 'enum', value: text };
    case 'context_message_role':
      return { type: 'context_message_role', value: text as 'system' };
    default:
      return { type: 'string', value: text };
  }
}
