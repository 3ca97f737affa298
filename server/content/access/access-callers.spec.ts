import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../platform/paths';

/**
 * Every place that decides whether a caller may have a phrase, a chapter or a book asks `Access`
 * (access.service.ts), and this list names them all (docs/architecture.md, "One access rule"). A new
 * caller is added here on purpose, with what it asks; a module that applies the rule or reads a plan on its
 * own fails.
 */
const CALLERS: Record<string, string> = {
  'publishing/downloads/download-access.ts': 'the whole book or its sample (everyChapter)',
  'publishing/downloads/downloads.service.ts':
    "a chapter's cues for a reading app (require chapter, download)",
  'learning/listening/listening.service.ts': 'the reported phrases the member may read (readable)',
  'learning/lookup/lookup.service.ts':
    "a word in a phrase, a chapter's lookups (require phrase and chapter, use)",
  'publishing/opds/opds.service.ts': "a feed's full or sample links (everyChapter)",
  'learning/practice/dictation.service.ts': 'a dictation of a phrase (require phrase, use)',
  'learning/practice/marks.service.ts': 'a mark on a phrase (require phrase, use)',
  'learning/reading/progress.service.ts': 'a reading place (require chapter, use)',
  'learning/reading/reading.service.ts':
    "a chapter's phrases (require chapter, read), the shared page (locate)",
  'learning/word-status/word-status.service.ts': "a chapter's words marked known (require chapter, use)",
  'learning/words/words.service.ts': "saving a word (require phrase, use), a list's clips (readable)",
};

const SERVER = join(PROJECT_ROOT, 'server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const files = sourceFiles(SERVER).map((path) => ({
  name: relative(SERVER, path).split('\\').join('/'),
  text: readFileSync(path, 'utf8'),
}));
const outsideAccess = files.filter(({ name }) => !name.startsWith('content/access/'));

describe('the access rule', () => {
  it('is injected under one name, so that every caller is seen', () => {
    const elsewhere = outsideAccess
      .filter(({ text }) => /readonly (?!access\b)\w+: Access\b/.test(text))
      .map(({ name }) => name);
    expect(elsewhere).toEqual([]);
  });

  it('is asked by exactly the listed callers, each through an injected Access', () => {
    const asking = outsideAccess
      .filter(({ text }) => /this\.access\.(require|locate|everyChapter|readable|isFree)\(/.test(text))
      .map(({ name, text }) => {
        expect([name, /private readonly access: Access\b/.test(text)]).toEqual([name, true]);
        return name;
      });
    expect(asking.sort()).toEqual(Object.keys(CALLERS).sort());
  });

  it('is applied nowhere else: no module weighs a plan or calls the rule itself', () => {
    const applying = outsideAccess
      .filter(({ name, text }) => {
        const appliesRule = /\bchapterAccess\(/.test(text);
        const weighsPlan =
          !name.startsWith('accounts/billing/') && /\b(planGivesAccess|givesAccess|planOf)\(/.test(text);
        return appliesRule || weighsPlan;
      })
      .map(({ name }) => name);
    expect(applying).toEqual([]);
  });

  it('reads the source it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.find(({ name }) => name === 'content/access/access.service.ts')?.text).toMatch(
      /class Access\b/,
    );
  });
});
