/**
 * Pad values as an app run receives them (`runtime_api` events and replies), checked as `contract/graph/pad-value-schemas.ts`
 * parses them, without zod (see `checks.ts`).
 */
import type {
  ClientPadValue,
  ContextMessageContentItem,
  ContextMessageRoleName,
  GraphContextMessage,
  GraphToolCall,
  VideoClipSummary,
} from '../../contract/graph/pad-value-schemas.js';
import {
  array,
  boolean,
  int,
  literal,
  nullable,
  nullish,
  number,
  object,
  oneOf,
  optional,
  record,
  string,
  tagged,
  unknown,
  withDefault,
  type Check,
  type Shape,
} from './checks.js';

/** The keys a type names, without the index signature of a loose object. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

const role: Check<ContextMessageRoleName> = oneOf({ system: 1, user: 1, assistant: 1, tool: 1 });
const contentItem = object<Named<ContextMessageContentItem>>(
  {
    content_type: oneOf({ text: 1, image: 1, audio: 1, video: 1 }),
    text: nullish(string()),
    image: nullish(object({ url: string(), width: int(), height: int() })),
    video: nullish(object({ url: nullable(string()), frames: array(string()), frame_count: int(), duration: number() })),
  },
  true,
) as Check<ContextMessageContentItem>;
const toolCall = object<GraphToolCall>({ call_id: string(), index: int(), name: string(), arguments: record });
const contextMessage = object<Named<GraphContextMessage>>(
  {
    type: literal('context_message'),
    role: object({ type: literal('context_message_role'), value: role }),
    content: withDefault(array(contentItem), () => []),
    tool_calls: withDefault(array(toolCall), () => []),
    tool_call_id: nullish(string()),
    refusal: nullish(string()),
  },
  true,
) as Check<GraphContextMessage>;
const videoClip = object<VideoClipSummary>({ type: literal('video_clip'), frame_count: int(), duration: number() });
const audioClip = { type: literal('audio_clip'), transcription: nullable(string()), duration: number() };

type Member<Tag extends string> = Extract<NonNullable<ClientPadValue>, { type: Tag }>;
const value = <Tag extends string>(tag: Tag, valueCheck: Check<Member<Tag> extends { value: infer V } ? V : never>) =>
  object({ type: literal(tag), value: valueCheck } as unknown as Shape<Member<Tag>>);

const members = tagged<NonNullable<ClientPadValue>>({
  string: value('string', string()),
  integer: value('integer', int()),
  float: value('float', number()),
  boolean: value('boolean', boolean),
  enum: value('enum', string()),
  trigger: object({ type: literal('trigger') }),
  secret: object({ type: literal('secret'), secret_id: string(), name: string() }),
  node_reference: object({ type: literal('node_reference'), node_id: string() }),
  context_message_role: value('context_message_role', role),
  context_message: contextMessage,
  list: object({ type: literal('list'), count: int(), items: array((item) => clientPadValue(item)) }),
  object: value('object', record),
  audio_clip: object(audioClip),
  video_clip: videoClip,
  av_clip: object({ type: literal('av_clip'), video: videoClip, audio: object(audioClip) }),
  // `parameters` passes unchecked, as the contract's loose object lets it.
  tool_definition: object(
    { type: literal('tool_definition'), name: string(), description: string(), parameters: optional(unknown), destination: unknown } as Shape<
      Member<'tool_definition'>
    >,
    true,
  ),
  viseme: value('viseme', string()),
});

/** A pad value as `ClientPadValueSchema` parses it. */
export function clientPadValue(input: unknown): ClientPadValue {
  return input === null ? null : members(input);
}
