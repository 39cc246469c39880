/** Short cues made with WebAudio (no sound files): a beep in the last minute, a low tone at zero. */
let ctx: AudioContext | null = null;
let enabled = true;

export function setSound(on: boolean): void {
  enabled = on;
}

export function soundEnabled(): boolean {
  return enabled;
}

/** Browsers only allow audio after a user gesture: call this from one. */
export function unlockAudio(): void {
  if (ctx || typeof AudioContext === 'undefined') return;
  try {
    ctx = new AudioContext();
  } catch {
    ctx = null;
  }
}

export function beep(frequency: number, durationMs: number, volume = 0.2): void {
  if (!enabled || !ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'square';
  osc.frequency.value = frequency;
  gain.gain.value = volume;
  osc.connect(gain).connect(ctx.destination);
  const now = ctx.currentTime;
  gain.gain.setValueAtTime(volume, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + durationMs / 1000);
  osc.start(now);
  osc.stop(now + durationMs / 1000 + 0.02);
}

/**
 * Which cue (if any) to sound when the remaining time goes from `before` to `after` ms:
 * one at the minute mark, every 10 s after it, every second in the last 10 s, and at zero.
 */
export function cueBetween(before: number, after: number): 'minute' | 'tick' | 'end' | null {
  if (before > 0 && after <= 0) return 'end';
  if (after <= 0 || after > 60_000) return null;
  const sb = Math.ceil(before / 1000);
  const sa = Math.ceil(after / 1000);
  if (sa === sb) return null;
  if (sb > 60 && sa <= 60) return 'minute';
  for (let s = sb - 1; s >= sa; s--) if (s <= 10 || s % 10 === 0) return 'tick';
  return null;
}

export function playCue(cue: 'minute' | 'tick' | 'end'): void {
  if (cue === 'minute') {
    beep(880, 200);
    setTimeout(() => beep(880, 200), 300);
  } else if (cue === 'tick') beep(660, 90, 0.15);
  else beep(220, 900, 0.3);
}
