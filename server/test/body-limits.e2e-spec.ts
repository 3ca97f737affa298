import { ApiClient, newAdmin, newMember } from './api-client';
import { startServer, type TestServer } from './harness';
import { countServerReads, rawRequest } from './raw-socket';
import { BODY_LIMIT, MB, multipartLimit, UPLOAD_FIELDS_LIMIT } from '../platform/common/body-limits';
import { PHRASE_UPLOADS } from '../platform/common/body-limits';
import { tempFiles } from './fixtures';
import { eventually } from './eventually';

const BOUNDARY = 'lingonovel-boundary';
const multipartHead = (path: string, token?: string) =>
  [
    `POST /api/v1/${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    'Transfer-Encoding: chunked',
    ...(token ? [`Authorization: Bearer ${token}`] : []),
  ].join('\n');

/** The opening of a multipart body whose one part (a file, or a text field) never ends. */
function endlessPart(field: string, file: boolean): Buffer {
  const disposition = file
    ? `Content-Disposition: form-data; name="${field}"; filename="big.mp3"\r\nContent-Type: audio/mpeg`
    : `Content-Disposition: form-data; name="${field}"`;
  return Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\n\r\n`);
}

describe('Request bodies past their limit, or refused before they matter', () => {
  let server: TestServer;
  let reads: ReturnType<typeof countServerReads>;
  let adminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    server = await startServer();
    reads = countServerReads(server);
    const admin = await newAdmin(server);
    const login = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: admin.email,
      password: admin.password,
    });
    adminToken = login.body.token;
    const member = await newMember(server);
    const memberLogin = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    memberToken = memberLogin.body.token;
  });
  afterAll(() => server.close());

  it('answers a chunked JSON flood to sign-up with 413 and closes within 1 MB of the limit', async () => {
    const head =
      'POST /api/v1/user/signup HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nTransfer-Encoding: chunked';
    const res = await rawRequest(server, head, 200 * MB);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.replace(/^[0-9a-f]+\r\n/, '').split('\r\n')[0] || res.body)).toEqual({
      message: 'The request body is too large. The limit is 100 KB.',
    });
    expect(res.head).toMatch(/connection: close/i);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(BODY_LIMIT + MB);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const head =
      'POST /api/v1/user/signup HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: 3400000000';
    const res = await rawRequest(server, head, 50 * MB);
    expect(res.status).toBe(413);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(MB);
  });

  it('answers an oversize admin upload with 413 within 1 MB past its limit, and keeps no temp file', async () => {
    const res = await rawRequest(
      server,
      multipartHead('admin/phrase', adminToken),
      60 * MB,
      endlessPart('line_audio', true),
    );
    expect(res.status).toBe(413);
    // Whichever the server notices first: the file past its 10 MB, or the body past 10 MB + the fields.
    expect(res.body).toMatch(/The (line audio file|request body) is too large. The limit is 1[01] MB./);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(multipartLimit(PHRASE_UPLOADS) + MB);
    // The partial file is removed as its stream fails, which may trail the answer by a moment.
    await eventually(async () => (await tempFiles(server)).length === 0, 'the partial upload to go');
  });

  it('keeps the connection until a client that reads late has the answer, reading no more meanwhile', async () => {
    // The client sends on for a second before reading anything: cutting the connection then would reset
    // it with the answer unread, and the client would see no answer at all.
    const res = await rawRequest(
      server,
      multipartHead('admin/phrase', adminToken),
      60 * MB,
      endlessPart('line_audio', true),
      1_000,
    );
    expect(res.status).toBe(413);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(multipartLimit(PHRASE_UPLOADS) + MB);
  });

  it('bounds the text fields of a multipart body on routes without files', async () => {
    const res = await rawRequest(server, multipartHead('user/signup'), 60 * MB, endlessPart('name', false));
    expect(res.status).toBe(413);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(BODY_LIMIT + MB);
  });

  it('bounds the text fields of an upload route too, at their own limit', async () => {
    const res = await rawRequest(
      server,
      multipartHead('admin/phrase', adminToken),
      60 * MB,
      endlessPart('phrase', false),
    );
    expect(res.status).toBe(413);
    expect(res.body).toContain("The form's text fields are too large. The limit is 1024 KB.");
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(UPLOAD_FIELDS_LIMIT + MB);
  });

  it('refuses a file sent where none belongs at once, without reading it', async () => {
    const res = await rawRequest(server, multipartHead('user/signup'), 60 * MB, endlessPart('email', true));
    expect(res.status).toBe(422);
    expect(res.body).toContain('The email field does not accept a file.');
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(MB);
  });

  it('refuses a part multer would refuse (no field name) at once, before the file after it', async () => {
    const prefix = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="line_audio"; filename="a.mp3"\r\n\r\n`,
    );
    const res = await rawRequest(server, multipartHead('admin/phrase', adminToken), 60 * MB, prefix);
    expect(res.status).toBe(422);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(MB);
  });

  it('answers a lone surrogate in a multipart field with a 422, not a 500', async () => {
    const body = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="email"\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n`,
      ),
      Buffer.from([0x00, 0xd8]),
      Buffer.from(
        `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="password"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
      ),
    ]);
    const res = await fetch(`${server.baseUrl}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      message: 'This field contains text that is not valid Unicode.',
      errors: { email: ['This field contains text that is not valid Unicode.'] },
    });
  });

  it.each([
    ['a visitor on an admin upload', 'admin/phrase', undefined, 401],
    ['a bad token on an admin upload', 'admin/phrase', 'not.a.token', 401],
    ['a member on an admin upload', 'admin/phrase', 'MEMBER', 403],
    ['an unknown route', 'no/such/route', undefined, 404],
  ])('answers %s without reading the body, then closes', async (_case, path, token, status) => {
    const bearer = token === 'MEMBER' ? memberToken : token;
    const res = await rawRequest(
      server,
      multipartHead(path, bearer),
      60 * MB,
      endlessPart('line_audio', true),
    );
    expect(res.status).toBe(status);
    expect(res.head).toMatch(/connection: close/i);
    expect(res.closedByServer).toBe(true);
    expect(await reads.lastConnection()).toBeLessThan(MB);
  });

  it('keeps the connection alive after an ordinary request with a body', async () => {
    const client = new ApiClient(server);
    const res = await client.post('user/login', { email: 'nobody@example.org', password: 'x' });
    expect(res.status).toBe(422);
    expect(res.headers.get('connection')).not.toBe('close');
  });
});
