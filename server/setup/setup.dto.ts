import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Email, Name, NewPassword } from '../auth/auth.dto';

export class SetupDto {
  @ApiProperty({ description: 'The setup code the boot log printed (Setup code: …).' })
  @IsNotEmpty({ message: 'The setup code field is required.' })
  @IsString({ message: 'The setup code must be text.' })
  @MaxLength(64, { message: 'This is not the setup code the server printed.' })
  code: string;

  @Name()
  name: string;

  @Email()
  email: string;

  @NewPassword()
  password: string;
}

export class SetupStateResponse {
  @ApiProperty({ description: 'Whether the installation still waits for its first administrator.' })
  needed: boolean;
}

export class SetupStateAnswer {
  @ApiProperty({ type: SetupStateResponse }) data: SetupStateResponse;
}
