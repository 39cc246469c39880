/** The Japanese phase: drawing a card, the spotted check, the attack on the Yorktown, placing planes, events. */
import { emit, reject, type Ctx } from './context.ts';
import { islandName, spottedChain } from './board.ts';
import { endGame } from './planes.ts';
import { shuffle } from './rng.ts';
import type { Face } from '../../dice/types.ts';
import type { IslandId, JapaneseCard, JapaneseType, YorktownState } from './types.ts';
import type { CardDrawnCommand } from './commands.ts';
import type { Rules } from './ruleset.ts';

function supplyKey(type: JapaneseType): 'jake' | 'kateZeke' {
  return type === 'jake' ? 'jake' : 'kateZeke';
}

/** Which token to place when `wanted` is asked: the type itself, else the substitution chart's first available type. */
export function availableType(ctx: Ctx, wanted: JapaneseType): JapaneseType | null {
  const supply = ctx.state.supply;
  if (supply[supplyKey(wanted)] > 0) return wanted;
  for (const other of ctx.rules.japanese.substitution[wanted] ?? []) if (supply[supplyKey(other)] > 0) return other;
  return null;
}

/** Take a token from the supply and return it to the supply (or out of play, by the ruleset). */
export function takeToken(ctx: Ctx, type: JapaneseType): void {
  ctx.state.supply[supplyKey(type)] -= 1;
}

export function releaseToken(ctx: Ctx, type: JapaneseType): void {
  if (ctx.rules.japanese.destroyedReturnToSupply) ctx.state.supply[supplyKey(type)] += 1;
  else ctx.state.removed[supplyKey(type)] += 1;
}

/** Place one Japanese plane on `island`, overflowing to the next numbered island (the last wraps to 1). */
export function placePlane(ctx: Ctx, wanted: JapaneseType, island: IslandId): void {
  const type = availableType(ctx, wanted);
  if (!type) {
    emit(ctx, 'japaneseNotPlaced', { plane: wanted, island, why: 'no Japanese plane token is left' });
    return;
  }
  const islands = ctx.state.islands;
  const start = islands.findIndex((i) => i.id === island);
  for (let step = 0; step < islands.length; step++) {
    const target = islands[(start + step) % islands.length];
    if (target.japanese.length < ctx.rules.japanese.islandCapacity) {
      takeToken(ctx, type);
      target.japanese.push(type);
      emit(ctx, 'japanesePlaced', {
        plane: type,
        island: target.id,
        ...(type !== wanted ? { substitutedFor: wanted } : {}),
        ...(target.id !== island ? { overflowFrom: island } : {}),
      });
      return;
    }
  }
  emit(ctx, 'japaneseNotPlaced', { plane: wanted, island, why: 'every island already holds two Japanese planes' });
}

function resolveEvent(ctx: Ctx, card: JapaneseCard): void {
  const state = ctx.state;
  if (card.event === 'cap') {
    if (state.cap >= ctx.rules.cap.spaces) emit(ctx, 'capIgnored', { why: 'both CAP spaces are full' });
    else if (state.supply.kateZeke <= 0) emit(ctx, 'capIgnored', { why: 'no Zeke token is left' });
    else {
      state.supply.kateZeke -= 1;
      state.cap += 1;
      emit(ctx, 'capAdded', { cap: state.cap });
    }
  } else if (card.event === 'shohoMoves') {
    if (state.search <= 0) emit(ctx, 'shohoMovesIgnored', { why: 'the search token is at 0' });
    else {
      state.search = Math.max(0, state.search - ctx.rules.search.shohoMovesDrop);
      emit(ctx, 'shohoMoved', { search: state.search });
    }
  }
}

function toPlayerPhase(ctx: Ctx): void {
  if (ctx.state.outcome) return;
  ctx.state.phase = 'planes';
  ctx.state.pendingCard = null;
  emit(ctx, 'phaseChanged', { phase: 'planes', turn: ctx.state.turn });
}

/** Place the card's planes (none when the Yorktown's guns destroyed the attacker: `aaKillPlacesNoPlane`), then its event. */
function finishCard(ctx: Ctx, card: JapaneseCard, attackerDestroyed: boolean): void {
  card.islands.forEach((island, index) => {
    if (attackerDestroyed && (ctx.rules.yorktown.aaKillPlacesNoPlane || index === 0)) return;
    placePlane(ctx, card.plane, island);
  });
  resolveEvent(ctx, card);
  toPlayerPhase(ctx);
}

/** The top card of the digital draw pile; the discard is reshuffled when the pile is empty. */
function drawDigital(ctx: Ctx): JapaneseCard {
  const deck = ctx.state.deck;
  if (deck.drawPile.length === 0) {
    const shuffled = shuffle(deck.discard, ctx.state.rng);
    deck.drawPile = shuffled.items;
    deck.discard = [];
    ctx.state.rng = shuffled.state;
    emit(ctx, 'deckReshuffled', { cards: deck.drawPile.length });
  }
  const id = deck.drawPile.shift()!;
  return cardById(ctx, id)!;
}

function cardById(ctx: Ctx, id: string): JapaneseCard | null {
  return ctx.rules.deck.find((c) => c.id === id) ?? null;
}

/** The card the players say they drew (physical deck). */
function physicalCard(ctx: Ctx, command: CardDrawnCommand): JapaneseCard {
  if (command.cardId !== undefined && command.card !== undefined) {
    reject('badCard', 'Give either the card id or the card contents, not both.');
  }
  if (command.cardId !== undefined) {
    const card = cardById(ctx, command.cardId);
    if (!card) reject('unknownCard', `There is no card "${command.cardId}" in the Japanese deck.`, { card: String(command.cardId) });
    const deck = ctx.state.deck;
    // every card of the deck drawn: the players shuffle the discard pile into a new deck
    if (ctx.rules.deck.every((c) => deck.discard.includes(c.id))) deck.discard = [];
    if (deck.discard.includes(card.id)) {
      reject('cardAlreadyDrawn', `Card ${card.id} was drawn already this deck: it is in the discard pile. Check the card's number; a card the deck list lacks can be entered by what it shows.`, {
        card: card.id,
      });
    }
    return card;
  }
  if (!command.card) reject('badCard', 'Say which card was drawn: its id or its islands, plane, event and Direct Hit.');
  const { islands, plane } = command.card;
  for (const island of islands) {
    if (!ctx.state.islands.some((i) => i.id === island)) reject('badCard', `There is no island ${island} on the board.`, { island });
  }
  if (islands.length === 2 && islands[0] === islands[1]) reject('badCard', 'A card shows two different islands.');
  return {
    id: 'physical',
    islands: islands.slice(),
    plane,
    event: command.card.event ?? 'none',
    directHit: command.card.directHit ?? false,
  };
}

export function drawnCard(ctx: Ctx, command: { type: 'drawCard' } | CardDrawnCommand): JapaneseCard {
  const mode = ctx.state.deck.mode;
  if (command.type === 'drawCard') {
    if (mode !== 'digital') reject('physicalDeck', 'This game uses the physical deck: tell which card was drawn (cardDrawn).');
    return drawDigital(ctx);
  }
  if (mode !== 'physical') reject('digitalDeck', 'This game uses the digital deck: draw with drawCard.');
  return physicalCard(ctx, command);
}

/** The card goes to the discard pile (a physical card named by id too: it cannot be drawn again before the reshuffle). */
function discard(ctx: Ctx, card: JapaneseCard): void {
  if (card.id !== 'physical') ctx.state.deck.discard.push(card.id);
  ctx.state.lastCard = card;
}

/** The stopwatch starts: the game's time runs from `at`. */
export function startStopwatch(state: YorktownState, at: number): void {
  state.startedAt = at;
  state.deadline = at + state.minutes * 60_000;
}

/** Set-up draws: place the planes, events ignored (`ignoreEventsAtSetup`); one island → draw a second card. */
export function setupCard(ctx: Ctx, card: JapaneseCard): void {
  discard(ctx, card);
  emit(ctx, 'cardDrawn', { card, setup: true });
  for (const island of card.islands) placePlane(ctx, card.plane, island);
  if (!ctx.rules.japanese.ignoreEventsAtSetup) resolveEvent(ctx, card);
  const state = ctx.state;
  state.setupDraws = card.islands.length >= 2 ? 0 : state.setupDraws - 1;
  if (state.setupDraws <= 0) {
    state.setupDraws = 0;
    if (state.deadline === null) {
      startStopwatch(state, ctx.at);
      emit(ctx, 'stopwatchStarted', { minutes: state.minutes, deadline: state.deadline });
    }
    state.phase = 'japanese';
    state.turn = 1;
    emit(ctx, 'phaseChanged', { phase: 'japanese', turn: 1 });
  }
}

/** Japanese phase: spotted check, Direct Hit or the attack roll, then placement and event. */
export function resolveCard(ctx: Ctx, card: JapaneseCard, startAttackRoll: (dice: number) => void): void {
  const state = ctx.state;
  discard(ctx, card);
  emit(ctx, 'cardDrawn', { card });
  const chain = spottedChain(ctx.rules.board, state.islands);
  state.spotted = chain !== null;
  if (chain) emit(ctx, 'spotted', { chain, names: chain.map((i) => islandName(ctx.rules.board, i)) });
  if (chain && card.directHit) {
    hitYorktown(ctx, ctx.rules.yorktown.directHitHits, 'Direct Hit');
    if (state.outcome) return;
    if (card.event === 'cap' && !ctx.rules.yorktown.directHitPlacesCap) emit(ctx, 'capIgnored', { why: 'no Japanese plane is placed after a Direct Hit' });
    else resolveEvent(ctx, card);
    toPlayerPhase(ctx);
    return;
  }
  if (chain) {
    state.pendingCard = { card };
    startAttackRoll(ctx.rules.yorktown.attackDice[card.plane]);
    return;
  }
  finishCard(ctx, card, false);
}

function hitYorktown(ctx: Ctx, hits: number, how: string): void {
  if (hits <= 0) return;
  ctx.state.yorktownHits = Math.min(ctx.rules.yorktown.hitsToSink, ctx.state.yorktownHits + hits);
  emit(ctx, 'yorktownHit', { hits, total: ctx.state.yorktownHits, how });
  if (ctx.state.yorktownHits >= ctx.rules.yorktown.hitsToSink) endGame(ctx, 'lost', 'yorktownSunk');
}

/** Read the Yorktown attack roll: each pair of equal dice is a hit; a pair of the AA face destroys the attacker instead. */
export function readYorktownAttack(yorktown: Rules['yorktown'], faces: readonly number[]): { hits: number; attackerDestroyed: boolean } {
  const counts = new Map<number, number>();
  for (const f of faces) counts.set(f, (counts.get(f) ?? 0) + 1);
  let hits = 0;
  let attackerDestroyed = false;
  for (const [face, n] of counts) {
    const pairs = Math.floor(n / yorktown.hitPair);
    if (pairs === 0) continue;
    if (face === yorktown.aaFace) attackerDestroyed = true;
    else hits += pairs;
  }
  return { hits, attackerDestroyed };
}

export function finishYorktownAttack(ctx: Ctx, faces: Face[]): void {
  const pending = ctx.state.pendingCard;
  if (!pending) reject('noAttack', 'No attack on the Yorktown is under way.');
  const { hits, attackerDestroyed } = readYorktownAttack(ctx.rules.yorktown, faces);
  emit(ctx, 'yorktownAttacked', { plane: pending.card.plane, faces, hits, attackerDestroyed });
  if (attackerDestroyed) ctx.state.japaneseDestroyed += 1;
  hitYorktown(ctx, hits, pending.card.plane);
  if (ctx.state.outcome) return;
  finishCard(ctx, pending.card, attackerDestroyed);
}
