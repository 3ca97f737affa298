import { ApiProperty } from '@nestjs/swagger';

/** The answer of a call that only confirms: `{ message }`. */
export class MessageAnswer {
  @ApiProperty() message: string;
}
