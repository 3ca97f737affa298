// `npm run design-shots`: a picture of each component of the design system in each theme, for
// docs/design.md (written to docs/design/<component>-<theme>.png). It starts the built server on a fresh
// demo installation and draws the components where they live (the header, a book card, the reader) or, for
// the ones every page shares (buttons, fields, chips, tabs, a notice, a dialog), on a page of the site with
// its own styles. Build first (npm run build).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { findChromium } from './find-chromium.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'docs', 'design');
const THEMES = ['light', 'dark', 'sepia'];
const BOOK = 'der-leuchtturmwarter';

/** The markup of the shared components, as docs/design.md writes them. */
const GALLERY = `
<div data-shot="buttons" style="display:flex;flex-wrap:wrap;gap:0.5rem;padding:1rem;align-items:center">
  <a class="button" href="#">Browse</a>
  <button class="button-secondary" type="button">Export CSV</button>
  <button class="button-quiet" type="button">Clear filters</button>
  <button class="button-danger" type="button">Yes, revoke</button>
  <button type="button" disabled>Disabled</button>
</div>
<form data-shot="fields" style="display:grid;gap:0.75rem;padding:1rem;max-width:24rem" onsubmit="return false">
  <div class="field"><label for="g-title">Title</label><input id="g-title" value="Der Leuchtturmwärter" /></div>
  <div class="field"><label for="g-level">Level</label><select id="g-level"><option>A2</option></select></div>
  <div class="field"><label for="g-mail">Email</label><input id="g-mail" aria-invalid="true" value="ada@" />
    <p class="field-error">Enter an email address such as ada@example.org.</p></div>
</form>
<div data-shot="chips-tabs" style="display:grid;gap:1rem;padding:1rem">
  <div style="display:flex;gap:0.5rem"><button type="button" class="chip" aria-pressed="true">A2</button>
    <button type="button" class="chip" aria-pressed="false">B1</button><button type="button" class="chip" aria-pressed="false">B2</button></div>
  <div class="tabs" role="tablist" aria-label="Cards"><button type="button" role="tab" aria-selected="true">Words</button>
    <button type="button" role="tab" aria-selected="false">Phrases</button></div>
</div>
<div data-shot="notice" style="padding:1rem"><div class="device-notice"><p>Kept on this device only: it goes to your account when you are online.</p></div></div>
`;

async function startServer(storage) {
  const child = spawn(process.execPath, [join(root, 'dist/app/server/main.js'), '--demo'], {
    env: { ...process.env, ENV_FILE: '/dev/null', STORAGE_DIR: storage, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`the server exited:\n${output}`)));
  });
  return { child, url };
}

const storage = mkdtempSync(join(tmpdir(), 'lingonovel-design-'));
const server = await startServer(storage);
const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
mkdirSync(out, { recursive: true });
try {
  for (const theme of THEMES) {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 900, height: 900 } });
    await context.addInitScript(
      (value) =>
        localStorage.setItem('appearance', JSON.stringify({ theme: value, textSize: 2, lineSpacing: 2 })),
      theme,
    );
    const page = await context.newPage();
    const shot = (locator, name) =>
      locator.screenshot({ path: join(out, `${name}-${theme}.png`), animations: 'disabled' });

    await page.goto(`${server.url}/books`);
    await shot(page.locator('.site-header'), 'header');
    await shot(page.locator('.book-card').first(), 'book-card');
    await shot(page.locator('.site-footer'), 'footer');

    await page.goto(`${server.url}/about`);
    await page.evaluate((html) => {
      const main = document.querySelector('main');
      main.innerHTML = html;
    }, GALLERY);
    for (const name of ['buttons', 'fields', 'chips-tabs', 'notice'])
      await shot(page.locator(`[data-shot="${name}"]`), name);
    await page.evaluate(() => {
      const dialog = Object.assign(document.createElement('dialog'), { className: 'dialog' });
      dialog.innerHTML =
        '<h2>Delete this word?</h2><p>Its reviews go with it.</p><div style="display:flex;gap:0.5rem"><button class="button-danger" type="button">Delete</button><button type="button">Keep</button></div>';
      document.body.append(dialog);
      dialog.showModal();
    });
    await shot(page.locator('dialog.dialog'), 'dialog');

    await page.setViewportSize({ width: 420, height: 800 });
    await page.goto(`${server.url}/read/${BOOK}/1`);
    await page.locator('.phrases li').nth(2).waitFor();
    // The first three phrases, the first of them current, as a chapter opens.
    const box = await page.evaluate(() => {
      const items = [...document.querySelectorAll('.phrases li')]
        .slice(0, 3)
        .map((li) => li.getBoundingClientRect());
      const top = items[0].top - 8;
      return {
        x: items[0].left - 8,
        y: top + scrollY,
        width: items[0].width + 16,
        height: items[2].bottom - top + 8,
      };
    });
    await page.screenshot({
      path: join(out, `reader-phrases-${theme}.png`),
      clip: box,
      fullPage: true,
      animations: 'disabled',
    });
    await shot(page.locator('.player-bar'), 'player-bar');
    // Tall enough for the whole sheet, the reading settings at its end included.
    await page.setViewportSize({ width: 420, height: 1500 });
    await page.addStyleTag({ content: 'reader-app .reader-sheet { max-height: none !important; }' });
    await page.getByRole('button', { name: /^Player settings/ }).click();
    await shot(page.getByRole('dialog', { name: 'Player settings' }), 'reader-settings');
    await context.close();
    console.log(`${theme}: done`);
  }
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  rmSync(storage, { recursive: true, force: true });
}
