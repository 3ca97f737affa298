import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { adminApi, adminSession, media, useSession, type Session } from './helpers/admin';
import { newAccount, signUpByApi } from './helpers/accounts';
import { expect, test } from './helpers/fixtures';
import { setPlan } from './helpers/plans';
import { LAPTOP, PHONE, SCREENS } from './helpers/screens';
import {
  audioElements,
  audioEvents,
  playSequence,
  audioState,
  inSettings,
  PLAY_ICON,
  playing,
  recordAudio,
  settingsButton,
} from './helpers/reader';

// The reader on a phone (375×812, touch) and on a laptop (1280×800): the player bar, where the current
// phrase lands, the one play/pause button, a locked chapter, the first tap, accessibility and the focus ring.
// The fixtures' test fails any journey whose page throws or logs an error.

const BOOK = 'der-leuchtturmwarter';
const LONG_CHAPTER_PHRASES = 24;

const playAll = (page: Page) => page.getByRole('button', { name: 'Play all' });

/** A tap on a touch screen, a click elsewhere. */
const press = async (control: Locator, touch: boolean) => (touch ? control.tap() : control.click());

/** Where the current phrase's box is against the visible area above the bar ("inside" when wholly in it). */
const currentPlace = (page: Page) =>
  page.evaluate(() => {
    const phrase = document.querySelector('li[aria-current="true"]');
    const bar = document.querySelector('.player-bar');
    if (!phrase || !bar) return 'no current phrase';
    const box = phrase.getBoundingClientRect();
    const barTop = bar.getBoundingClientRect().top;
    return box.top >= 0 && box.bottom <= barTop
      ? 'inside'
      : `${phrase.id} spans ${Math.round(box.top)} to ${Math.round(box.bottom)}, the bar starts at ${Math.round(barTop)}`;
  });

async function expectCurrentInView(page: Page, position: number) {
  await expect(page.locator(`li#p-${position}`)).toHaveAttribute('aria-current', 'true');
  await expect.poll(() => currentPlace(page), { intervals: [100, 200, 400] }).toBe('inside');
}

const scrollTo = (page: Page, where: 'top' | 'bottom') =>
  page.evaluate(
    (end) => window.scrollTo(0, end === 'top' ? 0 : document.documentElement.scrollHeight),
    where,
  );

// A chapter long enough to scroll on both screens, read by a member in a trial (a chapter after the first
// is locked, so its phrases come through the API and the script draws them).
let admin: Session;
let chapter: { id: number; book: string; no: number };

/** A member in a trial, of their own (a place saved by one journey must not move another's). */
async function trialMember(request: APIRequestContext): Promise<Session> {
  const account = newAccount('phone');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const member = (await login.json()) as Session;
  await setPlan(request, member.user.id, 'trialing');
  return member;
}

test.beforeAll(async ({ request }) => {
  admin = await adminSession(request);
  const book = await adminApi<{ data: { id: number; book_code: string } }>(
    request,
    admin,
    'GET',
    'admin/book/le-petit-voyage',
  );
  const headers = { Authorization: `Bearer ${admin.token}` };
  const no = 900 + Math.floor(Math.random() * 99);
  const created = await request.post('/api/v1/admin/chapter', {
    headers,
    data: { title: 'Un long chapitre', chapter_no: no, book_id: book.body.data.id },
  });
  expect(created.status(), await created.text()).toBe(200);
  chapter = { id: ((await created.json()) as { data: { id: number } }).data.id, book: 'le-petit-voyage', no };
  const clip = readFileSync(media.clip);
  for (let n = 1; n <= LONG_CHAPTER_PHRASES; n++) {
    const added = await request.post('/api/v1/admin/phrase', {
      headers,
      multipart: {
        chapter_id: String(chapter.id),
        phrase:
          n % 3 === 0
            ? `Phrase ${n} : le train traversait lentement la campagne, et personne ne parlait dans le wagon.`
            : `Phrase ${n} : il regardait la mer.`,
        dictionary: 'train — train | mer — sea',
        line_audio: { name: 'clip.mp3', mimeType: 'audio/mpeg', buffer: clip },
      },
    });
    expect(added.status(), await added.text()).toBe(200);
  }
});

test.afterAll(async ({ request }) => {
  if (chapter) await adminApi(request, admin, 'DELETE', `admin/chapter/${chapter.id}`);
});

for (const [screen, layout] of SCREENS) {
  test.describe(`on a ${screen}`, () => {
    test.use(layout);
    const touch = screen === 'phone';

    test('after Next, Prev, ←, → and a resume, the current phrase lies wholly above the bar', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const member = await trialMember(request);
      await useSession(page, member);
      await page.goto(`/read/${chapter.book}/${chapter.no}`);
      await expect(page.locator(`li#p-${LONG_CHAPTER_PHRASES}`)).toBeAttached();
      await expect(playAll(page)).toBeEnabled();
      const next = page.getByRole('button', { name: 'Next phrase' });
      const previous = page.getByRole('button', { name: 'Previous phrase' });
      for (const n of [1, 2, 3]) {
        await press(next, touch);
        await expectCurrentInView(page, n);
      }
      // From above: the page scrolled to its end, the next phrase comes back into view.
      await scrollTo(page, 'bottom');
      await press(next, touch);
      await expectCurrentInView(page, 4);
      await page.keyboard.press('ArrowRight');
      await expectCurrentInView(page, 5);
      // The focus follows the current phrase after ← and →.
      await expect(page.locator('li#p-5')).toBeFocused();

      // From below: far down the chapter with the page at its top, the phrase must land above the bar.
      await page.locator('li#p-18 .phrase').click(PLAY_ICON);
      await expect(page.locator('li#p-18')).toHaveAttribute('aria-current', 'true');
      await scrollTo(page, 'top');
      await page.keyboard.press('ArrowRight');
      await expectCurrentInView(page, 19);
      await expect(page.locator('li#p-19')).toBeFocused();
      await scrollTo(page, 'top');
      await press(next, touch);
      await expectCurrentInView(page, 20);
      await scrollTo(page, 'top');
      await press(previous, touch);
      await expectCurrentInView(page, 19);
      await scrollTo(page, 'bottom');
      await page.keyboard.press('ArrowLeft');
      await expectCurrentInView(page, 18);
      await expect(page.locator('li#p-18')).toBeFocused();

      // A resume: the place is saved; a fresh visit opens at the top of the page and shows that phrase.
      await expect
        .poll(async () => {
          const answer = await request.get(`/api/v1/user/progress/${chapter.book}`, {
            headers: { Authorization: `Bearer ${member.token}` },
          });
          return ((await answer.json()) as { data?: { position: number } }).data?.position;
        })
        .toBe(18);
      await page.goto(`/read/${chapter.book}/${chapter.no}`);
      await expectCurrentInView(page, 18);
    });
  });
}

test.describe('on a phone', () => {
  test.use(PHONE);

  test('the player bar is at most 72 px tall, at the bottom, and the keyboard hints are hidden', async ({
    page,
  }) => {
    await page.goto(`/read/${BOOK}/1`);
    const bar = page.getByRole('group', { name: 'Player' });
    await expect(bar).toBeVisible();
    const box = (await bar.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(72);
    expect(box.y + box.height).toBeCloseTo(812, 0);
    for (const name of ['Previous phrase', 'Play all', 'Next phrase'])
      await expect(bar.getByRole('button', { name, exact: true })).toBeVisible();
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(bar.getByText('– / 4')).toBeVisible();
    await expect(settingsButton(page)).toHaveAccessibleName('Player settings, 1×');
    await expect(page.getByText('Keys:')).toBeHidden();

    await page.locator('li#p-2 .phrase').tap(PLAY_ICON);
    await expect(bar.getByText('2 / 4')).toBeVisible();
    // The settings sheet shows the current values, and the bar shows the speed.
    await inSettings(page, async () => {
      await expect(page.getByLabel('Speed')).toHaveValue('1');
      await expect(
        page.getByRole('group', { name: 'Loop' }).getByRole('radio', { name: 'Off' }),
      ).toBeChecked();
      await page.getByLabel('Speed').selectOption('1.2');
      await page.getByRole('radio', { name: '3 times' }).tap();
    });
    await expect(settingsButton(page)).toHaveAccessibleName('Player settings, 1.2×, loop 3 times');
  });

  test('one tap on Play all stops play all during a clip', async ({ page }) => {
    await recordAudio(page);
    await page.goto(`/read/${BOOK}/1`);
    await playAll(page).tap();
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'true');
    await playing(page).toBe(true);
    await playAll(page).tap();
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    await expectSilence(page, 1, 4500);
  });

  test('one tap on Play all stops play all during a shadowing pause', async ({ page }) => {
    test.setTimeout(90_000);
    await recordAudio(page);
    await page.goto(`/read/${BOOK}/1`);
    await inSettings(page, async () => {
      await page.getByLabel('Speed').selectOption('1.5');
      await page.getByRole('radio', { name: 'Pause ×2' }).tap();
    });
    await playAll(page).tap();
    // Phrase 1 (4.3 s) ends at 1.5×; a pause twice its length (5.7 s) follows.
    await expect
      .poll(async () => (await audioEvents(page)).some((e) => e.type === 'ended'), {
        timeout: 15_000,
        intervals: [100],
      })
      .toBe(true);
    await playAll(page).tap();
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
    await expectSilence(page, 1, 7000);
  });

  test('one tap on Play all stops play all during a loop, which play all applies too', async ({ page }) => {
    test.setTimeout(90_000);
    await openLoopingAlways(page);
    await playAll(page).tap();
    // The first phrase plays, ends and plays again: the loop, in play all.
    await expect.poll(() => playSequence(page), { timeout: 15_000 }).toMatch(/^playing ended playing/);
    const events = await audioEvents(page);
    expect(new Set(events.map((e) => e.src)).size).toBe(1);
    await playAll(page).tap();
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    await expectSilence(page, 1, 3500);
  });

  test('a phrase tapped alone shows the button pressed, and one tap stops it and its loop', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await openLoopingAlways(page);
    await page.locator('li#p-2 .phrase').tap(PLAY_ICON);
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'true');
    // Phrase 2 plays, ends and plays again: the loop on a tapped phrase.
    await expect.poll(() => playSequence(page), { timeout: 15_000 }).toMatch(/^playing ended playing/);
    await playAll(page).tap();
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    await expectSilence(page, 2, 3500);
  });

  test('a phrase tapped alone, once over, leaves the button not pressed', async ({ page }) => {
    await recordAudio(page);
    await page.goto(`/read/${BOOK}/1`);
    await inSettings(page, async () => page.getByLabel('Speed').selectOption('1.5'));
    await page.locator('li#p-1 .phrase').tap(PLAY_ICON);
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => playSequence(page), { timeout: 15_000 }).toMatch(/ended/);
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
    // Pressed now, it plays all from the tapped phrase.
    await playAll(page).tap();
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'true');
    await playing(page).toBe(true);
  });

  test("a locked chapter's player is disabled, and nothing throws", async ({ page }) => {
    await page.goto(`/read/${BOOK}/2`);
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    const bar = page.getByRole('group', { name: 'Player' });
    for (const name of [/^Previous phrase$/, /^Play all$/, /^Next phrase$/, /^Player settings/])
      await expect(bar.getByRole('button', { name })).toBeDisabled();
    // The keys find nothing to play either (the fixtures fail the test on any page error).
    for (const key of ['Space', 'ArrowRight', 'ArrowLeft', 'r', ']']) await page.locator('body').press(key);
    await page.evaluate(() => document.querySelector<HTMLButtonElement>('[data-action="play"]')?.click());
    await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
  });

  test('the first tap on a fresh page plays a clip loaded ahead, and the next one is loaded too', async ({
    page,
  }) => {
    await recordAudio(page);
    await page.goto(`/read/${BOOK}/1`);
    const clip = async (n: number) =>
      new URL((await page.locator(`li#p-${n}`).getAttribute('data-audio'))!, page.url()).pathname;
    const [first, second] = [await clip(1), await clip(2)];
    // Before any tap: phrase 1's clip and phrase 2's are loaded (HAVE_FUTURE_DATA or more), silent.
    await expect
      .poll(async () =>
        (await audioElements(page))
          .filter((audio) => audio.readyState >= 3 && audio.paused)
          .map((audio) => audio.path)
          .sort(),
      )
      .toEqual([first, second].sort());
    await playAll(page).tap();
    await playing(page).toBe(true);
    expect(new URL((await audioState(page)).src).pathname).toBe(first);
  });

  test('the reader on a phone passes an accessibility audit', async ({ page }) => {
    await page.goto(`/read/${BOOK}/1`);
    await page.locator('li#p-1 .phrase').tap(PLAY_ICON);
    await expect(page.locator('li#p-1')).toHaveAttribute('aria-current', 'true');
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });

  test('the settings sheet passes an accessibility audit', async ({ page }) => {
    await page.goto(`/read/${BOOK}/1`);
    await settingsButton(page).tap();
    await expect(page.getByRole('dialog', { name: 'Player settings' })).toBeVisible();
    await page.getByRole('button', { name: 'Hide text' }).tap();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
});

/** Chapter 1 at 1.5×, every phrase looping until stopped; audio events recorded. */
async function openLoopingAlways(page: Page) {
  await recordAudio(page);
  await page.goto(`/read/${BOOK}/1`);
  await inSettings(page, async () => {
    await page.getByLabel('Speed').selectOption('1.5');
    await page.getByRole('radio', { name: 'Always' }).tap();
  });
}

/** Nothing plays for `ms`, and phrase `position` is still the current one. */
async function expectSilence(page: Page, position: number, ms: number) {
  const stoppedAt = await page.evaluate(() => performance.now());
  await page.waitForTimeout(ms);
  const later = (await audioEvents(page)).filter((e) => e.type === 'playing' && e.at > stoppedAt);
  expect(later).toEqual([]);
  expect((await audioState(page)).paused).toBe(true);
  await expect(page.locator(`li#p-${position}`)).toHaveAttribute('aria-current', 'true');
  await expect(playAll(page)).toHaveAttribute('aria-pressed', 'false');
}

test.describe('on a laptop', () => {
  test.use(LAPTOP);

  test('the bar floats at the bottom of the reading column, with the keyboard hints above the phrases', async ({
    page,
  }) => {
    await page.goto(`/read/${BOOK}/1`);
    const bar = (await page.getByRole('group', { name: 'Player' }).boundingBox())!;
    const list = (await page.locator('[data-phrases]').boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(800);
    expect(bar.y + bar.height).toBeGreaterThan(770);
    expect(Math.round(bar.x)).toBe(Math.round(list.x));
    expect(Math.round(bar.width)).toBe(Math.round(list.width));
    await expect(page.getByText('Keys:')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Repeat the phrase' })).toBeVisible();
  });

  test('the focus ring has at least 3:1 contrast against every background it sits on', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/read/${BOOK}/1`);
    await expect(playAll(page)).toBeEnabled();
    const rings: Ring[] = [];
    // Everything Tab reaches on the page, once round (the header, the bar, the phrases, the footer).
    await page.locator('body').focus();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const ring = await focusRing(page);
      if (ring) rings.push(ring);
    }
    // The current phrase (focused after →), then its phrase button and Save toggles, on its tinted card.
    await playAll(page).focus();
    await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 4; i++) {
      const ring = await focusRing(page);
      if (ring) rings.push(ring);
      await page.keyboard.press('Tab');
    }
    // The settings sheet: each control, a checked choice (dark) and the switch turned on.
    await settingsButton(page).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Hide text' }).press('Enter');
    await page.getByRole('radio', { name: 'Off' }).first().focus();
    await page.keyboard.press('ArrowRight');
    // (From the sheet's last control, Tab goes to the browser's own controls, then round again, through
    // the mode and, with translations, their switch.)
    for (let i = 0; i < 11; i++) {
      const ring = await focusRing(page);
      if (ring) rings.push(ring);
      await page.keyboard.press('Tab');
    }
    const names = rings.map((ring) => ring.name);
    for (const name of ['Play all', 'Next phrase', 'p-1', 'Speed', '2 times', 'Hide text', 'Reveal all'])
      expect(names, 'controls whose ring was measured').toContain(name);
    expect(rings.filter((ring) => !ring.visible || ring.contrast < 3)).toEqual([]);
  });
});

interface Ring {
  name: string;
  visible: boolean;
  contrast: number;
  ring: string;
  background: string;
}

/**
 * The focused control's ring: its outline's colour against the background it sits on (the outline is
 * drawn outside the control, so the colour behind the control's parent) and against the control's own
 * fill when it has one. A segmented choice's radio is invisible; its label's text carries the ring.
 */
function focusRing(page: Page): Promise<Ring | null> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body) return null;
    const target =
      focused.matches('.segments input') && focused.nextElementSibling instanceof HTMLElement
        ? focused.nextElementSibling
        : focused;
    const rgba = (color: string) => {
      const [r, g, b, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a };
    };
    const behind = (element: Element | null) => {
      const layers: Array<ReturnType<typeof rgba>> = [];
      for (let at = element; at; at = at.parentElement) {
        const color = rgba(getComputedStyle(at).backgroundColor);
        if (color.a > 0) layers.push(color);
        if (color.a >= 1) break;
      }
      let result = { r: 255, g: 255, b: 255 };
      for (const layer of layers.reverse())
        result = {
          r: layer.r * layer.a + result.r * (1 - layer.a),
          g: layer.g * layer.a + result.g * (1 - layer.a),
          b: layer.b * layer.a + result.b * (1 - layer.a),
        };
      return result;
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (c: number) =>
        c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4;
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const contrast = (x: { r: number; g: number; b: number }, y: { r: number; g: number; b: number }) => {
      const [light, dark] = [luminance(x), luminance(y)].sort((p, q) => q - p);
      return (light + 0.05) / (dark + 0.05);
    };
    const style = getComputedStyle(target);
    const ring = rgba(style.outlineColor);
    const backgrounds = [behind(target.parentElement)];
    if (rgba(style.backgroundColor).a >= 1) backgrounds.push(behind(target));
    const name =
      focused.getAttribute('aria-label') ??
      (focused.matches('select') ? 'Speed' : focused.tagName === 'LI' ? focused.id : null) ??
      (focused.closest('label') ?? focused).textContent?.trim().slice(0, 40) ??
      '';
    return {
      name,
      visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && ring.a === 1,
      contrast: Math.min(...backgrounds.map((background) => contrast(ring, background))),
      ring: style.outlineColor,
      background: backgrounds.map((b) => `rgb(${b.r}, ${b.g}, ${b.b})`).join(' / '),
    };
  });
}
