import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';

/**
 * For calls that answer `{ url }`: a script (fetch) gets the JSON, while a browser's plain form post,
 * which asks for HTML, is sent there with a 303.
 */
@Injectable()
export class FormRedirectInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      map((body: { url?: string }) => {
        if (body?.url && req.accepts(['json', 'html']) === 'html') {
          res.redirect(303, body.url);
          return undefined;
        }
        return body;
      }),
    );
  }
}
