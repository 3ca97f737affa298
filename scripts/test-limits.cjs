// The test suites' time limits, in one place (docs/testing.md, "A slow machine"). They are generous on
// purpose: on a loaded 2-core machine a server start has taken over 60 s. TEST_TIME_SCALE multiplies every
// one of them (TEST_TIME_SCALE=2 on a machine twice as slow); it never shortens them.
const scale = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);
const scaled = (ms) => Math.round(ms * scale);

module.exports = {
  scale,
  scaled,
  /** A server start in a hook (Jest's beforeAll, Playwright's webServer): at least 180 s. */
  SERVER_START_MS: scaled(180_000),
  /** A journey's own limit; long journeys set a longer one. */
  JOURNEY_MS: scaled(60_000),
  /** What a journey waits for what it expects to appear: a navigation, a message, a state. */
  EXPECT_MS: scaled(15_000),
};
