import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { Field } from '../../platform/common/field';
import { ToInteger, Trim, TrimLines } from '../../platform/common/form-values';
import { AnyText } from '../../platform/common/stored-text';
import { GlossaryTerm } from '../reading/reading.dto';
import { parseAskedLanguages } from '../../content/catalogue/translations-query';
import type { GlossaryEntry } from '../../content/catalogue/glossary';
import type { CardKind, MeaningSource } from './saved-word.entity';

export const CARD_KINDS = ['word', 'phrase'] as const satisfies readonly CardKind[];
const KIND_MESSAGE = 'The kind must be word or phrase.';
export const MEANING_SOURCES = ['glossary', 'dictionary'] as const satisfies readonly MeaningSource[];
/** The longest meaning a card keeps (saved_words.meaning). */
export const MAX_MEANING = 1000;

const fromDictionary = (dto: SaveWordDto) => dto.kind !== 'phrase' && dto.source === 'dictionary';

export class SaveWordDto {
  @Field(
    ToInteger(),
    IsNotEmpty({ message: 'The phrase id field is required.' }),
    IsInt({ message: 'The phrase id must be a whole number.' }),
    Min(1, { message: 'The phrase id must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The phrase id is too large.' }),
  )
  phrase_id: number;

  /** "phrase" saves the whole phrase as a card ("Save phrase"), without a term; "word" by default. */
  @Field(IsOptional(), IsIn(CARD_KINDS, { message: KIND_MESSAGE }))
  kind?: CardKind;

  @Field(
    ValidateIf((dto: SaveWordDto) => dto.kind !== 'phrase'),
    Trim(),
    IsNotEmpty({ message: 'The term field is required.' }),
    IsString({ message: 'The term must be text.' }),
    MaxLength(200, { message: 'The term must not be longer than 200 characters.' }),
  )
  term: string;

  /**
   * Where the meaning comes from: the phrase's glossary (the default: `term` must be one of its terms), or
   * a dictionary's entry for the term or one of its lemmas, whose definition `meaning` then is
   * (docs/lookup.md, "Saving a word").
   */
  @Field(IsOptional(), IsIn(MEANING_SOURCES, { message: 'The source must be glossary or dictionary.' }))
  source?: MeaningSource;

  /** With source "dictionary": the entry's definition, as the lookup gave it. Ignored for the glossary. */
  @Field(
    ValidateIf(fromDictionary),
    TrimLines(),
    IsNotEmpty({ message: 'The meaning field is required.' }),
    IsString({ message: 'The meaning must be text.' }),
    MaxLength(MAX_MEANING, { message: `The meaning must not be longer than ${MAX_MEANING} characters.` }),
  )
  meaning?: string;

  /** With source "dictionary", optional: the dictionary the lookup named (its `dictionary.id`). */
  @Field(
    IsOptional(),
    ToInteger(),
    IsInt({ message: 'The dictionary id must be a whole number.' }),
    Min(1, { message: 'The dictionary id must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The dictionary id is too large.' }),
  )
  dictionary_id?: number;
}

export class WordsQuery {
  /** Only words (glossary entries) or only phrase cards. */
  @Field(IsOptional(), IsIn(CARD_KINDS, { message: KIND_MESSAGE }))
  kind?: CardKind;

  @Field(IsOptional(), IsString({ message: 'The book code must be text.' }), MaxLength(200))
  book_code?: string;

  /** Words whose term or meaning contains this text, ignoring case: compared, never stored. */
  @Field(
    AnyText(),
    IsOptional(),
    IsString({ message: 'The search must be text.' }),
    MaxLength(200, { message: 'The search must not be longer than 200 characters.' }),
  )
  q?: string;

  /** With book_code: the words of one chapter (the reader marks them). */
  @Field(
    IsOptional(),
    ToInteger(),
    IsInt({ message: 'The chapter number must be a whole number.' }),
    Min(1, { message: 'The chapter number must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The chapter number is too large.' }),
  )
  chapter_no?: number;

  @Field(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (value === 'true' ? '1' : value === 'false' ? '0' : value)),
    IsIn(['0', '1'], { message: 'The due filter must be 1 or 0.' }),
  )
  due?: string;

  @Field(
    IsOptional(),
    ToInteger(),
    IsInt({ message: 'The page must be a whole number.' }),
    Min(1, { message: 'The page must be 1 or more.' }),
    Max(1_000_000, { message: 'The page must not be more than 1000000.' }),
  )
  page?: number;

  @Field(
    IsOptional(),
    ToInteger(),
    IsInt({ message: 'The per page value must be a whole number.' }),
    Min(1, { message: 'The per page value must be from 1 to 200.' }),
    Max(200, { message: 'The per page value must be from 1 to 200.' }),
  )
  per_page?: number;
}

export class CardTranslation {
  @ApiProperty({ description: 'A BCP 47 tag, e.g. "en", "pt-BR".' }) language: string;
  @ApiProperty() text: string;
}

export class WordResponse {
  @ApiProperty() id: number;
  @ApiProperty() phrase_id: number;
  @ApiProperty({
    enum: CARD_KINDS,
    description:
      'A glossary entry ("word"), or the whole phrase ("phrase", a phrase card: empty term and meaning).',
  })
  kind: CardKind;
  @ApiProperty() term: string;
  @ApiProperty() meaning: string;
  @ApiProperty({
    enum: MEANING_SOURCES,
    nullable: true,
    description:
      "Where the meaning came from: the phrase's glossary, or a dictionary (named by `source_name`); null for a phrase card.",
  })
  source: MeaningSource | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "The dictionary's name, as it was when the word was saved; null unless `source` is dictionary.",
  })
  source_name: string | null;
  @ApiProperty({ description: 'The phrase the word was saved from.' }) phrase: string;
  @ApiProperty({ type: [GlossaryTerm], description: "The phrase's glossary, split into terms." })
  glossary: GlossaryEntry[];
  @ApiProperty({
    type: CardTranslation,
    nullable: true,
    description:
      "The phrase's translation in the first of the member's languages (profile `speaks`; the export's `languages` when given) it has, by the one rule the reader uses (server/platform/common/translation-choice.ts); null when it has none of them or none were chosen. Clients pick from `translations` with the learner's languages instead.",
  })
  translation: CardTranslation | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      "All the phrase's translations, BCP 47 tag to text (`{}` when none): the reader's pages choose from them with the learner's languages (\"I speak\", else the browser's).",
  })
  translations: Record<string, string>;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The phrase's clip, null when the member may no longer hear it.",
  })
  audio: string | null;
  @ApiProperty() book_code: string;
  @ApiProperty() book_title: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The book's language (a BCP 47 tag), the language of `term` and `phrase`.",
  })
  language: string | null;
  @ApiProperty() chapter_no: number;
  @ApiProperty() position: number;
  @ApiProperty({ format: 'date-time' }) due_at: string;
  @ApiProperty({ description: 'The review state: 0 new, 1 learning, 2 review, 3 relearning.' }) state: number;
  @ApiProperty() reps: number;
  @ApiProperty() lapses: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class WordAnswer {
  @ApiProperty({ type: WordResponse }) data: WordResponse;
}

export class WordDeletedAnswer {
  @ApiProperty() message: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until when `POST user/words/{id}/restore` brings the word back (its card and history too).',
  })
  undo_until: string;
}

export class WordRestoredAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: WordResponse }) data: WordResponse;
}

export class WordsPage {
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
}

export class WordListAnswer {
  @ApiProperty({ type: [WordResponse] }) data: WordResponse[];
  @ApiProperty({ type: WordsPage }) meta: WordsPage;
}

export class WordBook {
  @ApiProperty() book_code: string;
  @ApiProperty() book_title: string;
  @ApiProperty({ description: 'How many words the member saved from it.' }) words: number;
}

export class WordBooksAnswer {
  @ApiProperty({ type: [WordBook] }) data: WordBook[];
}

export const EXPORT_FORMATS = ['csv', 'anki'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class WordsExportQuery {
  @Field(IsOptional(), IsIn(EXPORT_FORMATS, { message: 'The format must be csv or anki.' }))
  format?: ExportFormat;

  /**
   * The learner's languages, best first, comma-separated ("en-US,en"): what /words picks a phrase card's
   * translation with (the browser's languages when the member chose no "I speak"), so the file says what
   * the page showed. Left out: the member's "I speak".
   */
  @Field(
    IsOptional(),
    ValidateBy({
      name: 'isLanguageList',
      validator: {
        validate: (value: unknown) => parseAskedLanguages(value).ok,
        defaultMessage: (args) => {
          const asked = parseAskedLanguages(args?.value);
          return asked.ok ? '' : asked.message.replace(/^The translations/, 'The languages');
        },
      },
    }),
  )
  languages?: string;
}

/** The export's `languages`, parsed (valid by then): [] when left out. */
export const exportLanguages = (query: WordsExportQuery): string[] => {
  const asked = parseAskedLanguages(query.languages);
  return asked.ok ? asked.tags : [];
};
