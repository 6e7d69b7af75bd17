import { describe, expect, it } from 'vitest';
import { RuleBasedExtractor } from './rule-based-extractor.js';

const extractor = new RuleBasedExtractor();
const triples = (text: string, speaker = 'user') => extractor.extractSync({ text, speaker }).map((fact) => [fact.source, fact.relation, fact.target]);

describe('RuleBasedExtractor', () => {
  it.each<[string, string[][]]>([
    ['My name is Alice.', [['user', 'name', 'Alice']]],
    ['Hi, my name is Alice', [['user', 'name', 'Alice']]],
    ['Call me Al.', [['user', 'name', 'Al']]],
    ['I am called Bob.', [['user', 'name', 'Bob']]],
    ['I live in Paris.', [['user', 'lives_in', 'Paris']]],
    ["I'm living in New York now.", [['user', 'lives_in', 'New York']]],
    ['Actually I moved to Berlin.', [['user', 'lives_in', 'Berlin']]],
    ['I work at Acme Corp.', [['user', 'works_at', 'Acme Corp']]],
    ['I currently work for the BBC.', [['user', 'works_at', 'BBC']]],
    ['Bob was born in Lyon.', [['Bob', 'born_in', 'Lyon']]],
    [
      "I'm from Spain, but I live in Rome.",
      [
        ['user', 'from', 'Spain'],
        ['user', 'lives_in', 'Rome'],
      ],
    ],
    [
      'I live in Paris and I work at Acme.',
      [
        ['user', 'lives_in', 'Paris'],
        ['user', 'works_at', 'Acme'],
      ],
    ],
    [
      'I like cats, dogs and jazz.',
      [
        ['user', 'likes', 'cats'],
        ['user', 'likes', 'dogs'],
        ['user', 'likes', 'jazz'],
      ],
    ],
    ['Alice loves Paris because it is pretty.', [['Alice', 'loves', 'Paris']]],
    ['I hate mornings.', [['user', 'hates', 'mornings']]],
    ['Bob prefers tea.', [['Bob', 'prefers', 'tea']]],
    ["I don't like cilantro.", [['user', 'dislikes', 'cilantro']]],
    ["I'm a teacher", [['user', 'is', 'teacher']]],
    ['The Louvre is a museum.', [['Louvre', 'is', 'museum']]],
    ['Cats are mammals.', [['Cats', 'is', 'mammals']]],
    ["Bob's favourite colour is blue.", [['Bob', 'favourite_colour', 'blue']]],
    ['My sister is Jane.', [['user', 'sister', 'Jane']]],
    ['Alice Smith is married to Bob.', [['Alice Smith', 'married_to', 'Bob']]],
    ['I live in Paris. I live in Paris!', [['user', 'lives_in', 'Paris']]],
  ])('%s', (text, expected) => {
    expect(triples(text)).toEqual(expected);
  });

  it.each([
    'Where do I live?',
    'Do you like jazz',
    'I would like a coffee.',
    'If I lived in Paris I would be happy.',
    'Maybe Bob works at Acme.',
    'I am not a doctor.',
    'Bob never lived in Rome.',
    'It is raining.',
    'The weather is nice.',
    'He likes it.',
    'I am going to the shop.',
    'I am in the kitchen.',
    'I think so.',
    'Thanks!',
    '{"temp":21}',
    '',
    'I like it when you sing.',
  ])('ignores %j', (text) => {
    expect(triples(text)).toEqual([]);
  });

  it('speaks for the role it is given and writes facts in the third person', () => {
    const facts = extractor.extractSync({ text: "I'm a tutor and my name is Ada.", speaker: 'assistant' });
    expect(facts).toEqual([
      { source: 'assistant', relation: 'is', target: 'tutor', fact: 'assistant is a tutor', exclusive: true },
      { source: 'assistant', relation: 'name', target: 'Ada', fact: "assistant's name is Ada", exclusive: true },
    ]);
  });

  // Before blanks were collapsed, the first of these took 34 s: the test's deadline (20 s for the four) catches that
  // kind of blow-up; how long they take against ordinary text of the same length is `pnpm bench context-memory`.
  it('reads long adversarial messages (100,000 characters) to their answer', () => {
    expect(triples(`I ${' '.repeat(99_990)}x`)).toEqual([]);
    expect(triples(`I like ${'x and '.repeat(16_000)}`)).toEqual([['user', 'likes', 'x']]);
    expect(triples('\n \n'.repeat(33_000))).toEqual([]);
    expect(triples(`my ${'a '.repeat(49_000)}`)).toEqual([]);
  }, 20_000);

  it('marks single-valued relations as exclusive and feelings as not', () => {
    const facts = extractor.extractSync({ text: 'I live in Oslo. I like skiing. My favourite food is pizza.', speaker: 'user' });
    expect(facts.map((fact) => [fact.relation, fact.exclusive])).toEqual([
      ['lives_in', true],
      ['likes', false],
      ['favourite_food', true],
    ]);
  });
});
