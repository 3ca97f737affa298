import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { registeredRoutes } from './routes';
import { startServer, type TestServer } from './harness';

interface Operation {
  'x-auth': string;
  security: unknown[];
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { schema: unknown }> };
}
type Document = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, unknown>;
  };
};
/** The version the project's devDependencies name: the lint's rules are those of this release. */
const REDOCLY = '@redocly/cli@2.77.0';

interface LintProblem {
  severity: string;
  ruleId: string;
  message: string;
  location: Array<{ pointer: string }>;
}

/** Redocly CLI's lint of a document, with the repository's redocly.yaml: its problems, as JSON. */
async function redoclyLint(document: unknown): Promise<LintProblem[]> {
  let cli: string;
  try {
    cli = createRequire(__filename).resolve('@redocly/cli/bin/cli.js');
  } catch {
    throw new Error(`Redocly CLI is not installed: npm install --save-dev ${REDOCLY}`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const config = resolve(__dirname, '../../redocly.yaml');
    const args = [cli, 'lint', file, '--config', config, '--format', 'json'];
    // No telemetry and no update check: the run stays on this machine.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // The CLI exits 1 when it finds an error; its report is on stdout either way.
    const stdout = await promisify(execFile)(process.execPath, args, {
      env,
      maxBuffer: 64 << 20,
      timeout: 90_000,
      killSignal: 'SIGKILL',
    }).then(
      (run) => run.stdout,
      (failed: Error & { stdout?: string; stderr?: string }) => {
        if (!failed.stdout) throw new Error(`redocly lint failed: ${failed.stderr || failed.message}`);
        return failed.stdout;
      },
    );
    return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The OpenAPI document describes exactly the routes Express serves, with who may call them. */
describe('OpenAPI document', () => {
  let server: TestServer;
  let document: Document;

  beforeAll(async () => {
    server = await startServer();
    const res = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    document = (await res.json()) as Document;
  });
  afterAll(() => server.close());

  const inDocument = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );

  it('lists every route Express has, and nothing Express does not have', () => {
    expect(document.openapi).toMatch(/^3\./);
    // The description's own routes (its JSON and the page's files) describe the API; they are not part of it.
    const own = (path: string) => path === '/api/v1/openapi.json';
    const express = registeredRoutes(server)
      .filter(({ path }) => !own(path))
      .map(({ method, path }) => `${method} ${path}`);
    expect(express.length).toBeGreaterThan(50);
    expect(inDocument().sort()).toEqual([...new Set(express)].sort());
  });

  it('says who may call each route, as the guard decides it', () => {
    const op = (method: string, path: string) => document.paths[path][method];
    expect(op('get', '/api/v1/guest/list-book')['x-auth']).toBe('public');
    expect(op('get', '/api/v1/guest/list-book').security).toEqual([]);
    expect(op('get', '/api/v1/user/profile')['x-auth']).toBe('member');
    expect(op('get', '/api/v1/user/profile').security).toEqual([{ bearer: [] }]);
    expect(op('post', '/api/v1/admin/book')['x-auth']).toBe('admin');
    expect(Object.keys(op('post', '/api/v1/admin/book').responses)).toEqual(
      expect.arrayContaining(['401', '403', '413', '422']),
    );
    expect(Object.keys(op('post', '/api/v1/user/login').responses)).toEqual(
      expect.arrayContaining(['422', '429']),
    );
    expect(op('post', '/api/v1/user/listening').responses).toHaveProperty('429');
    // Answers particular to a route, declared where the route is.
    expect(op('get', '/api/v1/guest/book/{bookCode}/chapter/{chapterNo}').responses).toHaveProperty('403');
    expect(op('get', '/api/v1/guest/book/{bookCode}/chapter/{chapterNo}').responses).toHaveProperty('404');
    expect(op('post', '/api/v1/user/change-password').responses).toHaveProperty('409');
    expect(op('post', '/api/v1/user/create-subscription').responses).toHaveProperty('503');
    expect(op('post', '/api/v1/user/create-subscription').responses['409']).toEqual(
      expect.objectContaining({
        content: {
          'application/json': {
            schema: expect.objectContaining({
              required: ['message', 'portal_url'],
              properties: expect.objectContaining({ portal_url: expect.anything() }),
            }),
          },
        },
      }),
    );
    for (const methods of Object.values(document.paths))
      for (const operation of Object.values(methods))
        expect(['public', 'optional', 'member', 'admin']).toContain(operation['x-auth']);
  });

  it('describes request bodies: JSON fields with what is required, and uploads as multipart files', () => {
    const login = document.paths['/api/v1/user/login'].post.requestBody!;
    expect(Object.keys(login.content)).toContain('application/json');
    const phrase = document.paths['/api/v1/admin/phrase'].post.requestBody!;
    expect(Object.keys(phrase.content)).toEqual(['multipart/form-data']);
    const schemas = document.components.schemas;
    expect(schemas.CreatePhraseDto.properties).toEqual(
      expect.objectContaining({ line_audio: expect.objectContaining({ type: 'string', format: 'binary' }) }),
    );
    expect(schemas.CreatePhraseDto.required).toEqual(
      expect.arrayContaining(['phrase', 'dictionary', 'chapter_id', 'line_audio']),
    );
    expect(schemas.UpdatePhraseDto.required ?? []).not.toContain('line_audio');
  });

  it("describes answers with the server's own response classes, which the site's types also are", () => {
    const list = document.paths['/api/v1/admin/phrase'].get.responses['200'] as {
      content: Record<string, { schema: { $ref: string } }>;
    };
    expect(list.content['application/json'].schema.$ref).toBe('#/components/schemas/ChapterPhrasesAnswer');
    expect(document.components.schemas.PhraseResponse.properties?.duration_ms).toEqual(
      expect.objectContaining({ type: 'integer', nullable: true }),
    );
  });

  it('gives every operation a success answer: a schema, or a content type that is not JSON', () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
        const described = success.some(([, answer]) => {
          const content = (answer as { content?: Record<string, { schema?: unknown }> }).content ?? {};
          return Object.entries(content).some(
            ([type, media]) => !type.includes('json') || media.schema !== undefined,
          );
        });
        if (!described) missing.push(`${method.toUpperCase()} ${path}`);
      }
    expect(missing).toEqual([]);
    // Every class an answer names is in the document (a union's members need @ApiExtraModels).
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(
      ([, name]) => name,
    );
    expect(refs.filter((name) => !document.components.schemas[name])).toEqual([]);
  });

  it('names its server, PUBLIC_URL, and says how reading apps sign in: a bearer token or HTTP Basic', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: server.config.publicUrl })]);
    expect(document.components.securitySchemes.appPassword).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'basic' }),
    );
    const readingApp = [{}, { bearer: [] }, { appPassword: [] }];
    expect(document.paths['/api/v1/opds/books'].get.security).toEqual(readingApp);
    expect(document.paths['/api/v1/downloads/{bookCode}/audiobook'].get.security).toEqual(readingApp);
    // Basic opens these routes only (reading-app-auth.ts): the link route is a member's, by bearer token.
    expect(document.paths['/api/v1/downloads/{bookCode}/link'].post.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/api/v1/user/profile'].get.security).toEqual([{ bearer: [] }]);
  });

  it("describes the audiobook's partial, unchanged and out-of-range answers", () => {
    const responses = document.paths['/api/v1/downloads/{bookCode}/audiobook'].get.responses;
    expect(responses).toEqual(
      expect.objectContaining({
        '206': expect.objectContaining({ content: { 'audio/mp4': expect.anything() } }),
        '304': expect.anything(),
        '416': expect.objectContaining({ content: { 'application/json': expect.anything() } }),
      }),
    );
  });

  it('labels the OPDS errors as they are sent: problem details, not JSON or Atom', () => {
    for (const path of ['/api/v1/opds/books', '/api/v1/opds/search', '/api/v1/opds/languages/{lang}'])
      for (const [status, answer] of Object.entries(document.paths[path].get.responses))
        if (Number(status) >= 400)
          expect([path, status, Object.keys((answer as { content: object }).content)]).toEqual([
            path,
            status,
            ['application/problem+json'],
          ]);
  });

  it('gives every nullable schema a type, as OpenAPI 3.0 needs', () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.nullable === true && typeof schema.type !== 'string') untyped.push(at);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(document, '#');
    expect(untyped).toEqual([]);
  });

  it("passes Redocly's recommended rules without an error (redocly.yaml)", async () => {
    const problems = await redoclyLint(document);
    expect(
      problems
        .filter((problem) => problem.severity === 'error')
        .map(({ ruleId, message, location }) => `${ruleId} ${location[0]?.pointer}: ${message}`),
    ).toEqual([]);
  }, 120_000);

  it('serves a readable page at /api/docs', async () => {
    const res = await fetch(`${server.baseUrl}/api/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
