/**
 * The theme (light, dark, sepia, or the device's light or dark) and the reader's text size and line
 * spacing (docs/design.md, "Themes and reading settings"). Kept on the device, where the inline script
 * APPEARANCE (site/lib/inline-scripts.ts) applies them before a page is drawn; a member's are also kept on
 * the server (PUT user/appearance), and the later choice wins, as the reading speed does.
 */
import { api } from './api';
import { getToken, getUser } from './session';

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
  /** The member whose setting it is, once one chose it or signed in here: another member's never travels. */
  member?: number;
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
    ...(typeof kept.member === 'number' && { member: kept.member }),
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

/**
 * Calls `listener` after every change of the setting, from this page or another tab, and with the setting
 * now unless `now` is false (a canvas drawn already, which only needs drawing again on a change).
 */
export function onAppearance(listener: (appearance: Appearance) => void, { now = true } = {}): void {
  listeners.add(listener);
  if (now) listener(readAppearance());
}

/** The person's choice: kept on the device at once, and sent to the server for a member. */
export function chooseAppearance(change: Partial<Omit<Appearance, 'at' | 'member'>>): void {
  const chosen: Appearance = { ...readAppearance(), ...change, at: new Date().toISOString() };
  const member = getToken() ? getUser()?.id : undefined;
  if (member === undefined) delete chosen.member;
  else chosen.member = member;
  keep(chosen);
  void send(chosen);
}

async function send(appearance: Appearance): Promise<void> {
  const member = getToken() ? getUser()?.id : undefined;
  if (member === undefined || !appearance.at || appearance.member !== member) return;
  // A choice older than the server takes (30 days) that never reached it is still the device's latest:
  // sent as 29 days old, it stays later than what the server holds (syncWithServer compared them).
  // A choice made just now is the latest whatever this device's clock says: the server dates it.
  const chosen = Date.parse(appearance.at);
  const oldest = Date.now() - 29 * 86_400_000;
  const at = Date.now() - chosen < 60_000 ? undefined : new Date(Math.max(chosen, oldest)).toISOString();
  try {
    const { data } = await api<{ data: ServerAppearance }>('user/appearance', {
      method: 'PUT',
      passive: true,
      body: {
        theme: appearance.theme,
        text_size: appearance.textSize,
        line_spacing: appearance.lineSpacing,
        ...(at && { at }),
      },
    });
    // The server's answer is the setting now: the one kept, or this one with the server's time (a device
    // whose clock runs fast would otherwise hold a time later than any other device's choice, for ever).
    // Unless the person chose again meanwhile.
    if (readAppearance().at === appearance.at) adopt(data, member);
  } catch {
    // Offline or refused: the device keeps it, and the next page sends it again (syncWithServer).
  }
}

/** The member's setting as the server holds it, on this device. */
const adopt = (server: ServerAppearance, member: number) =>
  keep({
    theme: server.theme,
    textSize: server.text_size,
    lineSpacing: server.line_spacing,
    at: server.updated_at,
    member,
  });

/** A setting the server holds that is later than the device's replaces it. */
function adoptIfLater(server: ServerAppearance | null, member: number): boolean {
  const local = readAppearance();
  if (!server || (local.at && Date.parse(local.at) >= Date.parse(server.updated_at))) return false;
  adopt(server, member);
  return true;
}

/**
 * Once per page, for a member: the later of the device's and the server's settings wins on both. The
 * device's setting is only sent as this member's when they chose it here (it names them), or as a
 * visitor before signing in; one another member made on this device stays here, and the member's own,
 * when they have one, replaces it.
 */
async function syncWithServer(): Promise<void> {
  const member = getToken() ? getUser()?.id : undefined;
  if (member === undefined) return;
  try {
    const { data } = await api<{ data: ServerAppearance | null }>('user/appearance', { passive: true });
    let local = readAppearance();
    if (local.member !== member) {
      if (data) return adopt(data, member);
      // A visitor's choice goes with them when they sign in, as a visitor's reading place does.
      if (local.member !== undefined || !local.at) return;
      keep((local = { ...local, member }));
    }
    if (adoptIfLater(data, member)) return;
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
  // A page restored from the back-forward cache missed the changes made meanwhile.
  addEventListener('pageshow', (event) => event.persisted && apply(readAppearance()));
  wireControls();
  void syncWithServer();
}
