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
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
};

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

  it('serves a readable page at /api/docs', async () => {
    const res = await fetch(`${server.baseUrl}/api/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
