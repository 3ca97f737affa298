import { expect, type Page } from '@playwright/test';

/** The reader's audio element, as the page's player holds it. */
export const audioState = (page: Page) =>
  page.evaluate(() => {
    const reader = document.querySelector('reader-app') as HTMLElement & {
      player: { element: HTMLAudioElement };
    };
    const audio = reader.player.element;
    return {
      paused: audio.paused,
      ended: audio.ended,
      time: audio.currentTime,
      rate: audio.playbackRate,
      src: audio.src,
      readyState: audio.readyState,
    };
  });

export const playing = (page: Page) =>
  expect.poll(async () => {
    const state = await audioState(page);
    return !state.paused && state.time > 0;
  });

/**
 * Where a phrase plays from: its play icon, at the start of its button. Its words open their lookups
 * (site/lib/reader/word-taps.ts), so a click in the middle of the phrase would land on a word.
 */
export const PLAY_ICON = { position: { x: 8, y: 18 } };

export const settingsButton = (page: Page) => page.getByRole('button', { name: /^Player settings/ });

/** Speed, loop, shadowing and hide text live in the player's settings sheet: opens it, acts, closes it. */
export async function inSettings(page: Page, act: () => Promise<unknown>): Promise<void> {
  await settingsButton(page).click();
  const sheet = page.getByRole('dialog', { name: 'Player settings' });
  await expect(sheet).toBeVisible();
  await act();
  await sheet.getByRole('button', { name: 'Close the settings' }).click();
  await expect(sheet).toBeHidden();
}

/**
 * Records every 'playing' and 'ended' of every <audio> the page makes (the player swaps two elements), as
 * scripts/bench/player-timing.mjs does. Add before the page loads.
 */
export async function recordAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Original = window.Audio;
    const events: Array<{ type: string; src: string; at: number }> = [];
    const elements: HTMLAudioElement[] = [];
    Object.assign(window, { __audioEvents: events, __audioElements: elements });
    window.Audio = function (src?: string) {
      const audio = new Original(src);
      elements.push(audio);
      for (const type of ['ended', 'playing'])
        audio.addEventListener(type, () => events.push({ type, src: audio.src, at: performance.now() }));
      return audio;
    } as unknown as typeof Audio;
  });
}

export const audioEvents = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __audioEvents: Array<{ type: string; src: string; at: number }> })
        .__audioEvents,
  );

/**
 * The page's audio events in order ("playing ended playing …"). A clip that stalls while loading (a busy
 * machine) fires "playing" again when it resumes: one play, counted once.
 */
export const playSequence = async (page: Page) =>
  (await audioEvents(page))
    .map((event) => event.type)
    .join(' ')
    .replace(/playing( playing)+/g, 'playing');

/** What every <audio> the page made holds: its clip's path and how much of it is loaded. */
export const audioElements = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __audioElements: HTMLAudioElement[] }).__audioElements.map((audio) => ({
      path: audio.src ? new URL(audio.src).pathname : '',
      readyState: audio.readyState,
      paused: audio.paused,
    })),
  );

/**
 * Stops the page's clock (installed with `page.clock.install()` before the journey's first page): the
 * reader's timers, such as the save a moment after the last move, wait until `page.clock.resume()`. The
 * audio, the network and IndexedDB go on as usual.
 */
export async function stopClock(page: Page): Promise<void> {
  // A moment ahead of the page's time, which goes on while the call is on its way; on a loaded machine the
  // moment may pass first ("Cannot fast-forward to the past"): then again, from the page's new time.
  for (let tries = 1; ; tries++) {
    try {
      await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
      return;
    } catch (error) {
      if (tries >= 5 || !String(error).includes('past')) throw error;
    }
  }
}

/** The positions of the places the page sends (`PUT user/progress`), in order, as they leave. */
export function placesSent(page: Page): number[] {
  const positions: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/v1/user/progress')
      positions.push((request.postDataJSON() as { position: number }).position);
  });
  return positions;
}

/**
 * The middle of a word of a phrase, on screen: where a learner's finger lands (the text may not be split
 * yet). Scrolled into the middle of the screen first unless `stay`.
 */
export const wordPoint = (page: Page, position: number, word: string, stay = false) =>
  page.locator(`li#p-${position} .phrase`).evaluate(
    (button, [wanted, still]) => {
      if (!still) button.scrollIntoView({ block: 'center' });
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node as Text;
        const at = text.data.indexOf(wanted);
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + wanted.length);
        const box = range.getBoundingClientRect();
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      }
      throw new Error(`“${wanted}” is not in the phrase`);
    },
    [word, stay] as const,
  );
