import { IsInt, IsNotEmpty, Max, Min } from 'class-validator';
import { Field } from './field';
import { ToInteger } from './form-values';

/** An id in a body or a query: a whole number from 1, named in the messages by `label` ("book id"). */
export const PositiveId = (label: string) =>
  Field(
    ToInteger(),
    IsNotEmpty({ message: `The ${label} field is required.` }),
    IsInt({ message: `The ${label} must be a whole number.` }),
    Min(1, { message: `The ${label} must be 1 or more.` }),
  );

/** A chapter's number, as chapters and reading progress take it. */
export const ChapterNumber = () =>
  Field(
    ToInteger(),
    IsNotEmpty({ message: 'The chapter number field is required.' }),
    IsInt({ message: 'The chapter number must be a whole number.' }),
    Min(1, { message: 'The chapter number must be 1 or more.' }),
    Max(100_000, { message: 'The chapter number must not be more than 100000.' }),
  );
