import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { PROJECT_ROOT } from './platform/paths';

/**
 * One writer per table, as a test: books, chapters, phrases, their translations and the search's book_words are written and
 * read only by the catalogue's repositories (docs/architecture.md, "The catalogue's owner"). It looks at what a file does with the
 * tables (a query builder on an entity, a repository of one, SQL naming a table), not at what it imports:
 * importing the repositories from everywhere is the point.
 */

const SERVER = join(PROJECT_ROOT, 'server');

/** Paths relative to server/, without `.ts`; a trailing slash covers a folder. */
const OWNER = [
  'content/catalogue/repository/',
  'content/catalogue/free-chapters',
  // The tables' own definitions (their relations name each other by string).
  'content/catalogue/entities/book.entity',
  'content/catalogue/entities/chapter.entity',
  'content/catalogue/entities/phrase.entity',
  'content/catalogue/entities/phrase-translation.entity',
];

/** Everything else that may still name the tables, and why. A file entry that no longer needs it fails. */
export const EXCEPTIONS: Record<string, string> = {
  'platform/migrations/': 'the schema itself, written once and never changed with the app',
  'platform/media/media-trash':
    'the media sweep must know every column that names a file (REFERENCED_MEDIA_SQL, also read by backups from their snapshot), and media/ imports no feature',
};

const TABLES = new Set([
  'books',
  'chapters',
  'phrases',
  'phrase_translations',
  'book_words',
  'chapter_words',
]);
const ENTITY_MODULE = /(^|\/)(book|chapter|phrase|phrase-translation)\.entity$/;
const ENTITY_NAMES = new Set(['Book', 'Chapter', 'Phrase', 'PhraseTranslation']);
/** Query-builder and entity-manager methods that take a table's name as a string. */
const TAKES_TABLE = new Set([
  'from',
  'into',
  'update',
  'delete',
  'insert',
  'innerJoin',
  'leftJoin',
  'innerJoinAndSelect',
  'leftJoinAndSelect',
  'getRepository',
  'createQueryBuilder',
]);
const SQL_STATEMENT =
  /\b(select\b[\s\S]*\bfrom|insert\s+into|update\b[\s\S]*\bset|delete\s+from|truncate(?:\s+table)?\s)/i;
/** A table named after a keyword that reads or writes it, schema-qualified (`public.phrases`) or not. */
const SQL_TABLE =
  /\b(?:from|join|into|update|truncate(?:\s+table)?)\s+(?:["`]?\w+["`]?\.)?["`]?(books|chapters|phrases|phrase_translations|book_words|chapter_words)\b["`]?/i;

const matches = (path: string, entries: string[]) =>
  entries.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry));

/**
 * Where `text` (the source of server/`path`.ts) queries or writes the catalogue's tables: one line per
 * place, `line N: what`. Empty for the owner's own files.
 */
export function catalogueAccesses(path: string, text: string): string[] {
  if (matches(path, OWNER)) return [];
  const source = ts.createSourceFile(`${path}.ts`, text, ts.ScriptTarget.Latest, true);
  const entities = new Set<string>();
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const isEntity = (node: ts.Node) =>
    ts.isIdentifier(node)
      ? entities.has(node.text)
      : ts.isArrayLiteralExpression(node) && node.elements.some(isEntity);
  const literalText = (node: ts.Node): string | null => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return node.head.text + node.templateSpans.map((span) => '?' + span.literal.text).join('');
    return null;
  };

  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!ENTITY_MODULE.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        if (ENTITY_NAMES.has((element.propertyName ?? element.name).text)) entities.add(element.name.text);
  }

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(source);
      for (const argument of node.arguments) {
        if (isEntity(argument)) report(node, `${method}(${argument.getText(source)})`);
        const name = literalText(argument);
        if (name === null) continue;
        // An entity by its name, to any method (`tx.findOneBy('Chapter', …)`, `count('Phrase')`); a table
        // by its name, to a method that takes one (a route's path or an alias may be spelled alike).
        if (ENTITY_NAMES.has(name) || (TAKES_TABLE.has(method) && TABLES.has(name)))
          report(node, `${method}('${name}')`);
        // A join written into a table expression: `from('saved_words w JOIN phrases p ON …')`.
        else if (TAKES_TABLE.has(method) && SQL_TABLE.test(name))
          report(node, `${method}('${SQL_TABLE.exec(name)![0]}')`);
      }
    }
    if (
      ts.isTypeReferenceNode(node) &&
      /Repository$/.test(node.typeName.getText(source)) &&
      node.typeArguments?.some(isEntityType)
    )
      report(node, node.getText(source));
    const sql = literalText(node);
    if (sql !== null && SQL_STATEMENT.test(sql)) {
      const table = SQL_TABLE.exec(sql);
      if (table) report(node, `SQL naming ${table[1].toLowerCase()}`);
      return;
    }
    ts.forEachChild(node, visit);
  };
  const isEntityType = (node: ts.TypeNode) =>
    ts.isTypeReferenceNode(node) && entities.has(node.typeName.getText(source));
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'demo' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const relativePath = (file: string) => relative(SERVER, file).split('\\').join('/').replace(/\.ts$/, '');

describe('the catalogue’s owner', () => {
  const entityImport = "import { Phrase } from '../../content/catalogue/entities/phrase.entity';\n";

  it('catches a query, a repository, a write or SQL on the catalogue’s tables outside the owner', () => {
    const check = (code: string) => catalogueAccesses('learning/words/words.service', entityImport + code);
    expect(check("qb.innerJoin(Phrase, 'p', 'p.id = w.phraseId');")).toEqual(['line 2: innerJoin(Phrase)']);
    expect(check('class A { constructor(@InjectRepository(Phrase) r: Repository<Phrase>) {} }')).toEqual([
      'line 2: InjectRepository(Phrase)',
      'line 2: Repository<Phrase>',
    ]);
    expect(check('TypeOrmModule.forFeature([SavedWord, Phrase]);')).toEqual([
      'line 2: forFeature([SavedWord, Phrase])',
    ]);
    expect(check('tx.update(Phrase, { id }, changes);')).toEqual(['line 2: update(Phrase)']);
    expect(check("db.createQueryBuilder().select('p.id').from('phrases', 'p');")).toEqual([
      "line 2: from('phrases')",
    ]);
    expect(check('sql(db, `UPDATE phrases SET position = ? WHERE id = ${id}`);')).toEqual([
      'line 2: SQL naming phrases',
    ]);
    expect(
      check("db.query('select p.audio_path from chapters c join phrases p on p.chapter_id = c.id');"),
    ).toEqual(['line 2: SQL naming chapters']);
    // Entities by name, to any method; schema-qualified tables; a join inside a table expression; TRUNCATE.
    expect(check("tx.findOneBy('Chapter', { id });")).toEqual(["line 2: findOneBy('Chapter')"]);
    expect(check("m.count('Phrase');")).toEqual(["line 2: count('Phrase')"]);
    expect(check('db.query(`SELECT id FROM public.phrases`);')).toEqual(['line 2: SQL naming phrases']);
    expect(check('db.query(`DELETE FROM "public"."books" WHERE id = 1`);')).toEqual([
      'line 2: SQL naming books',
    ]);
    expect(check("qb.from('saved_words w JOIN phrases p ON p.id = w.phrase_id', 'x');")).toEqual([
      "line 2: from('JOIN phrases')",
    ]);
    expect(check('db.query(`TRUNCATE TABLE chapters`);')).toEqual(['line 2: SQL naming chapters']);
    // The search's words are the catalogue's too, however they are written.
    expect(check('sql(tx, `INSERT INTO book_words (book_id, word) VALUES (?, ?)`, row);')).toEqual([
      'line 2: SQL naming book_words',
    ]);
    expect(check('db.query(`DELETE FROM "book_words" WHERE book_id = 1`);')).toEqual([
      'line 2: SQL naming book_words',
    ]);
    expect(check("qb.from('book_words', 'w');")).toEqual(["line 2: from('book_words')"]);
    // Translations are the catalogue's: by SQL, by table name and by entity.
    expect(check('sql(tx, `DELETE FROM phrase_translations WHERE phrase_id = ?`, [id]);')).toEqual([
      'line 2: SQL naming phrase_translations',
    ]);
    expect(
      check("db.query('SELECT t.text FROM saved_words w JOIN phrase_translations t ON 1 = 1');"),
    ).toEqual(['line 2: SQL naming phrase_translations']);
    expect(check("qb.from('phrase_translations', 't');")).toEqual(["line 2: from('phrase_translations')"]);
    expect(
      catalogueAccesses(
        'practice/x',
        "import { PhraseTranslation } from '../../content/catalogue/entities/phrase-translation.entity';\ntx.insert(PhraseTranslation, rows);",
      ),
    ).toEqual(['line 2: insert(PhraseTranslation)']);
    // An alias counts too.
    expect(
      catalogueAccesses(
        'x/y',
        "import { Book as B } from '../../content/catalogue/entities/book.entity';\nm.findOneBy(B, { id });",
      ),
    ).toEqual(['line 2: findOneBy(B)']);
  });

  it('lets through the owner, reads through it, types, and prose', () => {
    const check = (code: string, path = 'learning/words/words.service') =>
      catalogueAccesses(path, entityImport + code);
    expect(check('const phrases = await this.phrases.ofChapter(id);')).toEqual([]);
    expect(check('function show(phrase: Phrase): string { return phrase.phrase; }')).toEqual([]);
    expect(check("throw new RuleFailed('Pick from chapters you own, then update phrases.');")).toEqual([]);
    expect(check('db.query(`SELECT COUNT(*) FROM saved_words`);')).toEqual([]);
    expect(check("@Get('chapters') list() {}")).toEqual([]);
    expect(
      check("qb.innerJoin(Phrase, 'p', 'p.id = w.phraseId');", 'content/catalogue/repository/x'),
    ).toEqual([]);
  });

  it('holds for every file of the server', () => {
    const files = sourceFiles(SERVER);
    expect(files.length).toBeGreaterThan(100);
    const excepted = Object.keys(EXCEPTIONS);
    const found = files.flatMap((file) =>
      catalogueAccesses(relativePath(file), readFileSync(file, 'utf8')).map(
        (access) => `${relativePath(file)} ${access}`,
      ),
    );
    expect(found.filter((access) => !matches(access.split(' ')[0], excepted))).toEqual([]);
    // A file excepted that no longer names the tables (or is gone) must leave the list.
    const stale = excepted.filter(
      (entry) =>
        !entry.endsWith('/') &&
        !(existsSync(join(SERVER, `${entry}.ts`)) && found.some((access) => access.startsWith(`${entry} `))),
    );
    expect(stale).toEqual([]);
  });
});
