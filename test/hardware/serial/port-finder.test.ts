import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_USB_IDS, guardedSystemList, listPortsSafely, listSysfsPorts, onPath, pickPort } from '../../../server/hardware/serial/port-finder.ts';

describe('port finder', () => {
  it('picks the box by vendor/product id, in the order of the ids', () => {
    const ports = [
      { path: '/dev/ttyS0' },
      { path: '/dev/ttyUSB0', vendorId: '1A86', productId: '7523' },
      { path: '/dev/ttyACM0', vendorId: '2341', productId: '0043' },
    ];
    expect(pickPort(ports, DEFAULT_USB_IDS)).toBe('/dev/ttyACM0');
    expect(pickPort(ports, [{ vendorId: '1a86', productId: '7523' }])).toBe('/dev/ttyUSB0');
    expect(pickPort(ports, [{ vendorId: 'dead', productId: 'beef' }])).toBeNull();
  });

  it('does not call list() on Linux without udevadm (it would crash the process): reads sysfs instead', async () => {
    let called = false;
    const sysfs = () => [{ path: '/dev/ttyACM0', vendorId: '2341', productId: '0043' }];
    const r = await listPortsSafely(guardedSystemList(async () => ((called = true), []), 'linux', () => false, sysfs));
    expect(called).toBe(false);
    expect(r).toEqual({ ok: true, ports: sysfs() });
  });

  it('reads the USB serial ports and their ids from sysfs, up the USB tree from each port', () => {
    const root = mkdtempSync(join(tmpdir(), 'fd-sysfs-'));
    try {
      // an Uno (cdc_acm: the interface's parent holds the ids) and a CH340 Nano (usb-serial: one level further)
      const uno = join(root, 'devices', 'usb1', '1-1');
      const nano = join(root, 'devices', 'usb1', '1-2');
      mkdirSync(join(uno, '1-1:1.0'), { recursive: true });
      mkdirSync(join(nano, '1-2:1.0', 'ttyUSB0'), { recursive: true });
      writeFileSync(join(uno, 'idVendor'), '2341\n');
      writeFileSync(join(uno, 'idProduct'), '0043\n');
      writeFileSync(join(nano, 'idVendor'), '1a86\n');
      writeFileSync(join(nano, 'idProduct'), '7523\n');
      const tty = join(root, 'class', 'tty');
      for (const [name, device] of [['ttyACM0', join(uno, '1-1:1.0')], ['ttyUSB0', join(nano, '1-2:1.0', 'ttyUSB0')], ['ttyS0', join(root, 'devices')]] as const) {
        mkdirSync(join(tty, name), { recursive: true });
        symlinkSync(device, join(tty, name, 'device'));
      }
      // a port whose device is gone is left out
      mkdirSync(join(tty, 'ttyACM1'));
      symlinkSync(join(root, 'nowhere'), join(tty, 'ttyACM1', 'device'));
      const ports = listSysfsPorts(tty);
      expect(ports).toEqual([
        { path: '/dev/ttyACM0', vendorId: '2341', productId: '0043' },
        { path: '/dev/ttyUSB0', vendorId: '1a86', productId: '7523' },
      ]);
      expect(pickPort(ports, DEFAULT_USB_IDS)).toBe('/dev/ttyACM0');
      expect(listSysfsPorts(join(root, 'no-such-class'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('turns a failing list() into a reason', async () => {
    const r = await listPortsSafely(guardedSystemList(() => Promise.reject(new Error('boom')), 'linux', () => true));
    expect(r).toEqual({ ok: false, reason: 'cannot list serial ports: boom' });
    expect(await listPortsSafely(guardedSystemList(async () => [{ path: '/dev/x' }], 'darwin'))).toEqual({ ok: true, ports: [{ path: '/dev/x' }] });
  });

  it('looks commands up on the PATH', () => {
    expect(onPath('sh')).toBe(true);
    expect(onPath('no-such-command-here-42')).toBe(false);
    expect(onPath('sh', '')).toBe(false);
  });
});
