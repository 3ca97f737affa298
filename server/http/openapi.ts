import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { IS_PUBLIC, OPTIONAL_AUTH, ROLES } from '../auth/auth.decorators';
import { UPLOADS } from './body/multipart.interceptor';
import { MEMBER_RATE_LIMIT, RATE_LIMIT } from '../common/rate-limit';
import { UserType } from '../users/user.entity';
import { errorContent as error } from '../common/error-answer';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
type ResponsesObject = OperationObject['responses'];

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = 'api/docs';

export type Auth = 'public' | 'optional' | 'member' | 'admin';

/** Who may call a handler, from the same metadata the AuthGuard reads (server/auth/auth.guard.ts). */
function authOf(controller: Type, handler: object): Auth {
  const read = <T>(key: string): T | undefined =>
    (Reflect.getMetadata(key, handler) as T | undefined) ??
    (Reflect.getMetadata(key, controller) as T | undefined);
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

/**
 * The OpenAPI 3 document, generated from the controllers and DTOs (@nestjs/swagger), then completed from
 * the metadata the server itself acts on, so that it cannot drift: who may call each route, which
 * routes take multipart uploads, and the error answers every route can give (401, 403, 413, 422, 429).
 */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Lingonovel API')
    .setDescription(
      'The v1 JSON API. Errors are `{ "message": "…" }`; validation failures are 422 with `errors` by field. ' +
        'Rules and prose: docs/api.md.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const controllers = new Map<string, Type>();
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values())
      controllers.set(wrapper.name as string, wrapper.metatype as Type);

  for (const methods of Object.values(document.paths))
    for (const [method, operation] of Object.entries(methods) as Array<[string, OperationObject]>) {
      if (!operation?.operationId) continue;
      const [controllerName, handlerName] = operation.operationId.split('_');
      const controller = controllers.get(controllerName);
      const handlers = controller?.prototype as Record<string, object | undefined> | undefined;
      const handler = handlers?.[handlerName];
      if (!controller || !handler) continue;
      const auth = authOf(controller, handler);
      (operation as unknown as Record<string, unknown>)['x-auth'] = auth;
      operation.description = [AUTH_TEXT[auth], operation.description].filter(Boolean).join('\n\n');
      operation.security = auth === 'member' || auth === 'admin' ? [{ bearer: [] }] : [];
      const responses: ResponsesObject = operation.responses;
      if (auth === 'member' || auth === 'admin')
        responses['401'] = error('No token, or a bad, expired or outdated one.');
      if (auth === 'admin') responses['403'] = error('Signed in, but not as an administrator.');
      const hasInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
      if (hasInput) responses['422'] = error('The input is not valid: `errors` says why, by field.', true);
      if (operation.parameters?.some((parameter) => 'in' in parameter && parameter.in === 'path'))
        responses['404'] ??= error('Nothing has that id or code.');
      if (method !== 'get') responses['413'] = error('The request body (or one of its files) is too large.');
      if (
        Reflect.getMetadata(RATE_LIMIT, handler) ??
        Reflect.getMetadata(RATE_LIMIT, controller) ??
        Reflect.getMetadata(MEMBER_RATE_LIMIT, handler)
      )
        responses['429'] = error('Too many requests; the Retry-After header says when to try again.');
      const uploads = Reflect.getMetadata(UPLOADS, handler) as Record<string, number> | undefined;
      if (uploads && operation.requestBody && 'content' in operation.requestBody) {
        const { schema } = (Object.values(operation.requestBody.content)[0] ?? {}) as { schema?: object };
        operation.requestBody.content = { 'multipart/form-data': { schema } };
        responses['503'] ??= error('The media store (a bucket) cannot be reached; nothing was saved.');
      }
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
