import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import { ValidationFailed } from './api-error';
import { Field } from './field';

/**
 * Actions made offline and sent later (docs/api.md, "Actions sent later"): how old their time may be. A
 * client keeps its queue for weeks at most; older times are a wrong clock or made-up history.
 */
export const SENT_LATER_MAX_AGE_MS = 30 * 86_400_000;
export const SENT_LATER_MAX_AGE_DAYS = SENT_LATER_MAX_AGE_MS / 86_400_000;
/** How far a client's clock may run ahead of the server's before its time is refused as in the future. */
export const CLOCK_SKEW_MS = 60_000;

/**
 * RFC 3339 date-times, which Date reads the same everywhere (ISO 8601's week dates, ordinal dates and
 * basic format it does not).
 */
export const RFC_3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/i;

/** The rules of a date-time field, each failing with the same message. */
export const dateTimeRules = (message: string): PropertyDecorator[] => [
  IsString({ message }),
  Matches(RFC_3339, { message }),
  IsISO8601({ strict: true }, { message }),
];

/**
 * An optional date-time field: absent, null or empty (a form's blank input) means "now"; anything else
 * must be an RFC 3339 date-time with its offset.
 */
export const OptionalDateTime =
  (message: string, description: string): PropertyDecorator =>
  (target, key) => {
    Field(
      Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value)),
      IsOptional(),
      ...dateTimeRules(message),
    )(target, key);
    ApiProperty({ type: 'string', format: 'date-time', required: false, description })(target, key);
  };

/** Whether a time sent later is older than the window allows. */
export const olderThanWindow = (at: Date, now: Date): boolean =>
  at.getTime() < now.getTime() - SENT_LATER_MAX_AGE_MS;

/**
 * The time of an action sent later, as it is kept: ahead of the server's clock it is now (an action is
 * never refused for a fast clock); older than the window it is refused, as field `at`, saying `what`
 * (such as "The time at that place").
 */
export function sentLaterTime(at: Date, now: Date, what: string): Date {
  if (olderThanWindow(at, now))
    throw ValidationFailed.field('at', `${what} must be within the last ${SENT_LATER_MAX_AGE_DAYS} days.`);
  return at > now ? now : at;
}
