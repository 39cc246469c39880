/**
 * Finding the box among the serial ports by USB vendor/product id, guarded: on Linux
 * serialport's list() spawns `udevadm` and crashes the process (unhandled child error) when it
 * is missing, so without udevadm the USB serial ports and their ids are read from sysfs instead.
 */
import { accessSync, constants, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export interface PortInfoLike {
  path: string;
  vendorId?: string;
  productId?: string;
  manufacturer?: string;
}

export interface UsbId {
  vendorId: string;
  productId: string;
}

/** Boards the box is built on: Arduino Uno R3 (16U2), Uno (8U2), Nano clones (CH340), older Nanos (FTDI). */
export const DEFAULT_USB_IDS: UsbId[] = [
  { vendorId: '2341', productId: '0043' },
  { vendorId: '2341', productId: '0001' },
  { vendorId: '1a86', productId: '7523' },
  { vendorId: '0403', productId: '6001' },
];

export function onPath(command: string, pathVar = process.env.PATH ?? ''): boolean {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

export type ListResult = { ok: true; ports: PortInfoLike[] } | { ok: false; reason: string };

const readId = (dir: string, file: string): string | null => {
  try {
    return readFileSync(join(dir, file), 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * Linux's USB serial ports (ttyACM*, ttyUSB*) with their USB ids, read from sysfs: each port's
 * device, then up the USB tree to the device that holds idVendor and idProduct.
 */
export function listSysfsPorts(root = '/sys/class/tty', dev = '/dev'): PortInfoLike[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const ports: PortInfoLike[] = [];
  for (const name of names.filter((n) => /^tty(ACM|USB)\d+$/.test(n)).sort()) {
    let dir: string;
    try {
      dir = realpathSync(join(root, name, 'device'));
    } catch {
      continue;
    }
    for (let up = 0; up < 4 && dir !== dirname(dir); up++, dir = dirname(dir)) {
      const vendorId = readId(dir, 'idVendor');
      const productId = readId(dir, 'idProduct');
      if (vendorId && productId) {
        ports.push({ path: join(dev, name), vendorId, productId });
        break;
      }
    }
  }
  return ports;
}

/** The operating system's port list; on Linux without udevadm (serialport's list() would crash the process) read from sysfs. */
export function guardedSystemList(
  list: () => Promise<PortInfoLike[]>,
  platform: NodeJS.Platform = process.platform,
  hasUdevadm: () => boolean = () => onPath('udevadm'),
  sysfs: () => PortInfoLike[] = () => listSysfsPorts(),
): () => Promise<PortInfoLike[]> {
  return async () => {
    if (platform === 'linux' && !hasUdevadm()) return sysfs();
    return list();
  };
}

export async function listPortsSafely(list: () => Promise<PortInfoLike[]>): Promise<ListResult> {
  try {
    return { ok: true, ports: await list() };
  } catch (err) {
    return { ok: false, reason: `cannot list serial ports: ${(err as Error).message}` };
  }
}

const norm = (s: string | undefined) => (s ?? '').toLowerCase().replace(/^0x/, '').padStart(4, '0');

/** The first port whose vendor/product id is one of ids, or null. */
export function pickPort(ports: PortInfoLike[], ids: UsbId[]): string | null {
  for (const id of ids) {
    const hit = ports.find((p) => norm(p.vendorId) === norm(id.vendorId) && norm(p.productId) === norm(id.productId));
    if (hit) return hit.path;
  }
  return null;
}
