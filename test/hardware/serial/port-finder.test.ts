import { describe, expect, it } from 'vitest';
import { DEFAULT_USB_IDS, guardedSystemList, listPortsSafely, onPath, pickPort } from '../../../server/hardware/serial/port-finder.ts';

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

  it('does not call list() on Linux without udevadm (it would crash the process)', async () => {
    let called = false;
    const r = await listPortsSafely(guardedSystemList(async () => ((called = true), []), 'linux', () => false));
    expect(called).toBe(false);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/udevadm is not installed/) });
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
