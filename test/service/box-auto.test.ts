/** The default table's button box: the real one when a box is plugged in at start, else the one on the dashboard, said in the log. */
import { describe, expect, it } from 'vitest';
import { SerialButtonBox } from '../../server/hardware/serial/serial-box.ts';
import { VirtualButtonBox } from '../../server/hardware/serial/virtual-box.ts';
import { createBox, type BoxFinder } from '../../server/table/box-link.ts';

function recordingLog() {
  const lines: string[] = [];
  const put = (_obj: unknown, msg?: string) => lines.push(msg ?? '');
  return { lines, log: { info: put, warn: put, error: put } };
}

describe('the button box chosen at start ("auto")', () => {
  it('a box plugged in is used, found again by its USB id', async () => {
    const { lines, log } = recordingLog();
    const found: BoxFinder = async () => ({ path: '/dev/ttyACM0' });
    const box = await createBox({ kind: 'auto' }, log, 'default', found);
    expect(box).toBeInstanceOf(SerialButtonBox);
    expect(lines).toEqual(['[serial box] a box is plugged in (/dev/ttyACM0): using it']);
  });

  it('none plugged in, or the ports cannot be listed: the buttons on the dashboard, and why', async () => {
    const { lines, log } = recordingLog();
    const none: BoxFinder = async () => ({ none: 'no serial port with a box\'s USB id (2341:0043)' });
    expect(await createBox({ kind: 'auto' }, log, 'default', none)).toBeInstanceOf(VirtualButtonBox);
    const unlisted: BoxFinder = async () => ({ none: 'cannot list serial ports: permission denied' });
    expect(await createBox({ kind: 'auto' }, log, 'default', unlisted)).toBeInstanceOf(VirtualButtonBox);
    expect(lines[0]).toBe('[serial box] none plugged in (no serial port with a box\'s USB id (2341:0043)): the buttons are on the dashboard; plug the box in and restart to use it');
    expect(lines[1]).toMatch(/permission denied/);
  });

  it('a table set to the virtual box never looks for one', async () => {
    const { log } = recordingLog();
    const never: BoxFinder = async () => {
      throw new Error('looked for a box');
    };
    expect(await createBox({ kind: 'virtual' }, log, 'default', never)).toBeInstanceOf(VirtualButtonBox);
    expect(await createBox({ kind: 'none' }, log, 'default', never)).toBeNull();
  });
});
