import { ApiProperty } from '@nestjs/swagger';
import type { CheckState } from './readiness-checks';

const STATES: CheckState[] = ['ok', 'unavailable'];

export class HealthAnswer {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

export class ReadinessChecksResponse {
  @ApiProperty({ enum: STATES }) database: CheckState;
  @ApiProperty({ enum: STATES }) media: CheckState;
}

export class ReadyAnswer {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ type: ReadinessChecksResponse }) checks: ReadinessChecksResponse;
}

export class NotReadyAnswer {
  @ApiProperty({ description: 'Which checks failed, e.g. "Not ready: media unavailable."' }) message: string;
  @ApiProperty({ type: ReadinessChecksResponse }) checks: ReadinessChecksResponse;
}
