import { DataSource } from 'typeorm';
import { createAdmin } from '../accounts/users/create-admin';
import type { TestServer } from './harness';

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

let nextAddress = 1;

/**
 * Talks to the API as one client machine. Each client gets its own address (sent as X-Forwarded-For,
 * which the server trusts from loopback), so per-address rate limits do not leak between tests.
 */
export class ApiClient {
  readonly ip = `10.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

  constructor(
    private readonly server: TestServer,
    private token?: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    const other = new ApiClient(this.server, token);
    (other as { ip: string }).ip = this.ip;
    return other;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResult<T>> {
    const init: RequestInit = { method, headers: { 'X-Forwarded-For': this.ip, ...headers } };
    if (this.token) (init.headers as Record<string, string>).Authorization = `Bearer ${this.token}`;
    if (body instanceof FormData || body instanceof URLSearchParams || typeof body === 'string')
      init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const res = await fetch(this.server.baseUrl + '/api/v1/' + path.replace(/^\//, ''), init);
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  /** The raw answer, for bodies that are not JSON (a CSV, say), as this client would fetch it. */
  raw(path: string): Promise<Response> {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.ip };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return fetch(this.server.baseUrl + '/api/v1/' + path.replace(/^\//, ''), { headers });
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body);
  }
  delete<T = Record<string, unknown>>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

/** Signs a new member up and in; answers a client holding their token. */
export async function newMember(
  server: TestServer,
  name = 'Mia Member',
): Promise<{ client: ApiClient; email: string; password: string; id: number }> {
  const email = `member-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  const password = 'a good password 1';
  const anonymous = new ApiClient(server);
  const signup = await anonymous.post('user/signup', { name, email, password, repeat_password: password });
  if (signup.status !== 200) throw new Error(`signup failed: ${signup.text}`);
  const login = await anonymous.post<{ token: string; user: { id: number } }>('user/login', {
    email,
    password,
  });
  return { client: anonymous.withToken(login.body.token), email, password, id: login.body.user.id };
}

/** Creates an administrator the only way there is (create-admin), then signs them in. */
export async function newAdmin(
  server: TestServer,
): Promise<{ client: ApiClient; email: string; password: string }> {
  const email = `admin-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  const password = 'an admin password 1';
  await createAdmin(server.app.get(DataSource), { email, password, name: 'Ada Admin' });
  const anonymous = new ApiClient(server);
  const login = await anonymous.post<{ token: string }>('user/login', { email, password });
  return { client: anonymous.withToken(login.body.token), email, password };
}
