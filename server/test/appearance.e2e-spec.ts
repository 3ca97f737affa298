import { ApiClient, newMember } from './api-client';
import { startServer, type TestServer } from './harness';

/**
 * `user/appearance`: a member's theme, text size and line spacing, shared by their devices; the later
 * choice wins (docs/design.md, "Themes and reading settings").
 */
interface Setting {
  theme: string;
  text_size: number;
  line_spacing: number;
  updated_at: string;
}
type Answer = { data: Setting | null };
type Saved = { data: Setting; kept?: true; message?: string };
type Refusal = { message: string; errors?: Record<string, string[]> };

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('A member’s appearance, kept on the server', () => {
  let server: TestServer;
  let member: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    member = (await newMember(server)).client;
  });
  afterAll(() => server?.close());

  it('answers null until the member chooses, and 401 to a visitor', async () => {
    expect((await member.get<Answer>('user/appearance')).body).toEqual({ data: null });
    expect((await new ApiClient(server).get('user/appearance')).status).toBe(401);
    expect(
      (await new ApiClient(server).put('user/appearance', { theme: 'dark', text_size: 3, line_spacing: 1 }))
        .status,
    ).toBe(401);
  });

  it('keeps a choice and answers it on every device, the member’s own only', async () => {
    const before = Date.now();
    const saved = await member.put<Saved>('user/appearance', {
      theme: 'sepia',
      text_size: 4,
      line_spacing: 3,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ theme: 'sepia', text_size: 4, line_spacing: 3 });
    expect(Date.parse(saved.body.data.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(saved.body.kept).toBeUndefined();
    expect((await member.get<Answer>('user/appearance')).body.data).toEqual(saved.body.data);
    const other = (await newMember(server, 'Otto Other')).client;
    expect((await other.get<Answer>('user/appearance')).body).toEqual({ data: null });
  });

  it('keeps the later choice: an older one sent late is answered with the kept one', async () => {
    const { client } = await newMember(server);
    const at = ago(HOUR);
    const later = await client.put<Saved>('user/appearance', {
      theme: 'dark',
      text_size: 1,
      line_spacing: 2,
      at,
    });
    expect(later.body.data).toMatchObject({ theme: 'dark', text_size: 1, line_spacing: 2 });
    // The time of the choice, not of its arrival.
    expect(Math.abs(Date.parse(later.body.data.updated_at) - Date.parse(at))).toBeLessThan(1000);
    const older = await client.put<Saved>('user/appearance', {
      theme: 'light',
      text_size: 3,
      line_spacing: 3,
      at: ago(2 * HOUR),
    });
    expect([older.status, older.body.kept, older.body.data.theme, older.body.data.text_size]).toEqual([
      200,
      true,
      'dark',
      1,
    ]);
    expect(older.body.message).toBe('A later choice was made on another device: it is kept.');
    const newer = await client.put<Saved>('user/appearance', {
      theme: 'light',
      text_size: 3,
      line_spacing: 3,
      at: ago(HOUR / 2),
    });
    expect([newer.body.kept, newer.body.data.theme]).toEqual([undefined, 'light']);
  });

  it('takes a time ahead of the server’s clock as now, so a fast clock cannot win for ever', async () => {
    const { client } = await newMember(server);
    const future = new Date(Date.now() + 24 * HOUR).toISOString();
    const saved = await client.put<Saved>('user/appearance', {
      theme: 'dark',
      text_size: 2,
      line_spacing: 2,
      at: future,
    });
    expect(Date.parse(saved.body.data.updated_at)).toBeLessThanOrEqual(Date.now());
    const next = await client.put<Saved>('user/appearance', {
      theme: 'sepia',
      text_size: 2,
      line_spacing: 2,
    });
    expect([next.body.kept, next.body.data.theme]).toEqual([undefined, 'sepia']);
  });

  it('leaves the later of two racing choices, whatever the order they land in', async () => {
    const { client } = await newMember(server);
    const choices = Array.from({ length: 8 }, (_, i) => ({
      theme: i % 2 ? 'dark' : 'sepia',
      text_size: (i % 4) + 1,
      line_spacing: 1,
      at: ago((8 - i) * 60_000),
    }));
    await Promise.all(choices.map((choice) => client.put('user/appearance', choice)));
    expect((await client.get<Answer>('user/appearance')).body.data).toMatchObject({
      theme: 'dark',
      text_size: 4,
    });
  });

  it('refuses every bad value with a 422 on its field, keeping the saved choice', async () => {
    const { client } = await newMember(server);
    await client.put('user/appearance', { theme: 'dark', text_size: 3, line_spacing: 1 });
    const good = { theme: 'light', text_size: 2, line_spacing: 2 };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...good, theme: 'purple' }, 'theme', 'The theme must be system, light, dark or sepia.'],
      [{ ...good, theme: undefined }, 'theme', 'The theme field is required.'],
      [{ ...good, text_size: 5 }, 'text_size', 'The text size must be a whole number from 1 to 4.'],
      [{ ...good, text_size: 0 }, 'text_size', 'The text size must be a whole number from 1 to 4.'],
      [{ ...good, text_size: 2.5 }, 'text_size', 'The text size must be a whole number from 1 to 4.'],
      [{ ...good, text_size: 'big' }, 'text_size', 'The text size must be a whole number from 1 to 4.'],
      [{ ...good, line_spacing: 4 }, 'line_spacing', 'The line spacing must be a whole number from 1 to 3.'],
      [{ ...good, line_spacing: null }, 'line_spacing', 'The line spacing field is required.'],
      [
        { ...good, at: 'yesterday' },
        'at',
        'The time of the choice must be a date and time such as 2026-11-22T09:30:00Z.',
      ],
      [{ ...good, at: ago(40 * 24 * HOUR) }, 'at', 'The time of the choice must be within the last 30 days.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.put<Refusal>('user/appearance', body);
      expect([JSON.stringify(body), res.status, res.body.errors?.[field]]).toEqual([
        JSON.stringify(body),
        422,
        [message],
      ]);
    }
    expect((await client.get<Answer>('user/appearance')).body.data).toMatchObject({
      theme: 'dark',
      text_size: 3,
      line_spacing: 1,
    });
  });
});
