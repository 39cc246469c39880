import { describe, expect, it } from 'vitest';
import type { BoxButton, ButtonEvent, LedState } from '../../../server/hardware/ports.ts';
import { VirtualButtonBox } from '../../../server/hardware/serial/virtual-box.ts';

describe('VirtualButtonBox', () => {
  it('emits the presses made on the dashboard', async () => {
    const box = new VirtualButtonBox(() => 1234);
    const events: ButtonEvent[] = [];
    box.on('button', (e: ButtonEvent) => events.push(e));
    expect(() => box.press('confirm')).toThrow(/not started/);
    await box.start();
    expect(box.status()).toMatchObject({ kind: 'simulated', state: 'ok' });
    box.press('plane2');
    box.press('confirm', 'long');
    expect(events).toEqual([
      { button: 'plane2', press: 'short', at: 1234 },
      { button: 'confirm', press: 'long', at: 1234 },
    ]);
    expect(() => box.press('eject' as BoxButton)).toThrow(/unknown box button/);
    expect(() => box.press('undo', 'medium' as 'short')).toThrow(/short' or 'long/);
    await box.close();
    expect(box.status().state).toBe('off');
  });

  it('keeps its LED state for the dashboard and reports changes only', async () => {
    const box = new VirtualButtonBox();
    await box.start();
    const seen: LedState[] = [];
    box.on('leds', (s: LedState) => seen.push(s));
    const s: LedState = { planes: ['on', 'off', 'blink', 'off'], spotted: 'on', roll: 'green' };
    box.setLeds(s);
    box.setLeds({ ...s });
    s.planes[0] = 'off'; // the caller's object is copied, not kept
    expect(seen).toHaveLength(1);
    expect(box.leds().planes[0]).toBe('on');
    expect(() => box.setLeds({ ...s, spotted: 'glow' } as unknown as LedState)).toThrow(/spotted/);
    expect(box.leds().spotted).toBe('on');
  });

  it('remembers the last buzzer cue and refuses unknown ones', async () => {
    const box = new VirtualButtonBox(() => 99);
    box.buzz('lastMinute');
    expect(box.lastBuzz()).toEqual({ cue: 'lastMinute', at: 99 });
    expect(() => box.buzz('toString' as 'tick')).toThrow(/unknown cue/);
  });
});
