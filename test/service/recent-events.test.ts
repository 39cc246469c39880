/** "What happened": the events of the last commands, as the table and the dashboard keep them. */
import { describe, expect, it } from 'vitest';
import { withEvents } from '../../server/table/recent-events.ts';

describe('recent events', () => {
  it('adds each command\'s events, takes undone commands\' away, starts again with a new game, keeps the last ones', () => {
    let list = withEvents([], 1, [{ type: 'gameStarted' }]);
    list = withEvents(list, 2, [{ type: 'moved', plane: 1 }, { type: 'fuelSpent', plane: 1 }]);
    list = withEvents(list, 3, [{ type: 'moved', plane: 2 }]);
    expect(list.map((x) => x.seq)).toEqual([1, 2, 2, 3]);
    const before = list;
    list = withEvents(list, 4, [{ type: 'undone', commands: [{ seq: 3 }, { seq: 2 }] }]);
    expect(list).toEqual([{ seq: 1, event: { type: 'gameStarted' } }]);
    expect(before).toHaveLength(4); // the list given is left as it was
    list = withEvents(list, 5, [{ type: 'gameStarted' }, { type: 'cardDrawn' }]);
    expect(list.map((x) => x.event.type)).toEqual(['gameStarted', 'cardDrawn']);
    for (let seq = 6; seq < 20; seq++) list = withEvents(list, seq, [{ type: 'moved' }], 5);
    expect(list.map((x) => x.seq)).toEqual([15, 16, 17, 18, 19]);
  });

  it('is empty after a table reset: the next players see nothing of the last game', () => {
    let list = withEvents([], 1, [{ type: 'gameStarted' }]);
    list = withEvents(list, 2, [{ type: 'gameLost', reason: 'yorktownSunk' }]);
    expect(withEvents(list, 3, [{ type: 'tableReset' }])).toEqual([]);
  });
});
