/** The fuzzed properties of test/fuzz/properties.ts, a few seconds each with fixed seeds (`npm run fuzz` runs them much longer). */
import { describe, it } from 'vitest';
import { cameraSettings, httpCommands, httpRoutes, serialParser, serialSplitter, socketEvents } from './properties.ts';

describe('fuzz: serial box input', () => {
  it('the line parser never throws, gives every rejection a reason, and accepts only canonical lines', () => serialParser.run(3000, 1942));
  it('the line splitter keeps every valid line among garbage, truncated and over-long lines', () => serialSplitter.run(400, 1942));
});

describe('fuzz: camera settings', () => {
  it('a device string is refused with a reason or holds only shell-inert characters', () => cameraSettings.run(2000, 1942));
});

describe('fuzz: HTTP', () => {
  it('random and mutated commands: never 5xx, a rejection has {error} and changes neither state nor journal', () => httpCommands.run(300, 1942), 60_000);
  it('every route with random ids, queries, methods and bodies: never 5xx, errors always {error:{code,message}}', () => httpRoutes.run(300, 1942), 60_000);
});

describe('fuzz: socket.io', () => {
  it('bad payloads on every event: an answer every time, nothing changed unless accepted, the connection keeps working', () => socketEvents.run(200, 1942), 60_000);
});
