import { ApiProperty } from '@nestjs/swagger';

/** The admin API's chapter answers: the service's types, the OpenAPI document and the site's, in one place. */
export class ChapterSummaryResponse {
  @ApiProperty() id: number;
  @ApiProperty() book_id: number;
  @ApiProperty() title: string;
  @ApiProperty() chapter_no: number;
  @ApiProperty() phrase_count: number;
  @ApiProperty({ description: "The sum of its phrases' known durations (0 when none is known)." })
  duration_ms: number;
}

export class BookChaptersResponse {
  @ApiProperty() id: number;
  @ApiProperty() book_code: string;
  @ApiProperty({ description: "The book's title." }) title: string;
  @ApiProperty({ type: [ChapterSummaryResponse] }) chapters: ChapterSummaryResponse[];
}

export class ChapterResponse {
  @ApiProperty() id: number;
  @ApiProperty() book_id: number;
  @ApiProperty() title: string;
  @ApiProperty() chapter_no: number;
}

export class ChapterDetailResponse extends ChapterResponse {
  @ApiProperty() book_code: string;
  @ApiProperty() book_title: string;
}

export class BookChaptersAnswer {
  @ApiProperty({ type: BookChaptersResponse }) data: BookChaptersResponse;
}

export class ChapterDetailAnswer {
  @ApiProperty({ type: ChapterDetailResponse }) data: ChapterDetailResponse;
}

export class ChapterAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: ChapterResponse }) data: ChapterResponse;
}
