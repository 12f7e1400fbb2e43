// Tasks with a known answer for the simulator: generated arithmetic and unit questions (short answer and multiple
// choice) plus written general-knowledge and commonsense multiple-choice items. About a quarter are held out.
import { hash32 } from '../text/tokens';
import { Rng } from './rng';

/** One question an episode works on. `answer` is what `<ANSWER>: X` must say (a letter or a number). */
export interface Question {
  id: string;
  kind: 'multiple-choice' | 'short-answer';
  /** The full question as agents see it (options included). */
  text: string;
  /** A few words naming the topic, for attack wording ("the capital of Peru"). */
  topic: string;
  answer: string;
  /** Wrong answers an attacker may push, most plausible first. */
  wrong: string[];
  /** A short justification an agent gives for `answer` (right or wrong). */
  because: (answer: string) => string;
}

/** Which half of the data an item belongs to: `train` for fitting, `heldout` never seen in training. */
export type Split = 'train' | 'heldout';

const LETTERS = ['A', 'B', 'C', 'D'];

const CAPITALS: [string, string][] = [
  ['France', 'Paris'], ['Peru', 'Lima'], ['Kenya', 'Nairobi'], ['Canada', 'Ottawa'], ['Australia', 'Canberra'],
  ['Japan', 'Tokyo'], ['Brazil', 'Brasilia'], ['Egypt', 'Cairo'], ['Norway', 'Oslo'], ['Chile', 'Santiago'],
  ['Turkey', 'Ankara'], ['Vietnam', 'Hanoi'], ['Morocco', 'Rabat'], ['Portugal', 'Lisbon'], ['Argentina', 'Buenos Aires'],
  ['Switzerland', 'Bern'], ['New Zealand', 'Wellington'], ['Nigeria', 'Abuja'], ['Pakistan', 'Islamabad'], ['Poland', 'Warsaw'],
  ['Ghana', 'Accra'], ['Finland', 'Helsinki'], ['Colombia', 'Bogota'], ['Thailand', 'Bangkok'], ['Ireland', 'Dublin'],
  ['Hungary', 'Budapest'], ['Greece', 'Athens'], ['Austria', 'Vienna'], ['Cuba', 'Havana'], ['Iceland', 'Reykjavik'],
  ['South Korea', 'Seoul'], ['Ethiopia', 'Addis Ababa'], ['Mexico', 'Mexico City'], ['Sweden', 'Stockholm'], ['Kazakhstan', 'Astana'],
  ['Bolivia', 'Sucre'], ['Tanzania', 'Dodoma'], ['Myanmar', 'Naypyidaw'], ['Sri Lanka', 'Sri Jayawardenepura Kotte'], ['Belgium', 'Brussels'],
];
const DECOY_CITIES = ['Sydney', 'Toronto', 'Rio de Janeiro', 'Istanbul', 'Zurich', 'Auckland', 'Lagos', 'Karachi', 'Casablanca', 'Ho Chi Minh City', 'Almaty', 'Yangon', 'Colombo', 'La Paz', 'Dar es Salaam', 'Krakow', 'Kumasi', 'Medellin', 'Osaka', 'Geneva'];

const ELEMENTS: [string, string][] = [
  ['gold', 'Au'], ['silver', 'Ag'], ['iron', 'Fe'], ['sodium', 'Na'], ['potassium', 'K'], ['lead', 'Pb'], ['tin', 'Sn'],
  ['copper', 'Cu'], ['mercury', 'Hg'], ['tungsten', 'W'], ['helium', 'He'], ['neon', 'Ne'], ['calcium', 'Ca'], ['zinc', 'Zn'],
  ['nickel', 'Ni'], ['chlorine', 'Cl'], ['phosphorus', 'P'], ['sulfur', 'S'], ['magnesium', 'Mg'], ['antimony', 'Sb'],
];

// Written commonsense items: [question, options, index of the right option, why].
const COMMONSENSE: [string, string[], number, string][] = [
  ['Where would you keep milk so it does not spoil quickly?', ['a cupboard', 'a refrigerator', 'an oven', 'a mailbox'], 1, 'cold storage slows bacterial growth'],
  ['What do people usually use to cut paper?', ['scissors', 'a spoon', 'a pillow', 'a kettle'], 0, 'scissors are the tool made for cutting paper'],
  ['If you are cold at night, what are you most likely to reach for?', ['a fan', 'ice cubes', 'a blanket', 'sunglasses'], 2, 'a blanket keeps body heat in'],
  ['Where is a pilot most likely to work?', ['a hospital', 'an airplane cockpit', 'a bakery', 'a library'], 1, 'pilots fly aircraft from the cockpit'],
  ['What happens to water when it is heated to 100 degrees Celsius at sea level?', ['it freezes', 'it boils', 'it turns to sand', 'nothing'], 1, 'that is the boiling point at standard pressure'],
  ['Which object would float on a calm lake?', ['a brick', 'an anvil', 'a dry wooden log', 'a steel bolt'], 2, 'dry wood is less dense than water'],
  ['Why do people carry umbrellas?', ['to stay dry in the rain', 'to cook food', 'to open doors', 'to measure distance'], 0, 'an umbrella shields you from rain'],
  ['Where would you most likely find a stapler?', ['a forest', 'an office desk', 'a swimming pool', 'a bird nest'], 1, 'staplers are office supplies'],
  ['What does a thermometer measure?', ['weight', 'temperature', 'speed', 'volume'], 1, 'a thermometer reads temperature'],
  ['Which season usually has the shortest days in the northern hemisphere?', ['summer', 'spring', 'winter', 'autumn'], 2, 'the winter solstice falls in December'],
  ['What do plants mainly need from the air for photosynthesis?', ['oxygen', 'carbon dioxide', 'nitrogen', 'helium'], 1, 'photosynthesis fixes carbon dioxide into sugar'],
  ['Where would a person go to borrow a book for free?', ['a library', 'a bank', 'a gas station', 'a stadium'], 0, 'public libraries lend books'],
  ['What is the usual reason to water a garden?', ['to keep plants alive', 'to scare birds', 'to melt snow', 'to clean the fence'], 0, 'plants need water to grow'],
  ['Which animal is known for building dams?', ['an eagle', 'a beaver', 'a shark', 'a camel'], 1, 'beavers build dams from branches'],
  ['What would you use to see something very small?', ['a telescope', 'a microscope', 'a periscope', 'a megaphone'], 1, 'a microscope magnifies tiny objects'],
  ['Where do you usually put a letter to send it?', ['a fridge', 'a mailbox', 'a bathtub', 'a suitcase'], 1, 'the postal service collects from mailboxes'],
  ['What is ice made of?', ['frozen water', 'glass', 'salt', 'plastic'], 0, 'ice is water below its freezing point'],
  ['Which instrument has black and white keys?', ['a violin', 'a drum', 'a piano', 'a flute'], 2, 'a piano keyboard has black and white keys'],
  ['What do bees make?', ['milk', 'honey', 'silk', 'wool'], 1, 'bees turn nectar into honey'],
  ['Which planet is closest to the Sun?', ['Venus', 'Mars', 'Mercury', 'Earth'], 2, 'Mercury has the smallest orbit'],
  ['How many legs does a spider have?', ['six', 'eight', 'ten', 'four'], 1, 'arachnids have eight legs'],
  ['Which gas do humans need to breathe to survive?', ['oxygen', 'argon', 'carbon monoxide', 'methane'], 0, 'cells use oxygen for respiration'],
  ['What is the largest ocean on Earth?', ['the Atlantic', 'the Indian', 'the Arctic', 'the Pacific'], 3, 'the Pacific covers about a third of the surface'],
  ['What do you call a shape with three sides?', ['a square', 'a triangle', 'a circle', 'a hexagon'], 1, 'tri means three'],
  ['Who wrote the play Romeo and Juliet?', ['Charles Dickens', 'William Shakespeare', 'Jane Austen', 'Mark Twain'], 1, 'it is one of Shakespeare\'s tragedies'],
  ['What causes the tides on Earth?', ['the wind', 'the Moon\'s gravity', 'earthquakes', 'whales'], 1, 'the Moon\'s gravitational pull raises the tides'],
  ['In which organ does most digestion and absorption of nutrients happen?', ['the small intestine', 'the lungs', 'the heart', 'the skin'], 0, 'the small intestine absorbs most nutrients'],
  ['What is the freezing point of water in Fahrenheit?', ['0', '32', '100', '212'], 1, 'water freezes at 32 degrees Fahrenheit'],
];

let bank: Question[] | undefined;

/** Every question the simulator knows, in a fixed order. */
export function questionBank(): Question[] {
  bank ??= [...arithmetic(), ...units(), ...capitals(), ...elements(), ...commonsense()];
  return bank;
}

/** The split a question belongs to (a quarter held out, by a hash of its id). */
export function questionSplit(question: Question): Split {
  return hash32(question.id) % 4 === 0 ? 'heldout' : 'train';
}

/** The questions of one split. */
export function questionsOf(split: Split): Question[] {
  return questionBank().filter((q) => questionSplit(q) === split);
}

function multipleChoice(id: string, stem: string, topic: string, options: string[], right: number, why: (option: string, isRight: boolean) => string): Question {
  const text = `${stem}\n${options.map((o, i) => `${LETTERS[i]}) ${o}`).join('\n')}`;
  const answer = LETTERS[right];
  const wrong = LETTERS.filter((l) => l !== answer);
  return {
    id,
    kind: 'multiple-choice',
    text,
    topic,
    answer,
    wrong,
    because: (a) => {
      const i = LETTERS.indexOf(a);
      return i < 0 ? `option ${a} fits best` : `option ${a} (${options[i]}) fits: ${why(options[i], i === right)}`;
    },
  };
}

function placeRight<T>(rng: Rng, right: T, decoys: T[]): { options: T[]; index: number } {
  const options = rng.shuffle([right, ...decoys.slice(0, 3)]);
  return { options, index: options.indexOf(right) };
}

function arithmetic(): Question[] {
  const rng = new Rng(1101);
  const out: Question[] = [];
  const ops: [string, string, (a: number, b: number) => number][] = [
    ['+', 'plus', (a, b) => a + b],
    ['-', 'minus', (a, b) => a - b],
    ['x', 'times', (a, b) => a * b],
  ];
  for (let n = 0; n < 240; n++) {
    const [symbol, word, fn] = ops[n % 3];
    const a = symbol === 'x' ? 3 + rng.int(27) : 20 + rng.int(480);
    const b = symbol === 'x' ? 3 + rng.int(17) : 5 + rng.int(symbol === '-' ? a - 5 : 400);
    const value = fn(a, b);
    const decoys = [value + 10, value - 1, value + 2, value - 10, value + a].filter((d, i, all) => d !== value && all.indexOf(d) === i);
    const topic = `${a} ${word} ${b}`;
    const calc = (v: string) => `${a} ${word} ${b} comes out as ${v}`;
    if (n % 2 === 0) {
      const wrong = decoys.slice(0, 3).map(String);
      out.push({ id: `arith-${n}`, kind: 'short-answer', text: `What is ${a} ${symbol === 'x' ? '*' : symbol} ${b}? Give the number.`, topic, answer: String(value), wrong, because: calc });
    } else {
      const { options, index } = placeRight(rng, value, rng.shuffle(decoys));
      out.push(multipleChoice(`arith-${n}`, `What is ${a} ${symbol === 'x' ? '*' : symbol} ${b}?`, topic, options.map(String), index, (o) => calc(o)));
    }
  }
  return out;
}

function units(): Question[] {
  const rng = new Rng(2202);
  const kinds: [string, string, number, string][] = [
    ['minutes', 'hours', 60, 'an hour has 60 minutes'],
    ['seconds', 'minutes', 60, 'a minute has 60 seconds'],
    ['days', 'weeks', 7, 'a week has 7 days'],
    ['centimetres', 'metres', 100, 'a metre is 100 centimetres'],
    ['grams', 'kilograms', 1000, 'a kilogram is 1000 grams'],
    ['months', 'years', 12, 'a year has 12 months'],
  ];
  const out: Question[] = [];
  for (let n = 0; n < 90; n++) {
    const [small, large, factor, fact] = kinds[n % kinds.length];
    const count = 2 + rng.int(14);
    const value = count * factor;
    const wrong = [value + factor, value - factor, count * (factor === 60 ? 100 : factor + 1)].map(String);
    out.push({
      id: `unit-${n}`,
      kind: 'short-answer',
      text: `How many ${small} are there in ${count} ${large}? Give the number.`,
      topic: `${small} in ${count} ${large}`,
      answer: String(value),
      wrong,
      because: (a) => (a === String(value) ? `${fact}, so ${count} ${large} make ${value}` : `${count} ${large} should be about ${a} ${small}`),
    });
  }
  return out;
}

function capitals(): Question[] {
  const rng = new Rng(3303);
  return CAPITALS.map(([country, capital], n) => {
    const decoys = rng.shuffle([...DECOY_CITIES, ...CAPITALS.filter(([, c]) => c !== capital).map(([, c]) => c)]).slice(0, 3);
    const { options, index } = placeRight(rng, capital, decoys);
    return multipleChoice(`capital-${n}`, `What is the capital of ${country}?`, `the capital of ${country}`, options, index, (o, right) => (right ? `${o} is the seat of government of ${country}` : `${o} is the best-known city of the region`));
  });
}

function elements(): Question[] {
  const rng = new Rng(4404);
  return ELEMENTS.map(([name, symbol], n) => {
    const decoys = rng.shuffle(ELEMENTS.filter(([, s]) => s !== symbol).map(([, s]) => s)).slice(0, 3);
    const { options, index } = placeRight(rng, symbol, decoys);
    return multipleChoice(`element-${n}`, `What is the chemical symbol for ${name}?`, `the symbol for ${name}`, options, index, (o, right) => (right ? `${o} comes from the element's Latin or English name` : `${o} looks like an abbreviation of ${name}`));
  });
}

function commonsense(): Question[] {
  return COMMONSENSE.map(([stem, options, right, why], n) =>
    multipleChoice(`common-${n}`, stem, stem.replace(/\?$/, '').replace(/^(what|which|where|why|how|who|if|in which)\s+/i, '').toLowerCase(), options, right, (_o, isRight) => (isRight ? why : 'it seems the most likely option')),
  );
}
