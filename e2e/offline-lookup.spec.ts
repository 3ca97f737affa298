import { adminSession, type Session } from './helpers/admin';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { downloadHere } from './helpers/device';
import { expect, test } from './helpers/fixtures';
import { wordPoint } from './helpers/reader';
import { PHONE } from './helpers/screens';

// Lookups offline (issue 34, docs/lookup.md "Offline"): a downloaded chapter takes its words' lookups with
// it; offline, a tapped word shows its entry, and Save and "I know this word" wait in the queue, sent once
// back online.

test.use({ ...PHONE, serviceWorkers: 'allow' });

const BOOK = 'der-leuchtturmwarter';
const WORD = 'Insel';
const MARK = Date.now().toString(36);
const DEFINITION = `island (offline journey ${MARK})`;

let admin: Session;
let dictionaryId: number | undefined;

test.beforeAll(async ({ request }) => {
  admin = await adminSession(request);
  const response = await request.post('/api/v1/admin/dictionary', {
    headers: { Authorization: `Bearer ${admin.token}` },
    multipart: {
      files: {
        name: 'offline.tsv',
        mimeType: 'text/tab-separated-values',
        buffer: Buffer.from(`${WORD}\t${DEFINITION}\n`),
      },
      source: 'de',
      target: 'en',
      name: `Offline ${MARK}`,
    },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  dictionaryId = ((await response.json()) as { data: { id: number } }).data.id;
});

test.afterAll(async ({ request }) => {
  if (dictionaryId === undefined) return;
  await request.delete(`/api/v1/admin/dictionary/${dictionaryId}`, {
    headers: { Authorization: `Bearer ${admin.token}` },
  });
});

test('a downloaded chapter looks its words up offline; Save and I know this word are sent once back online', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const account = newAccount('offline-lookup');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await downloadHere(page, `/read/${BOOK}/1`);

  await context.setOffline(true);
  await page.goto(`/read/${BOOK}/1`);
  await expect(page.locator('reader-app.ready')).toBeAttached();
  const point = await wordPoint(page, 1, WORD);
  await page.touchscreen.tap(point.x, point.y);
  const sheet = page.getByRole('dialog', { name: WORD });
  await expect(sheet.getByText(DEFINITION)).toBeVisible();

  await sheet.getByRole('button', { name: new RegExp(`^Save “${WORD}”`) }).click();
  await expect(sheet.getByRole('button', { name: new RegExp(`^Save “${WORD}”`) })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await sheet.getByRole('button', { name: 'I know this word' }).click();
  await expect(sheet.getByRole('button', { name: 'I know this word' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Back online: the queue is sent; the server has the card and the status (known wins over learning).
  const sent = page.waitForRequest(
    (r) => r.url().endsWith('/api/v1/user/word-status') && r.method() === 'PUT',
  );
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await sent;
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const token = ((await login.json()) as { token: string }).token;
  await expect
    .poll(async () => {
      const words = await request.get('/api/v1/user/words', {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await words.json()) as { data: Array<{ term: string; meaning: string }> }).data.map((w) => [
        w.term,
        w.meaning,
      ]);
    })
    .toEqual([[WORD, DEFINITION]]);
  const marks = await request.get(`/api/v1/user/word-status/chapter?book_code=${BOOK}&chapter_no=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(
    ((await marks.json()) as { data: { words: Record<string, string> } }).data.words[WORD.toLowerCase()],
  ).toBe('known');
});
