import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Field } from '../../platform/common/field';
import { Composed, ToInteger, Trim } from '../../platform/common/form-values';
import { LanguageTag } from '../../platform/common/language-field';
import { GlossaryTerm } from '../reading/reading.dto';

/** The longest word a lookup takes: longer than any headword a learner taps, short enough to bound the work. */
export const MAX_LOOKUP_WORD = 100;

/** Which step of the lookup found the answer (docs/lookup.md). */
export const LOOKUP_STEPS = ['glossary', 'form', 'lemma', 'folded'] as const;
export type LookupStep = (typeof LOOKUP_STEPS)[number];

export class LookupQuery {
  /**
   * The language of the word: the book's. May be left out with `phrase_id`: the phrase's book's language
   * is used then (a book without a language: dictionaries of every language).
   */
  @Field(
    // An empty lang= (a reader page of a book without a language) counts as left out.
    ValidateIf((query: LookupQuery) => Boolean(query.lang) || query.phrase_id === undefined),
    IsNotEmpty({ message: 'The lang field is required.' }),
    ...LanguageTag('lang'),
  )
  lang?: string;

  @Field(
    Trim(),
    Composed(),
    IsNotEmpty({ message: 'The word field is required.' }),
    IsString({ message: 'The word must be text.' }),
    MaxLength(MAX_LOOKUP_WORD, {
      message: `The word must not be longer than ${MAX_LOOKUP_WORD} characters.`,
    }),
  )
  word: string;

  /** The language of the definitions; left out: the member's first "I speak" with a dictionary, else English. */
  @Field(IsOptional(), ...LanguageTag('target'))
  target?: string;

  /** The phrase the word was tapped in: its glossary is the first step (and a locked chapter's is refused). */
  @Field(
    IsOptional(),
    ToInteger(),
    IsInt({ message: 'The phrase id must be a whole number.' }),
    Min(1, { message: 'The phrase id must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The phrase id is too large.' }),
  )
  phrase_id?: number;
}

export class LookupDictionary {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'To show under every entry from this dictionary (its licence may ask for it).',
  })
  attribution: string | null;
}

export class LookupEntry {
  @ApiProperty() headword: string;
  @ApiProperty({ description: 'Plain text; lines apart by "\\n".' }) definition: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The part of speech, when the dictionary gives it.',
  })
  pos: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The lemma this entry is for; null for the word itself (or its folded spelling).',
  })
  lemma: string | null;
  @ApiProperty({ type: LookupDictionary }) dictionary: LookupDictionary;
}

export class LookupResult {
  @ApiProperty({ description: 'The word as looked up (trimmed).' }) word: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "The language looked up in (canonical BCP 47): asked for, else the phrase's book's; null for a book without one.",
  })
  lang: string | null;
  @ApiProperty({ description: 'The language of the definitions: asked for, or chosen (docs/lookup.md).' })
  target: string;
  @ApiProperty({
    enum: LOOKUP_STEPS,
    nullable: true,
    description:
      'The first step that found a meaning: the glossary, the form, a lemma, a folded spelling; null for none.',
  })
  matched: LookupStep | null;
  @ApiProperty({
    type: [String],
    description:
      'The lemmas of the word (other than the word itself), those found in more dictionaries first.',
  })
  lemmas: string[];
  @ApiProperty({
    type: GlossaryTerm,
    nullable: true,
    description: "The phrase's glossary entry for the word.",
  })
  glossary: GlossaryTerm | null;
  @ApiProperty({ type: [LookupEntry], description: 'Entries for the word, then for each lemma in order.' })
  entries: LookupEntry[];
}

export class LookupAnswer {
  @ApiProperty({ type: LookupResult }) data: LookupResult;
}

export class ChapterLookupsQuery {
  @Field(
    Trim(),
    IsNotEmpty({ message: 'The book_code field is required.' }),
    IsString({ message: 'The book code must be text.' }),
    MaxLength(200, { message: 'The book code must not be longer than 200 characters.' }),
  )
  book_code: string;

  @Field(
    IsNotEmpty({ message: 'The chapter_no field is required.' }),
    ToInteger(),
    IsInt({ message: 'The chapter number must be a whole number.' }),
    Min(1, { message: 'The chapter number must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The chapter number is too large.' }),
  )
  chapter_no: number;

  /** The language of the definitions; left out: as a lookup chooses it. */
  @Field(IsOptional(), ...LanguageTag('target'))
  target?: string;
}

export class ChapterWordLookup {
  @ApiProperty({ enum: ['form', 'lemma', 'folded'] }) matched: LookupStep;
  @ApiProperty({ type: [String] }) lemmas: string[];
  @ApiProperty({ type: [LookupEntry], description: 'At most 6, each definition cut at 600 characters.' })
  entries: LookupEntry[];
}

export class ChapterLookups {
  @ApiProperty({ type: 'string', nullable: true }) lang: string | null;
  @ApiProperty() target: string;
  @ApiProperty({ description: 'False when the bound (about 1.5 MB) left words out.' }) complete: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/ChapterWordLookup' },
    description:
      'By form (lower case, NFC): each word of the chapter a dictionary has. A word left out has no entry.',
  })
  words: Record<string, ChapterWordLookup>;
}

export class ChapterLookupsAnswer {
  @ApiProperty({ type: ChapterLookups }) data: ChapterLookups;
}
