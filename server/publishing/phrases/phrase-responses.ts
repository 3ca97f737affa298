import { ApiProperty } from '@nestjs/swagger';

/**
 * The admin API's phrase answers. One definition for three readers: the service's return types, the
 * OpenAPI document (these decorators) and the site's admin islands (site/lib/admin.ts imports the types).
 */
export class PhraseResponse {
  @ApiProperty() id: number;
  @ApiProperty() chapter_id: number;
  @ApiProperty({ description: 'Reading order within the chapter, from 1.' }) position: number;
  @ApiProperty() phrase: string;
  @ApiProperty({ description: 'Glossary entries, one per line.' }) dictionary: string;
  @ApiProperty({ description: "The clip's URL; signed and expiring when its chapter is locked." })
  line_audio: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Null when the file did not say.' })
  duration_ms: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { en: 'Good morning.' },
    description: 'Its translations by BCP 47 tag; {} when none.',
  })
  translations: Record<string, string>;
}

export class ChapterPhrasesResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: "The chapter's title." }) title: string;
  @ApiProperty() chapter_no: number;
  @ApiProperty() book_id: number;
  @ApiProperty() book_code: string;
  @ApiProperty() book_title: string;
  @ApiProperty({ type: [PhraseResponse] }) phrases: PhraseResponse[];
}

export class ChapterPhrasesAnswer {
  @ApiProperty({ type: ChapterPhrasesResponse }) data: ChapterPhrasesResponse;
}

export class PhraseAnswer {
  @ApiProperty({ required: false }) message?: string;
  @ApiProperty({ type: PhraseResponse }) data: PhraseResponse;
}

export class PhraseOrderAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: ChapterPhrasesResponse }) data: ChapterPhrasesResponse;
}

export { MessageAnswer } from '../../platform/common/answers';
