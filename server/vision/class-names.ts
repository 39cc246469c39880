/**
 * Class names of a YOLO data set (`classes.txt`, or `names:` in a `data.yaml`) read as die faces. The
 * contract of ../shared/docs/dice-data.md is class k = face k+1; a set whose names say otherwise (tools
 * that sort names alphabetically export "five, four, one, six, three, two") is read by its names, so
 * that its labels mean what their author meant. Names that do not name six different faces are not used.
 */

const FACE_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6,
  uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6,
};

/** The face a class name names ("3", "Three", "dice-3", "d6_three", "tres"), or null. */
export function faceOfName(name: string): number | null {
  const words = name.trim().toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const faces = new Set<number>();
  for (const w of words) {
    if (/^[1-6]$/.test(w)) faces.add(Number(w));
    else if (w in FACE_WORDS) faces.add(FACE_WORDS[w]);
    else if (/^[a-z]*[1-6]$/.test(w) && w !== 'd6') faces.add(Number(w.at(-1)));
  }
  return faces.size === 1 ? [...faces][0] : null;
}

/** Faces of classes 0..5 from their names, or null when the names are not six different faces. */
export function facesFromNames(names: string[]): number[] | null {
  if (names.length !== 6) return null;
  const faces = names.map(faceOfName);
  if (faces.some((f) => f === null) || new Set(faces).size !== 6) return null;
  return faces as number[];
}

/** The lines of a `classes.txt`. */
export function parseClassesTxt(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
}

const unquote = (s: string): string => s.trim().replace(/^['"]|['"]$/g, '');

/** The `names` of a YOLO `data.yaml`: an inline list, a block list, or a block map of index → name; [] when absent. */
export function parseDataYamlNames(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^names\s*:/.test(l));
  if (at < 0) return [];
  const inline = lines[at].replace(/^names\s*:/, '').trim();
  if (inline.startsWith('[')) return inline.replace(/^\[|\]\s*$/g, '').split(',').map(unquote).filter(Boolean);
  const names: string[] = [];
  const byIndex = new Map<number, string>();
  for (const line of lines.slice(at + 1)) {
    if (!/^\s+\S/.test(line)) break;
    const item = line.trim();
    const listed = /^-\s*(.+)$/.exec(item);
    const mapped = /^(\d+)\s*:\s*(.+)$/.exec(item);
    if (listed) names.push(unquote(listed[1]));
    else if (mapped) byIndex.set(Number(mapped[1]), unquote(mapped[2]));
  }
  if (byIndex.size > 0) return Array.from({ length: byIndex.size }, (_, i) => byIndex.get(i) ?? '');
  return names;
}
