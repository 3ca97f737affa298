import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { dateFromDb } from '../../platform/database/db-dates';
import { Field } from '../../platform/common/field';
import { Trim } from '../../platform/common/form-values';
import type { AppPassword } from './app-password.entity';

export class CreateAppPasswordDto {
  /** Which app it is for, so the member knows which one to revoke. */
  @Field(
    Trim(),
    IsNotEmpty({ message: 'The name field is required.' }),
    IsString({ message: 'The name must be text.' }),
    MaxLength(100, { message: 'The name must not be longer than 100 characters.' }),
  )
  name: string;
}

export class AppPasswordResponse {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'KOReader' }) name: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at: string | null;
}

export class NewAppPassword extends AppPasswordResponse {
  @ApiProperty({
    example: 'abcd-efgh-ijkl-mnop-qrst-uvwx',
    description: 'The password, shown this once: only a keyed hash of it is kept.',
  })
  password: string;
}

export class AppPasswordsAnswer {
  @ApiProperty({ type: [AppPasswordResponse] }) data: AppPasswordResponse[];
}

export class AppPasswordCreatedAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: NewAppPassword }) data: NewAppPassword;
}

export class AppPasswordRevokedAnswer {
  @ApiProperty() message: string;
}

/** Never the hash: a listing shows which apps, not their secrets. */
export const toAppPasswordResponse = (row: AppPassword): AppPasswordResponse => ({
  id: row.id,
  name: row.name,
  created_at: dateFromDb(row.createdAt).toISOString(),
  last_used_at: row.lastUsedAt ? dateFromDb(row.lastUsedAt).toISOString() : null,
});
