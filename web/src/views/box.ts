/** The virtual button box: the same ten buttons as the USB box (hold for a long press) and its lights. */
import type { LedMode } from '../../../server/hardware/ports.ts';
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t, tk } from '../i18n.ts';
import { SENDS } from '../offline.ts';

const BUTTONS = ['plane1', 'plane2', 'plane3', 'plane4', 'search', 'takeoffLanding', 'attack', 'move', 'confirm', 'undo'] as const;
/** a long press, as the box's firmware counts it (hardware.md) */
const LONG_MS = 700;

/** One light; `lit` is its colour when on (hardware.md: the planes' LEDs are yellow, the spotted light red; the roll LED's modes say green or red). */
function led(label: string, mode: string, lit: 'yellow' | 'red'): HTMLElement {
  return h('div', { class: `led led-${mode} lit-${lit}` }, h('span', { class: 'lamp', 'aria-hidden': 'true' }), h('span', null, label), h('span', { class: 'led-mode', 'data-mode': mode }, tk(`ledMode_${mode}`)));
}

export function boxView(app: App): HTMLElement {
  const buttons = BUTTONS.map((b) => {
    let downAt = 0;
    const el = h('button', { type: 'button', class: `box-btn box-${b}`, 'data-testid': `box-${b}`, ...SENDS }, tk(`btn_${b}`));
    el.addEventListener('pointerdown', () => {
      downAt = Date.now();
    });
    el.addEventListener('click', () => {
      const long = downAt > 0 && Date.now() - downAt >= LONG_MS;
      downAt = 0;
      // what the press did comes with the next state push, on every page, as a real box's does (App.tellBoxNote)
      void app.act(() => app.client.press(b, long ? 'long' : 'short'));
    });
    return el;
  });
  const leds = app.snap?.leds;
  const planeLeds = leds?.planes ?? null;
  // a real box: its state (and why, when it is not answering) and its lights; the virtual buttons only without one
  const serial = app.snap?.hardware.serial;
  const virtual = app.snap?.simulator?.press === true;
  return h('section', { class: 'box-view' },
    h('h2', null, t('boxTitle')),
    virtual
      ? h('p', { class: 'hint' }, t('boxHint'))
      : h('p', { class: `box-state ${serial?.state ?? 'off'}`, role: 'status', 'data-testid': 'box-state', 'data-state': serial?.state ?? 'off' },
          serial && serial.kind !== 'none' ? t('boxReal', { state: tk(`deviceState_${serial.state}`), message: serial.message ?? '' }) : t('boxNone')),
    h('div', { class: 'box-panel' },
      virtual ? h('div', { class: 'box-buttons' }, buttons) : null,
      h('div', { class: 'box-leds' },
        h('h3', null, t('leds')),
        planeLeds
          ? [
              ...planeLeds.map((m: LedMode, i: number) => led(t('plane', { n: i + 1 }), m, 'yellow')),
              led(t('ledSpotted'), leds!.spotted, 'red'),
              led(t('ledRoll'), leds!.roll, 'red'),
              h('p', { class: 'hint small', 'data-testid': 'led-legend' }, t('ledLegend')),
            ]
          : h('p', { class: 'hint' }, t('ledsUnknown')),
      ),
    ),
  );
}
