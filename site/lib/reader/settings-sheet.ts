/**
 * The player's settings sheet (site/components/ReaderSettings.astro): speed, loop, shadowing and hide
 * text, each showing its current value. A modal <dialog>: the browser keeps the focus inside it, closes it
 * on Escape and gives the focus back to the bar's button; a tap beside the sheet closes it too.
 */
export interface SheetHandlers {
  speed: (speed: number) => void;
  loop: (plays: number) => void;
  shadow: (factor: number) => void;
  hide: () => void;
  revealAll: () => void;
}

export class SettingsSheet {
  constructor(
    private readonly dialog: HTMLDialogElement,
    private readonly opener: HTMLButtonElement,
    handlers: SheetHandlers,
  ) {
    opener.addEventListener('click', () => this.open());
    this.action('close-settings').addEventListener('click', () => dialog.close());
    // A click on the backdrop reaches the <dialog> itself; its content is inside .sheet-body.
    dialog.addEventListener('click', (event) => event.target === dialog && dialog.close());
    dialog.addEventListener('close', () => opener.setAttribute('aria-expanded', 'false'));
    this.speedSelect.addEventListener('change', () => handlers.speed(Number(this.speedSelect.value)));
    this.group('loop').addEventListener('change', (event) =>
      handlers.loop(Number((event.target as HTMLInputElement).value)),
    );
    this.group('shadow').addEventListener('change', (event) =>
      handlers.shadow(Number((event.target as HTMLInputElement).value)),
    );
    this.action('hide').addEventListener('click', handlers.hide);
    this.action('reveal-all').addEventListener('click', handlers.revealAll);
  }

  get isOpen(): boolean {
    return this.dialog.open;
  }

  open(): void {
    if (this.dialog.open) return;
    this.dialog.showModal();
    this.opener.setAttribute('aria-expanded', 'true');
  }

  showSpeed(speed: number): void {
    this.speedSelect.value = String(speed);
  }

  showLoop(plays: number): void {
    this.check('loop', plays);
  }

  showShadow(factor: number): void {
    this.check('shadow', factor);
  }

  showHidden(hidden: boolean): void {
    this.action('hide').setAttribute('aria-pressed', String(hidden));
    this.action('reveal-all').hidden = !hidden;
  }

  private get speedSelect(): HTMLSelectElement {
    return this.dialog.querySelector<HTMLSelectElement>('[data-control="speed"]')!;
  }

  private group(name: 'loop' | 'shadow'): HTMLFieldSetElement {
    return this.dialog.querySelector<HTMLFieldSetElement>(`[data-control="${name}"]`)!;
  }

  private check(name: 'loop' | 'shadow', value: number): void {
    for (const input of this.group(name).querySelectorAll('input'))
      input.checked = Number(input.value) === value;
  }

  private action(name: string): HTMLButtonElement {
    return this.dialog.querySelector<HTMLButtonElement>(`[data-action="${name}"]`)!;
  }
}
