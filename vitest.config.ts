import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // a poll waits for the browser or the in-process server to catch up; on a loaded 2-core CI
    // machine (the camera's vision runs on the test's own event loop) the 1 s default is too short
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    reporters: ['default'],
  },
});
