import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { adminSession, type Session } from './helpers/admin';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { expect, test } from './helpers/fixtures';
import { audioState, inSettings, PLAY_ICON, playing, wordPoint } from './helpers/reader';
import { PHONE, SCREENS } from './helpers/screens';
import { smallTargets, TAP_PX } from './helpers/tap-targets';

// Tap any word (issue 33, docs/practice.md "Word lookups"): a word of a demo phrase that its glossary does
// not cover, found in a dictionary the journey imports (and deletes at its end, so other journeys never
// meet it), seen with its attribution, saved as a card; the phrase still plays in one tap; axe with the
// lookup open; the keyboard's list of words, and the player bar's Words button (a touch screen reader's way
// to them); a second word tapped while a lookup is open; a word of a phrase revealed in Hide text.

const BOOK = 'der-leuchtturmwarter';
// Phrase 1: "Die Fähre brachte nur zweimal in der Woche Post auf die Insel." Its glossary: Fähre, zweimal,
// Post. "Insel" is in none of it.
const WORD = 'Insel';
const MARK = Date.now().toString(36);
const DEFINITION = `island (journey ${MARK})`;
// A definition of four lines (the TSV's HTML <br>, made line breaks on import): a card keeps it whole.
const MORE_LINES = ['isle', 'land surrounded by water', 'Eiland (poetic)'];
const SAVED_MEANING = [DEFINITION, ...MORE_LINES].join('\n');
const ATTRIBUTION = `Word lookup journey, ${MARK}`;

let admin: Session;
let dictionaryId: number | undefined;

test.beforeAll(async ({ request }) => {
  admin = await adminSession(request);
  const response = await request.post('/api/v1/admin/dictionary', {
    headers: { Authorization: `Bearer ${admin.token}` },
    multipart: {
      files: {
        name: 'journey.tsv',
        mimeType: 'text/tab-separated-values',
        buffer: Buffer.from(`${WORD}\t${[DEFINITION, ...MORE_LINES].join('<br>')}\tnoun\n`),
      },
      source: 'de',
      target: 'en',
      name: `Journey ${MARK}`,
      attribution: ATTRIBUTION,
    },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  dictionaryId = ((await response.json()) as { data: { id: number } }).data.id;
});

test.afterAll(async ({ request }) => {
  if (dictionaryId === undefined) return;
  const response = await request.delete(`/api/v1/admin/dictionary/${dictionaryId}`, {
    headers: { Authorization: `Bearer ${admin.token}` },
  });
  expect(response.status()).toBeLessThan(300);
});

async function member(page: Page, request: APIRequestContext, label: string): Promise<void> {
  const account = newAccount(label);
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Tap-to-visible, as the page measured it (performance.measure 'lookup-open'): reported, not asserted. */
const openTime = (page: Page) =>
  page.evaluate(() => performance.getEntriesByName('lookup-open').at(-1)?.duration ?? null);

for (const [name, screen] of SCREENS) {
  test.describe(`on a ${name}`, () => {
    test.use(screen);
    const touch = name === 'phone';

    test('a tapped word not in the glossary shows its entry and attribution, is saved, and the phrase still plays in one tap', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      await member(page, request, `lookup-${name}`);
      await page.goto(`/read/${BOOK}/1`);
      await expect(page.locator('reader-app.ready')).toBeAttached();

      const point = await wordPoint(page, 1, WORD);
      if (touch) await page.touchscreen.tap(point.x, point.y);
      else await page.mouse.click(point.x, point.y);
      const sheet = page.getByRole('dialog', { name: WORD });
      await expect(sheet).toBeVisible();
      // A tap on a word is not the phrase's play.
      expect((await audioState(page)).paused).toBe(true);
      await expect(page.locator('li#p-1 .w.looked-up')).toHaveText(WORD);

      await expect(sheet.getByText(DEFINITION)).toBeVisible();
      await expect(sheet.getByText(MORE_LINES[1])).toBeVisible();
      // The definition is in the answer's target language (a learner with no "I speak": English).
      await expect(sheet.locator('.lookup-definition')).toHaveAttribute('lang', 'en');
      await expect(sheet.getByText(ATTRIBUTION, { exact: false })).toBeVisible();
      await expect(sheet.getByText('Looking up…')).toHaveCount(0);
      if (touch) {
        // The bottom sheet: the width of the screen, down to its bottom, once it has slid in (on a loaded
        // machine its transition may still be under way here).
        await expect
          .poll(async () => {
            const box = (await sheet.boundingBox())!;
            return [Math.round(box.width), Math.round(box.y + box.height)];
          })
          .toEqual([375, 812]);
      } else {
        const box = (await sheet.boundingBox())!;
        // The popover: by the word, under it.
        expect(box.y).toBeGreaterThan(point.y);
        expect(box.y).toBeLessThan(point.y + 60);
      }
      const ms = await openTime(page);
      test.info().annotations.push({ type: 'lookup-open-ms', description: String(ms) });
      console.log(`Tap to lookup on screen (${name}, first tap): ${ms} ms`);

      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

      // Save: a card whose meaning is the dictionary's.
      const save = sheet.getByRole('button', { name: new RegExp(`^Save “${WORD}”`) });
      const saving = page.waitForRequest(
        (r) => r.url().endsWith('/api/v1/user/words') && r.method() === 'POST',
      );
      await save.click();
      // The whole definition, line by line, as it fits in a card (docs/practice.md, "Save").
      expect((await saving).postDataJSON()).toMatchObject({
        term: WORD,
        meaning: SAVED_MEANING,
        source: 'dictionary',
      });
      await expect(save).toHaveAttribute('aria-pressed', 'true');
      await expect(save).toHaveText('Saved');

      // The narrator's clip of the phrase, from the sheet.
      await sheet.getByRole('button', { name: 'Play phrase 1' }).click();
      await playing(page).toBe(true);
      expect((await audioState(page)).src).toContain(await page.locator('li#p-1').getAttribute('data-audio'));

      // Escape closes it; the highlight goes.
      await page.keyboard.press('Escape');
      await expect(sheet).toBeHidden();
      await expect(page.locator('li#p-1 .w.looked-up')).toHaveCount(0);

      // The phrase plays in one tap from its play icon (and opens no lookup).
      const second = page.locator('li#p-2 .phrase');
      if (touch) await second.tap(PLAY_ICON);
      else await second.click(PLAY_ICON);
      await expect(page.locator('li#p-2')).toHaveClass(/current/);
      await playing(page).toBe(true);
      expect((await audioState(page)).src).toContain(await page.locator('li#p-2').getAttribute('data-audio'));
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // After a reload, the sheet still knows the entry is saved (the member's cards of the chapter), even
      // when the cards arrive after it opened (held here until then).
      let releaseCards!: () => void;
      const cardsHeld = new Promise<void>((resolve) => (releaseCards = resolve));
      const cards = /\/api\/v1\/user\/words\?book_code=/;
      await page.route(cards, async (route) => {
        await cardsHeld;
        await route.continue();
      });
      await page.reload();
      await expect(page.locator('reader-app.ready')).toBeAttached();
      const again = await wordPoint(page, 1, WORD);
      if (touch) await page.touchscreen.tap(again.x, again.y);
      else await page.mouse.click(again.x, again.y);
      const saveAgain = sheet.getByRole('button', { name: new RegExp(`^Save “${WORD}”`) });
      await expect(saveAgain).toHaveAttribute('aria-pressed', 'false');
      releaseCards();
      await expect(saveAgain).toHaveAttribute('aria-pressed', 'true');
      await expect(saveAgain).toHaveText('Saved');
      await page.unroute(cards);
      await page.keyboard.press('Escape');

      // The card, with the dictionary's meaning.
      await page.goto('/words');
      const card = page.getByRole('listitem').filter({ hasText: DEFINITION });
      await expect(card).toBeVisible();
      await expect(card).toContainText(WORD);
      await expect(card).toContainText(MORE_LINES[1]);
      await expect(card).toContainText(`Meaning from Journey ${MARK}`);
    });

    test('a tap on another word while a lookup is open opens that word’s lookup in the same tap', async ({
      page,
    }) => {
      await page.goto(`/read/${BOOK}/1`);
      await expect(page.locator('reader-app.ready')).toBeAttached();
      const tap = async ({ x, y }: { x: number; y: number }) => {
        if (touch) await page.touchscreen.tap(x, y);
        else await page.mouse.click(x, y);
      };
      await tap(await wordPoint(page, 1, WORD));
      const first = page.getByRole('dialog', { name: WORD });
      await expect(first.getByText(DEFINITION)).toBeVisible();
      // On the phone, the text above the sheet; on a laptop, beside the popover: one tap, the next lookup.
      const woche = await wordPoint(page, 1, 'Woche', true);
      const box = (await first.boundingBox())!;
      expect(
        woche.y < box.y || woche.y > box.y + box.height || woche.x < box.x || woche.x > box.x + box.width,
      ).toBe(true);
      await tap(woche);
      const next = page.getByRole('dialog', { name: 'Woche' });
      await expect(next).toBeVisible();
      await expect(page.locator('li#p-1 .w.looked-up')).toHaveText('Woche');
      await expect(page.getByRole('dialog')).toHaveCount(1);
      expect((await audioState(page)).paused).toBe(true);
      if (!touch) {
        // Escape still gives the focus back to the phrase, then a click on a word opens it again.
        await page.keyboard.press('Escape');
        await expect(next).toBeHidden();
        await expect(page.locator('li#p-1 .phrase')).toBeFocused();
        await tap(woche);
        await expect(next).toBeVisible();
      }
      // A tap outside on no word (the phrase's play icon) only closes it.
      const phrase = (await page.locator('li#p-1 .phrase').boundingBox())!;
      await tap({ x: phrase.x + PLAY_ICON.position.x, y: phrase.y + PLAY_ICON.position.y });
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.locator('li#p-1 .w.looked-up')).toHaveCount(0);
      expect((await audioState(page)).paused).toBe(true);
    });
  });
}

test.describe('on a phone, with a screen reader', () => {
  test.use(PHONE);

  test('the player bar’s Words button lists the current phrase’s words, each opening its lookup', async ({
    page,
  }) => {
    await page.goto(`/read/${BOOK}/1`);
    await expect(page.locator('reader-app.ready')).toBeAttached();
    const bar = page.getByRole('group', { name: 'Player' });
    const words = bar.getByRole('button', { name: 'Words of this phrase' });
    await expect(words).toBeEnabled();
    const box = (await words.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(TAP_PX);
    expect(box.height).toBeGreaterThanOrEqual(TAP_PX);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await smallTargets(page)).toEqual([]);

    // The current phrase's: phrase 2, once it has played.
    await page.locator('li#p-2 .phrase').tap(PLAY_ICON);
    await expect(page.locator('li#p-2')).toHaveClass(/current/);
    await words.tap();
    const list = page.getByRole('dialog', { name: 'Words of phrase 2' });
    await expect(list).toBeVisible();
    await expect(list.getByRole('listitem').first()).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await list.getByRole('button', { name: 'Close the lookup' }).tap();
    await expect(list).toBeHidden();
    await expect(words).toBeFocused();

    // Phrase 1's, through its list, to the word's lookup and back.
    await page.locator('li#p-1 .phrase').tap(PLAY_ICON);
    await words.tap();
    const first = page.getByRole('dialog', { name: 'Words of phrase 1' });
    await first.getByRole('button', { name: WORD, exact: true }).tap();
    const sheet = page.getByRole('dialog', { name: WORD });
    await expect(sheet.getByText(DEFINITION)).toBeVisible();
    await sheet.getByRole('button', { name: 'All words' }).tap();
    await expect(first).toBeVisible();
  });

  test('a word of a phrase revealed in Hide text opens its lookup; a hidden phrase’s word plays it', async ({
    page,
  }) => {
    await page.goto(`/read/${BOOK}/1`);
    await expect(page.locator('reader-app.ready')).toBeAttached();
    await inSettings(page, () =>
      page
        .getByRole('dialog', { name: 'Player settings' })
        .getByRole('button', { name: 'Hide text' })
        .click(),
    );
    await expect(page.locator('[data-phrases]')).toHaveClass(/hide-text/);
    // Hidden, a tap on the phrase (on a word's place) plays it and reveals it: no lookup.
    const hidden = await wordPoint(page, 1, WORD);
    await page.touchscreen.tap(hidden.x, hidden.y);
    await expect(page.locator('li#p-1')).toHaveClass(/revealed/);
    await playing(page).toBe(true);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Revealed, its words are looked up.
    const shown = await wordPoint(page, 1, WORD);
    await page.touchscreen.tap(shown.x, shown.y);
    await expect(page.getByRole('dialog', { name: WORD }).getByText(DEFINITION)).toBeVisible();
  });
});

test.describe('by keyboard', () => {
  test.use(SCREENS[1][1]);

  test('W lists the focused phrase’s words, each opening its lookup; Escape gives the focus back; Enter plays', async ({
    page,
  }) => {
    await page.goto(`/read/${BOOK}/1`);
    await expect(page.locator('reader-app.ready')).toBeAttached();
    const phrase = page.locator('li#p-1 .phrase');
    await phrase.focus();
    await page.keyboard.press('w');
    const list = page.getByRole('dialog', { name: 'Words of phrase 1' });
    await expect(list).toBeVisible();
    const words = list.getByRole('listitem');
    await expect(words).toHaveText([
      'Die',
      'Fähre',
      'brachte',
      'nur',
      'zweimal',
      'in',
      'der',
      'Woche',
      'Post',
      'auf',
      'die',
      'Insel',
    ]);
    await expect(list.getByRole('button', { name: 'Die', exact: true })).toBeFocused();
    await list.getByRole('button', { name: WORD, exact: true }).press('Enter');
    const sheet = page.getByRole('dialog', { name: WORD });
    await expect(sheet.getByText(DEFINITION)).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    // Escape closes it and gives the focus back to the phrase, whose Enter plays it.
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expect(phrase).toBeFocused();
    await page.keyboard.press('Enter');
    await playing(page).toBe(true);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a visitor’s Save leads to sign-in', async ({ page }) => {
    await page.goto(`/read/${BOOK}/1`);
    await expect(page.locator('reader-app.ready')).toBeAttached();
    const point = await wordPoint(page, 1, WORD);
    await page.mouse.click(point.x, point.y);
    const sheet = page.getByRole('dialog', { name: WORD });
    await sheet.getByRole('button', { name: new RegExp(`^Save “${WORD}”`) }).click();
    await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/read/${BOOK}/1`)}`));
  });
});
