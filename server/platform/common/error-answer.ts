import { ApiResponse } from '@nestjs/swagger';

type PropertySchema = Record<string, unknown>;

/**
 * An error answer particular to some routes (a premium chapter's 403, payments off's 503), in the shared
 * shape; `extra` declares the fields such an answer carries besides `message` (a link to go to instead).
 */
export const ErrorAnswer = (
  status: number,
  description: string,
  extra: Record<string, PropertySchema> = {},
) => ApiResponse({ status, ...errorContent(description, false, extra) });

export function errorContent(
  description: string,
  withFields = false,
  extra: Record<string, PropertySchema> = {},
) {
  return {
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['message', ...Object.keys(extra)],
          properties: {
            message: { type: 'string' },
            ...extra,
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
