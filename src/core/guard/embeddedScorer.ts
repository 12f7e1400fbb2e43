// The embedded dual-head scorer: two independent logistic heads over the temporal features, weights from weights.json.
import weightsFile from './weights.json';
import { FEATURE_COUNT, FEATURE_NAMES, featureVector, type FeatureContext, type StyleProbe } from './features';
import { EMBED_DIM } from '../text/embed';
import type { HeadScores, Scorer, ScoringContext } from './types';

/** One logistic head: bias plus one weight per feature. */
export interface Head {
  bias: number;
  weights: number[];
}

/** The dual-head weights as stored in weights.json. */
export interface DualHeadWeights {
  version: number;
  trainedOn: string;
  features: string[];
  attacker: Head;
  infected: Head;
  /** The learned text model the style features read (a probe over the hashed n-gram embedding). */
  style?: StyleProbe;
  /** A digest of the feature rows `npm run train` fitted them on: `npm run bench realruns` says when the rows moved since. */
  trainingRows?: string;
}

let checkedIn: DualHeadWeights | undefined;

/** The checked-in weights, validated against the feature list on first use (so `npm run train` can replace stale ones). */
export function embeddedWeights(): DualHeadWeights {
  checkedIn ??= checkWeights(weightsFile as DualHeadWeights);
  return checkedIn;
}

/** Throws when a weights file does not match the feature list this build computes. */
export function checkWeights(weights: DualHeadWeights): DualHeadWeights {
  const same = weights.features.length === FEATURE_COUNT && weights.features.every((name, i) => name === FEATURE_NAMES[i]);
  const styleMismatch = weights.style !== undefined && weights.style.weights.length !== EMBED_DIM;
  if (!same || weights.attacker.weights.length !== FEATURE_COUNT || weights.infected.weights.length !== FEATURE_COUNT || styleMismatch) {
    throw new Error('weights.json does not match the feature list; run npm run train');
  }
  return weights;
}

/** sigmoid(bias + w·x). */
export function applyHead(head: Head, x: ArrayLike<number>): number {
  let z = head.bias;
  for (let f = 0; f < x.length; f++) z += head.weights[f] * x[f];
  return 1 / (1 + Math.exp(-z));
}

/** Scores with the embedded model; needs the prepared feature context of the run. */
export class EmbeddedScorer implements Scorer {
  readonly name = 'embedded';

  private readonly weights: DualHeadWeights;

  constructor(
    private readonly features: FeatureContext,
    weights?: DualHeadWeights,
  ) {
    this.weights = weights ?? embeddedWeights();
  }

  async scoreRound(context: ScoringContext): Promise<HeadScores[]> {
    return this.scoreRoundSync(context.round);
  }

  /** Synchronous scoring of every agent in round k (the embedded model needs no I/O). */
  scoreRoundSync(k: number): HeadScores[] {
    return this.features.model.agents.map((_, i) => {
      const x = featureVector(this.features, i, k);
      return { pAtk: applyHead(this.weights.attacker, x), pInf: applyHead(this.weights.infected, x) };
    });
  }
}
