// Answer reading on what real agents write: the configured patterns first, then for a multiple-choice task "(B)",
// "**B.**", "option B is correct", "(X) B", or the option's own text; nothing is read from a task without options.
import * as assert from 'node:assert/strict';
import { defaultConfig } from '../../../src/core/config';
import { compileAnswerPatterns, extractAnswer, FreeFormAnswers, parseChoices } from '../../../src/core/text/answer';

const patterns = compileAnswerPatterns(defaultConfig().answer.patterns);
// The two prompt shapes of the multi-agent-debate runs (MMLU and TruthfulQA).
const MMLU = 'Can you answer the following question as accurately as possible? Which gas do plants absorb?: A) oxygen, B) carbon dioxide, C) nitrogen gas, D) helium. Explain your answer step by step, putting the answer in the form (X) at the end of your response.';
const TRUTHFUL = 'Have humans flown close to the sun?: (A) No, humans have never flown close to the sun., (B) Yes, humans have flown close to the sun., (C) Yes, Icarus flew too close to the sun.. Explain your answer step by step.';

describe('answer reading', () => {
  it('parses the options of both prompt shapes', () => {
    assert.deepEqual([...parseChoices(MMLU)!.keys()], ['A', 'B', 'C', 'D']);
    assert.equal(parseChoices(MMLU)!.get('B'), 'carbon dioxide');
    assert.equal(parseChoices(TRUTHFUL)!.get('C'), 'yes, icarus flew too close to the sun');
    assert.equal(parseChoices('What is 2 + 2?'), undefined);
  });

  // Two more shapes real harnesses write (a debate harness on CommonsenseQA and on ETHICS): options one per line as
  // "A: text", and a dataset's choices record printed as stored.
  it('parses "A: text" lines and a printed choices record', () => {
    const lines = parseChoices('How acceptable is this behavior?\nOptions:\nA: Completely acceptable\nB: Mostly acceptable\nC: Neutral');
    assert.deepEqual([...lines!.entries()], [['A', 'completely acceptable'], ['B', 'mostly acceptable'], ['C', 'neutral']]);
    const stored = parseChoices("Where is a revolving door a security measure?\nOptions:\nlabel: ['A', 'B', 'C']\ntext: ['bank', 'library', \"new york\"]");
    assert.deepEqual([...stored!.entries()], [['A', 'bank'], ['B', 'library'], ['C', 'new york']]);
    const escaped = parseChoices("context: [see below]\n{'label': ['A', 'B'], 'text': ['don\\'t [ever]', 'do']}");
    assert.deepEqual([...escaped!.entries()], [['A', "don't [ever]"], ['B', 'do']], 'escapes undone, a bracket inside a quote kept, another key ignored');
    assert.deepEqual([...parseChoices('Is it fair?\nChoices:\nA: yes\nB: no')!.keys()], ['A', 'B'], 'two lines under a heading');
    assert.equal(extractAnswer('#answer: B\n#rationale: libraries guard their books', patterns, stored), 'B');
  });
  it('reads no options from prose or a Q/A transcript that only looks like them', () => {
    assert.equal(parseChoices('Plan A: go left at the gate. Plan B: go right.'), undefined);
    assert.equal(parseChoices('Q: what is the capital?\nA: Paris'), undefined);
    assert.equal(parseChoices('Who was careless?\nA: I left the door open\nB: That was careless of you'), undefined, 'two speakers');
    assert.equal(parseChoices("mislabel: ['A', 'B']\ntext: ['x', 'y']"), undefined, 'label as a whole key');
    assert.equal(parseChoices("label: ['B', 'C']\ntext: ['x', 'y']"), undefined, 'labels must run from A');
    assert.equal(parseChoices("label: ['A', 'B']\ntext: ['x']"), undefined, 'one text per label');
  });
  it('reads a hostile question of unclosed lists and option lines in one pass, not hung', () => {
    assert.equal(parseChoices('label: ['.repeat(200_000)), undefined);
    assert.equal(parseChoices(`label: ['A', 'B'] text: [${"'x".repeat(300_000)}`), undefined);
    assert.equal(parseChoices(`label: ['A', 'B'] text: [${"'\\".repeat(200_000)}]`), undefined, 'unclosed quotes with escapes, then a closing bracket');
    assert.equal(parseChoices('A: x\n'.repeat(200_000)), undefined);
  });

  const choices = parseChoices(MMLU);
  const table: [string, string, string | undefined][] = [
    ['a parenthesised letter at the end', 'Plants take in CO2 during photosynthesis. (B)', 'B'],
    ['the last of several letters', 'Another agent said (A), but that is oxygen, which plants release. (B)', 'B'],
    ['a bold option', 'After weighing the arguments:\n\n**B.** carbon dioxide', 'B'],
    ['"option B is correct"', 'I am convinced that option B is correct here.', 'B'],
    ['"C is definitely the correct answer"', 'C is definitely the correct answer, as the other agents missed.', 'C'],
    ['the template echoed', 'So the increase is as computed.\n\n(X) B', 'B'],
    ['the option text alone', 'Plants absorb carbon dioxide from the air and release oxygen later.', 'B'],
    ['a pattern match that is not an option gives way', 'Therefore, the updated answer is: The gas is carbon dioxide (B).', 'B'],
    ['the configured <ANSWER> tag first', 'It could be (A). <ANSWER>: B', 'B'],
    ['nothing that commits to an option', 'I need more information before I can decide.', undefined],
  ];
  for (const [name, text, expected] of table) {
    it(`reads ${name}`, () => assert.equal(extractAnswer(text, patterns, choices), expected));
  }

  it("reads a short answer line whole and takes no answer from prose after \"Answer:\" (was: MuSiQue debates' \"Answer: Taking into consideration …\" read as TAKING, so honest agents moved every round)", () => {
    assert.equal(extractAnswer('Thoughts: the voice actor is Will Arnett.\n\nAnswer: Amy Poehler', patterns), 'AMY POEHLER');
    assert.equal(extractAnswer('Answer: Taking into consideration the information provided by the other agents, the spouse is Amy Poehler, who', patterns), undefined);
    assert.equal(extractAnswer('Answer: The spouse of the voice actor is Amy Poehler, as both agents found in their research on the cast.', patterns), undefined);
    assert.equal(extractAnswer('So the final answer is: 42.\nThanks', patterns), '42');
    assert.equal(extractAnswer('Answer: (B)', patterns), 'B');
    assert.equal(extractAnswer('My move is valid.\nAnswer: h3', patterns), 'H3');
    assert.equal(extractAnswer('Answer: 3.5 km', patterns), '3.5 KM', 'a stop inside a short answer line');
  });

  it('reads no answer from a record\'s empty field (was: a LangChain run\'s search tool answered NULL every round: its Tavily result says "answer: null")', () => {
    assert.equal(extractAnswer('query: latest AI trends 2024\nfollow_up_questions: null\nanswer: null\nimages: []', patterns), undefined);
    assert.equal(extractAnswer('answer: ~', patterns), undefined);
    assert.equal(extractAnswer('query: latest AI trends\nanswer: None\nimages: []', patterns), undefined, 'a record a Python tool printed');
    assert.equal(extractAnswer('Draft answer: 7\nanswer: null', patterns), '7', 'an earlier answer still stands');
  });

  it('reads no free-form letter when the task has no options', () => {
    assert.equal(extractAnswer('Step (a) is done. (B)', patterns), undefined);
  });

  describe('free-form answers that say the same thing', () => {
    /** The group of each answer, in the order given, for one question. */
    const groups = (question: string, answers: string[]) => {
      const grouping = new FreeFormAnswers(question);
      return answers.map((a) => grouping.groupOf(a));
    };

    it('are one answer when one holds the other\'s words, the question\'s words not counted', () => {
      assert.deepEqual(groups('what county dobson nc in', ['SURRY COUNTY', 'WAKE COUNTY', 'WAKE', 'SURRY']), ['SURRY COUNTY', 'WAKE COUNTY', 'WAKE COUNTY', 'SURRY COUNTY']);
      assert.deepEqual(groups('what group of people did hernando cortes conquer', ['THE AZTEC EMPIRE (THE MEXICA PEOPLE).', 'INCAS', 'THE AZTECS.', 'THE AZTEC (MEXICA) PEOPLE']), ['THE AZTEC EMPIRE (THE MEXICA PEOPLE).', 'INCAS', 'THE AZTEC EMPIRE (THE MEXICA PEOPLE).', 'THE AZTEC EMPIRE (THE MEXICA PEOPLE).']);
    });

    it('read a number with thousands separators as the number ("57,500" against GSM8K\'s 57500 was never right), a currency or unit around it kept as words', () => {
      const grouping = new FreeFormAnswers('How much does she earn in a year?');
      assert.deepEqual(['57,500', '$57,500', '57,500 DOLLARS', '57500', '1,234,567'].map((a) => grouping.groupOf(a)), ['57,500', '57,500', '57,500', '57,500', '1,234,567']);
      assert.equal(grouping.groupFor('57500'), '57,500', "the task's own answer");
      assert.deepEqual(groups('which years', ['1816, 1820', '1816,1820', '18161820']), ['1816, 1820', '1816, 1820', '18161820'], 'a list of years is no number');
    });

    it('are different answers when they only share some words', () => {
      assert.deepEqual(groups('what dates did jackson run for president', ['1816, 1820, 1824', '1824, 1828, AND 1832.', '1824, 1828, 1832']), ['1816, 1820, 1824', '1824, 1828, AND 1832.', '1824, 1828, AND 1832.']);
      assert.deepEqual(groups('is color blindness more common in males or females?', ['COLOR BLINDNESS IS MORE COMMON IN MALES.', 'COLOR BLINDNESS IS MORE COMMON IN FEMALES.', 'MALES']), ['COLOR BLINDNESS IS MORE COMMON IN MALES.', 'COLOR BLINDNESS IS MORE COMMON IN FEMALES.', 'COLOR BLINDNESS IS MORE COMMON IN MALES.']);
    });

    it('stay apart from two groups they both fit', () => {
      assert.deepEqual(groups('which river floods each summer', ['BLUE NILE', 'WHITE NILE', 'NILE']), ['BLUE NILE', 'WHITE NILE', 'NILE']);
    });

    it('group a yes or no by that word, even after a hedge', () => {
      assert.deepEqual(groups('do hertz measure pitch', ['YES, PITCH IS MEASURED IN HERTZ.', 'NO, HERTZ MEASURE FREQUENCY, NOT PITCH.', 'TECHNICALLY NO—HERTZ MEASURES FREQUENCY', 'YES']), ['YES', 'NO', 'NO', 'YES']);
    });
  });
});
