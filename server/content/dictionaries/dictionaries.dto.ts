import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { MB, multipartLimit } from '../../platform/common/body-limits';
import { Field } from '../../platform/common/field';
import { Trim } from '../../platform/common/form-values';
import { canonicalTag } from '../../platform/common/language-tags';
import { IsUploadedFile, type UploadedFile } from '../../platform/common/uploaded-file.validator';
import type { DictionaryRow } from './dictionaries.repository';
import { DICTIONARY_FORMATS, type DictionaryFormat } from './dictionary.entity';

/**
 * What an import may send (docs/dictionaries.md, "Bounds"): the parts of one dictionary (StarDict's
 * .ifo, .idx, .dict.dz and .syn are four), each up to 100 MB, 200 MB in all. FreeDict's German-English,
 * among the largest, is a 16.8 MB .dict.dz and a 12.7 MB .index.
 */
export const MAX_DICTIONARY_FILES = 4;
export const DICTIONARY_FILE_MAX = 100 * MB;
export const DICTIONARY_TOTAL_MAX = 200 * MB;
export const DICTIONARY_UPLOADS = { files: DICTIONARY_FILE_MAX };
export const DICTIONARY_UPLOAD_OPTIONS = {
  counts: { files: MAX_DICTIONARY_FILES },
  total: multipartLimit({ files: DICTIONARY_TOTAL_MAX }),
};

/** The widths of the columns (the migration's). */
export const NAME_MAX = 200;
export const NOTE_MAX = 1000;

/** A blank field is a field not given: the file's value, or the dictionary's own, stands. */
const BlankIsMissing = () =>
  Transform(({ value }: { value: unknown }) => (value === '' || value === null ? undefined : value));

const text = (label: string, max: number) => [
  Trim(),
  BlankIsMissing(),
  IsOptional(),
  IsString({ message: `The ${label} must be text.` }),
  MaxLength(max, { message: `The ${label} must not be longer than ${max} characters.` }),
];

const isTag = (value: unknown) => typeof value === 'string' && canonicalTag(value) !== null;
const languageTag = (label: string) =>
  ValidateBy(
    { name: 'isLanguageTag', validator: { validate: isTag } },
    { message: `The ${label} language must be a language tag (BCP 47), such as es, en or pt-BR.` },
  );

const filesRules = [
  IsNotEmpty({ message: 'Choose the files of the dictionary.' }),
  IsArray({ message: 'The files must be uploaded files.' }),
  ArrayMaxSize(MAX_DICTIONARY_FILES, { message: `Send at most ${MAX_DICTIONARY_FILES} files.` }),
  IsUploadedFile({ each: true, message: 'The files must be uploaded files.' }),
];

/** The metadata an administrator may give; each overrides what the file says (docs/dictionaries.md). */
class DictionaryFieldsDto {
  @Field(...text('name', NAME_MAX))
  name?: string;

  @Field(...text('licence', NOTE_MAX))
  licence?: string;

  @Field(...text('attribution', NOTE_MAX))
  attribution?: string;
}

/** POST admin/dictionary: a new dictionary from its files (dictd, StarDict, TSV or CSV). */
export class CreateDictionaryDto extends DictionaryFieldsDto {
  @Field(...filesRules)
  files: UploadedFile[];

  @Field(Trim(), IsNotEmpty({ message: 'The source language is required.' }), languageTag('source'))
  source: string;

  @Field(Trim(), IsNotEmpty({ message: 'The target language is required.' }), languageTag('target'))
  target: string;
}

/** PUT admin/dictionary/{id}: new files for a dictionary; the languages stay unless given. */
export class ReplaceDictionaryDto extends DictionaryFieldsDto {
  @Field(...filesRules)
  files: UploadedFile[];

  @Field(Trim(), BlankIsMissing(), IsOptional(), languageTag('source'))
  source?: string;

  @Field(Trim(), BlankIsMissing(), IsOptional(), languageTag('target'))
  target?: string;
}

export class DictionaryResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The language of the headwords (BCP 47).', example: 'es' }) source: string;
  @ApiProperty({ description: 'The language of the definitions (BCP 47).', example: 'en' }) target: string;
  @ApiProperty({ enum: DICTIONARY_FORMATS }) format: DictionaryFormat;
  @ApiProperty({ description: 'How many entries are live.' }) entries: number;
  @ApiProperty({ type: 'string', nullable: true }) licence: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Shown under every lookup from this dictionary.',
  })
  attribution: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When its entries were last imported.' })
  updated_at: string;
}

export class DictionaryAnswer {
  @ApiProperty({ type: DictionaryResponse }) data: DictionaryResponse;
}

export class DictionaryListAnswer {
  @ApiProperty({ type: [DictionaryResponse] }) data: DictionaryResponse[];
}

export const toDictionaryResponse = (row: DictionaryRow): DictionaryResponse => ({
  id: row.id,
  name: row.name,
  source: row.source,
  target: row.target,
  format: row.format,
  entries: row.entries,
  licence: row.licence,
  attribution: row.attribution,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
