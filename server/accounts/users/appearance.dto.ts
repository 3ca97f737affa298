import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, Max, Min } from 'class-validator';
import { Field } from '../../platform/common/field';
import { ToInteger } from '../../platform/common/form-values';
import { OptionalDateTime, SENT_LATER_MAX_AGE_DAYS } from '../../platform/common/sent-later';

export const THEMES = ['system', 'light', 'dark', 'sepia'] as const;
export type Theme = (typeof THEMES)[number];
export const TEXT_SIZES = 4;
export const LINE_SPACINGS = 3;

const THEME_MESSAGE = 'The theme must be system, light, dark or sepia.';
const SIZE_MESSAGE = `The text size must be a whole number from 1 to ${TEXT_SIZES}.`;
const SPACING_MESSAGE = `The line spacing must be a whole number from 1 to ${LINE_SPACINGS}.`;

/** PUT user/appearance: the whole setting, as the device holds it. */
export class AppearanceDto {
  @Field(IsNotEmpty({ message: 'The theme field is required.' }), IsIn(THEMES, { message: THEME_MESSAGE }))
  @ApiProperty({ enum: THEMES, description: 'system follows the device (light or dark).' })
  theme: Theme;

  @Field(
    ToInteger(),
    IsNotEmpty({ message: 'The text size field is required.' }),
    IsInt({ message: SIZE_MESSAGE }),
    Min(1, { message: SIZE_MESSAGE }),
    Max(TEXT_SIZES, { message: SIZE_MESSAGE }),
  )
  @ApiProperty({ minimum: 1, maximum: TEXT_SIZES, description: "The reader's text size; 2 is the default." })
  text_size: number;

  @Field(
    ToInteger(),
    IsNotEmpty({ message: 'The line spacing field is required.' }),
    IsInt({ message: SPACING_MESSAGE }),
    Min(1, { message: SPACING_MESSAGE }),
    Max(LINE_SPACINGS, { message: SPACING_MESSAGE }),
  )
  @ApiProperty({
    minimum: 1,
    maximum: LINE_SPACINGS,
    description: "The reader's line spacing; 2 is the default.",
  })
  line_spacing: number;

  @OptionalDateTime(
    'The time of the choice must be a date and time such as 2026-11-22T09:30:00Z.',
    `When the member made this choice on their device. Without it, now; ahead of the server's clock is taken as now; more than ${SENT_LATER_MAX_AGE_DAYS} days ago is refused (422). If the server holds a choice made after \`at\`, it keeps that one and answers it, with \`kept: true\`.`,
  )
  at?: string;
}

export class AppearanceResponse {
  @ApiProperty({ enum: THEMES }) theme: Theme;
  @ApiProperty() text_size: number;
  @ApiProperty() line_spacing: number;
  @ApiProperty({ format: 'date-time', description: 'When the member made this choice.' }) updated_at: string;
}

export class AppearanceAnswer {
  @ApiProperty({ type: AppearanceResponse, nullable: true, description: 'Null until the member chooses.' })
  data: AppearanceResponse | null;
}

export class AppearanceSaveAnswer {
  @ApiProperty({ type: AppearanceResponse }) data: AppearanceResponse;

  @ApiProperty({
    required: false,
    type: Boolean,
    description:
      'Always true when present: the server held a choice made after `at`, kept it, and `data` is it.',
  })
  kept?: true;

  @ApiProperty({ required: false, description: 'With `kept`: the same, for people.' }) message?: string;
}
