import type { AppConfig } from '../config';
import { SignedLinks } from './signed-links';

/** A clock the test moves by hand. */
function links(secret = 'a test secret of enough length for the purpose') {
  const clock = { time: Date.parse('2026-11-25T10:20:30Z'), now: () => new Date(clock.time) };
  const signer = new SignedLinks({ jwtSecret: secret } as AppConfig, clock);
  return { signer, clock };
}

function parts(url: string): { exp: string; sig: string } {
  const query = new URL(url, 'http://x').searchParams;
  return { exp: query.get('exp')!, sig: query.get('sig')! };
}

describe('SignedLinks', () => {
  it('accepts its own link for the same kind and subject, and nothing else', () => {
    const { signer } = links();
    const { exp, sig } = parts(signer.sign('book-export', 'moby', '/api/v1/book-export/moby').url);
    expect(signer.verify('book-export', 'moby', exp, sig)).toBe(true);
    expect(signer.verify('book-export', 'moby-2', exp, sig)).toBe(false);
    // The same subject signed for another kind has another key.
    expect(signer.verify('import-preview', 'moby', exp, sig)).toBe(false);
    expect(signer.verify('clip', 'moby', exp, sig)).toBe(false);
    // Another secret, another key.
    expect(
      links('another secret entirely, also long enough').signer.verify('book-export', 'moby', exp, sig),
    ).toBe(false);
  });

  it('refuses altered, respelled and missing parts', () => {
    const { signer } = links();
    const { exp, sig } = parts(signer.sign('clip', 'lines/a.mp3', '/media/lines/a.mp3').url);
    expect(signer.verify('clip', 'lines/a.mp3', String(Number(exp) - 3600), sig)).toBe(false);
    expect(signer.verify('clip', 'lines/a.mp3', `0${exp}`, sig)).toBe(false);
    expect(signer.verify('clip', 'lines/a.mp3', exp, `${sig}=`)).toBe(false);
    expect(
      signer.verify('clip', 'lines/a.mp3', exp, sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A')),
    ).toBe(false);
    expect(signer.verify('clip', 'lines/a.mp3', undefined, sig)).toBe(false);
    expect(signer.verify('clip', 'lines/a.mp3', exp, [sig])).toBe(false);
  });

  it('rounds clip expiries to the hour, so one chapter keeps the same URLs within the hour', () => {
    const { signer, clock } = links();
    const first = signer.sign('clip', 'lines/a.mp3', '/media/lines/a.mp3');
    clock.time += 20 * 60_000;
    expect(signer.sign('clip', 'lines/a.mp3', '/media/lines/a.mp3').url).toBe(first.url);
    // 10:00 + 6 hours.
    expect(first.expiresAt.toISOString()).toBe('2026-11-25T16:00:00.000Z');
  });

  it('lets a link expire after its kind’s lifetime', () => {
    const { signer, clock } = links();
    const link = signer.sign('book-export', 'moby', '/api/v1/book-export/moby');
    expect(link.expiresAt.getTime() - clock.time).toBe(300_000);
    const { exp, sig } = parts(link.url);
    clock.time += 299_000;
    expect(signer.verify('book-export', 'moby', exp, sig)).toBe(true);
    clock.time += 1_000;
    expect(signer.verify('book-export', 'moby', exp, sig)).toBe(false);
  });

  it('refuses an expiry further ahead than it ever signs, even with a valid signature for it', () => {
    const { signer, clock } = links();
    // A link made in the future (a clock far ahead) carries a valid signature for a far expiry.
    clock.time += 2 * 3600_000;
    const { exp, sig } = parts(signer.sign('import-preview', 'id/1', '/p').url);
    clock.time -= 2 * 3600_000;
    expect(signer.verify('import-preview', 'id/1', exp, sig)).toBe(false);
  });
});
