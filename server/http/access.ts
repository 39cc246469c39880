/**
 * Who may do what at a table: watching needs nothing; controlling needs the table's PIN
 * (HTTP `Authorization: Bearer <PIN>`, socket.io handshake `auth.pin`). Wrong PINs are
 * rate-limited per client address.
 *
 * The PIN itself goes into a snapshot only for a client that gave it, or for a display on
 * the server machine itself (loopback address: the table-side screen) when the table's
 * config allows it (`showPinOnLocalDisplay`, default true): players read it there to join
 * from their phones. Anything reaching the server through a network never sees it unasked.
 */
import type { CommandRejection } from '../games/game-module.ts';
import { pinMatches } from '../table/pin.ts';
import type { Table } from '../table/table.ts';
import type { PinLimiter } from './pin-limiter.ts';

export type AccessResult = { ok: true } | { ok: false; status: 401 | 403 | 429; error: CommandRejection; retryAfterMs?: number };

export function bearerPin(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : header.trim() === '' ? undefined : '';
}

/** One key per client address (an IPv4 client may show up as ::ffff:a.b.c.d). */
export function clientKey(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function checkPin(table: Table<any>, pin: string | undefined, address: string, limiter: PinLimiter): AccessResult {
  const client = clientKey(address);
  if (pin === undefined) {
    return { ok: false, status: 401, error: { code: 'pinRequired', message: `Controlling table "${table.id}" needs its PIN (Authorization: Bearer <PIN>).` } };
  }
  const wait = limiter.retryAfter(client);
  if (wait > 0) {
    return { ok: false, status: 429, retryAfterMs: wait, error: { code: 'tooManyAttempts', message: `Too many wrong PINs; try again in ${Math.ceil(wait / 1000)} s.` } };
  }
  if (!pinMatches(table.pin, pin)) {
    limiter.recordFailure(client);
    return { ok: false, status: 403, error: { code: 'badPin', message: `Wrong PIN for table "${table.id}".` } };
  }
  limiter.recordSuccess(client);
  return { ok: true };
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** The table-side screen: the server machine itself, or one of the table's configured `tableDisplays`. */
export function isTableDisplay(table: Table<any>, address: string | undefined): boolean {
  return isLoopback(address) || (address !== undefined && table.config.tableDisplays.includes(clientKey(address)));
}

export function mayShowPin(table: Table<any>, authorised: boolean, address: string | undefined): boolean {
  return authorised || (table.config.showPinOnLocalDisplay && isTableDisplay(table, address));
}
