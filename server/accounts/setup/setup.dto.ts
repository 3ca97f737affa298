import { ApiProperty, PickType } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { SignupDto } from '../auth/auth.dto';

/** The first administrator: sign-up's fields and rules (no repeated password: the page checks it). */
export class SetupDto extends PickType(SignupDto, ['name', 'email', 'password'] as const) {
  @ApiProperty({ description: 'The setup code the boot log printed (Setup code: …).' })
  @IsNotEmpty({ message: 'The setup code field is required.' })
  @IsString({ message: 'The setup code must be text.' })
  @MaxLength(64, { message: 'This is not the setup code the server printed.' })
  code: string;
}

export class SetupStateResponse {
  @ApiProperty({ description: 'Whether the installation still waits for its first administrator.' })
  needed: boolean;
}

export class SetupStateAnswer {
  @ApiProperty({ type: SetupStateResponse }) data: SetupStateResponse;
}
