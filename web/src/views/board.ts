/** The board as SVG: islands in colour rows (Shōhō side at the top), white lines, tokens, planes. */
import { spottedChain } from '../../../server/games/yorktown1942/board.ts';
import type { Board } from '../../../server/games/yorktown1942/ruleset.ts';
import type { IslandColour, IslandId } from '../../../server/games/yorktown1942/types.ts';
import type { App } from '../app.ts';
import { s } from '../dom.ts';
import { t, tk } from '../i18n.ts';

const W = 640;
const H = 615;
const ROWS: Record<IslandColour, number> = { orange: 145, green: 275, red: 405 };
const APPROACH = { x: W / 2, y: 505 };
const YORKTOWN = { x: W / 2, y: 575 };
const SHOHO = { x: W / 2, y: 40 };
const R = 40;

export function islandPositions(board: Board): Map<IslandId, { x: number; y: number }> {
  const out = new Map<IslandId, { x: number; y: number }>();
  for (const colour of ['orange', 'green', 'red'] as IslandColour[]) {
    const row = board.islands.filter((i) => i.colour === colour).sort((a, b) => a.id - b.id);
    row.forEach((island, index) => out.set(island.id, { x: ((index + 1) * W) / (row.length + 1), y: ROWS[colour] }));
  }
  return out;
}

const JAP_LETTER = { jake: 'J', kate: 'K', zeke: 'Z' } as const;

export function boardView(app: App): SVGElement {
  const state = app.state;
  const board = app.rules().board;
  const pos = islandPositions(board);
  const chain = state ? spottedChain(board, state.islands) : null;
  const inChain = (a: IslandId, b: IslandId) => {
    if (!chain) return false;
    const ia = chain.indexOf(a);
    const ib = chain.indexOf(b);
    return ia >= 0 && ib >= 0 && Math.abs(ia - ib) === 1;
  };
  const spotted = state?.spotted ?? false;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'board', role: 'img', 'aria-label': t('board') });
  svg.append(s('rect', { x: 0, y: 0, width: W, height: H, class: 'sea' }));

  // the Shōhō and its CAP spaces
  const located = state ? state.search >= app.rules().search.locatedAt : false;
  svg.append(
    s('g', { class: `shoho${located ? ' located' : ''}` },
      s('rect', { x: SHOHO.x - 120, y: SHOHO.y - 22, width: 245, height: 44, rx: 22 }),
      s('text', { x: SHOHO.x - 30, y: SHOHO.y + 7, 'text-anchor': 'middle' }, t('shoho')),
      [0, 1].map((i) =>
        s('g', { class: `cap-space${state && state.cap > i ? ' filled' : ''}` },
          s('rect', { x: SHOHO.x + 45 + i * 30, y: SHOHO.y - 13, width: 26, height: 26, rx: 4 }),
          state && state.cap > i ? s('text', { x: SHOHO.x + 58 + i * 30, y: SHOHO.y + 7, 'text-anchor': 'middle' }, 'Z') : null,
        ),
      ),
    ),
  );

  for (const [a, b] of board.lines) {
    const pa = pos.get(a);
    const pb = pos.get(b);
    if (!pa || !pb) continue;
    svg.append(s('line', { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y, class: inChain(a, b) ? 'line chain' : 'line' }));
  }
  for (const id of board.approachLines) {
    const p = pos.get(id);
    if (p) svg.append(s('line', { x1: p.x, y1: p.y, x2: APPROACH.x, y2: APPROACH.y, class: 'line approach-line' }));
  }

  for (const island of board.islands) {
    const p = pos.get(island.id)!;
    const st = state?.islands.find((i) => i.id === island.id);
    const g = s('g', { class: `island ${island.colour}${chain?.includes(island.id) ? ' in-chain' : ''}`, 'data-island': island.id });
    g.append(s('circle', { cx: p.x, cy: p.y, r: R }));
    g.append(s('text', { x: p.x, y: p.y + 12, 'text-anchor': 'middle', class: 'island-number' }, island.id));
    if (island.name) g.append(s('text', { x: p.x, y: p.y + R + 16, 'text-anchor': 'middle', class: 'island-name' }, island.name));
    const japanese = st?.japanese ?? [];
    japanese.forEach((type, i) => {
      // tokens side by side above the island
      const x = p.x + (i - (japanese.length - 1) / 2) * 40;
      const y = p.y - R - 32;
      g.append(
        s('g', { class: `jap ${type}` },
          s('title', null, tk(`jap_${type}`)),
          s('rect', { x: x - 18, y, width: 36, height: 34, rx: 4 }),
          s('text', { x, y: y + 26, 'text-anchor': 'middle' }, JAP_LETTER[type]),
        ),
      );
    });
    if (st?.weather) {
      const label = st.weather.revealed && st.weather.id ? tk(`weather_${st.weather.id}`) : t('weatherHidden');
      g.append(
        s('g', { class: `weather${st.weather.revealed ? ' revealed' : ''}` },
          s('title', null, label),
          s('rect', { x: p.x - R - 16, y: p.y + R - 30, width: 32, height: 32, rx: 16 }),
          s('text', { x: p.x - R, y: p.y + R - 7, 'text-anchor': 'middle' }, st.weather.revealed && st.weather.id ? st.weather.id[0]!.toUpperCase() : '?'),
        ),
      );
    }
    svg.append(g);
  }

  svg.append(
    s('g', { class: 'approach' },
      s('rect', { x: APPROACH.x - 170, y: APPROACH.y - 24, width: 340, height: 48, rx: 10 }),
      s('text', { x: APPROACH.x - 160, y: APPROACH.y + 7 }, t('approach')),
    ),
    s('g', { class: `yorktown${spotted ? ' spotted' : ''}` },
      s('rect', { x: YORKTOWN.x - 225, y: YORKTOWN.y - 24, width: 450, height: 48, rx: 24 }),
      s('text', { x: YORKTOWN.x - 205, y: YORKTOWN.y + 7 }, spotted ? t('spotted') : t('yorktown')),
    ),
  );

  // player planes: several at one place are spread sideways
  const slots = new Map<string, number>();
  for (const plane of state?.planes ?? []) {
    if (plane.destroyed) continue;
    let key: string;
    let base: { x: number; y: number };
    if (plane.position.at === 'island') {
      key = `i${plane.position.island}`;
      const p = pos.get(plane.position.island) ?? { x: 0, y: 0 };
      base = { x: p.x + R + 10, y: p.y + 8 };
    } else if (plane.position.at === 'approach') {
      key = 'approach';
      base = { x: APPROACH.x + 40, y: APPROACH.y };
    } else {
      key = 'deck';
      base = { x: YORKTOWN.x + 75, y: YORKTOWN.y };
    }
    const n = slots.get(key) ?? 0;
    slots.set(key, n + 1);
    const x = base.x + (key === 'approach' || key === 'deck' ? n * 44 : 0);
    const y = base.y + (key.startsWith('i') ? n * 40 - 20 : 0);
    svg.append(
      s('g', { class: `plane seat${plane.seat}${plane.action && !plane.done ? ' acting' : ''}`, 'data-plane': plane.id },
        s('title', null, t('plane', { n: plane.id })),
        s('circle', { cx: x, cy: y, r: 20 }),
        s('text', { x, y: y + 9, 'text-anchor': 'middle' }, plane.id),
      ),
    );
  }
  return svg;
}
