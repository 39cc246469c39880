/** Every game module the table can run, by id. Add a new game here (see yorktown1942/README.md). */
import type { GameModule } from './game-module.ts';
import { yorktown1942 } from './yorktown1942/index.ts';

export const gameModules: Record<string, GameModule<any, any, any>> = {
  [yorktown1942.id]: yorktown1942,
};

export function getGameModule(id: string): GameModule<any, any, any> {
  const module = gameModules[id];
  if (!module) throw new Error(`Unknown game "${id}": known games are ${Object.keys(gameModules).join(', ')}.`);
  return module;
}

export function listGames(): { id: string; title: string }[] {
  return Object.values(gameModules).map((m) => ({ id: m.id, title: m.title }));
}
