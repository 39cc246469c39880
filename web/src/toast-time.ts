/** How long a toast stays: its kind's least, longer for longer words (read from across the table), never more than a while. */
const LEAST_MS = { ok: 2500, error: 8000, alert: 6000 } as const;
/** about 15 characters a second, and a moment to look up */
const MS_PER_CHARACTER = 65;
const LOOK_MS = 1500;
const MOST_MS = 15_000;

export function toastMs(text: string, detail: string | null, kind: keyof typeof LEAST_MS): number {
  const reading = LOOK_MS + MS_PER_CHARACTER * (text.length + (detail?.length ?? 0));
  return Math.max(LEAST_MS[kind], Math.min(MOST_MS, reading));
}
