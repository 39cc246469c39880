/** A camera for service tests: working (or not), its motion and its last settled read set by the test. */
import type { SeenDie } from '../../server/http/protocol.ts';
import type { SettledRead } from '../../server/hardware/ports.ts';
import type { HardwareView, Table } from '../../server/table/table.ts';

/** A camera working and at rest: its last settled read is `dice`, last moved at `movedAt` (the wall clock). */
export class FakeCamera {
  dice: SeenDie[] = [];
  movedAt: number | null = null;
  state: 'ok' | 'retrying' = 'ok';
  kind: 'simulated' | 'none' = 'simulated';
  moving: { since: number; last: number } | null = null;

  constructor(table: Table<any>) {
    const view = table.hardware();
    table.setHardwareView((): HardwareView => ({ ...view, camera: this.kind === 'none' ? { kind: 'none', state: 'off' } : { kind: 'simulated', state: this.state, ...(this.state !== 'ok' ? { message: 'no frame for 5.0 s' } : {}) }, vision: { backend: 'test', ready: true } }));
    table.setSettledReadProvider((): SettledRead | null => (this.dice.length || this.movedAt !== null ? { frame: { data: Buffer.alloc(0), mime: 'image/jpeg', at: Date.now() }, width: 640, height: 480, dice: this.dice, movedAt: this.movedAt } : null));
    table.setMotionProvider(() => this.moving);
  }

  /** Dice at rest in the tray, each read as `faces` says (null: unreadable; 'p': still being decided). */
  rest(faces: (number | null | 'p')[], movedAt: number): void {
    this.movedAt = movedAt;
    this.dice = faces.map((f, i) => ({ x: 80 + i * 90, y: 240, w: 50, h: 50, score: 0.9, face: f === 'p' ? 3 : f, ...(f === 'p' ? { pending: true as const } : {}) }));
  }
}
