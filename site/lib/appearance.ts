/**
 * The theme (light, dark, sepia, or the device's light or dark) and the reader's text size and line
 * spacing (docs/design.md, "Themes and reading settings"). Kept on the device, where the inline script
 * APPEARANCE (site/lib/inline-scripts.ts) applies them before a page is drawn; a member's are also kept on
 * the server (PUT user/appearance), and the later choice wins, as the reading speed does.
 */
import { api } from './api';
import { getToken } from './session';

export const THEMES = ['system', 'light', 'dark', 'sepia'] as const;
export type Theme = (typeof THEMES)[number];
export const TEXT_SIZES = [1, 2, 3, 4] as const;
export const LINE_SPACINGS = [1, 2, 3] as const;

export interface Appearance {
  theme: Theme;
  textSize: number;
  lineSpacing: number;
  /** When the person chose it (ISO 8601); absent until they choose. */
  at?: string;
}

interface ServerAppearance {
  theme: Theme;
  text_size: number;
  line_spacing: number;
  updated_at: string;
}

const KEY = 'appearance';
export const DEFAULT_APPEARANCE: Appearance = { theme: 'system', textSize: 2, lineSpacing: 2 };
const dark = () => matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<(appearance: Appearance) => void>();

const within = (value: unknown, list: readonly unknown[], fallback: number) =>
  list.includes(value) ? (value as number) : fallback;

/** The device's setting, every field checked (another version of the site, or a person, may have written it). */
export function readAppearance(): Appearance {
  let kept: Partial<Appearance> = {};
  try {
    kept = (JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Appearance> | null) ?? {};
  } catch {
    // A broken value is no choice.
  }
  return {
    theme: THEMES.includes(kept.theme as Theme) ? (kept.theme as Theme) : 'system',
    textSize: within(kept.textSize, TEXT_SIZES, DEFAULT_APPEARANCE.textSize),
    lineSpacing: within(kept.lineSpacing, LINE_SPACINGS, DEFAULT_APPEARANCE.lineSpacing),
    ...(typeof kept.at === 'string' && !Number.isNaN(Date.parse(kept.at)) && { at: kept.at }),
  };
}

/** The theme drawn: the chosen one, or the device's light or dark. */
export const shownTheme = (appearance: Appearance): Exclude<Theme, 'system'> =>
  appearance.theme === 'system' ? (dark().matches ? 'dark' : 'light') : appearance.theme;

function apply(appearance: Appearance): void {
  const root = document.documentElement;
  root.setAttribute('data-theme', shownTheme(appearance));
  root.setAttribute('data-text-size', String(appearance.textSize));
  root.setAttribute('data-line-spacing', String(appearance.lineSpacing));
  for (const listener of listeners) listener(appearance);
}

function keep(appearance: Appearance): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(appearance));
  } catch {
    // Storage full or refused: the choice holds for this page.
  }
  apply(appearance);
}

/** Calls `listener` with the setting now and after every change, from this page or another tab. */
export function onAppearance(listener: (appearance: Appearance) => void): void {
  listeners.add(listener);
  listener(readAppearance());
}

/** The person's choice: kept on the device at once, and sent to the server for a member. */
export function chooseAppearance(change: Partial<Omit<Appearance, 'at'>>): void {
  const chosen = { ...readAppearance(), ...change, at: new Date().toISOString() };
  keep(chosen);
  void send(chosen);
}

async function send(appearance: Appearance): Promise<void> {
  if (!getToken() || !appearance.at) return;
  try {
    const { data } = await api<{ data: ServerAppearance }>('user/appearance', {
      method: 'PUT',
      passive: true,
      body: {
        theme: appearance.theme,
        text_size: appearance.textSize,
        line_spacing: appearance.lineSpacing,
        at: appearance.at,
      },
    });
    adoptIfLater(data);
  } catch {
    // Offline or refused: the device keeps it, and the next page sends it again (syncWithServer).
  }
}

/** A setting the server holds that is later than the device's replaces it. */
function adoptIfLater(server: ServerAppearance | null): boolean {
  const local = readAppearance();
  if (!server || (local.at && Date.parse(local.at) >= Date.parse(server.updated_at))) return false;
  keep({
    theme: server.theme,
    textSize: server.text_size,
    lineSpacing: server.line_spacing,
    at: server.updated_at,
  });
  return true;
}

/** Once per page, for a member: the later of the device's and the server's settings wins on both. */
async function syncWithServer(): Promise<void> {
  if (!getToken()) return;
  try {
    const { data } = await api<{ data: ServerAppearance | null }>('user/appearance', { passive: true });
    if (adoptIfLater(data)) return;
    const local = readAppearance();
    if (local.at && (!data || Date.parse(local.at) > Date.parse(data.updated_at))) await send(local);
  } catch {
    // Offline: the device's setting stands.
  }
}

/** Which field of the setting a control of the page sets (its data-appearance). */
const FIELDS = { theme: 'theme', 'text-size': 'textSize', 'line-spacing': 'lineSpacing' } as const;
type Control = keyof typeof FIELDS;

/**
 * The page's controls: a <select data-appearance="theme"> (the footer's) and fieldsets of radios with
 * data-appearance="theme", "text-size" or "line-spacing" (the reader's settings), showing the setting in force.
 */
function wireControls(): void {
  const controls = [...document.querySelectorAll<HTMLElement>('[data-appearance]')];
  const valueOf = (control: Control, raw: string) => (control === 'theme' ? raw : Number(raw));
  for (const element of controls) {
    const control = element.dataset.appearance as Control;
    if (!(control in FIELDS)) continue;
    element.addEventListener('change', (event) => {
      const raw = (event.target as HTMLInputElement | HTMLSelectElement).value;
      chooseAppearance({ [FIELDS[control]]: valueOf(control, raw) });
    });
  }
  onAppearance((appearance) => {
    for (const element of controls) {
      const value = String(appearance[FIELDS[element.dataset.appearance as Control]] ?? '');
      if (element instanceof HTMLSelectElement) element.value = value;
      else for (const radio of element.querySelectorAll('input')) radio.checked = radio.value === value;
    }
  });
}

/** Every page: follow the device's light or dark, other tabs' choices and the member's other devices. */
export function setUpAppearance(): void {
  // The inline script applied it before the first paint; again here, in case a page lacked it.
  apply(readAppearance());
  dark().addEventListener('change', () => apply(readAppearance()));
  addEventListener('storage', (event) => event.key === KEY && apply(readAppearance()));
  wireControls();
  void syncWithServer();
}
