import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { READING_APP_AUTH } from '../accounts/app-passwords/reading-app-auth';
import { IS_PUBLIC, OPTIONAL_AUTH, ROLES } from '../accounts/auth/auth.decorators';
import { APP_CONFIG, type AppConfig } from '../platform/config';
import { UPLOADS } from './body/multipart.interceptor';
import { MEMBER_RATE_LIMIT, RATE_LIMIT } from './rate-limit';
import { UserType } from '../accounts/users/user.entity';
import { errorContent as error } from '../platform/common/error-answer';
import { PROBLEM_DETAILS_PATH, PROBLEM_TYPE } from './problem-details';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
type ResponsesObject = OperationObject['responses'];
type SchemaObject = { required?: string[]; properties?: Record<string, unknown> };

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = 'api/docs';

export type Auth = 'public' | 'optional' | 'member' | 'admin';

/** A handler's metadata, or else its controller's, as Nest's own decorators are read. */
const metadataOf =
  (controller: Type, handler: object) =>
  <T>(key: string): T | undefined =>
    (Reflect.getMetadata(key, handler) as T | undefined) ??
    (Reflect.getMetadata(key, controller) as T | undefined);

/** Who may call a handler, from the same metadata the AuthGuard reads (server/accounts/auth/auth.guard.ts). */
function authOf(read: ReturnType<typeof metadataOf>): Auth {
  if (read<boolean>(OPTIONAL_AUTH)) return 'optional';
  if (read<boolean>(IS_PUBLIC)) return 'public';
  return read<UserType[]>(ROLES)?.includes(UserType.Admin) ? 'admin' : 'member';
}

const AUTH_TEXT: Record<Auth, string> = {
  public: 'Public: no token needed.',
  optional: 'Public; a valid bearer token, when sent, makes the answer the member’s.',
  member: 'Members: a bearer token is required.',
  admin: 'Administrators only: a bearer token of an administrator is required.',
};
const READING_APP_TEXT =
  'Reading apps may sign in with HTTP Basic instead: the member’s email and an app password made on their profile.';

/**
 * An error answer of a route whose errors are problem details (problem-details.ts): the same fields,
 * with RFC 9457's beside them, under their own media type.
 */
function asProblem(answer: ResponsesObject[string]): void {
  if (!answer || !('content' in answer) || !answer.content?.['application/json']) return;
  const schema = (answer.content['application/json'].schema ?? {}) as SchemaObject;
  answer.content = {
    [PROBLEM_TYPE]: {
      schema: {
        ...schema,
        type: 'object',
        required: ['type', 'title', 'status', 'detail', ...(schema.required ?? [])],
        properties: {
          type: { type: 'string', description: 'Always `about:blank`: the status says what happened.' },
          title: { type: 'string', description: "The status's name, as in `Not Found`." },
          status: { type: 'integer' },
          detail: { type: 'string', description: 'What went wrong, for a person: the same as `message`.' },
          ...schema.properties,
        },
      },
    },
  };
}

/**
 * The OpenAPI 3 document, generated from the controllers and DTOs (@nestjs/swagger), then completed from
 * the metadata the server itself acts on, so that it cannot drift: who may call each route, which
 * routes take multipart uploads, and the error answers every route can give (401, 403, 413, 422, 429).
 * The server is PUBLIC_URL, the address every absolute link the API writes starts with.
 */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const { publicUrl } = app.get<AppConfig>(APP_CONFIG);
  const config = new DocumentBuilder()
    .setTitle('Lingonovel API')
    .setDescription(
      'The v1 JSON API. Errors are `{ "message": "…" }`; validation failures are 422 with `errors` by field. ' +
        'The OPDS routes send them as RFC 9457 problem details (`application/problem+json`). ' +
        'Rules and prose: docs/api.md.',
    )
    .setVersion('1')
    .setLicense('MIT', 'https://spdx.org/licenses/MIT.html')
    .addServer(publicUrl, 'This installation (its PUBLIC_URL).')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .addBasicAuth(
      {
        type: 'http',
        scheme: 'basic',
        description: 'Email and app password: the OPDS and download routes only.',
      },
      'appPassword',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const controllers = new Map<string, Type>();
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values())
      controllers.set(wrapper.name as string, wrapper.metatype as Type);

  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods) as Array<[string, OperationObject]>) {
      if (!operation?.operationId) continue;
      const [controllerName, handlerName] = operation.operationId.split('_');
      const controller = controllers.get(controllerName);
      const handlers = controller?.prototype as Record<string, object | undefined> | undefined;
      const handler = handlers?.[handlerName];
      if (!controller || !handler) continue;
      const read = metadataOf(controller, handler);
      const auth = authOf(read);
      const readingApp = read<boolean>(READING_APP_AUTH) === true;
      (operation as unknown as Record<string, unknown>)['x-auth'] = auth;
      operation.description = [AUTH_TEXT[auth], readingApp && READING_APP_TEXT, operation.description]
        .filter(Boolean)
        .join('\n\n');
      // With a reading app's sign-in, nobody (`{}`: a visitor's answer), a bearer token or Basic.
      operation.security = readingApp
        ? [{}, { bearer: [] }, { appPassword: [] }]
        : auth === 'member' || auth === 'admin'
          ? [{ bearer: [] }]
          : [];
      const responses: ResponsesObject = operation.responses;
      if (auth === 'member' || auth === 'admin')
        responses['401'] = error('No token, or a bad, expired or outdated one.');
      if (auth === 'admin') responses['403'] = error('Signed in, but not as an administrator.');
      const hasInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
      if (hasInput) responses['422'] = error('The input is not valid: `errors` says why, by field.', true);
      if (operation.parameters?.some((parameter) => 'in' in parameter && parameter.in === 'path'))
        responses['404'] ??= error('Nothing has that id or code.');
      if (method !== 'get') responses['413'] = error('The request body (or one of its files) is too large.');
      if (read(RATE_LIMIT) ?? Reflect.getMetadata(MEMBER_RATE_LIMIT, handler))
        responses['429'] = error('Too many requests; the Retry-After header says when to try again.');
      const uploads = Reflect.getMetadata(UPLOADS, handler) as Record<string, number> | undefined;
      if (uploads && operation.requestBody && 'content' in operation.requestBody) {
        const { schema } = (Object.values(operation.requestBody.content)[0] ?? {}) as { schema?: object };
        operation.requestBody.content = { 'multipart/form-data': { schema } };
        responses['503'] ??= error('The media store (a bucket) cannot be reached; nothing was saved.');
      }
      if (path === PROBLEM_DETAILS_PATH || path.startsWith(`${PROBLEM_DETAILS_PATH}/`))
        for (const [status, answer] of Object.entries(responses))
          if (Number(status) >= 400) asProblem(answer);
    }
  return document;
}

/** Serves the document as JSON and a readable page (Swagger UI, with its own CSP: security-headers.ts). */
export function mountOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_PATH,
    raw: ['json'],
    customSiteTitle: 'Lingonovel API',
    swaggerOptions: { url: OPENAPI_PATH },
  });
}
