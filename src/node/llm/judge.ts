// The LLM judge as the guard's Scorer: N independent judgements per agent per round, averaged before the guard's EMA,
// and reconciled with the embedded score (a judge that clears a strongly flagged agent is reported, not believed).
// Any agent the LLM cannot score (endpoint down, budget spent, malformed replies) gets the embedded score instead.
import { createHash } from 'node:crypto';
import type { Embedder, HeadScores, RunModel, Scorer, ScoringContext } from '../../core/guard/types';
import { describeEvidence, similarityEvidence } from '../../core/llm/evidence';
import { JUDGE_SCHEMA, judgeMessages, type JudgeInput } from '../../core/llm/prompts';
import { reconcileJudgement, type Overruled } from '../../core/llm/checks';
import { parseJudgement } from '../../core/llm/replies';
import type { LlmSession } from './session';

/** Options of the judge. */
export interface JudgeOptions {
  /** Independent judgements averaged per agent per round (default 3). */
  samples?: number;
  /** Embedder for the measured copying/drift evidence in the prompt; no evidence line when absent. */
  embedder?: Embedder;
}

/** Scores every agent of a round with the LLM judge, falling back agent by agent to `fallback`. */
export class LlmJudgeScorer implements Scorer {
  private llmScores = 0;
  private fallbackScores = 0;
  private readonly previous: (HeadScores | undefined)[];
  private readonly vectors = new Map<string, Float32Array>();
  /** Where the judge contradicted strong embedded evidence, in the order met. */
  readonly disagreements: (Overruled & { agent: string; round: number })[] = [];

  constructor(
    private readonly session: LlmSession,
    private readonly model: RunModel,
    private readonly fallback: Scorer,
    private readonly options: JudgeOptions = {},
  ) {
    this.previous = model.agents.map(() => undefined);
  }

  /** "llm:<model>", "llm:<model>+embedded" when some scores fell back, or the fallback's name when none came from the LLM. */
  get name(): string {
    if (this.llmScores === 0) return this.fallback.name;
    return this.fallbackScores === 0 ? `llm:${this.session.model}` : `llm:${this.session.model}+${this.fallback.name}`;
  }

  async scoreRound(context: ScoringContext, signal?: AbortSignal): Promise<HeadScores[]> {
    const base = await this.fallback.scoreRound(context, signal);
    const k = context.round;
    const inputs = this.model.agents.map((agent, i) => {
      const output = this.model.outputs[i][k];
      return output === undefined ? undefined : this.judgeInput(agent, i, k, output);
    });
    await this.addEvidence(inputs, signal);
    return Promise.all(
      this.model.agents.map(async (_, i) => {
        const input = inputs[i];
        if (input === undefined) return this.previous[i] ?? base[i];
        const judged = await this.judge(input, signal);
        if (judged === undefined) {
          this.fallbackScores++;
          return base[i];
        }
        this.llmScores++;
        const { scores, overruled } = reconcileJudgement(base[i], judged);
        for (const o of overruled) this.disagreements.push({ ...o, agent: this.model.agents[i], round: k });
        this.previous[i] = scores;
        return scores;
      }),
    );
  }

  /** The mean of the valid judgements, or undefined when none came back. */
  private async judge(input: JudgeInput, signal?: AbortSignal): Promise<HeadScores | undefined> {
    const messages = judgeMessages(input, nonceOf(input));
    const samples = Math.max(1, this.options.samples ?? 3);
    const replies = await Promise.all(Array.from({ length: samples }, (_, s) => this.session.completeJson('judge', s, messages, JUDGE_SCHEMA, parseJudgement, signal)));
    const valid = replies.filter((r) => r !== undefined);
    if (valid.length === 0) return undefined;
    return {
      pAtk: valid.reduce((sum, r) => sum + r.attacker, 0) / valid.length,
      pInf: valid.reduce((sum, r) => sum + r.infected, 0) / valid.length,
    };
  }

  /** Embeds the round's texts in one batch (each text once per run) and adds the evidence line to each input. */
  private async addEvidence(inputs: (JudgeInput | undefined)[], signal?: AbortSignal): Promise<void> {
    const embedder = this.options.embedder;
    if (!embedder) return;
    const texts = new Set<string>();
    for (const input of inputs) {
      if (!input) continue;
      for (const text of [input.current, input.first, ...input.received.map((r) => r.text)]) if (text !== undefined && !this.vectors.has(text)) texts.add(text);
    }
    const batch = [...texts];
    if (batch.length > 0) (await embedder.embed(batch, signal)).forEach((vector, n) => this.vectors.set(batch[n], vector));
    for (const input of inputs) {
      if (!input || input.round === 0) continue;
      const received = input.received.map((r) => ({ from: r.from, vector: this.vectors.get(r.text)! }));
      const evidence = similarityEvidence(this.vectors.get(input.current)!, input.first === undefined ? undefined : this.vectors.get(input.first), received);
      input.evidence = describeEvidence(evidence, embedder.name);
    }
  }

  private judgeInput(agent: string, i: number, k: number, current: string): JudgeInput {
    const received =
      k === 0
        ? []
        : this.model.inNeighbors[i].flatMap((j) => {
            const text = this.model.outputs[j][k - 1];
            return text === undefined ? [] : [{ from: this.model.agents[j], text }];
          });
    return { task: this.model.task, agent, round: k, current, first: this.model.outputs[i][0], received };
  }
}

/** A boundary nonce derived from the content: stable (so the cache works) and not guessable from inside the content. */
export function nonceOf(content: unknown): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 16);
}
