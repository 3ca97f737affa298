import { ApiResponse } from '@nestjs/swagger';

/** An error answer particular to some routes (a premium chapter's 403, payments off's 503), in the shared shape. */
export const ErrorAnswer = (status: number, description: string) =>
  ApiResponse({ status, ...errorContent(description) });

export function errorContent(description: string, withFields = false) {
  return {
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            ...(withFields
              ? {
                  errors: {
                    type: 'object',
                    additionalProperties: { type: 'array', items: { type: 'string' } },
                  },
                }
              : {}),
          },
        },
      },
    },
  };
}
