import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  Min,
} from 'class-validator';
import { Transform } from 'class-transformer';
import { ApiProperty } from '@nestjs/swagger';
import { Field } from '../../platform/common/field';
import { Trim, TrimLines } from '../../platform/common/form-values';
import { IsUploadedFile, type UploadedFile } from '../../platform/common/uploaded-file.validator';
import { IsAudioFile } from '../../platform/media/upload-checks';
import { PositiveId } from '../../platform/common/number-fields';
import type { Phrase } from '../../content/catalogue/entities/phrase.entity';
import type { PhraseResponse } from './phrase-responses';
import type { Translations } from '../../content/catalogue/repository/phrase-translations.repository';
import { MAX_TRANSLATION_LANGUAGES, MAX_TRANSLATION_LENGTH, TranslationsField } from './translations-field';

export { PHRASE_UPLOADS } from '../../platform/common/body-limits';

/** Checked by its content with the other fields, so that one 422 names every problem. */
const lineAudio = [IsUploadedFile({ message: 'The line audio must be an uploaded file.' }), IsAudioFile()];

class PhraseFieldsDto {
  @Field(
    Trim(),
    IsNotEmpty({ message: 'The phrase field is required.' }),
    IsString({ message: 'The phrase must be text.' }),
    MaxLength(2000, { message: 'The phrase must not be longer than 2000 characters.' }),
  )
  phrase: string;

  @Field(
    TrimLines(),
    IsNotEmpty({ message: 'The dictionary field is required.' }),
    IsString({ message: 'The dictionary must be text.' }),
    MaxLength(5000, { message: 'The dictionary must not be longer than 5000 characters.' }),
  )
  dictionary: string;

  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { type: 'string' },
    example: { en: 'Good morning.', 'pt-BR': 'Bom dia.' },
    description:
      `Text per BCP 47 tag; in a form, one field per language: translations[en], translations[pt-BR]. ` +
      `Left out, the phrase keeps its translations; sent, it is the whole set (a language left out or ` +
      `with an empty text is removed). At most ${MAX_TRANSLATION_LANGUAGES} languages of ` +
      `${MAX_TRANSLATION_LENGTH} characters.`,
  })
  @Field(...TranslationsField())
  translations?: Record<string, string>;
}

/** Add Phrase (docs/product.md section 5): phrase, dictionary and the MP3 are all required. */
export class CreatePhraseDto extends PhraseFieldsDto {
  @PositiveId('chapter id')
  chapter_id: number;

  @Field(IsNotEmpty({ message: 'The line audio field is required.' }), ...lineAudio)
  line_audio: UploadedFile;
}

/** Editing a phrase keeps its audio unless a new file is sent. */
export class UpdatePhraseDto extends PhraseFieldsDto {
  @Field(IsOptional(), ...lineAudio)
  line_audio?: UploadedFile;
}

export class ChapterIdQuery {
  @PositiveId('chapter id')
  chapter_id: number;
}

export class PhraseOrderDto {
  @Field(
    // A form may send "3,1,2"; JSON sends [3, 1, 2].
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.split(',').map((part) => Number(part.trim())) : value,
    ),
    IsArray({ message: 'The ids must be a list of phrase ids.' }),
    ArrayMaxSize(10_000, { message: 'Too many ids.' }),
    IsInt({ each: true, message: 'The ids must be whole numbers.' }),
    Min(1, { each: true, message: 'The ids must be whole numbers.' }),
  )
  ids: number[];
}

/** What a phrase's answer shows of it (a phrase just appended has no timestamps read back). */
export type PhraseFields = Pick<
  Phrase,
  'id' | 'chapterId' | 'position' | 'phrase' | 'dictionary' | 'audioPath' | 'audioMs'
>;

/** `audio` is the clip's URL as media-urls.ts's clipUrl gives it: signed when its chapter is locked. */
export const toPhraseResponse = (
  phrase: PhraseFields,
  audio: string,
  translations: Translations,
): PhraseResponse => ({
  id: phrase.id,
  chapter_id: phrase.chapterId,
  position: phrase.position,
  phrase: phrase.phrase,
  dictionary: phrase.dictionary,
  line_audio: audio,
  duration_ms: phrase.audioMs,
  translations,
});
