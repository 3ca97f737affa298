/**
 * The design system's tabs (docs/design.md, "Tabs"), for plain DOM scripts: a `.tabs[role=tablist]` of
 * `button[role=tab][aria-controls]`, each naming its `[role=tabpanel]`. The ARIA pattern's keys: Left and
 * Right move to the previous and next tab (wrapping), Home and End to the first and last; the chosen tab
 * is the only one in the Tab order, and only its panel shows. A React island renders the same markup and
 * keeps the chosen tab in its state instead.
 */
export function setUpTabs(tablist: HTMLElement, onChange?: (tab: HTMLButtonElement) => void): void {
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (chosen: HTMLButtonElement, focus: boolean) => {
    for (const tab of tabs) {
      const on = tab === chosen;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !on;
    }
    if (focus) chosen.focus();
    onChange?.(chosen);
  };
  const keys: Record<string, (at: number) => number> = {
    ArrowLeft: (at) => (at - 1 + tabs.length) % tabs.length,
    ArrowRight: (at) => (at + 1) % tabs.length,
    Home: () => 0,
    End: () => tabs.length - 1,
  };
  tablist.addEventListener('click', (event) => {
    const tab = (event.target as Element).closest<HTMLButtonElement>('[role="tab"]');
    if (tab && tabs.includes(tab)) select(tab, false);
  });
  tablist.addEventListener('keydown', (event) => {
    const move = keys[event.key];
    const at = tabs.indexOf(event.target as HTMLButtonElement);
    if (!move || at < 0) return;
    event.preventDefault();
    select(tabs[move(at)], true);
  });
  select(tabs.find((tab) => tab.getAttribute('aria-selected') === 'true') ?? tabs[0], false);
}
