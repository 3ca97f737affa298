import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Chromium features the journeys' browser goes without, on top of those Playwright itself turns off.
 *
 * Each new browser context opens a window, and Chromium 156 preloads its address bar's suggestion popup
 * into it: two WebUI pages (chrome://omnibox-popup.top-chrome/) in a renderer of their own, in a window
 * nobody sees. Per journey that renderer took more CPU than the page under test (account-errors.spec.ts:
 * 7.7 CPU-s against 6.8 for the site's own renderers): docs/testing.md, "Where the time goes".
 */
const OURS = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * The features Playwright turns off, read from the installed playwright-core (its chromiumSwitches list).
 * Chromium takes the last --disable-features it is given, whole: ours must repeat Playwright's, or
 * Playwright's (which keep loopback on HTTP, stop requests to Google at start-up…) would be lost. A
 * Playwright whose bundle no longer reads this way stops the run here, rather than dropping them.
 */
function playwrightsOwn(): string[] {
  const cannot = (why: string) =>
    new Error(
      `e2e/helpers/browser-features.ts could not read the features Playwright disables from playwright-core (${why}): update the way it reads them for this Playwright.`,
    );
  // The playwright-core that @playwright/test itself runs, wherever npm put it.
  const playwright = dirname(require.resolve('playwright/package.json'));
  const core = dirname(require.resolve('playwright-core/package.json', { paths: [playwright] }));
  let bundle: string;
  try {
    bundle = readFileSync(join(core, 'lib', 'coreBundle.js'), 'utf8');
  } catch {
    throw cannot('no lib/coreBundle.js');
  }
  // The array's own text, comments and all: from its assignment to the filter that closes it.
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1];
  const features = [...(list ?? '').replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
  for (const known of ['HttpsUpgrades', 'MediaRouter', 'PaintHolding'])
    if (!features.includes(known)) throw cannot(`${known} is not among them`);
  return features;
}

/** The one --disable-features switch the journeys' Chromium gets: Playwright's list and ours. */
export function disableFeaturesSwitch(): string {
  return `--disable-features=${[...new Set([...playwrightsOwn(), ...OURS])].join(',')}`;
}
