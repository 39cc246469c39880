/**
 * A dice model's name for people: its version, and what it was taught ("1.22.0, taught 30 photos of a
 * table's dice on 2026-12-03"). The service, the logs and the command line write it in English; the
 * dashboard reads its parts back (`readModelName`) to say it in the player's language. Pure.
 */
export interface ModelNameParts {
  version: string;
  /** photos of a table's dice it was taught (null: not taught) */
  taughtPhotos: number | null;
  /** the day it was taught, YYYY-MM-DD (null: not recorded) */
  taughtOn: string | null;
}

export function writeModelName(p: ModelNameParts): string {
  if (p.taughtPhotos === null) return p.version;
  return `${p.version}, taught ${p.taughtPhotos} photos of a table's dice${p.taughtOn ? ` on ${p.taughtOn}` : ''}`;
}

const TAUGHT = /^(.+), taught (\d+) photos of a table's dice(?: on (\d{4}-\d{2}-\d{2}))?$/;

/** The parts of a name `writeModelName` wrote; any other name is a version alone. */
export function readModelName(name: string): ModelNameParts {
  const m = TAUGHT.exec(name);
  return m ? { version: m[1]!, taughtPhotos: Number(m[2]), taughtOn: m[3] ?? null } : { version: name, taughtPhotos: null, taughtOn: null };
}
