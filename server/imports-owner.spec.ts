import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { PROJECT_ROOT } from './platform/paths';

/**
 * One writer for the `imports` table, as a test: a staged import's rows and status change only in
 * publishing/imports/import-lifecycle.ts (docs/import.md, "What the server guarantees"), so that every step of the
 * state machine is one conditional write in one file. It reads each file's syntax tree for the places that
 * can write the table (a repository of StagedImport, an entity-manager or query-builder write on it, SQL
 * that writes it), not for who calls the lifecycle: calling it from everywhere is the point.
 */

const SERVER = join(PROJECT_ROOT, 'server');

/** Paths relative to server/, without `.ts`; a trailing slash covers a folder. */
const OWNERS = ['publishing/imports/import-lifecycle', 'platform/migrations/'];

const ENTITY_MODULE = /(^|\/)staged-import\.entity$/;
const ENTITY_NAME = 'StagedImport';
const TABLE = 'imports';
/** What hands out a repository or query builder bound to the table: from there, anything can be written. */
const HANDLES = new Set(['getRepository', 'InjectRepository', 'createQueryBuilder', 'withRepository']);
/** Entity-manager, repository and query-builder calls that write, given the entity or the table's name. */
const WRITES = new Set([
  'save',
  'insert',
  'update',
  'upsert',
  'delete',
  'remove',
  'softDelete',
  'softRemove',
  'restore',
  'increment',
  'decrement',
  'clear',
  'into',
]);
const SQL_WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+["`]?imports\b/i;

const matches = (path: string, entries: string[]) =>
  entries.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry));

/**
 * Where `text` (the source of server/`path`.ts) can write the imports table: one line per place,
 * `line N: what`. Empty for the lifecycle and the migrations.
 */
export function importsWrites(path: string, text: string): string[] {
  if (matches(path, OWNERS)) return [];
  const source = ts.createSourceFile(`${path}.ts`, text, ts.ScriptTarget.Latest, true);
  const entities = new Set<string>();
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const literalText = (node: ts.Node): string | null => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return node.head.text + node.templateSpans.map((span) => '?' + span.literal.text).join('');
    return null;
  };
  const namesTable = (node: ts.Node) => {
    if (ts.isIdentifier(node)) return entities.has(node.text);
    const name = literalText(node);
    return name === TABLE || name === ENTITY_NAME;
  };
  /** `qb.delete().from(X)`: a `from` is a write only after a `delete()` in the same chain. */
  const afterDelete = (callee: ts.Expression): boolean => {
    let node: ts.Expression = callee;
    while (ts.isPropertyAccessExpression(node) || ts.isCallExpression(node)) {
      if (ts.isCallExpression(node)) {
        const inner = node.expression;
        if (ts.isPropertyAccessExpression(inner) && inner.name.text === 'delete') return true;
        node = inner;
      } else node = node.expression;
    }
    return false;
  };

  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!ENTITY_MODULE.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        if ((element.propertyName ?? element.name).text === ENTITY_NAME) entities.add(element.name.text);
  }

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(source);
      const writes =
        HANDLES.has(method) ||
        WRITES.has(method) ||
        (method === 'from' && ts.isPropertyAccessExpression(callee) && afterDelete(callee.expression));
      for (const argument of node.arguments)
        if (writes && namesTable(argument)) report(node, `${method}(${argument.getText(source)})`);
    }
    if (
      ts.isTypeReferenceNode(node) &&
      /Repository$/.test(node.typeName.getText(source)) &&
      node.typeArguments?.some(
        (argument) => ts.isTypeReferenceNode(argument) && entities.has(argument.typeName.getText(source)),
      )
    )
      report(node, node.getText(source));
    const sql = literalText(node);
    if (sql !== null && SQL_WRITE.test(sql)) {
      report(node, 'SQL writing imports');
      return;
    }
    ts.forEachChild(node, visit);
  };
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

describe('the imports table’s one writer', () => {
  const entityImport = "import { StagedImport } from './staged-import.entity';\n";
  const check = (code: string, path = 'publishing/imports/chapter-import.service') =>
    importsWrites(path, entityImport + code);

  it('catches a repository, a write or SQL on the imports table outside the lifecycle', () => {
    expect(
      check('class A { constructor(@InjectRepository(StagedImport) r: Repository<StagedImport>) {} }'),
    ).toEqual(['line 2: InjectRepository(StagedImport)', 'line 2: Repository<StagedImport>']);
    expect(check('db.getRepository(StagedImport).update({ id }, { status: "staged" });')).toEqual([
      'line 2: getRepository(StagedImport)',
    ]);
    expect(check('await tx.delete(StagedImport, { id, status: "committing" });')).toEqual([
      'line 2: delete(StagedImport)',
    ]);
    expect(check('await manager.save(StagedImport, row);')).toEqual(['line 2: save(StagedImport)']);
    expect(check("db.createQueryBuilder().update('imports').set({ status: 'staged' }).execute();")).toEqual([
      "line 2: update('imports')",
    ]);
    expect(check('db.createQueryBuilder().insert().into(StagedImport).values(row).execute();')).toEqual([
      'line 2: into(StagedImport)',
    ]);
    expect(check('db.createQueryBuilder().delete().from(StagedImport).where("id = :id").execute();')).toEqual(
      ['line 2: from(StagedImport)'],
    );
    expect(check("db.query('DELETE FROM imports WHERE id = $1', [id]);")).toEqual([
      'line 2: SQL writing imports',
    ]);
    expect(check('db.query(`UPDATE "imports" SET status = ${status}`);')).toEqual([
      'line 2: SQL writing imports',
    ]);
    expect(check("db.prepare('INSERT INTO imports (id) VALUES (?)').run(id);", 'backup/restore')).toEqual([
      'line 2: SQL writing imports',
    ]);
    // An alias counts too.
    expect(
      importsWrites(
        'x/y',
        "import { StagedImport as S } from '../../publishing/imports/staged-import.entity';\nm.insert(S, row);",
      ),
    ).toEqual(['line 2: insert(S)']);
  });

  it('lets through the lifecycle and its callers, reads, types and prose', () => {
    expect(check('await this.lifecycle.finish(taken, tx);')).toEqual([]);
    expect(check('const staged = await this.lifecycle.find(id);')).toEqual([]);
    expect(check('function preview(staged: StagedImport): string { return staged.id; }')).toEqual([]);
    expect(check('TypeOrmModule.forFeature([StagedImport]);')).toEqual([]);
    expect(check('db.createQueryBuilder().select("i.id").from(StagedImport, "i");')).toEqual([]);
    expect(check("throw new NotFoundException('Import not found, or being committed.');")).toEqual([]);
    expect(check("mkdirSync(join(config.storageDir, 'imports'));")).toEqual([]);
    expect(check('await tx.delete(StagedImport, { id });', 'publishing/imports/import-lifecycle')).toEqual(
      [],
    );
  });

  it('holds for every file of the server, and the lifecycle is where the writes are', () => {
    const files = sourceFiles(SERVER);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      importsWrites(relativePath(file), readFileSync(file, 'utf8')).map(
        (write) => `${relativePath(file)} ${write}`,
      ),
    );
    expect(found).toEqual([]);
    // Read as any other file, the lifecycle writes: the checks above see what they are meant to see.
    const lifecycle = readFileSync(join(SERVER, 'publishing', 'imports', 'import-lifecycle.ts'), 'utf8');
    expect(importsWrites('publishing/imports/elsewhere', lifecycle).length).toBeGreaterThanOrEqual(4);
  });
});
