/** The button box: the USB serial driver, the dashboard's virtual box, and the game helpers. */
export { SerialButtonBox, openSerialPort, type SerialBoxOptions, type BoxInfo, type PortOpener } from './serial-box.ts';
export { VirtualButtonBox } from './virtual-box.ts';
export { buttonToCommand, INITIAL_CONTROLS, type ControlOutcome, type ControlsState } from './controls.ts';
export { ledsFor, rollSuccess, type LedInputs } from './leds.ts';
export type { BoxGameView } from './game-view.ts';
export { DEFAULT_USB_IDS, type UsbId } from './port-finder.ts';
