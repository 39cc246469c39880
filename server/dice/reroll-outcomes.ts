/**
 * Exact outcome counts of re-rolling m dice, grouped by what the keep-and-re-roll strategies need.
 * Counts are numbers of equally likely sequences out of 6^m (exact integers up to m = 20).
 */

const binomials: number[][] = [[1]];

export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  while (binomials.length <= n) {
    const prev = binomials[binomials.length - 1];
    const row = [1];
    for (let i = 1; i < prev.length; i++) row.push(prev[i - 1] + prev[i]);
    row.push(1);
    binomials.push(row);
  }
  return binomials[n][k];
}

const capped = new Map<string, number>();

/** Sequences of r dice over c values where no value shows more than t times. */
function sequencesWithMaxAtMost(r: number, c: number, t: number): number {
  if (r === 0) return 1;
  if (c === 0 || t <= 0) return 0;
  if (r > c * t) return 0;
  const key = `${r},${c},${t}`;
  const cached = capped.get(key);
  if (cached !== undefined) return cached;
  let total = 0;
  for (let i = 0; i <= Math.min(t, r); i++) total += binomial(r, i) * sequencesWithMaxAtMost(r - i, c - 1, t);
  capped.set(key, total);
  return total;
}

/** Sequences of r dice over c values whose most frequent value shows exactly t times. */
export function sequencesWithMax(r: number, c: number, t: number): number {
  if (t === 0) return r === 0 ? 1 : 0;
  return sequencesWithMaxAtMost(r, c, t) - sequencesWithMaxAtMost(r, c, t - 1);
}

/** One outcome class of a re-roll: `count` sequences out of 6^m. */
export interface RerollOutcome {
  /** 1s among the re-rolled dice */
  ones: number;
  /** re-rolled dice matching the kept group's value (always 0 when nothing is kept) */
  matching: number;
  /** largest group among the other non-1 values */
  largestOther: number;
  probability: number;
}

const outcomeCache = new Map<string, RerollOutcome[]>();

/**
 * Outcomes of re-rolling m dice next to a kept group (keptGroup = true: 1 matching value and
 * 4 other non-1 values) or with nothing kept (5 non-1 values, matching always 0).
 */
export function rerollOutcomes(m: number, keptGroup: boolean): RerollOutcome[] {
  const key = `${m},${keptGroup}`;
  const cached = outcomeCache.get(key);
  if (cached) return cached;
  const others = keptGroup ? 4 : 5;
  const total = 6 ** m;
  const outcomes: RerollOutcome[] = [];
  for (let ones = 0; ones <= m; ones++) {
    for (let matching = 0; matching <= (keptGroup ? m - ones : 0); matching++) {
      const rest = m - ones - matching;
      const ways = binomial(m, ones) * binomial(m - ones, matching);
      for (let largestOther = 0; largestOther <= rest; largestOther++) {
        const count = ways * sequencesWithMax(rest, others, largestOther);
        if (count > 0) outcomes.push({ ones, matching, largestOther, probability: count / total });
      }
    }
  }
  outcomeCache.set(key, outcomes);
  return outcomes;
}
