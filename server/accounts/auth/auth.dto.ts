import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Field } from '../../platform/common/field';
import { Trim } from '../../platform/common/form-values';
import { Matches } from '../../platform/common/match.validator';
import { AnyText } from '../../platform/common/stored-text';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password';

const trimmed = Trim();
const normalisedEmail = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value,
);

export const PASSWORD_LENGTH_MESSAGE = `The password must be between ${MIN_PASSWORD_LENGTH} and ${MAX_PASSWORD_LENGTH} characters.`;

const required = (label: string) => IsNotEmpty({ message: `The ${label} field is required.` });
const text = (label: string) => IsString({ message: `The ${label} must be text.` });

/** A new password, with the length rules every password field shares; any character (only a hash is kept). */
const NewPassword = () =>
  Field(
    AnyText(),
    required('password'),
    text('password'),
    MinLength(MIN_PASSWORD_LENGTH, { message: PASSWORD_LENGTH_MESSAGE }),
    MaxLength(MAX_PASSWORD_LENGTH, { message: PASSWORD_LENGTH_MESSAGE }),
  );

const Email = () =>
  Field(
    normalisedEmail,
    required('email'),
    text('email'),
    IsEmail({}, { message: 'The email must be a valid email address.' }),
    MaxLength(254, { message: 'The email must not be longer than 254 characters.' }),
  );

export const Name = () =>
  Field(
    trimmed,
    required('name'),
    text('name'),
    MaxLength(100, { message: 'The name must not be longer than 100 characters.' }),
  );

const Confirmation = (label: string, message: string) =>
  Field(AnyText(), required(label), text(label), Matches('password', { message }));

export class SignupDto {
  @Name()
  name: string;

  @Email()
  email: string;

  @NewPassword()
  password: string;

  @Confirmation('repeat password', 'The repeated password does not match.')
  repeat_password: string;
}

export class LoginDto {
  @Field(
    normalisedEmail,
    required('email'),
    text('email'),
    MaxLength(254, { message: 'The email is too long.' }),
  )
  email: string;

  // A longer password cannot be right, so it gets the same answer as a wrong one.
  @Field(
    AnyText(),
    required('password'),
    text('password'),
    MaxLength(MAX_PASSWORD_LENGTH, { message: 'These credentials do not match our records.' }),
  )
  password: string;

  /**
   * The device token an earlier sign-in on this browser answered (see DeviceTokens): only compared, so any
   * character; a damaged one is not trusted, and the sign-in goes on without it.
   */
  @Field(
    AnyText(),
    IsOptional(),
    text('device token'),
    MaxLength(2000, { message: 'The device token is not valid.' }),
  )
  device_token?: string;
}

export class RecoveryRequestDto {
  @Email()
  email: string;
}

export class VerifyTokenDto {
  // Only compared with the stored hashes, so any character: a wrong one is an invalid token.
  @Field(
    AnyText(),
    trimmed,
    required('verification token'),
    text('verification token'),
    MaxLength(200, { message: 'This password reset token is invalid or has expired.' }),
  )
  verification_token: string;
}

export class ResetPasswordDto extends VerifyTokenDto {
  @NewPassword()
  password: string;

  @Confirmation('confirm password', 'The password confirmation does not match.')
  confirm_password: string;
}

export class ChangePasswordDto {
  @Field(
    AnyText(),
    required('current password'),
    text('current password'),
    MaxLength(MAX_PASSWORD_LENGTH, { message: 'The current password is not correct.' }),
  )
  current_password: string;

  @NewPassword()
  password: string;

  @Confirmation('confirm password', 'The password confirmation does not match.')
  confirm_password: string;
}
