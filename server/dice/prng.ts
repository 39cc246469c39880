/** Small seeded PRNG (mulberry32) for reproducible simulations in tests and benchmarks. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A die roll 1..6 from a random source. */
export function rollDie(random: () => number): 1 | 2 | 3 | 4 | 5 | 6 {
  return (1 + Math.floor(random() * 6)) as 1 | 2 | 3 | 4 | 5 | 6;
}
