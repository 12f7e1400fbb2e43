// What one benchmark section returns: a titled table printed by bench/run.ts and stored in bench/results/latest.json.

/** One section of `npm run bench` output. */
export interface BenchSection {
  title: string;
  /** Table rows; every row has the same keys (the columns). */
  rows: Record<string, string | number | null>[];
  /** Headline figures (name -> value) for the README and the closing notes. */
  figures: Record<string, number | string | null>;
  /** Targets from the issues, named like the figures, with how they are met. */
  notes?: string[];
  /** Set by bench/run.ts when it stores the section: the bench file that printed it and when. */
  bench?: string;
  measured?: string;
}

/** A benchmark module: bench/<name>.bench.ts default-exports one of these. */
export type BenchModule = (options: { quick: boolean }) => Promise<BenchSection | BenchSection[]>;
