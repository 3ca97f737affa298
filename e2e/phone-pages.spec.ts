import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { newAccount, signUpByApi } from './helpers/accounts';
import { adminSession, newBookChapter, removeBook, useSession, type Session } from './helpers/admin';
import { threeTones } from './helpers/recording';
import { PHONE } from './helpers/screens';
import { smallTargets } from './helpers/tap-targets';
import { PLAY_ICON } from './helpers/reader';

/**
 * Issue 32 (docs/design.md, "Checking a page"): every page of the product, on a 375 px phone, has
 * controls a thumb can hit (44×44 CSS px at least, links in running text exempt), no axe violation, and
 * no emoji or text glyph standing in for an icon (the icon set draws them: site/lib/icons.ts).
 */
test.use(PHONE);

const BOOK = 'der-leuchtturmwarter';

/** A glyph that is an icon when a page shows it: any pictograph, and the text symbols used as ones. */
const ICON_GLYPHS = '[\\p{Extended_Pictographic}✓★⠿‹›]';
/** Typographic signs that are text, not icons, though Unicode counts them as pictographs. */
const TEXT_SIGNS = '©®™';

let admin: Session;
let member: Session;
const imported = { bookCode: '', chapterId: 0 };

interface Where {
  name: string;
  url: string;
  as: 'visitor' | 'member' | 'admin';
  /** Resolves once the page's content is drawn. */
  ready: (page: Page) => Promise<void>;
}

const heading = (page: Page, name?: string | RegExp) =>
  expect(page.getByRole('heading', { level: 1, ...(name ? { name } : {}) })).toBeVisible();
const loaded = async (page: Page, name: string | RegExp) => {
  await heading(page, name);
  await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);
};

const PAGES: Where[] = [
  { name: 'home', url: '/', as: 'visitor', ready: (page) => heading(page) },
  { name: 'books', url: '/books', as: 'visitor', ready: (page) => heading(page) },
  { name: 'a book', url: `/book-detail/${BOOK}`, as: 'visitor', ready: (page) => heading(page) },
  {
    name: 'the reader',
    url: `/read/${BOOK}/1`,
    as: 'visitor',
    ready: async (page) => {
      // The current phrase shows its pills (Save, marks, translation): measured too.
      await page.locator('li#p-1 .phrase').click(PLAY_ICON);
      await expect(page.locator('li#p-1')).toHaveClass(/current/);
    },
  },
  {
    name: 'review',
    url: '/review',
    as: 'member',
    ready: async (page) => {
      await expect(page.getByText('2 cards left')).toBeVisible();
      // The answer buttons show once the answer does.
      await page.getByRole('button', { name: 'Show answer' }).click();
      await expect(page.getByRole('button', { name: /^Good/ })).toBeVisible();
    },
  },
  {
    name: 'words',
    url: '/words',
    as: 'member',
    ready: (page) => expect(page.getByText('2 words', { exact: true })).toBeVisible(),
  },
  {
    name: 'dashboard',
    url: '/dashboard',
    as: 'member',
    ready: (page) => expect(page.locator('[data-stat="words"]')).toHaveText('2'),
  },
  { name: 'downloads', url: '/downloads', as: 'member', ready: (page) => heading(page) },
  {
    name: 'profile',
    url: '/profile',
    as: 'member',
    ready: (page) => expect(page.getByText(member.user.email).first()).toBeVisible(),
  },
  {
    name: 'admin book list',
    url: '/admin/books',
    as: 'admin',
    ready: async (page) => {
      await loaded(page, 'Books');
      await expect(page.getByRole('table', { name: 'Book List' }).getByRole('rowheader')).not.toHaveCount(0);
    },
  },
  {
    name: 'admin book page',
    url: `/admin/book-detail/${BOOK}`,
    as: 'admin',
    ready: async (page) => {
      await loaded(page, /Leuchtturmw/);
      await expect(page.getByRole('table', { name: /^Chapters of / }).getByRole('rowheader')).not.toHaveCount(
        0,
      );
    },
  },
  {
    name: 'admin dictionaries',
    url: '/admin/dictionaries',
    as: 'admin',
    ready: async (page) => {
      await loaded(page, 'Dictionaries');
      await expect(page.getByRole('table', { name: 'Word forms' })).toBeVisible();
    },
  },
  {
    name: 'admin import preview',
    url: '',
    as: 'admin',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Preview: 3 phrases' })).toBeVisible({
        timeout: 60_000,
      });
      await expect(page.getByRole('slider', { name: 'Start of segment 2' })).toBeVisible();
    },
  },
];

/** A member with two saved words of the demo book's first chapter, so review and words have cards. */
async function memberWithWords(request: APIRequestContext): Promise<Session> {
  const account = newAccount('phone');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const session = (await login.json()) as Session;
  const chapter = (await (await request.get(`/api/v1/guest/book/${BOOK}/chapter/1`)).json()) as {
    data: { phrases: Array<{ id: number; position: number }> };
  };
  for (const [position, term] of [
    [1, 'Fähre'],
    [2, 'Umschlag'],
  ] as const) {
    const phrase = chapter.data.phrases.find((p) => p.position === position)!;
    const saved = await request.post('/api/v1/user/words', {
      headers: { Authorization: `Bearer ${session.token}` },
      data: { phrase_id: phrase.id, term },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  return session;
}

/** An import of a recording into a book of the spec's own, up to its preview (the waveform editor). */
async function toPreview(page: Page): Promise<void> {
  await page.goto(`/admin/chapter/phrase/import/${imported.chapterId}`);
  await page.getByLabel('Text file (TSV, CSV or plain text)').setInputFiles({
    name: 'chapter.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Eins.\nZwei.\nDrei.\n'),
  });
  await page.getByLabel('Or one recording of the whole chapter (aligned to its text)').setInputFiles({
    name: 'chapter.wav',
    mimeType: 'audio/wav',
    buffer: threeTones(),
  });
  await page.getByRole('button', { name: 'Preview' }).click();
}

/** Every icon-like glyph the page shows, in its text or drawn by ::before/::after, with where it is. */
function iconGlyphs(page: Page): Promise<string[]> {
  return page.evaluate(
    ([pattern, allowed]) => {
      const glyph = new RegExp(pattern, 'gu');
      const found: string[] = [];
      const where = (element: Element) =>
        `${element.tagName.toLowerCase()}${element.classList.length ? `.${[...element.classList].join('.')}` : ''}`;
      const hits = (text: string) => (text.match(glyph) ?? []).filter((c) => !allowed.includes(c));
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !parent.checkVisibility() || parent.closest('script, style, template')) continue;
        for (const c of hits(node.textContent ?? ''))
          found.push(`${where(parent)} "${(node.textContent ?? '').trim().slice(0, 30)}": ${c}`);
      }
      for (const element of document.body.querySelectorAll('*')) {
        if (!element.checkVisibility()) continue;
        for (const pseudo of ['::before', '::after']) {
          const content = getComputedStyle(element, pseudo).content;
          if (content && content !== 'none' && content !== 'normal')
            for (const c of hits(content)) found.push(`${where(element)}${pseudo}: ${c}`);
        }
      }
      return found;
    },
    [ICON_GLYPHS, TEXT_SIGNS] as const,
  );
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(60_000);
  admin = await adminSession(request);
  member = await memberWithWords(request);
  Object.assign(imported, await newBookChapter(request, admin, null));
});

test.afterAll(async ({ request }) => {
  if (imported.bookCode) await removeBook(request, admin, imported.bookCode);
});

for (const where of PAGES)
  test(`${where.name}: 44 px targets, no axe violation, no emoji as an icon`, async ({ page }) => {
    test.setTimeout(120_000);
    if (where.as !== 'visitor') await useSession(page, where.as === 'admin' ? admin : member);
    if (where.url) await page.goto(where.url);
    else await toPreview(page);
    await where.ready(page);

    // Each list names every offender, so one run shows all there is to fix on the page.
    const small = (await smallTargets(page)).map((t) => `${t.what} ${t.width}×${t.height}`);
    expect.soft(small, 'controls under 44×44 CSS px').toEqual([]);
    const violations = (await new AxeBuilder({ page }).analyze()).violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect.soft(violations, 'axe violations').toEqual([]);
    expect.soft(await iconGlyphs(page), 'emoji or glyphs used as icons').toEqual([]);
  });
