import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsString, ValidateBy } from 'class-validator';
import { canonicalTag } from '../../platform/common/language-tags';
import { Field } from '../../platform/common/field';
import { IsUploadedFile, type UploadedFile } from '../../platform/common/uploaded-file.validator';
import { MB } from '../../http/body/multipart.interceptor';

/**
 * Bounds of an import (docs/word-forms.md): Debian's es_ES.dic is 822 KB and its .aff 170 KB; a list of
 * irregular forms is a few MB at most. The most files one call takes is two (.aff and .dic).
 */
export const WORD_FORM_FILE_LIMITS = { aff: 2 * MB, dic: 20 * MB, list: 50 * MB };
export const WORD_FORM_UPLOADS = { files: WORD_FORM_FILE_LIMITS.list };
export const WORD_FORM_OPTIONS = { counts: { files: 2 }, total: 50 * MB + MB };
/** The most forms one set may hold: es_ES gives about 714,000, the largest Hunspell dictionaries a few million. */
export const MAX_FORMS = 5_000_000;

export class WordFormsImportDto {
  @Field(
    IsNotEmpty({ message: 'Choose the language of the forms, such as es or pt-BR.' }),
    IsString({ message: 'The language must be a language tag, such as es or pt-BR.' }),
    ValidateBy(
      {
        name: 'isLanguageTag',
        validator: { validate: (value) => typeof value === 'string' && canonicalTag(value.trim()) !== null },
      },
      { message: 'The language must be a language tag (BCP 47), such as es or pt-BR.' },
    ),
  )
  lang: string;

  @Field(
    IsNotEmpty({ message: 'Choose a Hunspell .aff and .dic, or one .tsv or .csv list of forms.' }),
    IsArray({ message: 'The files must be uploaded files.' }),
    ArrayMaxSize(2, { message: 'Send a Hunspell .aff and .dic, or one .tsv or .csv list of forms.' }),
    IsUploadedFile({ each: true, message: 'The files must be uploaded files.' }),
  )
  files: UploadedFile[];
}

export class WordFormCounts {
  @ApiProperty({ example: 'es' }) lang: string;
  @ApiProperty({ enum: ['hunspell', 'list'] }) origin: string;
  @ApiProperty({ description: 'Distinct forms of this set.', example: 713707 }) forms: number;
  @ApiProperty({ description: 'Distinct lemmas of this set.', example: 67518 }) lemmas: number;
}

export class WordFormsImportAnswer {
  @ApiProperty({ type: WordFormCounts }) data: WordFormCounts;
}

export class WordFormSetItem extends WordFormCounts {
  @ApiProperty() updated_at: string;
}

export class WordFormSetsAnswer {
  @ApiProperty({ type: [WordFormSetItem] }) data: WordFormSetItem[];
}
