// Debian's Chromium is the browser for Playwright and Lighthouse; a downloaded browser cannot run here.
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export const INSTALL_HINT =
  "Chromium was not found. Install Debian's Chromium with: sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH).";
