import { ApiProperty } from '@nestjs/swagger';
import { UserResponse } from '../users/users.dto';

/** The answer of a successful sign-in: the service's return type and the OpenAPI document's. */
export class LoginAnswer {
  @ApiProperty({ description: 'The bearer token for every member call.' }) token: string;
  @ApiProperty({ type: UserResponse }) user: UserResponse;
  @ApiProperty({
    description: 'Send it with the next sign-in on this browser: its failures then count apart from others.',
  })
  device_token: string;
}

/**
 * The answer of a sign-up: the new member is signed in at once (the login answer), and the server's
 * message says so.
 */
export class SignupAnswer extends LoginAnswer {
  @ApiProperty() message: string;
}
