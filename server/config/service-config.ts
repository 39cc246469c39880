/**
 * The service's configuration: environment variables plus an optional JSON file
 * (FLIGHTDECK_CONFIG) naming the tables. Every problem, of the environment and of the file
 * together, is reported with the path of the offending field, and the service refuses to start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { gameModules } from '../games/registry.ts';
import { checkCameraConfig, type CameraConfig } from '../hardware/camera/config.ts';

export type SerialConfig =
  /** the box when one with a known USB id is plugged in at start, else the one on the dashboard */
  | { kind: 'auto' }
  | { kind: 'virtual' }
  | { kind: 'none' }
  | { kind: 'port'; path: string }
  | { kind: 'usb'; vendorId: string; productId: string };


export interface KioskConfig {
  /** minutes without any command before the attract mode starts a self-playing game (null: never) */
  attractAfterMinutes: number | null;
  /** seconds after a game ends before the table resets to a fresh empty table (null: never) */
  resetAfterGameSeconds: number | null;
  /** minutes without any command in a running game before it is abandoned and reset (null: never) */
  idleResetMinutes: number | null;
}

export interface TableConfig {
  id: string;
  name: string;
  /** the name is the service's own, there being no tables file ("Table 1"): the pages say it in their language */
  defaultName?: true;
  game: string;
  /** the camera module's own settings (server/hardware/camera/config.ts) */
  camera: CameraConfig;
  serial: SerialConfig;
  /** demo-station behaviour; null on a table at home */
  kiosk: KioskConfig | null;
  /** show this table's PIN on its table-side screen: a display on the server machine itself, or at one of `tableDisplays` */
  showPinOnLocalDisplay: boolean;
  /** addresses of table-side screens that are not the server machine (e.g. a tablet on the table) */
  tableDisplays: string[];
}

export interface ServiceConfig {
  port: number;
  host: string;
  /** LOG_LEVEL: the log's level (pino) */
  logLevel: LogLevel;
  dataDir: string;
  /** TABLE_PIN: one PIN for every table (otherwise each table gets a generated one) */
  pin: string | null;
  tables: TableConfig[];
  configFile: string | null;
  /**
   * FLIGHTDECK_ALLOWED_ORIGINS: origins besides the service's own address whose pages may open a
   * socket.io connection (e.g. "https://deck.example.org" for a reverse proxy), comma-separated
   */
  allowedOrigins: string[];
  /** FLIGHTDECK_MODEL: the dice model folder to read with instead of the shipped models/ (one `npm run model:adapt` wrote) */
  modelDir: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[], source: string) {
    super(`Invalid configuration ${source}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_HOST = '0.0.0.0';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$/;
export const DEFAULT_PORT = 3000;
const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const PIN_PATTERN = /^[0-9]{4,8}$/;

const DEFAULT_TABLE_NAME = 'Table 1';

/** The table goes by the service's own name (no tables file; not a copy of the default given a name of its own). */
export function hasDefaultName(table: TableConfig): boolean {
  return table.defaultName === true && table.name === DEFAULT_TABLE_NAME;
}

export function defaultTable(): TableConfig {
  return {
    id: 'default',
    name: DEFAULT_TABLE_NAME,
    defaultName: true,
    game: 'yorktown1942',
    camera: cameraConfig('synthetic'),
    serial: { kind: 'auto' },
    kiosk: null,
    showPinOnLocalDisplay: true,
    tableDisplays: [],
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(obj: Record<string, unknown>, allowed: string[], path: string, problems: string[]): void {
  for (const key of Object.keys(obj)) if (!allowed.includes(key)) problems.push(`${path}.${key}: unknown field (allowed: ${allowed.join(', ')})`);
}

function parseSerial(v: unknown, path: string, problems: string[]): SerialConfig {
  if (v === undefined || v === 'virtual') return { kind: 'virtual' };
  if (v === 'auto') return { kind: 'auto' };
  if (v === 'none' || v === null) return { kind: 'none' };
  if (typeof v === 'string') {
    if (v.length === 0) problems.push(`${path}: empty port path`);
    return { kind: 'port', path: v };
  }
  if (!isObject(v)) {
    problems.push(`${path}: expected "auto", "virtual", "none", a port path like "/dev/ttyACM0", {"path": ...} or {"vendorId": "2341", "productId": "0043"}`);
    return { kind: 'none' };
  }
  checkKeys(v, ['path', 'vendorId', 'productId'], path, problems);
  if (typeof v.path === 'string' && v.path.length > 0) return { kind: 'port', path: v.path };
  const hex = /^[0-9a-fA-F]{4}$/;
  if (typeof v.vendorId === 'string' && typeof v.productId === 'string' && hex.test(v.vendorId) && hex.test(v.productId)) {
    return { kind: 'usb', vendorId: v.vendorId.toLowerCase(), productId: v.productId.toLowerCase() };
  }
  problems.push(`${path}: needs "path" (non-empty string) or "vendorId" and "productId" (4 hex digits each)`);
  return { kind: 'none' };
}

/** A camera setting checked by the camera module; throws on a bad one. */
export function cameraConfig(raw: unknown): CameraConfig {
  const { config, problems } = checkCameraConfig(raw);
  if (!config) throw new ConfigError(problems, 'camera');
  return config;
}

function parseCamera(v: unknown, path: string, problems: string[]): CameraConfig {
  const checked = checkCameraConfig(v, path);
  problems.push(...checked.problems);
  return checked.config ?? cameraConfig('none');
}

function parseMinutes(v: unknown, path: string, problems: string[], fallback: number | null): number | null {
  if (v === undefined) return fallback;
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 24 * 60 * 60) {
    problems.push(`${path}: expected a positive number or null`);
    return fallback;
  }
  return v;
}

function parseKiosk(v: unknown, path: string, problems: string[]): KioskConfig | null {
  if (v === undefined || v === null || v === false) return null;
  if (v === true) v = {};
  if (!isObject(v)) {
    problems.push(`${path}: expected true, false or an object`);
    return null;
  }
  checkKeys(v, ['attractAfterMinutes', 'resetAfterGameSeconds', 'idleResetMinutes'], path, problems);
  return {
    attractAfterMinutes: parseMinutes(v.attractAfterMinutes, `${path}.attractAfterMinutes`, problems, 5),
    resetAfterGameSeconds: parseMinutes(v.resetAfterGameSeconds, `${path}.resetAfterGameSeconds`, problems, 60),
    idleResetMinutes: parseMinutes(v.idleResetMinutes, `${path}.idleResetMinutes`, problems, 15),
  };
}

/** Validates the parsed JSON of a tables file. Throws ConfigError listing every problem. */
export function parseTablesFile(json: unknown, source = 'file'): TableConfig[] {
  const problems: string[] = [];
  if (!isObject(json)) throw new ConfigError(['top level: expected an object {"tables": [...]}'], source);
  checkKeys(json, ['$comment', 'tables'], '', problems);
  if (!Array.isArray(json.tables) || json.tables.length === 0) {
    throw new ConfigError([...problems, 'tables: expected a non-empty array of tables'], source);
  }
  const seen = new Set<string>();
  const tables = json.tables.map((t: unknown, i: number): TableConfig => {
    const path = `tables[${i}]`;
    const base = defaultTable();
    if (!isObject(t)) {
      problems.push(`${path}: expected an object`);
      return base;
    }
    checkKeys(t, ['$comment', 'id', 'name', 'game', 'camera', 'serial', 'kiosk', 'showPinOnLocalDisplay', 'tableDisplays'], path, problems);
    const displays = t.tableDisplays ?? [];
    if (!Array.isArray(displays) || displays.some((d) => typeof d !== 'string' || isIP(d) === 0)) {
      problems.push(`${path}.tableDisplays: expected a list of IP addresses, e.g. ["192.168.1.50"]`);
    }
    if (typeof t.id !== 'string' || !ID_PATTERN.test(t.id)) problems.push(`${path}.id: expected 1-32 characters a-z 0-9 _ - (starting with a letter or digit)`);
    else if (seen.has(t.id)) problems.push(`${path}.id: "${t.id}" is used by an earlier table`);
    else seen.add(t.id);
    if (t.name !== undefined && (typeof t.name !== 'string' || t.name.length === 0 || t.name.length > 60)) problems.push(`${path}.name: expected a string of 1-60 characters`);
    if (t.game !== undefined && (typeof t.game !== 'string' || !Object.hasOwn(gameModules, t.game))) {
      problems.push(`${path}.game: expected the id of a game this service has (${Object.keys(gameModules).join(', ')}) (got ${JSON.stringify(t.game)})`);
    }
    if (t.showPinOnLocalDisplay !== undefined && typeof t.showPinOnLocalDisplay !== 'boolean') problems.push(`${path}.showPinOnLocalDisplay: expected true or false`);
    return {
      id: typeof t.id === 'string' ? t.id : base.id,
      name: typeof t.name === 'string' && t.name.length > 0 ? t.name : typeof t.id === 'string' ? t.id : base.name,
      game: typeof t.game === 'string' ? t.game : base.game,
      camera: parseCamera(t.camera, `${path}.camera`, problems),
      serial: parseSerial(t.serial, `${path}.serial`, problems),
      kiosk: parseKiosk(t.kiosk, `${path}.kiosk`, problems),
      showPinOnLocalDisplay: typeof t.showPinOnLocalDisplay === 'boolean' ? t.showPinOnLocalDisplay : true,
      tableDisplays: Array.isArray(displays) ? displays.filter((d): d is string => typeof d === 'string') : [],
    };
  });
  if (problems.length > 0) throw new ConfigError(problems, source);
  return tables;
}

export function loadTablesFile(path: string): TableConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError([`cannot read the file: ${(err as Error).message}`], path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([`not valid JSON: ${(err as Error).message}`], path);
  }
  return parseTablesFile(json, path);
}

/** "https://Deck.example:443" -> "https://deck.example"; null when it is not an http(s) origin with nothing after the port */
export function parseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(text)) return null;
  return url.origin;
}

/** Reads the environment (PORT, HOST, LOG_LEVEL, FLIGHTDECK_DATA, FLIGHTDECK_CONFIG, TABLE_PIN, FLIGHTDECK_ALLOWED_ORIGINS, FLIGHTDECK_MODEL) and the tables file. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const problems: string[] = [];
  let port = DEFAULT_PORT;
  if (env.PORT !== undefined && env.PORT !== '') {
    port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT: "${env.PORT}" is not a port number (0-65535)`);
  }
  const pin = env.TABLE_PIN !== undefined && env.TABLE_PIN !== '' ? env.TABLE_PIN : null;
  if (pin !== null && !PIN_PATTERN.test(pin)) problems.push('TABLE_PIN: expected 4 to 8 digits');
  const allowedOrigins: string[] = [];
  for (const item of (env.FLIGHTDECK_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== '')) {
    const origin = parseOrigin(item);
    if (origin) allowedOrigins.push(origin);
    else problems.push(`FLIGHTDECK_ALLOWED_ORIGINS: "${item.slice(0, 80)}" is not an origin like https://deck.example.org or http://192.168.1.20:3000`);
  }
  const modelDir = env.FLIGHTDECK_MODEL !== undefined && env.FLIGHTDECK_MODEL !== '' ? resolve(env.FLIGHTDECK_MODEL) : null;
  if (modelDir !== null && !existsSync(join(modelDir, 'spec.json'))) {
    problems.push(`FLIGHTDECK_MODEL: ${modelDir} holds no dice model (no spec.json): name a folder npm run model:adapt wrote, or leave it unset for the shipped model`);
  }
  const host = env.HOST && env.HOST !== '' ? env.HOST : DEFAULT_HOST;
  if (isIP(host) === 0 && !HOST_NAME.test(host)) problems.push(`HOST: "${host.slice(0, 80)}" is not an address like 0.0.0.0 (every interface), 127.0.0.1 (this machine only) or a host name`);
  const logLevel = (env.LOG_LEVEL && env.LOG_LEVEL !== '' ? env.LOG_LEVEL : 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: "${logLevel.slice(0, 40)}" is not one of ${LOG_LEVELS.join(', ')}`);
  const configFile = env.FLIGHTDECK_CONFIG ? resolve(env.FLIGHTDECK_CONFIG) : null;
  let tables = [defaultTable()];
  let fileWrong = false;
  if (configFile) {
    try {
      tables = loadTablesFile(configFile);
    } catch (err) {
      if (!(err instanceof ConfigError) || problems.length === 0) throw err;
      // both wrong: one list, the file's problems named by the file
      problems.push(...err.problems.map((p) => `${configFile}: ${p}`));
      fileWrong = true;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems, fileWrong ? `from the environment and ${configFile}` : 'from the environment');
  return {
    port,
    host,
    logLevel,
    dataDir: resolve(env.FLIGHTDECK_DATA && env.FLIGHTDECK_DATA !== '' ? env.FLIGHTDECK_DATA : './data'),
    pin,
    tables,
    configFile,
    allowedOrigins,
    modelDir,
  };
}
