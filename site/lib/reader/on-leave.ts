/**
 * Runs `flush` when the learner leaves the page: when it is hidden (a phone's app switch or lock, a tab
 * put behind another), which may be the last moment a page on a phone gets, and on `pagehide` (closed, or
 * navigated away from). What a flush sends must go out synchronously, with `keepalive` (api.ts), which
 * outlives the page; `sendBeacon` cannot carry the bearer token.
 */
export function onLeave(flush: () => void): void {
  addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}
