import { Injectable } from '@nestjs/common';

/** The time, behind a seam: token expiry and rate windows are tested by moving it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
