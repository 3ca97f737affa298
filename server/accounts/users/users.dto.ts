import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, ValidateBy, ValidateIf } from 'class-validator';
import { Name } from '../auth/auth.dto';
import { Field } from '../../platform/common/field';
import { canonicalTimeZone } from '../../platform/common/time-zone';
import { SubscriptionSummary } from '../billing/billing.dto';
import type { User } from './user.entity';
import { MAX_SPEAKS, SpeaksField, speaksOf } from './speaks';

const IsTimeZone = () =>
  ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && canonicalTimeZone(value) !== null,
      defaultMessage: () => 'The time zone must be an IANA time zone name, such as Europe/Paris.',
    },
  });

export class UpdateProfileDto {
  // The name may be left out when the call only sets the time zone (the site does so by itself) or the
  // languages.
  @ValidateIf(
    (dto: UpdateProfileDto) =>
      dto.name !== undefined || (dto.time_zone === undefined && dto.speaks === undefined),
  )
  @Name()
  name?: string;

  /** Null goes back to UTC days. */
  @Field(IsOptional(), IsTimeZone())
  time_zone?: string | null;

  /** Best first; null or [] clears the list. */
  @ApiProperty({
    required: false,
    type: [String],
    nullable: true,
    example: ['en', 'pt-BR'],
    description: `The languages the member reads (BCP 47), best first; at most ${MAX_SPEAKS}. [] or null clears them.`,
  })
  @Field(...SpeaksField())
  speaks?: string[] | null;
}

/** The user as the login answer and the browser's session hold it: never a hash or a token version. */
export class UserResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty({ description: '1 for an administrator, 2 for a member.' }) user_type: number;
  @ApiProperty() user_role_id: number;
}

export class ProfileResponse extends UserResponse {
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'An IANA time zone; null means UTC days.' })
  time_zone: string | null;
  @ApiProperty({
    type: [String],
    example: ['en', 'pt-BR'],
    description: 'The languages the member reads (BCP 47), best first; [] when none chosen.',
  })
  speaks: string[];
}

export class ProfileWithSubscription extends ProfileResponse {
  @ApiProperty({ type: SubscriptionSummary }) subscription: SubscriptionSummary;
}

export class ProfileAnswer {
  @ApiProperty({ type: ProfileWithSubscription }) data: ProfileWithSubscription;
}

export class ProfileUpdatedAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: ProfileResponse }) data: ProfileResponse;
}

export class PasswordChangedAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ description: 'A fresh bearer token: the change ended every other session.' }) token: string;
}

export const toUserResponse = (user: User): UserResponse => ({
  id: user.id,
  name: user.name,
  email: user.email,
  user_type: user.userType,
  user_role_id: user.userRoleId,
});

export const toProfileResponse = (user: User): ProfileResponse => ({
  ...toUserResponse(user),
  created_at: user.createdAt.toISOString(),
  time_zone: user.timeZone,
  speaks: speaksOf(user),
});
