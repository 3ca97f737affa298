import { Clock } from '../platform/common/clock';
import type { TestServer } from './harness';

/** Freezes the server's clock at the current time; `advance` moves it forward. */
export function controlClock(server: TestServer) {
  const clock = server.app.get(Clock);
  let now = Date.now();
  const spy = jest.spyOn(clock, 'now').mockImplementation(() => new Date(now));
  return {
    /** The server's time now. */
    now() {
      return new Date(now);
    },
    advance(ms: number) {
      now += ms;
    },
    restore() {
      spy.mockRestore();
    },
  };
}

export const MINUTE = 60_000;
